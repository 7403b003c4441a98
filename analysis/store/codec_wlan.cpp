// SPDX-License-Identifier: GPL-3.0-or-later
// The 802.11 parts: events, the inventory of stations and access points, and the
// events' correlation with TCP.
#include "codec_parts.h"

namespace windscope::analysis::store::codec {

namespace {

// ---- WlanEvents ------------------------------------------------------------------------

template <typename Io, typename E> void eventFields(Io& io, E& e)
{
    io(e.id);
    io(e.kind);
    io(e.station);
    io(e.bssid);
    io(e.newBssid);
    io(e.startNs);
    io(e.endNs);
    io(e.resumedNs);
    io(e.basis);
    io(e.openEnded);
    io(e.evidenceCount);
    io(e.probeRequests);
    io(e.psPolls);
    io(e.framesToStation);
    io(e.retriesToStation);
    io(e.uplinkFrames);
    io(e.connection);
    io(e.tcpRetransmissions);
    io(e.initiator);
    io(e.statusCode);
    io(e.reasonCode);
    io(e.attempts);
    io(e.ssid);
    io(e.outcome);
}

template <typename Io, typename P> void scanPatternFields(Io& io, P& p)
{
    io(p.station);
    io(p.scans);
    io(p.intervalMs);
    io(p.dwellMs);
    io(p.periodic);
}

template <typename Io, typename B> void macBinFields(Io& io, B& b)
{
    io(b.startNs);
    io(b.framesSent);
    io(b.framesReceived);
    io(b.retries);
    io(b.failedAttempts);
    io(b.rateSamples);
    io(b.meanRateMbps);
    io(b.maxMcs);
    io(b.signalSamples);
    io(b.meanSignalDbm);
    io(b.ampdus);
    io(b.ampduSubframes);
    io(b.blockAcks);
    io(b.blockAckRequests);
}

// ---- WlanInventory ---------------------------------------------------------------------

template <typename Io, typename A> void accessPointFields(Io& io, A& a)
{
    io(a.bssid);
    io(a.ssid);
    io(a.channel);
    io(a.channelFreqMhz);
    io(a.beaconIntervalTu);
    io(a.beacons);
    io(a.probeResponses);
    io(a.dataFrames);
    io(a.firstTimeNs);
    io(a.lastTimeNs);
}

template <typename Io, typename S> void spanFields(Io& io, S& s)
{
    io(s.bssid);
    io(s.startNs);
    io(s.endNs);
    io(s.firstFrame);
    io(s.lastFrame);
    io(s.dataFrames);
}

template <typename Io, typename M> void associationFrameFields(Io& io, M& m)
{
    io(m.timeNs);
    io(m.frame);
    io(m.row);
    io(m.bssid);
    io(m.subtype);
    io(m.statusCode);
    io(m.reasonCode);
    io(m.fromStation);
}

template <typename Io, typename S> void stationFields(Io& io, S& s)
{
    io(s.mac);
    io(s.framesSent);
    io(s.framesReceived);
    io(s.probeRequests);
    io(s.firstTimeNs);
    io(s.lastTimeNs);
}

// ---- Correlation -----------------------------------------------------------------------

template <typename Io, typename M> void connectionImpactFields(Io& io, M& m)
{
    io(m.connection);
    io(m.dataDirection);
    io(m.windowStartNs);
    io(m.windowEndNs);
    io(m.retransmissions);
    io(m.fastRetransmissions);
    io(m.rtoTimeouts);
    io(m.retransmissionsInWindow);
    io(m.fastRetransmissionsInWindow);
    io(m.rtoTimeoutsInWindow);
    io(m.dupAcks);
    io(m.dupAckBursts);
    io(m.zeroWindows);
    io(m.lowWindows);
    io(m.throughputBeforeBps);
    io(m.throughputDuringBps);
    io(m.throughputAfterBps);
    io(m.recoveryNs);
    io(m.cwndBeforeBytes);
    io(m.cwndMinBytes);
    io(m.cwndAfterBytes);
    io(m.ssthreshAfterBytes);
    io(m.windowBeforeBytes);
    io(m.windowMinBytes);
    io(m.windowAfterBytes);
    io(m.cwndModel);
    io(m.cwndNotFollowed);
    io(m.stalledNs);
    io(m.stallStartNs);
    io(m.stallEndNs);
    io(m.goodputLostBytes);
    io(m.referenceGoodputBps);
    io(m.costEndNs);
}

template <typename Io, typename K> void kindAggregateFields(Io& io, K& k)
{
    io(k.kind);
    io(k.events);
    io(k.eventsWithConnections);
    io(k.meanDurationMs);
    io(k.retransmissions);
    io(k.rtoTimeouts);
    io(k.dupAckBursts);
    io(k.zeroWindows);
    io(k.meanThroughputDuringPct);
    io(k.meanRecoveryMs);
    io(k.notRecovered);
    io(k.stalledNs);
    io(k.goodputLostBytes);
    io(k.lostUnknown);
}

template <typename Io, typename A> void scanIntervalFields(Io& io, A& a)
{
    io(a.station);
    io(a.intervalMs);
    io(a.dwellMs);
    io(a.periodic);
    io(a.scans);
    io(a.scanningStartNs);
    io(a.scanningEndNs);
    io(a.throughputScanningBps);
    io(a.throughputScanFreeBps);
    io(a.throughputPct);
    io(a.lossesPerScan);
    io(a.timeoutsPerScan);
}


} // namespace

void encodeEvents(Writer& w, const WlanEvents& events)
{
    auto put = [&](const auto& v) { w.put(v); };
    for (const auto* list : {&events.events, &events.lifecycle})
        w.list(*list, [&](const WlanEvent& e) {
            eventFields(put, e);
            w.column(e.evidenceFrames);
            w.column(e.channelsMhz);
            w.column(e.triedBssids);
        });
    w.list(events.scanPatterns, [&](const ScanPattern& p) { scanPatternFields(put, p); });
    w.list(events.macStats, [&](const StationMacStats& s) {
        w.put(s.station);
        w.put(s.addbaResponses);
        w.put(s.delbas);
        w.list(s.bins, [&](const MacStatsBin& b) { macBinFields(put, b); });
    });
    w.list(events.notes, [&](const std::string& s) { w.put(s); });
}

bool decodeEvents(Reader& r, WlanEvents& events, std::string& error)
{
    events = WlanEvents{};
    auto get = [&](auto& v) { r.get(v); };
    for (auto* list : {&events.events, &events.lifecycle})
        r.list(*list, 60, [&](WlanEvent& e) {
            eventFields(get, e);
            r.column(e.evidenceFrames);
            r.column(e.channelsMhz);
            r.column(e.triedBssids);
        });
    r.list(events.scanPatterns, 25, [&](ScanPattern& p) { scanPatternFields(get, p); });
    r.list(events.macStats, 28, [&](StationMacStats& s) {
        r.get(s.station);
        r.get(s.addbaResponses);
        r.get(s.delbas);
        r.list(s.bins, 90, [&](MacStatsBin& b) { macBinFields(get, b); });
    });
    r.list(events.notes, 8, [&](std::string& s) { r.get(s); });
    return r.finish(error);
}

void encodeInventory(Writer& w, const WlanInventory& inventory)
{
    auto put = [&](const auto& v) { w.put(v); };
    w.list(inventory.accessPoints, [&](const AccessPoint& a) { accessPointFields(put, a); });
    w.list(inventory.stations, [&](const Station& s) {
        stationFields(put, s);
        w.list(s.timeline, [&](const AssociationSpan& span) { spanFields(put, span); });
        w.list(s.management, [&](const AssociationFrame& m) { associationFrameFields(put, m); });
        w.column(s.ipAddresses);
    });
    w.list(inventory.connections, [&](const ConnectionPlacement& c) {
        w.put(c.connection);
        w.put(c.station);
        w.put(c.stationEndpoint);
        w.list(c.aps, [&](const AssociationSpan& span) { spanFields(put, span); });
    });
    w.list(inventory.notes, [&](const std::string& n) { w.put(n); });
    w.column(inventory.apByMac);
    w.column(inventory.stationByMac);
    w.put(inventory.roleConflicts);
    w.put(inventory.roleConflictsWithoutFcs);
    w.column(inventory.roleConflictFrames);
}

bool decodeInventory(Reader& r, WlanInventory& inventory, std::string& error)
{
    inventory = WlanInventory{};
    auto get = [&](auto& v) { r.get(v); };
    r.list(inventory.accessPoints, 49, [&](AccessPoint& a) { accessPointFields(get, a); });
    r.list(inventory.stations, 60, [&](Station& s) {
        stationFields(get, s);
        r.list(s.timeline, 44, [&](AssociationSpan& span) { spanFields(get, span); });
        r.list(s.management, 34, [&](AssociationFrame& m) { associationFrameFields(get, m); });
        r.column(s.ipAddresses);
    });
    r.list(inventory.connections, 17, [&](ConnectionPlacement& c) {
        r.get(c.connection);
        r.get(c.station);
        r.get(c.stationEndpoint);
        r.list(c.aps, 44, [&](AssociationSpan& span) { spanFields(get, span); });
    });
    r.list(inventory.notes, 8, [&](std::string& n) { r.get(n); });
    r.column(inventory.apByMac);
    r.column(inventory.stationByMac);
    r.get(inventory.roleConflicts);
    r.get(inventory.roleConflictsWithoutFcs);
    r.column(inventory.roleConflictFrames);
    return r.finish(error);
}

void encodeCorrelation(Writer& w, const Correlation& correlation)
{
    auto put = [&](const auto& v) { w.put(v); };
    w.list(correlation.impacts, [&](const EventImpact& impact) {
        w.put(impact.event);
        w.list(impact.connections, [&](const ConnectionImpact& m) {
            connectionImpactFields(put, m);
            w.column(m.overlappingEvents);
        });
    });
    w.list(correlation.kinds, [&](const KindAggregate& k) { kindAggregateFields(put, k); });
    w.list(correlation.scanIntervals, [&](const ScanIntervalAggregate& a) { scanIntervalFields(put, a); });
    w.list(correlation.notes, [&](const std::string& n) { w.put(n); });
}

bool decodeCorrelation(Reader& r, Correlation& correlation, std::string& error)
{
    correlation = Correlation{};
    auto get = [&](auto& v) { r.get(v); };
    r.list(correlation.impacts, 16, [&](EventImpact& impact) {
        r.get(impact.event);
        r.list(impact.connections, 180, [&](ConnectionImpact& m) {
            connectionImpactFields(get, m);
            r.column(m.overlappingEvents);
        });
    });
    r.list(correlation.kinds, 105, [&](KindAggregate& k) { kindAggregateFields(get, k); });
    r.list(correlation.scanIntervals, 85, [&](ScanIntervalAggregate& a) { scanIntervalFields(get, a); });
    r.list(correlation.notes, 8, [&](std::string& n) { r.get(n); });
    return r.finish(error);
}

// ---- Fleet summary ---------------------------------------------------------------------

namespace {

template <typename Io, typename C> void fleetCostFields(Io& io, C& c)
{
    io(c.station);
    io(c.ap);
    io(c.ssid);
    io(c.kind);
    io(c.events);
    io(c.eventsWithConnections);
    io(c.durationNs);
    io(c.stalledNs);
    io(c.goodputLostBytes);
    io(c.retransmissions);
    io(c.rtoTimeouts);
    io(c.lostUnknown);
    io(c.worstEvent);
    io(c.worstStartNs);
    io(c.worstEndNs);
    io(c.worstStalledNs);
}

template <typename Io, typename S> void fleetStationFields(Io& io, S& s)
{
    io(s.station);
    io(s.ap);
    io(s.ssid);
    io(s.connections);
    io(s.deliveredBytes);
    io(s.scans);
    io(s.scanIntervalMs);
    io(s.scanDwellMs);
}

} // namespace

void encodeFleet(Writer& w, const FleetSummary& fleet)
{
    auto put = [&](const auto& v) { w.put(v); };
    w.list(fleet.costs, [&](const FleetCost& c) { fleetCostFields(put, c); });
    w.list(fleet.stations, [&](const FleetStation& s) { fleetStationFields(put, s); });
    w.put(fleet.firstEpochNs);
    w.put(fleet.lastEpochNs);
}

bool decodeFleet(Reader& r, FleetSummary& fleet, std::string& error)
{
    fleet = FleetSummary{};
    auto get = [&](auto& v) { r.get(v); };
    r.list(fleet.costs, 105, [&](FleetCost& c) {
        fleetCostFields(get, c);
        if (static_cast<std::size_t>(c.kind) >= kWlanEventKinds)
            r.reject("unknown event kind " + std::to_string(static_cast<int>(c.kind)));
    });
    r.list(fleet.stations, 60, [&](FleetStation& s) { fleetStationFields(get, s); });
    r.get(fleet.firstEpochNs);
    r.get(fleet.lastEpochNs);
    return r.finish(error);
}

} // namespace windscope::analysis::store::codec
