// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// "Open in Wireshark at this packet": starts `wireshark -r FILE -g N` detached, when a
// wireshark executable is on PATH (looked up at each use, so installing Wireshark while
// Windscope runs is noticed).

#include <QString>

class QAction;

namespace windscope::gui {

// The wireshark executable found on PATH, or "".
QString wiresharkExecutable();
// Starts Wireshark on frame (1-based) of path. False with error when it cannot.
bool openInWireshark(const QString& path, quint64 frame, QString* error);
// Enables the action when Wireshark is on PATH and there is a packet to go to; the
// tooltip says which it is or why the action is disabled.
void updateWiresharkAction(QAction* action, const QString& path, quint64 frame);

} // namespace windscope::gui
