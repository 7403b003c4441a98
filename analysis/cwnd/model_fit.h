// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Replays one direction of a connection through one congestion-control model: the
// ACKs drive the model (RFC 5681 growth, the model's ssthresh on loss), the sender's
// own retransmissions say when it entered loss recovery (a re-send outside recovery:
// RFC 6675 / RACK fast recovery; a re-send flagged kRtoTimeout: RFC 6298 timeout), and
// the shared loss recovery (analysis/sender/loss_recovery.h, the simulator's too) sets
// the window from there: PRR (RFC 6937, Linux tcp_cwnd_reduction()) during recovery,
// Linux's undo (tcp_try_undo_recovery(), tcp_packet_delayed()) when the timestamps or
// D-SACKs prove the retransmission spurious. The result is one sample per data
// segment, with how well the model explained what the sender did.

#include "analysis/sender/congestion_model.h"
#include "flow_events.h"
#include "scoreboard.h"

#include <cstdint>
#include <unordered_map>
#include <vector>

namespace windscope::analysis::cwnd {

// What the sender was doing when it sent a segment. RwndLimited (the receive window,
// or the send buffer: the most the sender ever had in flight) and AppLimited mark
// moments where the window in use was not cwnd, so cwnd is not observable there.
enum class SenderPhase : std::uint8_t {
    SlowStart,
    CongestionAvoidance,
    FastRecovery,
    Loss,
    Persist,
    RwndLimited,
    AppLimited,
    NotFollowed,
};
const char* senderPhaseName(SenderPhase phase);

struct CwndSample
{
    std::uint64_t row = 0;          // data segment, row in CaptureTables::tcp
    std::uint64_t cwndBytes = 0;
    std::uint64_t ssthreshBytes = kInfiniteSsthresh;
    std::uint64_t pipeBytes = 0;    // RFC 6675 pipe after the segment was sent
    std::uint64_t rwndBytes = 0;    // receive window the sender knew
    SenderPhase phase = SenderPhase::SlowStart;

    // What the sender could have in flight: the smaller of cwnd and the receive window
    // (cwnd alone where no window was known yet).
    std::uint64_t effectiveWindowBytes() const { return rwndBytes > 0 ? std::min(cwndBytes, rwndBytes) : cwndBytes; }
};

struct ModelFit
{
    std::string_view model;
    // The stack whose code the model was replayed as (a model both stacks implement is
    // tried as each where its slow start allows).
    ModelStack stack = ModelStack::Linux;
    // Sends that put more in flight than the model's cwnd allows, out of all sends.
    std::uint64_t sends = 0, violations = 0;
    // At the end of each burst while cwnd-limited: |pipe - cwnd| / cwnd, averaged.
    std::uint64_t burstEnds = 0;
    double meanGap = 0;
    std::uint64_t lossEpisodes = 0;
    // The ssthresh set at each loss (fast recovery, timeout, backed-off timeout), in
    // whole segments, folded in order: two fits with the same value set the same windows
    // after every loss.
    std::uint64_t lossWindows = 0;
    // ModelTraits::growthOf of the model as replayed.
    std::string_view growthOf;
    // Its loss rule set the windows its growth model's did at every loss, and the fit
    // above is that model's (the inference's choice, not the replay's own numbers).
    bool standsAtGrowthFit = false;
    // Lower is better: the violation rate weighs double the gap.
    double cost() const;
};

struct ReplayResult
{
    ModelFit fit;
    std::vector<CwndSample> samples;
    // The fit's cost up to the first loss episode (all of it without one): the slow
    // start alone, where only the growth rule -- the stack's -- is at work.
    double costBeforeFirstLoss = 0;
};

// Buffers one replay leaves behind for the next on the same thread: a flow's replays
// each need a send-time queue and a sample per data segment, and allocating them afresh
// for every candidate model cost more (page faults on megabytes of new memory) than
// the replay's arithmetic. Hand a result's samples back with recycle() once they are
// not needed.
struct ReplayScratch
{
    std::vector<CwndSample> spareSamples;
    struct Sent
    {
        std::int64_t end, timeNs;
        bool resent;
    };
    std::vector<Sent> sent;
    std::unordered_map<std::int64_t, std::int64_t> resentAt;

    void recycle(std::vector<CwndSample>&& samples)
    {
        if (samples.capacity() > spareSamples.capacity())
            spareSamples = std::move(samples);
    }
};

// scratch: buffers to reuse (nullptr: fresh ones); the result does not depend on it.
ReplayResult replayFlow(const FlowEvents& flow, const CongestionModel& model, bool keepSamples,
                        ReplayScratch* scratch = nullptr);

} // namespace windscope::analysis::cwnd
