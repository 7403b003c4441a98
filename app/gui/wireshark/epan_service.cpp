// SPDX-License-Identifier: GPL-3.0-or-later
#include "epan_service.h"

#include <QCoreApplication>
#include <QMetaObject>

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <optional>

namespace windscope::gui {

namespace ws = dissect::wireshark;

struct EpanService::State
{
    struct Request
    {
        quint64 id = 0;
        QString path;
        quint64 frame = 0;
    };
    std::mutex mutex;
    std::condition_variable wake;
    // All below under mutex.
    EpanService* owner = nullptr; // null once the service is gone: results are dropped
    std::optional<Request> pending;
    QString openPath;             // the capture whose session is open
    bool inFirstPass = false;
    bool stop = false;
};

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

EpanService::EpanService(QObject* parent) : QObject(parent), m_state(std::make_shared<State>())
{
    m_state->owner = this;
    if (available())
        m_thread = std::thread(&EpanService::run, m_state);
}

EpanService::~EpanService()
{
    bool inFirstPass = false;
    {
        std::lock_guard lock(m_state->mutex);
        m_state->owner = nullptr;
        m_state->stop = true;
        inFirstPass = m_state->inFirstPass;
    }
    m_state->wake.notify_one();
    if (!m_thread.joinable())
        return;
    if (inFirstPass)
        m_thread.detach();
    else
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
        std::lock_guard lock(m_state->mutex);
        m_state->pending = State::Request{id, path, frame};
    }
    m_state->wake.notify_one();
    return id;
}

bool EpanService::isOpen(const QString& path)
{
    std::lock_guard lock(m_state->mutex);
    return !path.isEmpty() && path == m_state->openPath;
}

void EpanService::run(std::shared_ptr<State> state)
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
        State::Request request;
        {
            std::unique_lock lock(state->mutex);
            state->wake.wait(lock, [&] { return state->stop || state->pending; });
            if (state->stop)
                break;
            request = *state->pending;
            state->pending.reset();
            if (request.path != sessionPath) {
                state->openPath.clear();
                state->inFirstPass = true;
            }
        }
        PacketDetailResult result;
        result.request = request.id;
        result.path = request.path;
        result.frame = request.frame;
        std::string error;
        if (request.path != sessionPath) {
            // One session at a time: the previous capture's is closed first.
            session.reset();
            sessionError.clear();
            sessionPath = request.path;
            const auto start = Clock::now();
            session = ws::EpanSession::open(request.path.toStdString(), ws::EpanOptions{}, error);
            result.openMs = ms(start);
            if (!session)
                sessionError = QString::fromStdString(error);
            std::lock_guard lock(state->mutex);
            state->inFirstPass = false;
            state->openPath = session ? request.path : QString();
            if (state->stop) {
                // The application quit meanwhile and did not wait: the process is
                // exiting, so libwireshark is left as it is rather than torn down
                // concurrently with the exit.
                (void)session.release();
                return;
            }
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
        std::lock_guard lock(state->mutex);
        if (EpanService* owner = state->owner)
            QMetaObject::invokeMethod(owner, [owner, result] { emit owner->finished(result); }, Qt::QueuedConnection);
    }
    session.reset();
#else
    (void)state;
#endif
}

} // namespace windscope::gui
