// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The selected connection's TCP segments within the plots' visible time range. Rows
// are produced on demand (analysis::packetRow) for what the view asks for, so a range
// holding a million segments costs no more than the screenful shown.

#include "capture_analysis.h"

#include <QAbstractTableModel>

#include <memory>

namespace windscope::gui {

class PacketTableModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { Frame, Time, Direction, Flags, Seq, Ack, Length, Window, InFlight, Analysis, ColumnCount };
    static constexpr int kFrameRole = Qt::UserRole + 1;

    explicit PacketTableModel(QObject* parent = nullptr);
    void setConnection(std::shared_ptr<const CaptureAnalysis> capture,
                       std::shared_ptr<const analysis::ConnectionSeries> series);
    // Shows the segments with times in [from, to] seconds.
    void setTimeRange(double from, double to);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::shared_ptr<const CaptureAnalysis> m_capture;
    std::shared_ptr<const analysis::ConnectionSeries> m_series;
    std::size_t m_first = 0, m_last = 0;
};

// "SYN, ACK" from tcp.flags; "retransmission, dup_ack" from the analysis bits.
QString tcpFlagsText(std::uint16_t flags);
QString analysisFlagsText(std::uint32_t flags);

} // namespace windscope::gui
