// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The summary of one transfer, from TcpAnalysis for a capture and a replay run alike
// (the CLI contract's M: goodput_bps, completion_s, retransmissions, rto_timeouts), and
// the calibration error of a baseline run against its capture.

#include "analysis/tcp/tcp_analysis.h"
#include "analysis/replay/sim/simulator.h"

#include <string>
#include <utility>
#include <vector>

namespace windscope::analysis::replay {

struct Metrics
{
    double goodputBps = 0;          // DirectionStats::goodputBps of the data sender
    double completionS = 0;         // first to last packet of the connection
    std::uint64_t retransmissions = 0;
    std::uint64_t rtoTimeouts = 0;
    std::uint64_t bytes = 0;        // unique bytes sent
    // Segments below the highest sequence sent that the analysis calls out of order
    // rather than retransmitted (Wireshark's 3 ms rule): from a sender, also resent data.
    std::uint64_t outOfOrder = 0;
    // Every data segment starting below the highest sequence sent before it: what the
    // sender resent, counted by sequence alone (retransmissions + outOfOrder). On the
    // lab's sender-side captures it equals the kernel's retransmission count, where
    // the Wireshark-style count above misses resends that follow within 3 ms.
    std::uint64_t resentSegments = 0;
    // Loss episodes: runs of resent segments, a new one when a resend comes more than
    // one mean RTT after the start of the last. What cuts a window is an episode, not
    // each segment of a burst (a scan or a queue overflow drops several at once).
    std::uint64_t lossEpisodes = 0;
    // Of those, the ones that began while the RTT said the bottleneck queue was less
    // than half full (the last sample before the episode under the midpoint of the
    // minimum and the 95th percentile): not a drop at a full queue, so random loss or
    // an outage.
    std::uint64_t lossEpisodesOffQueue = 0;
    std::uint64_t dataPackets = 0;
};

Metrics metricsOf(const dissect::CaptureTables& tables, const TcpAnalysis& analysis, std::size_t connection,
                  int sender);
// The capture times of the data segments the sender resent (Metrics::resentSegments:
// retransmissions and those called out of order), in capture order.
std::vector<std::int64_t> senderResendTimesNs(const dissect::CaptureTables& tables,
                                              const TcpAnalysis& analysis, std::size_t connection,
                                              int sender);
// Runs analyzeTcp over the run's trace tables (traceToTables(): over the span a capture
// cut mid-transfer read, Scenario::measuredOverS).
Metrics metricsOf(const SimResult& run);

// The rule of Metrics::lossEpisodes and lossEpisodesOffQueue, for every place that sees
// losses (the sender's resends, the holes at a receiver, a run's drops): given the
// RTT samples by time and the episode length (a mean RTT), losses are fed in time
// order; one more than an episode length after the start of the last begins a new
// episode, which is off the queue when the last RTT sample before it was under the
// midpoint of the samples' minimum and 95th percentile (at least 1 ms above the minimum:
// RTT noise is not a queue).
class LossEpisodeCounter
{
public:
    // rttByTimeNs: (time, RTT) in ns, any order.
    LossEpisodeCounter(std::vector<std::pair<std::int64_t, std::int64_t>> rttByTimeNs, std::int64_t episodeNs);
    // queueRttNs: where known (> 0), the round trip of the packet just ahead of the loss,
    // which waited behind the queue the loss met; the last sample before the loss showed
    // may be a later burst's first packet, which found the queue drained.
    void loss(std::int64_t timeNs, std::int64_t queueRttNs = -1);
    std::uint64_t episodes() const { return m_episodes; }
    std::uint64_t offQueue() const { return m_offQueue; }
    // When each episode began, in the order fed.
    const std::vector<std::int64_t>& starts() const { return m_starts; }

private:
    std::vector<std::pair<std::int64_t, std::int64_t>> m_rtt;
    std::int64_t m_halfQueueNs;
    std::int64_t m_episodeNs;
    std::int64_t m_episodeStart = 0;
    std::uint64_t m_episodes = 0, m_offQueue = 0;
    std::vector<std::int64_t> m_starts;
};
// The run's loss episodes as a capture next to its receiver counts them (downstream_view.h
// holeEpisodes): only the holes, the first transmissions the path dropped that a later
// arrival revealed, a new episode more than a mean RTT after the start of the last. A
// capture there does not show a resend lost again (each of a handoff's backed-off
// timeouts is an episode at the sender), nor a flight lost whole and resent in order,
// so the random-loss fit compares like with like. Replaces lossEpisodes and
// lossEpisodesOffQueue.
void countLossesAtReceiver(const SimResult& run, Metrics& m);

struct CalibrationError
{
    // Relative errors |baseline - capture| / capture (counts: over max(capture, 1)).
    // retransmissions compares resentSegments, the count that matches the sender's own.
    double goodput = 0, completion = 0, retransmissions = 0, rtoTimeouts = 0;
    double threshold = 0.10;        // on goodput
    bool exceeded = false;
    // False when the capture's sender is one the simulator has no model of: the
    // errors then measure the stand-in, and the warning says so.
    bool senderModelled = true;
    std::string warning;            // set when exceeded or the sender is not modelled
    // A periodic scan's phase against the sender's rhythm decides which flights it
    // meets, and small shifts of it change the outcome: the baseline run again with
    // the scan shifted by each eighth of its period, the range of goodput it gave
    // (phaseRuns 0: no periodic scan, not run). Each shift is the mean over the same
    // seeds as the baseline, so the range is the phase's effect, not the draws'.
    std::uint32_t phaseRuns = 0;
    double phaseGoodputMinBps = 0, phaseGoodputMaxBps = 0;
    double capturedGoodputBps = 0;
    bool captureWithinPhaseRange() const
    {
        return phaseRuns > 0 && capturedGoodputBps >= phaseGoodputMinBps && capturedGoodputBps <= phaseGoodputMaxBps;
    }
    // The baseline is the mean over seedRuns seeds when the scenario has a random
    // element (1: one run, deterministic or asked for); the range of goodput over them.
    // A capture is one draw too: inside that range, its distance from the mean is no
    // more than another seed's.
    std::uint32_t seedRuns = 1;
    double seedGoodputMinBps = 0, seedGoodputMaxBps = 0;
    bool captureWithinSeedRange() const
    {
        return seedRuns > 1 && capturedGoodputBps >= seedGoodputMinBps && capturedGoodputBps <= seedGoodputMaxBps;
    }
};

CalibrationError calibrationError(const Metrics& capture, const Metrics& baseline, double threshold = 0.10);

} // namespace windscope::analysis::replay
