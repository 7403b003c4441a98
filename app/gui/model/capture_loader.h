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
#include <functional>
#include <memory>

class QThread;
class QTimer;

namespace windscope::gui {

// Where a capture's products come from instead of its file: a project's cache
// (project/project_capture_source.h). Runs on the loader's worker.
class CachedProductsSource
{
public:
    virtual ~CachedProductsSource() = default;
    // Fills products in two steps, asking overviewReady() after the first (summary,
    // connection, event, station and correlation tables), which says false when the
    // load was cancelled. False with error set when the products cannot be loaded
    // (error empty: cancelled); staleStatus: "ok", "changed", "moved", "uncached".
    virtual bool load(analysis::pipeline::AnalysisBundle& products, const std::function<bool()>& overviewReady,
                      QString& error, QString& staleStatus) = 0;
};

class CaptureLoader : public QObject
{
    Q_OBJECT
public:
    explicit CaptureLoader(QString path, QObject* parent = nullptr);
    ~CaptureLoader() override;

    // Loads the capture's cached products (a project's) instead of analysing the file;
    // fails with staleStatus() set when the source refuses. Call before start().
    void setCachedSource(std::unique_ptr<CachedProductsSource> source);
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
    bool loadFromSource();
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
    std::unique_ptr<CachedProductsSource> m_source;
    QString m_staleStatus;
    bool m_fromCache = false;
};

} // namespace windscope::gui
