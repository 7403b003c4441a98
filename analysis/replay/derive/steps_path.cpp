// SPDX-License-Identifier: GPL-3.0-or-later
// The path's steps of deriveScenario(): the connection's rows, the sender's segment size,
// the round trips, the bottleneck's rate, and when each packet meets the radio.
#include "derivation_steps.h"

#include "analysis/cwnd/scoreboard.h"
#include "analysis/wlan/wlan_frames.h"
#include "sample_statistics.h"
#include "standing_queue.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <set>

namespace windscope::analysis::replay::derive {

namespace {

// The sender's round trips as the capture shows them: where it was taken near the
// sender, the data to its ACK; downstream of the losses (downstream_view.h) the
// receiver's ACK to the data it released, plus the receiver's own turnaround from the
// handshake: the data-to-ACK time there is only that turnaround.
std::vector<SenderRtt> senderRttSamples(const DerivationInput& in, const DownstreamView& downstream)
{
    std::vector<SenderRtt> out;
    if (downstream.downstream && !downstream.rtt.empty()) {
        const double turnaroundMs = static_cast<double>(std::max<std::int64_t>(0, downstream.downstreamRttNs)) / 1e6;
        for (const UpstreamRttSample& r : downstream.rtt)
            out.push_back({r.dataNs, r.rttMs + turnaroundMs, r.flightBytes});
        return out;
    }
    const dissect::CaptureTables& tables = *in.tables;
    const TcpAnalysis& tcp = *in.tcp;
    const auto& t = tables.tcp;
    // A capture taken on the sender's host sees a segment when it leaves for the wire,
    // after any queue on the host (its qdisc, its own link when that is the bottleneck),
    // while the TSval was stamped when TCP sent it (RFC 7323 3: the clock when sent).
    // The capture time less the TSval clock is a fixed offset plus that wait; its least
    // value is the empty queue. Less one tick of the clock's truncation (Linux and
    // ns-3 tick in ms).
    constexpr std::int64_t kTickNs = 1'000'000;
    std::vector<std::int64_t> offsets;
    bool timestamps = true;
    std::uint32_t firstTs = 0;
    for (const RttSample& r : tcp.rtt) {
        const std::uint64_t row = r.dataRow();
        if (tcp.segments.connection[row] != in.connection || tcp.directionOf(tables, row) != in.sender)
            continue;
        timestamps = timestamps && (t.flags[row] & dissect::TcpColumns::kHasTimestamps);
        if (offsets.empty())
            firstTs = t.tsVal[row];
        offsets.push_back(t.timeNs[row] - static_cast<std::int64_t>(static_cast<std::uint32_t>(t.tsVal[row] - firstTs)) * kTickNs);
        out.push_back({t.timeNs[row], static_cast<double>(r.rttNs(t)) / 1e6, tcp.segments.bytesInFlight[row]});
    }
    if (timestamps && !offsets.empty()) {
        const std::int64_t least = *std::min_element(offsets.begin(), offsets.end());
        for (std::size_t i = 0; i < out.size(); ++i)
            out[i].waitBeforeCaptureMs = static_cast<double>(std::max<std::int64_t>(0, offsets[i] - least - kTickNs)) / 1e6;
    }
    return out;
}

// The samples the path's delay variation is read from: the sender's own, or downstream
// the receiver's whole loops (its ACK to the ACK drawn by the data it released,
// DownstreamView::loopRtt), which time the segment of each flight the sender's samples
// time. The first segment a receiver's ACK released (the RTT samples downstream)
// crosses the relay ahead of its mate and reads the variation at a third of the
// sender's (lab cubic-scan200: 0.09 against 0.27 ms).
std::vector<SenderRtt> delayVariationSamples(const DownstreamView& downstream, const std::vector<SenderRtt>& senderRtt)
{
    if (!downstream.downstream || downstream.loopRtt.empty())
        return senderRtt;
    std::vector<SenderRtt> out;
    out.reserve(downstream.loopRtt.size());
    for (const UpstreamRttSample& r : downstream.loopRtt)
        out.push_back({r.dataNs, r.rttMs, r.flightBytes});
    return out;
}

// Bytes delivered to the receiver by an ACK: the cumulative ACK and what its SACK
// blocks (RFC 2018) hold above it, kept on the cwnd inference's scoreboard.
class DeliveredBytes
{
public:
    // sndNxt: the highest sequence the sender had sent (relative), which bounds a block.
    std::int64_t at(const dissect::CaptureTables& tables, std::size_t row, std::int64_t ack, std::int64_t sndNxt)
    {
        if (!m_started) {
            m_board.reset(ack);
            m_started = true;
        }
        m_board.advance(ack);
        const auto& t = tables.tcp;
        if (t.flags[row] & dissect::TcpColumns::kHasSideOptions) {
            const std::uint32_t side = t.sideOptionsIndex(row);
            if (side != dissect::TcpColumns::kNoSideOptions) {
                const dissect::TcpSideOptions& o = tables.tcpSideOptions[side];
                for (int b = 0; b < std::min<int>(o.sackBlockCount, 4); ++b) {
                    // Edges within a window of the ACK (RFC 7323 2.3): signed offsets.
                    const std::int64_t from = ack + static_cast<std::int32_t>(o.sackBlocks[2 * b] - t.ack[row]);
                    const std::int64_t to = ack + static_cast<std::int32_t>(o.sackBlocks[2 * b + 1] - t.ack[row]);
                    bool dsack = false;
                    m_board.sack(from, to, std::max(sndNxt, to), dsack);
                }
            }
        }
        return std::max(ack, m_board.sndUna()) + static_cast<std::int64_t>(m_board.sackedBytes());
    }

private:
    cwnd::Scoreboard m_board;
    bool m_started = false;
};

// The bottleneck's burst and the path's delay variation, which set when each packet of
// a flight meets the radio: a flight of ACK-clocked pairs crosses a token bucket (Linux
// tbf) pair by pair, where a serialising link delays every second packet by one packet
// time, and that time, added to every round trip, moves the flights against a periodic
// outage. The lab's relay adds its own release lateness to every packet.
void readPathTiming(const std::vector<std::pair<std::int64_t, std::int64_t>>& ackProgress, double rateMbps,
                   double rttMin, const std::vector<SenderRtt>& variationRtt, DerivedScenario& out)
{
    Scenario& s = out.scenario;
    if (rateMbps <= 0)
        return;
    const double mss = s.sender.mss;
    const double headerShare = (mss + 52) / mss;
    // Burst: at the start of each busy period (an ACK delivering data after kIdle with
    // none), how far the deliveries of the next kSpan run ahead of the rate: the most
    // of (bytes delivered - rate x time) over that span. The bucket is full after a
    // pause, so a token bucket lets its burst through at once; a serialising link one
    // packet, which the receiver's delayed ACK reports with the next: two segments. The
    // median over the busy periods; more than 2.5 segments is a bucket of that size.
    constexpr std::int64_t kIdleNs = 5'000'000, kSpanNs = 10'000'000;
    constexpr std::size_t kMinBusyStarts = 20;
    const double bytesPerNs = rateMbps * 1e6 / 8 / 1e9; // payload
    std::vector<double> ahead;
    std::int64_t lastDelivery = -1;
    for (std::size_t i = 1; i < ackProgress.size(); ++i) {
        if (ackProgress[i].second <= ackProgress[i - 1].second)
            continue;
        const bool busyStart = lastDelivery >= 0 && ackProgress[i].first - lastDelivery >= kIdleNs;
        lastDelivery = ackProgress[i].first;
        if (!busyStart)
            continue;
        double most = 0;
        for (std::size_t k = i; k < ackProgress.size() && ackProgress[k].first - ackProgress[i].first <= kSpanNs; ++k)
            most = std::max(most, static_cast<double>(ackProgress[k].second - ackProgress[i - 1].second) -
                                      static_cast<double>(ackProgress[k].first - ackProgress[i].first) * bytesPerNs);
        ahead.push_back(most);
    }
    const double aheadBytes = percentile(ahead, 0.5);
    if (ahead.size() >= kMinBusyStarts && aheadBytes > 2.5 * mss) {
        s.path.burstBytes = static_cast<std::uint64_t>(std::llround(aheadBytes * headerShare));
        out.notes.push_back(format("path.burst_bytes %.0f: a token bucket; at the start of a busy period the ACKs run "
                                   "%.0f B ahead of the rate (median of %.0f)",
                                   static_cast<double>(s.path.burstBytes), aheadBytes, static_cast<double>(ahead.size())));
    } else {
        out.notes.push_back(format("path.burst_bytes 0: a link serialising at the rate (the ACKs run %.0f B ahead at "
                                   "the start of a busy period, median of %.0f)",
                                   aheadBytes, static_cast<double>(ahead.size())));
    }
    // Delay variation: the RTT of segments sent while the flight was under half the
    // path's BDP (no queue) rises above the path's floor by its own variation. A uniform
    // extra delay of up to J each way makes that rise triangular on [0, 2J): its p-th
    // percentile is J sqrt(2p) above the floor. Read from the samples that run the loop
    // the sender's own do (delayVariationSamples), as the spread between the 10th and
    // 40th percentiles, which needs no floor: the relay's release lateness depends on
    // its load (busy in a slow start it releases at once; at a few packets per round trip
    // each release waits for a wake-up), so the lowest samples of one phase of a run lie
    // below the floor of the rest, and a rise over the run's minimum adds that step to
    // the variation (reno-scan100: its minimum from the slow start, the minima of its
    // 2 s blocks from 6 s on 0.10-0.23 ms above it; 0.512 ms read that way, 0.241 so). The 40th,
    // not the median: about a quarter of these samples also waited a packet time or more
    // at the bottleneck behind a mate the bucket could not pass.
    constexpr std::size_t kMinSamples = 100;
    const double bdpBytes = rateMbps * 1e6 / 8 * rttMin / 1000;
    std::vector<double> unqueuedRtt;
    for (const SenderRtt& r : variationRtt)
        if (r.flightBytes > 0 && static_cast<double>(r.flightBytes) <= bdpBytes / 2)
            unqueuedRtt.push_back(r.ms);
    if (unqueuedRtt.size() >= kMinSamples) {
        const double p10 = percentile(unqueuedRtt, 0.10);
        const double p40 = percentile(unqueuedRtt, 0.40);
        s.path.jitterMs = std::max(0.0, p40 - p10) / (std::sqrt(0.8) - std::sqrt(0.2));
        out.notes.push_back(format("path.jitter_ms %.3f: the RTT's 40th percentile lies %.3f ms above its 10th over "
                                   "%.0f samples sent under half the BDP",
                                   s.path.jitterMs, p40 - p10, static_cast<double>(unqueuedRtt.size())));
    }
}

// The deliveries packet-train dispersion is read from (path_dispersion.h). At the
// sender, its ACKs: what each acknowledged (SACKed data counted) and when the last
// byte it acknowledged was sent. Elsewhere (downstream of the bottleneck), the
// arrivals of the sender's data in order, each with the receiver's ACK that released
// it (the first whose right edge reached its end, RFC 9293 3.8.6: the sender may send
// up to the edge); a resend or a segment past a hole delivers nothing new there and
// cuts the train.
std::vector<DispersionPoint> dispersionPoints(const DerivationInput& in, bool atSender)
{
    const dissect::CaptureTables& tables = *in.tables;
    const TcpAnalysis& tcp = *in.tcp;
    const auto& t = tables.tcp;
    std::vector<DispersionPoint> out;
    std::vector<std::pair<std::int64_t, std::int64_t>> sentByEnd; // first transmissions: seq end, time
    std::set<std::int64_t> resentEnds;                            // at the sender
    std::int64_t lastAck = -1;
    std::vector<std::int64_t> rightEdges; // of the receiver's ACKs, never moving left
    DeliveredBytes delivered;
    std::int64_t sndNxt = 0, highest = -1;
    std::uint32_t lastAmpdu = 0;
    for (std::size_t row = 0; row < t.size(); ++row) {
        if (tcp.segments.connection[row] != in.connection)
            continue;
        const int dir = tcp.directionOf(tables, row);
        if (dir == in.sender && t.payloadLength[row] > 0) {
            const std::int64_t seq = tcp.relativeSeq(t, row);
            const std::int64_t end = seq + static_cast<std::int64_t>(t.payloadLength[row]);
            const bool resent = (tcp.segments.flags[row] & segment_flag::kRetransmission) != 0 || end <= sndNxt;
            sndNxt = std::max(sndNxt, end);
            if (atSender) {
                if (!resent)
                    sentByEnd.emplace_back(end, t.timeNs[row]);
                else
                    resentEnds.insert(end);
                continue;
            }
            if (highest < 0)
                highest = seq;
            // The MPDUs of one A-MPDU arrive together, spaced by the air, not the path:
            // the aggregate is one delivery, at its first MPDU's time.
            const std::size_t wlanRow = wlan::rowOfFrame(tables.wlan, t.frame[row]);
            const std::uint32_t ampdu = wlanRow < tables.wlan.size() ? tables.wlan.ampduReference[wlanRow] : 0;
            const bool sameAggregate = ampdu != 0 && ampdu == lastAmpdu && !out.empty() && seq == highest;
            lastAmpdu = ampdu;
            if (sameAggregate) {
                out.back().bytes = end;
                highest = end;
                continue;
            }
            DispersionPoint p{t.timeNs[row], seq == highest ? end : highest, -1, -1,
                              (t.flags[row] & dissect::TcpColumns::kHasTimestamps) != 0
                                  ? static_cast<std::int64_t>(t.tsEcr[row])
                                  : -1};
            const auto edge = std::lower_bound(rightEdges.begin(), rightEdges.end(), end);
            if (seq == highest && edge != rightEdges.end())
                p.releasedBy = edge - rightEdges.begin();
            out.push_back(p);
            highest = std::max(highest, end);
        } else if (dir != in.sender && (t.tcpFlags(row) & 0x010)) {
            const std::int64_t ack = tcp.relativeAck(t, row);
            const std::int64_t bytes = delivered.at(tables, row, ack, sndNxt);
            if (!atSender) {
                const auto edge = ack + static_cast<std::int64_t>(tcp.windowBytes(t, row));
                rightEdges.push_back(rightEdges.empty() ? edge : std::max(rightEdges.back(), edge));
                continue;
            }
            DispersionPoint p{t.timeNs[row], bytes, -1, -1};
            // The sends are in sequence order (resends left out), so the last segment the
            // ACK covers is found by its end.
            const auto it = std::lower_bound(sentByEnd.begin(), sentByEnd.end(), ack,
                                             [](const auto& e, std::int64_t v) { return e.first < v; });
            // An ACK that passed a resent segment delivered data that waited for the
            // resend, and one that SACKs data beyond a hole data the sender sent since
            // (the segment at its cumulative ACK left long before): their timing is the
            // recovery's, not the path's, as a resend's is.
            const auto resentPassed = resentEnds.upper_bound(lastAck);
            const bool afterResend = lastAck >= 0 && resentPassed != resentEnds.end() && *resentPassed <= ack;
            if (it != sentByEnd.end() && it->first == ack && !afterResend && bytes <= ack)
                p.sentNs = it->second;
            lastAck = std::max(lastAck, ack);
            out.push_back(p);
        }
    }
    return out;
}

} // namespace

// A sender that never had more in flight than a fixed window (its receive window or
// send buffer), delivered about that window per round trip and lost nothing.
bool windowLimited(const DerivationInput& in, const DerivationContext& ctx)
{
    const DirectionStats& data = in.tcp->connections[in.connection].direction[in.sender];
    const double windowRateBps =
        ctx.rttMin > 0 ? static_cast<double>(ctx.maxFlight) * 8 / (ctx.rttMin / 1000) : 0;
    return ctx.maxFlight > 0 && data.retransmissions == 0 && data.goodputBps >= 0.8 * windowRateBps;
}

void readConnectionRows(const DerivationInput& in, DerivationContext& ctx, DerivedScenario& out)
{
    Scenario& s = out.scenario;
    const dissect::CaptureTables& tables = *in.tables;
    const TcpAnalysis& tcp = *in.tcp;
    const auto& t = tables.tcp;
    s.name = "derived";
    s.description = "derived from " + tables.summary.path + ", connection " + std::to_string(in.connection);

    // Rows of the connection, by direction.
    std::uint32_t& maxPayload = ctx.maxPayload;
    std::uint32_t& maxFlight = ctx.maxFlight;
    std::int64_t firstData = -1;
    std::int64_t& lastData = ctx.lastDataNs;
    bool& carriedBy80211 = ctx.carriedBy80211;
    auto& ackProgress = ctx.ackProgress;
    DeliveredBytes delivered;
    std::int64_t sndNxt = 0; // relative
    auto& windowUpdates = ctx.windowUpdates;
    std::int64_t lastAck = -1;
    std::uint64_t lastWindow = 0;
    for (std::size_t row = 0; row < t.size(); ++row) {
        if (tcp.segments.connection[row] != in.connection)
            continue;
        const int dir = tcp.directionOf(tables, row);
        if (dir == in.sender && t.payloadLength[row] > 0) {
            const std::int64_t end =
                tcp.relativeSeq(t, row) + static_cast<std::int64_t>(t.payloadLength[row]);
            if (end > sndNxt)
                ctx.lastNewDataNs = t.timeNs[row];
            sndNxt = std::max(sndNxt, end);
            maxPayload = std::max(maxPayload, t.payloadLength[row]);
            maxFlight = std::max(maxFlight, tcp.segments.bytesInFlight[row]);
            if (firstData < 0)
                firstData = t.timeNs[row];
            lastData = t.timeNs[row];
            ctx.departures.push_back({t.timeNs[row], t.payloadLength[row], t.tsVal[row], t.tsEcr[row],
                                      (t.flags[row] & dissect::TcpColumns::kHasTimestamps) != 0, end});
            carriedBy80211 = carriedBy80211 ||
                             std::binary_search(tables.wlan.frame.begin(), tables.wlan.frame.end(), t.frame[row]);
        } else if (dir != in.sender && (t.tcpFlags(row) & 0x010)) {
            const std::int64_t ackNow = tcp.relativeAck(t, row);
            ackProgress.emplace_back(t.timeNs[row], delivered.at(tables, row, ackNow, sndNxt));
            const std::uint64_t windowNow = tcp.windowBytes(t, row);
            ctx.advertisedWindows.emplace_back(t.timeNs[row], windowNow);
            ctx.rightEdges.emplace_back(t.timeNs[row],
                                        ackNow + static_cast<std::int64_t>(windowNow));
            if (ackNow == lastAck && windowNow > lastWindow && t.payloadLength[row] == 0)
                windowUpdates.emplace_back(t.timeNs[row], windowNow - lastWindow);
            lastAck = ackNow;
            lastWindow = windowNow;
        }
    }
    out.firstDataNs = std::max<std::int64_t>(firstData, 0);
}

void deriveSegmentSize(const DerivationInput& in, DerivationContext& ctx, DerivedScenario& out)
{
    Scenario& s = out.scenario;
    const Connection& c = in.tcp->connections[in.connection];
    const DirectionStats& data = c.direction[in.sender];
    const std::uint32_t maxPayload = ctx.maxPayload;
    // MSS: the largest payload the sender sent (the handshake's option can be larger
    // than what the path allows).
    s.sender.mss = maxPayload > 0 ? maxPayload : (c.mss[1 - in.sender] ? c.mss[1 - in.sender] : 1448);
    out.notes.push_back("sender.mss " + std::to_string(s.sender.mss) + ": largest data segment");
    s.sender.sack = c.sackPermitted;
    s.bytes = std::max<std::uint64_t>(data.uniqueBytes, s.sender.mss);
    out.notes.push_back("bytes " + std::to_string(s.bytes) + ": unique bytes the sender delivered");
    s.durationS = std::max(1.0, static_cast<double>(ctx.lastDataNs - out.firstDataNs) / 1e9);
}

void deriveRtt(const DerivationInput& in, DerivationContext& ctx, DerivedScenario& out)
{
    const Connection& c = in.tcp->connections[in.connection];
    // RTT: minimum and spread of the samples of the sender's data (downstream of the
    // losses, of the receiver's ACKs to the data they released).
    ctx.downstream = readDownstreamView(in, out.firstDataNs);
    const DownstreamView& downstream = ctx.downstream;
    if (downstream.downstream) {
        // Past the bottleneck: the run is read where the capture was, or its data would
        // end as early as the queue and the AP's holds were deep at the cut.
        out.scenario.path.tracedAtRadio = true;
        out.notes.push_back("path.traced_at_radio: the run is read as the last radio sends the data and hears "
                            "the ACKs, where the capture was");
        const HoleEpisodes holes = holeEpisodes(downstream);
        out.downstream = true;
        out.holeEpisodes = holes.episodes;
        out.holeEpisodesOffQueue = holes.offQueue;
        out.holeMeanRttMs = holes.meanRttMs;
    }
    ctx.senderRtt = senderRttSamples(in, downstream);
    const std::vector<SenderRtt>& senderRtt = ctx.senderRtt;
    // Downstream the capture's own flight is the last hop's; the sender's is what its
    // ACK clock shows: the data a receiver's ACK released, up to its end, less that ACK.
    if (downstream.downstream)
        for (const UpstreamRttSample& r : downstream.rtt)
            ctx.maxFlight = std::max(ctx.maxFlight, static_cast<std::uint32_t>(std::clamp<std::int64_t>(
                                                        r.flightBytes, 0, std::numeric_limits<std::uint32_t>::max())));
    std::vector<double> rtts;
    for (const SenderRtt& r : senderRtt)
        rtts.push_back(r.ms);
    if (downstream.downstream)
        out.notes.push_back("vantage: " + downstream.basis +
                            format("; %.0f round trips from the receiver's ACKs to the data they released (TSecr), "
                                   "%.0f segments missing first time (holes), %.0f of them filled sooner than a resend "
                                   "could come (the radio's own retries or reordering, not TCP losses)",
                                   static_cast<double>(downstream.rtt.size()),
                                   static_cast<double>(downstream.missing.size()),
                                   static_cast<double>(std::count_if(
                                       downstream.missing.begin(), downstream.missing.end(),
                                       [](const MissingSegment& m) { return m.recoveredBelowTcp; }))));
    ctx.rttMin = rtts.empty() ? (c.handshakeRttNs > 0 ? static_cast<double>(c.handshakeRttNs) / 1e6 : 50)
                            : percentile(rtts, 0.0);
    ctx.rttP95 = rtts.empty() ? ctx.rttMin : percentile(rtts, 0.95);
    // The largest sustained RTT: the queue at its fullest, when it overflowed. The
    // round trips TCP timed: a queue on the sender's host before the capture counts.
    std::vector<double> timed;
    for (const SenderRtt& r : senderRtt)
        timed.push_back(r.ms + r.waitBeforeCaptureMs);
    ctx.rttSustainedMax = timed.size() >= kSustainedSamples ? largestSustained(timed) : ctx.rttP95;
}

void deriveDelaySplit(const DerivationInput& in, DerivationContext& ctx, DerivedScenario& out)
{
    Scenario& s = out.scenario;
    const double rttMin = ctx.rttMin;
    // Split the base RTT where the capture point allows (an AP-side capture sees the
    // wired round trip upstream and the wireless one downstream).
    double wiredOneWay = rttMin / 2, wirelessOneWay = 0;
    if (in.inference && in.inference->vantage.point == cwnd::VantagePoint::Path &&
        in.inference->vantage.upstreamRttNs > 0 && in.inference->vantage.downstreamRttNs >= 0) {
        const double up = static_cast<double>(in.inference->vantage.upstreamRttNs) / 1e6;
        const double down = static_cast<double>(in.inference->vantage.downstreamRttNs) / 1e6;
        const double scale = up + down > 0 ? rttMin / (up + down) : 1;
        wiredOneWay = up * scale / 2;
        wirelessOneWay = down * scale / 2;
        out.notes.push_back(format("path.wired_delay_ms %.3f, wireless_delay_ms %.3f: base RTT %.3f ms split at "
                                   "the capture point",
                                   wiredOneWay, wirelessOneWay, rttMin));
    } else {
        out.notes.push_back(format("path.wired_delay_ms %.3f: half the minimum RTT (%.3f ms); the capture point "
                                   "does not split wired and wireless",
                                   wiredOneWay, rttMin));
    }
    s.path.wiredDelayMs = wiredOneWay;
    s.path.wirelessDelayMs = wirelessOneWay;
}

namespace {

bool aggregatedHere(const dissect::CaptureTables& tables)
{
    return std::any_of(tables.wlan.ampduReference.begin(), tables.wlan.ampduReference.end(),
                       [](std::uint32_t ref) { return ref != 0; });
}

} // namespace

double deliveredRate(const std::vector<std::pair<std::int64_t, std::int64_t>>& progress, std::int64_t windowNs,
                     double p, const std::vector<std::pair<std::int64_t, std::int64_t>>& excluded,
                     std::size_t minWindows)
{
    std::vector<double> rates;
    std::size_t j = 0, x = 0;
    for (std::size_t i = 0; i < progress.size(); ++i) {
        while (j < progress.size() && progress[j].first - progress[i].first < windowNs)
            ++j;
        if (j >= progress.size())
            break;
        while (x < excluded.size() && excluded[x].second <= progress[i].first)
            ++x;
        const bool overlapsExcluded = x < excluded.size() && excluded[x].first < progress[j].first;
        const double bytes = static_cast<double>(progress[j].second - progress[i].second);
        const double secs = static_cast<double>(progress[j].first - progress[i].first) / 1e9;
        if (!overlapsExcluded && secs > 0)
            rates.push_back(bytes * 8 / secs / 1e6);
        i += std::max<std::size_t>(1, (j - i) / 4); // overlapping windows, bounded work
    }
    return rates.size() < minWindows ? 0.0 : percentile(rates, p);
}

// At the sender: segments that waited on the sender's host before the capture saw
// them (their TSvals against the capture's clock, Linux and ns-3 ticking in ms) left a
// link that was busy: each one waited through its predecessor's departure, so the two
// went out back to back, one serialisation apart. A faster link queues a burst now
// and then (a slow start's, a release of ACKs); a queue that stands through most of
// the transfer stands before the slowest link. So when most of the sender's segments
// left that way, their spacing is the path's bottleneck (payload Mb/s, the median over
// full-sized pairs); 0 otherwise, or when fewer than kMinHostQueuedPairs show it.
struct HostQueueRate
{
    double mbps = 0;
    std::size_t pairs = 0;
};

HostQueueRate hostQueueDepartureRate(const std::vector<DerivationContext::Departure>& departures,
                                     std::uint32_t mss)
{
    // Two trains' worth of pairs, as the dispersion reading asks (kTrainSegments each).
    constexpr std::size_t kMinHostQueuedPairs = 2 * kTrainSegments;
    constexpr std::int64_t kTickNs = 1'000'000;
    HostQueueRate out;
    if (departures.size() < 2 || !std::all_of(departures.begin(), departures.end(),
                                              [](const auto& d) { return d.timestamps; }))
        return out;
    const std::uint32_t firstTs = departures.front().tsVal;
    const auto offsetOf = [&](const DerivationContext::Departure& d) {
        return d.ns - static_cast<std::int64_t>(static_cast<std::uint32_t>(d.tsVal - firstTs)) * kTickNs;
    };
    std::int64_t least = offsetOf(departures.front());
    for (const auto& d : departures)
        least = std::min(least, offsetOf(d));
    std::vector<double> rates;
    for (std::size_t i = 1; i < departures.size(); ++i) {
        const auto& prev = departures[i - 1];
        const std::int64_t spacingNs = departures[i].ns - prev.ns;
        // The wait is known to a tick (the TSval's truncation): it must cover the
        // spacing by one more.
        const std::int64_t waitNs = offsetOf(departures[i]) - least;
        if (prev.payload != mss || spacingNs <= 0 || waitNs < spacingNs + kTickNs)
            continue;
        rates.push_back(static_cast<double>(prev.payload) * 8 / (static_cast<double>(spacingNs) / 1e9) / 1e6);
    }
    out.pairs = rates.size();
    if (rates.size() >= kMinHostQueuedPairs && 2 * rates.size() > departures.size())
        out.mbps = percentile(rates, 0.5);
    return out;
}

WindowedRate windowedDeliveryRate(const std::vector<std::pair<std::int64_t, std::int64_t>>& progress,
                                  const std::vector<std::pair<std::int64_t, std::int64_t>>& excluded,
                                  std::size_t minWindows)
{
    // 20 ms windows miss the pace of a flight that drains in less (a small cwnd); 5 ms
    // windows see it, but their top tenth also holds bursts faster than the path
    // (aggregated 802.11 deliveries, a window update releasing a queue), so their 90th
    // percentile.
    return {deliveredRate(progress, 20'000'000, 0.95, excluded, minWindows),
            deliveredRate(progress, 5'000'000, 0.90, excluded, minWindows)};
}

void deriveBottleneck(const DerivationInput& in, DerivationContext& ctx, DerivedScenario& out)
{
    Scenario& s = out.scenario;
    const dissect::CaptureTables& tables = *in.tables;
    const TcpAnalysis& tcp = *in.tcp;
    const DirectionStats& data = tcp.connections[in.connection].direction[in.sender];
    const auto& t = tables.tcp;
    const auto& ackProgress = ctx.ackProgress;
    const double rttMin = ctx.rttMin, rttSustainedMax = ctx.rttSustainedMax;
    // Bottleneck: the delivery rate the ACKs show (SACKed data counted when SACKed), a
    // high percentile over windows: a loss-limited flow rarely fills the path for long,
    // but within a flight its ACKs come back at the bottleneck's pace.
    const WindowedRate windowed = windowedDeliveryRate(ackProgress);
    double& rateMbps = ctx.rateMbps;
    rateMbps = windowed.mbps();
    if (rateMbps <= 0)
        rateMbps = data.goodputBps > 0 ? data.goodputBps / 1e6 : 10;
    // Where the RTT shows the queue standing long enough, its delivery rate instead: a
    // quarter of the largest sustained rise above the minimum is well clear of the
    // path's own delay variation and of a queue only passing through.
    // Downstream the capture's own data-to-ACK time is only the last hop's: the whole
    // round trips (the receiver's ACK to the data it released) tell of the queue, and
    // the data they time reached the capture with the ACKs that delivered it.
    std::vector<std::pair<std::int64_t, double>> rttByAck;
    if (ctx.downstream.downstream)
        for (const SenderRtt& r : ctx.senderRtt)
            rttByAck.emplace_back(r.dataNs, r.ms);
    else
        for (const RttSample& r : tcp.rtt)
            if (tcp.segments.connection[r.dataRow()] == in.connection && tcp.directionOf(tables, r.dataRow()) == in.sender)
                rttByAck.emplace_back(t.timeNs[r.ackRow()], static_cast<double>(r.rttNs(t)) / 1e6);
    std::sort(rttByAck.begin(), rttByAck.end());
    const double standingRiseMs = std::max(1.0, (rttSustainedMax - rttMin) / 4);
    // Downstream the windows' median reads a radio that leaves in bursts; the rate over
    // the stretches is kept for the held releases' test (deriveHeldReleases()), which
    // tells a radio's absences from the queue's link.
    const StandingQueueRate standing = ctx.downstream.downstream
                                           ? StandingQueueRate{}
                                           : standingQueueRate(ackProgress, rttByAck, rttMin, standingRiseMs);
    if (ctx.downstream.downstream)
        ctx.standingStretchesMbps = standingQueueMeanRate(ackProgress, rttByAck, rttMin, standingRiseMs).mbps;
    // A constant-rate link (a tbf, a serialising link) reads about the same both ways,
    // and the percentile stays. Above the standing rate by more than 5%, the percentile
    // read the fast tail of a variable service; below it, the flow filled the path for
    // only a part of the run. A busy bottleneck delivers at least the goodput (within
    // the same 5 %: a path busy throughout reads its goodput both ways): a lower
    // reading is windows of loss recovery, not a queue.
    bool rateFromStandingQueue = false;
    const bool standingReadable = standing.mbps > 0 && kSameRateBand * standing.mbps * 1e6 >= data.goodputBps;
    if (standingReadable && (rateMbps > kSameRateBand * standing.mbps || rateMbps < standing.mbps)) {
        out.notes.push_back(format("path.bottleneck: delivered rate %.3f Mb/s payload while the queue stood (",
                                   standing.mbps) +
                            format("median of %.0f windows of 20 ms, every RTT over %.1f ms above the minimum), ",
                                   static_cast<double>(standing.windows), standingRiseMs) +
                            format("not the percentile's %.3f",
                                   standingRiseMs, rateMbps));
        rateMbps = standing.mbps;
        rateFromStandingQueue = true;
    } else if (standingReadable) {
        out.notes.push_back(format("path.bottleneck: the delivered rate while the queue stood, %.3f Mb/s payload (",
                                   standing.mbps) +
                            format("median of %.0f windows of 20 ms), agrees with the percentile",
                                   static_cast<double>(standing.windows)));
    }
    // The rate is payload; the bottleneck serialises headers too.
    const double headerShare = static_cast<double>(s.sender.mss + 52) / s.sender.mss;
    // The spacing of packet trains (path_dispersion.h), read at every capture: at the
    // sender from its ACKs, elsewhere from the data's arrivals.
    const bool atSender = in.inference ? in.inference->vantage.point == cwnd::VantagePoint::Sender
                                       : !ctx.downstream.downstream;
    ctx.dispersion = dispersionCapacity(dispersionPoints(in, atSender), s.sender.mss, atSender, data.goodputBps / 1e6);
    const DispersionCapacity& dispersion = ctx.dispersion;
    const bool dispersionRead = dispersion.read();
    const std::string dispersionText =
        format("packet-train dispersion %.3f Mb/s payload (", dispersion.mbps) +
        (atSender ? "the ACKs' spacing at the sender" : "the data's arrival spacing") +
        format(": mode of %.0f trains sent back to back, %.0f of their segments within 10 %% of it",
               static_cast<double>(dispersion.trains), dispersion.agreeing) +
        ")";
    const HostQueueRate hostQueue = atSender ? hostQueueDepartureRate(ctx.departures, s.sender.mss) : HostQueueRate{};
    if (hostQueue.mbps > 0) {
        // The sender's own link was the bottleneck and the capture saw its queue's
        // departures: the ACKs' readings are the path after it, bunched on their way back.
        out.notes.push_back(format("path.bottleneck: the sender's host queued its segments before the capture (%.0f "
                                   "pairs sent back to back after a wait, their TSvals against the capture's clock): "
                                   "its link serialises at %.3f Mb/s payload",
                                   static_cast<double>(hostQueue.pairs), hostQueue.mbps) +
                            format(", not the delivered %.3f", rateMbps));
        rateMbps = hostQueue.mbps;
        ctx.rateFromSendersLink = true;
        s.path.tracedPastQueue = true;
    } else if (windowLimited(in, ctx) && dispersionRead) {
        // The sender never filled the path: what it delivered is what its window let
        // through, and the spacing of its back-to-back trains is the path's (which a
        // flight that lasted longer than 5 ms may also have shown the percentile).
        out.notes.push_back(format("path.bottleneck: the sender was window-limited (delivered %.3f Mb/s); ", rateMbps) +
                            dispersionText);
        rateMbps = dispersion.mbps;
        ctx.rateFromDispersion = true;
    } else if (dispersionRead && standingReadable) {
        const double off = dispersion.mbps / standing.mbps - 1;
        out.notes.push_back(dispersionText + format(std::abs(off) <= kDispersionBand - 1
                                                        ? "; agrees with the rate while the queue stood (%+.0f %%)"
                                                        : "; the rate while the queue stood is %+.0f %% off it, and stands",
                                                    -off / (1 + off) * 100));
    } else if (dispersionRead && rateMbps > kDispersionBand * dispersion.mbps && !aggregatedHere(tables)) {
        // No queue stood to read the rate from, and the delivered percentile runs faster
        // than the trains' spacing allows: no path delivers faster than its bottleneck
        // serialises, so the percentile read ACKs that arrived bunched (delayed behind a
        // radio's absence) and the trains' spacing is the rate. Where the capture's own
        // hop aggregates, the air re-spaces the trains into its A-MPDUs' rhythm, and the
        // spacing no longer shows the bottleneck upstream.
        out.notes.push_back(dispersionText + format("; the delivered percentile's %.3f Mb/s is faster than the path "
                                                    "serialises: bunched ACKs",
                                                    rateMbps));
        rateMbps = dispersion.mbps;
        ctx.rateFromDispersion = true;
    } else {
        out.notes.push_back(dispersionText + (dispersionRead ? "" : "; too few trains agree to read it"));
    }
    s.path.bottleneckMbps = rateMbps * headerShare;
    if (hostQueue.mbps > 0)
        out.notes.push_back(format("path.bottleneck_mbps %.3f: the sender's link (%.3f Mb/s payload)",
                                   s.path.bottleneckMbps, rateMbps));
    else if (ctx.rateFromDispersion)
        out.notes.push_back(format("path.bottleneck_mbps %.3f: packet-train dispersion (%.3f Mb/s payload)",
                                   s.path.bottleneckMbps, rateMbps));
    else if (rateFromStandingQueue)
        out.notes.push_back(format("path.bottleneck_mbps %.3f: delivered rate while the queue stood (%.3f Mb/s payload)",
                                   s.path.bottleneckMbps, rateMbps));
    else
        out.notes.push_back(format("path.bottleneck_mbps %.3f: delivered rate (%.3f Mb/s payload), the higher of the "
                                   "95th percentile over 20 ms windows (%.3f) and the 90th over 5 ms windows",
                                   s.path.bottleneckMbps, rateMbps, windowed.rate20) +
                            format(" (%.3f)", windowed.rate5));
}

void derivePathRateBound(const DerivationInput& in, DerivationContext& ctx, DerivedScenario& out)
{
    const Scenario& s = out.scenario;
    const DirectionStats& data = in.tcp->connections[in.connection].direction[in.sender];
    const double rttMin = ctx.rttMin;
    const std::uint32_t maxFlight = ctx.maxFlight;
    // Still sending when the capture ended (not where the run is longer than the
    // capture's data, its floor of 1 s): the capture was cut, not the transfer done. A
    // sender that sent nothing new for longer than RFC 6298's least timer (1 s) had
    // stalled (a path gone, its timer re-sending) instead.
    constexpr std::int64_t kStallNs = 1'000'000'000;
    const double sendingS = static_cast<double>(ctx.lastDataNs - out.firstDataNs) / 1e9;
    out.endedMidTransfer = data.finCount == 0 && data.rstCount == 0 &&
                           sendingS >= out.scenario.durationS &&
                           ctx.lastDataNs - ctx.lastNewDataNs <= kStallNs;
    if (out.endedMidTransfer)
        out.scenario.measuredOverS = out.scenario.durationS;
    // A sender held by its window that lost nothing never met the path's limit: the
    // delivered rate is what the window let through, a lower bound, unless the trains'
    // dispersion read the path's rate (deriveBottleneck()). A fix that lifts the window
    // is otherwise held by that bound, not by the path.
    const double windowRateBps = rttMin > 0 ? static_cast<double>(maxFlight) * 8 / (rttMin / 1000) : 0;
    if (windowLimited(in, ctx) && ctx.rateFromDispersion) {
        out.notes.push_back(format("path.bottleneck_mbps: the sender never had more than %.0f B in flight (%.3f Mb/s "
                                   "over the %.1f ms base RTT); ",
                                   static_cast<double>(maxFlight), windowRateBps / 1e6, rttMin) +
                            "the rate is the path's own, read from the spacing of its packet trains");
        if (out.endedMidTransfer) {
            // The runs send for the capture's duration, so a fix that lifts the window
            // sends more in that time, not the same bytes sooner.
            out.scenario.bytes = 0;
            out.notes.push_back(format("bytes 0: the window-limited sender had not finished (no FIN) when the "
                                       "capture ended; the runs send for its %.3f s",
                                       out.scenario.durationS));
        }
    } else if (windowLimited(in, ctx)) {
        out.pathRateUnseen = format("the sender never had more than %.0f B in flight (%.3f Mb/s over the %.1f ms "
                                    "base RTT), ",
                                    static_cast<double>(maxFlight), windowRateBps / 1e6, rttMin) +
                             format("delivered %.3f Mb/s and lost nothing: the path carried all it was offered, so "
                                    "its rate is at least %.3f Mb/s but not known beyond",
                                    data.goodputBps / 1e6, s.path.bottleneckMbps);
        out.notes.push_back("path.bottleneck_mbps: a lower bound; " + out.pathRateUnseen);
    }
}

void derivePathTiming(const DerivationInput&, DerivationContext& ctx, DerivedScenario& out)
{
    const Scenario& s = out.scenario;
    // Where the path is a relay (no 802.11 model) and the ACKs pace at its rate (not at
    // a slow reader's), its timing.
    if (!s.mac.enabled && s.receiver.appReadBytes == 0)
        readPathTiming(ctx.ackProgress, ctx.rateMbps, ctx.rttMin, delayVariationSamples(ctx.downstream, ctx.senderRtt),
                       out);
}

} // namespace windscope::analysis::replay::derive
