// SPDX-License-Identifier: GPL-3.0-or-later
#include "fleet_table_model.h"

#include <QFileInfo>

namespace windscope::gui {

void FleetTableModel::setRows(std::vector<analysis::FleetRow> rows, analysis::FleetGrouping by)
{
    beginResetModel();
    m_rows = std::move(rows);
    m_by = by;
    endResetModel();
    emit headerDataChanged(Qt::Horizontal, Key, Key);
}

int FleetTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int FleetTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant FleetTableModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount())
        return {};
    const analysis::FleetRow& r = row(index.row());
    const bool sort = role == kSortRole;
    if (role == Qt::ToolTipRole) {
        if (index.column() == Key && m_by == analysis::FleetGrouping::Capture)
            return QString::fromStdString(r.key);
        if (index.column() == Worst)
            return tr("Double click to open the capture at this event");
        QStringList kinds;
        for (const analysis::FleetKindCost& k : r.kinds)
            kinds << tr("%1: %2 event(s), %3 s stalled, %4 retransmissions, %5 timeouts")
                         .arg(QString::fromLatin1(analysis::eventKindName(k.kind)))
                         .arg(k.events)
                         .arg(static_cast<double>(k.stalledNs) / 1e9, 0, 'f', 3)
                         .arg(k.retransmissions)
                         .arg(k.rtoTimeouts);
        return kinds.join(QLatin1Char('\n'));
    }
    if (role == Qt::TextAlignmentRole)
        return index.column() == Key || index.column() == Worst ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                                                                : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role != Qt::DisplayRole && !sort)
        return {};
    const auto count = [&](std::uint64_t v) -> QVariant { return sort ? QVariant(qulonglong(v)) : QVariant(QString::number(v)); };
    const auto fixed = [&](double v, int decimals) -> QVariant {
        return sort ? QVariant(v) : QVariant(QString::number(v, 'f', decimals));
    };
    switch (index.column()) {
    case Rank: return count(static_cast<std::uint64_t>(index.row()) + 1);
    case Key:
        if (r.key.empty())
            return tr("(none)");
        return m_by == analysis::FleetGrouping::Capture && !sort
                   ? QFileInfo(QString::fromStdString(r.key)).fileName()
                   : QString::fromStdString(r.key);
    case Captures: return count(r.captures);
    case Stations: return count(r.stations);
    case Stalled: return fixed(static_cast<double>(r.total.stalledNs) / 1e9, 3);
    case GoodputLost: return fixed(static_cast<double>(r.total.goodputLostBytes) / 1e6, 3);
    case Retransmissions: return count(r.total.retransmissions);
    case Timeouts: return count(r.total.rtoTimeouts);
    case Events: return count(r.total.events);
    case Roams: return count(r.roams);
    case FailedRoams: return count(r.failedRoams);
    case Scans: return count(r.scans);
    case ScanInterval: return r.scans ? fixed(r.scanIntervalMs, 0) : (sort ? QVariant(-1.0) : QVariant(QStringLiteral("-")));
    case ScanDwell: return r.scans ? fixed(r.scanDwellMs, 1) : (sort ? QVariant(-1.0) : QVariant(QStringLiteral("-")));
    case Worst:
        if (r.worst.stalledNs < 0)
            return {};
        if (sort)
            return static_cast<double>(r.worst.stalledNs);
        return tr("%1 #%2 at %3 s (%4 s stalled) in %5")
            .arg(QString::fromLatin1(analysis::eventKindName(r.worst.kind)))
            .arg(r.worst.event)
            .arg(static_cast<double>(r.worst.startNs) / 1e9, 0, 'f', 3)
            .arg(static_cast<double>(r.worst.stalledNs) / 1e9, 0, 'f', 3)
            .arg(QFileInfo(QString::fromStdString(r.worst.path)).fileName());
    }
    return {};
}

QVariant FleetTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Rank: return tr("Rank");
    case Key:
        switch (m_by) {
        case analysis::FleetGrouping::Station: return tr("Station");
        case analysis::FleetGrouping::Ap: return tr("Access point");
        case analysis::FleetGrouping::Ssid: return tr("SSID");
        case analysis::FleetGrouping::Capture: return tr("Capture");
        case analysis::FleetGrouping::Day: return tr("Day (UTC)");
        }
        return {};
    case Captures: return tr("Captures");
    case Stations: return tr("Stations");
    case Stalled: return tr("Stalled (s)");
    case GoodputLost: return tr("Goodput lost (MB)");
    case Retransmissions: return tr("Retx");
    case Timeouts: return tr("Timeouts");
    case Events: return tr("Events");
    case Roams: return tr("Roams");
    case FailedRoams: return tr("Failed roams");
    case Scans: return tr("Scans");
    case ScanInterval: return tr("Scan every (ms)");
    case ScanDwell: return tr("Dwell (ms)");
    case Worst: return tr("Worst event");
    }
    return {};
}

} // namespace windscope::gui
