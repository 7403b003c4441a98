// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// One row per TCP connection of a capture, the per-direction statistics of its data
// direction. Qt::DisplayRole is text; kSortRole is the number sorting uses.

#include "capture_analysis.h"

#include <QAbstractTableModel>

#include <memory>

namespace windscope::gui {

class ConnectionTableModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column {
        Id,
        Client,
        Server,
        Station,
        Start,
        Duration,
        Packets,
        DataBytes,
        Retransmissions,
        RtoTimeouts,
        DupAcks,
        ZeroWindows,
        Throughput,
        Goodput,
        RttAvg,
        ColumnCount
    };
    static constexpr int kSortRole = Qt::UserRole + 1;
    static constexpr int kConnectionRole = Qt::UserRole + 2; // index in TcpAnalysis::connections
    static constexpr int kFilterTextRole = Qt::UserRole + 3; // addresses, ports, station

    explicit ConnectionTableModel(QObject* parent = nullptr);
    void setCapture(std::shared_ptr<const CaptureAnalysis> capture);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::shared_ptr<const CaptureAnalysis> m_capture;
    QStringList m_station; // per connection, precomputed (inventory lookups)
};

} // namespace windscope::gui
