// SPDX-License-Identifier: GPL-3.0-or-later
#include "report_events.h"

#include "json_writer.h"
#include "report_json.h"
#include "analysis/wlan/wlan_frames.h"

#include <cstdio>

namespace windscope::analysis {

namespace {

std::string macText(const dissect::CaptureTables& tables, std::uint32_t mac)
{
    return mac < tables.macAddresses.size() ? tables.macAddresses.at(mac).toString() : "";
}

void macField(JsonWriter& json, const dissect::CaptureTables& tables, const char* name,
              std::uint32_t mac)
{
    json.key(name);
    if (mac < tables.macAddresses.size())
        json.value(tables.macAddresses.at(mac).toString());
    else
        json.null();
}

const char* managementName(std::uint8_t subtype)
{
    switch (subtype) {
    case wlan::subtype::kAssocRequest:
        return "association_request";
    case wlan::subtype::kAssocResponse:
        return "association_response";
    case wlan::subtype::kReassocRequest:
        return "reassociation_request";
    case wlan::subtype::kReassocResponse:
        return "reassociation_response";
    case wlan::subtype::kAuth:
        return "authentication";
    case wlan::subtype::kDeauth:
        return "deauthentication";
    case wlan::subtype::kDisassoc:
        return "disassociation";
    default:
        return "management";
    }
}


void writeEventCore(JsonWriter& json, const EventsReport& r, const WlanEvent& e)
{
    const dissect::CaptureTables& tables = r.tables;
    json.field("id", e.id);
    json.field("kind", eventKindName(e.kind));
    macField(json, tables, "station", e.station);
    macField(json, tables, "bssid", e.bssid);
    json.key("start_epoch_s").number(epochText(tables, e.startNs));
    json.key("end_epoch_s").number(epochText(tables, e.endNs));
    json.field("duration_ms", static_cast<double>(e.endNs - e.startNs) / 1e6);
    if (e.kind == WlanEventKind::Handoff) {
        macField(json, tables, "new_bssid", e.newBssid);
        json.key("traffic_resumed_epoch_s");
        if (e.resumedNs >= 0)
            json.number(epochText(tables, e.resumedNs));
        else
            json.null();
    }
    if (e.kind == WlanEventKind::Handoff || isLifecycleKind(e.kind)) {
        json.key("ssid");
        if (e.ssid != dissect::WlanManagementRecord::kNoSsid)
            json.value(ssidText(tables.ssids.at(e.ssid)));
        else
            json.null();
    }
    if (e.kind == WlanEventKind::Handoff) {
        // The roam's data gap: last frame delivered through the old AP to the first
        // data frame through the new one.
        json.key("data_gap_ms");
        if (e.resumedNs >= 0)
            json.value(static_cast<double>(e.resumedNs - e.startNs) / 1e6);
        else
            json.null();
    }
    if (isLifecycleKind(e.kind)) {
        json.field("initiator", initiatorName(e.initiator));
        json.key("wlan.fixed.status_code");
        e.statusCode >= 0 ? json.value(static_cast<unsigned>(e.statusCode)) : json.null();
        json.key("wlan.fixed.reason_code");
        e.reasonCode >= 0 ? json.value(static_cast<unsigned>(e.reasonCode)) : json.null();
        json.field("attempts", static_cast<std::uint64_t>(e.attempts));
        if (e.kind == WlanEventKind::BeaconLoss)
            json.field("beacons_missed", static_cast<std::uint64_t>(e.attempts));
        if (e.kind == WlanEventKind::Disconnection || e.kind == WlanEventKind::FailedRoam)
            macField(json, tables, "new_bssid", e.newBssid);
        if (e.kind == WlanEventKind::FailedRoam) {
            json.field("outcome", e.outcome);
            json.key("tried_bssids").beginArray();
            for (std::uint32_t b : e.triedBssids)
                json.value(macText(tables, b));
            json.endArray();
        }
    }
    if (!e.channelsMhz.empty()) {
        json.key("channels_mhz").beginArray();
        for (std::uint16_t mhz : e.channelsMhz)
            json.value(static_cast<unsigned>(mhz));
        json.endArray();
    }
    json.field("basis", e.basis);
    json.field("open_ended", e.openEnded);
    if (e.connection >= 0)
        json.field("connection", r.tcp.connections[static_cast<std::size_t>(e.connection)].id);
}

void writeEvent(JsonWriter& json, const EventsReport& r, const WlanEvent& e)
{
    writeEventCore(json, r, e);
    json.key("evidence_frames").beginArray();
    for (std::uint64_t f : e.evidenceFrames)
        json.value(f);
    json.endArray();
    json.field("evidence_count", e.evidenceCount);
    json.field("probe_requests", e.probeRequests);
    json.field("ps_polls", e.psPolls);
    json.field("frames_to_station", e.framesToStation);
    json.field("retries_to_station", e.retriesToStation);
    json.field("uplink_frames_while_away", e.uplinkFrames);
    if (e.kind == WlanEventKind::OutageInferred)
        json.field("tcp_retransmissions", e.tcpRetransmissions);
}

void writeNotes(JsonWriter& json, const std::vector<std::string>& a,
                const std::vector<std::string>& b = {}, const std::vector<std::string>& c = {})
{
    json.key("notes").beginArray();
    for (const auto* list : {&a, &b, &c})
        for (const std::string& note : *list)
            json.value(note);
    json.endArray();
}

} // namespace

void writeEventsJson(std::ostream& out, const EventsReport& r)
{
    const dissect::CaptureTables& tables = r.tables;
    JsonWriter json(out);
    json.beginObject();
    writeCapture(json, tables);

    json.key("access_points").beginArray();
    for (const AccessPoint& ap : r.inventory.accessPoints) {
        json.beginObject();
        macField(json, tables, "bssid", ap.bssid);
        json.key("ssid");
        if (ap.ssid != dissect::WlanManagementRecord::kNoSsid)
            json.value(ssidText(tables.ssids.at(ap.ssid)));
        else
            json.null();
        json.key("channel");
        ap.channel ? json.value(static_cast<unsigned>(ap.channel)) : json.null();
        json.key("channel_freq_mhz");
        ap.channelFreqMhz ? json.value(static_cast<unsigned>(ap.channelFreqMhz)) : json.null();
        json.key("beacon_interval_tu");
        ap.beaconIntervalTu ? json.value(static_cast<unsigned>(ap.beaconIntervalTu)) : json.null();
        json.field("beacons", ap.beacons);
        json.field("probe_responses", ap.probeResponses);
        json.field("data_frames", ap.dataFrames);
        json.key("first_epoch_s").number(epochText(tables, ap.firstTimeNs));
        json.key("last_epoch_s").number(epochText(tables, ap.lastTimeNs));
        json.endObject();
    }
    json.endArray();

    json.key("stations").beginArray();
    for (const Station& s : r.inventory.stations) {
        json.beginObject();
        macField(json, tables, "mac", s.mac);
        json.key("ip_addresses").beginArray();
        for (std::uint32_t ip : s.ipAddresses)
            json.value(tables.ipAddresses.at(ip).toString());
        json.endArray();
        json.field("frames_sent", s.framesSent);
        json.field("frames_received", s.framesReceived);
        json.field("probe_requests", s.probeRequests);
        json.key("timeline").beginArray();
        for (const AssociationSpan& span : s.timeline) {
            json.beginObject();
            macField(json, tables, "bssid", span.bssid);
            json.key("start_epoch_s").number(epochText(tables, span.startNs));
            json.key("end_epoch_s").number(epochText(tables, span.endNs));
            json.field("first_frame", span.firstFrame);
            json.field("last_frame", span.lastFrame);
            json.field("data_frames", span.dataFrames);
            json.endObject();
        }
        json.endArray();
        json.key("management").beginArray();
        for (const AssociationFrame& f : s.management) {
            json.beginObject();
            json.field("frame", f.frame);
            json.key("epoch_s").number(epochText(tables, f.timeNs));
            json.field("type", managementName(f.subtype));
            macField(json, tables, "bssid", f.bssid);
            json.field("from_station", f.fromStation);
            json.key("wlan.fixed.status_code");
            f.statusCode != 0xffff ? json.value(static_cast<unsigned>(f.statusCode)) : json.null();
            json.key("wlan.fixed.reason_code");
            f.reasonCode ? json.value(static_cast<unsigned>(f.reasonCode)) : json.null();
            json.endObject();
        }
        json.endArray();
        json.endObject();
    }
    json.endArray();

    json.key("connections").beginArray();
    for (const ConnectionPlacement& p : r.inventory.connections) {
        json.beginObject();
        json.field("id", r.tcp.connections[p.connection].id);
        json.key("station");
        if (p.station >= 0)
            json.value(macText(tables, r.inventory.stations[static_cast<std::size_t>(p.station)].mac));
        else
            json.null();
        json.key("station_endpoint");
        p.stationEndpoint >= 0 ? json.value(static_cast<int>(p.stationEndpoint)) : json.null();
        json.key("aps").beginArray();
        for (const AssociationSpan& span : p.aps) {
            json.beginObject();
            macField(json, tables, "bssid", span.bssid);
            json.key("start_epoch_s").number(epochText(tables, span.startNs));
            json.key("end_epoch_s").number(epochText(tables, span.endNs));
            json.endObject();
        }
        json.endArray();
        json.endObject();
    }
    json.endArray();

    json.key("role_conflicts").beginObject();
    json.field("count", r.inventory.roleConflicts);
    json.field("without_fcs", r.inventory.roleConflictsWithoutFcs);
    json.key("frames").beginArray();
    for (std::uint64_t f : r.inventory.roleConflictFrames)
        json.value(f);
    json.endArray();
    json.endObject();

    json.key("events").beginArray();
    for (std::size_t id = 0; id < r.events.size(); ++id) {
        json.beginObject();
        writeEvent(json, r, r.events.at(id));
        json.endObject();
    }
    json.endArray();

    json.key("scan_patterns").beginArray();
    for (const ScanPattern& p : r.events.scanPatterns) {
        json.beginObject();
        macField(json, tables, "station", p.station);
        json.field("scans", static_cast<std::uint64_t>(p.scans));
        json.field("interval_ms", p.intervalMs);
        json.field("dwell_ms", p.dwellMs);
        json.field("periodic", p.periodic);
        json.endObject();
    }
    json.endArray();

    json.key("mac_stats").beginArray();
    for (const StationMacStats& m : r.events.macStats) {
        json.beginObject();
        macField(json, tables, "station", m.station);
        json.field("addba_responses", m.addbaResponses);
        json.field("delbas", m.delbas);
        json.key("bins").beginArray();
        for (const MacStatsBin& b : m.bins) {
            json.beginObject();
            json.key("start_epoch_s").number(epochText(tables, b.startNs));
            json.field("frames_sent", b.framesSent);
            json.field("frames_received", b.framesReceived);
            json.field("retries", b.retries);
            json.field("failed_attempts", b.failedAttempts);
            json.key("mean_rate_mbps");
            b.rateSamples ? json.value(b.meanRateMbps) : json.null();
            json.key("max_mcs");
            b.maxMcs != 0xff ? json.value(static_cast<unsigned>(b.maxMcs)) : json.null();
            json.key("mean_signal_dbm");
            b.signalSamples ? json.value(b.meanSignalDbm) : json.null();
            json.field("ampdus", b.ampdus);
            json.field("ampdu_subframes", b.ampduSubframes);
            json.field("block_acks", b.blockAcks);
            json.field("block_ack_requests", b.blockAckRequests);
            json.endObject();
        }
        json.endArray();
        json.endObject();
    }
    json.endArray();
    writeNotes(json, r.inventory.notes, r.events.notes);
    json.endObject();
    out << '\n';
}

void writeEventsCsv(std::ostream& out, const EventsReport& r)
{
    out << "id,kind,station,bssid,new_bssid,start_epoch_s,end_epoch_s,duration_ms,basis,"
           "open_ended,evidence_count,probe_requests,ps_polls,frames_to_station,"
           "retries_to_station,connection,evidence_frames,initiator,status_code,reason_code,"
           "attempts\n";
    for (std::size_t id = 0; id < r.events.size(); ++id) {
        const WlanEvent& e = r.events.at(id);
        out << e.id << ',' << eventKindName(e.kind) << ',' << macText(r.tables, e.station) << ','
            << macText(r.tables, e.bssid) << ','
            << (e.kind == WlanEventKind::Handoff || e.kind == WlanEventKind::Disconnection ||
                        e.kind == WlanEventKind::FailedRoam
                    ? macText(r.tables, e.newBssid)
                    : "")
            << ','
            << epochText(r.tables, e.startNs) << ',' << epochText(r.tables, e.endNs) << ','
            << fixedText(static_cast<double>(e.endNs - e.startNs) / 1e6, 3) << ',' << e.basis << ','
            << (e.openEnded ? 1 : 0) << ',' << e.evidenceCount << ',' << e.probeRequests << ','
            << e.psPolls << ',' << e.framesToStation << ',' << e.retriesToStation << ',';
        if (e.connection >= 0)
            out << r.tcp.connections[static_cast<std::size_t>(e.connection)].id;
        out << ',';
        for (std::size_t i = 0; i < e.evidenceFrames.size(); ++i)
            out << (i ? ";" : "") << e.evidenceFrames[i];
        out << ',' << initiatorName(e.initiator) << ',';
        if (e.statusCode >= 0)
            out << e.statusCode;
        out << ',';
        if (e.reasonCode >= 0)
            out << e.reasonCode;
        out << ',' << e.attempts << '\n';
    }
}

void writeCorrelationJson(std::ostream& out, const EventsReport& r, const Correlation& c)
{
    const dissect::CaptureTables& tables = r.tables;
    JsonWriter json(out);
    json.beginObject();
    writeCapture(json, tables);
    json.key("events").beginArray();
    for (std::size_t i = 0; i < r.events.size(); ++i) {
        json.beginObject();
        writeEventCore(json, r, r.events.at(i));
        json.key("connections").beginArray();
        for (const ConnectionImpact& m : c.impacts[i].connections) {
            json.beginObject();
            json.field("id", r.tcp.connections[m.connection].id);
            json.field("data_direction", m.dataDirection);
            json.key("window_start_epoch_s").number(epochText(tables, m.windowStartNs));
            json.key("window_end_epoch_s").number(epochText(tables, m.windowEndNs));
            json.field("retransmissions", static_cast<std::uint64_t>(m.retransmissions));
            json.field("fast_retransmissions", static_cast<std::uint64_t>(m.fastRetransmissions));
            json.field("rto_timeouts", static_cast<std::uint64_t>(m.rtoTimeouts));
            json.field("retransmissions_in_window", static_cast<std::uint64_t>(m.retransmissionsInWindow));
            json.field("fast_retransmissions_in_window", static_cast<std::uint64_t>(m.fastRetransmissionsInWindow));
            json.field("rto_timeouts_in_window", static_cast<std::uint64_t>(m.rtoTimeoutsInWindow));
            json.key("overlapping_events").beginArray();
            for (std::uint64_t id : m.overlappingEvents)
                json.value(id);
            json.endArray();
            json.field("dup_acks", static_cast<std::uint64_t>(m.dupAcks));
            json.field("dup_ack_bursts", static_cast<std::uint64_t>(m.dupAckBursts));
            json.field("zero_windows", static_cast<std::uint64_t>(m.zeroWindows));
            json.field("low_windows", static_cast<std::uint64_t>(m.lowWindows));
            json.field("throughput_before_bps", m.throughputBeforeBps);
            json.field("throughput_during_bps", m.throughputDuringBps);
            json.field("throughput_after_bps", m.throughputAfterBps);
            json.key("recovery_ms");
            m.recoveryNs >= 0 ? json.value(static_cast<double>(m.recoveryNs) / 1e6) : json.null();
            json.field("recovery", m.recoveryNs >= 0        ? "recovered"
                                   : m.nothingToRecover() ? "nothing_to_recover"
                                                          : "not_within_window");
            const auto optionalBytes = [&](const char* key, std::int64_t v) {
                json.key(key);
                v >= 0 ? json.value(static_cast<std::uint64_t>(v)) : json.null();
            };
            optionalBytes("cwnd_before_bytes", m.cwndBeforeBytes);
            optionalBytes("cwnd_min_bytes", m.cwndMinBytes);
            optionalBytes("cwnd_after_bytes", m.cwndAfterBytes);
            optionalBytes("ssthresh_after_bytes", m.ssthreshAfterBytes);
            optionalBytes("window_before_bytes", m.windowBeforeBytes);
            optionalBytes("window_min_bytes", m.windowMinBytes);
            optionalBytes("window_after_bytes", m.windowAfterBytes);
            json.field("cwnd_model", m.cwndModel);
            json.field("cwnd_not_followed", m.cwndNotFollowed);
            json.field("stalled_ms", static_cast<double>(m.stalledNs) / 1e6);
            json.key("stall_start_epoch_s");
            m.stallStartNs >= 0 ? json.number(epochText(tables, m.stallStartNs)) : json.null();
            json.key("stall_end_epoch_s");
            m.stallEndNs >= 0 ? json.number(epochText(tables, m.stallEndNs)) : json.null();
            optionalBytes("goodput_lost_bytes", m.goodputLostBytes);
            json.key("reference_goodput_bps");
            m.referenceGoodputBps >= 0 ? json.value(m.referenceGoodputBps) : json.null();
            json.key("cost_end_epoch_s").number(epochText(tables, m.costEndNs));
            json.endObject();
        }
        json.endArray();
        json.endObject();
    }
    json.endArray();
    json.key("kinds").beginArray();
    for (const KindAggregate& k : c.kinds) {
        json.beginObject();
        json.field("kind", eventKindName(k.kind));
        json.field("events", k.events);
        json.field("events_with_connections", k.eventsWithConnections);
        json.field("mean_duration_ms", k.meanDurationMs);
        json.field("retransmissions", k.retransmissions);
        json.field("rto_timeouts", k.rtoTimeouts);
        json.field("dup_ack_bursts", k.dupAckBursts);
        json.field("zero_windows", k.zeroWindows);
        json.field("mean_throughput_during_pct", k.meanThroughputDuringPct);
        json.field("mean_recovery_ms", k.meanRecoveryMs);
        json.field("not_recovered", k.notRecovered);
        json.field("stalled_ms", static_cast<double>(k.stalledNs) / 1e6);
        json.field("goodput_lost_bytes", static_cast<std::uint64_t>(k.goodputLostBytes));
        json.field("goodput_lost_unknown", k.lostUnknown);
        json.endObject();
    }
    json.endArray();
    json.key("scan_intervals").beginArray();
    for (const ScanIntervalAggregate& a : c.scanIntervals) {
        json.beginObject();
        macField(json, tables, "station", a.station);
        json.field("interval_ms", a.intervalMs);
        json.field("dwell_ms", a.dwellMs);
        json.field("periodic", a.periodic);
        json.field("scans", a.scans);
        json.key("scanning_start_epoch_s").number(epochText(tables, a.scanningStartNs));
        json.key("scanning_end_epoch_s").number(epochText(tables, a.scanningEndNs));
        json.field("throughput_scanning_bps", a.throughputScanningBps);
        json.key("throughput_scan_free_bps");
        a.throughputScanFreeBps >= 0 ? json.value(a.throughputScanFreeBps) : json.null();
        json.key("throughput_pct_of_scan_free");
        a.throughputPct >= 0 ? json.value(a.throughputPct) : json.null();
        json.field("losses_per_scan", a.lossesPerScan);
        json.field("timeouts_per_scan", a.timeoutsPerScan);
        json.endObject();
    }
    json.endArray();
    writeNotes(json, r.inventory.notes, r.events.notes, c.notes);
    json.endObject();
    out << '\n';
}

void writeCorrelationCsv(std::ostream& out, const EventsReport& r, const Correlation& c)
{
    out << "event,kind,station,start_epoch_s,end_epoch_s,connection,retransmissions,"
           "fast_retransmissions,rto_timeouts,dup_acks,dup_ack_bursts,zero_windows,low_windows,"
           "throughput_before_bps,throughput_during_bps,throughput_after_bps,recovery_ms,"
           "cwnd_before_bytes,cwnd_min_bytes,cwnd_after_bytes,ssthresh_after_bytes,window_before_bytes,"
           "window_min_bytes,window_after_bytes,cwnd_model,stalled_ms,goodput_lost_bytes\n";
    for (std::size_t i = 0; i < r.events.size(); ++i) {
        const WlanEvent& e = r.events.at(i);
        for (const ConnectionImpact& m : c.impacts[i].connections) {
            out << e.id << ',' << eventKindName(e.kind) << ',' << macText(r.tables, e.station)
                << ',' << epochText(r.tables, e.startNs) << ',' << epochText(r.tables, e.endNs)
                << ',' << r.tcp.connections[m.connection].id << ',' << m.retransmissions << ','
                << m.fastRetransmissions << ',' << m.rtoTimeouts << ',' << m.dupAcks << ','
                << m.dupAckBursts << ',' << m.zeroWindows << ',' << m.lowWindows << ','
                << fixedText(m.throughputBeforeBps, 0) << ',' << fixedText(m.throughputDuringBps, 0)
                << ',' << fixedText(m.throughputAfterBps, 0) << ',';
            if (m.recoveryNs >= 0)
                out << fixedText(static_cast<double>(m.recoveryNs) / 1e6, 3);
            for (std::int64_t v : {m.cwndBeforeBytes, m.cwndMinBytes, m.cwndAfterBytes, m.ssthreshAfterBytes,
                                   m.windowBeforeBytes, m.windowMinBytes, m.windowAfterBytes}) {
                out << ',';
                if (v >= 0)
                    out << v;
            }
            out << ',' << (m.cwndModel.empty() ? m.cwndNotFollowed : m.cwndModel) << ','
                << fixedText(static_cast<double>(m.stalledNs) / 1e6, 3) << ',';
            if (m.goodputLostBytes >= 0)
                out << m.goodputLostBytes;
            out << '\n';
        }
    }
}

std::string recoveryText(const ConnectionImpact& m)
{
    if (m.recoveryNs >= 0)
        return std::to_string(m.recoveryNs / 1'000'000) + " ms";
    return m.nothingToRecover() ? "- (no throughput before the event: nothing to recover)"
                                : "not within the window";
}

} // namespace windscope::analysis
