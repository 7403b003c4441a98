// SPDX-License-Identifier: GPL-3.0-or-later
#include "connection_filter_model.h"

#include "connection_table_model.h"

namespace windscope::gui {

ConnectionFilterModel::ConnectionFilterModel(QObject* parent) : QSortFilterProxyModel(parent)
{
    setSortRole(ConnectionTableModel::kSortRole);
}

void ConnectionFilterModel::setText(const QString& text)
{
    m_text = text.trimmed();
    invalidateFilter();
}

void ConnectionFilterModel::setMinRetransmissions(int count)
{
    m_minRetransmissions = count;
    invalidateFilter();
}

void ConnectionFilterModel::setMinThroughputMbps(double mbps)
{
    m_minThroughputBps = mbps * 1e6;
    invalidateFilter();
}

void ConnectionFilterModel::setRetransmissionRange(int min, int max)
{
    m_minRetransmissions = min;
    m_maxRetransmissions = max;
    invalidateFilter();
}

void ConnectionFilterModel::setThroughputRangeMbps(double min, double max)
{
    m_minThroughputBps = min * 1e6;
    m_maxThroughputBps = max < 0 ? -1 : max * 1e6;
    invalidateFilter();
}

bool ConnectionFilterModel::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const
{
    const QAbstractItemModel* m = sourceModel();
    auto value = [&](int column, int role) { return m->data(m->index(sourceRow, column, sourceParent), role); };
    if (!m_text.isEmpty()) {
        // Every word must match somewhere: "10.0.0.2 443" narrows to that server port.
        const QString haystack = value(0, ConnectionTableModel::kFilterTextRole).toString();
        for (const QString& word : m_text.split(QLatin1Char(' '), Qt::SkipEmptyParts))
            if (!haystack.contains(word, Qt::CaseInsensitive))
                return false;
    }
    if (m_minRetransmissions > 0 || m_maxRetransmissions >= 0) {
        const qulonglong retx = value(ConnectionTableModel::Retransmissions, ConnectionTableModel::kSortRole).toULongLong();
        if (retx < static_cast<qulonglong>(std::max(m_minRetransmissions, 0)) ||
            (m_maxRetransmissions >= 0 && retx > static_cast<qulonglong>(m_maxRetransmissions)))
            return false;
    }
    if (m_minThroughputBps > 0 || m_maxThroughputBps >= 0) {
        const double bps = value(ConnectionTableModel::Throughput, ConnectionTableModel::kSortRole).toDouble();
        if (bps < m_minThroughputBps || (m_maxThroughputBps >= 0 && bps > m_maxThroughputBps))
            return false;
    }
    return true;
}

} // namespace windscope::gui
