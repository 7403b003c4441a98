// SPDX-License-Identifier: GPL-3.0-or-later
#include "cubic.h"

#include "linux_window.h"

#include <algorithm>
#include <cmath>

namespace windscope::analysis::cwnd {

namespace {

// Module parameters of tcp_cubic.c at their defaults.
constexpr std::uint32_t kBetaScale = 1024;     // BICTCP_BETA_SCALE
constexpr std::uint32_t kBeta = 717;           // beta: multiplicative decrease 717/1024
constexpr std::uint32_t kBicScale = 41;        // bic_scale: C = 41 / 1024 * 10 = 0.4
constexpr int kBicHz = 10;                     // BICTCP_HZ: time in 1/1024 s
constexpr std::uint32_t kHz = 1000;            // CONFIG_HZ the jiffies count in
constexpr std::uint32_t kHystartLowWindow = 16;
constexpr std::uint32_t kHystartAckDeltaUs = 2000;
constexpr std::uint32_t kHystartMinSamples = 8;
constexpr std::uint32_t kHystartDelayMinUs = 4000, kHystartDelayMaxUs = 16000;
// cubictcp_register(): beta_scale = 8*(BETA_SCALE+beta) / 3 / (BETA_SCALE-beta),
// cube_rtt_scale = bic_scale * 10, cube_factor = 2^(10+3*BICTCP_HZ) / cube_rtt_scale.
constexpr std::uint32_t kBetaScaleFriendly = 8 * (kBetaScale + kBeta) / 3 / (kBetaScale - kBeta);
constexpr std::uint64_t kCubeRttScale = kBicScale * 10;
constexpr std::uint64_t kCubeFactor = (1ull << (10 + 3 * kBicHz)) / kCubeRttScale;

// TcpCubic's attributes at their defaults (ns-3 stack).
constexpr double kNs3Beta = 0.7, kNs3C = 0.4;
constexpr std::int64_t kNs3CubicDeltaNs = 10'000'000;         // CubicDelta
constexpr std::int64_t kNs3HystartDelayMinNs = 4'000'000;     // HyStartDelayMin
constexpr std::int64_t kNs3HystartDelayMaxNs = 1'000'000'000; // HyStartDelayMax
constexpr std::int64_t kNs3HystartAckDeltaNs = 2'000'000;     // HyStartAckDelta

std::uint32_t jiffies(std::int64_t ns) { return static_cast<std::uint32_t>(ns / (1'000'000'000 / kHz)); }

// cubic_root(): Linux uses a table plus one Newton-Raphson step; the double cube root
// agrees with it to within one unit.
std::uint32_t cubicRoot(std::uint64_t a) { return static_cast<std::uint32_t>(std::cbrt(static_cast<double>(a))); }

} // namespace

void CubicModel::init(SenderState& state)
{
    m_bic = {};
    m_ns3 = {};
    hystartReset(state);
}

void CubicModel::hystartReset(const SenderState& state)
{
    m_bic.roundStartUs = m_bic.lastAckUs = state.nowNs / 1000;
    m_bic.endSeq = state.sndNxt;
    m_bic.currRttUs = ~0u;
    m_bic.sampleCount = 0;
}

void CubicModel::update(std::uint32_t cwnd, std::uint32_t acked, std::uint32_t now)
{
    Bic& ca = m_bic;
    ca.ackCount += acked;
    if (ca.lastCwnd == cwnd && static_cast<std::int32_t>(now - ca.lastTime) <= static_cast<std::int32_t>(kHz / 32))
        return;
    // "The CUBIC function can update ca->cnt at most once per jiffy."
    if (!(ca.epochStart && now == ca.lastTime)) {
        ca.lastCwnd = cwnd;
        ca.lastTime = now;
        if (ca.epochStart == 0) {
            ca.epochStart = now == 0 ? 1 : now;
            ca.ackCount = acked;
            ca.tcpCwnd = cwnd;
            if (ca.lastMaxCwnd <= cwnd) {
                ca.k = 0;
                ca.originPoint = cwnd;
            } else {
                ca.k = cubicRoot(kCubeFactor * (ca.lastMaxCwnd - cwnd));
                ca.originPoint = ca.lastMaxCwnd;
            }
        }
        // t = elapsed time in 1/1024 s, plus delay_min: the window a segment sent now
        // will find when its ACK returns.
        std::uint64_t t = static_cast<std::uint32_t>(now - ca.epochStart);
        t += ca.delayMinUs / (1'000'000 / kHz);
        t = (t << kBicHz) / kHz;
        const std::uint64_t offs = t < ca.k ? ca.k - t : t - ca.k;
        const std::uint64_t delta = (kCubeRttScale * offs * offs * offs) >> (10 + 3 * kBicHz);
        const std::uint64_t target =
            t < ca.k ? (ca.originPoint > delta ? ca.originPoint - delta : 0) : ca.originPoint + delta;
        if (target > cwnd)
            ca.cnt = static_cast<std::uint32_t>(cwnd / (target - cwnd));
        else
            ca.cnt = 100 * cwnd; // very small increment
        // "The initial growth of cubic function may be too conservative when the
        // available bandwidth is still unknown": at most 5% per RTT.
        if (ca.lastMaxCwnd == 0 && ca.cnt > 20)
            ca.cnt = 20;
    }
    // TCP friendliness (RFC 9438 4.3): never slower than Reno with the same beta.
    const std::uint32_t delta = (cwnd * kBetaScaleFriendly) >> 3;
    if (delta > 0)
        while (ca.ackCount > delta) {
            ca.ackCount -= delta;
            ++ca.tcpCwnd;
        }
    if (ca.tcpCwnd > cwnd) {
        const std::uint32_t maxCnt = cwnd / (ca.tcpCwnd - cwnd);
        if (ca.cnt > maxCnt)
            ca.cnt = maxCnt;
    }
    // At most one segment per two acked: cwnd grows by 1.5x per RTT at most.
    ca.cnt = std::max(ca.cnt, 2u);
}

void CubicModel::increaseWindow(SenderState& state, const AckEvent& ack)
{
    if (m_stack == ModelStack::Ns3) {
        ns3IncreaseWindow(state, ack.ackedSegments);
        return;
    }
    std::uint32_t acked = 0;
    if (!linuxSlowStartPrelude(state, ack, acked))
        return;
    update(state.cwndSegments(), acked, jiffies(state.nowNs));
    linuxCongAvoidAi(state, m_bic.cnt, acked);
}

std::uint64_t CubicModel::ssthresh(const SenderState& state, std::uint64_t)
{
    if (m_stack == ModelStack::Ns3)
        return ns3Ssthresh(state);
    const std::uint32_t cwnd = state.cwndSegments();
    m_bic.epochStart = 0; // end of epoch
    // Fast convergence: release bandwidth to newer flows when W_max shrinks.
    if (cwnd < m_bic.lastMaxCwnd)
        m_bic.lastMaxCwnd = (cwnd * (kBetaScale + kBeta)) / (2 * kBetaScale);
    else
        m_bic.lastMaxCwnd = cwnd;
    return std::max<std::uint64_t>(std::uint64_t{cwnd} * kBeta / kBetaScale, 2) * state.mss;
}

void CubicModel::pktsAcked(SenderState& state, const AckEvent& ack)
{
    if (ack.rttNs < 0)
        return;
    if (m_stack == ModelStack::Ns3) {
        ns3PktsAcked(state, ack);
        return;
    }
    // "Discard delay samples right after fast recovery."
    if (m_bic.epochStart && static_cast<std::int32_t>(jiffies(state.nowNs) - m_bic.epochStart) < static_cast<std::int32_t>(kHz))
        return;
    const auto delay = static_cast<std::uint32_t>(std::max<std::int64_t>(1, ack.rttNs / 1000));
    if (m_bic.delayMinUs == 0 || m_bic.delayMinUs > delay)
        m_bic.delayMinUs = delay;
    if (!m_bic.found && state.inSlowStart())
        hystartUpdate(state, delay);
}

void CubicModel::hystartUpdate(SenderState& state, std::uint32_t delayUs)
{
    Bic& ca = m_bic;
    if (state.sndUna > ca.endSeq)
        hystartReset(state);
    // The rounds are counted from the first ACK on; detection waits for a window of
    // hystart_low_window segments (Linux 5.7+ checks it after the reset).
    if (state.cwndSegments() < kHystartLowWindow)
        return;
    const std::int64_t nowUs = state.nowNs / 1000;
    // Ack train: ACKs still arriving back to back (2 ms apart) more than half the
    // minimum RTT after the round began means the pipe is full. hystart_ack_delay()
    // adds at most 1 ms for senders whose pacing rate lets GSO bursts spread acks.
    if (nowUs - ca.lastAckUs <= kHystartAckDeltaUs) {
        ca.lastAckUs = nowUs;
        const std::int64_t threshold = (std::int64_t{ca.delayMinUs} + 1000) >> 1; // SK_PACING_NONE
        if (nowUs - ca.roundStartUs > threshold) {
            ca.found = true;
            state.ssthresh = state.cwnd;
        }
    }
    // Delay increase: the smallest of the round's first 8 RTT samples above
    // delay_min + clamp(delay_min / 8, 4 ms, 16 ms).
    if (ca.currRttUs > delayUs)
        ca.currRttUs = delayUs;
    if (ca.sampleCount < kHystartMinSamples) {
        ++ca.sampleCount;
    } else if (ca.currRttUs > ca.delayMinUs + std::clamp(ca.delayMinUs >> 3, kHystartDelayMinUs, kHystartDelayMaxUs)) {
        ca.found = true;
        state.ssthresh = state.cwnd;
    }
}

void CubicModel::congestionStateSet(SenderState& state, CaState newState)
{
    if (newState == CaState::Loss && m_stack == ModelStack::Ns3) {
        // CubicReset(): W_max, the origin, K, delay_min and HyStart's verdict; the epoch
        // and the ack count stay. HystartReset().
        m_bic.lastMaxCwnd = 0;
        m_bic.originPoint = 0;
        m_ns3.k = 0;
        m_ns3.delayMinNs = -1;
        m_bic.found = false;
        hystartReset(state);
        m_ns3.currRttNs = -1;
        return;
    }
    if (newState == CaState::Loss) {
        // bictcp_reset() clears everything up to 'unused', W_max and delay_min included.
        const Bic kept = m_bic;
        m_bic = {};
        m_bic.roundStartUs = kept.roundStartUs;
        m_bic.lastAckUs = kept.lastAckUs;
        m_bic.endSeq = kept.endSeq;
        hystartReset(state);
    }
}

void CubicModel::ns3IncreaseWindow(SenderState& state, std::uint32_t acked)
{
    if (state.cwnd < state.ssthresh) {
        if (state.sndUna > m_bic.endSeq) {
            hystartReset(state);
            m_ns3.currRttNs = -1;
        }
        // Byte counting: every segment acked, as Linux (TcpCubic's note on QUICKACK).
        state.cwnd += std::uint64_t{acked} * state.mss;
        acked = 0;
    }
    if (state.cwnd >= state.ssthresh && acked > 0) {
        m_ns3.cwndCnt += acked;
        const std::uint32_t cnt = ns3Update(state);
        // One segment at most per ACK, however many it covered.
        if (m_ns3.cwndCnt >= cnt) {
            state.cwnd += state.mss;
            m_ns3.cwndCnt -= cnt;
        }
    }
}

std::uint32_t CubicModel::ns3Update(const SenderState& state)
{
    const auto segCwnd = static_cast<std::uint32_t>(state.cwnd / state.mss);
    if (m_ns3.epochStartNs < 0) {
        m_ns3.epochStartNs = state.nowNs;
        if (m_bic.lastMaxCwnd <= segCwnd) {
            m_ns3.k = 0;
            m_bic.originPoint = segCwnd;
        } else {
            m_ns3.k = std::cbrt((m_bic.lastMaxCwnd - segCwnd) / kNs3C);
            m_bic.originPoint = m_bic.lastMaxCwnd;
        }
    }
    const double t = static_cast<double>(state.nowNs + std::max<std::int64_t>(0, m_ns3.delayMinNs) -
                                         m_ns3.epochStartNs) / 1e9;
    const double offs = t < m_ns3.k ? m_ns3.k - t : t - m_ns3.k;
    const auto delta = static_cast<std::uint32_t>(kNs3C * offs * offs * offs);
    const std::uint32_t target = t < m_ns3.k ? m_bic.originPoint - delta : m_bic.originPoint + delta;
    std::uint32_t cnt = target > segCwnd ? segCwnd / (target - segCwnd) : 100 * segCwnd;
    if (m_bic.lastMaxCwnd == 0 && cnt > 20)
        cnt = 20;
    return std::max(cnt, 2u);
}

void CubicModel::ns3PktsAcked(SenderState& state, const AckEvent& ack)
{
    if (m_ns3.epochStartNs >= 0 && state.nowNs - m_ns3.epochStartNs < kNs3CubicDeltaNs)
        return;
    if (m_ns3.delayMinNs < 0 || m_ns3.delayMinNs > ack.rttNs)
        m_ns3.delayMinNs = ack.rttNs;
    if (state.cwnd <= state.ssthresh && state.cwndSegments() >= kHystartLowWindow)
        ns3HystartUpdate(state, ack.rttNs);
}

void CubicModel::ns3HystartUpdate(SenderState& state, std::int64_t delayNs)
{
    if (m_bic.found)
        return;
    const std::int64_t nowUs = state.nowNs / 1000;
    // Ack train: back-to-back ACKs a whole delay_min after the round began.
    if (state.nowNs - m_bic.lastAckUs * 1000 <= kNs3HystartAckDeltaNs) {
        m_bic.lastAckUs = nowUs;
        if (state.nowNs - m_bic.roundStartUs * 1000 > m_ns3.delayMinNs)
            m_bic.found = true;
    }
    // Delay: the round's smallest of 8 samples above delay_min plus delay_min clamped.
    if (m_bic.sampleCount < kHystartMinSamples) {
        if (m_ns3.currRttNs < 0 || m_ns3.currRttNs > delayNs)
            m_ns3.currRttNs = delayNs;
        ++m_bic.sampleCount;
    } else if (m_ns3.currRttNs > m_ns3.delayMinNs + std::clamp(m_ns3.delayMinNs, kNs3HystartDelayMinNs,
                                                               kNs3HystartDelayMaxNs)) {
        m_bic.found = true;
    }
    if (m_bic.found)
        state.ssthresh = state.cwnd;
}

std::uint64_t CubicModel::ns3Ssthresh(const SenderState& state)
{
    const auto segCwnd = static_cast<std::uint32_t>(state.cwnd / state.mss);
    if (segCwnd < m_bic.lastMaxCwnd)
        m_bic.lastMaxCwnd = static_cast<std::uint32_t>(segCwnd * (1 + kNs3Beta) / 2);
    else
        m_bic.lastMaxCwnd = segCwnd;
    m_ns3.epochStartNs = -1;
    return std::max<std::uint64_t>(static_cast<std::uint32_t>(segCwnd * kNs3Beta), 2) * state.mss;
}

} // namespace windscope::analysis::cwnd
