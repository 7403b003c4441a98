// SPDX-License-Identifier: GPL-3.0-or-later
#include "cwnd_series_task.h"

#include <QThread>

namespace windscope::gui {

CwndSeriesTask::CwndSeriesTask(std::shared_ptr<const CaptureAnalysis> capture,
                               std::shared_ptr<const analysis::ConnectionSeries> withoutCwnd, QObject* parent)
    : QObject(parent), m_capture(std::move(capture)), m_base(std::move(withoutCwnd))
{
}

CwndSeriesTask::~CwndSeriesTask()
{
    if (m_thread) {
        m_thread->wait();
        delete m_thread;
    }
}

void CwndSeriesTask::start()
{
    if (m_thread)
        return;
    m_thread = QThread::create([this] {
        auto complete = std::make_shared<analysis::ConnectionSeries>(*m_base);
        analysis::addCwndSeries(m_capture->seriesInputs(), *complete);
        m_result = std::move(complete);
    });
    m_thread->setObjectName(QStringLiteral("cwnd-inference"));
    connect(m_thread, &QThread::finished, this, [this] {
        // The finished thread stays with the task and goes in its destructor: a deferred
        // delete of its own would leak it when the window closes before the event loop
        // runs again.
        m_thread->wait();
        emit finished(m_result);
        deleteLater();
    });
    m_thread->start();
}

} // namespace windscope::gui
