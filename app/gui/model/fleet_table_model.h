// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The fleet view's table: one row per station, access point, SSID, capture or day of a
// project (analysis::groupFleet), ranked by what Wi-Fi events cost TCP.

#include "analysis/wlan/fleet_summary.h"

#include <QAbstractTableModel>

#include <vector>

namespace windscope::gui {

class FleetTableModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column {
        Rank, Key, Stalled, GoodputLost, Retransmissions, Timeouts, Events, Worst, Roams,
        FailedRoams, Scans, ScanInterval, ScanDwell, Captures, Stations, ColumnCount
    };
    static constexpr int kSortRole = Qt::UserRole + 1;

    explicit FleetTableModel(QObject* parent = nullptr) : QAbstractTableModel(parent) {}
    void setRows(std::vector<analysis::FleetRow> rows, analysis::FleetGrouping by);
    const analysis::FleetRow& row(int index) const { return m_rows.at(static_cast<std::size_t>(index)); }
    analysis::FleetGrouping grouping() const { return m_by; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    std::vector<analysis::FleetRow> m_rows;
    analysis::FleetGrouping m_by = analysis::FleetGrouping::Station;
};

} // namespace windscope::gui
