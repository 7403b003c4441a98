// SPDX-License-Identifier: GPL-3.0-or-later
#include "report_json.h"

#include "dissectors/dissector_set.h"
#include "json_writer.h"

#include <cstdio>

namespace windscope::analysis {

std::string endpointText(const dissect::CaptureTables& tables, std::uint32_t addressId,
                         std::uint16_t port)
{
    const dissect::IpAddress& address = tables.ipAddresses.at(addressId);
    std::string text = address.toString();
    if (address.family == 6)
        text = "[" + text + "]";
    return text + ":" + std::to_string(port);
}

std::string epochText(const dissect::CaptureTables& tables, std::int64_t relativeNs)
{
    const std::int64_t absolute = tables.summary.firstEpochNs + relativeNs;
    std::int64_t seconds = absolute / 1000000000, fraction = absolute % 1000000000;
    if (fraction < 0) {
        fraction += 1000000000;
        --seconds;
    }
    char text[48];
    std::snprintf(text, sizeof text, "%lld.%09lld", static_cast<long long>(seconds),
                  static_cast<long long>(fraction));
    return text;
}

std::string fixedText(double value, int decimals)
{
    char text[64];
    std::snprintf(text, sizeof text, "%.*f", decimals, value);
    return text;
}

void writeCapture(JsonWriter& json, const dissect::CaptureTables& tables)
{
    const dissect::CaptureSummary& s = tables.summary;
    json.key("capture").beginObject();
    json.field("path", s.path);
    json.field("packets", s.packets);
    json.key("first_epoch_s").number(epochText(tables, 0));
    json.key("last_epoch_s").number(epochText(tables, s.lastEpochNs - s.firstEpochNs));
    json.key("link_types").beginArray();
    for (int type : s.linkTypes)
        json.value(dissect::linkTypeName(type));
    json.endArray();
    json.key("warnings").beginArray();
    for (const std::string& warning : s.warnings)
        json.value(warning);
    json.endArray();
    json.field("truncated", s.truncated);
    json.field("bytes_captured", s.bytesCaptured);
    json.field("malformed_packets", s.malformedPackets);
    json.key("malformed").beginArray();
    for (const dissect::MalformedRecord& m : s.malformed) {
        json.beginObject();
        json.field("frame", m.frame);
        json.field("field", m.annotation.field);
        json.field("problem", m.annotation.message);
        json.endObject();
    }
    json.endArray();
    json.field("unknown_link_type_packets", s.unknownLinkTypePackets);
    json.field("wlan_frames", s.wlanFrames);
    json.field("bad_fcs_frames", s.badFcsFrames);
    json.field("mac_duplicate_frames", s.macDuplicateFrames);
    json.field("ip_fragments_skipped", s.ipFragmentsSkipped);
    json.field("tcp_segments", s.tcpSegments);
    json.endObject();
}

namespace {

void writeDirection(JsonWriter& json, const dissect::CaptureTables& tables, const Connection& c,
                    int d)
{
    const DirectionStats& s = c.direction[d];
    const int from = d, to = 1 - d;
    json.beginObject();
    json.field("from", endpointText(tables, c.address[from], c.port[from]));
    json.field("to", endpointText(tables, c.address[to], c.port[to]));
    json.field("packets", s.packets);
    json.field("data_packets", s.dataPackets);
    json.field("data_bytes", s.dataBytes);
    json.field("unique_bytes", s.uniqueBytes);
    json.field("retransmitted_bytes", s.retransmittedBytes);
    json.field("retransmissions", s.retransmissions);
    json.field("fast_retransmissions", s.fastRetransmissions);
    json.field("spurious_retransmissions", s.spuriousRetransmissions);
    json.field("rto_timeouts", s.rtoTimeouts);
    json.field("out_of_order", s.outOfOrder);
    json.field("lost_segments", s.lostSegments);
    json.field("ack_lost_segments", s.ackLostSegments);
    json.field("dup_acks", s.dupAcks);
    json.field("zero_windows", s.zeroWindows);
    json.field("zero_window_probes", s.zeroWindowProbes);
    json.field("window_updates", s.windowUpdates);
    json.field("window_full", s.windowFull);
    json.field("low_windows", s.lowWindows);
    json.field("keep_alives", s.keepAlives);
    json.field("mac_retries_excluded", s.macRetriesExcluded);
    json.field("syn", s.synCount);
    json.field("fin", s.finCount);
    json.field("rst", s.rstCount);
    json.field("sack_packets", s.sackPackets);
    json.field("max_window_bytes", s.maxWindowBytes);
    json.key("rtt_ms").beginObject();
    json.field("samples", s.rttSamples);
    if (s.rttSamples) {
        json.field("min", s.rttMinMs);
        json.field("avg", s.rttAvgMs);
        json.field("max", s.rttMaxMs);
        json.field("stddev", s.rttStddevMs);
    } else {
        json.key("min").null();
        json.key("avg").null();
        json.key("max").null();
        json.key("stddev").null();
    }
    json.endObject();
    // Rates over less than a round trip are unknown, not numbers (DirectionStats).
    if (ratesMeasurable(c, d)) {
        json.field("throughput_bps", s.throughputBps);
        json.field("goodput_bps", s.goodputBps);
    } else {
        json.key("throughput_bps").null();
        json.key("goodput_bps").null();
    }
    json.endObject();
}

} // namespace

void writeAnalyzeJson(std::ostream& out, const dissect::CaptureTables& tables,
                      const TcpAnalysis& analysis)
{
    JsonWriter json(out);
    json.beginObject();
    writeCapture(json, tables);
    json.key("connections").beginArray();
    for (const Connection& c : analysis.connections) {
        const dissect::IpAddress& a = tables.ipAddresses.at(c.address[0]);
        const dissect::IpAddress& b = tables.ipAddresses.at(c.address[1]);
        json.beginObject();
        json.field("id", c.id);
        json.field("a", a.toString());
        json.field("a_port", static_cast<unsigned>(c.port[0]));
        json.field("b", b.toString());
        json.field("b_port", static_cast<unsigned>(c.port[1]));
        json.field("first_frame", c.firstFrame);
        json.key("first_epoch_s").number(epochText(tables, c.firstTimeNs));
        json.key("last_epoch_s").number(epochText(tables, c.lastTimeNs));
        json.field("duration_s", static_cast<double>(c.lastTimeNs - c.firstTimeNs) / 1e9);
        json.field("segments", c.segments);
        json.field("handshake_seen", c.handshakeSeen);
        json.field("window_scale_known", c.windowScaleKnown);
        json.key("window_scale").beginArray();
        json.value(static_cast<int>(c.windowScale[0])).value(static_cast<int>(c.windowScale[1]));
        json.endArray();
        json.key("mss").beginArray();
        json.value(static_cast<unsigned>(c.mss[0])).value(static_cast<unsigned>(c.mss[1]));
        json.endArray();
        json.field("sack_permitted", c.sackPermitted);
        json.field("timestamps", c.timestamps);
        if (c.handshakeRttNs >= 0)
            json.field("handshake_rtt_ms", static_cast<double>(c.handshakeRttNs) / 1e6);
        else
            json.key("handshake_rtt_ms").null();
        json.field("low_window_threshold_bytes", c.lowWindowThresholdBytes);
        json.key("directions").beginArray();
        writeDirection(json, tables, c, 0);
        writeDirection(json, tables, c, 1);
        json.endArray();
        json.endObject();
    }
    json.endArray();
    json.endObject();
    out << '\n';
}

} // namespace windscope::analysis
