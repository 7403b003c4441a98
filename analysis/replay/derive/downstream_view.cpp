// SPDX-License-Identifier: GPL-3.0-or-later
#include "downstream_view.h"

#include "analysis/cwnd/flow_events.h"
#include "analysis/replay/session/metrics.h"
#include "analysis/wlan/wlan_frames.h"
#include "sample_statistics.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <optional>
#include <tuple>

namespace windscope::analysis::replay {

namespace {

constexpr std::int64_t kMsNs = 1'000'000;

// A TSval clock against the capture's: its rate over the samples (the first to the
// last, each with timeNs and tsVal in ticks since the first), and its offset where the
// path delayed them least. Invalid (tick 0) when the clock did not advance.
struct TsClock
{
    double tickNs = 0, offsetNs = 0;
    bool valid() const { return tickNs > 0; }
    double at(std::int64_t ticks) const { return offsetNs + tickNs * static_cast<double>(ticks); }
};

template <class Samples>
TsClock readTsClock(const Samples& samples)
{
    TsClock c;
    if (samples.size() < 2 || samples.back().tsVal <= samples.front().tsVal)
        return c;
    c.tickNs = static_cast<double>(samples.back().timeNs - samples.front().timeNs) /
               static_cast<double>(samples.back().tsVal - samples.front().tsVal);
    if (c.tickNs <= 0)
        return {};
    c.offsetNs = std::numeric_limits<double>::max();
    for (const auto& x : samples)
        c.offsetNs = std::min(c.offsetNs, static_cast<double>(x.timeNs) - c.tickNs * static_cast<double>(x.tsVal));
    return c;
}

// A clock against the capture's for the waits on top of the path's least delay: the line
// under every (ticks, capture time) that lies highest at their mean tick (Moon, Skelly,
// Towsley 1999, the skew of a clock from one-way delays: the least delay is the path's
// own, every other waited on top of it), the edge of their lower convex hull over that
// mean. The first and last samples alone read the rate off by whatever either waited (a
// hold or a handoff at either end of a capture tilts it by several per cent), which skews
// a wait read a second away by tens of milliseconds.
template <class Samples>
TsClock readTsClockUnderDelays(const Samples& samples)
{
    TsClock c;
    if (samples.size() < 2 || samples.back().tsVal <= samples.front().tsVal)
        return c;
    std::vector<std::pair<double, double>> points; // (ticks, ns), the least ns per tick
    points.reserve(samples.size());
    for (const auto& x : samples)
        points.emplace_back(static_cast<double>(x.tsVal), static_cast<double>(x.timeNs));
    std::sort(points.begin(), points.end());
    double meanTicks = 0;
    for (const auto& p : points)
        meanTicks += p.first / static_cast<double>(points.size());
    std::vector<std::pair<double, double>> hull;
    const auto cross = [](const auto& o, const auto& a, const auto& b) {
        return (a.first - o.first) * (b.second - o.second) - (a.second - o.second) * (b.first - o.first);
    };
    for (const auto& p : points) {
        if (!hull.empty() && hull.back().first == p.first)
            continue; // sorted: the first of a tick is its least
        while (hull.size() >= 2 && cross(hull[hull.size() - 2], hull.back(), p) <= 0)
            hull.pop_back();
        hull.push_back(p);
    }
    if (hull.size() < 2)
        return {};
    std::size_t k = 0;
    while (k + 2 < hull.size() && hull[k + 1].first <= meanTicks)
        ++k;
    c.tickNs = (hull[k + 1].second - hull[k].second) / (hull[k + 1].first - hull[k].first);
    if (c.tickNs <= 0)
        return {};
    c.offsetNs = hull[k].second - c.tickNs * hull[k].first;
    return c;
}

cwnd::Vantage vantageOf(const DerivationInput& in)
{
    if (in.inference)
        return in.inference->vantage;
    return cwnd::collectFlowEvents(*in.tables, *in.tcp, in.connection, in.sender).vantage;
}

// When each data frame reached its receiver, by the frame number of its first
// attempt: the attempt its receiver acknowledged (an ACK to the transmitter SIFS
// after it, 802.11-2020 10.3.2.11), where that is a retry of it (a station away on a
// scan answers only once it is back). -1: the transmitter gave it up, every attempt
// unanswered (at least one retry). Frames answered at once, and those sent in A-MPDUs
// (answered by Block Acks), are left out: they reached it when first sent, or their
// answers are not per frame.
std::map<std::uint64_t, std::int64_t> retriedFramesReached(const dissect::CaptureTables& tables)
{
    const dissect::WlanColumns& w = tables.wlan;
    std::map<std::uint64_t, std::int64_t> reached;
    struct Chain
    {
        std::uint64_t firstFrame = 0;
        std::uint32_t attempts = 0;
        bool answered = false, aggregated = false;
    };
    std::map<std::tuple<std::uint32_t, std::uint32_t, std::uint16_t>, Chain> open;
    const auto close = [&](const Chain& c) {
        if (!c.answered && !c.aggregated && c.attempts > 1)
            reached[c.firstFrame] = -1;
    };
    for (std::size_t row = 0; row < w.size(); ++row) {
        const std::uint16_t fc = w.frameControl[row];
        if (wlan::badFcs(w, row) || wlan::frameType(fc) != wlan::kData || wlan::isNullData(fc) ||
            w.sequenceControl[row] == 0xffff || wlan::isGroup(tables, w.addr1(row)))
            continue;
        const auto key = std::tuple{w.addr1(row), w.addr2(row),
                                    static_cast<std::uint16_t>(w.sequenceControl[row] >> 4)};
        auto it = open.find(key);
        if (it != open.end() && !wlan::retry(fc)) {
            close(it->second);
            open.erase(it);
            it = open.end();
        }
        if (it == open.end())
            it = open.emplace(key, Chain{w.frame[row], 0, false, false}).first;
        Chain& c = it->second;
        ++c.attempts;
        c.aggregated = c.aggregated || w.ampduReference[row] != 0;
        const bool answered = row + 1 < w.size() && wlan::isAckTo(w, row + 1, w.addr2(row));
        if (answered && !c.answered) {
            c.answered = true;
            if (c.attempts > 1 && !c.aggregated)
                reached[c.firstFrame] = w.timeNs[row];
        }
    }
    for (const auto& [key, c] : open)
        close(c);
    return reached;
}

// An ACK the receiver sent, by the TSval it carried first (TSval unwrapped from the
// first one seen): the data echoing that TSval was released by it or by a later ACK of
// the same clock tick.
struct AckByTsVal
{
    std::int64_t tsVal = 0;
    std::int64_t timeNs = 0;
    std::int64_t ack = 0;
};

// The pace at which data arrives while the path is busy: the 90th percentile of the
// bytes per 20 ms window over the first arrivals, as ns per byte. A segment missing
// between two arrivals would have come at that pace after the one before it (a scan
// takes the tail of a flight, and the next flight comes a round trip later).
double busyPaceNsPerByte(const std::vector<std::pair<std::int64_t, std::int64_t>>& arrivals)
{
    constexpr std::int64_t kWindowNs = 20 * kMsNs;
    std::vector<double> rates; // bytes per ns
    std::size_t j = 0;
    std::int64_t bytes = 0;
    for (std::size_t i = 0; i < arrivals.size(); ++i) {
        while (j < arrivals.size() && arrivals[j].first - arrivals[i].first < kWindowNs) {
            bytes += arrivals[j].second;
            ++j;
        }
        if (j >= arrivals.size())
            break;
        rates.push_back(static_cast<double>(bytes) / static_cast<double>(kWindowNs));
        bytes -= arrivals[i].second;
    }
    const double rate = percentile(rates, 0.9);
    return rate > 0 ? 1 / rate : 0;
}

} // namespace

DownstreamView readDownstreamView(const DerivationInput& in, std::int64_t firstDataNs)
{
    DownstreamView view;
    const cwnd::Vantage vantage = vantageOf(in);
    view.upstreamRttNs = vantage.upstreamRttNs;
    view.downstreamRttNs = vantage.downstreamRttNs;
    // Downstream of the losses: on the path, and the handshake's round trip to the
    // receiver is its own turnaround (under a millisecond, or a tenth of the whole).
    const std::int64_t total = vantage.upstreamRttNs + vantage.downstreamRttNs;
    if (vantage.point != cwnd::VantagePoint::Path || vantage.upstreamRttNs <= 0 ||
        vantage.downstreamRttNs < 0 ||
        vantage.downstreamRttNs > std::max<std::int64_t>(kMsNs, total / 10)) {
        view.basis = std::string("vantage point ") + cwnd::vantagePointName(vantage.point);
        return view;
    }
    view.downstream = true;
    char buf[200];
    std::snprintf(
        buf, sizeof buf,
        "captured next to the receiver (%.3f ms to the sender and back, %.3f ms to the receiver and "
        "back)",
        static_cast<double>(vantage.upstreamRttNs) / 1e6,
        static_cast<double>(vantage.downstreamRttNs) / 1e6);
    view.basis = buf;

    const dissect::CaptureTables& tables = *in.tables;
    const TcpAnalysis& tcp = *in.tcp;
    const auto& t = tables.tcp;
    std::vector<AckByTsVal> acks;
    const std::map<std::uint64_t, std::int64_t> reached = retriedFramesReached(tables);
    // TSvals unwrapped relative to the first one, near a value already unwrapped (RFC
    // 7323 5.2: signed differences within half the space).
    bool tsStarted = false;
    std::uint32_t tsFirstRaw = 0;
    const auto unwrapNear = [&](std::uint32_t raw, std::int64_t near) {
        if (!tsStarted) {
            tsStarted = true;
            tsFirstRaw = raw;
            return std::int64_t{0};
        }
        return near +
               static_cast<std::int32_t>(raw - (tsFirstRaw + static_cast<std::uint32_t>(near)));
    };
    std::int64_t highestEnd = -1; // relative sequence past the highest data seen
    std::int64_t lastEchoUsed = std::numeric_limits<std::int64_t>::min();
    std::int64_t previousArrivalNs = -1;
    std::int64_t previousRttNs = -1; // the last in-order arrival's own round trip
    std::uint32_t mss = 0;
    struct Gap
    {
        std::int64_t afterNs, revealedNs, bytes, sequence, queueRttNs;
    };
    std::int64_t firstSeq = -1;
    std::vector<Gap> gaps;
    std::map<std::int64_t, std::int64_t> firstFill; // relative sequence -> first arrival behind the highest
    std::map<std::int64_t, std::int64_t> givenUp;   // relative sequence -> first attempt of a frame this radio gave up
    std::vector<std::pair<std::int64_t, std::int64_t>> firstArrivals; // (time, bytes)
    // The last arrival, when it was in order and released by a known ACK: the ACK it
    // draws (the receiver's next packet, acknowledging its end) closes a loop.
    struct OpenLoop
    {
        bool open = false;
        std::int64_t dataNs = 0, end = 0, releasingAckNs = 0, releasingAck = 0;
    };
    OpenLoop openLoop;
    for (std::size_t row = 0; row < t.size(); ++row) {
        if (tcp.segments.connection[row] != in.connection)
            continue;
        const bool hasTs = t.flags[row] & dissect::TcpColumns::kHasTimestamps;
        const int dir = tcp.directionOf(tables, row);
        if (dir != in.sender) {
            if (openLoop.open && (t.tcpFlags(row) & 0x010) &&
                tcp.relativeAck(t, row) == openLoop.end)
                view.loopRtt.push_back(
                    {openLoop.dataNs,
                     static_cast<double>(t.timeNs[row] - openLoop.releasingAckNs) / 1e6,
                     openLoop.end - openLoop.releasingAck});
            openLoop.open = false;
            if (hasTs && (t.tcpFlags(row) & 0x010)) {
                const std::int64_t ts =
                    unwrapNear(t.tsVal[row], acks.empty() ? 0 : acks.back().tsVal);
                if (acks.empty() || ts > acks.back().tsVal)
                    acks.push_back({ts, t.timeNs[row], tcp.relativeAck(t, row)});
            }
            continue;
        }
        const std::uint32_t len = t.payloadLength[row];
        if (len == 0)
            continue;
        // A segment reaches the receiver with the 802.11 attempt it acknowledged; one
        // its transmitter gave up never did (the resend that did comes later). Its round
        // trip is to where the capture saw it go: the queue in front of this radio.
        const std::int64_t sentNs = t.timeNs[row];
        std::int64_t now = sentNs;
        bool arrived = true;
        if (const auto r = reached.find(t.frame[row]); r != reached.end()) {
            arrived = r->second >= 0;
            now = arrived ? r->second : sentNs;
        }
        mss = std::max(mss, len);
        const std::int64_t seq = tcp.relativeSeq(t, row);
        if (!arrived)
            givenUp.try_emplace(seq, sentNs);
        const std::int64_t end = seq + static_cast<std::int64_t>(len);
        if (highestEnd < 0)
            highestEnd = firstSeq = seq;
        openLoop.open = false;
        // The receiver's ACK whose TSval this segment echoes, where the capture saw it
        // before the segment.
        const AckByTsVal* echoed = nullptr;
        std::int64_t echo = 0;
        if (hasTs && !acks.empty()) {
            echo = unwrapNear(t.tsEcr[row], acks.back().tsVal);
            const auto it =
                std::lower_bound(acks.begin(), acks.end(), echo,
                                 [](const AckByTsVal& a, std::int64_t v) { return a.tsVal < v; });
            if (it != acks.end() && it->tsVal == echo && it->timeNs < sentNs)
                echoed = &*it;
        }
        // New data: the first segment echoing an ACK's TSval was released by it.
        if (end > highestEnd && seq >= highestEnd && echoed) {
            if (echo > lastEchoUsed) {
                view.rtt.push_back({sentNs, static_cast<double>(sentNs - echoed->timeNs) / 1e6, end - echoed->ack});
                lastEchoUsed = echo;
            }
            if (seq == highestEnd && arrived)
                openLoop = OpenLoop{true, now, end, echoed->timeNs, echoed->ack};
        }
        if (!arrived)
            continue;
        if (seq < highestEnd)
            firstFill.try_emplace(seq, now);
        // This segment's own round trip, from the receiver's ACK it echoes.
        const std::int64_t ownRttNs = echoed ? sentNs - echoed->timeNs : -1;
        // The queue a hole met is the one the segment before it waited behind: that one
        // entered just ahead of the drop (missingSegments below: where it tells).
        if (seq > highestEnd)
            gaps.push_back({previousArrivalNs < 0 ? now : previousArrivalNs, now, seq - highestEnd,
                            highestEnd, previousRttNs});
        if (seq >= highestEnd)
            previousRttNs = ownRttNs;
        if (end > highestEnd) {
            if (seq >= highestEnd)
                firstArrivals.emplace_back(now, len);
            highestEnd = end;
        } else {
            ++view.filledHoles;
        }
        view.arrivals.push_back({static_cast<double>(now - firstDataNs) / 1e9, false});
        previousArrivalNs = now;
    }
    // The missing segments after the arrival before each hole, at the path's busy pace
    // (a scan cuts a flight where the radio met it; what it took would have followed
    // the last arrival at the rate the bottleneck passes a flight), and spread no
    // further than the arrival that revealed the hole. The pace of the arrivals just
    // before the hole (an ACK clock in congestion avoidance, pairs a few milliseconds
    // apart) spread the holes of one scan beyond its window.
    const double pace = busyPaceNsPerByte(firstArrivals);
    // The least upstream round trip: no resend of the sender's reaches the capture
    // sooner after the hole showed (deriveRtt() reads the same samples).
    std::int64_t leastUpstreamNs = view.upstreamRttNs > 0 ? view.upstreamRttNs : std::numeric_limits<std::int64_t>::max();
    for (const UpstreamRttSample& r : view.rtt)
        leastUpstreamNs = std::min(leastUpstreamNs, static_cast<std::int64_t>(std::llround(r.rttMs * 1e6)));
    for (const Gap& g : gaps) {
        const std::int64_t segments =
            std::max<std::int64_t>(1, (g.bytes + mss - 1) / std::max<std::uint32_t>(1, mss));
        const double span = static_cast<double>(g.revealedNs - g.afterNs);
        const double paced = pace * static_cast<double>(mss);
        const double spread = span / static_cast<double>(segments + 1);
        const double step = paced > 0 ? std::min(spread, paced) : spread;
        for (std::int64_t i = 0; i < segments; ++i) {
            const auto expected =
                g.afterNs + static_cast<std::int64_t>(step * static_cast<double>(i + 1));
            const std::int64_t segment =
                (g.sequence - firstSeq) / std::max<std::uint32_t>(1, mss) + i;
            const auto fill = firstFill.find(g.sequence + i * static_cast<std::int64_t>(mss));
            const bool belowTcp = fill != firstFill.end() && fill->second - g.revealedNs < leastUpstreamNs;
            // Where the arrivals paused around the hole for longer than the segment before
            // it waited in the queue (a drop at a flight's tail, shown by the next flight a
            // round trip on), the queue had drained before the hole showed, and that
            // segment's wait is the queue the drop met; elsewhere the samples around it tell.
            const bool drained = g.queueRttNs > 0 && leastUpstreamNs < std::numeric_limits<std::int64_t>::max() &&
                                 g.revealedNs - g.afterNs > g.queueRttNs - leastUpstreamNs;
            const auto gaveUp = givenUp.find(g.sequence + i * static_cast<std::int64_t>(mss));
            view.missing.push_back({expected, g.revealedNs, segment, g.afterNs, belowTcp, drained ? g.queueRttNs : -1,
                                    gaveUp != givenUp.end() ? gaveUp->second : -1});
            view.arrivals.push_back({static_cast<double>(expected - firstDataNs) / 1e9, true});
        }
    }
    std::stable_sort(
        view.arrivals.begin(), view.arrivals.end(),
        [](const TransmissionTime& a, const TransmissionTime& b) { return a.timeS < b.timeS; });
    return view;
}

HoleEpisodes holeEpisodes(const DownstreamView& view)
{
    HoleEpisodes out;
    if (view.rtt.empty() && view.upstreamRttNs <= 0)
        return out;
    std::vector<std::pair<std::int64_t, std::int64_t>> rtt; // by the released data's time
    double sum = 0;
    for (const UpstreamRttSample& r : view.rtt) {
        rtt.emplace_back(r.dataNs, std::llround(r.rttMs * 1e6));
        sum += r.rttMs;
    }
    out.meanRttMs = rtt.empty() ? static_cast<double>(view.upstreamRttNs) / 1e6 : sum / static_cast<double>(rtt.size());
    // A hole shows with its first arrival past it; the episode rule is the sender's.
    LossEpisodeCounter episodes(std::move(rtt), static_cast<std::int64_t>(std::max(1.0, out.meanRttMs) * 1e6));
    std::vector<std::pair<std::int64_t, std::int64_t>> holes; // (revealed, its round trip)
    for (const MissingSegment& m : view.missing)
        if (!m.recoveredBelowTcp)
            holes.emplace_back(m.revealedNs, m.queueRttNs);
    std::sort(holes.begin(), holes.end());
    for (const auto& [when, rttNs] : holes)
        episodes.loss(when, rttNs);
    out.episodes = episodes.episodes();
    out.offQueue = episodes.offQueue();
    return out;
}

std::string modelByWindowAmongNearTies(const cwnd::CwndInference& inference, std::string& note)
{
    if (inference.modelOverridden || inference.fits.size() < 2 || inference.rateEvidence.rateBased)
        return {};
    const cwnd::ModelFit* chosen = nullptr;
    for (const cwnd::ModelFit& f : inference.fits)
        if (f.model == inference.model)
            chosen = &f;
    if (!chosen)
        return {};
    const double best = inference.fits.front().cost();
    const cwnd::ModelFit* byWindow = chosen;
    for (const cwnd::ModelFit& f : inference.fits)
        if (f.cost() <= best * (1 + kNearTie) && f.meanGap < byWindow->meanGap)
            byWindow = &f;
    if (byWindow == chosen)
        return {};
    char buf[300];
    std::snprintf(buf, sizeof buf,
                  "sender.cc %s: downstream of the losses the fits nearly tie (cost %.3f against "
                  "%.3f for %s, within "
                  "%.0f%%); its window matches the flight at the ends of the bursts best (mean gap "
                  "%.3f against %.3f)",
                  std::string(byWindow->model).c_str(), byWindow->cost(), chosen->cost(),
                  std::string(chosen->model).c_str(), kNearTie * 100, byWindow->meanGap,
                  chosen->meanGap);
    note = buf;
    return std::string(byWindow->model);
}

std::vector<StationAbsence> stationAbsences(const DerivationInput& in, const DownstreamView& view)
{
    std::vector<StationAbsence> out;
    if (!view.downstream || view.upstreamRttNs <= 0)
        return out;
    const dissect::CaptureTables& tables = *in.tables;
    const TcpAnalysis& tcp = *in.tcp;
    const auto& t = tables.tcp;
    struct Ack
    {
        std::int64_t timeNs, tsVal; // the receiver's clock, from its first TSval
    };
    struct Data
    {
        std::int64_t timeNs, tsVal, tsEcr; // tsVal on the sender's clock, tsEcr on the receiver's
        bool pastEdge, firstSeen;
    };
    std::vector<Ack> acks;
    std::vector<Data> data;
    std::optional<std::uint32_t> receiverFirst, senderFirst;
    const auto sinceFirst = [](std::optional<std::uint32_t>& first, std::uint32_t raw) {
        if (!first)
            first = raw;
        return static_cast<std::int64_t>(static_cast<std::int32_t>(raw - *first));
    };
    std::int64_t rightEdge = -1, highestEnd = -1;
    std::uint32_t mss = 1;
    for (std::size_t row = 0; row < t.size(); ++row) {
        if (tcp.segments.connection[row] != in.connection ||
            !(t.flags[row] & dissect::TcpColumns::kHasTimestamps))
            continue;
        if (tcp.directionOf(tables, row) != in.sender) {
            if (!(t.tcpFlags(row) & 0x010))
                continue;
            acks.push_back({t.timeNs[row], sinceFirst(receiverFirst, t.tsVal[row])});
            rightEdge = std::max(rightEdge, tcp.relativeAck(t, row) +
                                                static_cast<std::int64_t>(tcp.windowBytes(t, row)));
            continue;
        }
        const std::uint32_t len = t.payloadLength[row];
        if (len == 0 || !receiverFirst)
            continue;
        mss = std::max(mss, len);
        const std::int64_t end = tcp.relativeSeq(t, row) + static_cast<std::int64_t>(len);
        data.push_back({t.timeNs[row], sinceFirst(senderFirst, t.tsVal[row]),
                        sinceFirst(receiverFirst, t.tsEcr[row]),
                        rightEdge >= 0 && end > rightEdge + mss, end > highestEnd});
        highestEnd = std::max(highestEnd, end);
    }
    if (acks.size() < 2 || data.size() < 2)
        return out;
    // Each clock's rate and offset against the capture's: the receiver is next to the
    // capture, so its ACKs show its clock as it ran; the sender's data show its clock
    // plus the path's delay, least on an empty path.
    const TsClock receiverClock = readTsClock(acks), senderClock = readTsClock(data);
    if (!receiverClock.valid() || !senderClock.valid())
        return out;
    const auto onReceiverClock = [&](std::int64_t ts) { return static_cast<std::int64_t>(receiverClock.at(ts)); };
    // A silence shorter than this is the radio's own (retries, a scan) or a timeout.
    const std::int64_t minAbsenceNs = std::max<std::int64_t>(200 * kMsNs, 4 * view.upstreamRttNs);
    std::size_t i = 0;
    while (i < data.size()) {
        if (!data[i].pastEdge) {
            ++i;
            continue;
        }
        const std::int64_t firstPast = data[i].timeNs;
        const auto after =
            std::upper_bound(acks.begin(), acks.end(), firstPast,
                             [](std::int64_t v, const Ack& a) { return v < a.timeNs; });
        if (after == acks.begin())
            break;
        const Ack& last = *std::prev(after);
        StationAbsence a;
        a.leftNs = last.timeNs;
        a.returned = after != acks.end();
        a.returnedNs = a.returned ? after->timeNs : data.back().timeNs + 1;
        std::int64_t firstEcho = std::numeric_limits<std::int64_t>::max(), lastEcho = last.tsVal;
        std::size_t j = i;
        for (; j < data.size() && data[j].timeNs < a.returnedNs; ++j) {
            if (data[j].tsEcr > last.tsVal)
                firstEcho = std::min(firstEcho, data[j].tsEcr);
            lastEcho = std::max(lastEcho, data[j].tsEcr);
        }
        i = j;
        if (a.returnedNs - a.leftNs < minAbsenceNs)
            continue;
        a.backElsewhereNs = firstEcho == std::numeric_limits<std::int64_t>::max()
                                ? std::max(a.leftNs, firstPast - view.upstreamRttNs)
                                : std::clamp(onReceiverClock(firstEcho), a.leftNs, a.returnedNs);
        // Held: new data arriving with the station's return, delayed by more than half
        // the outage beyond what the path delays data at its emptiest. A station that
        // never came back: the data forwarded here when it was back elsewhere.
        std::int64_t heldFromNs = 0, heldToNs = 0;
        double halfOutage = 0;
        if (!a.returned) {
            a.leftElsewhereNs = a.returnedNs;
            heldFromNs = a.leftNs;
            heldToNs = a.backElsewhereNs + view.upstreamRttNs;
            halfOutage = static_cast<double>(a.backElsewhereNs - a.leftNs) / 2;
        } else {
            a.leftElsewhereNs = std::clamp(onReceiverClock(lastEcho), a.backElsewhereNs, a.returnedNs);
            heldFromNs = a.returnedNs - view.upstreamRttNs;
            heldToNs = a.returnedNs;
            halfOutage = static_cast<double>(a.returnedNs - a.leftElsewhereNs) / 2;
        }
        for (std::size_t k = 0; k < data.size(); ++k) {
            const Data& d = data[k];
            if (d.timeNs < heldFromNs || d.timeNs >= heldToNs || !d.firstSeen)
                continue;
            const double delay = static_cast<double>(d.timeNs) - senderClock.at(d.tsVal);
            a.held = a.held || delay > halfOutage;
        }
        out.push_back(a);
        if (!a.returned)
            break;
    }
    return out;
}

SenderDataWaits senderDataWaits(const DerivationInput& in, const DownstreamView& view)
{
    std::vector<DataWait> out;
    if (!view.downstream)
        return {};
    const dissect::CaptureTables& tables = *in.tables;
    const TcpAnalysis& tcp = *in.tcp;
    const auto& t = tables.tcp;
    // The sender's data on its TSval clock: (capture ns, ticks since the first).
    struct Data
    {
        std::int64_t timeNs, tsVal;
    };
    std::vector<Data> data;
    std::optional<std::uint32_t> first;
    std::int64_t highestEnd = -1;
    for (std::size_t row = 0; row < t.size(); ++row) {
        if (tcp.segments.connection[row] != in.connection || tcp.directionOf(tables, row) != in.sender ||
            t.payloadLength[row] == 0)
            continue;
        if (!(t.flags[row] & dissect::TcpColumns::kHasTimestamps))
            return {};
        if (!first)
            first = t.tsVal[row];
        const std::int64_t end = tcp.relativeSeq(t, row) + static_cast<std::int64_t>(t.payloadLength[row]);
        data.push_back({t.timeNs[row], static_cast<std::int32_t>(t.tsVal[row] - *first)});
        out.push_back({t.timeNs[row], 0, end > highestEnd});
        highestEnd = std::max(highestEnd, end);
    }
    const TsClock clock = readTsClockUnderDelays(data);
    if (!clock.valid())
        return {};
    for (std::size_t i = 0; i < data.size(); ++i)
        out[i].waitMs = (static_cast<double>(data[i].timeNs) - clock.at(data[i].tsVal)) / 1e6;
    return {std::move(out), clock.tickNs / 1e6};
}

bool heldThrough(const DerivationInput& in, const DownstreamView& view, std::int64_t fromNs, std::int64_t toNs)
{
    if (!view.downstream || view.upstreamRttNs <= 0 || toNs <= fromNs)
        return false;
    const double halfOutageMs = static_cast<double>(toNs - fromNs) / 2e6;
    const SenderDataWaits data = senderDataWaits(in, view);
    for (const DataWait& d : data.waits)
        if (d.firstSeen && d.timeNs >= toNs && d.timeNs < toNs + view.upstreamRttNs && d.waitMs > halfOutageMs)
            return true;
    return false;
}

std::vector<LoneHole> loneHoles(const DownstreamView& view, double fullQueueMs)
{
    constexpr std::int64_t kLoneSpan = 3; // as sack_readings.cpp
    std::vector<LoneHole> out;
    if (view.rtt.empty())
        return out;
    double rttMin = std::numeric_limits<double>::max();
    for (const UpstreamRttSample& r : view.rtt)
        rttMin = std::min(rttMin, r.rttMs);
    struct Hole
    {
        std::int64_t segment;
        double queueBeforeMs;
        std::int64_t afterNs;
    };
    std::vector<Hole> holes;
    for (const MissingSegment& m : view.missing) {
        if (m.recoveredBelowTcp)
            continue;
        // The last three round trips measured up to the arrival before the hole.
        const auto end = std::upper_bound(
            view.rtt.begin(), view.rtt.end(), m.afterNs,
            [](std::int64_t v, const UpstreamRttSample& r) { return v < r.dataNs; });
        double queueMs = -1;
        for (auto it = end; it != view.rtt.begin() && std::distance(it, end) < 3;) {
            --it;
            queueMs = queueMs < 0 ? it->rttMs - rttMin : std::min(queueMs, it->rttMs - rttMin);
        }
        holes.push_back({m.segment, queueMs, m.afterNs});
    }
    std::sort(holes.begin(), holes.end(),
              [](const Hole& a, const Hole& b) { return a.segment < b.segment; });
    for (const Hole& h : holes)
        fullQueueMs = std::max(fullQueueMs, h.queueBeforeMs);
    for (std::size_t i = 0; i < holes.size(); ++i) {
        const bool alone =
            (i == 0 || holes[i].segment - holes[i - 1].segment > kLoneSpan) &&
            (i + 1 == holes.size() || holes[i + 1].segment - holes[i].segment > kLoneSpan);
        if (alone && holes[i].queueBeforeMs >= 0 && holes[i].queueBeforeMs < fullQueueMs / 2)
            out.push_back({holes[i].segment, holes[i].queueBeforeMs, holes[i].afterNs});
    }
    return out;
}

std::vector<DownstreamTimeout> downstreamTimeouts(const DerivationInput& in,
                                                  const DownstreamView& view, double minRtoMs)
{
    std::vector<DownstreamTimeout> out;
    if (!view.downstream || view.rtt.empty())
        return out;
    const dissect::CaptureTables& tables = *in.tables;
    const TcpAnalysis& tcp = *in.tcp;
    const auto& t = tables.tcp;
    struct Ack
    {
        std::int64_t timeNs, ack;
    };
    struct Data
    {
        std::int64_t timeNs, tsVal, seq;
        std::uint32_t len;
    };
    std::vector<Ack> acks;
    std::vector<Data> data;
    std::optional<std::uint32_t> senderFirst;
    for (std::size_t row = 0; row < t.size(); ++row) {
        if (tcp.segments.connection[row] != in.connection)
            continue;
        if (tcp.directionOf(tables, row) != in.sender) {
            if (t.tcpFlags(row) & 0x010)
                acks.push_back({t.timeNs[row], tcp.relativeAck(t, row)});
            continue;
        }
        if (t.payloadLength[row] == 0 || !(t.flags[row] & dissect::TcpColumns::kHasTimestamps))
            continue;
        if (!senderFirst)
            senderFirst = t.tsVal[row];
        data.push_back(
            {t.timeNs[row],
             static_cast<std::int64_t>(static_cast<std::int32_t>(t.tsVal[row] - *senderFirst)),
             tcp.relativeSeq(t, row), t.payloadLength[row]});
    }
    // The sender's clock against the capture's.
    const TsClock clock = readTsClock(data);
    if (!clock.valid())
        return out;
    const double tick = clock.tickNs;
    const auto senderTime = [&](std::int64_t tsVal) { return clock.at(tsVal); };
    const double turnaroundMs =
        static_cast<double>(std::max<std::int64_t>(0, view.downstreamRttNs)) / 1e6;
    double baseRttMs = std::numeric_limits<double>::max();
    for (const UpstreamRttSample& r : view.rtt)
        baseRttMs = std::min(baseRttMs, r.rttMs);
    const double ackToSenderNs = baseRttMs * 1e6;
    const std::int64_t mss = std::max<std::int64_t>(
        1, std::max_element(data.begin(), data.end(), [](const Data& a, const Data& b) {
               return a.len < b.len;
           })->len);
    const std::int64_t firstSeq = data.front().seq;
    // Last transmission of each sequence number (sender's time, a timeout or not).
    std::map<std::int64_t, std::pair<double, bool>> lastSend;
    std::size_t nextAck = 0, nextRtt = 0;
    std::int64_t sndUna = -1, highestEnd = firstSeq;
    double restart = -1e300, srtt = -1;
    double previousSend = senderTime(data.front().tsVal);
    for (const Data& d : data) {
        const double sent = senderTime(d.tsVal);
        for (; nextAck < acks.size() &&
               static_cast<double>(acks[nextAck].timeNs) + ackToSenderNs <= sent;
             ++nextAck)
            if (acks[nextAck].ack > sndUna) {
                sndUna = acks[nextAck].ack;
                restart = static_cast<double>(acks[nextAck].timeNs) + ackToSenderNs;
            }
        for (; nextRtt < view.rtt.size() && view.rtt[nextRtt].dataNs <= d.timeNs; ++nextRtt) {
            const double r = view.rtt[nextRtt].rttMs + turnaroundMs; // RFC 6298 2.2 / 2.3
            srtt = srtt < 0 ? r : 0.875 * srtt + 0.125 * r;
        }
        // Segments missing before this one were sent between the arrival before and it.
        for (std::int64_t seq = highestEnd; seq < d.seq; seq += mss)
            lastSend.try_emplace(seq, previousSend, false);
        const auto it = lastSend.find(d.seq);
        bool timeout = false;
        if (it != lastSend.end() && d.seq == sndUna && srtt > 0 && !it->second.second) {
            const double start = std::max(restart, it->second.first);
            double timerMs = (sent - start) / 1e6;
            int spanned = 1;
            // Nothing arrived while the timer ran (the station away, the path down): the
            // resends of the same backoff chain before this one were lost unseen, and the
            // timer spans k of them, RTO (2^k - 1) with a doubling RTO (RFC 6298 5.5):
            // the most whose first RTO is still the minimum (within the clock's error).
            if (previousSend <= start + tick) {
                constexpr int kMaxUnseenBackoffs = 6;
                while (spanned < kMaxUnseenBackoffs &&
                       timerMs / static_cast<double>((2 << spanned) - 1) >= 0.95 * minRtoMs)
                    ++spanned;
                timerMs /= static_cast<double>((1 << spanned) - 1);
            }
            if (timerMs >= 0.95 * minRtoMs) {
                timeout = true;
                out.push_back({d.timeNs, (d.seq - firstSeq) / mss, timerMs, srtt, spanned});
            }
        }
        lastSend[d.seq] = {sent, timeout};
        highestEnd = std::max(highestEnd, d.seq + static_cast<std::int64_t>(d.len));
        previousSend = sent;
    }
    return out;
}

} // namespace windscope::analysis::replay
