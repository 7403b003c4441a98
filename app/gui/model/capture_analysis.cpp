// SPDX-License-Identifier: GPL-3.0-or-later
#include "capture_analysis.h"

#include "render/capture_choice.h"

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
    case AnalysisStage::Done: return QCoreApplication::translate("CaptureLoader", "Done");
    }
    return {};
}

std::shared_ptr<CaptureAnalysis> analyzeCapture(const QString& path, const dissect::IngestOptions& options,
                                                const std::function<void(AnalysisStage)>& onStage,
                                                const std::function<bool()>& stop, QString& error)
{
    auto capture = std::make_shared<CaptureAnalysis>();
    const analysis::pipeline::AnalyzeControl control{options, onStage, stop};
    std::string message;
    const bool ok = analysis::pipeline::analyzeCapture(path.toStdString(), *capture, message, control);
    error = QString::fromStdString(message);
    return ok ? capture : nullptr;
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
    const analysis::SeriesInputs in{c.tables, c.tcp, &c.inventory, &c.events};
    analysis::SeriesOptions options;
    options.sender = sender;
    options.inferCwnd = inferCwnd;
    return std::make_shared<const analysis::ConnectionSeries>(analysis::buildConnectionSeries(in, connection, options));
}

QString connectionText(const CaptureAnalysis& c, std::size_t connection) { return render::connectionText(c, connection); }

QString macText(const CaptureAnalysis& c, std::uint32_t mac) { return render::macText(c, mac); }

} // namespace windscope::gui
