// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Packet dissection for the detail pane, off the GUI thread. libwireshark allows one
// session per process, used from one thread (EpanSession), so one worker thread owns
// the session of the capture asked for last: the first packet of a capture costs
// Wireshark's first pass over the file, every further packet of it one re-dissection.
// A request not started yet is replaced by a newer one, so walking the packet list
// with the arrow keys dissects only the packet the selection settles on.

#include "dissectors/wireshark/epan_session.h"

#include <QObject>
#include <QString>

#include <memory>
#include <thread>

namespace windscope::gui {

struct PacketDetailResult
{
    quint64 request = 0;
    QString path;
    quint64 frame = 0;
    std::shared_ptr<const dissect::wireshark::PacketDetail> detail; // null on error
    QString error;          // why there is no tree (names the file or the frame)
    double openMs = 0;      // Wireshark's first pass, when this request opened the file
    double dissectMs = 0;   // the re-dissection of the frame
};

class EpanService : public QObject
{
    Q_OBJECT
public:
    // The process's service, created on first use and owned by the application object.
    static EpanService* instance();
    // False when this build has no libwireshark; requests then fail with a message.
    static bool available();

    // Asks for the tree of frame (1-based) of the capture at path; the answer comes as
    // finished() with the returned request number.
    quint64 request(const QString& path, quint64 frame);
    // True when Wireshark's first pass over path is done (its frames dissect at once).
    bool isOpen(const QString& path);

signals:
    void finished(const windscope::gui::PacketDetailResult& result);

private:
    explicit EpanService(QObject* parent);
    ~EpanService() override;

    // Shared with the worker, which may outlive the service: Wireshark's first pass
    // cannot be interrupted, so quitting during one leaves the worker to the process's
    // exit instead of waiting minutes for it.
    struct State;
    static void run(std::shared_ptr<State> state);

    std::shared_ptr<State> m_state;
    quint64 m_nextId = 0;
    std::thread m_thread;
};

} // namespace windscope::gui

Q_DECLARE_METATYPE(windscope::gui::PacketDetailResult)
