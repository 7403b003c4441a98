// SPDX-License-Identifier: GPL-3.0-or-later
#include "inventory_table_model.h"

namespace windscope::gui {

namespace {
const char* const kApColumns[] = {"BSSID", "SSID", "Channel", "MHz", "Beacons", "Probe resp.", "Data frames",
                                  "First (s)", "Last (s)"};
const char* const kStationColumns[] = {"MAC", "IP addresses", "BSSIDs used", "Frames sent", "Frames received",
                                       "Probe requests", "First (s)", "Last (s)"};
QString seconds(std::int64_t ns) { return QString::number(static_cast<double>(ns) / 1e9, 'f', 3); }
} // namespace

InventoryTableModel::InventoryTableModel(Kind kind, QObject* parent) : QAbstractTableModel(parent), m_kind(kind) {}

void InventoryTableModel::setCapture(std::shared_ptr<const CaptureAnalysis> capture)
{
    beginResetModel();
    m_capture = std::move(capture);
    endResetModel();
}

int InventoryTableModel::rowCount(const QModelIndex& parent) const
{
    if (parent.isValid() || !m_capture)
        return 0;
    return static_cast<int>(m_kind == Kind::AccessPoints ? m_capture->inventory.accessPoints.size()
                                                         : m_capture->inventory.stations.size());
}

int InventoryTableModel::columnCount(const QModelIndex& parent) const
{
    if (parent.isValid())
        return 0;
    return m_kind == Kind::AccessPoints ? static_cast<int>(std::size(kApColumns))
                                        : static_cast<int>(std::size(kStationColumns));
}

QVariant InventoryTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole || section < 0 || section >= columnCount())
        return {};
    return tr(m_kind == Kind::AccessPoints ? kApColumns[section] : kStationColumns[section]);
}

QVariant InventoryTableModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid) || !m_capture ||
        role != Qt::DisplayRole)
        return {};
    const auto row = static_cast<std::size_t>(index.row());
    return m_kind == Kind::AccessPoints ? apData(row, index.column()) : stationData(row, index.column());
}

QVariant InventoryTableModel::apData(std::size_t row, int column) const
{
    const CaptureAnalysis& c = *m_capture;
    const analysis::AccessPoint& ap = c.inventory.accessPoints[row];
    switch (column) {
    case 0: return macText(c, ap.bssid);
    case 1:
        if (ap.ssid == dissect::WlanManagementRecord::kNoSsid || ap.ssid >= c.tables.ssids.size())
            return QStringLiteral("-");
        return QString::fromUtf8(c.tables.ssids.at(ap.ssid).c_str());
    case 2: return ap.channel ? QVariant(ap.channel) : QVariant(QStringLiteral("-"));
    case 3: return ap.channelFreqMhz ? QVariant(ap.channelFreqMhz) : QVariant(QStringLiteral("-"));
    case 4: return static_cast<qulonglong>(ap.beacons);
    case 5: return static_cast<qulonglong>(ap.probeResponses);
    case 6: return static_cast<qulonglong>(ap.dataFrames);
    case 7: return seconds(ap.firstTimeNs);
    case 8: return seconds(ap.lastTimeNs);
    default: return {};
    }
}

QVariant InventoryTableModel::stationData(std::size_t row, int column) const
{
    const CaptureAnalysis& c = *m_capture;
    const analysis::Station& s = c.inventory.stations[row];
    switch (column) {
    case 0: return macText(c, s.mac);
    case 1: {
        QStringList ips;
        for (std::uint32_t ip : s.ipAddresses)
            if (ip < c.tables.ipAddresses.size())
                ips << QString::fromStdString(c.tables.ipAddresses.at(ip).toString());
        return ips.join(QStringLiteral(", "));
    }
    case 2: {
        QStringList bssids;
        for (const analysis::AssociationSpan& span : s.timeline) {
            const QString b = macText(c, span.bssid);
            if (bssids.isEmpty() || bssids.back() != b)
                bssids << b;
        }
        return bssids.join(QStringLiteral(" → "));
    }
    case 3: return static_cast<qulonglong>(s.framesSent);
    case 4: return static_cast<qulonglong>(s.framesReceived);
    case 5: return static_cast<qulonglong>(s.probeRequests);
    case 6: return seconds(s.firstTimeNs);
    case 7: return seconds(s.lastTimeNs);
    default: return {};
    }
}

} // namespace windscope::gui
