// SPDX-License-Identifier: GPL-3.0-or-later
#include "sack_readings.h"

#include "analysis/tcp/tcp_analysis.h"
#include "sample_statistics.h"

#include <algorithm>
#include <iterator>
#include <map>

namespace windscope::analysis::replay {

namespace {

constexpr std::int64_t kLoneSpan = 3; // neighbours on each side that must be delivered

struct SegmentState
{
    std::int64_t firstSentNs = 0;
    std::int64_t deliveredNs = -1; // first SACKed or cumulatively acknowledged
    bool retransmitted = false;
    bool lostFirst = false; // resent while neither SACKed nor acknowledged
};

} // namespace

SackReadings readSackScoreboard(const DerivationInput& in, std::uint32_t mss, double rttMinMs,
                                double cumulativeRiseMs)
{
    SackReadings out;
    const dissect::CaptureTables& tables = *in.tables;
    const TcpAnalysis& tcp = *in.tcp;
    const auto& t = tables.tcp;
    if (mss == 0)
        return out;
    std::map<std::int64_t, SegmentState> segments; // by relative sequence
    auto acknowledgedUpTo = segments.begin(); // first segment not yet cumulatively acknowledged
    struct SackRtt
    {
        std::int64_t heldAt = 0; // SND.UNA when it came: the hole that holds the cumulative ACK
        double ms = 0;
    };
    std::vector<SackRtt> sackRtt; // in time order
    std::int64_t firstSeq = -1, sndUna = 0;
    for (std::size_t row = 0; row < t.size(); ++row) {
        if (tcp.segments.connection[row] != in.connection)
            continue;
        const std::int64_t now = t.timeNs[row];
        if (tcp.directionOf(tables, row) == in.sender) {
            if (t.payloadLength[row] == 0)
                continue;
            const std::int64_t seq = tcp.relativeSeq(t, row);
            if (firstSeq < 0)
                firstSeq = seq;
            const auto [it, inserted] = segments.try_emplace(seq, SegmentState{now});
            if (!inserted) {
                SegmentState& s = it->second;
                if (!s.retransmitted && s.deliveredNs < 0 && seq >= sndUna)
                    s.lostFirst = true;
                s.retransmitted = true;
            }
            if (acknowledgedUpTo == segments.end() || seq < acknowledgedUpTo->first)
                acknowledgedUpTo = segments.lower_bound(sndUna);
            continue;
        }
        if (!(t.tcpFlags(row) & 0x010))
            continue;
        const std::int64_t ack = tcp.relativeAck(t, row);
        if (ack > sndUna) {
            sndUna = ack;
            for (; acknowledgedUpTo != segments.end() && acknowledgedUpTo->first < ack;
                 ++acknowledgedUpTo)
                if (acknowledgedUpTo->second.deliveredNs < 0)
                    acknowledgedUpTo->second.deliveredNs = now;
        }
        if (!(t.flags[row] & dissect::TcpColumns::kHasSideOptions))
            continue;
        const std::uint32_t side = t.sideOptionsIndex(row);
        if (side == dissect::TcpColumns::kNoSideOptions)
            continue;
        const dissect::TcpSideOptions& o = tables.tcpSideOptions[side];
        // The newest data a SACK delivers first time and that was sent once: its RTT
        // (RFC 8985's RACK.rtt).
        const SegmentState* newest = nullptr;
        for (int b = 0; b < std::min<int>(o.sackBlockCount, 4); ++b) {
            // Edges within a window of the ACK (RFC 7323 2.3): signed offsets.
            const std::int64_t from =
                ack + static_cast<std::int32_t>(o.sackBlocks[2 * b] - t.ack[row]);
            const std::int64_t to =
                ack + static_cast<std::int32_t>(o.sackBlocks[2 * b + 1] - t.ack[row]);
            for (auto it = segments.lower_bound(std::max(from, ack));
                 it != segments.end() && it->first < to; ++it) {
                SegmentState& s = it->second;
                if (s.deliveredNs >= 0)
                    continue;
                s.deliveredNs = now;
                if (!s.retransmitted && (!newest || s.firstSentNs > newest->firstSentNs))
                    newest = &s;
            }
        }
        if (newest)
            sackRtt.push_back({sndUna, static_cast<double>(now - newest->firstSentNs) / 1e6});
    }

    // Losses of first transmissions, by segment index, and the queue before each: the
    // least RTT rise of up to three delivered first transmissions sent just before it (a
    // delayed ACK adds its wait to one of them).
    struct Lost
    {
        std::int64_t sequence = 0, index = 0;
        double queueBeforeMs = -1;
        std::int64_t sentNs = 0;
    };
    std::vector<Lost> lost;
    for (auto at = segments.cbegin(); at != segments.cend(); ++at) {
        if (!at->second.lostFirst)
            continue;
        Lost l{at->first, (at->first - std::max<std::int64_t>(firstSeq, 0)) / mss, -1, at->second.firstSentNs};
        int seen = 0;
        for (auto it = std::make_reverse_iterator(at); it != segments.crend() && seen < 3; ++it) {
            const SegmentState& s = it->second;
            if (s.retransmitted || s.deliveredNs < 0)
                continue;
            const double rise =
                std::max(0.0, static_cast<double>(s.deliveredNs - s.firstSentNs) / 1e6 - rttMinMs);
            l.queueBeforeMs = seen == 0 ? rise : std::min(l.queueBeforeMs, rise);
            ++seen;
        }
        lost.push_back(l);
    }
    out.firstTransmissionLosses = lost.size();
    // The fullest queue a loss met: a drop-tail queue drops when full, so the segments
    // sent just before its drops saw it so.
    double fullQueueMs = cumulativeRiseMs;
    for (const Lost& l : lost)
        fullQueueMs = std::max(fullQueueMs, l.queueBeforeMs);
    for (std::size_t i = 0; i < lost.size(); ++i) {
        const bool alone = (i == 0 || lost[i].index - lost[i - 1].index > kLoneSpan) &&
                           (i + 1 == lost.size() || lost[i + 1].index - lost[i].index > kLoneSpan);
        if (alone && lost[i].queueBeforeMs >= 0 && lost[i].queueBeforeMs < fullQueueMs / 2)
            out.loneLosses.push_back({lost[i].index, lost[i].queueBeforeMs, lost[i].sequence, lost[i].sentNs});
    }

    // The SACKs' sustained rise (the median of kSustainedSamples consecutive samples) while a
    // lone loss away from the queue holds the cumulative ACK: what filled the queue
    // meanwhile is acknowledged only by them. Behind the queue's own drops the
    // cumulative ACK had already seen it fill.
    std::vector<double> held;
    for (const SackRtt& r : sackRtt)
        if (std::any_of(out.loneLosses.begin(), out.loneLosses.end(),
                        [&](const SackReadings::LoneLoss& l) { return l.sequence == r.heldAt; }))
            held.push_back(r.ms);
    out.sackedRttSamples = held.size();
    if (held.size() >= kSustainedSamples)
        out.sackedRttRiseMs = std::max(out.sackedRttRiseMs, largestSustained(held) - rttMinMs);
    return out;
}

} // namespace windscope::analysis::replay
