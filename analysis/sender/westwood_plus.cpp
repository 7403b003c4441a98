// SPDX-License-Identifier: GPL-3.0-or-later
#include "westwood_plus.h"

#include "linux_window.h"

#include <algorithm>

namespace windscope::analysis::cwnd {

namespace {
constexpr std::int64_t kRttMinNs = 50'000'000; // TCP_WESTWOOD_RTT_MIN (HZ / 20)
}

void WestwoodPlusModel::increaseWindow(SenderState& state, const AckEvent& ack)
{
    // tcp_westwood_info's cong_avoid is tcp_reno_cong_avoid().
    linuxRenoCongAvoid(state, ack);
}

void WestwoodPlusModel::pktsAcked(SenderState& state, const AckEvent& ack)
{
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
    (void)state;
}

std::uint64_t WestwoodPlusModel::ssthresh(const SenderState& state, std::uint64_t)
{
    if (m_firstSample || state.minRttNs <= 0)
        return std::max<std::uint64_t>(state.cwndSegments() / 2, 2) * state.mss;
    const double bdpBytes = m_bwEst * static_cast<double>(state.minRttNs) / 1e9;
    const auto segments = static_cast<std::uint64_t>(bdpBytes / state.mss);
    return std::max<std::uint64_t>(segments, 2) * state.mss;
}

} // namespace windscope::analysis::cwnd
