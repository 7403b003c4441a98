// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Runs a replay of one captured connection on a worker thread, as `windscope-cli replay`
// does (scenario derived from the capture with the cwnd inference's model, baseline
// calibrated, fixes applied, or a preset scenario), and turns the simulated trace into
// a CaptureAnalysis (the tables the analysis uses), so the comparison window shows a
// replay run as it shows a capture.

#include "analysis/replay/session/replay_session.h"
#include "model/capture_analysis.h"

#include <QObject>
#include <QStringList>

#include <memory>

class QThread;

namespace windscope::gui {

struct ReplayRequest
{
    std::size_t connection = 0;
    QStringList fixes;     // "name" or "name=value", as --fix
    QString preset;        // non-empty: run this preset scenario instead of deriving one
};

struct ReplayOutcome
{
    ReplayRequest request;
    analysis::replay::ReplayReport report;
    // The run compared with the capture: with the fixes when there are any, else the
    // baseline; its trace as capture tables, analysed.
    std::shared_ptr<const CaptureAnalysis> run;
    // With fixes, the baseline run's trace too (the capture's model without them): the
    // comparison shows the model's error and the fix's effect apart. Null without fixes.
    std::shared_ptr<const CaptureAnalysis> baseline;
    bool fixed = false;
    QString name;          // "replay: baseline" / "replay: ap-zero-window-ack"
};

// Checks the fix names and values (makeFix) and the preset; empty when all are valid.
QString validateReplayRequest(const ReplayRequest& request);

// The scenario (derived from the request's connection, or its preset), the calibrated
// baseline and the fixed run, on the calling thread; false with error set.
bool replayReportFor(const CaptureAnalysis& capture, const ReplayRequest& request,
                     analysis::replay::ReplayReport& report, QString& error);

// The replay on the calling thread (what the worker runs).
std::shared_ptr<const ReplayOutcome> runReplay(const CaptureAnalysis& capture, const ReplayRequest& request,
                                               QString& error);

class ReplayRunner : public QObject
{
    Q_OBJECT
public:
    ReplayRunner(std::shared_ptr<const CaptureAnalysis> capture, ReplayRequest request, QObject* parent = nullptr);
    ~ReplayRunner() override;

    void start();
    bool isRunning() const;

signals:
    void finished(std::shared_ptr<const windscope::gui::ReplayOutcome> outcome);
    void failed(const QString& message);

private:
    std::shared_ptr<const CaptureAnalysis> m_capture;
    ReplayRequest m_request;
    QThread* m_thread = nullptr;
    // Written by the worker, read on the GUI thread after QThread::finished.
    std::shared_ptr<const ReplayOutcome> m_outcome;
    QString m_error;
};

} // namespace windscope::gui
