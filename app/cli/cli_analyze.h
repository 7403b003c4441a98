// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "analysis/tcp/tcp_analysis.h"
#include "analysis/wlan/wlan_inventory.h"

#include <string>
#include <vector>

namespace windscope::cli {

// windscope-cli analyze FILE [--json | --csv [--segments]] [--low-window BYTES]
int runAnalyze(const std::vector<std::string>& args);
// The text report of analyze (capture summary and connection table), also printed by
// `project show` from a project's cached results. Times are seconds since the capture's
// first packet, as on the plots; with an inventory (802.11 captures), each connection
// shows the BSSID(s) its station used.
void printAnalyzeSummary(const dissect::CaptureTables& tables, const analysis::TcpAnalysis& result,
                         const analysis::WlanInventory* inventory = nullptr);

} // namespace windscope::cli
