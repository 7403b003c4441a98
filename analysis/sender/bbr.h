// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// BBR as Linux's mainline tcp_bbr.c runs it (v1): a rate-based sender. It estimates
// the bottleneck bandwidth (the largest delivery rate of the last ten round trips)
// and the minimum RTT (of the last ten seconds), paces at a gain times that bandwidth
// and caps its flight at a gain times their product. Startup (gain 2/ln 2) until the
// bandwidth stops growing by 25% for three rounds, Drain until the queue it built is
// gone, then ProbeBW cycles its pacing gain 1.25, 0.75, then 1 for six round trips,
// and ProbeRTT (four segments for 200 ms) when the minimum RTT has not been seen for
// ten seconds. Loss does not cut the window: the first round of a recovery keeps
// the flight to what was delivered (packet conservation), and the window is restored
// after.
//
// Simplified: delivery rate is sampled per round trip (bytes delivered over the
// round's duration) instead of per packet, and the ProbeBW cycle starts at its
// cruising phase instead of a random one, so runs stay deterministic.

#include "congestion_model.h"

#include <array>

namespace windscope::analysis::cwnd {

class BbrModel final : public CongestionModel
{
public:
    std::string_view name() const override { return "bbr"; }
    std::unique_ptr<CongestionModel> clone() const override { return std::make_unique<BbrModel>(*this); }
    // Linux tcp_bbr: rate-based (cong_control), RACK-TLP.
    ModelTraits traits() const override
    {
        return {.rateBased = true, .rackTlpByDefault = true, .cwndLimited = CwndLimitedRule::ModelSets};
    }
    double pacingRateBytesPerSecond(const SenderState& state) const override;
    void increaseWindow(SenderState& state, const AckEvent& ack) override;
    // bbr_ssthresh(): the window is saved, ssthresh is left as it is.
    std::uint64_t ssthresh(const SenderState& state, std::uint64_t flightBytes) override;
    void congestionStateSet(SenderState& state, CaState next) override;

    enum class Mode : std::uint8_t { Startup, Drain, ProbeBw, ProbeRtt };
    Mode mode() const { return m_mode; }
    double bandwidthBytesPerSecond() const;

private:
    double bdpBytes(double gain) const;
    void startRound(const SenderState& state, const AckEvent& ack);
    void updateMode(SenderState& state, const AckEvent& ack);

    Mode m_mode = Mode::Startup;
    double m_pacingGain = 0, m_cwndGain = 0;
    // Bandwidth samples of the last rounds (bytes per second), a ring.
    std::array<double, 10> m_bwSamples{};
    std::size_t m_bwNext = 0;
    std::uint64_t m_rounds = 0;
    std::uint64_t m_delivered = 0;           // bytes, since the start
    std::uint64_t m_nextRoundDelivered = 0;  // the round ends when this much was delivered
    std::uint64_t m_roundStartDelivered = 0;
    std::int64_t m_roundStartNs = -1;
    bool m_roundStart = false;
    // Startup's end: the bandwidth did not grow by 25% for three rounds.
    double m_fullBw = 0;
    std::uint32_t m_fullBwRounds = 0;
    bool m_fullBwReached = false;
    // Minimum RTT of the last ten seconds, and ProbeRTT.
    std::int64_t m_minRttNs = -1, m_minRttStampNs = 0;
    std::int64_t m_probeRttDoneNs = -1;
    // ProbeBW's gain cycle.
    std::uint32_t m_cycleIndex = 0;
    std::int64_t m_cycleStartNs = 0;
    // Recovery: packet conservation for its first round, the window restored after.
    bool m_packetConservation = false;
    std::uint64_t m_conservationEndDelivered = 0;
    std::uint64_t m_priorCwnd = 0;
    bool m_initialised = false;
};

} // namespace windscope::analysis::cwnd
