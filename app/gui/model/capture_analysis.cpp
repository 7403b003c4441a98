// SPDX-License-Identifier: GPL-3.0-or-later
#include "capture_analysis.h"

#include "render/capture_choice.h"
#include "analysis/pipeline/analyze_capture.h"
#include "analysis/report/report_json.h"

#include <QCoreApplication>

namespace windscope::gui {

QString stageName(AnalysisStage stage)
{
    switch (stage) {
    case AnalysisStage::Reading: return QCoreApplication::translate("CaptureLoader", "Reading packets");
    case AnalysisStage::Tcp: return QCoreApplication::translate("CaptureLoader", "Analysing TCP connections");
    case AnalysisStage::Inventory: return QCoreApplication::translate("CaptureLoader", "Finding stations and access points");
    case AnalysisStage::Events: return QCoreApplication::translate("CaptureLoader", "Detecting 802.11 events");
    case AnalysisStage::Correlation: return QCoreApplication::translate("CaptureLoader", "Correlating events with TCP");
    case AnalysisStage::Cwnd: return QCoreApplication::translate("CaptureLoader", "Inferring congestion windows");
    case AnalysisStage::Done: return QCoreApplication::translate("CaptureLoader", "Done");
    }
    return {};
}

CaptureAnalysis::CaptureAnalysis()
    : CaptureAnalysis(std::make_shared<const analysis::pipeline::CapturePipeline>(analysis::pipeline::AnalysisBundle{}))
{
}

CaptureAnalysis::CaptureAnalysis(std::shared_ptr<const analysis::pipeline::CapturePipeline> p)
    : pipeline(std::move(p)), tables(pipeline->products().tables), tcp(pipeline->products().tcp),
      inventory(pipeline->products().inventory), events(pipeline->products().events),
      correlation(pipeline->products().correlation)
{
}

std::shared_ptr<CaptureAnalysis> analyzeCapture(const QString& path, const dissect::IngestOptions& options,
                                                const std::function<void(AnalysisStage)>& onStage,
                                                const std::function<bool()>& stop, QString& error)
{
    analysis::pipeline::PipelineOptions pipelineOptions;
    pipelineOptions.ingest = options;
    auto pipeline = std::make_shared<analysis::pipeline::CapturePipeline>(path.toStdString(), pipelineOptions);
    const analysis::pipeline::AnalyzeControl control{options, onStage, stop};
    analysis::pipeline::ControlObserver observer(control);
    pipeline->setObserver(&observer);
    std::string message;
    // What the views show at once; a connection's cwnd is inferred when first shown.
    const bool ok = pipeline->run(AnalysisStage::Correlation, message);
    pipeline->setObserver(nullptr);
    error = QString::fromStdString(message);
    if (!ok)
        return nullptr;
    if (onStage)
        onStage(AnalysisStage::Done);
    return std::make_shared<CaptureAnalysis>(std::move(pipeline));
}

Selection mostAffected(const CaptureAnalysis& c)
{
    return analysis::mostAffected(c.tcp, c.events, c.correlation);
}

int connectionForEvent(const CaptureAnalysis& c, std::size_t event, int preferred)
{
    return analysis::connectionForEvent(c.events, c.correlation, event, preferred);
}

std::shared_ptr<const analysis::ConnectionSeries> connectionSeries(const CaptureAnalysis& c,
                                                                   std::size_t connection, int sender,
                                                                   bool inferCwnd)
{
    const analysis::SeriesInputs in = c.seriesInputs();
    analysis::SeriesOptions options;
    options.sender = sender;
    options.inferCwnd = inferCwnd;
    return std::make_shared<const analysis::ConnectionSeries>(analysis::buildConnectionSeries(in, connection, options));
}

QString connectionText(const CaptureAnalysis& c, std::size_t connection) { return render::connectionText(c, connection); }

QString macText(const CaptureAnalysis& c, std::uint32_t mac) { return render::macText(c, mac); }

} // namespace windscope::gui
