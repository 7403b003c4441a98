// SPDX-License-Identifier: GPL-3.0-or-later
#include "bbr.h"

#include <algorithm>
#include <cmath>

namespace windscope::analysis::cwnd {

namespace {
constexpr double kHighGain = 2885.0 / 1000;      // BBR_UNIT * 2885 / 1000 + 1: 2/ln(2)
constexpr double kDrainGain = 1000.0 / 2885;
constexpr double kCwndGain = 2.0;
constexpr std::array<double, 8> kPacingGains = {1.25, 0.75, 1, 1, 1, 1, 1, 1};
constexpr std::uint32_t kCruiseIndex = 2;         // the cycle's first phase at gain 1
constexpr double kFullBwGrowth = 1.25;
constexpr std::uint32_t kFullBwRounds = 3;
constexpr std::int64_t kMinRttWindowNs = 10'000'000'000;
constexpr std::int64_t kProbeRttNs = 200'000'000;
constexpr std::uint32_t kMinCwndSegments = 4;     // bbr_cwnd_min_target
constexpr double kPacingMargin = 0.99;            // bbr_pacing_margin_percent: 1%
constexpr std::uint32_t kQuantumSegments = 3;     // bbr_quantization_budget(): 3 send quanta
} // namespace

double BbrModel::bandwidthBytesPerSecond() const
{
    return *std::max_element(m_bwSamples.begin(), m_bwSamples.end());
}

double BbrModel::bdpBytes(double gain) const
{
    const double bw = bandwidthBytesPerSecond();
    if (bw <= 0 || m_minRttNs <= 0)
        return 0;
    return gain * bw * static_cast<double>(m_minRttNs) / 1e9;
}

double BbrModel::pacingRateBytesPerSecond(const SenderState& state) const
{
    const double bw = bandwidthBytesPerSecond();
    if (bw > 0)
        return m_pacingGain * bw * kPacingMargin;
    // bbr_init_pacing_rate_from_rtt(): the initial window over the first RTT (1 ms
    // before any sample), at startup's gain.
    const double rttS = state.minRttNs > 0 ? static_cast<double>(state.minRttNs) / 1e9 : 0.001;
    return kHighGain * static_cast<double>(state.cwnd) / rttS;
}

std::uint64_t BbrModel::ssthresh(const SenderState& state, std::uint64_t)
{
    m_priorCwnd = std::max(m_priorCwnd, state.cwnd);
    return state.ssthresh;
}

void BbrModel::congestionStateSet(SenderState& state, CaState next)
{
    // bbr_set_cwnd_to_recover_or_restore() and bbr_cwnd_event(CA_EVENT_LOSS).
    if (next == CaState::Recovery && state.state < CaState::Recovery) {
        m_priorCwnd = state.cwnd;
        m_packetConservation = true;
        m_conservationEndDelivered = m_delivered + state.pipeBytes;
    } else if (next == CaState::Loss) {
        m_priorCwnd = std::max(m_priorCwnd, state.cwnd);
        m_packetConservation = false;
        m_fullBw = 0;
        m_fullBwRounds = 0;
    } else if (next < CaState::Recovery && state.state >= CaState::Recovery) {
        state.cwnd = std::max(state.cwnd, m_priorCwnd);
        m_packetConservation = false;
        m_priorCwnd = 0;
    }
}

void BbrModel::startRound(const SenderState& state, const AckEvent& ack)
{
    // A round trip ends when the data in flight at its start has been delivered.
    m_roundStart = false;
    if (m_roundStartNs < 0) {
        m_roundStartNs = ack.nowNs;
        m_roundStartDelivered = m_delivered;
        m_nextRoundDelivered = m_delivered + std::max<std::uint64_t>(state.pipeBytes, state.mss);
        return;
    }
    if (m_delivered < m_nextRoundDelivered)
        return;
    const std::int64_t elapsed = ack.nowNs - m_roundStartNs;
    if (elapsed > 0) {
        m_bwSamples[m_bwNext] = static_cast<double>(m_delivered - m_roundStartDelivered) * 1e9 /
                                static_cast<double>(elapsed);
        m_bwNext = (m_bwNext + 1) % m_bwSamples.size();
    }
    ++m_rounds;
    m_roundStart = true;
    m_roundStartNs = ack.nowNs;
    m_roundStartDelivered = m_delivered;
    m_nextRoundDelivered = m_delivered + std::max<std::uint64_t>(state.pipeBytes, state.mss);
    if (m_packetConservation && m_delivered >= m_conservationEndDelivered)
        m_packetConservation = false;
}

void BbrModel::updateMode(SenderState& state, const AckEvent& ack)
{
    const std::int64_t now = ack.nowNs;
    // bbr_check_full_bw_reached(): at each round start while not app-limited.
    if (!m_fullBwReached && m_roundStart) {
        const double bw = bandwidthBytesPerSecond();
        if (bw >= m_fullBw * kFullBwGrowth) {
            m_fullBw = bw;
            m_fullBwRounds = 0;
        } else if (++m_fullBwRounds >= kFullBwRounds) {
            m_fullBwReached = true;
        }
    }
    // bbr_check_drain().
    if (m_mode == Mode::Startup && m_fullBwReached) {
        m_mode = Mode::Drain;
        m_pacingGain = kDrainGain;
        m_cwndGain = kHighGain;
    }
    if (m_mode == Mode::Drain && static_cast<double>(state.pipeBytes) <= bdpBytes(1.0)) {
        m_mode = Mode::ProbeBw;
        m_cycleIndex = kCruiseIndex;
        m_cycleStartNs = now;
        m_pacingGain = kPacingGains[m_cycleIndex];
        m_cwndGain = kCwndGain;
    }
    // bbr_update_cycle_phase(): a phase lasts a minimum RTT; probing up also waits for
    // the flight to reach its target, draining down for the flight to fall to the BDP.
    if (m_mode == Mode::ProbeBw && m_minRttNs > 0) {
        bool next = now - m_cycleStartNs > m_minRttNs;
        const double gain = kPacingGains[m_cycleIndex];
        const auto inflight = static_cast<double>(state.pipeBytes);
        if (gain > 1)
            next = next && inflight >= bdpBytes(gain);
        else if (gain < 1)
            next = next || inflight <= bdpBytes(1.0);
        if (next) {
            m_cycleIndex = (m_cycleIndex + 1) % kPacingGains.size();
            m_cycleStartNs = now;
            m_pacingGain = kPacingGains[m_cycleIndex];
        }
    }
    // bbr_update_min_rtt(): a sample at or below the minimum, or the minimum expired.
    const bool expired = m_minRttNs > 0 && now - m_minRttStampNs > kMinRttWindowNs;
    if (ack.rttNs > 0 && (m_minRttNs < 0 || ack.rttNs <= m_minRttNs || expired)) {
        m_minRttNs = ack.rttNs;
        m_minRttStampNs = now;
    }
    if (expired && m_mode != Mode::ProbeRtt) {
        m_mode = Mode::ProbeRtt;
        m_pacingGain = 1;
        m_cwndGain = 1;
        m_probeRttDoneNs = -1;
        m_priorCwnd = std::max(m_priorCwnd, state.cwnd);
    }
    if (m_mode == Mode::ProbeRtt) {
        if (m_probeRttDoneNs < 0 && state.pipeBytes <= kMinCwndSegments * state.mss)
            m_probeRttDoneNs = now + kProbeRttNs;
        if (m_probeRttDoneNs >= 0 && now >= m_probeRttDoneNs) {
            m_minRttStampNs = now;
            state.cwnd = std::max(state.cwnd, m_priorCwnd);
            m_priorCwnd = 0;
            if (m_fullBwReached) {
                m_mode = Mode::ProbeBw;
                m_cycleIndex = kCruiseIndex;
                m_cycleStartNs = now;
                m_pacingGain = kPacingGains[m_cycleIndex];
                m_cwndGain = kCwndGain;
            } else {
                m_mode = Mode::Startup;
                m_pacingGain = m_cwndGain = kHighGain;
            }
        }
    }
}

void BbrModel::increaseWindow(SenderState& state, const AckEvent& ack)
{
    if (!m_initialised) {
        m_initialised = true;
        m_pacingGain = m_cwndGain = kHighGain;
    }
    m_delivered += ack.ackedBytes;
    startRound(state, ack);
    updateMode(state, ack);
    // bbr_set_cwnd().
    const std::uint64_t mss = state.mss;
    const double bdp = bdpBytes(m_cwndGain);
    std::uint64_t target = bdp > 0 ? static_cast<std::uint64_t>(bdp) + kQuantumSegments * mss : state.cwnd;
    if (m_mode == Mode::ProbeBw && m_cycleIndex == 0)
        target += 2 * mss;
    target = std::max<std::uint64_t>(target, kMinCwndSegments * mss);
    std::uint64_t cwnd = state.cwnd;
    if (m_packetConservation) {
        cwnd = std::max(cwnd, state.pipeBytes + ack.ackedBytes);
    } else if (m_fullBwReached) {
        cwnd = std::min(cwnd + ack.ackedBytes, target);
    } else if (cwnd < target) {
        cwnd += ack.ackedBytes;
    }
    cwnd = std::max<std::uint64_t>(cwnd, kMinCwndSegments * mss);
    if (m_mode == Mode::ProbeRtt)
        cwnd = std::min<std::uint64_t>(cwnd, kMinCwndSegments * mss);
    state.cwnd = cwnd;
}

} // namespace windscope::analysis::cwnd
