// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The correlation of 802.11 events with TCP as a table: one row per (event, affected
// connection) from analysis::correlateEvents (the rows of `windscope-cli correlate
// --csv`): losses, timeouts, duplicate-ACK bursts, closed windows, throughput before,
// during and after, recovery time and the sender's congestion window around the event.
// Qt::DisplayRole is text; kSortRole the number sorting uses.

#include "capture_analysis.h"
#include "render/report_tables.h"

#include <QAbstractTableModel>

#include <memory>

namespace windscope::gui {

class CorrelationTableModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column {
        Event,
        Kind,
        Start,
        Duration,
        Connection,
        Retransmissions,
        FastRetransmissions,
        RtoTimeouts,
        DupAckBursts,
        ZeroWindows,
        ThroughputBefore,
        ThroughputDuring,
        ThroughputAfter,
        Recovery,
        WindowBefore,
        WindowMin,
        WindowAfter,
        SsthreshAfter,
        ColumnCount
    };
    static constexpr int kSortRole = Qt::UserRole + 1;
    static constexpr int kEventRole = Qt::UserRole + 2;      // index in WlanEvents::events
    static constexpr int kConnectionRole = Qt::UserRole + 3; // index in TcpAnalysis::connections

    explicit CorrelationTableModel(QObject* parent = nullptr);
    void setCapture(std::shared_ptr<const CaptureAnalysis> capture);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // The impact shown in a row.
    const analysis::ConnectionImpact& impact(int row) const;
    std::size_t eventOf(int row) const { return m_rows.at(static_cast<std::size_t>(row)).event; }

private:
    using Row = render::CorrelationRow;
    std::shared_ptr<const CaptureAnalysis> m_capture;
    std::vector<Row> m_rows;
};

} // namespace windscope::gui
