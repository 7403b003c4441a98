// SPDX-License-Identifier: GPL-3.0-or-later
#include "flow_events.h"

#include <algorithm>
#include <limits>

namespace windscope::analysis::cwnd {

static_assert(sizeof(FlowEvent) <= 96, "flow events are kept per segment: keep the record small");

namespace {

constexpr std::uint16_t kSyn = 0x02, kAck = 0x10, kRst = 0x04;
constexpr std::int64_t kMs = 1'000'000;

// Handshake timing: SYN -> SYN-ACK spans the round trip from the capture to the server
// and back, SYN-ACK -> ACK the round trip to the client and back (RFC 9293 3.5).
Vantage detectVantage(const dissect::CaptureTables& tables, const TcpAnalysis& analysis,
                      std::size_t connection, int sender, const std::vector<std::uint64_t>& rows)
{
    Vantage v;
    const Connection& c = analysis.connections[connection];
    if (!c.handshakeSeen)
        return v;
    const dissect::TcpColumns& t = tables.tcp;
    std::int64_t synNs = -1, synAckNs = -1, ackNs = -1;
    std::uint32_t synAckSeq = 0;
    for (std::uint64_t row : rows) {
        const std::uint16_t f = t.tcpFlags(row);
        if ((f & kSyn) && !(f & kAck))
            synNs = t.timeNs[row]; // the last SYN: a retransmitted SYN restarts the clock
        else if ((f & kSyn) && (f & kAck) && synNs >= 0 && synAckNs < 0) {
            synAckNs = t.timeNs[row];
            synAckSeq = t.seq[row];
        } else if (synAckNs >= 0 && (f & kAck) && !(f & (kSyn | kRst)) && t.ack[row] == synAckSeq + 1) {
            ackNs = t.timeNs[row];
            break;
        }
    }
    if (synNs < 0 || synAckNs < 0 || ackNs < 0)
        return v;
    const std::int64_t toServer = synAckNs - synNs, toClient = ackNs - synAckNs;
    // Endpoint 0 is the client when the handshake was seen.
    const bool senderIsClient = sender == 0;
    v.upstreamRttNs = senderIsClient ? toClient : toServer;
    v.downstreamRttNs = senderIsClient ? toServer : toClient;
    const std::int64_t total = v.upstreamRttNs + v.downstreamRttNs;
    // Next to the sender the upstream part is the host's own turnaround: well under a
    // millisecond, and a small share of the round trip.
    if (v.upstreamRttNs <= std::max<std::int64_t>(kMs, total / 10)) {
        v.point = VantagePoint::Sender;
    } else {
        v.point = VantagePoint::Path;
        v.oneWayShiftNs = v.upstreamRttNs / 2;
    }
    return v;
}

// A capture on the sender's link sees its segments after the device queue: a burst
// decided at one ACK leaves back to back, one serialization time apart, and ACKs that
// arrive meanwhile were not yet processed when the burst was sent. Segments that
// follow their predecessor at line rate (the smallest gap seen, scaled by length) are
// moved back to their predecessor's send time. Links without serialization delay
// (veth, loopback: gaps of a few microseconds) are left alone.
void undoSerialization(FlowEvents& flow)
{
    constexpr std::int64_t kMinLineGapNs = 5'000;
    std::int64_t minGap = -1, lastTime = -1;
    for (const FlowEvent& e : flow.events) {
        if (e.kind != FlowEvent::Kind::Data)
            continue;
        if (lastTime >= 0 && e.end - e.seq == static_cast<std::int64_t>(flow.mss)) {
            const std::int64_t gap = e.senderTimeNs - lastTime;
            if (gap > 0 && (minGap < 0 || gap < minGap))
                minGap = gap;
        }
        lastTime = e.senderTimeNs;
    }
    if (minGap < kMinLineGapNs)
        return;
    std::int64_t prevObserved = -1, prevSender = 0;
    for (FlowEvent& e : flow.events) {
        if (e.kind != FlowEvent::Kind::Data)
            continue;
        const std::int64_t observed = e.senderTimeNs;
        const std::int64_t lineGap = minGap * (e.end - e.seq) / std::max<std::int64_t>(1, flow.mss);
        if (prevObserved >= 0 && observed - prevObserved <= lineGap + lineGap / 8)
            e.senderTimeNs = prevSender;
        prevObserved = observed;
        prevSender = e.senderTimeNs;
    }
}

} // namespace

const char* vantagePointName(VantagePoint v)
{
    switch (v) {
    case VantagePoint::Sender: return "sender";
    case VantagePoint::Path: return "path";
    case VantagePoint::Unknown: break;
    }
    return "unknown";
}

std::vector<std::vector<std::uint64_t>> rowsByConnection(const TcpAnalysis& analysis)
{
    std::vector<std::vector<std::uint64_t>> out(analysis.connections.size());
    for (std::size_t c = 0; c < out.size(); ++c)
        out[c].reserve(analysis.connections[c].segments);
    const auto& owner = analysis.segments.connection;
    for (std::uint64_t row = 0; row < owner.size(); ++row)
        if (owner[row] < out.size())
            out[owner[row]].push_back(row);
    return out;
}

FlowEvents collectFlowEvents(const dissect::CaptureTables& tables, const TcpAnalysis& analysis,
                             std::size_t connection, int sender, const std::vector<std::uint64_t>* givenRows)
{
    FlowEvents out;
    const dissect::TcpColumns& t = tables.tcp;
    const SegmentColumns& seg = analysis.segments;
    const Connection& c = analysis.connections[connection];

    std::vector<std::uint64_t> ownRows;
    if (!givenRows) {
        // Rows are in frame order, so the connection's rows lie between the rows of its
        // first and last frames: only that span is scanned, not the whole capture.
        const auto firstRow = static_cast<std::uint64_t>(
            std::lower_bound(t.frame.begin(), t.frame.end(), c.firstFrame) - t.frame.begin());
        const auto endRow = static_cast<std::uint64_t>(
            std::upper_bound(t.frame.begin(), t.frame.end(), c.lastFrame) - t.frame.begin());
        ownRows.reserve(c.segments);
        for (std::uint64_t row = firstRow; row < endRow; ++row)
            if (seg.connection[row] == connection)
                ownRows.push_back(row);
    }
    const std::vector<std::uint64_t>& rows = givenRows ? *givenRows : ownRows;
    out.vantage = detectVantage(tables, analysis, connection, sender, rows);

    std::uint32_t largest = 0;
    bool anyTimestamps = true;
    std::uint64_t dataRows = 0;
    for (std::uint64_t row : rows)
        if (analysis.directionOf(tables, row) == sender && t.payloadLength[row] > 0) {
            largest = std::max(largest, t.payloadLength[row]);
            anyTimestamps &= (t.flags[row] & dissect::TcpColumns::kHasTimestamps) != 0;
            ++dataRows;
        }
    out.mss = largest ? largest : (c.mss[sender] ? c.mss[sender] : 536);

    // Queueing between sender and capture point: the capture time minus the sender's
    // TSval clock (Linux and ns-3 tick in milliseconds) is the fixed clock offset plus
    // the one-way delay plus queueing; its minimum is the empty-queue case. Half a tick
    // is taken off for the truncation of the TSval. A handshake that looks like the
    // sender's own does not rule queueing out: a capture at an AP that holds a
    // sleeping station's frames sees them late, behind ACKs the sender had already
    // answered. There a whole tick is taken off, so that the truncation alone never
    // moves a segment seen next to its sender.
    std::int64_t minOffset = 0;
    const bool useTimestamps = anyTimestamps && dataRows > 0;
    const std::int64_t tickSlackNs = kMs;
    if (useTimestamps) {
        bool first = true;
        std::uint32_t firstTs = 0;
        for (std::uint64_t row : rows)
            if (analysis.directionOf(tables, row) == sender && t.payloadLength[row] > 0) {
                if (first)
                    firstTs = t.tsVal[row];
                const std::int64_t off =
                    t.timeNs[row] - static_cast<std::int64_t>(static_cast<std::uint32_t>(t.tsVal[row] - firstTs)) * kMs;
                if (first || off < minOffset)
                    minOffset = off;
                first = false;
            }
        out.vantage.queueingFromTimestamps = true;
    }

    std::uint32_t firstTs = 0;
    bool firstTsSet = false;
    bool initialWindowSet = false;
    out.events.reserve(rows.size());
    for (std::uint64_t row : rows) {
        const std::uint16_t f = t.tcpFlags(row);
        const bool fromSender = analysis.directionOf(tables, row) == sender;
        FlowEvent e;
        e.row = row;
        e.flags = seg.flags[row];
        e.hasTimestamps = (t.flags[row] & dissect::TcpColumns::kHasTimestamps) != 0;
        e.tsVal = t.tsVal[row];
        e.tsEcr = t.tsEcr[row];
        const std::int64_t time = t.timeNs[row];
        if (fromSender) {
            if (t.payloadLength[row] == 0 || (f & (kSyn | kRst)))
                continue;
            e.kind = FlowEvent::Kind::Data;
            e.seq = analysis.relativeSeq(t, row);
            e.end = e.seq + t.payloadLength[row];
            std::int64_t queueing = 0;
            if (useTimestamps) {
                if (!firstTsSet) {
                    firstTs = t.tsVal[row];
                    firstTsSet = true;
                }
                const std::int64_t off =
                    time - static_cast<std::int64_t>(static_cast<std::uint32_t>(t.tsVal[row] - firstTs)) * kMs;
                queueing = std::max<std::int64_t>(0, off - minOffset - tickSlackNs);
            }
            e.senderTimeNs = time - out.vantage.oneWayShiftNs - queueing;
            ++out.dataSegments;
        } else {
            if (!(f & kAck) || (f & (kSyn | kRst))) {
                if ((f & kSyn) && (f & kAck) && !initialWindowSet) {
                    out.initialRwndBytes = analysis.windowBytes(t, row);
                }
                continue;
            }
            e.kind = FlowEvent::Kind::Ack;
            e.ack = analysis.relativeAck(t, row);
            e.windowBytes = analysis.windowBytes(t, row);
            if (!initialWindowSet) {
                out.initialRwndBytes = e.windowBytes;
                initialWindowSet = true;
            }
            if (e.flags & segment_flag::kAckLostSegment)
                ++out.ackLostSegments;
            const std::uint32_t side = t.sideOptionsIndex(row);
            if (side != dissect::TcpColumns::kNoSideOptions) {
                const dissect::TcpSideOptions& o = tables.tcpSideOptions[side];
                e.sackCount = std::min<std::uint8_t>(o.sackBlockCount, 4);
                for (int i = 0; i < 2 * e.sackCount; ++i)
                    e.sackOffset[i] = static_cast<std::int32_t>(o.sackBlocks[i] - t.ack[row]);
            }
            e.senderTimeNs = time + out.vantage.oneWayShiftNs;
        }
        out.events.push_back(e);
    }
    if (out.vantage.point == VantagePoint::Sender)
        undoSerialization(out);
    // Shifting data back and ACKs forward by the one-way delay reorders only what lies
    // within that delay; ties keep capture order.
    const auto bySenderTime = [](const FlowEvent& a, const FlowEvent& b) {
        return a.senderTimeNs < b.senderTimeNs || (a.senderTimeNs == b.senderTimeNs && a.row < b.row);
    };
    if (!std::is_sorted(out.events.begin(), out.events.end(), bySenderTime))
        std::sort(out.events.begin(), out.events.end(), bySenderTime);
    constexpr std::int64_t kNone = std::numeric_limits<std::int64_t>::min();
    std::int64_t highestEnd = kNone, highestAck = kNone;
    for (const FlowEvent& e : out.events) {
        if (e.kind == FlowEvent::Kind::Ack) {
            highestAck = std::max(highestAck, e.ack);
            continue;
        }
        highestEnd = std::max(highestEnd, e.end);
        if (highestAck == kNone)
            highestAck = e.seq;
        out.maxFlightBytes =
            std::max(out.maxFlightBytes, static_cast<std::uint64_t>(std::max<std::int64_t>(0, highestEnd - highestAck)));
    }
    return out;
}

} // namespace windscope::analysis::cwnd
