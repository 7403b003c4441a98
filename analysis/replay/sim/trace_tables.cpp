// SPDX-License-Identifier: GPL-3.0-or-later
#include "trace_tables.h"

#include <algorithm>

namespace windscope::analysis::replay {

namespace {

constexpr std::uint16_t kFin = 0x001, kSyn = 0x002, kPsh = 0x008, kAck = 0x010;

dissect::IpAddress ipv4(std::uint8_t last)
{
    dissect::IpAddress a;
    a.family = 4;
    a.bytes[0] = 192;
    a.bytes[1] = 0;
    a.bytes[2] = 2;
    a.bytes[3] = last;
    return a;
}

std::uint32_t msTicks(std::int64_t ns)
{
    return static_cast<std::uint32_t>(ns / 1'000'000 + 1);
}

} // namespace

std::size_t recordsInSpan(const SimResult& run)
{
    const std::vector<TraceRecord>& trace = run.trace;
    const auto isData = [](const TraceRecord& r) { return r.fromSender && r.packet.kind == Packet::Kind::Data; };
    const auto firstData = std::find_if(trace.begin(), trace.end(), isData);
    if (run.scenario.measuredOverS <= 0 || firstData == trace.end())
        return trace.size();
    const std::int64_t cutNs = firstData->timeNs + static_cast<std::int64_t>(run.scenario.measuredOverS * 1e9);
    if (std::find_if(trace.rbegin(), trace.rend(), isData)->timeNs <= cutNs)
        return trace.size(); // done sending within the span: read whole
    return static_cast<std::size_t>(
        std::partition_point(trace.begin(), trace.end(), [&](const TraceRecord& r) { return r.timeNs <= cutNs; }) -
        trace.begin());
}

dissect::CaptureTables traceToTables(const SimResult& run, std::int64_t firstEpochNs)
{
    const std::size_t records = recordsInSpan(run);
    dissect::CaptureTables t;
    const Scenario& s = run.scenario;
    const std::uint32_t mss = run.mss;
    const std::uint32_t sender = t.ipAddresses.intern(ipv4(1));
    const std::uint32_t receiver = t.ipAddresses.intern(ipv4(2));
    // The conversation's a is the lower (address, port): the sender here.
    t.conversations.push_back({sender, receiver, kSimSenderPort, kSimReceiverPort});
    std::uint8_t scale = 0;
    while ((std::max(s.receiver.bufferBytes, s.sender.maxWindowBytes) >> scale) > 65535 && scale < 14)
        ++scale;

    // The handshake happens one base RTT before the first data segment, which the
    // simulator sends at its time 0.
    const double reverse = s.path.reverseDelayMs >= 0 ? s.path.reverseDelayMs : s.path.wiredDelayMs;
    const auto rttNs =
        static_cast<std::int64_t>((s.path.wiredDelayMs + reverse + 2 * s.path.wirelessDelayMs) * 1e6) + 1000;
    std::uint64_t frame = 0;
    t.tcp.reserve(run.trace.size() + 4);
    auto side = [&](const dissect::TcpSideOptions& o) {
        t.tcpSideOptions.push_back(o);
        return static_cast<std::uint32_t>(t.tcpSideOptions.size() - 1);
    };
    auto push = [&](std::int64_t timeNs, bool fromSender, std::uint32_t seq, std::uint32_t ack, std::uint16_t flags,
                    std::uint32_t len, std::uint64_t windowBytes, std::uint32_t tsVal, std::uint32_t tsEcr,
                    std::uint32_t sideOptions, bool syn) {
        dissect::TcpRow row;
        row.frame = ++frame;
        row.timeNs = timeNs;
        row.conversation = 0;
        row.seq = seq;
        row.ack = ack;
        const std::uint64_t field = syn ? windowBytes : windowBytes >> scale;
        row.window = static_cast<std::uint16_t>(std::min<std::uint64_t>(field, 65535));
        row.flags = static_cast<std::uint16_t>(flags | dissect::TcpColumns::kHasTimestamps |
                                               (fromSender ? 0 : dissect::TcpColumns::kDirectionBit));
        row.payloadLength = len;
        row.tsVal = tsVal;
        row.tsEcr = tsEcr;
        row.sideOptions = sideOptions;
        t.tcp.append(row);
    };
    dissect::TcpSideOptions synOptions;
    synOptions.mss = static_cast<std::uint16_t>(std::min<std::uint32_t>(mss, 65535));
    synOptions.windowScale = static_cast<std::int8_t>(scale);
    synOptions.sackPermitted = s.sender.sack;
    // The receiver (the station) opens the connection, as in the lab runs; seen at the
    // sender, its SYN-ACK leaves as the SYN arrives and the ACK comes back one RTT later.
    push(0, false, 0, 0, kSyn, 0, 65535, 1, 0, side(synOptions), true);
    push(1000, true, 0, 1, kSyn | kAck, 0, 65535, 1, 1, side(synOptions), true);
    push(rttNs, false, 1, 1, kAck, 0, s.receiver.bufferBytes, 2, 1, dissect::TcpColumns::kNoSideOptions, false);
    const std::int64_t shift = rttNs;

    std::int64_t lastNs = shift;
    for (std::size_t i = 0; i < records; ++i) {
        const TraceRecord& r = run.trace[i];
        const Packet& p = r.packet;
        const std::int64_t time = shift + r.timeNs;
        lastNs = std::max(lastNs, time);
        if (r.fromSender) {
            if (p.kind == Packet::Kind::Probe) {
                // Linux tcp_xmit_probe_skb(): sequence SND.UNA - 1, no payload.
                push(time, true, static_cast<std::uint32_t>(p.segment * mss), 1, kAck, 0, 65535 << scale,
                     msTicks(shift + p.sentNs), 1, dissect::TcpColumns::kNoSideOptions, false);
                continue;
            }
            push(time, true, static_cast<std::uint32_t>(1 + p.segment * mss), 1, kAck | kPsh, p.length,
                 65535u << scale, msTicks(shift + p.sentNs), 1, dissect::TcpColumns::kNoSideOptions, false);
            continue;
        }
        std::uint32_t options = dissect::TcpColumns::kNoSideOptions;
        if (p.sackCount > 0 && s.sender.sack) {
            dissect::TcpSideOptions o;
            o.sackBlockCount = p.sackCount;
            for (std::uint8_t b = 0; b < p.sackCount; ++b) {
                o.sackBlocks[2 * b] = static_cast<std::uint32_t>(1 + p.sack[b].start * mss);
                o.sackBlocks[2 * b + 1] = static_cast<std::uint32_t>(1 + p.sack[b].end * mss);
            }
            options = side(o);
        }
        push(time, false, 1, static_cast<std::uint32_t>(1 + p.ackSegment * mss), kAck, 0, p.windowBytes,
             msTicks(time), p.echoNs >= 0 ? msTicks(shift + p.echoNs) : 0, options, false);
    }
    if (run.completed && records == run.trace.size()) {
        // Close as a bulk sender does: FIN, and the receiver's FIN-ACK a round trip later.
        const auto end = static_cast<std::uint32_t>(1 + run.segments * mss);
        push(lastNs, true, end, 1, kFin | kAck, 0, 65535u << scale, msTicks(lastNs), 1,
             dissect::TcpColumns::kNoSideOptions, false);
        lastNs += rttNs;
        push(lastNs, false, 1, end + 1, kFin | kAck, 0, s.receiver.bufferBytes, msTicks(lastNs), msTicks(lastNs),
             dissect::TcpColumns::kNoSideOptions, false);
    }
    t.summary.path = "replay:" + s.name;
    t.summary.packets = t.tcp.size();
    t.summary.tcpSegments = t.tcp.size();
    t.summary.firstEpochNs = firstEpochNs;
    t.summary.lastEpochNs = firstEpochNs + lastNs;
    t.summary.linkTypes.push_back(101); // LINKTYPE_RAW: bare IP, what the rows are
    return t;
}

} // namespace windscope::analysis::replay
