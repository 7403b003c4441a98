// SPDX-License-Identifier: GPL-3.0-or-later
#include "correlation_table_model.h"
#include "event_table_model.h"

#include "render/report_tables.h"

#include <iterator>
#include <limits>

namespace windscope::gui {

CorrelationTableModel::CorrelationTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void CorrelationTableModel::setCapture(std::shared_ptr<const CaptureAnalysis> capture)
{
    beginResetModel();
    m_capture = std::move(capture);
    m_rows.clear();
    if (m_capture)
        m_rows = render::correlationRows(*m_capture);
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
    if (section < 0 || section >= ColumnCount)
        return {};
    if (role == Qt::DisplayRole)
        return render::correlationHeaders().value(section);
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case ThroughputBefore:
        case ThroughputDuring:
        case ThroughputAfter:
            return tr("Delivered data (cumulative ACK advance) before, during and after the event");
        case Recovery: return tr("Time until throughput was back to 90% of its level before the event");
        case WindowBefore:
            return tr("Effective window (the smaller of the inferred congestion window and the receive window) at "
                      "the last data segment before the event");
        case WindowMin: return tr("Lowest effective window from the event's start to the window's end");
        case WindowAfter: return tr("Effective window at the last segment in the window");
        case SsthreshAfter: return tr("Inferred ssthresh at the last segment in the window");
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
    const analysis::WlanEvent& e = c.events.at(r.event);
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
    // The text is the report's (render::correlationCell); sorting goes by the numbers.
    if (role == Qt::DisplayRole)
        return render::correlationCell(c, r, index.column());
    if (role != kSortRole)
        return {};
    switch (index.column()) {
    case Event: return static_cast<qulonglong>(e.id);
    case Kind: return render::correlationCell(c, r, index.column());
    case Start: return eventStartSeconds(e);
    case Duration: return eventDurationMs(e);
    case Connection: return static_cast<qulonglong>(m.connection);
    case Retransmissions: return m.retransmissions;
    case FastRetransmissions: return m.fastRetransmissions;
    case RtoTimeouts: return m.rtoTimeouts;
    case DupAckBursts: return m.dupAckBursts;
    case ZeroWindows: return m.zeroWindows;
    case ThroughputBefore: return m.throughputBeforeBps;
    case ThroughputDuring: return m.throughputDuringBps;
    case ThroughputAfter: return m.throughputAfterBps;
    // Never recovering is the worst outcome: it sorts after every recovery time.
    case Recovery: return m.recoveryNs < 0 ? std::numeric_limits<double>::infinity() : static_cast<double>(m.recoveryNs);
    // Windows not followed (-1) sort first.
    case WindowBefore: return static_cast<double>(m.windowBeforeBytes);
    case WindowMin: return static_cast<double>(m.windowMinBytes);
    case WindowAfter: return static_cast<double>(m.windowAfterBytes);
    case SsthreshAfter: return static_cast<double>(m.ssthreshAfterBytes);
    default: return {};
    }
}

} // namespace windscope::gui
