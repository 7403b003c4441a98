// SPDX-License-Identifier: GPL-3.0-or-later
#include "event_table_model.h"

#include "render/report_tables.h"

namespace windscope::gui {

double eventStartSeconds(const analysis::WlanEvent& e) { return static_cast<double>(e.startNs) / 1e9; }

double eventDurationMs(const analysis::WlanEvent& e) { return static_cast<double>(e.endNs - e.startNs) / 1e6; }

EventTableModel::EventTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void EventTableModel::setCapture(std::shared_ptr<const CaptureAnalysis> capture)
{
    beginResetModel();
    m_capture = std::move(capture);
    m_totals.clear();
    if (m_capture)
        m_totals = analysis::eventTotals(m_capture->correlation, m_capture->events.size());
    endResetModel();
}

int EventTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() || !m_capture ? 0 : static_cast<int>(m_capture->events.size());
}

int EventTableModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant EventTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    return render::eventHeaders().value(section);
}

QVariant EventTableModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid) || !m_capture)
        return {};
    const CaptureAnalysis& c = *m_capture;
    const auto row = static_cast<std::size_t>(index.row());
    const analysis::WlanEvent& e = c.events.at(row);
    const analysis::EventTotals& t = m_totals[row];
    if (role == kEventRole)
        return static_cast<qulonglong>(row);
    if (role == Qt::TextAlignmentRole)
        return render::eventColumnIsText(index.column()) ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                                                         : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ToolTipRole) {
        QString tip = tr("%1 evidence frame(s); %2 probe request(s), %3 retries to the station")
                          .arg(e.evidenceCount)
                          .arg(e.probeRequests)
                          .arg(e.retriesToStation);
        if (e.departed())
            tip += tr("; unanswered retries longer than any scan: the station left this AP's channel (roamed or "
                      "lost)%1").arg(e.openEnded ? tr(", not heard from again before the capture ended") : QString());
        else if (e.openEnded)
            tip += tr("; the capture ended during the event");
        else if (e.kind == analysis::WlanEventKind::Absence)
            tip += tr("; unanswered retries shorter than the shortest scan: a lower bound, not shown to be a scan");
        return tip;
    }
    // The text is the report's (render::eventCell); sorting goes by the numbers.
    if (role == Qt::DisplayRole)
        return render::eventCell(c, t, row, index.column());
    if (role != kSortRole)
        return {};
    switch (index.column()) {
    case Id: return static_cast<qulonglong>(e.id);
    case Kind:
    case Station:
    case Basis: return render::eventCell(c, t, row, index.column());
    case Start: return eventStartSeconds(e);
    case Duration: return eventDurationMs(e);
    case Connections: return t.connections;
    case Retransmissions: return t.retransmissions;
    case RtoTimeouts: return t.rtoTimeouts;
    case ThroughputBefore: return t.throughputBeforeBps;
    case ThroughputDuring: return t.throughputDuringBps;
    case Recovery: return t.recoveryNs < 0 ? -1.0 : static_cast<double>(t.recoveryNs);
    default: return {};
    }
}

} // namespace windscope::gui
