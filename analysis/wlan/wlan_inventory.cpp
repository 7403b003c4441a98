// SPDX-License-Identifier: GPL-3.0-or-later
#include "wlan_inventory.h"

#include "wlan_frames.h"
#include "wlan_roles.h"

#include <algorithm>
#include <cstdio>
#include <unordered_map>

namespace windscope::analysis {

namespace {

using dissect::WlanManagementRecord;

class InventoryBuilder
{
public:
    InventoryBuilder(const dissect::CaptureTables& tables, const WlanRoles& roles, WlanInventory& inventory)
        : m_tables(tables), m_roles(roles), m_inventory(inventory)
    {
        inventory.apByMac.assign(tables.macAddresses.size(), -1);
        inventory.stationByMac.assign(tables.macAddresses.size(), -1);
    }

    AccessPoint* accessPoint(std::uint32_t mac, std::int64_t timeNs)
    {
        if (wlan::isGroup(m_tables, mac) || m_roles.of(mac) != MacRole::AccessPoint)
            return nullptr;
        std::int32_t& index = m_inventory.apByMac[mac];
        if (index < 0) {
            index = static_cast<std::int32_t>(m_inventory.accessPoints.size());
            AccessPoint ap;
            ap.bssid = mac;
            ap.firstTimeNs = timeNs;
            m_inventory.accessPoints.push_back(ap);
        }
        AccessPoint& ap = m_inventory.accessPoints[static_cast<std::size_t>(index)];
        ap.firstTimeNs = std::min(ap.firstTimeNs, timeNs);
        ap.lastTimeNs = std::max(ap.lastTimeNs, timeNs);
        return &ap;
    }

    Station* station(std::uint32_t mac, std::int64_t timeNs)
    {
        if (wlan::isGroup(m_tables, mac) || m_roles.of(mac) != MacRole::Station)
            return nullptr;
        std::int32_t& index = m_inventory.stationByMac[mac];
        if (index < 0) {
            index = static_cast<std::int32_t>(m_inventory.stations.size());
            Station s;
            s.mac = mac;
            s.firstTimeNs = timeNs;
            m_inventory.stations.push_back(s);
        }
        Station& s = m_inventory.stations[static_cast<std::size_t>(index)];
        s.lastTimeNs = std::max(s.lastTimeNs, timeNs);
        return &s;
    }

    void addManagement(std::size_t row, const WlanManagementRecord* record);
    void addData(std::size_t row);
    void bindAddresses();
    void placeConnections(const TcpAnalysis& tcp);
    void countFrames();
    void writeNotes(std::uint64_t badFcsRows);

private:
    const dissect::CaptureTables& m_tables;
    const WlanRoles& m_roles;
    WlanInventory& m_inventory;
    // Per station: data and management frames sent / received (control frames left out).
    std::vector<std::pair<std::uint64_t, std::uint64_t>> m_withoutControl;
};

void extendTimeline(Station& s, std::uint32_t bssid, std::int64_t timeNs, std::uint64_t frame)
{
    if (s.timeline.empty() || s.timeline.back().bssid != bssid) {
        AssociationSpan span;
        span.bssid = bssid;
        span.startNs = span.endNs = timeNs;
        span.firstFrame = span.lastFrame = frame;
        s.timeline.push_back(span);
    }
    AssociationSpan& span = s.timeline.back();
    span.endNs = timeNs;
    span.lastFrame = frame;
    ++span.dataFrames;
}

void InventoryBuilder::addManagement(std::size_t row, const WlanManagementRecord* record)
{
    const dissect::WlanColumns& w = m_tables.wlan;
    const std::uint16_t fc = w.frameControl[row];
    const std::uint8_t sub = wlan::frameSubtype(fc);
    const std::int64_t t = w.timeNs[row];
    const std::uint32_t bssid = w.addr3(row);
    switch (sub) {
    case wlan::subtype::kBeacon:
    case wlan::subtype::kProbeResponse: {
        // Beacon and Probe Response are sent by the AP itself: TA = BSSID (9.3.3.2).
        AccessPoint* ap = accessPoint(bssid, t);
        if (!ap)
            return;
        ++(sub == wlan::subtype::kBeacon ? ap->beacons : ap->probeResponses);
        if (w.channelFreqMhz[row])
            ap->channelFreqMhz = w.channelFreqMhz[row];
        if (!record)
            return;
        if (record->ssid != WlanManagementRecord::kNoSsid &&
            (ap->ssid == WlanManagementRecord::kNoSsid || !m_tables.ssids.at(record->ssid).empty()))
            ap->ssid = record->ssid; // a hidden SSID (length 0) yields to a named one
        if (record->dsChannel)
            ap->channel = record->dsChannel;
        if (record->beaconIntervalTu)
            ap->beaconIntervalTu = record->beaconIntervalTu;
        return;
    }
    case wlan::subtype::kProbeRequest:
        if (Station* s = station(w.addr2(row), t))
            ++s->probeRequests;
        return;
    case wlan::subtype::kAssocRequest:
    case wlan::subtype::kAssocResponse:
    case wlan::subtype::kReassocRequest:
    case wlan::subtype::kReassocResponse:
    case wlan::subtype::kAuth:
    case wlan::subtype::kDeauth:
    case wlan::subtype::kDisassoc: {
        // Between a station and its AP: the AP's address is the BSSID (Address 3).
        const bool fromStation = w.addr2(row) != bssid;
        const std::uint32_t mac = fromStation ? w.addr2(row) : w.addr1(row);
        if (!accessPoint(bssid, t))
            return;
        Station* s = station(mac, t);
        if (!s)
            return;
        AssociationFrame f;
        f.timeNs = t;
        f.frame = w.frame[row];
        f.row = row;
        f.bssid = bssid;
        f.subtype = sub;
        f.fromStation = fromStation;
        if (record) {
            f.statusCode = record->statusCode;
            f.reasonCode = record->reasonCode;
        }
        s->management.push_back(f);
        return;
    }
    default:
        return;
    }
}

void InventoryBuilder::addData(std::size_t row)
{
    const dissect::WlanColumns& w = m_tables.wlan;
    const std::uint16_t fc = w.frameControl[row];
    const std::int64_t t = w.timeNs[row];
    const std::uint32_t bssid = wlan::bssidOf(w, row);
    if (wlan::isGroup(m_tables, bssid))
        return;
    if (wlan::toDs(fc) != wlan::fromDs(fc)) {
        const std::uint32_t mac = wlan::dataStationOf(w, row);
        AccessPoint* ap = accessPoint(bssid, t);
        Station* s = station(mac, t);
        if (!ap || !s)
            return;
        ++ap->dataFrames;
        if (!ap->channelFreqMhz && w.channelFreqMhz[row])
            ap->channelFreqMhz = w.channelFreqMhz[row];
        extendTimeline(*s, bssid, t, w.frame[row]);
    } else if (!wlan::toDs(fc)) {
        // IBSS (ad hoc) data: both ends are stations of the BSS named by Address 3.
        if (Station* s = station(w.addr2(row), t))
            extendTimeline(*s, bssid, t, w.frame[row]);
        station(w.addr1(row), t);
    }
}

void InventoryBuilder::bindAddresses()
{
    // TCP rows and 802.11 rows are both in frame order: one merge walk links them.
    const dissect::WlanColumns& w = m_tables.wlan;
    const dissect::TcpColumns& tcp = m_tables.tcp;
    std::unordered_map<std::uint64_t, std::uint64_t> counts; // ip << 32 | mac -> frames
    std::size_t j = 0;
    for (std::size_t r = 0; r < tcp.size() && j < w.size(); ++r) {
        while (j < w.size() && w.frame[j] < tcp.frame[r])
            ++j;
        if (j == w.size() || w.frame[j] != tcp.frame[r] || wlan::badFcs(w, j))
            continue;
        const std::uint16_t fc = w.frameControl[j];
        const dissect::ConversationKey& key = m_tables.conversations[tcp.conversation[r]];
        const std::uint32_t src = tcp.fromB(r) ? key.addrB : key.addrA;
        const std::uint32_t dst = tcp.fromB(r) ? key.addrA : key.addrB;
        std::uint32_t mac = wlan::kNoMac, ip = 0;
        if (wlan::toDs(fc) && !wlan::fromDs(fc)) {
            mac = w.addr2(j);
            ip = src;
        } else if (wlan::fromDs(fc) && !wlan::toDs(fc)) {
            mac = w.addr1(j);
            ip = dst;
        } else if (!wlan::toDs(fc)) {
            mac = w.addr2(j);
            ip = src;
        }
        if (m_inventory.stationIndex(mac) >= 0)
            ++counts[std::uint64_t(ip) << 32 | mac];
    }
    // Each address goes to the station that carried it most often.
    std::unordered_map<std::uint32_t, std::pair<std::uint32_t, std::uint64_t>> best;
    for (const auto& [key, n] : counts) {
        const auto ip = static_cast<std::uint32_t>(key >> 32);
        const auto mac = static_cast<std::uint32_t>(key & 0xffffffffu);
        auto [it, inserted] = best.try_emplace(ip, mac, n);
        if (!inserted && (n > it->second.second || (n == it->second.second && mac < it->second.first)))
            it->second = {mac, n};
    }
    for (const auto& [ip, choice] : best)
        m_inventory.stations[static_cast<std::size_t>(m_inventory.stationIndex(choice.first))]
            .ipAddresses.push_back(ip);
    for (Station& s : m_inventory.stations)
        std::sort(s.ipAddresses.begin(), s.ipAddresses.end());
}

void InventoryBuilder::placeConnections(const TcpAnalysis& tcp)
{
    std::unordered_map<std::uint32_t, std::int32_t> stationOfIp;
    for (std::size_t i = 0; i < m_inventory.stations.size(); ++i)
        for (std::uint32_t ip : m_inventory.stations[i].ipAddresses)
            stationOfIp[ip] = static_cast<std::int32_t>(i);
    std::size_t unplaced = 0;
    for (std::size_t c = 0; c < tcp.connections.size(); ++c) {
        const Connection& conn = tcp.connections[c];
        ConnectionPlacement p;
        p.connection = static_cast<std::uint32_t>(c);
        for (int e = 0; e < 2 && p.station < 0; ++e)
            if (auto it = stationOfIp.find(conn.address[e]); it != stationOfIp.end()) {
                p.station = it->second;
                p.stationEndpoint = static_cast<std::int8_t>(e);
            }
        if (p.station >= 0) {
            for (const AssociationSpan& span :
                 m_inventory.stations[static_cast<std::size_t>(p.station)].timeline)
                if (span.endNs >= conn.firstTimeNs && span.startNs <= conn.lastTimeNs)
                    p.aps.push_back(span);
        } else {
            ++unplaced;
        }
        m_inventory.connections.push_back(std::move(p));
    }
    if (unplaced && m_tables.wlan.size() != 0)
        m_inventory.notes.push_back(std::to_string(unplaced) +
                                    " TCP connection(s): station and AP could not be determined "
                                    "(no 802.11 data frame carried them)");
}

void InventoryBuilder::countFrames()
{
    // As tshark's wlan.ta / wlan.ra: Acks and CTS name only a receiver (9.3.1.3-4).
    const dissect::WlanColumns& w = m_tables.wlan;
    m_withoutControl.assign(m_inventory.stations.size(), {0, 0});
    for (std::size_t row = 0; row < w.size(); ++row) {
        if (wlan::badFcs(w, row))
            continue;
        const bool control = wlan::frameType(w.frameControl[row]) == wlan::kControl;
        if (const std::int32_t s = m_inventory.stationIndex(w.addr2(row)); s >= 0) {
            ++m_inventory.stations[static_cast<std::size_t>(s)].framesSent;
            m_withoutControl[static_cast<std::size_t>(s)].first += !control;
        }
        if (const std::int32_t s = m_inventory.stationIndex(w.addr1(row)); s >= 0) {
            ++m_inventory.stations[static_cast<std::size_t>(s)].framesReceived;
            m_withoutControl[static_cast<std::size_t>(s)].second += !control;
        }
    }
}

void InventoryBuilder::writeNotes(std::uint64_t badFcsRows)
{
    auto& notes = m_inventory.notes;
    const dissect::WlanColumns& w = m_tables.wlan;
    if (w.size() == 0) {
        notes.push_back("no 802.11 frames in the capture: access points, stations and their "
                        "association could not be determined");
        return;
    }
    if (badFcsRows)
        notes.push_back(std::to_string(badFcsRows) +
                        " frame(s) with a bad FCS left out (their addresses cannot be trusted)");
    if (m_roles.conflicts)
        notes.push_back(std::to_string(m_roles.conflicts) + " frame(s) (" +
                        std::to_string(m_roles.conflictsWithoutFcs) +
                        " without FCS information) name an access point or station against the "
                        "roles most frames of those addresses show; not used (see role_conflicts)");
    std::size_t withoutBeacons = 0;
    for (const AccessPoint& ap : m_inventory.accessPoints)
        if (!ap.beacons && !ap.probeResponses)
            ++withoutBeacons;
    if (withoutBeacons)
        notes.push_back(std::to_string(withoutBeacons) +
                        " BSSID(s) without a Beacon or Probe Response: SSID, channel and beacon "
                        "interval could not be determined for them");
    for (std::size_t i = 0; i < m_inventory.stations.size(); ++i) {
        const Station& s = m_inventory.stations[i];
        if (s.timeline.empty())
            continue;
        const auto [sent, received] = m_withoutControl[i];
        if (!sent || !received)
            notes.push_back("station " + m_tables.macAddresses.at(s.mac).toString() + ": only " +
                            (sent ? "frames it sent" : "frames sent to it") +
                            " were captured; acknowledgement and absence cannot be judged");
    }
}

} // namespace

std::uint32_t WlanInventory::bssidAt(std::int32_t station, std::int64_t timeNs) const
{
    if (station < 0 || static_cast<std::size_t>(station) >= stations.size())
        return wlan::kNoMac;
    const auto& spans = stations[static_cast<std::size_t>(station)].timeline;
    auto it = std::upper_bound(spans.begin(), spans.end(), timeNs,
                               [](std::int64_t t, const AssociationSpan& s) { return t < s.startNs; });
    if (it == spans.begin())
        return spans.empty() ? wlan::kNoMac : spans.front().bssid;
    return std::prev(it)->bssid;
}

WlanInventory buildWlanInventory(const dissect::CaptureTables& tables, const TcpAnalysis& tcp)
{
    WlanInventory inventory;
    const WlanRoles roles = decideRoles(tables);
    inventory.roleConflicts = roles.conflicts;
    inventory.roleConflictsWithoutFcs = roles.conflictsWithoutFcs;
    inventory.roleConflictFrames = roles.conflictFrames;
    InventoryBuilder builder(tables, roles, inventory);
    const dissect::WlanColumns& w = tables.wlan;
    const auto& records = tables.wlanManagement;
    std::size_t next = 0, nextConflict = 0;
    std::uint64_t badFcsRows = 0;
    // Access points first: a BSSID announced by Beacons is never taken for a station,
    // whichever frame of it came first.
    for (const WlanManagementRecord& r : records) {
        const std::uint8_t sub = wlan::frameSubtype(w.frameControl[r.row]);
        if (!wlan::badFcs(w, r.row) &&
            (sub == wlan::subtype::kBeacon || sub == wlan::subtype::kProbeResponse))
            builder.accessPoint(w.addr3(r.row), w.timeNs[r.row]);
    }
    for (std::size_t row = 0; row < w.size(); ++row) {
        while (next < records.size() && records[next].row < row)
            ++next;
        if (wlan::badFcs(w, row)) {
            ++badFcsRows;
            continue;
        }
        if (nextConflict < roles.conflictRows.size() && roles.conflictRows[nextConflict] == row) {
            ++nextConflict;
            continue; // outvoted: its addresses are not believed
        }
        const std::uint16_t fc = w.frameControl[row];
        switch (wlan::frameType(fc)) {
        case wlan::kManagement:
            builder.addManagement(row, next < records.size() && records[next].row == row
                                           ? &records[next]
                                           : nullptr);
            break;
        case wlan::kData:
            builder.addData(row);
            break;
        case wlan::kControl:
            if (wlan::frameSubtype(fc) == wlan::subtype::kPsPoll)
                builder.station(w.addr2(row), w.timeNs[row]);
            break;
        default:
            break;
        }
    }
    builder.countFrames();
    builder.bindAddresses();
    builder.placeConnections(tcp);
    builder.writeNotes(badFcsRows);
    return inventory;
}

std::string ssidText(const std::string& raw)
{
    bool printable = true;
    for (unsigned char c : raw)
        printable = printable && c >= 0x20 && c < 0x7f;
    if (printable)
        return raw;
    std::string hex;
    char byte[3];
    for (unsigned char c : raw) {
        std::snprintf(byte, sizeof byte, "%02x", c);
        hex += byte;
    }
    return hex;
}

} // namespace windscope::analysis
