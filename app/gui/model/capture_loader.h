// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Runs ingest and analysis of one capture on a worker thread. The library reports
// through dissect::IngestObserver (Qt-free); this class keeps the progress in atomics
// that a timer on the GUI thread turns into signals, and hands the finished, immutable
// result to the GUI thread when the worker is done.

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

    void start();
    void cancel();
    bool isRunning() const;
    QString path() const { return m_path; }
    std::shared_ptr<const CaptureAnalysis> result() const { return m_result; }

signals:
    void progress(int percent, const QString& stage);
    void finished(std::shared_ptr<const windscope::gui::CaptureAnalysis> result);
    void failed(const QString& message);
    void cancelled();

private:
    void run();
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
};

} // namespace windscope::gui
