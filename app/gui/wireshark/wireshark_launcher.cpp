// SPDX-License-Identifier: GPL-3.0-or-later
#include "wireshark_launcher.h"

#include <QAction>
#include <QCoreApplication>
#include <QFileInfo>
#include <QProcess>
#include <QStandardPaths>

namespace windscope::gui {

QString wiresharkExecutable() { return QStandardPaths::findExecutable(QStringLiteral("wireshark")); }

bool openInWireshark(const QString& path, quint64 frame, QString* error)
{
    const QString exe = wiresharkExecutable();
    auto fail = [error](const QString& message) {
        if (error)
            *error = message;
        return false;
    };
    if (exe.isEmpty())
        return fail(QCoreApplication::translate("Wireshark", "wireshark was not found on PATH"));
    if (frame == 0)
        return fail(QCoreApplication::translate("Wireshark", "no packet selected"));
    if (!QFileInfo::exists(path))
        return fail(QCoreApplication::translate("Wireshark", "%1: no such file").arg(path));
    if (!QProcess::startDetached(exe, {QStringLiteral("-r"), path, QStringLiteral("-g"), QString::number(frame)}))
        return fail(QCoreApplication::translate("Wireshark", "%1 could not be started").arg(exe));
    return true;
}

void updateWiresharkAction(QAction* action, const QString& path, quint64 frame)
{
    const QString exe = wiresharkExecutable();
    if (exe.isEmpty()) {
        action->setEnabled(false);
        action->setToolTip(QCoreApplication::translate(
            "Wireshark", "Disabled: wireshark was not found on PATH (install Wireshark, e.g. the Debian "
                         "package wireshark-qt)"));
    } else if (frame == 0 || path.isEmpty()) {
        action->setEnabled(false);
        action->setToolTip(QCoreApplication::translate(
            "Wireshark", "Disabled: select a packet, or an 802.11 event, first"));
    } else {
        action->setEnabled(true);
        action->setToolTip(QCoreApplication::translate("Wireshark", "Runs %1 -r %2 -g %3")
                               .arg(exe, QFileInfo(path).fileName())
                               .arg(frame));
    }
}

} // namespace windscope::gui
