// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Everything the views of one capture show, computed once off the GUI thread and then
// shared read-only: the ingest tables, TCP analysis, 802.11 inventory, events and their
// correlation with TCP (the same calls windscope-cli analyze/events/correlate make).

#include "analysis/plot_series.h"
#include "analysis/store/analysis_codec.h"
#include "analysis/wlan_correlation.h"
#include "dissectors/ingest.h"

#include <QString>

#include <memory>

namespace windscope::gui {

// The bundle part (tables, tcp, events) is what a project caches for the capture.
struct CaptureAnalysis : analysis::store::AnalysisBundle
{
    analysis::WlanInventory inventory;
    analysis::Correlation correlation;
};

enum class AnalysisStage { Reading, Tcp, Inventory, Events, Correlation, Done };
QString stageName(AnalysisStage stage);

// What to show first: the event that hurt TCP most (retransmissions and timeouts in its
// correlation window, then throughput lost) and its most affected connection; without
// events, the connection that moved the most data. -1 when there is none.
struct Selection
{
    int connection = -1;
    int event = -1;
};
Selection mostAffected(const CaptureAnalysis& capture);

// Series of one connection for the plots (analysis::buildConnectionSeries).
std::shared_ptr<const analysis::ConnectionSeries> connectionSeries(const CaptureAnalysis& capture,
                                                                   std::size_t connection);

// "client:port → server:port" of a connection.
QString connectionText(const CaptureAnalysis& capture, std::size_t connection);
QString macText(const CaptureAnalysis& capture, std::uint32_t mac);

} // namespace windscope::gui
