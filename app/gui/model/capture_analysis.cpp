// SPDX-License-Identifier: GPL-3.0-or-later
#include "capture_analysis.h"

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

double impactScore(const analysis::ConnectionImpact& m)
{
    const double lost =
        m.throughputBeforeBps > 0 ? std::max(0.0, 1.0 - m.throughputDuringBps / m.throughputBeforeBps) : 0.0;
    return m.retransmissions + 3.0 * m.rtoTimeouts + lost;
}

Selection mostAffected(const CaptureAnalysis& c)
{
    Selection best;
    double bestScore = -1;
    for (const analysis::EventImpact& impact : c.correlation.impacts) {
        for (const analysis::ConnectionImpact& m : impact.connections) {
            const double score = impactScore(m);
            if (score > bestScore) {
                bestScore = score;
                best.connection = static_cast<int>(m.connection);
                best.event = static_cast<int>(impact.event);
            }
        }
    }
    if (best.connection >= 0)
        return best;
    std::uint64_t most = 0;
    for (std::size_t i = 0; i < c.tcp.connections.size(); ++i) {
        const analysis::Connection& k = c.tcp.connections[i];
        const std::uint64_t bytes = k.direction[0].dataBytes + k.direction[1].dataBytes;
        if (best.connection < 0 || bytes > most) {
            most = bytes;
            best.connection = static_cast<int>(i);
        }
    }
    if (!c.events.events.empty())
        best.event = 0;
    return best;
}

int connectionForEvent(const CaptureAnalysis& c, std::size_t event, int preferred)
{
    if (event >= c.events.events.size())
        return -1;
    const analysis::ConnectionImpact* worst = nullptr;
    if (event < c.correlation.impacts.size())
        for (const analysis::ConnectionImpact& m : c.correlation.impacts[event].connections) {
            if (preferred >= 0 && static_cast<int>(m.connection) == preferred)
                return preferred;
            if (!worst || m.retransmissions + m.rtoTimeouts > worst->retransmissions + worst->rtoTimeouts)
                worst = &m;
        }
    if (worst)
        return static_cast<int>(worst->connection);
    const analysis::WlanEvent& e = c.events.events[event];
    if (preferred >= 0 && e.connection == preferred)
        return preferred;
    return e.connection >= 0 ? e.connection : -1;
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

QString connectionText(const CaptureAnalysis& c, std::size_t connection)
{
    const analysis::Connection& k = c.tcp.connections[connection];
    return QStringLiteral("%1 → %2")
        .arg(QString::fromStdString(analysis::endpointText(c.tables, k.address[0], k.port[0])),
             QString::fromStdString(analysis::endpointText(c.tables, k.address[1], k.port[1])));
}

QString macText(const CaptureAnalysis& c, std::uint32_t mac)
{
    if (mac >= c.tables.macAddresses.size())
        return QStringLiteral("-");
    return QString::fromStdString(c.tables.macAddresses.at(mac).toString());
}

} // namespace windscope::gui
