// SPDX-License-Identifier: GPL-3.0-or-later
#include "connection_table_model.h"

#include "analysis/cwnd/cwnd_inference.h"
#include "analysis/report/report_json.h"

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
    static const char* const names[] = {"#",       "Client",  "Server",     "Station", "Start (s)",
                                        "Duration (s)", "Packets", "Data bytes", "Retx",    "RTO",
                                        "Dup ACKs", "Zero win", "Throughput (Mb/s)", "Goodput (Mb/s)",
                                        "RTT avg (ms)"};
    return section >= 0 && section < ColumnCount ? tr(names[section]) : QVariant();
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
        return index.column() == Client || index.column() == Server || index.column() == Station
                   ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                   : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ToolTipRole && index.column() == Id)
        return tr("Data from endpoint %1; handshake %2").arg(sender).arg(k.handshakeSeen ? tr("seen") : tr("not seen"));
    if (role != Qt::DisplayRole && role != kSortRole)
        return {};
    const bool sort = role == kSortRole;
    const double duration = static_cast<double>(k.lastTimeNs - k.firstTimeNs) / 1e9;
    switch (index.column()) {
    case Id: return static_cast<qulonglong>(k.id);
    case Client:
        return QString::fromStdString(analysis::endpointText(c.tables, k.address[0], k.port[0]));
    case Server:
        return QString::fromStdString(analysis::endpointText(c.tables, k.address[1], k.port[1]));
    case Station: return m_station[index.row()];
    case Start: {
        const double t = static_cast<double>(k.firstTimeNs) / 1e9;
        return sort ? QVariant(t) : QVariant(QString::number(t, 'f', 3));
    }
    case Duration: return sort ? QVariant(duration) : QVariant(QString::number(duration, 'f', 3));
    case Packets: return static_cast<qulonglong>(k.segments);
    case DataBytes: return static_cast<qulonglong>(d.dataBytes);
    case Retransmissions: return static_cast<qulonglong>(d.retransmissions);
    case RtoTimeouts: return static_cast<qulonglong>(d.rtoTimeouts);
    case DupAcks: return static_cast<qulonglong>(k.direction[1 - sender].dupAcks);
    case ZeroWindows: return static_cast<qulonglong>(k.direction[1 - sender].zeroWindows);
    case Throughput: return sort ? QVariant(d.throughputBps) : QVariant(QString::number(d.throughputBps / 1e6, 'f', 3));
    case Goodput: return sort ? QVariant(d.goodputBps) : QVariant(QString::number(d.goodputBps / 1e6, 'f', 3));
    case RttAvg:
        if (!d.rttSamples)
            return sort ? QVariant(-1.0) : QVariant(QStringLiteral("-"));
        return sort ? QVariant(d.rttAvgMs) : QVariant(QString::number(d.rttAvgMs, 'f', 2));
    default: return {};
    }
}

} // namespace windscope::gui
