// SPDX-License-Identifier: GPL-3.0-or-later
// The queue step of deriveScenario(): the bottleneck queue's size from the round trips'
// rise, and whether the capture shows it overflow.
#include "derivation_steps.h"

#include "sample_statistics.h"

#include <algorithm>
#include <array>
#include <limits>

namespace windscope::analysis::replay::derive {

namespace {

SackReadings loneHoleReadings(const DownstreamView& downstream, double fullQueueMs)
{
    SackReadings out;
    out.firstTransmissionLosses = static_cast<std::uint64_t>(
        std::count_if(downstream.missing.begin(), downstream.missing.end(),
                      [](const MissingSegment& m) { return !m.recoveredBelowTcp; }));
    for (const LoneHole& h : loneHoles(downstream, fullQueueMs))
        out.loneLosses.push_back({h.segment, h.queueBeforeMs, 0, h.afterNs});
    return out;
}

// The largest flight the path held without a loss: the most the sender had in flight
// before it first sent a segment it later had to send again (later flights may hold
// segments already dropped, which the capture ended before the sender knew of);
// downstream, before the first hole the sender's losses left. At the sender a segment
// that waited on its host before the capture had the host's queue ahead of it, in
// flight for TCP but not yet for the capture: that wait at the link's rate counts too.
std::uint32_t largestFlightBeforeFirstLoss(const DerivationContext& ctx, double payloadMbps)
{
    std::int64_t firstLossNs = std::numeric_limits<std::int64_t>::max();
    if (ctx.downstream.downstream) {
        for (const MissingSegment& m : ctx.downstream.missing)
            if (!m.recoveredBelowTcp)
                firstLossNs = std::min(firstLossNs, m.afterNs);
    } else {
        // First sends by the sequence they start at; a resend starts below the highest
        // end sent before it.
        std::vector<std::pair<std::int64_t, std::int64_t>> firstSends; // (start, time)
        std::int64_t highest = 0;
        for (const DerivationContext::Departure& d : ctx.departures) {
            const std::int64_t start = d.end - static_cast<std::int64_t>(d.payload);
            if (start >= highest)
                firstSends.emplace_back(start, d.ns);
            else if (const auto sent = std::upper_bound(
                         firstSends.begin(), firstSends.end(), start,
                         [](std::int64_t seq, const auto& f) { return seq < f.first; });
                     sent != firstSends.begin())
                firstLossNs = std::min(firstLossNs, std::prev(sent)->second);
            highest = std::max(highest, d.end);
        }
    }
    const double bytesPerMs = payloadMbps * 1e3 / 8;
    double most = 0;
    for (const SenderRtt& r : ctx.senderRtt)
        if (r.dataNs < firstLossNs)
            most = std::max(most, static_cast<double>(r.flightBytes) + r.waitBeforeCaptureMs * bytesPerMs);
    return static_cast<std::uint32_t>(std::min<double>(most, std::numeric_limits<std::uint32_t>::max()));
}

// Whether a drop-tail queue at the bottleneck overflowed in the capture: a loss episode
// (its first resend after a round trip without one; a resend soon after new data is
// flagged out of order, as Wireshark does, and counts as one) within two round trips at the
// fullest queue of ACKs that timed the queue over half its fullest (a queue drops when
// full; the segments sent just before its drops are acknowledged one such round trip
// after them, before the sender can learn of the loss; a radio's losses come at any
// level), while the flight grew: a queue that held a flight without loss holds it
// again, so a loss at a flight held flat by a window (a queue standing behind it) is
// not the queue's. Round trips as TCP timed them, with the wait on the sender's host
// before the capture.
bool overflowSeen(const DerivationInput& in, const DerivationContext& ctx, double rateMbps)
{
    const double riseMs = ctx.rttSustainedMax - ctx.rttMin;
    const auto roundNs = static_cast<std::int64_t>((ctx.rttMin + riseMs) * 1e6);
    struct Acked
    {
        std::int64_t ackNs = 0, flightBytes = 0;
        double riseMs = 0;
        bool halfFull = false;
    };
    std::vector<Acked> acked;
    for (const SenderRtt& r : ctx.senderRtt)
        acked.push_back({r.dataNs + static_cast<std::int64_t>(r.ms * 1e6), r.flightBytes,
                         r.ms + r.waitBeforeCaptureMs - ctx.rttMin});
    std::sort(acked.begin(), acked.end(),
              [](const Acked& x, const Acked& y) { return x.ackNs < y.ackNs; });
    // Over half by the median of three neighbours (a delayed ACK adds its timer to one),
    // and no more than the flight then could fill at the rate: a queue holds only what
    // is in flight (two segments a delayed ACK held add its timer to both).
    const double bytesPerMs = rateMbps * 1e3 / 8;
    for (std::size_t i = 1; i + 1 < acked.size(); ++i) {
        std::array<double, 3> three{acked[i - 1].riseMs, acked[i].riseMs, acked[i + 1].riseMs};
        std::sort(three.begin(), three.end());
        acked[i].halfFull = three[1] >= riseMs / 2 &&
                            three[1] * bytesPerMs <= static_cast<double>(acked[i].flightBytes);
    }
    const auto window = [&](std::int64_t fromNs, std::int64_t toNs) {
        const auto lo =
            std::lower_bound(acked.begin(), acked.end(), fromNs,
                             [](const Acked& x, std::int64_t ns) { return x.ackNs < ns; });
        const auto hi =
            std::upper_bound(acked.begin(), acked.end(), toNs,
                             [](std::int64_t ns, const Acked& x) { return ns < x.ackNs; });
        return std::pair{lo, hi};
    };
    const dissect::CaptureTables& tables = *in.tables;
    const TcpAnalysis& tcp = *in.tcp;
    const auto& t = tables.tcp;
    // A loss the scoreboard shows alone, met with the queue under half its fullest, is
    // the radio's (sack_readings.h): an episode of such losses only says nothing of the
    // queue, even where a radio's pauses (a station's scans) raised round trips near it.
    std::vector<std::int64_t> loneSequences;
    for (const SackReadings::LoneLoss& l : ctx.sackReadings.loneLosses)
        loneSequences.push_back(l.sequence);
    std::sort(loneSequences.begin(), loneSequences.end());
    struct Episode
    {
        std::int64_t startNs = 0;
        bool radioOnly = true;
    };
    std::vector<Episode> episodes;
    std::int64_t lastResendNs = std::numeric_limits<std::int64_t>::min() / 2;
    for (std::size_t row = 0; row < t.size(); ++row) {
        if (tcp.segments.connection[row] != in.connection || t.payloadLength[row] == 0 ||
            !(tcp.segments.flags[row] &
              (segment_flag::kRetransmission | segment_flag::kOutOfOrder)) ||
            tcp.directionOf(tables, row) != in.sender)
            continue;
        const std::int64_t now = t.timeNs[row];
        if (now - lastResendNs > roundNs)
            episodes.push_back({now, true});
        lastResendNs = now;
        episodes.back().radioOnly = episodes.back().radioOnly &&
                                    std::binary_search(loneSequences.begin(), loneSequences.end(), tcp.relativeSeq(t, row));
    }
    for (const Episode& episode : episodes) {
        if (episode.radioOnly)
            continue;
        const std::int64_t now = episode.startNs;
        const auto [lo, hi] = window(now - 2 * roundNs, now);
        std::int64_t flightThen = 0;
        bool halfFull = false;
        for (auto it = lo; it != hi; ++it) {
            halfFull = halfFull || it->halfFull;
            flightThen = std::max(flightThen, it->flightBytes);
        }
        if (!halfFull)
            continue;
        const auto [before, beforeEnd] = window(now - 4 * roundNs, now - 2 * roundNs);
        std::int64_t flightBefore = 0;
        for (auto it = before; it != beforeEnd; ++it)
            flightBefore = std::max(flightBefore, it->flightBytes);
        if (flightThen > flightBefore)
            return true;
    }
    return false;
}

} // namespace

void deriveQueue(const DerivationInput& in, DerivationContext& ctx, DerivedScenario& out)
{
    Scenario& s = out.scenario;
    const DownstreamView& downstream = ctx.downstream;
    const double rttMin = ctx.rttMin, rttSustainedMax = ctx.rttSustainedMax;
    // Queue: the most the RTT rose above its minimum for a sustained run of samples, at
    // that rate: a drop-tail queue holds that much before it drops. A loss-limited flow
    // fills it rarely (once, in slow start), so a percentile would miss it.
    // Behind a lone loss away from the queue the cumulative ACK stands still, and the
    // data that filled the queue meanwhile is acknowledged only by SACKs: their rise
    // counts too.
    // Downstream the lone losses are the holes of one segment (loneHoles()).
    ctx.sackReadings = downstream.downstream
                           ? loneHoleReadings(downstream, rttSustainedMax - rttMin)
                           : readSackScoreboard(in, s.sender.mss, rttMin, rttSustainedMax - rttMin);
    const SackReadings& sackReadings = ctx.sackReadings;
    if (sackReadings.sackedRttRiseMs > rttSustainedMax - rttMin)
        out.notes.push_back(
            format(
                "path.queue: the SACKs' RTT rises %.3f ms (largest median of %.0f consecutive of "
                "%.0f samples while a lone loss held the cumulative ACK), above the cumulative "
                "ACKs' ",
                sackReadings.sackedRttRiseMs, static_cast<double>(kSustainedSamples),
                static_cast<double>(sackReadings.sackedRttSamples)) +
            format("%.3f ms", rttSustainedMax - rttMin));
    const double queueMs = std::max({0.0, rttSustainedMax - rttMin, sackReadings.sackedRttRiseMs});
    s.path.queueBytes = std::max<std::uint64_t>(
        static_cast<std::uint64_t>(queueMs / 1000 * s.path.bottleneckMbps * 1e6 / 8),
        10ull * (s.sender.mss + 52));
    out.notes.push_back(format(
        "path.queue_bytes %.0f: RTT rise %.3f ms (largest median of %.0f consecutive samples, "
        "over the minimum) at the bottleneck rate",
        static_cast<double>(s.path.queueBytes), queueMs, static_cast<double>(kSustainedSamples)));
    // A queue the capture never saw overflow holds more than its fullest reading, by
    // how much the capture cannot say: one bandwidth-delay product, the sizing rule for
    // a router buffer (Villamizar and Song 1994). Sized to the reading itself, the
    // replay's own slow start, which peaks where the capture's did, overflows it.
    // Downstream a hole shows right after its drop, with the queue the drop met
    // (holeEpisodes()).
    const bool overflowed = downstream.downstream ? out.holeEpisodes > out.holeEpisodesOffQueue
                                                  : overflowSeen(in, ctx, s.path.bottleneckMbps);
    // A rate read from the trains' spacing is the path's where the sender was held by
    // its window (it never filled the queue); where it stands for bunched ACKs or the pace
    // of a link in front, the losses still tell whether the queue overflowed.
    const bool windowHeld = ctx.rateFromDispersion && windowLimited(in, ctx);
    const bool neverFilled = windowHeld || !overflowed;
    const auto bdp = static_cast<std::uint64_t>(rttMin / 1000 * s.path.bottleneckMbps * 1e6 / 8);
    // Nor did it lose the largest flight: what of it the path's delay did not hold (one
    // BDP) stood in the queue, on the wire with its headers, and with the segment on the
    // link, which the queue holds until it has left (the base RTT counted its time once).
    const std::uint64_t wireSegment = s.sender.mss + 52;
    const std::uint32_t heldFlight =
        largestFlightBeforeFirstLoss(ctx, s.path.bottleneckMbps * s.sender.mss / (s.sender.mss + 52));
    const std::uint64_t flightWire = std::uint64_t{heldFlight} * wireSegment / s.sender.mss;
    const std::uint64_t flightBeyondPipe = flightWire > bdp ? flightWire - bdp + wireSegment : 0;
    if (neverFilled && std::max(bdp, flightBeyondPipe) > s.path.queueBytes) {
        out.queueFloorBytes = s.path.queueBytes;
        s.path.queueBytes = std::max(bdp, flightBeyondPipe);
        out.notes.push_back(
            (bdp >= flightBeyondPipe
                 ? format("path.queue_bytes %.0f: one BDP (%.3f Mb/s over %.1f ms); ",
                          static_cast<double>(bdp), s.path.bottleneckMbps, rttMin)
                 : format("path.queue_bytes %.0f: the largest flight before the first loss (%.0f B) beyond one BDP ",
                          static_cast<double>(flightBeyondPipe), static_cast<double>(heldFlight)) +
                       format("(%.3f Mb/s over %.1f ms), held without a loss; ", s.path.bottleneckMbps, rttMin)) +
            (windowHeld ? "the window-limited sender never filled the queue"
                        : "no loss began while a growing flight held the queue over half "
                          "its fullest, so it never overflowed"));
    }
    s.path.jitterMs = 0;
}

} // namespace windscope::analysis::replay::derive
