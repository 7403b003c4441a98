// SPDX-License-Identifier: GPL-3.0-or-later
#include "replay_runner.h"

#include "analysis/replay/scenario/fix.h"
#include "analysis/replay/scenario/presets.h"
#include "analysis/replay/sim/trace_tables.h"

#include <QThread>

namespace windscope::gui {

namespace rp = analysis::replay;

QString validateReplayRequest(const ReplayRequest& request)
{
    std::string error;
    for (const QString& fix : request.fixes)
        if (!rp::makeFix(fix.toStdString(), error))
            return QString::fromStdString(error);
    rp::Scenario scenario;
    if (!request.preset.isEmpty() && !rp::makePreset(request.preset.toStdString(), scenario))
        return QObject::tr("unknown preset '%1'").arg(request.preset);
    return {};
}

bool replayReportFor(const CaptureAnalysis& capture, const ReplayRequest& request, rp::ReplayReport& report,
                     QString& error)
{
    error = validateReplayRequest(request);
    if (!error.isEmpty())
        return false;
    rp::ReplayOptions options;
    for (const QString& fix : request.fixes)
        options.fixes.push_back(fix.toStdString());
    if (!request.preset.isEmpty()) {
        rp::Scenario scenario;
        rp::makePreset(request.preset.toStdString(), scenario);
        report = rp::replayScenario(scenario, options);
    } else {
        if (request.connection >= capture.tcp.connections.size()) {
            error = QObject::tr("no connection %1 in the capture").arg(request.connection);
            return false;
        }
        const analysis::Connection& c = capture.tcp.connections[request.connection];
        const int sender = analysis::cwnd::dataSenderOf(c);
        if (c.direction[sender].dataPackets < 2) {
            error = QObject::tr("connection %1 carries no data from its sender").arg(request.connection);
            return false;
        }
        // The pipeline's cwnd of the connection: inferred once, or loaded from the project.
        const rp::DerivationInput input{&capture.tables, &capture.tcp, request.connection, sender, &capture.events,
                                        &capture.pipeline->cwndOf(request.connection)};
        report = rp::replayCapture(input, options);
    }
    if (!report.error.empty()) {
        error = QString::fromStdString(report.error);
        return false;
    }
    return true;
}

std::shared_ptr<const ReplayOutcome> runReplay(const CaptureAnalysis& capture, const ReplayRequest& request,
                                               QString& error)
{
    auto outcome = std::make_shared<ReplayOutcome>();
    outcome->request = request;
    if (!replayReportFor(capture, request, outcome->report, error))
        return nullptr;
    outcome->fixed = !request.fixes.isEmpty();
    // Tables as the replay's own metrics (metricsOf) analyse the run, so the comparison
    // shows the numbers windscope-cli replay prints; the plots use relative times only.
    // The run's trace goes through the pipeline from its TCP analysis on (no events:
    // the simulator's trace has no 802.11 side).
    const auto analyse = [](const rp::SimResult& run) -> std::shared_ptr<const CaptureAnalysis> {
        analysis::pipeline::AnalysisBundle trace;
        trace.tables = rp::traceToTables(run);
        auto pipeline = std::make_shared<analysis::pipeline::CapturePipeline>(
            std::move(trace), analysis::pipeline::AnalysisStage::Reading);
        std::string ignored;
        pipeline->run(analysis::pipeline::AnalysisStage::Inventory, ignored);
        auto analysed = std::make_shared<CaptureAnalysis>(std::move(pipeline));
        return analysed->tcp.connections.empty() ? nullptr : analysed;
    };
    outcome->run = analyse(outcome->fixed ? outcome->report.fixedRun : outcome->report.baselineRun);
    if (!outcome->run) {
        error = QObject::tr("the replay run sent nothing");
        return nullptr;
    }
    if (outcome->fixed)
        outcome->baseline = analyse(outcome->report.baselineRun);
    outcome->name = outcome->fixed ? QObject::tr("replay: %1").arg(request.fixes.join(QLatin1Char(' ')))
                                   : QObject::tr("replay: baseline");
    return outcome;
}

ReplayRunner::ReplayRunner(std::shared_ptr<const CaptureAnalysis> capture, ReplayRequest request, QObject* parent)
    : QObject(parent), m_capture(std::move(capture)), m_request(std::move(request))
{
}

ReplayRunner::~ReplayRunner()
{
    // The simulator has no cancel point between its runs: a closing window waits for it.
    if (m_thread)
        m_thread->wait();
}

bool ReplayRunner::isRunning() const { return m_thread && m_thread->isRunning(); }

void ReplayRunner::start()
{
    if (m_thread)
        return;
    m_thread = QThread::create([this] { m_outcome = runReplay(*m_capture, m_request, m_error); });
    m_thread->setObjectName(QStringLiteral("replay"));
    connect(m_thread, &QThread::finished, this, [this] {
        m_thread->deleteLater();
        m_thread = nullptr;
        if (m_outcome)
            emit finished(m_outcome);
        else
            emit failed(m_error);
    });
    m_thread->start();
}

} // namespace windscope::gui
