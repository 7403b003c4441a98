// SPDX-License-Identifier: GPL-3.0-or-later
#include "veno.h"

#include "linux_window.h"
#include "newreno.h"

#include <algorithm>

namespace windscope::analysis::cwnd {

void VenoModel::pktsAcked(SenderState&, const AckEvent& ack)
{
    if (ack.rttNs <= 0)
        return;
    // "Never allow zero rtt or baseRTT": vrtt = rtt_us + 1.
    const auto vrtt = static_cast<std::uint32_t>(std::min<std::int64_t>(ack.rttNs / 1000 + 1, 0x7ffffffe));
    m_baseRttUs = std::min(m_baseRttUs, vrtt);
    m_minRttUs = std::min(m_minRttUs, vrtt);
    ++m_cntRtt;
}

void VenoModel::ns3IncreaseWindow(SenderState& state, const AckEvent& ack)
{
    // TcpVeno::IncreaseWindow(): diff from this RTT's minimum (reset below, so in effect
    // the last sample), in whole segments, m_beta = 3.
    const std::uint64_t cwnd = state.cwndSegments();
    if (m_minRttUs != 0x7fffffff) {
        const auto target = static_cast<std::uint64_t>(static_cast<double>(cwnd) * m_baseRttUs / m_minRttUs);
        m_diff = (cwnd > target ? cwnd - target : 0) << kParamShift;
    } else {
        m_diff = cwnd << kParamShift; // m_minRtt = Time::Max(): target 0
    }
    if (m_cntRtt <= 2) {
        ns3NewRenoIncreaseWindow(state, ack.ackedSegments);
    } else if (state.cwnd < state.ssthresh) {
        ns3NewRenoIncreaseWindow(state, ack.ackedSegments);
    } else if (m_diff < kBeta) {
        ns3NewRenoCongestionAvoidance(state, ack.ackedSegments);
    } else {
        // Every other call: TcpVeno's "every other RTT" as it counts.
        if (m_inc)
            ns3NewRenoCongestionAvoidance(state, ack.ackedSegments);
        m_inc = !m_inc;
    }
    // "Reset cntRtt & minRtt every RTT", done on every call.
    m_cntRtt = 0;
    m_minRttUs = 0x7fffffff;
}

void VenoModel::increaseWindow(SenderState& state, const AckEvent& ack)
{
    if (m_stack == ModelStack::Ns3) {
        ns3IncreaseWindow(state, ack);
        return;
    }
    if (!state.cwndLimited)
        return;
    std::uint32_t acked = ack.ackedSegments;
    if (m_cntRtt <= 2) {
        // Too few RTT samples: tcp_reno_cong_avoid().
        if (state.inSlowStart()) {
            acked = linuxSlowStart(state, acked);
            if (acked == 0)
                return;
        }
        linuxCongAvoidAi(state, state.cwndSegments(), acked);
        m_minRttUs = 0x7fffffff;
        return;
    }
    const std::uint64_t cwnd = state.cwndSegments();
    const std::uint64_t target = (cwnd * m_baseRttUs << kParamShift) / std::max<std::uint32_t>(m_minRttUs, 1);
    const std::uint64_t scaled = cwnd << kParamShift;
    m_diff = scaled > target ? scaled - target : 0;
    bool grow = true;
    if (state.inSlowStart()) {
        acked = linuxSlowStart(state, acked);
        grow = acked != 0;
    }
    if (grow) {
        if (m_diff < kBeta) {
            // Available bandwidth not fully used: Reno's linear increase.
            linuxCongAvoidAi(state, state.cwndSegments(), acked);
        } else if (state.cwndCount >= state.cwndSegments()) {
            // Backlog at the bottleneck: one segment every other RTT.
            if (m_inc) {
                state.setCwndSegments(state.cwndSegments() + 1);
                m_inc = false;
            } else {
                m_inc = true;
            }
            state.cwndCount = 0;
        } else {
            state.cwndCount += acked;
        }
    }
    if (state.cwndSegments() < 2)
        state.setCwndSegments(2);
    // "Wipe the slate clean for the next rtt."
    m_minRttUs = 0x7fffffff;
}

std::uint64_t VenoModel::ssthresh(const SenderState& state, std::uint64_t flightBytes)
{
    if (m_stack == ModelStack::Ns3) {
        const std::uint64_t bytes = m_diff < kBeta ? flightBytes * 4 / 5 : flightBytes / 2;
        return std::max<std::uint64_t>(bytes, 2ull * state.mss);
    }
    const std::uint64_t cwnd = state.cwndSegments();
    const std::uint64_t segments = m_diff < kBeta ? cwnd * 4 / 5 : cwnd / 2;
    return std::max<std::uint64_t>(segments, 2) * state.mss;
}

} // namespace windscope::analysis::cwnd
