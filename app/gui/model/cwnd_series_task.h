// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The congestion-window inference of one connection on a worker thread: given the
// series shown without it, hands back the complete series (analysis::addCwndSeries) to
// the GUI thread. The inference cannot be interrupted; a task whose result is no longer
// wanted finishes and is dropped, and the owner's destruction waits for it.

#include "capture_analysis.h"

#include <QObject>

#include <memory>

class QThread;

namespace windscope::gui {

class CwndSeriesTask : public QObject
{
    Q_OBJECT
public:
    CwndSeriesTask(std::shared_ptr<const CaptureAnalysis> capture,
                   std::shared_ptr<const analysis::ConnectionSeries> withoutCwnd, QObject* parent = nullptr);
    ~CwndSeriesTask() override;

    // Runs the inference; finished() is emitted on the GUI thread, then the task deletes itself.
    void start();

signals:
    void finished(std::shared_ptr<const windscope::analysis::ConnectionSeries> complete);

private:
    std::shared_ptr<const CaptureAnalysis> m_capture;
    std::shared_ptr<const analysis::ConnectionSeries> m_base;
    std::shared_ptr<const analysis::ConnectionSeries> m_result; // written by the worker
    QThread* m_thread = nullptr;
};

} // namespace windscope::gui
