// SPDX-License-Identifier: GPL-3.0-or-later
#include "connection_table_model.h"

#include "analysis/cwnd/cwnd_inference.h"
#include "render/report_tables.h"

namespace windscope::gui {

ConnectionTableModel::ConnectionTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void ConnectionTableModel::setCapture(std::shared_ptr<const CaptureAnalysis> capture)
{
    beginResetModel();
    m_capture = std::move(capture);
    m_station.clear();
    if (m_capture) {
        const CaptureAnalysis& c = *m_capture;
        for (std::size_t i = 0; i < c.tcp.connections.size(); ++i) {
            QString text;
            if (i < c.inventory.connections.size() && c.inventory.connections[i].station >= 0)
                text = macText(c, c.inventory.stations[static_cast<std::size_t>(c.inventory.connections[i].station)].mac);
            m_station << text;
        }
    }
    endResetModel();
}

int ConnectionTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() || !m_capture ? 0 : static_cast<int>(m_capture->tcp.connections.size());
}

int ConnectionTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ConnectionTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    return render::connectionHeaders().value(section);
}

QVariant ConnectionTableModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid) || !m_capture)
        return {};
    const CaptureAnalysis& c = *m_capture;
    const auto row = static_cast<std::size_t>(index.row());
    const analysis::Connection& k = c.tcp.connections[row];
    const int sender = analysis::cwnd::dataSenderOf(k);
    const analysis::DirectionStats& d = k.direction[sender];
    if (role == kConnectionRole)
        return static_cast<qulonglong>(row);
    if (role == kFilterTextRole)
        return connectionText(c, row) + QLatin1Char(' ') + m_station[index.row()];
    if (role == Qt::TextAlignmentRole)
        return render::connectionColumnIsText(index.column()) ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                                                              : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ToolTipRole && index.column() == Id)
        return tr("Data from endpoint %1; handshake %2").arg(sender).arg(k.handshakeSeen ? tr("seen") : tr("not seen"));
    // The text is the report's (render::connectionCell); sorting goes by the numbers.
    if (role == Qt::DisplayRole)
        return render::connectionCell(c, row, index.column());
    if (role != kSortRole)
        return {};
    switch (index.column()) {
    case Id: return static_cast<qulonglong>(k.id);
    case Client:
    case Server:
    case Station: return render::connectionCell(c, row, index.column());
    case Start: return static_cast<double>(k.firstTimeNs) / 1e9;
    case Duration: return static_cast<double>(k.lastTimeNs - k.firstTimeNs) / 1e9;
    case Packets: return static_cast<qulonglong>(k.segments);
    case DataBytes: return static_cast<qulonglong>(d.dataBytes);
    case Retransmissions: return static_cast<qulonglong>(d.retransmissions);
    case RtoTimeouts: return static_cast<qulonglong>(d.rtoTimeouts);
    case DupAcks: return static_cast<qulonglong>(k.direction[1 - sender].dupAcks);
    case ZeroWindows: return static_cast<qulonglong>(k.direction[1 - sender].zeroWindows);
    case Throughput: return d.throughputBps;
    case Goodput: return d.goodputBps;
    case RttAvg: return d.rttSamples ? d.rttAvgMs : -1.0;
    default: return {};
    }
}

} // namespace windscope::gui
