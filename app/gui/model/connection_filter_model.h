// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Sorting and filtering of the connection table: text matched against addresses,
// ports and the station MAC; minimum retransmissions; minimum throughput.

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

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;

private:
    QString m_text;
    int m_minRetransmissions = 0;
    double m_minThroughputBps = 0;
};

} // namespace windscope::gui
