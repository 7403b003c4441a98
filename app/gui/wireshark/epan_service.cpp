// SPDX-License-Identifier: GPL-3.0-or-later
#include "epan_service.h"

#include <QCoreApplication>
#include <QMetaObject>

#include <chrono>

namespace windscope::gui {

namespace ws = dissect::wireshark;

EpanService* EpanService::instance()
{
    static EpanService* service = nullptr;
    if (!service) {
        qRegisterMetaType<PacketDetailResult>();
        service = new EpanService(QCoreApplication::instance());
        QObject::connect(service, &QObject::destroyed, [] { service = nullptr; });
    }
    return service;
}

bool EpanService::available()
{
#ifdef WINDSCOPE_HAVE_WIRESHARK
    return true;
#else
    return false;
#endif
}

EpanService::EpanService(QObject* parent) : QObject(parent)
{
    if (available())
        m_thread = std::thread([this] { run(); });
}

EpanService::~EpanService()
{
    {
        std::lock_guard lock(m_mutex);
        m_stop = true;
    }
    m_wake.notify_one();
    if (m_thread.joinable())
        m_thread.join();
}

quint64 EpanService::request(const QString& path, quint64 frame)
{
    const quint64 id = ++m_nextId;
    if (!available()) {
        PacketDetailResult result;
        result.request = id;
        result.path = path;
        result.frame = frame;
        result.error = tr("Packet details need libwireshark, which this build of Windscope lacks.");
        QMetaObject::invokeMethod(this, [this, result] { emit finished(result); }, Qt::QueuedConnection);
        return id;
    }
    {
        std::lock_guard lock(m_mutex);
        m_pending = Request{id, path, frame};
    }
    m_wake.notify_one();
    return id;
}

bool EpanService::isOpen(const QString& path)
{
    std::lock_guard lock(m_mutex);
    return !path.isEmpty() && path == m_openPath;
}

void EpanService::run()
{
#ifdef WINDSCOPE_HAVE_WIRESHARK
    std::unique_ptr<ws::EpanSession> session;
    QString sessionPath;
    QString sessionError; // the capture could not be opened: not retried for each packet
    using Clock = std::chrono::steady_clock;
    auto ms = [](Clock::time_point from) {
        return std::chrono::duration<double, std::milli>(Clock::now() - from).count();
    };
    for (;;) {
        Request request;
        {
            std::unique_lock lock(m_mutex);
            m_wake.wait(lock, [this] { return m_stop || m_pending; });
            if (m_stop)
                break;
            request = *m_pending;
            m_pending.reset();
        }
        PacketDetailResult result;
        result.request = request.id;
        result.path = request.path;
        result.frame = request.frame;
        std::string error;
        if (request.path != sessionPath) {
            // One session at a time: the previous capture's is closed first.
            {
                std::lock_guard lock(m_mutex);
                m_openPath.clear();
            }
            session.reset();
            sessionError.clear();
            sessionPath = request.path;
            const auto start = Clock::now();
            session = ws::EpanSession::open(request.path.toStdString(), ws::EpanOptions{}, error);
            result.openMs = ms(start);
            if (!session)
                sessionError = QString::fromStdString(error);
            std::lock_guard lock(m_mutex);
            m_openPath = session ? request.path : QString();
        }
        if (!session) {
            result.error = sessionError;
        } else {
            auto detail = std::make_shared<ws::PacketDetail>();
            const auto start = Clock::now();
            if (session->dissect(request.frame, *detail, error))
                result.detail = std::move(detail);
            else
                result.error = QString::fromStdString(error);
            result.dissectMs = ms(start);
        }
        QMetaObject::invokeMethod(this, [this, result] { emit finished(result); }, Qt::QueuedConnection);
    }
    session.reset();
#endif
}

} // namespace windscope::gui
