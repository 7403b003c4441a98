// SPDX-License-Identifier: GPL-3.0-or-later
#include "fleet_summary.h"

#include <algorithm>
#include <ctime>
#include <map>
#include <set>
#include <tuple>

namespace windscope::analysis {

namespace {

std::string macText(const dissect::CaptureTables& tables, std::uint32_t mac)
{
    return mac < tables.macAddresses.size() ? tables.macAddresses.at(mac).toString() : std::string();
}

std::string ssidOf(const dissect::CaptureTables& tables, const WlanInventory& inventory,
                   std::uint32_t ssid, std::uint32_t bssid)
{
    if (ssid == dissect::WlanManagementRecord::kNoSsid)
        if (const std::int32_t ap = inventory.apIndex(bssid); ap >= 0)
            ssid = inventory.accessPoints[static_cast<std::size_t>(ap)].ssid;
    return ssid < tables.ssids.size() ? ssidText(tables.ssids.at(ssid)) : std::string();
}

} // namespace

FleetSummary summarizeForFleet(const dissect::CaptureTables& tables, const TcpAnalysis& tcp,
                               const WlanInventory& inventory, const WlanEvents& events,
                               const Correlation& correlation)
{
    FleetSummary summary;
    summary.firstEpochNs = tables.summary.firstEpochNs;
    summary.lastEpochNs = tables.summary.lastEpochNs;
    std::map<std::tuple<std::string, std::string, std::string, WlanEventKind>, FleetCost> costs;
    for (std::size_t i = 0; i < events.size(); ++i) {
        const WlanEvent& e = events.at(i);
        std::uint32_t bssid = e.bssid;
        if (!(bssid < tables.macAddresses.size()))
            bssid = inventory.bssidAt(inventory.stationIndex(e.station), e.startNs);
        const std::string station = macText(tables, e.station), ap = macText(tables, bssid),
                          ssid = ssidOf(tables, inventory, e.ssid, bssid);
        FleetCost& c = costs[{station, ap, ssid, e.kind}];
        c.station = station;
        c.ap = ap;
        c.ssid = ssid;
        c.kind = e.kind;
        std::int64_t stalled = 0;
        const std::vector<ConnectionImpact>& impacts = correlation.impacts.at(i).connections;
        for (const ConnectionImpact& m : impacts) {
            stalled += m.stalledNs;
            c.retransmissions += m.retransmissions;
            c.rtoTimeouts += m.rtoTimeouts;
            if (m.goodputLostBytes >= 0)
                c.goodputLostBytes += m.goodputLostBytes;
            else
                ++c.lostUnknown;
        }
        if (c.events == 0 || stalled > c.worstStalledNs) {
            c.worstEvent = e.id;
            c.worstStartNs = e.startNs;
            c.worstEndNs = e.endNs;
            c.worstStalledNs = stalled;
        }
        ++c.events;
        c.eventsWithConnections += !impacts.empty();
        c.durationNs += e.endNs - e.startNs;
        c.stalledNs += stalled;
    }
    for (auto& [key, cost] : costs)
        summary.costs.push_back(std::move(cost));

    for (std::size_t s = 0; s < inventory.stations.size(); ++s) {
        const Station& st = inventory.stations[s];
        FleetStation out;
        out.station = macText(tables, st.mac);
        std::map<std::uint32_t, std::uint64_t> framesByBss;
        for (const AssociationSpan& span : st.timeline)
            framesByBss[span.bssid] += span.dataFrames;
        if (!framesByBss.empty()) {
            const auto most = std::max_element(framesByBss.begin(), framesByBss.end(),
                                               [](const auto& a, const auto& b) { return a.second < b.second; });
            out.ap = macText(tables, most->first);
            out.ssid = ssidOf(tables, inventory, dissect::WlanManagementRecord::kNoSsid, most->first);
        }
        for (const ConnectionPlacement& p : inventory.connections) {
            if (p.station != static_cast<std::int32_t>(s))
                continue;
            const Connection& conn = tcp.connections[p.connection];
            ++out.connections;
            out.deliveredBytes += std::max(conn.direction[0].dataBytes, conn.direction[1].dataBytes);
        }
        for (const ScanPattern& p : events.scanPatterns)
            if (p.station == st.mac) {
                out.scans = p.scans;
                out.scanIntervalMs = p.intervalMs;
                out.scanDwellMs = p.dwellMs;
            }
        summary.stations.push_back(std::move(out));
    }
    return summary;
}

const char* fleetGroupingName(FleetGrouping by)
{
    switch (by) {
    case FleetGrouping::Station: return "station";
    case FleetGrouping::Ap: return "ap";
    case FleetGrouping::Ssid: return "ssid";
    case FleetGrouping::Capture: return "capture";
    case FleetGrouping::Day: return "day";
    }
    return "?";
}

bool parseFleetGrouping(const std::string& text, FleetGrouping& out)
{
    for (FleetGrouping by : {FleetGrouping::Station, FleetGrouping::Ap, FleetGrouping::Ssid,
                             FleetGrouping::Capture, FleetGrouping::Day})
        if (text == fleetGroupingName(by))
            return out = by, true;
    return false;
}

void FleetKindCost::add(const FleetCost& c)
{
    events += c.events;
    eventsWithConnections += c.eventsWithConnections;
    durationNs += c.durationNs;
    stalledNs += c.stalledNs;
    goodputLostBytes += c.goodputLostBytes;
    retransmissions += c.retransmissions;
    rtoTimeouts += c.rtoTimeouts;
    lostUnknown += c.lostUnknown;
}

std::string utcDay(std::int64_t epochNs)
{
    const std::time_t seconds = static_cast<std::time_t>(epochNs / 1'000'000'000);
    std::tm utc{};
    gmtime_r(&seconds, &utc);
    char text[16];
    std::strftime(text, sizeof text, "%Y-%m-%d", &utc);
    return text;
}

std::vector<FleetRow> groupFleet(const std::vector<FleetCapture>& captures, FleetGrouping by)
{
    struct Group
    {
        FleetRow row;
        std::set<std::int64_t> captures;
        std::set<std::string> stations;
        std::vector<FleetKindCost> kinds = std::vector<FleetKindCost>(kWlanEventKinds);
        double intervalSum = 0, dwellSum = 0;
    };
    std::map<std::string, Group> groups;
    const auto keyOf = [&](const FleetCapture& c, const std::string& station, const std::string& ap,
                           const std::string& ssid) -> std::string {
        switch (by) {
        case FleetGrouping::Station: return station;
        case FleetGrouping::Ap: return ap;
        case FleetGrouping::Ssid: return ssid;
        case FleetGrouping::Capture: return c.path;
        case FleetGrouping::Day: return utcDay(c.summary.firstEpochNs);
        }
        return {};
    };
    for (const FleetCapture& c : captures) {
        for (const FleetCost& cost : c.summary.costs) {
            Group& g = groups[keyOf(c, cost.station, cost.ap, cost.ssid)];
            g.captures.insert(c.id);
            if (!cost.station.empty())
                g.stations.insert(cost.station);
            g.row.total.add(cost);
            FleetKindCost& k = g.kinds[static_cast<std::size_t>(cost.kind)];
            k.kind = cost.kind;
            k.add(cost);
            g.row.roams += cost.kind == WlanEventKind::Handoff ? cost.events : 0;
            g.row.failedRoams += cost.kind == WlanEventKind::FailedRoam ? cost.events : 0;
            FleetWorstEvent& w = g.row.worst;
            if (cost.worstStalledNs > w.stalledNs) {
                w = {c.id, c.path, cost.worstEvent, cost.kind, cost.worstStartNs, cost.worstEndNs,
                     cost.worstStalledNs};
            }
        }
        for (const FleetStation& s : c.summary.stations) {
            Group& g = groups[keyOf(c, s.station, s.ap, s.ssid)];
            g.captures.insert(c.id);
            if (!s.station.empty())
                g.stations.insert(s.station);
            g.row.deliveredBytes += s.deliveredBytes;
            g.row.scans += s.scans;
            g.intervalSum += s.scanIntervalMs * s.scans;
            g.dwellSum += s.scanDwellMs * s.scans;
        }
    }
    std::vector<FleetRow> rows;
    for (auto& [key, g] : groups) {
        FleetRow row = std::move(g.row);
        row.key = key;
        row.captures = g.captures.size();
        row.stations = g.stations.size();
        if (row.scans) {
            row.scanIntervalMs = g.intervalSum / static_cast<double>(row.scans);
            row.scanDwellMs = g.dwellSum / static_cast<double>(row.scans);
        }
        for (const FleetKindCost& k : g.kinds)
            if (k.events)
                row.kinds.push_back(k);
        rows.push_back(std::move(row));
    }
    std::sort(rows.begin(), rows.end(), [](const FleetRow& a, const FleetRow& b) {
        return std::tie(b.total.stalledNs, b.total.goodputLostBytes, b.total.retransmissions, a.key) <
               std::tie(a.total.stalledNs, a.total.goodputLostBytes, a.total.retransmissions, b.key);
    });
    return rows;
}

} // namespace windscope::analysis
