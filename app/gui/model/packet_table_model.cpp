// SPDX-License-Identifier: GPL-3.0-or-later
#include "packet_table_model.h"

#include <QColor>

namespace windscope::gui {

QString tcpFlagsText(std::uint16_t flags)
{
    static const char* const names[] = {"FIN", "SYN", "RST", "PSH", "ACK", "URG", "ECE", "CWR", "AE"};
    QStringList parts;
    for (int bit = 0; bit < 9; ++bit)
        if (flags & (1u << bit))
            parts << QString::fromLatin1(names[bit]);
    return parts.join(QStringLiteral(", "));
}

QString analysisFlagsText(std::uint32_t flags)
{
    QStringList parts;
    for (int bit = 0; bit < 32; ++bit) {
        const std::uint32_t b = 1u << bit;
        if (!(flags & b))
            continue;
        // A fast or spurious retransmission also carries the plain bit; name the kind only.
        if (b == analysis::segment_flag::kRetransmission &&
            (flags & (analysis::segment_flag::kFastRetransmission | analysis::segment_flag::kSpuriousRetransmission)))
            continue;
        QString name = QString::fromLatin1(analysis::segmentFlagName(b));
        name.remove(QStringLiteral("tcp.analysis."));
        parts << name;
    }
    return parts.join(QStringLiteral(", "));
}

PacketTableModel::PacketTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void PacketTableModel::setConnection(std::shared_ptr<const CaptureAnalysis> capture,
                                     std::shared_ptr<const analysis::ConnectionSeries> series)
{
    beginResetModel();
    m_capture = std::move(capture);
    m_series = std::move(series);
    m_first = 0;
    m_last = m_series ? m_series->rows.size() : 0;
    endResetModel();
}

void PacketTableModel::setTimeRange(double from, double to)
{
    if (!m_capture || !m_series)
        return;
    const auto [first, last] = analysis::rowsBetween(m_capture->tables, m_series->rows, from, to);
    if (first == m_first && last == m_last)
        return;
    beginResetModel();
    m_first = first;
    m_last = last;
    endResetModel();
}

int PacketTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_last - m_first);
}

int PacketTableModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant PacketTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    static const char* const names[] = {"Frame", "Time (s)", "Dir", "TCP flags", "Seq", "Ack",
                                        "Len", "Window", "In flight", "Analysis"};
    return section >= 0 && section < ColumnCount ? tr(names[section]) : QVariant();
}

QVariant PacketTableModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid) || !m_series)
        return {};
    const analysis::SeriesInputs in = m_capture->seriesInputs();
    const analysis::PacketRow p = analysis::packetRow(in, m_series->rows[m_first + static_cast<std::size_t>(index.row())]);
    if (role == kFrameRole)
        return static_cast<qulonglong>(p.frame);
    if (role == Qt::ForegroundRole && index.column() == Analysis &&
        (p.analysisFlags & (analysis::segment_flag::kRetransmission | analysis::segment_flag::kZeroWindow)))
        return QColor(180, 0, 0);
    if (role == Qt::TextAlignmentRole)
        return index.column() == Flags || index.column() == Analysis || index.column() == Direction
                   ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                   : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case Frame: return static_cast<qulonglong>(p.frame);
    case Time: return QString::number(p.time, 'f', 6);
    case Direction: return p.direction == m_series->sender ? QStringLiteral("data →") : QStringLiteral("← ack");
    case Flags: return tcpFlagsText(p.tcpFlags);
    case Seq: return static_cast<qlonglong>(p.seq);
    case Ack: return static_cast<qlonglong>(p.ack);
    case Length: return p.length;
    case Window: return p.windowBytes;
    case InFlight: return p.bytesInFlight ? QVariant(p.bytesInFlight) : QVariant(QString());
    case Analysis: return analysisFlagsText(p.analysisFlags);
    default: return {};
    }
}

} // namespace windscope::gui
