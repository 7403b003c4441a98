// SPDX-License-Identifier: GPL-3.0-or-later
#include "reno.h"

#include "linux_window.h"

#include <algorithm>

namespace windscope::analysis::cwnd {

void RenoModel::increaseWindow(SenderState& state, const AckEvent& ack)
{
    // tcp_reno_cong_avoid(): "if (!tcp_is_cwnd_limited(sk)) return;" -- a window the
    // sender does not fill proves nothing and does not grow (RFC 7661 in spirit).
    if (!state.cwndLimited)
        return;
    std::uint32_t acked = ack.ackedSegments;
    if (state.inSlowStart()) {
        acked = linuxSlowStart(state, acked);
        if (acked == 0)
            return;
    }
    linuxCongAvoidAi(state, state.cwndSegments(), acked);
}

std::uint64_t RenoModel::ssthresh(const SenderState& state, std::uint64_t)
{
    return std::max<std::uint64_t>(state.cwndSegments() / 2, 2) * state.mss;
}

} // namespace windscope::analysis::cwnd
