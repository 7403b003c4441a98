// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Machine output of the 802.11 inventory, events and their correlation with TCP
// (windscope-cli events / correlate; the GUI's export uses the same functions).

#include "analysis/wlan/wlan_correlation.h"

#include <ostream>

namespace windscope::analysis {

struct EventsReport
{
    const dissect::CaptureTables& tables;
    const TcpAnalysis& tcp;
    const WlanInventory& inventory;
    const WlanEvents& events;
};

// windscope-cli events FILE --json: {"capture", "access_points", "stations",
// "connections", "events", "scan_patterns", "mac_stats", "notes"}; "events" follows
// the CLI contract (docs/cli.md, "events").
void writeEventsJson(std::ostream& out, const EventsReport& report);
// windscope-cli events FILE --csv: one row per event.
void writeEventsCsv(std::ostream& out, const EventsReport& report);
// windscope-cli correlate FILE --json: {"events": [... with "connections"], "kinds",
// "scan_intervals", "notes"}.
void writeCorrelationJson(std::ostream& out, const EventsReport& report,
                          const Correlation& correlation);
// windscope-cli correlate FILE --csv: one row per (event, connection).
// The recovery time of one impact as text: "N ms", "not within the window", or "-" with
// why when there was no throughput before the event.
std::string recoveryText(const ConnectionImpact& impact);

void writeCorrelationCsv(std::ostream& out, const EventsReport& report,
                         const Correlation& correlation);

} // namespace windscope::analysis
