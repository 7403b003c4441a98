// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The products of analysing one capture, stage by stage: the columnar tables of the
// reading, the TCP analysis, the 802.11 inventory and events, and their correlation.

#include "analysis/tcp/tcp_analysis.h"
#include "analysis/wlan/wlan_correlation.h"
#include "analysis/wlan/wlan_events.h"
#include "analysis/wlan/wlan_inventory.h"
#include "dissectors/capture_tables.h"

namespace windscope::analysis::pipeline {

// Everything a fresh analysis of one capture produces that the project caches.
struct AnalysisBundle
{
    dissect::CaptureTables tables;
    TcpAnalysis tcp;
    WlanInventory inventory;
    WlanEvents events;
    Correlation correlation; // default CorrelationOptions
};

} // namespace windscope::analysis::pipeline
