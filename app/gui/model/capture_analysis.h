// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Everything the views of one capture show, computed once off the GUI thread and then
// shared read-only: the capture's analysis pipeline (the one windscope-cli asks), run
// through the event correlation, with its products in reach as members. The cwnd of a
// connection comes from the pipeline when a view first asks for it (or from the
// project's cache).

#include "analysis/series/plot_series.h"
#include "analysis/pipeline/capture_pipeline.h"
#include "analysis/wlan/impact_ranking.h"

#include <QString>

#include <functional>
#include <memory>

namespace windscope::gui {

struct CaptureAnalysis
{
    // An empty capture.
    CaptureAnalysis();
    // The pipeline's products as they are now (stages it has not computed are empty).
    explicit CaptureAnalysis(std::shared_ptr<const analysis::pipeline::CapturePipeline> pipeline);

    std::shared_ptr<const analysis::pipeline::CapturePipeline> pipeline;
    const dissect::CaptureTables& tables;
    const analysis::TcpAnalysis& tcp;
    const analysis::WlanInventory& inventory;
    const analysis::WlanEvents& events;
    const analysis::Correlation& correlation;
    // The products as the pipeline holds them, for the renderer's tables and choices.
    operator const analysis::pipeline::AnalysisBundle&() const { return pipeline->products(); }
    // The series inputs of this capture, the pipeline's cwnd stage among them.
    analysis::SeriesInputs seriesInputs() const
    {
        return {tables, tcp, pipeline.get(), &inventory, &events};
    }
};

using analysis::pipeline::AnalysisStage;
QString stageName(AnalysisStage stage);

// Reads and analyses a capture on the calling thread, as the desktop application's
// loader (off the GUI thread) and windscope-cli export both do. onStage is told each
// stage as it starts; stop is asked between stages (and by ingest through
// options.observer). Returns null with error set when the file cannot be read, null
// with error empty when stopped.
std::shared_ptr<CaptureAnalysis> analyzeCapture(const QString& path, const dissect::IngestOptions& options,
                                                const std::function<void(AnalysisStage)>& onStage,
                                                const std::function<bool()>& stop, QString& error);

// What to show first and where to show an event: the rules of analysis/wlan/
// impact_ranking.h on this capture's correlation.
using Selection = analysis::ImpactSelection;
Selection mostAffected(const CaptureAnalysis& capture);
int connectionForEvent(const CaptureAnalysis& capture, std::size_t event, int preferred = -1);

// Series of one connection for the plots (analysis::buildConnectionSeries); sender -1
// plots the endpoint that sent more data. Without inferCwnd the congestion window is left
// out (CwndSeriesTask adds it off the GUI thread).
std::shared_ptr<const analysis::ConnectionSeries> connectionSeries(const CaptureAnalysis& capture,
                                                                   std::size_t connection, int sender = -1,
                                                                   bool inferCwnd = true);

// "client:port → server:port" of a connection.
QString connectionText(const CaptureAnalysis& capture, std::size_t connection);
QString macText(const CaptureAnalysis& capture, std::uint32_t mac);

} // namespace windscope::gui
