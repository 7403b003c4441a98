// SPDX-License-Identifier: GPL-3.0-or-later
#include "packet_detail_pane.h"

#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace windscope::gui {

namespace ws = dissect::wireshark;

namespace {
constexpr int kFieldRole = Qt::UserRole + 1;
} // namespace

PacketDetailPane::PacketDetailPane(QWidget* parent) : QWidget(parent)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    m_status = new QLabel(this);
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_status->setContentsMargins(4, 2, 4, 2);
    m_tree = new QTreeWidget(this);
    m_tree->setHeaderHidden(true);
    m_tree->setColumnCount(1);
    m_tree->setUniformRowHeights(true);
    m_tree->setAnimated(false);
    m_tree->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_tree->header()->setStretchLastSection(false);
    layout->addWidget(m_status);
    layout->addWidget(m_tree, 1);
    connect(m_tree, &QTreeWidget::itemExpanded, this, [this](QTreeWidgetItem* item) {
        if (!item->parent())
            m_expanded.insert(item->data(0, kFieldRole).toString());
    });
    connect(m_tree, &QTreeWidget::itemCollapsed, this, [this](QTreeWidgetItem* item) {
        if (!item->parent())
            m_expanded.remove(item->data(0, kFieldRole).toString());
    });
    connect(EpanService::instance(), &EpanService::finished, this, &PacketDetailPane::onFinished);
    showPacket({}, 0);
}

QString PacketDetailPane::statusText() const { return m_status->text(); }

void PacketDetailPane::showPacket(const QString& path, quint64 frame)
{
    if (frame == 0 || path.isEmpty()) {
        m_request = 0;
        m_frame = 0;
        m_detail.reset();
        m_tree->clear();
        m_status->setText(tr("Select a packet to see its Wireshark dissection."));
        return;
    }
    if (path == m_path && frame == m_frame && (m_detail || m_request))
        return;
    m_path = path;
    m_frame = frame;
    const bool open = EpanService::instance()->isOpen(path);
    m_request = EpanService::instance()->request(path, frame);
    m_status->setStyleSheet({});
    m_status->setText(open ? tr("Dissecting frame %1 with Wireshark…").arg(frame)
                           : tr("Wireshark reads all of %1 once before showing frame %2 (its first pass: "
                                "about a minute per million packets)…")
                                 .arg(QFileInfo(path).fileName())
                                 .arg(frame));
}

void PacketDetailPane::onFinished(const PacketDetailResult& result)
{
    if (result.request != m_request)
        return; // an answer for a packet no longer selected, or for another pane
    m_request = 0;
    m_tree->clear();
    m_detail = result.detail;
    if (!m_detail) {
        m_status->setText(tr("No dissection of frame %1: %2").arg(result.frame).arg(result.error));
        m_status->setStyleSheet(QStringLiteral("color: #b00;"));
        emit packetShown(result.frame, false);
        return;
    }
    m_status->setStyleSheet({});
    m_status->setText(tr("Frame %1: %2").arg(result.frame).arg(QString::fromStdString(m_detail->protocols)));
    m_tree->setUpdatesEnabled(false);
    addNodes(m_tree->invisibleRootItem(), m_detail->tree);
    for (int i = 0; i < m_tree->topLevelItemCount(); ++i) {
        QTreeWidgetItem* item = m_tree->topLevelItem(i);
        if (m_expanded.contains(item->data(0, kFieldRole).toString()))
            item->setExpanded(true);
    }
    m_tree->setUpdatesEnabled(true);
    emit packetShown(result.frame, true);
}

void PacketDetailPane::addNodes(QTreeWidgetItem* parent, const std::vector<ws::PacketTreeNode>& nodes)
{
    for (const ws::PacketTreeNode& node : nodes) {
        if (node.hidden)
            continue;
        const QString label = QString::fromStdString(node.label);
        auto* item = new QTreeWidgetItem(parent, {node.generated ? QStringLiteral("[%1]").arg(label) : label});
        const QString field = QString::fromStdString(node.abbrev);
        item->setData(0, kFieldRole, field);
        if (!field.isEmpty())
            item->setToolTip(0, node.value.empty() ? field
                                                   : QStringLiteral("%1 == %2").arg(field, QString::fromStdString(node.value)));
        if (node.generated) {
            QFont font = item->font(0);
            font.setItalic(true);
            item->setFont(0, font);
        }
        addNodes(item, node.children);
    }
}

} // namespace windscope::gui
