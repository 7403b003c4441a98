// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Output of a project's fleet view (windscope-cli fleet; the desktop's Fleet tab
// exports the same table).

#include "analysis/wlan/fleet_summary.h"

#include <ostream>
#include <string>
#include <vector>

namespace windscope::analysis {

struct FleetReport
{
    std::string project;
    FleetGrouping by = FleetGrouping::Station;
    std::size_t captures = 0, staleCaptures = 0, failedCaptures = 0;
    std::vector<std::string> damagedCaptures; // left out: their fleet part could not be read
    std::vector<FleetRow> rows;            // ranked (groupFleet)
    std::vector<FleetKindCost> kinds;      // the whole archive per kind, in kind order
};

FleetReport buildFleetReport(const std::string& project, const std::vector<FleetCapture>& captures,
                             FleetGrouping by);

// {"project", "grouped_by", "captures", "captures_stale", "captures_failed",
//  "captures_damaged": [why...], "ranked_by",
//  "groups": [{"key", "captures", "stations", "stalled_ms", "goodput_lost_bytes", ...,
//  "kinds": [...], "worst_event": {...}}], "kinds": [...]}
void writeFleetJson(std::ostream& out, const FleetReport& report);
// One row per (group, kind) and a "total" row per group, in rank order.
void writeFleetCsv(std::ostream& out, const FleetReport& report);
// Aligned text: one line per group, its worst event below.
void writeFleetText(std::ostream& out, const FleetReport& report);

} // namespace windscope::analysis
