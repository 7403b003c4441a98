// SPDX-License-Identifier: GPL-3.0-or-later
#include "event_table_model.h"

namespace windscope::gui {

QVariant eventStartCell(const analysis::WlanEvent& e, bool forSorting)
{
    const double start = static_cast<double>(e.startNs) / 1e9;
    return forSorting ? QVariant(start) : QVariant(QString::number(start, 'f', 3));
}

QVariant eventDurationCell(const analysis::WlanEvent& e, bool forSorting)
{
    const double durationMs = static_cast<double>(e.endNs - e.startNs) / 1e6;
    return forSorting ? QVariant(durationMs) : QVariant(QString::number(durationMs, 'f', 1));
}

EventTableModel::EventTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void EventTableModel::setCapture(std::shared_ptr<const CaptureAnalysis> capture)
{
    beginResetModel();
    m_capture = std::move(capture);
    m_totals.clear();
    if (m_capture)
        m_totals = analysis::eventTotals(m_capture->correlation, m_capture->events.events.size());
    endResetModel();
}

int EventTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() || !m_capture ? 0 : static_cast<int>(m_capture->events.events.size());
}

int EventTableModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant EventTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    static const char* const names[] = {"#",        "Kind",  "Station",      "Start (s)",
                                        "Duration (ms)", "Basis", "Connections", "Retx",
                                        "RTO",      "Before (Mb/s)", "During (Mb/s)", "Recovery (ms)"};
    return section >= 0 && section < ColumnCount ? tr(names[section]) : QVariant();
}

QVariant EventTableModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid) || !m_capture)
        return {};
    const CaptureAnalysis& c = *m_capture;
    const auto row = static_cast<std::size_t>(index.row());
    const analysis::WlanEvent& e = c.events.events[row];
    const analysis::EventTotals& t = m_totals[row];
    if (role == kEventRole)
        return static_cast<qulonglong>(row);
    if (role == Qt::TextAlignmentRole)
        return index.column() == Kind || index.column() == Station || index.column() == Basis
                   ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                   : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ToolTipRole) {
        QString tip = tr("%1 evidence frame(s); %2 probe request(s), %3 retries to the station")
                          .arg(e.evidenceCount)
                          .arg(e.probeRequests)
                          .arg(e.retriesToStation);
        if (e.openEnded)
            tip += tr("; the capture ended during the event");
        return tip;
    }
    if (role != Qt::DisplayRole && role != kSortRole)
        return {};
    const bool sort = role == kSortRole;
    switch (index.column()) {
    case Id: return static_cast<qulonglong>(e.id);
    case Kind: return QString::fromLatin1(analysis::eventKindName(e.kind));
    case Station: return macText(c, e.station);
    case Start: return eventStartCell(e, sort);
    case Duration: return eventDurationCell(e, sort);
    case Basis: return QString::fromLatin1(e.basis);
    case Connections: return t.connections;
    case Retransmissions: return t.retransmissions;
    case RtoTimeouts: return t.rtoTimeouts;
    case ThroughputBefore:
        return sort ? QVariant(t.throughputBeforeBps) : QVariant(QString::number(t.throughputBeforeBps / 1e6, 'f', 2));
    case ThroughputDuring:
        return sort ? QVariant(t.throughputDuringBps) : QVariant(QString::number(t.throughputDuringBps / 1e6, 'f', 2));
    case Recovery:
        if (t.recoveryNs < 0)
            return sort ? QVariant(-1.0) : QVariant(t.connections ? tr("not recovered") : QStringLiteral("-"));
        return sort ? QVariant(static_cast<double>(t.recoveryNs)) : QVariant(QString::number(static_cast<double>(t.recoveryNs) / 1e6, 'f', 1));
    default: return {};
    }
}

} // namespace windscope::gui
