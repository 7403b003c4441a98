// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The Wireshark detail pane: the full epan dissection tree of the selected packet, one
// expandable node per proto_item, as Wireshark shows it (generated items in brackets,
// hidden ones left out). Dissection runs on EpanService's thread; until it answers the
// pane says what it is waiting for, and errors (no libwireshark, an unreadable file, a
// frame out of range) are shown in the pane.

#include "epan_service.h"

#include <QSet>
#include <QWidget>

class QLabel;
class QTreeWidget;
class QTreeWidgetItem;

namespace windscope::gui {

class PacketDetailPane : public QWidget
{
    Q_OBJECT
public:
    explicit PacketDetailPane(QWidget* parent = nullptr);

    // Shows frame (1-based) of the capture at path; 0 clears the pane.
    void showPacket(const QString& path, quint64 frame);
    QTreeWidget* tree() const { return m_tree; }
    QString statusText() const;
    quint64 frame() const { return m_frame; }
    // The tree shown, or null (none yet, or an error).
    const dissect::wireshark::PacketDetail* detail() const { return m_detail.get(); }

signals:
    // The pane shows the answer for the packet asked for last (a tree or an error).
    void packetShown(quint64 frame, bool ok);

private:
    void onFinished(const PacketDetailResult& result);
    void addNodes(QTreeWidgetItem* parent, const std::vector<dissect::wireshark::PacketTreeNode>& nodes);

    QLabel* m_status;
    QTreeWidget* m_tree;
    quint64 m_request = 0;
    quint64 m_frame = 0;
    QString m_path;
    std::shared_ptr<const dissect::wireshark::PacketDetail> m_detail;
    // Top-level protocols the user expanded stay expanded from packet to packet, as in
    // Wireshark.
    QSet<QString> m_expanded;
};

} // namespace windscope::gui
