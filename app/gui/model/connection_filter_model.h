// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Sorting and filtering of the connection table: text matched against addresses,
// ports and the station MAC; retransmission count and throughput ranges.

#include <QSortFilterProxyModel>

namespace windscope::gui {

class ConnectionFilterModel : public QSortFilterProxyModel
{
    Q_OBJECT
public:
    explicit ConnectionFilterModel(QObject* parent = nullptr);

    void setText(const QString& text);
    void setMinRetransmissions(int count);
    void setMinThroughputMbps(double mbps);
    // Inclusive ranges; a maximum below 0 means no upper limit.
    void setRetransmissionRange(int min, int max);
    void setThroughputRangeMbps(double min, double max);

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;

private:
    QString m_text;
    int m_minRetransmissions = 0;
    int m_maxRetransmissions = -1;
    double m_minThroughputBps = 0;
    double m_maxThroughputBps = -1;
};

} // namespace windscope::gui
