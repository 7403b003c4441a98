// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// One row per 802.11 event with its TCP impact (correlation): the connections of its
// station, their retransmissions and timeouts, throughput before and during, recovery.

#include "capture_analysis.h"
#include "render/report_tables.h"

#include <QAbstractTableModel>

#include <memory>

namespace windscope::gui {

// An event's start (s) and duration (ms) as the numbers the event and correlation tables
// sort by; their text is render::eventCell's.
double eventStartSeconds(const analysis::WlanEvent& e);
double eventDurationMs(const analysis::WlanEvent& e);

class EventTableModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { Id, Kind, Station, Start, Duration, Basis, Connections, Retransmissions, RtoTimeouts,
                  ThroughputBefore, ThroughputDuring, Recovery, ColumnCount };
    static constexpr int kEventRole = Qt::UserRole + 1; // index in WlanEvents::events
    static constexpr int kSortRole = Qt::UserRole + 2;

    explicit EventTableModel(QObject* parent = nullptr);
    void setCapture(std::shared_ptr<const CaptureAnalysis> capture);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::shared_ptr<const CaptureAnalysis> m_capture;
    std::vector<analysis::EventTotals> m_totals; // analysis::eventTotals, one per event
};

} // namespace windscope::gui
