// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Most-recently-used lists kept in QSettings (recent captures, recent projects).

#include <QSettings>
#include <QString>
#include <QStringList>

namespace windscope::gui {

inline constexpr int kMaxRecentEntries = 10;

inline QStringList recentList(const QString& key) { return QSettings().value(key).toStringList(); }

// Moves path to the front of the list under key, keeping at most kMaxRecentEntries.
inline void rememberRecent(const QString& key, const QString& path)
{
    QStringList recent = recentList(key);
    recent.removeAll(path);
    recent.prepend(path);
    while (recent.size() > kMaxRecentEntries)
        recent.removeLast();
    QSettings().setValue(key, recent);
}

} // namespace windscope::gui
