// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Runs ingest and analysis of one capture on a worker thread. The library reports
// through dissect::IngestObserver (Qt-free); this class keeps the progress in atomics
// that a timer on the GUI thread turns into signals, and hands the finished, immutable
// result to the GUI thread when the worker is done.
//
// From a project it loads in two steps: the overview (summary, connection, event,
// station and correlation tables: a few hundred kB even for millions of packets),
// handed over at once through overviewLoaded, then the per-frame and per-segment
// columns the plots need (most of the bytes), handed over through finished.

#include "capture_analysis.h"

#include <QObject>
#include <QString>

#include <atomic>
#include <memory>

class QThread;
class QTimer;

namespace windscope::gui {

class CaptureLoader : public QObject
{
    Q_OBJECT
public:
    explicit CaptureLoader(QString path, QObject* parent = nullptr);
    ~CaptureLoader() override;

    // Loads the capture's cached results from a project instead of analysing the file,
    // when the file is still the one analysed (or acceptStale); else fails with
    // staleStatus() set. Call before start().
    void setProjectSource(const QString& projectPath, qint64 captureId, bool acceptStale);
    // "ok", "changed", "moved" after a project load; "" otherwise.
    QString staleStatus() const { return m_staleStatus; }
    bool fromCache() const { return m_fromCache; }

    void start();
    void cancel();
    bool isRunning() const;
    QString path() const { return m_path; }
    std::shared_ptr<const CaptureAnalysis> result() const { return m_result; }

signals:
    void progress(int percent, const QString& stage);
    // Project loads only, before finished: every member but the per-frame and
    // per-segment columns (CaptureTables::wlan/tcp, TcpAnalysis::segments/rtt).
    void overviewLoaded(std::shared_ptr<const windscope::gui::CaptureAnalysis> overview);
    void finished(std::shared_ptr<const windscope::gui::CaptureAnalysis> result);
    void failed(const QString& message);
    void cancelled();

private:
    void run();
    bool loadFromProject();
    void onThreadFinished();
    void reportProgress();

    QString m_path;
    QThread* m_thread = nullptr;
    QTimer* m_timer = nullptr;
    std::atomic<bool> m_cancel{false};
    std::atomic<std::uint64_t> m_bytes{0}, m_size{0};
    std::atomic<int> m_stage{0};
    // Written by the worker, read on the GUI thread after QThread::finished.
    std::shared_ptr<CaptureAnalysis> m_result;
    QString m_error;
    bool m_wasCancelled = false;
    QString m_projectPath;
    qint64 m_captureId = 0;
    bool m_acceptStale = false;
    QString m_staleStatus;
    bool m_fromCache = false;
};

} // namespace windscope::gui
