// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The products of analysing one capture, stage by stage: the columnar tables of the
// reading, the TCP analysis, the 802.11 inventory and events, the inferred congestion
// windows and the events' correlation with TCP.

#include "analysis/cwnd/cwnd_inference.h"
#include "analysis/tcp/tcp_analysis.h"
#include "analysis/wlan/fleet_summary.h"
#include "analysis/wlan/wlan_correlation.h"
#include "analysis/wlan/wlan_events.h"
#include "analysis/wlan/wlan_inventory.h"
#include "dissectors/capture_tables.h"

#include <vector>

namespace windscope::analysis::pipeline {

// Everything the analysis of one capture produces that the project caches.
struct AnalysisBundle
{
    dissect::CaptureTables tables;
    TcpAnalysis tcp;
    WlanInventory inventory;
    WlanEvents events;
    Correlation correlation; // default CorrelationOptions
    // The data sender's inference (default CwndOptions) of every connection, indexed by
    // connection, as cwnd::inferCwndAll gives it; empty when not computed (the pipeline
    // infers a connection's window when first asked).
    std::vector<cwnd::CwndInference> cwnd;
    // The correlation summed by station, AP, SSID and event kind, for a project's fleet
    // view; filled with the rest when the products are cached (cacheProducts).
    FleetSummary fleet;
};

} // namespace windscope::analysis::pipeline
