// SPDX-License-Identifier: GPL-3.0-or-later
#include "flow_events.h"

#include "analysis/wlan/wlan_frames.h"

#include <algorithm>
#include <deque>
#include <iterator>
#include <limits>
#include <optional>
#include <unordered_map>

namespace windscope::analysis::cwnd {

static_assert(sizeof(FlowEvent) <= 48, "flow events are kept per segment: keep the record small");

namespace {

// A cache-line request for data read soon. GCC 12 drops __builtin_prefetch here as
// dead code, so on x86-64 the instruction is written out.
inline void prefetch(const void* address)
{
#if defined(__x86_64__)
    asm volatile("prefetcht0 %0" : : "m"(*static_cast<const char*>(address)));
#else
    __builtin_prefetch(address);
#endif
}

constexpr std::uint16_t kSyn = 0x02, kAck = 0x10, kRst = 0x04;
constexpr std::int64_t kMs = 1'000'000;

// Where the capture sits on the path, from its two round trips: next to the sender the
// upstream part is the host's own turnaround, well under a millisecond and a small
// share of the whole.
void placeVantage(Vantage& v)
{
    const std::int64_t total = v.upstreamRttNs + v.downstreamRttNs;
    if (v.upstreamRttNs <= std::max<std::int64_t>(kMs, total / 10)) {
        v.point = VantagePoint::Sender;
    } else {
        v.point = VantagePoint::Path;
        v.oneWayShiftNs = v.upstreamRttNs / 2;
    }
}

// Away from the sender, when each ACK reached it. The capture time plus the one-way
// shift is the earliest: the shift is the least upstream delay, and the ACKs behind data
// on a busy uplink (a relay chain's shared channel) wait far longer. The latest is the
// send time of the first data that echoes the ACK's TSval (RFC 7323 3.4: the sender
// echoes the latest in-order TSval it received), and an ACK-clocked sender sends what an
// ACK releases on its arrival: that is when it arrived. Only the first ACK of each of
// the receiver's ticks is bounded so (a later ACK of the same tick may have come after
// the data), and only by data an ACK can have released: not a re-send the timer sent
// (kRtoTimeout), nor anything after a silence (below). The path keeps the ACKs' order.
void placeAcksAtTheirEchoes(std::vector<FlowEvent>& events)
{
    // Data after a silence of the least retransmission timeout (kMinRtoNs) may be the
    // timer's (a re-send, a window probe) or an idle sender's, and what it echoes
    // arrived at any time in the silence.
    std::unordered_map<std::uint32_t, std::int64_t> firstEcho; // TSecr -> earliest data send
    std::int64_t previousData = std::numeric_limits<std::int64_t>::min() / 2;
    for (const FlowEvent& e : events) {
        if (e.kind != FlowEvent::Kind::Data)
            continue;
        const bool afterSilence = e.senderTimeNs - previousData >= kMinRtoNs;
        previousData = e.senderTimeNs;
        if (afterSilence || !e.hasTimestamps || (e.flags & segment_flag::kRtoTimeout))
            continue;
        const auto [it, first] = firstEcho.try_emplace(e.tsEcr, e.senderTimeNs);
        if (!first)
            it->second = std::min(it->second, e.senderTimeNs);
    }
    // The first ACK of each tick with an echo, and where the echo puts it: just before
    // the data, which the sort by send time keeps after it.
    std::vector<std::pair<std::size_t, std::int64_t>> echoed; // (event index, arrival)
    bool tickSeen = false;
    std::uint32_t tick = 0;
    for (std::size_t i = 0; i < events.size(); ++i) {
        const FlowEvent& e = events[i];
        if (e.kind != FlowEvent::Kind::Ack || !e.hasTimestamps || (tickSeen && e.tsVal == tick))
            continue;
        tickSeen = true;
        tick = e.tsVal;
        if (const auto it = firstEcho.find(e.tsVal); it != firstEcho.end())
            echoed.emplace_back(i, it->second - 1);
    }
    // The data's send times are known to the TSval tick: where the typical ACK waited
    // less, the echoes show that tick's jitter, not a wait on the way (a wired uplink
    // next to the capture), and every ACK stays at the shift. Where it waited more, so
    // did the ACKs as a rule, and each is placed at its echo where that is over a tick
    // later.
    if (echoed.empty())
        return;
    std::vector<std::int64_t> waits;
    waits.reserve(echoed.size());
    for (const auto& [i, arrival] : echoed)
        waits.push_back(arrival - events[i].senderTimeNs);
    const auto middle = waits.begin() + static_cast<std::ptrdiff_t>(waits.size() / 2);
    std::nth_element(waits.begin(), middle, waits.end());
    if (*middle <= kTsValTickNs)
        return;
    for (const auto& [i, arrival] : echoed)
        if (arrival - events[i].senderTimeNs > kTsValTickNs)
            events[i].senderTimeNs = arrival;
    std::int64_t previous = std::numeric_limits<std::int64_t>::min();
    for (FlowEvent& e : events)
        if (e.kind == FlowEvent::Kind::Ack)
            e.senderTimeNs = previous = std::max(e.senderTimeNs, previous);
}

// A capture that began after the handshake: the two round trips from the connection's
// own exchanges, the least of each (the samples the queues did not delay). Upstream:
// from an ACK to the first data that echoes its TSval (RFC 7323 4.3: the data it
// released, or data released by a later ACK of the same tick, which only lengthens the
// sample). Downstream: from a data segment to the first ACK that covers it.
Vantage passiveVantage(const dissect::CaptureTables& tables, const TcpAnalysis& analysis, int sender,
                       const std::vector<std::uint64_t>& rows)
{
    Vantage v;
    const dissect::TcpColumns& t = tables.tcp;
    std::unordered_map<std::uint32_t, std::int64_t> ackByTsVal; // TSval -> first ACK carrying it
    std::deque<std::pair<std::int64_t, std::int64_t>> unacked; // (data end, time)
    std::int64_t upstream = std::numeric_limits<std::int64_t>::max(), downstream = upstream;
    for (std::uint64_t row : rows) {
        const bool timestamps = t.flags[row] & dissect::TcpColumns::kHasTimestamps;
        const std::int64_t time = t.timeNs[row];
        if (analysis.directionOf(tables, row) == sender) {
            if (t.payloadLength[row] == 0)
                continue;
            if (timestamps) {
                const auto it = ackByTsVal.find(t.tsEcr[row]);
                if (it != ackByTsVal.end() && time >= it->second)
                    upstream = std::min(upstream, time - it->second);
            }
            unacked.emplace_back(analysis.relativeSeq(t, row) + t.payloadLength[row], time);
            continue;
        }
        if (!(t.tcpFlags(row) & kAck))
            continue;
        if (timestamps)
            ackByTsVal.try_emplace(t.tsVal[row], time);
        const std::int64_t ack = analysis.relativeAck(t, row);
        while (!unacked.empty() && unacked.front().first <= ack) {
            downstream = std::min(downstream, time - unacked.front().second);
            unacked.pop_front();
        }
    }
    if (upstream == std::numeric_limits<std::int64_t>::max() ||
        downstream == std::numeric_limits<std::int64_t>::max())
        return v;
    v.upstreamRttNs = upstream;
    v.downstreamRttNs = downstream;
    placeVantage(v);
    return v;
}

// Handshake timing: SYN -> SYN-ACK spans the round trip from the capture to the server
// and back, SYN-ACK -> ACK the round trip to the client and back (RFC 9293 3.5).
Vantage detectVantage(const dissect::CaptureTables& tables, const TcpAnalysis& analysis,
                      std::size_t connection, int sender, const std::vector<std::uint64_t>& rows)
{
    Vantage v;
    const Connection& c = analysis.connections[connection];
    if (!c.handshakeSeen)
        return passiveVantage(tables, analysis, sender, rows);
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
    const std::int64_t handshakeRttNs = ackNs - synNs;
    // Endpoint 0 is the client when the handshake was seen.
    const bool senderIsClient = sender == 0;
    v.upstreamRttNs = senderIsClient ? toClient : toServer;
    v.downstreamRttNs = senderIsClient ? toServer : toClient;
    // The handshake is one sample of each round trip, and the first packets of a
    // connection wait for what a path does once (an ARP or neighbour resolution, 802.11
    // power save): the connection's own exchanges time the same loops, and the least
    // of each is the one nothing delayed.
    const Vantage exchanges = passiveVantage(tables, analysis, sender, rows);
    if (exchanges.upstreamRttNs > 0)
        v.upstreamRttNs = std::min(v.upstreamRttNs, exchanges.upstreamRttNs);
    if (exchanges.downstreamRttNs > 0)
        v.downstreamRttNs = std::min(v.downstreamRttNs, exchanges.downstreamRttNs);
    placeVantage(v);
    v.handshakeRttNs = handshakeRttNs;
    return v;
}

// A capture on the sender's link sees its segments after the device queue: a burst
// decided at one ACK leaves back to back, one serialization time apart, and ACKs that
// arrive meanwhile were not yet processed when the burst was sent. Segments that
// follow their predecessor at line rate (the smallest gap seen, scaled by length) are
// moved back to their predecessor's send time, within one tick of the sender's TSval
// clock where the send times came from it. Links without serialization delay (veth,
// loopback: gaps of a few microseconds) are left alone.
void undoSerialization(FlowEvents& flow)
{
    constexpr std::int64_t kMinLineGapNs = 5'000;
    std::int64_t minGap = -1, lastTime = -1;
    for (const FlowEvent& e : flow.events) {
        if (e.kind != FlowEvent::Kind::Data)
            continue;
        if (lastTime >= 0 && e.lengthOrWindow == flow.mss) {
            const std::int64_t gap = e.senderTimeNs - lastTime;
            if (gap > 0 && (minGap < 0 || gap < minGap))
                minGap = gap;
        }
        lastTime = e.senderTimeNs;
    }
    if (minGap < kMinLineGapNs)
        return;
    std::int64_t prevObserved = -1, prevSender = 0;
    std::uint32_t prevTsVal = 0;
    for (FlowEvent& e : flow.events) {
        if (e.kind != FlowEvent::Kind::Data)
            continue;
        const std::int64_t observed = e.senderTimeNs;
        const std::int64_t lineGap = minGap * e.lengthOrWindow / std::max<std::int64_t>(1, flow.mss);
        // A later tick of the sender's TSval clock was sent after it: a run the device
        // queue kept back to back for longer than a tick is not one burst.
        const bool sameTick = !flow.vantage.queueingFromTimestamps || e.tsVal == prevTsVal;
        if (prevObserved >= 0 && observed - prevObserved <= lineGap + lineGap / 8 && sameTick)
            e.senderTimeNs = prevSender;
        prevObserved = observed;
        prevSender = e.senderTimeNs;
        prevTsVal = e.tsVal;
    }
}

// The order is total (a row is one event), so any way of sorting gives the same
// events in the same order. The ACKs all move by the same shift, and a data segment's
// send time is the earlier of its capture time and its TSval's, both of which grow
// along the capture: each kind is usually sorted already, and then the two runs are
// merged in one pass instead of sorting the whole flow.
template <class Less>
void sortBySenderTime(std::vector<FlowEvent>& events, const Less& less)
{
    const FlowEvent* lastData = nullptr;
    const FlowEvent* lastAck = nullptr;
    std::size_t acks = 0;
    for (const FlowEvent& e : events) {
        const FlowEvent*& last = e.kind == FlowEvent::Kind::Ack ? lastAck : lastData;
        if (last && !less(*last, e)) {
            std::sort(events.begin(), events.end(), less);
            return;
        }
        last = &e;
        acks += e.kind == FlowEvent::Kind::Ack;
    }
    std::vector<FlowEvent> ackRun;
    ackRun.reserve(acks);
    std::size_t data = 0;
    for (const FlowEvent& e : events) {
        if (e.kind == FlowEvent::Kind::Ack)
            ackRun.push_back(e);
        else
            events[data++] = e;
    }
    // Merged from the back, so that the data run is never overwritten before it is read.
    std::size_t d = data, a = ackRun.size(), to = events.size();
    while (a > 0) {
        if (d > 0 && less(ackRun[a - 1], events[d - 1]))
            events[--to] = events[--d];
        else
            events[--to] = ackRun[--a];
    }
}

// The MPDUs of an A-MPDU reach the receiving MAC one after another as the PPDU goes by
// (each is handed up when its own FCS has passed), while a capture stamps them all with
// one time, the PPDU's end (a sniffer's callback or the host's delivery). ACKs the
// sender's TCP took from the first MPDUs released data before that time: each ACK of an
// aggregate stamped at one time is moved back by the airtime of the MPDUs after it, at
// the frame's rate. An MPDU is a TCP ACK in a QoS data frame: 26 bytes of MAC header, 8
// of LLC/SNAP, 20 of IPv4 and the TCP header with its options, the 4-byte FCS, and the
// A-MPDU delimiter's 4 bytes and padding to a 4-byte boundary (802.11-2020 9.7.1).
void spreadAggregatedAcks(const dissect::CaptureTables& tables, FlowEvents& flow)
{
    const dissect::WlanColumns& w = tables.wlan;
    const dissect::TcpColumns& t = tables.tcp;
    if (w.size() == 0)
        return;
    const auto ampduAirtimeNs = [&](const FlowEvent& e, std::size_t wlanRow) -> std::int64_t {
        const std::uint32_t rateKbps = w.dataRateKbps[wlanRow];
        if (rateKbps == 0)
            return 0;
        const std::uint64_t sackBytes = e.sackCount > 0 ? 4 + 8 * std::uint64_t{e.sackCount} : 0;
        const std::uint64_t tcpHeader = 20 + (e.hasTimestamps ? 12 : 0) + sackBytes;
        const std::uint64_t subframe = wlan::ampduSubframeBytes(26 + 8 + 20 + tcpHeader + 4);
        return static_cast<std::int64_t>(subframe * 8 * 1'000'000 / rateKbps);
    };
    std::size_t from = 0;
    std::vector<std::pair<std::size_t, std::int64_t>> group; // (event, its MPDU's airtime)
    std::uint32_t groupRef = 0;
    std::int64_t groupNs = 0;
    // No ACK moves before the one the capture had before it (the PPDU before).
    std::int64_t lastAckNs = std::numeric_limits<std::int64_t>::min();
    const auto flush = [&] {
        std::int64_t after = 0;
        for (auto it = group.rbegin(); it != group.rend(); ++it) {
            FlowEvent& e = flow.events[it->first];
            e.senderTimeNs = std::max(lastAckNs, e.senderTimeNs - after);
            after += it->second;
        }
        if (!group.empty())
            lastAckNs = groupNs;
        group.clear();
        groupRef = 0;
    };
    for (std::size_t i = 0; i < flow.events.size(); ++i) {
        const FlowEvent& e = flow.events[i];
        if (e.kind != FlowEvent::Kind::Ack)
            continue;
        const std::size_t row = wlan::rowOfFrame(w, t.frame[e.row], from);
        const std::uint32_t ref = row < w.size() ? w.ampduReference[row] : 0;
        if (row < w.size())
            from = row;
        if (ref == 0 || ref != groupRef || e.senderTimeNs != groupNs)
            flush();
        if (ref == 0) {
            lastAckNs = e.senderTimeNs;
            continue;
        }
        if (group.empty()) {
            groupRef = ref;
            groupNs = e.senderTimeNs;
        }
        group.emplace_back(i, ampduAirtimeNs(e, row));
    }
    flush();
}

} // namespace

// ACKs the capture missed, from the TSecr the sender echoed (RFC 7323 4.3): the
// sender's TS.Recent comes only from the receiver's segments, which pass the capture
// before they reach the sender, so data echoing a TSval newer than every one the
// capture saw from the receiver before it was sent after an ACK that went past the
// capture (a station served by another AP, a monitor that missed the frame, an
// asymmetric route). That ACK reached the sender just before the first data that
// echoes it, and acknowledged what the sender had sent a round trip before (the least
// of the path's, on the sender's clock: the capture's own arrivals may be late, e.g.
// at an AP still retrying to a station that left). Its holes are unknown: data missing
// here may have reached the receiver another way, so the ACK covers the highest end.
// ACKs within one TSval tick carry one TSval and stand as one.
template <typename Less>
void addMissedAcks(FlowEvents& flow, const Less& bySenderTime)
{
    if (flow.vantage.upstreamRttNs < 0 || flow.vantage.downstreamRttNs < 0)
        return;
    const std::int64_t roundTripNs = flow.vantage.upstreamRttNs + flow.vantage.downstreamRttNs;
    // The data in the sender's time order, and the highest end sent up to each.
    std::vector<std::pair<std::int64_t, std::int64_t>> sent; // (sender time, highest end)
    for (const FlowEvent& e : flow.events)
        if (e.kind == FlowEvent::Kind::Data)
            sent.emplace_back(e.senderTimeNs, std::max(sent.empty() ? e.end() : sent.back().second, e.end()));
    std::vector<FlowEvent> missed;
    std::optional<std::uint32_t> lastMissed;
    std::int64_t lastAck = std::numeric_limits<std::int64_t>::min();
    std::uint64_t window = flow.initialRwndBytes;
    for (const FlowEvent& e : flow.events) {
        if (e.kind == FlowEvent::Kind::Ack) {
            lastAck = std::max(lastAck, e.ack());
            window = e.windowBytes();
            continue;
        }
        // One ACK per TSval; an older one than already stood for is a late copy.
        if (!e.echoesUnseenAck || (lastMissed && static_cast<std::int32_t>(e.tsEcr - *lastMissed) <= 0))
            continue;
        lastMissed = e.tsEcr;
        const std::int64_t coveredUntilNs = e.senderTimeNs - roundTripNs;
        const auto after = std::upper_bound(sent.begin(), sent.end(), coveredUntilNs,
                                            [](std::int64_t time, const auto& s) { return time < s.first; });
        if (after == sent.begin())
            continue;
        const std::int64_t ack = std::min(std::prev(after)->second, e.seq());
        if (ack <= lastAck)
            continue;
        FlowEvent a;
        a.row = e.row;
        a.kind = FlowEvent::Kind::Ack;
        a.flags = kRebuiltAck;
        a.seqOrAck = ack;
        a.lengthOrWindow = static_cast<std::uint32_t>(window);
        a.tsVal = e.tsEcr;
        a.hasTimestamps = true;
        a.senderTimeNs = e.senderTimeNs - 1;
        missed.push_back(a);
        lastAck = ack;
    }
    if (missed.empty())
        return;
    flow.missedAcks = missed.size();
    std::vector<FlowEvent> merged;
    merged.reserve(flow.events.size() + missed.size());
    std::merge(flow.events.begin(), flow.events.end(), missed.begin(), missed.end(), std::back_inserter(merged),
               bySenderTime);
    flow.events = std::move(merged);
}

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

    // One pass over the connection's rows: they are spread over the whole capture, so
    // every column read is a cache miss, and each column is read once. Send times need
    // the TSval clock offset of all the sender's data (below), so data events keep
    // their capture time until the pass is over.
    const bool senderFromB = analysis.sendsFromB(tables, connection, sender);
    std::uint32_t largest = 0;
    bool anyTimestamps = true;
    std::uint64_t dataRows = 0;
    std::uint32_t firstDataTs = 0;
    std::int64_t minOffset = 0;
    bool initialWindowSet = false;
    // The receiver's newest TSval so far, and the data echoing a newer one (addMissedAcks()).
    std::uint32_t latestReceiverTs = 0;
    bool receiverTsSeen = false;
    std::uint64_t unseenAckEchoes = 0;
    // The data that went above the highest sequence so far, with its TSval, in sequence
    // order: the segment that first went above a delayed original is found by its end.
    struct Advance
    {
        std::int64_t end;
        std::uint32_t tsVal;
    };
    std::vector<Advance> advances;
    // A re-send is at least a round trip after the segments above it; that shows in
    // the TSvals only where the round trip spans a tick (Linux and ns-3: 1 ms).
    const bool roundTripSpansTick = out.vantage.upstreamRttNs > 0 && out.vantage.downstreamRttNs >= 0 &&
                                    out.vantage.upstreamRttNs + out.vantage.downstreamRttNs > 2 * kTsValTickNs;
    out.events.reserve(rows.size());
    // The rows to come are known: their cache lines are requested a few rows ahead,
    // so that the misses overlap instead of stalling one after another.
    constexpr std::size_t kPrefetchAhead = 16;
    const auto prefetchRow = [&](std::uint64_t row) {
        prefetch(&t.flags[row]);
        prefetch(&t.payloadLength[row]);
        prefetch(&t.timeNs[row]);
        prefetch(&t.tsVal[row]);
        prefetch(&t.tsEcr[row]);
        prefetch(&t.seq[row]);
        prefetch(&t.ack[row]);
        prefetch(&t.window[row]);
        prefetch(&seg.flags[row]);
        prefetch(&seg.connection[row]);
    };
    for (std::size_t i = 0; i < std::min(kPrefetchAhead, rows.size()); ++i)
        prefetchRow(rows[i]);
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const std::uint64_t row = rows[i];
        if (i + kPrefetchAhead < rows.size())
            prefetchRow(rows[i + kPrefetchAhead]);
        const std::uint16_t columnFlags = t.flags[row];
        const std::uint16_t f = columnFlags & 0x01ff;
        const bool fromSender = ((columnFlags & dissect::TcpColumns::kDirectionBit) != 0) == senderFromB;
        const bool hasTimestamps = (columnFlags & dissect::TcpColumns::kHasTimestamps) != 0;
        const std::uint32_t payload = t.payloadLength[row];
        const std::int64_t time = t.timeNs[row];
        const std::uint32_t tsVal = t.tsVal[row];
        if (fromSender && payload > 0) {
            // Queueing between sender and capture point: the capture time minus the
            // sender's TSval clock (Linux and ns-3 tick in milliseconds) is the fixed
            // clock offset plus the one-way delay plus queueing; its minimum is the
            // empty-queue case.
            if (dataRows == 0)
                firstDataTs = tsVal;
            const std::int64_t off =
                time - static_cast<std::int64_t>(static_cast<std::uint32_t>(tsVal - firstDataTs)) * kTsValTickNs;
            if (dataRows == 0 || off < minOffset)
                minOffset = off;
            largest = std::max(largest, payload);
            anyTimestamps &= hasTimestamps;
            ++dataRows;
        }
        FlowEvent e;
        e.row = row;
        e.flags = seg.flags[row];
        e.hasTimestamps = hasTimestamps;
        e.tsVal = tsVal;
        e.tsEcr = t.tsEcr[row];
        if (!fromSender && hasTimestamps &&
            (!receiverTsSeen || static_cast<std::int32_t>(tsVal - latestReceiverTs) > 0)) {
            latestReceiverTs = tsVal;
            receiverTsSeen = true;
        }
        if (fromSender) {
            if (payload == 0 || (f & (kSyn | kRst)))
                continue;
            e.echoesUnseenAck = hasTimestamps && receiverTsSeen && (f & kAck) &&
                                static_cast<std::int32_t>(e.tsEcr - latestReceiverTs) > 0;
            unseenAckEchoes += e.echoesUnseenAck ? 1 : 0;
            e.kind = FlowEvent::Kind::Data;
            e.seqOrAck = analysis.relativeSeq(t, row);
            e.lengthOrWindow = payload;
            e.senderTimeNs = time; // the capture's; moved to the sender's clock below
            if (advances.empty() || e.end() > advances.back().end) {
                advances.push_back({e.end(), tsVal});
            } else if (hasTimestamps && roundTripSpansTick && e.seq() < advances.back().end) {
                const auto above = std::upper_bound(advances.begin(), advances.end(), e.seq(),
                                                    [](std::int64_t s, const Advance& a) { return s < a.end; });
                if (static_cast<std::int32_t>(tsVal - above->tsVal) <= 0)
                    e.flags |= kDelayedOriginal;
            }
            ++out.dataSegments;
        } else {
            if (!(f & kAck) || (f & (kSyn | kRst))) {
                if ((f & kSyn) && (f & kAck) && !initialWindowSet) {
                    out.initialRwndBytes = analysis.windowBytes(t, row);
                }
                continue;
            }
            e.kind = FlowEvent::Kind::Ack;
            e.seqOrAck = analysis.relativeAck(t, row);
            e.lengthOrWindow = analysis.windowBytes(t, row);
            if (!initialWindowSet) {
                out.initialRwndBytes = e.lengthOrWindow;
                initialWindowSet = true;
            }
            if (e.flags & segment_flag::kAckLostSegment)
                ++out.ackLostSegments;
            if (columnFlags & dissect::TcpColumns::kHasSideOptions) {
                const std::uint32_t side = t.sideOptionsIndex(row);
                if (side != dissect::TcpColumns::kNoSideOptions) {
                    const dissect::TcpSideOptions& o = tables.tcpSideOptions[side];
                    e.sackCount = std::min<std::uint8_t>(o.sackBlockCount, 4);
                    e.firstSackEdge = static_cast<std::uint32_t>(out.sackEdges.size());
                    // A block lies within one window of the ACK, under 2^30 bytes (RFC
                    // 7323 2.3): its edges are the ACK plus a signed 32-bit offset.
                    for (int edge = 0; edge < 2 * e.sackCount; ++edge)
                        out.sackEdges.push_back(e.ack() + static_cast<std::int32_t>(o.sackBlocks[edge] - t.ack[row]));
                }
            }
            e.senderTimeNs = time + out.vantage.oneWayShiftNs;
        }
        out.events.push_back(e);
    }
    out.mss = largest ? largest : (c.mss[sender] ? c.mss[sender] : 536);
    spreadAggregatedAcks(tables, out);

    // Half a tick is taken off the queueing for the truncation of the TSval. A
    // handshake that looks like the sender's own does not rule queueing out: a capture
    // at an AP that holds a sleeping station's frames sees them late, behind ACKs the
    // sender had already answered. There a whole tick is taken off, so that the
    // truncation alone never moves a segment seen next to its sender.
    const bool useTimestamps = anyTimestamps && dataRows > 0;
    const std::int64_t tickSlackNs = kTsValTickNs;
    if (useTimestamps)
        out.vantage.queueingFromTimestamps = true;
    bool firstTsSet = false;
    std::uint32_t firstTs = 0;
    for (FlowEvent& e : out.events) {
        if (e.kind != FlowEvent::Kind::Data)
            continue;
        const std::int64_t time = e.senderTimeNs;
        std::int64_t queueing = 0;
        if (useTimestamps) {
            if (!firstTsSet) {
                firstTs = e.tsVal;
                firstTsSet = true;
            }
            const std::int64_t off =
                time - static_cast<std::int64_t>(static_cast<std::uint32_t>(e.tsVal - firstTs)) * kTsValTickNs;
            queueing = std::max<std::int64_t>(0, off - minOffset - tickSlackNs);
        }
        e.senderTimeNs = time - out.vantage.oneWayShiftNs - queueing;
    }
    if (useTimestamps && out.vantage.point == VantagePoint::Path)
        placeAcksAtTheirEchoes(out.events);
    if (useTimestamps && firstTsSet) {
        out.tsClockKnown = true;
        out.tsTickBase = firstTs;
        out.tsTickBaseNs = minOffset - out.vantage.oneWayShiftNs;
    }
    if (out.vantage.point == VantagePoint::Sender)
        undoSerialization(out);
    // Shifting data back and ACKs forward by the one-way delay reorders only what lies
    // within that delay; ties keep capture order.
    const auto bySenderTime = [](const FlowEvent& a, const FlowEvent& b) {
        return a.senderTimeNs < b.senderTimeNs || (a.senderTimeNs == b.senderTimeNs && a.row < b.row);
    };
    if (!std::is_sorted(out.events.begin(), out.events.end(), bySenderTime))
        sortBySenderTime(out.events, bySenderTime);
    if (useTimestamps && unseenAckEchoes > 0)
        addMissedAcks(out, bySenderTime);
    constexpr std::int64_t kNone = std::numeric_limits<std::int64_t>::min();
    std::int64_t highestEnd = kNone, highestAck = kNone;
    for (const FlowEvent& e : out.events) {
        if (e.kind == FlowEvent::Kind::Ack) {
            highestAck = std::max(highestAck, e.ack());
            continue;
        }
        highestEnd = std::max(highestEnd, e.end());
        if (highestAck == kNone)
            highestAck = e.seq();
        out.maxFlightBytes =
            std::max(out.maxFlightBytes, static_cast<std::uint64_t>(std::max<std::int64_t>(0, highestEnd - highestAck)));
    }
    return out;
}

} // namespace windscope::analysis::cwnd
