// SPDX-License-Identifier: GPL-3.0-or-later
#include "correlation_table_model.h"
#include "event_table_model.h"

#include <iterator>
#include <limits>

namespace windscope::gui {

namespace {

QVariant mbps(double bps, bool sort) { return sort ? QVariant(bps) : QVariant(QString::number(bps / 1e6, 'f', 3)); }

// Window sizes in kB; -1 (not followed) sorts first and shows as a dash.
QVariant kilobytes(std::int64_t bytes, bool sort)
{
    if (bytes < 0)
        return sort ? QVariant(-1.0) : QVariant(QStringLiteral("-"));
    return sort ? QVariant(static_cast<double>(bytes)) : QVariant(QString::number(static_cast<double>(bytes) / 1e3, 'f', 1));
}

} // namespace

CorrelationTableModel::CorrelationTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void CorrelationTableModel::setCapture(std::shared_ptr<const CaptureAnalysis> capture)
{
    beginResetModel();
    m_capture = std::move(capture);
    m_rows.clear();
    if (m_capture) {
        const auto& impacts = m_capture->correlation.impacts;
        for (std::size_t e = 0; e < impacts.size() && e < m_capture->events.events.size(); ++e)
            for (std::size_t i = 0; i < impacts[e].connections.size(); ++i)
                m_rows.push_back({e, i});
    }
    endResetModel();
}

const analysis::ConnectionImpact& CorrelationTableModel::impact(int row) const
{
    const Row& r = m_rows.at(static_cast<std::size_t>(row));
    return m_capture->correlation.impacts[r.event].connections[r.impact];
}

int CorrelationTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int CorrelationTableModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant CorrelationTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return {};
    static const char* const names[] = {"Event",         "Kind",          "Start (s)",      "Duration (ms)",
                                        "Conn.",         "Retx",          "Fast retx",      "RTO",
                                        "Dup-ACK bursts", "Zero win",     "Before (Mb/s)",  "During (Mb/s)",
                                        "After (Mb/s)",  "Recovery (ms)", "cwnd before (kB)", "cwnd min (kB)",
                                        "cwnd after (kB)", "ssthresh after (kB)"};
    static_assert(std::size(names) == ColumnCount);
    if (section < 0 || section >= ColumnCount)
        return {};
    if (role == Qt::DisplayRole)
        return tr(names[section]);
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case ThroughputBefore:
        case ThroughputDuring:
        case ThroughputAfter:
            return tr("Delivered data (cumulative ACK advance) before, during and after the event");
        case Recovery: return tr("Time until throughput was back to 90% of its level before the event");
        case CwndBefore: return tr("Inferred congestion window at the last data segment before the event");
        case CwndMin: return tr("Lowest inferred congestion window from the event's start to the window's end");
        case CwndAfter:
        case SsthreshAfter: return tr("Inferred congestion window and ssthresh at the last segment in the window");
        default: return {};
        }
    }
    return {};
}

QVariant CorrelationTableModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid) || !m_capture)
        return {};
    const CaptureAnalysis& c = *m_capture;
    const Row& r = m_rows[static_cast<std::size_t>(index.row())];
    const analysis::WlanEvent& e = c.events.events[r.event];
    const analysis::ConnectionImpact& m = c.correlation.impacts[r.event].connections[r.impact];
    if (role == kEventRole)
        return static_cast<qulonglong>(r.event);
    if (role == kConnectionRole)
        return static_cast<qulonglong>(m.connection);
    if (role == Qt::TextAlignmentRole)
        return index.column() == Kind ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                                      : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ToolTipRole) {
        QString tip = tr("Event %1 on connection %2: %3").arg(e.id).arg(m.connection).arg(connectionText(c, m.connection));
        if (!m.cwndNotFollowed.empty())
            tip += tr("\ncwnd not followed: %1").arg(QString::fromStdString(m.cwndNotFollowed));
        else if (!m.cwndModel.empty())
            tip += tr("\ncwnd model: %1").arg(QString::fromStdString(m.cwndModel));
        return tip;
    }
    if (role != Qt::DisplayRole && role != kSortRole)
        return {};
    const bool sort = role == kSortRole;
    switch (index.column()) {
    case Event: return static_cast<qulonglong>(e.id);
    case Kind: return QString::fromLatin1(analysis::eventKindName(e.kind));
    case Start: return eventStartCell(e, sort);
    case Duration: return eventDurationCell(e, sort);
    case Connection: return static_cast<qulonglong>(m.connection);
    case Retransmissions: return m.retransmissions;
    case FastRetransmissions: return m.fastRetransmissions;
    case RtoTimeouts: return m.rtoTimeouts;
    case DupAckBursts: return m.dupAckBursts;
    case ZeroWindows: return m.zeroWindows;
    case ThroughputBefore: return mbps(m.throughputBeforeBps, sort);
    case ThroughputDuring: return mbps(m.throughputDuringBps, sort);
    case ThroughputAfter: return mbps(m.throughputAfterBps, sort);
    case Recovery:
        if (m.recoveryNs < 0)
            // Never recovering is the worst outcome: it sorts after every recovery time.
            return sort ? QVariant(std::numeric_limits<double>::infinity()) : QVariant(tr("not recovered"));
        return sort ? QVariant(static_cast<double>(m.recoveryNs))
                    : QVariant(QString::number(static_cast<double>(m.recoveryNs) / 1e6, 'f', 1));
    case CwndBefore: return kilobytes(m.cwndBeforeBytes, sort);
    case CwndMin: return kilobytes(m.cwndMinBytes, sort);
    case CwndAfter: return kilobytes(m.cwndAfterBytes, sort);
    case SsthreshAfter: return kilobytes(m.ssthreshAfterBytes, sort);
    default: return {};
    }
}

} // namespace windscope::gui
