// SPDX-License-Identifier: GPL-3.0-or-later
#include "reno.h"

#include "linux_window.h"

#include <algorithm>

namespace windscope::analysis::cwnd {

void RenoModel::increaseWindow(SenderState& state, const AckEvent& ack)
{
    if (m_stack == ModelStack::Linux) {
        linuxRenoCongAvoid(state, ack);
        return;
    }
    const std::uint32_t acked = ack.ackedSegments;
    if (state.cwnd < state.ssthresh) {
        // TcpLinuxReno::SlowStart(): up to ssthresh; IncreaseWindow() drops the rest.
        if (acked >= 1)
            state.cwnd = std::min(state.cwnd + std::uint64_t{acked} * state.mss, state.ssthresh);
        return;
    }
    // TcpLinuxReno::CongestionAvoidance(): a whole window of segments acked per segment
    // added, the counter checked before and after this ACK's segments are added.
    const std::uint32_t w = std::max<std::uint32_t>(1, state.cwndSegments());
    if (m_ns3CwndCnt >= w) {
        m_ns3CwndCnt = 0;
        state.cwnd += state.mss;
    }
    m_ns3CwndCnt += acked;
    if (m_ns3CwndCnt >= w) {
        const std::uint32_t delta = m_ns3CwndCnt / w;
        m_ns3CwndCnt -= delta * w;
        state.cwnd += std::uint64_t{delta} * state.mss;
    }
}

std::uint64_t RenoModel::ssthresh(const SenderState& state, std::uint64_t)
{
    if (m_stack == ModelStack::Ns3)
        return std::max<std::uint64_t>(2ull * state.mss, state.cwnd / 2);
    return std::max<std::uint64_t>(state.cwndSegments() / 2, 2) * state.mss;
}

} // namespace windscope::analysis::cwnd
