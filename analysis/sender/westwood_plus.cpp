// SPDX-License-Identifier: GPL-3.0-or-later
#include "westwood_plus.h"

#include "linux_window.h"
#include "newreno.h"

#include <algorithm>

namespace windscope::analysis::cwnd {

namespace {
constexpr std::int64_t kRttMinNs = 50'000'000; // TCP_WESTWOOD_RTT_MIN (HZ / 20)
constexpr double kTustinAlpha = 0.9;           // ns-3 TcpWestwood's Tustin filter gain
}

void WestwoodPlusModel::increaseWindow(SenderState& state, const AckEvent& ack)
{
    if (m_stack == ModelStack::Ns3) {
        // TcpWestwood inherits TcpNewReno::IncreaseWindow().
        ns3NewRenoIncreaseWindow(state, ack.ackedSegments);
        return;
    }
    // tcp_westwood_info's cong_avoid is tcp_reno_cong_avoid().
    linuxRenoCongAvoid(state, ack);
}

void WestwoodPlusModel::ns3EstimateDue(std::int64_t nowNs, std::uint32_t mss)
{
    // TcpWestwood::EstimateBW(), run by the event PktsAcked() scheduled one RTT after
    // the first ACK of the period: the segments acked since, over that RTT.
    if (m_estimateAtNs < 0 || nowNs < m_estimateAtNs)
        return;
    const double sample = static_cast<double>(m_ackedSegments * mss) * 1e9 / static_cast<double>(m_estimateRttNs);
    m_ackedSegments = 0;
    m_estimateAtNs = -1;
    // TcpWestwood::Filtering(), Tustin: bw = a * bw + (1 - a) * (sample + last sample) / 2.
    m_bwEst = kTustinAlpha * m_lastBw + (1 - kTustinAlpha) * (sample + m_lastSampleBw) / 2;
    m_lastSampleBw = sample;
    m_lastBw = m_bwEst;
    m_firstSample = false;
}

void WestwoodPlusModel::ns3PktsAcked(const SenderState& state, const AckEvent& ack)
{
    ns3EstimateDue(ack.nowNs, state.mss);
    // ns-3 hands PktsAcked() the sender's last RTT (m_lastRtt), kept across ACKs that
    // gave no new sample; zero before the first, when nothing is counted.
    if (ack.rttNs > 0)
        m_rttNs = ack.rttNs;
    if (m_rttNs <= 0)
        return;
    m_ackedSegments += ack.ackedSegments;
    if (m_estimateAtNs < 0) {
        m_estimateAtNs = ack.nowNs + m_rttNs;
        m_estimateRttNs = m_rttNs;
    }
}

void WestwoodPlusModel::pktsAcked(SenderState& state, const AckEvent& ack)
{
    if (m_stack == ModelStack::Ns3) {
        ns3PktsAcked(state, ack);
        return;
    }
    if (ack.rttNs > 0)
        m_rttNs = ack.rttNs;
    if (m_rttWinStartNs < 0) {
        m_rttWinStartNs = ack.nowNs;
        return;
    }
    m_bk += ack.ackedBytes;
    // westwood_update_window(): one bandwidth sample per max(RTT, 50 ms).
    const std::int64_t delta = ack.nowNs - m_rttWinStartNs;
    if (delta > std::max(m_rttNs, kRttMinNs)) {
        const double sample = static_cast<double>(m_bk) * 1e9 / static_cast<double>(delta);
        if (m_firstSample) {
            // westwood_filter(): the first sample seeds both filters.
            m_bwNsEst = sample;
            m_bwEst = sample;
            m_firstSample = false;
        } else {
            m_bwNsEst = (7 * m_bwNsEst + sample) / 8;
            m_bwEst = (7 * m_bwEst + m_bwNsEst) / 8;
        }
        m_bk = 0;
        m_rttWinStartNs = ack.nowNs;
    }
}

std::uint64_t WestwoodPlusModel::ssthresh(const SenderState& state, std::uint64_t)
{
    if (m_stack == ModelStack::Ns3) {
        // TcpWestwood::GetSsThresh(): m_currentBW times m_minRtt, in bytes; m_currentBW
        // is 0 until the first estimate.
        ns3EstimateDue(state.nowNs, state.mss);
        const double minRttS = state.minRttNs > 0 ? static_cast<double>(state.minRttNs) / 1e9 : 0;
        const auto bytes = static_cast<std::uint64_t>(m_bwEst * minRttS);
        return std::max<std::uint64_t>(2ull * state.mss, bytes);
    }
    if (m_firstSample || state.minRttNs <= 0)
        return std::max<std::uint64_t>(state.cwndSegments() / 2, 2) * state.mss;
    const double bdpBytes = m_bwEst * static_cast<double>(state.minRttNs) / 1e9;
    const auto segments = static_cast<std::uint64_t>(bdpBytes / state.mss);
    return std::max<std::uint64_t>(segments, 2) * state.mss;
}

} // namespace windscope::analysis::cwnd
