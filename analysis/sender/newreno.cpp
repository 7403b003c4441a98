// SPDX-License-Identifier: GPL-3.0-or-later
#include "newreno.h"

#include <algorithm>

namespace windscope::analysis::cwnd {

void NewRenoModel::increaseWindow(SenderState& state, const AckEvent& ack)
{
    ns3NewRenoIncreaseWindow(state, ack.ackedSegments);
}

void ns3NewRenoIncreaseWindow(SenderState& state, std::uint32_t acked)
{
    // TcpNewReno::SlowStart(): one SMSS per ACK however much it covered (RFC 5681
    // (2), cwnd += min(N, SMSS)); the segments beyond the first go on to congestion
    // avoidance once cwnd has reached ssthresh.
    if (state.cwnd < state.ssthresh && acked >= 1) {
        state.cwnd += state.mss;
        acked -= 1;
    }
    // TcpNewReno::CongestionAvoidance(): RFC 5681 (3), once per ACK that acked data,
    // however many segments it covered.
    if (state.cwnd >= state.ssthresh)
        ns3NewRenoCongestionAvoidance(state, acked);
}

void ns3NewRenoCongestionAvoidance(SenderState& state, std::uint32_t acked)
{
    if (acked > 0) {
        const double adder = std::max(1.0, static_cast<double>(state.mss) * state.mss /
                                               static_cast<double>(state.cwnd));
        state.cwnd += static_cast<std::uint64_t>(adder);
    }
}

std::uint64_t NewRenoModel::ssthresh(const SenderState& state, std::uint64_t flightBytes)
{
    return std::max<std::uint64_t>(2ull * state.mss, flightBytes / 2);
}

} // namespace windscope::analysis::cwnd
