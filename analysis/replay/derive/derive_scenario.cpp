// SPDX-License-Identifier: GPL-3.0-or-later
#include "derive_scenario.h"

#include "analysis/cwnd/scoreboard.h"
#include "downstream_view.h"
#include "periodic_outages.h"
#include "analysis/replay/scenario/presets.h"
#include "sack_readings.h"
#include "sample_statistics.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <optional>

namespace windscope::analysis::replay {

namespace {

std::string format(const char* fmt, double a, double b = 0, double c = 0)
{
    char buf[256];
    std::snprintf(buf, sizeof buf, fmt, a, b, c);
    return buf;
}

// The reader's rhythm from the window updates (time, bytes opened).
struct ReadRhythm
{
    double periodUs = 0;          // 0: not found
    bool oneReadPerUpdate = false;
    double bytesPerUpdate = 0;
};

ReadRhythm readRhythm(const std::vector<std::pair<std::int64_t, std::uint64_t>>& updates)
{
    ReadRhythm r;
    std::vector<double> gaps; // microseconds between consecutive updates
    for (std::size_t i = 1; i < updates.size(); ++i) {
        const double us = static_cast<double>(updates[i].first - updates[i - 1].first) / 1e3;
        if (us > 0 && us < 2e6)
            gaps.push_back(us);
    }
    if (gaps.size() < 20)
        return r;
    std::sort(gaps.begin(), gaps.end());
    // Clusters of equal gaps (within 2% or 50 us), the well populated ones (10% each).
    struct Cluster
    {
        double sum = 0;
        std::size_t count = 0;
        double centre() const { return sum / static_cast<double>(count); }
    };
    std::vector<Cluster> clusters;
    for (const double g : gaps) {
        if (clusters.empty() || g - clusters.back().centre() > std::max(50.0, 0.02 * g))
            clusters.push_back({});
        clusters.back().sum += g;
        ++clusters.back().count;
    }
    std::vector<double> centres;
    for (const Cluster& c : clusters)
        if (c.count * 10 >= gaps.size())
            centres.push_back(c.centre());
    if (centres.empty())
        return r;
    if (centres.size() == 1) {
        r.periodUs = centres[0];
        r.oneReadPerUpdate = true;
        std::vector<double> opened;
        for (const auto& u : updates)
            opened.push_back(static_cast<double>(u.second));
        r.bytesPerUpdate = percentile(opened, 0.5);
        return r;
    }
    // The common step of the intervals: the smallest difference between neighbouring
    // centres, accepted when every centre is a whole number of it.
    double step = centres.back();
    for (std::size_t i = 1; i < centres.size(); ++i)
        step = std::min(step, centres[i] - centres[i - 1]);
    for (const double c : centres) {
        const double n = c / step;
        if (std::fabs(n - std::round(n)) > 0.15)
            return r;
    }
    r.periodUs = step;
    return r;
}

// The sender's round trips as the capture shows them: where it was taken near the
// sender, the data to its ACK; downstream of the losses (downstream_view.h) the
// receiver's ACK to the data it released, plus the receiver's own turnaround from the
// handshake: the data-to-ACK time there is only that turnaround.
struct SenderRtt
{
    std::int64_t dataNs = 0;      // capture time of the data segment
    double ms = 0;
    std::int64_t flightBytes = 0; // in flight when the data was sent
};

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
    for (const RttSample& r : tcp.rtt)
        if (tcp.segments.connection[r.dataRow()] == in.connection && tcp.directionOf(tables, r.dataRow()) == in.sender)
            out.push_back({tables.tcp.timeNs[r.dataRow()], static_cast<double>(r.rttNs(tables.tcp)) / 1e6,
                           tcp.segments.bytesInFlight[r.dataRow()]});
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

// Periodic outages from the sender's losses, for a connection no 802.11 frame carries:
// a background scan (paper 004) is invisible there except in the phase its losses
// cluster at (periodic_outages.h). A pattern found becomes the scenario's periodic
// scan; the losses it does not explain are left to the random-loss fit.
// inferred: the TCP-inferred outages in the scenario's outage list (index, capture
// start and end); those the pattern explains are taken out again.
struct InferredOutage
{
    std::size_t index = 0;
    std::int64_t startNs = 0, endNs = 0;
};

// Downstream of the losses the same detector folds the holes instead: each missing
// segment at the time it would have arrived, among the segments that did.
void derivePeriodicOutages(const DerivationInput& in, DerivedScenario& out, double rttMinMs,
                           const std::vector<InferredOutage>& inferred, const DownstreamView& downstream,
                           const std::vector<SenderRtt>& senderRtt)
{
    const dissect::CaptureTables& tables = *in.tables;
    const TcpAnalysis& tcp = *in.tcp;
    const auto& t = tables.tcp;
    Scenario& s = out.scenario;
    // Every data transmission of the sender; one is lost when the same data (by its
    // first sequence number) was sent again later. The resends pair with the
    // transmission they repeat, for the loss episodes below.
    std::vector<TransmissionTime> tx;
    // (time the loss showed, when the lost transmission was sent or would have arrived)
    std::vector<std::pair<std::int64_t, double>> resends;
    if (downstream.downstream) {
        // The round trip from an arrival to the data its ACK released, for the flights
        // lost whole (periodic_outages.h).
        std::vector<double> roundTripsMs;
        for (const UpstreamRttSample& r : downstream.rtt)
            roundTripsMs.push_back(r.rttMs);
        tx = relocateSilenceLosses(downstream.arrivals, percentile(roundTripsMs, 0.5) / 1000);
        for (const MissingSegment& m : downstream.missing)
            resends.emplace_back(m.revealedNs, static_cast<double>(m.expectedNs - out.firstDataNs) / 1e9);
        std::sort(resends.begin(), resends.end());
    } else {
        std::vector<std::pair<std::int64_t, std::size_t>> bySeq; // (relative seq, index), unsorted
        std::vector<std::int64_t> sendNs;
        for (std::size_t row = 0; row < t.size(); ++row) {
            if (tcp.segments.connection[row] != in.connection || t.payloadLength[row] == 0 ||
                tcp.directionOf(tables, row) != in.sender)
                continue;
            bySeq.emplace_back(tcp.relativeSeq(t, row), tx.size());
            sendNs.push_back(t.timeNs[row]);
            tx.push_back({static_cast<double>(t.timeNs[row] - out.firstDataNs) / 1e9, false});
        }
        // Sorted by sequence, then by time: each transmission after the first of its
        // sequence repeats the one before it.
        std::stable_sort(bySeq.begin(), bySeq.end(),
                         [](const auto& a, const auto& b) { return a.first < b.first; });
        for (std::size_t i = 1; i < bySeq.size(); ++i)
            if (bySeq[i].first == bySeq[i - 1].first) {
                tx[bySeq[i - 1].second].lost = true;
                resends.emplace_back(sendNs[bySeq[i].second], tx[bySeq[i - 1].second].timeS);
            }
        std::sort(resends.begin(), resends.end());
    }
    const char* where = downstream.downstream ? "holes at the receiver" : "sender's losses";
    PeriodicOutageOptions options;
    options.placedLosses = downstream.downstream;
    const PeriodicOutageFit fit = detectPeriodicOutages(tx, options);
    if (!fit.found) {
        if (fit.periodS > 0)
            out.notes.push_back(format("periodic outages: none (%.0f loss bursts; the strongest period, %.1f ms, "
                                       "concentrates them to R %.2f",
                                       static_cast<double>(fit.events), fit.periodS * 1000, fit.concentration) +
                                format(", Rayleigh Z %.1f against a threshold of %.1f): ", fit.rayleighZ,
                                       fit.thresholdZ) +
                                fit.reason);
        else
            out.notes.push_back("periodic outages: none (" + fit.reason + ")");
        return;
    }
    // Loss episodes as the calibration counts them (metrics.h): runs of resends, a new
    // one more than a mean RTT after the start of the last; one is explained when a
    // transmission it repeats fell in a window.
    const Connection& c = tcp.connections[in.connection];
    const double rttAvgMs = out.downstream ? out.holeMeanRttMs : c.direction[in.sender].rttAvgMs;
    const auto episodeNs = static_cast<std::int64_t>(std::max(1.0, rttAvgMs) * 1e6);
    std::uint64_t episodes = 0, explained = 0;
    std::int64_t episodeStart = 0;
    bool episodeExplained = false;
    for (std::size_t i = 0; i < resends.size(); ++i) {
        if (i == 0 || resends[i].first - episodeStart > episodeNs) {
            explained += episodeExplained ? 1 : 0;
            ++episodes;
            episodeStart = resends[i].first;
            episodeExplained = false;
        }
        episodeExplained = episodeExplained || fit.covers(resends[i].second, 0.0005);
    }
    explained += episodeExplained ? 1 : 0;
    // The windows are where the sends were lost; the outage is where they met the
    // radio: one wired one-way delay later, plus the queue they waited in (the median
    // RTT rise of the sends around the windows).
    // Downstream, the holes are where the data met the outage, past the queue: one
    // wired one-way delay after the sender (simulated time 0 is when the first data
    // segment left it, which the capture saw that delay later).
    std::vector<double> nearWindows;
    for (const SenderRtt& r : senderRtt)
        if (fit.covers(static_cast<double>(r.dataNs - out.firstDataNs) / 1e9, fit.periodS / 4))
            nearWindows.push_back(r.ms - rttMinMs);
    const double queueMs = downstream.downstream ? 0 : percentile(nearWindows, 0.5);
    const double shiftS = (s.path.wiredDelayMs + queueMs) / 1000;
    PeriodicScan& scan = s.periodicScan;
    scan.intervalMs = fit.periodS * 1000;
    scan.dwellMs = fit.dwellS * 1000;
    scan.firstS = std::max(0.0, fit.windowStartS + shiftS);
    // Until the end of the run unless the windows stop well before the end of the
    // capture (a baseline slower than the capture runs longer, and the last windows
    // may have met no sends to lose).
    const double lastWindowEnd = fit.windowStartS + static_cast<double>(fit.lastCycle) * fit.periodS + fit.dwellS;
    const double tail = tx.back().timeS - lastWindowEnd;
    scan.untilS = tail < std::max(10 * fit.periodS, 0.1 * tx.back().timeS) ? 0 : lastWindowEnd + shiftS;
    // The sends in the windows were lost, not held: the AP did not keep them.
    scan.mode = OutageMode::Drop;
    // An ACK silence the windows explain is the sender's retransmission timeout after
    // a window took its whole flight (and maybe its retransmission), not an outage of
    // its own: most of the sends lost around it fell in windows. A longer outage (a
    // handoff) loses sends at every phase.
    const double rttS = std::max(1.0, rttAvgMs) / 1000;
    std::vector<std::size_t> explainedSilences;
    // The window's edges are uncertain by the queue's variation (sends of one phase
    // met the radio at different times): half a dwell either side still counts.
    const double silenceMarginS = fit.dwellS / 2;
    // Downstream the sender's attempts during a silence are not seen, and the flight
    // lost whole is one instant (relocateSilenceLosses): the windows explain a silence
    // only as long as the lost flight's round trip, the loss probe (two round trips)
    // and three timeouts (one lost to a window and its doubled retry) take. A handoff
    // starting at a window's phase is longer, and a silence right after it (within a
    // round trip: its last timeout's backoff) is still the handoff's.
    const double longestExplainedS =
        downstream.downstream ? 3 * rttS + 3 * (s.sender.minRtoMs / 1000 + rttS) : 1e300;
    double unexplainedEnd = -1e300;
    for (const InferredOutage& gap : inferred) {
        const double start = static_cast<double>(gap.startNs - out.firstDataNs) / 1e9;
        const double end = static_cast<double>(gap.endNs - out.firstDataNs) / 1e9;
        if (downstream.downstream && (end - start > longestExplainedS || start - unexplainedEnd <= rttS)) {
            unexplainedEnd = end;
            continue;
        }
        std::size_t before = 0, beforeInWindows = 0, during = 0, duringInWindows = 0;
        for (const TransmissionTime& x : tx) {
            if (!x.lost || x.timeS < start - rttS || x.timeS > end)
                continue;
            const bool covered = fit.covers(x.timeS, silenceMarginS);
            (x.timeS < start ? before : during) += 1;
            (x.timeS < start ? beforeInWindows : duringInWindows) += covered ? 1 : 0;
        }
        if (during > 0 ? duringInWindows == during : before > 0 && 2 * beforeInWindows >= before)
            explainedSilences.push_back(gap.index);
        else
            unexplainedEnd = end;
    }
    for (auto it = explainedSilences.rbegin(); it != explainedSilences.rend(); ++it)
        s.outageList.erase(s.outageList.begin() + static_cast<std::ptrdiff_t>(*it));
    char buf[900];
    std::snprintf(buf, sizeof buf,
                  "periodic_scan: %.1f ms off every %.2f ms from %.2f s (drop), detected in the %s: "
                  "%zu loss bursts concentrate at one phase of that period (R %.2f, Rayleigh Z %.1f against %.1f "
                  "for a false detection rate of 1%% over the periods 50-500 ms); its windows, where %.0f%% of "
                  "the sends were lost, hold %zu of the bursts, %zu of %zu lost sends and %llu of %llu loss "
                  "episodes; shifted %.1f ms to the radio (wired delay and queue); %zu of the %zu TCP-inferred "
                  "outages left out (ACK silences after losses in its windows: retransmission timeouts)",
                  scan.dwellMs, scan.intervalMs, scan.firstS, where, fit.events, fit.concentration, fit.rayleighZ,
                  fit.thresholdZ, fit.windowLossShare * 100, fit.explainedEvents, fit.explainedLost,
                  fit.lostTransmissions, static_cast<unsigned long long>(explained),
                  static_cast<unsigned long long>(episodes), shiftS * 1000, explainedSilences.size(),
                  inferred.size());
    out.notes.push_back(buf);
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
void derivePathTiming(const std::vector<std::pair<std::int64_t, std::int64_t>>& ackProgress, double rateMbps,
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

// The bottleneck's rate while its queue stood: over windows of 20 ms in which every RTT
// sample (by the time its ACK came back) stayed above the minimum by more than
// riseMs, the bottleneck never idled, so what the ACKs delivered is its service rate.
// The median of those windows: a bottleneck with a variable service time (an 802.11
// hop's backoff and retries) delivers faster than its mean over some windows and
// slower over others, and a high percentile of all windows reads its fast ones; a
// flow that fills the path for only a part of the run (one slow-start overshoot on
// a long path) has most of its windows below the rate. 0 when fewer than kMinWindows.
struct StandingQueueRate
{
    double mbps = 0; // payload
    std::size_t windows = 0;
};

StandingQueueRate standingQueueRate(const std::vector<std::pair<std::int64_t, std::int64_t>>& ackProgress,
                                    const std::vector<std::pair<std::int64_t, double>>& rttByAck, double rttMinMs,
                                    double riseMs)
{
    constexpr std::int64_t kWindowNs = 20'000'000;
    constexpr std::size_t kMinWindows = 10;
    StandingQueueRate out;
    std::vector<double> rates;
    std::size_t j = 0, r = 0;
    std::int64_t lastStartNs = -kWindowNs;
    for (std::size_t i = 0; i < ackProgress.size(); ++i) {
        // Windows that do not overlap: each stretch of the queue counts once.
        if (ackProgress[i].first - lastStartNs < kWindowNs)
            continue;
        while (j < ackProgress.size() && ackProgress[j].first - ackProgress[i].first < kWindowNs)
            ++j;
        if (j >= ackProgress.size())
            break;
        while (r < rttByAck.size() && rttByAck[r].first < ackProgress[i].first)
            ++r;
        std::size_t samples = 0;
        bool standing = true;
        for (std::size_t k = r; k < rttByAck.size() && rttByAck[k].first <= ackProgress[j].first; ++k) {
            ++samples;
            standing = standing && rttByAck[k].second - rttMinMs > riseMs;
        }
        if (!standing || samples < 2)
            continue;
        lastStartNs = ackProgress[i].first;
        const double bytes = static_cast<double>(ackProgress[j].second - ackProgress[i].second);
        const double secs = static_cast<double>(ackProgress[j].first - ackProgress[i].first) / 1e9;
        if (secs > 0 && bytes > 0)
            rates.push_back(bytes * 8 / secs / 1e6);
    }
    out.windows = rates.size();
    if (rates.size() >= kMinWindows)
        out.mbps = percentile(rates, 0.5);
    return out;
}

// Zero-window ACKs from a base station (paper 001's ACK control, the lab's B zwa
// variants): an ACK that repeats the last one's acknowledgement with window 0 right
// after a full window was offered, then nothing from the receiver's side, not even
// answers to the sender's persist probes (a live receiver answers each with its
// window, RFC 9293 3.8.6.1), until an ACK with the same acknowledgement reopens the
// window. A receiver whose reader stalls closes its window as data arrives, its
// acknowledgement moving, and answers the probes. The episode is an outage the sender
// sat out in persist: the base station answered for the absent station and held the
// downlink, as the ap-zero-window-ack fix does. Times are the base station's: the
// capture's minus the wired one-way delay the ACKs crossed.
struct ZeroWindowHold
{
    std::int64_t closeNs = 0, reopenNs = 0;
    std::uint32_t unansweredProbes = 0;
};

std::vector<ZeroWindowHold> zeroWindowHolds(const DerivationInput& in, std::uint64_t maxWindow)
{
    const dissect::CaptureTables& tables = *in.tables;
    const TcpAnalysis& tcp = *in.tcp;
    const auto& t = tables.tcp;
    std::vector<ZeroWindowHold> holds;
    std::optional<ZeroWindowHold> open;
    std::int64_t lastAck = -1, closedAck = -1;
    std::uint64_t lastWindow = 0;
    for (std::size_t row = 0; row < t.size(); ++row) {
        if (tcp.segments.connection[row] != in.connection)
            continue;
        const int dir = tcp.directionOf(tables, row);
        if (dir == in.sender) {
            // A persist probe: no payload, or the sender's one-byte window probe.
            if (open && t.payloadLength[row] <= 1 && !(t.tcpFlags(row) & 0x07))
                ++open->unansweredProbes;
            continue;
        }
        if (!(t.tcpFlags(row) & 0x010))
            continue;
        const std::int64_t ack = tcp.relativeAck(t, row);
        const std::uint64_t window = tcp.windowBytes(t, row);
        if (open) {
            // The first ACK after the close ends the episode: a base station's reopens
            // at the same acknowledgement after probes went unanswered.
            if (ack == closedAck && window > 0 && open->unansweredProbes > 0) {
                open->reopenNs = t.timeNs[row];
                holds.push_back(*open);
            }
            open.reset();
        } else if (window == 0 && ack == lastAck && 2 * lastWindow >= maxWindow) {
            open = ZeroWindowHold{t.timeNs[row], 0, 0};
            closedAck = ack;
        }
        lastAck = ack;
        lastWindow = window;
    }
    return holds;
}

// The RTO rule read from the sender's own timeouts (kRtoTimeout rows, the first of
// each backoff chain): how long its retransmission timer ran, from its last restart
// (an ACK advancing the head, or the head's previous transmission, RFC 6298 5.3 and
// 5.5) to the timeout, against the smoothed RTT the capture's samples give at that
// moment. Linux bounds the RTO below by SRTT + the minimum (__tcp_set_rto()); RFC 6298
// (ns-3, the BSDs) by the minimum alone, max(min RTO, SRTT + 4 RTTVAR), so a timer
// that ran out more than a quarter of the minimum under Linux's bound is RFC 6298's
// (Linux's own timers, read so, sit 6-40 ms above the bound; at an SRTT near a third of
// the minimum, RFC 6298's minimum is within half of it, B-handoff's station). The
// shortest such timer bounds the minimum RTO from above.
constexpr double kLinuxBoundMargin = 0.75; // of the minimum RTO above the SRTT
struct RtoRuleReading
{
    std::size_t timeouts = 0;    // first timeouts of their chains, with an RTT before them
    std::size_t underLinuxBound = 0;
    double shortestTimerMs = 0;
    double srttAtShortestMs = 0;
};

RtoRuleReading readRtoRule(const DerivationInput& in, double minRtoMs)
{
    const dissect::CaptureTables& tables = *in.tables;
    const TcpAnalysis& tcp = *in.tcp;
    const auto& t = tables.tcp;
    RtoRuleReading out;
    // The sender's RTT samples in the order their ACKs came.
    std::vector<std::pair<std::int64_t, double>> samples; // (ACK time, RTT ms)
    for (const RttSample& r : tcp.rtt)
        if (tcp.segments.connection[r.dataRow()] == in.connection && tcp.directionOf(tables, r.dataRow()) == in.sender)
            samples.emplace_back(t.timeNs[r.ackRow()], static_cast<double>(r.rttNs(t)) / 1e6);
    std::sort(samples.begin(), samples.end());
    std::size_t nextSample = 0;
    double srtt = -1, rttvar = 0;
    bool anyAck = false;
    std::int64_t cumulativeAck = 0, timerStartNs = 0;
    // Last transmission of each sequence number, and whether it was a timeout.
    std::vector<std::pair<std::int64_t, std::pair<std::int64_t, bool>>> lastSend; // seq -> (time, timeout)
    const auto findSend = [&](std::int64_t seq) {
        return std::lower_bound(lastSend.begin(), lastSend.end(), seq,
                                [](const auto& e, std::int64_t v) { return e.first < v; });
    };
    for (std::size_t row = 0; row < t.size(); ++row) {
        if (tcp.segments.connection[row] != in.connection)
            continue;
        const std::int64_t now = t.timeNs[row];
        for (; nextSample < samples.size() && samples[nextSample].first <= now; ++nextSample) {
            const double r = samples[nextSample].second; // RFC 6298 2.2 / 2.3
            rttvar = srtt < 0 ? r / 2 : 0.75 * rttvar + 0.25 * std::fabs(srtt - r);
            srtt = srtt < 0 ? r : 0.875 * srtt + 0.125 * r;
        }
        if (tcp.directionOf(tables, row) != in.sender) {
            const std::int64_t ack = tcp.relativeAck(t, row);
            if ((t.tcpFlags(row) & 0x010) && (!anyAck || ack > cumulativeAck)) {
                anyAck = true;
                cumulativeAck = ack;
                timerStartNs = now;
            }
            continue;
        }
        if (t.payloadLength[row] == 0)
            continue;
        const std::int64_t seq = tcp.relativeSeq(t, row);
        const bool timeout = tcp.segments.flags[row] & segment_flag::kRtoTimeout;
        auto it = findSend(seq);
        const bool sentBefore = it != lastSend.end() && it->first == seq;
        if (timeout && srtt > 0 && !(sentBefore && it->second.second)) {
            const std::int64_t startNs = sentBefore ? std::max(timerStartNs, it->second.first) : timerStartNs;
            const double timerMs = static_cast<double>(now - startNs) / 1e6;
            if (out.timeouts == 0 || timerMs < out.shortestTimerMs) {
                out.shortestTimerMs = timerMs;
                out.srttAtShortestMs = srtt;
            }
            ++out.timeouts;
            out.underLinuxBound += timerMs < srtt + minRtoMs * kLinuxBoundMargin ? 1 : 0;
        }
        if (sentBefore)
            it->second = {now, timeout};
        else
            lastSend.insert(it, {seq, {now, timeout}});
        if (anyAck && seq == cumulativeAck)
            timerStartNs = now;
    }
    return out;
}

// Applies what readRtoRule() found: RFC 6298's bound when every first timeout of the
// capture ran out under Linux's, with a minimum no longer than the shortest of them.
// Downstream of the losses the capture's own RTT samples are the receiver's
// turnaround, and the sender's timer shows on its own clock (downstreamTimeouts()).
RtoRuleReading readDownstreamRtoRule(const DerivationInput& in, const DownstreamView& downstream, double minRtoMs)
{
    RtoRuleReading out;
    for (const DownstreamTimeout& d : downstreamTimeouts(in, downstream, minRtoMs)) {
        if (out.timeouts == 0 || d.timerMs < out.shortestTimerMs) {
            out.shortestTimerMs = d.timerMs;
            out.srttAtShortestMs = d.srttMs;
        }
        ++out.timeouts;
        out.underLinuxBound += d.timerMs < d.srttMs + minRtoMs * kLinuxBoundMargin ? 1 : 0;
    }
    return out;
}

void deriveRtoRule(const DerivationInput& in, const DownstreamView& downstream, DerivedScenario& out)
{
    Scenario& s = out.scenario;
    const RtoRuleReading r = downstream.downstream ? readDownstreamRtoRule(in, downstream, s.sender.minRtoMs)
                                                   : readRtoRule(in, s.sender.minRtoMs);
    if (r.timeouts == 0) {
        out.notes.push_back("sender.rto: Linux's bound, srtt + max(4 rttvar, min_rto) (no timeout in the capture to "
                            "read it from)");
        return;
    }
    if (r.underLinuxBound < r.timeouts) {
        out.notes.push_back(format("sender.rto: Linux's bound, srtt + max(4 rttvar, min_rto): %.0f of the capture's "
                                   "%.0f first timeouts ran at least half the minimum above the SRTT",
                                   static_cast<double>(r.timeouts - r.underLinuxBound),
                                   static_cast<double>(r.timeouts)) +
                            format(" (shortest %.1f ms at an SRTT of %.1f ms)", r.shortestTimerMs,
                                   r.srttAtShortestMs));
        return;
    }
    s.sender.rtoRfc6298 = true;
    s.sender.minRtoMs = std::min(s.sender.minRtoMs, r.shortestTimerMs);
    if (downstream.downstream)
        out.notes.push_back("sender.rto: read downstream, the timers on the sender's clock (its TSvals), the SRTT from "
                            "the receiver's ACKs to the data they released");
    out.notes.push_back(format("sender.rto_rfc6298 on, min_rto_ms %.0f: all %.0f first timeouts of the capture ran out "
                               "under Linux's bound (shortest %.1f ms",
                               s.sender.minRtoMs, static_cast<double>(r.timeouts), r.shortestTimerMs) +
                        format(" at an SRTT of %.1f ms): max(min_rto, srtt + 4 rttvar) as RFC 6298",
                               r.srttAtShortestMs));
}

SackReadings loneHoleReadings(const DownstreamView& downstream, double fullQueueMs)
{
    SackReadings out;
    out.firstTransmissionLosses = downstream.missing.size();
    for (const LoneHole& h : loneHoles(downstream, fullQueueMs))
        out.loneLosses.push_back({h.segment, h.queueBeforeMs, 0});
    return out;
}

// A segment lost first time alone, while the queue was short, is the radio's loss, not
// the queue's. Too few of them for the random-loss fit (replayCapture() fits a rate to
// more than two episodes), and one such loss can decide when a recovery starts: the
// baseline loses the same segments. Where an outage timeline stands for the losses, it
// explains them.
constexpr std::size_t kMaxPlacedLosses = 2;
void placeLoneLosses(const SackReadings& readings, DerivedScenario& out)
{
    Scenario& s = out.scenario;
    if (readings.loneLosses.empty() || readings.loneLosses.size() > kMaxPlacedLosses || !s.outageList.empty() ||
        s.periodicScan.intervalMs > 0 || s.path.lossFwd > 0)
        return;
    for (const SackReadings::LoneLoss& l : readings.loneLosses) {
        s.path.lostSegments.push_back(l.segment);
        out.notes.push_back(format("path.lost_segments: segment %.0f lost first time alone (of %.0f lost first "
                                   "time), the queue %.1f ms, under half the fullest a loss met",
                                   static_cast<double>(l.segment),
                                   static_cast<double>(readings.firstTransmissionLosses), l.queueBeforeMs));
    }
}

} // namespace

DerivedScenario deriveScenario(const DerivationInput& in)
{
    DerivedScenario out;
    Scenario& s = out.scenario;
    const dissect::CaptureTables& tables = *in.tables;
    const TcpAnalysis& tcp = *in.tcp;
    const Connection& c = tcp.connections[in.connection];
    const DirectionStats& data = c.direction[in.sender];
    const DirectionStats& acks = c.direction[1 - in.sender];
    const auto& t = tables.tcp;
    s.name = "derived";
    s.description = "derived from " + tables.summary.path + ", connection " + std::to_string(in.connection);

    // Rows of the connection, by direction.
    std::uint32_t maxPayload = 0;
    std::uint32_t maxFlight = 0; // most bytes in flight the sender had
    std::int64_t firstData = -1, lastData = 0;
    std::uint64_t dataRows = 0;
    bool carriedBy80211 = false; // an 802.11 frame of the capture carries the sender's data
    // (time, bytes delivered: the relative ACK and what was SACKed above it), so that
    // a hole filled late does not count its whole window as delivered at that moment.
    std::vector<std::pair<std::int64_t, std::int64_t>> ackProgress;
    DeliveredBytes delivered;
    std::int64_t sndNxt = 0; // relative
    // Window updates: an ACK that acknowledges nothing new and opens the window (time,
    // bytes it opened by), i.e. what the application read since the last ACK.
    std::vector<std::pair<std::int64_t, std::uint64_t>> windowUpdates;
    std::int64_t lastAck = -1;
    std::uint64_t lastWindow = 0;
    for (std::size_t row = 0; row < t.size(); ++row) {
        if (tcp.segments.connection[row] != in.connection)
            continue;
        const int dir = tcp.directionOf(tables, row);
        if (dir == in.sender && t.payloadLength[row] > 0) {
            sndNxt = std::max(sndNxt, tcp.relativeSeq(t, row) + static_cast<std::int64_t>(t.payloadLength[row]));
            maxPayload = std::max(maxPayload, t.payloadLength[row]);
            maxFlight = std::max(maxFlight, tcp.segments.bytesInFlight[row]);
            if (firstData < 0)
                firstData = t.timeNs[row];
            lastData = t.timeNs[row];
            ++dataRows;
            carriedBy80211 = carriedBy80211 ||
                             std::binary_search(tables.wlan.frame.begin(), tables.wlan.frame.end(), t.frame[row]);
        } else if (dir != in.sender && (t.tcpFlags(row) & 0x010)) {
            const std::int64_t ackNow = tcp.relativeAck(t, row);
            ackProgress.emplace_back(t.timeNs[row], delivered.at(tables, row, ackNow, sndNxt));
            const std::uint64_t windowNow = tcp.windowBytes(t, row);
            if (ackNow == lastAck && windowNow > lastWindow && t.payloadLength[row] == 0)
                windowUpdates.emplace_back(t.timeNs[row], windowNow - lastWindow);
            lastAck = ackNow;
            lastWindow = windowNow;
        }
    }
    out.firstDataNs = std::max<std::int64_t>(firstData, 0);

    // MSS: the largest payload the sender sent (the handshake's option can be larger
    // than what the path allows).
    s.sender.mss = maxPayload > 0 ? maxPayload : (c.mss[1 - in.sender] ? c.mss[1 - in.sender] : 1448);
    out.notes.push_back("sender.mss " + std::to_string(s.sender.mss) + ": largest data segment");
    s.sender.sack = c.sackPermitted;
    s.bytes = std::max<std::uint64_t>(data.uniqueBytes, s.sender.mss);
    out.notes.push_back("bytes " + std::to_string(s.bytes) + ": unique bytes the sender delivered");
    s.durationS = std::max(1.0, static_cast<double>(lastData - out.firstDataNs) / 1e9);

    // RTT: minimum and spread of the samples of the sender's data (downstream of the
    // losses, of the receiver's ACKs to the data they released).
    const DownstreamView downstream = readDownstreamView(in, out.firstDataNs);
    if (downstream.downstream) {
        const HoleEpisodes holes = holeEpisodes(downstream);
        out.downstream = true;
        out.holeEpisodes = holes.episodes;
        out.holeEpisodesOffQueue = holes.offQueue;
        out.holeMeanRttMs = holes.meanRttMs;
    }
    const std::vector<SenderRtt> senderRtt = senderRttSamples(in, downstream);
    std::vector<double> rtts;
    for (const SenderRtt& r : senderRtt)
        rtts.push_back(r.ms);
    if (downstream.downstream)
        out.notes.push_back("vantage: " + downstream.basis +
                            format("; %.0f round trips from the receiver's ACKs to the data they released (TSecr), "
                                   "%.0f segments missing first time (holes)",
                                   static_cast<double>(downstream.rtt.size()),
                                   static_cast<double>(downstream.missing.size())));
    const double rttMin = rtts.empty() ? (c.handshakeRttNs > 0 ? static_cast<double>(c.handshakeRttNs) / 1e6 : 50)
                                       : percentile(rtts, 0.0);
    const double rttP95 = rtts.empty() ? rttMin : percentile(rtts, 0.95);
    // The largest sustained RTT: the queue at its fullest, when it overflowed.
    const double rttSustainedMax = rtts.size() >= kSustainedSamples ? largestSustained(rtts) : rttP95;
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

    // Bottleneck: the delivery rate the ACKs show (SACKed data counted when SACKed), a
    // high percentile over windows: a loss-limited flow rarely fills the path for long,
    // but within a flight its ACKs come back at the bottleneck's pace.
    const auto deliveredRate = [&](std::int64_t window, double p) {
        std::vector<double> rates;
        std::size_t j = 0;
        for (std::size_t i = 0; i < ackProgress.size(); ++i) {
            while (j < ackProgress.size() && ackProgress[j].first - ackProgress[i].first < window)
                ++j;
            if (j >= ackProgress.size())
                break;
            const double bytes = static_cast<double>(ackProgress[j].second - ackProgress[i].second);
            const double secs = static_cast<double>(ackProgress[j].first - ackProgress[i].first) / 1e9;
            if (secs > 0)
                rates.push_back(bytes * 8 / secs / 1e6);
            i += std::max<std::size_t>(1, (j - i) / 4); // overlapping windows, bounded work
        }
        return percentile(rates, p);
    };
    // 20 ms windows miss the pace of a flight that drains in less (a small cwnd); 5 ms
    // windows see it, but their top tenth also holds bursts faster than the path
    // (aggregated 802.11 deliveries, a window update releasing a queue), so their 90th
    // percentile.
    const double rate20 = deliveredRate(20'000'000, 0.95), rate5 = deliveredRate(5'000'000, 0.90);
    double rateMbps = std::max(rate20, rate5);
    if (rateMbps <= 0)
        rateMbps = data.goodputBps > 0 ? data.goodputBps / 1e6 : 10;
    // Where the RTT shows the queue standing long enough, its delivery rate instead: a
    // quarter of the largest sustained rise above the minimum is well clear of the
    // path's own delay variation and of a queue only passing through.
    std::vector<std::pair<std::int64_t, double>> rttByAck;
    for (const RttSample& r : tcp.rtt)
        if (tcp.segments.connection[r.dataRow()] == in.connection && tcp.directionOf(tables, r.dataRow()) == in.sender)
            rttByAck.emplace_back(t.timeNs[r.ackRow()], static_cast<double>(r.rttNs(t)) / 1e6);
    std::sort(rttByAck.begin(), rttByAck.end());
    const double standingRiseMs = std::max(1.0, (rttSustainedMax - rttMin) / 4);
    const StandingQueueRate standing = standingQueueRate(ackProgress, rttByAck, rttMin, standingRiseMs);
    // A constant-rate link (a tbf, a serialising link) reads about the same both ways,
    // and the percentile stays. Above the standing rate by more than 5%, the percentile
    // read the fast tail of a variable service; below it, the flow filled the path for
    // only a part of the run. A busy bottleneck delivers at least the goodput: a lower
    // reading is windows of loss recovery, not a queue.
    const bool standingReadable = standing.mbps > 0 && standing.mbps * 1e6 >= data.goodputBps;
    if (standingReadable && (rateMbps > 1.05 * standing.mbps || rateMbps < standing.mbps)) {
        out.notes.push_back(format("path.bottleneck: delivered rate %.3f Mb/s payload while the queue stood (median of "
                                   "%.0f windows of 20 ms with every RTT over %.1f ms above the minimum)",
                                   standing.mbps, static_cast<double>(standing.windows), standingRiseMs) +
                            format(", not the percentile's %.3f", rateMbps));
        rateMbps = standing.mbps;
    } else if (standingReadable) {
        out.notes.push_back(format("path.bottleneck: the delivered rate while the queue stood, %.3f Mb/s payload "
                                   "(median of %.0f windows of 20 ms), agrees with the percentile",
                                   standing.mbps, static_cast<double>(standing.windows)));
    }
    // The rate is payload; the bottleneck serialises headers too.
    const double headerShare = static_cast<double>(s.sender.mss + 52) / s.sender.mss;
    s.path.bottleneckMbps = rateMbps * headerShare;
    out.notes.push_back(format("path.bottleneck_mbps %.3f: delivered rate (%.3f Mb/s payload), the higher of the 95th "
                               "percentile over 20 ms windows (%.3f) and the 90th over 5 ms windows",
                               s.path.bottleneckMbps, rateMbps, rate20) +
                        format(" (%.3f)", rate5));
    // Queue: the most the RTT rose above its minimum for a sustained run of samples, at
    // that rate: a drop-tail queue holds that much before it drops. A loss-limited flow
    // fills it rarely (once, in slow start), so a percentile would miss it.
    // Behind a lone loss away from the queue the cumulative ACK stands still, and the
    // data that filled the queue meanwhile is acknowledged only by SACKs: their rise
    // counts too.
    // Downstream the lone losses are the holes of one segment (loneHoles()).
    const SackReadings sackReadings = downstream.downstream
                                          ? loneHoleReadings(downstream, rttSustainedMax - rttMin)
                                          : readSackScoreboard(in, s.sender.mss, rttMin, rttSustainedMax - rttMin);
    if (sackReadings.sackedRttRiseMs > rttSustainedMax - rttMin)
        out.notes.push_back(format("path.queue: the SACKs' RTT rises %.3f ms (largest median of %.0f consecutive of "
                                   "%.0f samples while a lone loss held the cumulative ACK), above the cumulative "
                                   "ACKs' ",
                                   sackReadings.sackedRttRiseMs, static_cast<double>(kSustainedSamples),
                                   static_cast<double>(sackReadings.sackedRttSamples)) +
                            format("%.3f ms", rttSustainedMax - rttMin));
    const double queueMs = std::max({0.0, rttSustainedMax - rttMin, sackReadings.sackedRttRiseMs});
    s.path.queueBytes = std::max<std::uint64_t>(static_cast<std::uint64_t>(queueMs / 1000 * s.path.bottleneckMbps * 1e6 / 8),
                                                10ull * (s.sender.mss + 52));
    out.notes.push_back(format("path.queue_bytes %.0f: RTT rise %.3f ms (largest median of %.0f consecutive samples, "
                               "over the minimum) at the bottleneck rate",
                               static_cast<double>(s.path.queueBytes), queueMs, static_cast<double>(kSustainedSamples)));
    s.path.jitterMs = 0;
    // A sender that never had more in flight than a fixed window (its receive window or
    // send buffer), delivered about that window per round trip and lost nothing never
    // met the path's limit: the rate read above is what the window let through, a lower
    // bound. A fix that lifts the window is then held by that bound, not by the path.
    const double windowRateBps = rttMin > 0 ? static_cast<double>(maxFlight) * 8 / (rttMin / 1000) : 0;
    if (maxFlight > 0 && data.retransmissions == 0 && data.goodputBps >= 0.8 * windowRateBps) {
        out.pathRateUnseen = format("the sender never had more than %.0f B in flight (%.3f Mb/s over the %.1f ms "
                                    "base RTT), ",
                                    static_cast<double>(maxFlight), windowRateBps / 1e6, rttMin) +
                             format("delivered %.3f Mb/s and lost nothing: the path carried all it was offered, so "
                                    "its rate is at least %.3f Mb/s but not known beyond",
                                    data.goodputBps / 1e6, s.path.bottleneckMbps);
        out.notes.push_back("path.bottleneck_mbps: a lower bound; " + out.pathRateUnseen);
    }

    // Receiver: its buffer is the largest window it advertised; a reader that keeps the
    // window low or closed drains at the rate the data got through.
    s.receiver.bufferBytes = std::max<std::uint64_t>(acks.maxWindowBytes, 2ull * s.sender.mss);
    out.notes.push_back("receiver.buffer_bytes " + std::to_string(s.receiver.bufferBytes) +
                        ": largest window the receiver advertised");
    const double activeS = std::max(1e-3, static_cast<double>(lastData - out.firstDataNs) / 1e9);
    if (acks.zeroWindows + acks.lowWindows > static_cast<std::uint64_t>(activeS) && data.goodputBps > 0) {
        // The capture shows the drain rate and, through the window updates, the reader's
        // rhythm: an update goes out after a read, so the times between updates are
        // whole numbers of read periods. Two or more distinct intervals (5 and 6 reads
        // of 512 B when a cycle is not a whole number of reads) give the period as their
        // common step; a single one is one read per update (a reader taking all there
        // is). The period times the drain rate is the read size. How a read's time
        // divides between the call and the bytes it does not show: 1 ms per call (the
        // handheld of paper 000 and the lab's reader), the rest per byte. Without window
        // updates to go by: reads of one MSS.
        const double perMssUs = static_cast<double>(s.sender.mss) * 8 / data.goodputBps * 1e6;
        const double drainBytesPerUs = data.goodputBps / 8 / 1e6;
        const ReadRhythm rhythm = readRhythm(windowUpdates);
        if (rhythm.periodUs > 0) {
            const double readBytes = rhythm.oneReadPerUpdate ? rhythm.bytesPerUpdate : rhythm.periodUs * drainBytesPerUs;
            s.receiver.appReadBytes = std::max<std::uint64_t>(1, static_cast<std::uint64_t>(std::llround(readBytes)));
            const double periodUs = static_cast<double>(s.receiver.appReadBytes) / drainBytesPerUs;
            s.receiver.readFixedUs = std::min(1000.0, periodUs / 2);
            s.receiver.readPerByteUs = (periodUs - s.receiver.readFixedUs) / static_cast<double>(s.receiver.appReadBytes);
            out.notes.push_back(format("receiver: slow reader reading %.0f B every %.0f us (the rhythm of its window "
                                       "updates and the goodput), %.0f us per call + the rest per byte",
                                       static_cast<double>(s.receiver.appReadBytes), periodUs, s.receiver.readFixedUs));
        } else {
            s.receiver.appReadBytes = s.sender.mss;
            s.receiver.readFixedUs = std::min(1000.0, perMssUs / 2);
            s.receiver.readPerByteUs = (perMssUs - s.receiver.readFixedUs) / s.sender.mss;
            out.notes.push_back(format("receiver: slow reader (%.0f zero and low windows) draining one MSS per "
                                       "%.0f us (the goodput): reads of one MSS, %.0f us per call + the rest per byte",
                                       static_cast<double>(acks.zeroWindows + acks.lowWindows), perMssUs,
                                       s.receiver.readFixedUs));
        }
        // The ACKs pace at the reader, so they do not show the path's rate; the path
        // is taken to be well above what the reader drains.
        s.path.bottleneckMbps = std::max(s.path.bottleneckMbps, 20 * data.goodputBps / 1e6);
        s.path.queueBytes = std::max<std::uint64_t>(s.path.queueBytes, 100ull * (s.sender.mss + 52));
        out.notes.push_back(format("path.bottleneck_mbps %.3f: the reader limits the flow; path taken as 20x the "
                                   "goodput",
                                   s.path.bottleneckMbps));
    } else {
        out.notes.push_back("receiver: the application keeps up (few zero or low windows)");
    }

    // Congestion control: the model the cwnd inference chose.
    s.sender.cc = "cubic";
    const auto inferredModel = in.inference ? cwnd::makeCongestionModel(in.inference->model) : nullptr;
    if (in.inference && (in.inference->rateEvidence.rateBased || (inferredModel && inferredModel->traits().rateBased) ||
                         in.inference->notFollowed == cwnd::NotFollowedReason::RateBased)) {
        char buf[300];
        s.sender.cc = cwnd::rateBasedModelName();
        std::snprintf(buf, sizeof buf,
                      "sender.cc %s: the sender is rate-based (%.0f%% of its sends on its own clock, %.0f%% of its "
                      "flight kept through loss: BBR-like)",
                      s.sender.cc.c_str(), in.inference->rateEvidence.unclockedSends * 100,
                      in.inference->rateEvidence.flightRetainedAfterLoss * 100);
        out.notes.push_back(buf);
    } else if (in.inference && !in.inference->model.empty()) {
        if (!inferredModel) {
            out.senderNotModelled = "the inference saw " + in.inference->model + ", which the simulator does not model";
            out.notes.push_back("sender.cc cubic: a stand-in; " + out.senderNotModelled);
        } else {
            s.sender.cc = in.inference->model;
            if (in.inference->undetermined != cwnd::ModelUndetermined::None)
                out.notes.push_back("sender.cc " + s.sender.cc + ": a stand-in, the best of tied fits; the model is "
                                    "undetermined: " + cwnd::modelUndeterminedText(in.inference->undetermined));
            else
                out.notes.push_back("sender.cc " + s.sender.cc + ": model the cwnd inference chose");
        }
    } else {
        out.notes.push_back("sender.cc cubic: no cwnd inference, Linux's default");
    }
    if (downstream.downstream && in.inference && !cwnd::makeCongestionModel(s.sender.cc)->traits().rateBased &&
        out.senderNotModelled.empty()) {
        std::string note;
        if (const std::string byWindow = modelByWindowAmongNearTies(*in.inference, note); !byWindow.empty()) {
            s.sender.cc = byWindow;
            out.notes.push_back(note);
        }
    }
    // The Linux models recover as Linux does; NewReno, Westwood+ and Veno are written
    // after their papers and ns-3, which have no RACK-TLP.
    s.sender.rackTlp = s.sender.sack && cwnd::makeCongestionModel(s.sender.cc)->traits().rackTlpByDefault;
    s.sender.prr = s.sender.rackTlp;
    deriveRtoRule(in, downstream, out);
    if (s.sender.rackTlp)
        out.notes.push_back("sender.rack_tlp on: Linux's loss recovery (RFC 8985) with its " + s.sender.cc + " model");

    // 802.11: with radio frames, their data rate says whether the air is the bottleneck.
    if (!tables.wlan.frame.empty()) {
        std::vector<double> phy;
        for (std::size_t i = 0; i < tables.wlan.size(); ++i)
            if (tables.wlan.dataRateKbps[i] > 0 && (tables.wlan.frameControl[i] & 0x0c) == 0x08)
                phy.push_back(tables.wlan.dataRateKbps[i] / 1000.0);
        const double phyRate = percentile(phy, 0.5);
        // A-MPDU size: the most of the sender's data MPDUs seen under one radiotap
        // A-MPDU reference (the receiver's TCP ACKs are small: many more fit in one).
        std::vector<std::uint64_t> dataFrames;
        for (std::size_t row = 0; row < t.size(); ++row)
            if (tcp.segments.connection[row] == in.connection && t.payloadLength[row] > 0 &&
                tcp.directionOf(tables, row) == in.sender)
                dataFrames.push_back(t.frame[row]);
        std::sort(dataFrames.begin(), dataFrames.end());
        std::uint32_t ampdu = 1, run = 0;
        std::uint32_t lastRef = 0;
        std::vector<std::uint32_t> aggregates; // data MPDUs of each A-MPDU
        for (std::size_t i = 0; i < tables.wlan.size(); ++i) {
            const std::uint32_t ref = tables.wlan.ampduReference[i];
            if (ref == 0 || !std::binary_search(dataFrames.begin(), dataFrames.end(), tables.wlan.frame[i])) {
                run = 0;
                continue;
            }
            run = ref == lastRef ? run + 1 : 1;
            if (run == 1)
                aggregates.push_back(0);
            ++aggregates.back();
            lastRef = ref;
            ampdu = std::max(ampdu, run);
        }
        // An AP whose queue stands (the air the bottleneck) fills every aggregate to its
        // limit; where the aggregates of the largest size carry under half of the
        // aggregated data, the queue seldom held a full one: the air kept up with what
        // arrived, and the queue the RTT shows is upstream, in front of a slower link.
        std::uint64_t aggregatedFrames = 0, inLargest = 0;
        for (const std::uint32_t a : aggregates) {
            aggregatedFrames += a;
            inLargest += a == ampdu ? a : 0;
        }
        const bool aggregatesBelowLimit = ampdu > 1 && 2 * inLargest < aggregatedFrames;
        MacParams mac = phyRate <= 11 ? dsssMac(phyRate, std::min(2.0, phyRate))
                                      : ofdmMac(phyRate, std::min(24.0, phyRate / 2));
        mac.ampduMax = std::min<std::uint32_t>(ampdu, 64);
        // What the air can carry for this flow: data frames of one MSS and, every
        // second one, a TCP ACK, each after DIFS and an average backoff.
        const double frameUs = static_cast<double>(mac.preambleUs) + (mac.sifsUs + 3 * mac.slotUs) +
                               mac.cwMin / 2.0 * mac.slotUs;
        const double dataUs = frameUs / mac.ampduMax + (s.sender.mss + 88) * 8 / phyRate + mac.preambleUs + 14 * 8 / mac.basicRateMbps;
        const double ackUs = frameUs + 88 * 8 / phyRate + mac.preambleUs + 14 * 8 / mac.basicRateMbps;
        const double capacityMbps = phyRate > 0 ? s.sender.mss * 8 / (dataUs + ackUs / 2) : 0;
        // Within 80% of that the air is what limits the flow; below, the path does.
        if (phyRate > 0 && rateMbps > 0.8 * capacityMbps && aggregatesBelowLimit) {
            out.notes.push_back(format("mac: off; the A-MPDUs of %.0f carry %.1f%% of the aggregated data frames: the "
                                       "AP's queue seldom held a full aggregate, so the air (at least %.1f Mb/s for TCP) "
                                       "kept up and the path's link in front of it is the bottleneck",
                                       static_cast<double>(ampdu),
                                       100.0 * static_cast<double>(inLargest) /
                                           static_cast<double>(std::max<std::uint64_t>(1, aggregatedFrames)),
                                       capacityMbps));
        } else if (phyRate > 0 && rateMbps > 0.8 * capacityMbps) {
            s.mac = mac;
            s.path.bottleneckMbps = std::max(s.path.bottleneckMbps, 10 * phyRate);
            // The queue that fills is the AP's; the wired link in front of it must not
            // drop what the window lets through.
            s.path.queueBytes = std::max(s.path.queueBytes, s.receiver.bufferBytes * (s.sender.mss + 52) / s.sender.mss);
            out.notes.push_back(format("mac: 802.11 model at %.1f Mb/s (median data-frame rate), A-MPDU of %.0f; the "
                                       "air (about %.1f Mb/s for TCP) is the bottleneck",
                                       phyRate, mac.ampduMax, capacityMbps));
        } else if (phyRate > 0) {
            out.notes.push_back(format("mac: off; the air (about %.1f Mb/s for TCP at %.1f Mb/s) is well above the "
                                       "path's rate",
                                       capacityMbps, phyRate));
        }
    }

    // Where the path is a relay (no 802.11 model) and the ACKs pace at its rate (not at
    // a slow reader's), its timing.
    if (!s.mac.enabled && s.receiver.appReadBytes == 0)
        derivePathTiming(ackProgress, rateMbps, rttMin, delayVariationSamples(downstream, senderRtt), out);

    // Outages: 802.11 events of the station, else TCP-inferred ones. Simulated time 0
    // is the first data segment leaving the sender; an event seen at the radio is one
    // wired one-way delay after the sender.
    const double radioShiftS = (s.path.wiredDelayMs) / 1000;
    std::uint32_t scans = 0, handoffs = 0, other = 0;
    std::vector<InferredOutage> inferred;
    // A station that went to another AP and came back: two handoffs, and what the radio
    // here reported while it was away (retries to no one) is no outage of the path.
    const std::vector<StationAbsence> absences = stationAbsences(in, downstream);
    const auto duringAbsence = [&](std::int64_t fromNs, std::int64_t toNs) {
        return std::any_of(absences.begin(), absences.end(), [&](const StationAbsence& a) {
            return fromNs < a.returnedNs && toNs > a.leftNs;
        });
    };
    if (in.events) {
        const bool wlan = !tables.wlan.frame.empty();
        for (const WlanEvent& e : in.events->events) {
            if (e.kind == WlanEventKind::OutageInferred && e.connection != static_cast<std::int32_t>(in.connection))
                continue;
            if (duringAbsence(e.startNs, e.endNs))
                continue;
            Outage o;
            o.kind = e.kind == WlanEventKind::Handoff     ? OutageKind::Handoff
                     : e.kind == WlanEventKind::PowerSave ? OutageKind::PowerSave
                                                          : OutageKind::Scan;
            if (e.kind == WlanEventKind::OutageInferred)
                o.kind = OutageKind::Handoff;
            // An AP that kept sending to the absent station did not hold its frames.
            o.mode = (e.kind == WlanEventKind::Handoff || e.kind == WlanEventKind::OutageInferred ||
                      e.retriesToStation > 0)
                         ? OutageMode::Drop
                         : OutageMode::Hold;
            // Downstream of the path the capture sees the outage where the radio did.
            const double shift = wlan || downstream.downstream ? radioShiftS : 0;
            o.startS = std::max(0.0, static_cast<double>(e.startNs - out.firstDataNs) / 1e9 + shift);
            std::int64_t endNs = e.endNs;
            if (e.kind == WlanEventKind::OutageInferred) {
                // The ACK silence outlasts the outage by the RTO backoff: the path was
                // back somewhere between the last two retransmissions of the gap (the
                // earlier was lost, the later got through). Take the midpoint.
                std::vector<std::int64_t> retx;
                for (std::size_t row = 0; row < t.size(); ++row)
                    if (tcp.segments.connection[row] == in.connection && t.timeNs[row] >= e.startNs &&
                        t.timeNs[row] <= e.endNs && tcp.directionOf(tables, row) == in.sender &&
                        (tcp.segments.flags[row] & segment_flag::kRetransmission))
                        retx.push_back(t.timeNs[row]);
                if (retx.size() >= 2)
                    endNs = (retx[retx.size() - 2] + retx.back()) / 2;
            }
            o.durationS = std::max(0.0, static_cast<double>(endNs - e.startNs) / 1e9);
            if (o.durationS <= 0)
                continue;
            if (e.kind == WlanEventKind::OutageInferred)
                inferred.push_back({s.outageList.size(), e.startNs, e.endNs});
            s.outageList.push_back(o);
            (o.kind == OutageKind::Scan ? scans : o.kind == OutageKind::Handoff ? handoffs : other)++;
        }
    }
    for (const StationAbsence& a : absences) {
        const auto toSim = [&](std::int64_t ns) {
            return std::max(0.0, static_cast<double>(ns - out.firstDataNs) / 1e9 + radioShiftS);
        };
        const OutageMode mode = a.held ? OutageMode::Hold : OutageMode::Drop;
        for (const auto& [from, to] : {std::pair{a.leftNs, a.backElsewhereNs}, std::pair{a.leftElsewhereNs, a.returnedNs}}) {
            Outage o;
            o.kind = OutageKind::Handoff;
            o.mode = mode;
            o.startS = toSim(from);
            o.durationS = static_cast<double>(to - from) / 1e9;
            if (o.durationS <= 0)
                continue;
            s.outageList.push_back(o);
            ++handoffs;
        }
        char buf[600];
        std::snprintf(buf, sizeof buf,
                      "outages: the station left this AP at %.3f s and came back at %.3f s; the sender's data passed "
                      "every window offered here, so it was served by another AP from %.3f s to %.3f s (the first and "
                      "last of its ACKs the sender echoed, TSecr): handoffs of %.3f s and %.3f s (%s; data on its "
                      "return %s)",
                      toSim(a.leftNs), toSim(a.returnedNs), toSim(a.backElsewhereNs), toSim(a.leftElsewhereNs),
                      static_cast<double>(a.backElsewhereNs - a.leftNs) / 1e9,
                      static_cast<double>(a.returnedNs - a.leftElsewhereNs) / 1e9, a.held ? "hold" : "drop",
                      a.held ? "held more than half the outage, not resent" : "not held");
        out.notes.push_back(buf);
    }
    if (!absences.empty())
        std::sort(s.outageList.begin(), s.outageList.end(),
                  [](const Outage& a, const Outage& b) { return a.startS < b.startS; });
    // Zero-window episodes from a base station: handoffs with the base station's hold
    // and zero-window ACKs in the baseline.
    const std::vector<ZeroWindowHold> holds = zeroWindowHolds(in, acks.maxWindowBytes);
    for (const ZeroWindowHold& h : holds) {
        Outage o;
        o.kind = OutageKind::Handoff;
        o.mode = OutageMode::Drop; // what the old AP still had is lost
        const double reverseShiftS = s.path.wiredDelayMs / 1000;
        o.startS = std::max(0.0, static_cast<double>(h.closeNs - out.firstDataNs) / 1e9 - reverseShiftS);
        o.durationS = static_cast<double>(h.reopenNs - h.closeNs) / 1e9;
        s.outageList.push_back(o);
        ++handoffs;
        out.notes.push_back(format("outage %.3f s for %.3f s: zero-window ACK control at the base station (a window "
                                   "closed without new data acknowledged, %.0f persist probes unanswered, reopened at "
                                   "the same acknowledgement)",
                                   o.startS, o.durationS, h.unansweredProbes));
    }
    if (!holds.empty()) {
        std::sort(s.outageList.begin(), s.outageList.end(),
                  [](const Outage& a, const Outage& b) { return a.startS < b.startS; });
        if (std::find(s.fixes.begin(), s.fixes.end(), "ap-zero-window-ack") == s.fixes.end())
            s.fixes.push_back("ap-zero-window-ack");
        out.notes.push_back("fixes ap-zero-window-ack: the capture's base station already answers the handoffs with "
                            "zero-window ACKs and holds the downlink; the baseline does the same");
    }
    out.notes.push_back(format("outages: %.0f scans, %.0f handoffs or TCP-inferred outages, %.0f power-save periods",
                               scans, handoffs, other));
    if (!carriedBy80211)
        derivePeriodicOutages(in, out, rttMin, inferred, downstream, senderRtt);
    placeLoneLosses(sackReadings, out);
    return out;
}

} // namespace windscope::analysis::replay
