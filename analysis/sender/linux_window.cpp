// SPDX-License-Identifier: GPL-3.0-or-later
#include "linux_window.h"

#include <algorithm>

namespace windscope::analysis::cwnd {

std::uint32_t linuxSlowStart(SenderState& state, std::uint32_t acked)
{
    const std::uint64_t before = state.cwndSegments();
    const std::uint64_t after = std::min<std::uint64_t>(before + acked, state.ssthreshSegments());
    // A window already at or above ssthresh does not grow here (after < before can only
    // happen when ssthresh was cut below cwnd, and then Linux leaves cwnd alone too).
    if (after <= before)
        return acked;
    state.setCwndSegments(after);
    return acked - static_cast<std::uint32_t>(after - before);
}

void linuxCongAvoidAi(SenderState& state, std::uint32_t w, std::uint32_t acked)
{
    if (w == 0)
        w = 1;
    std::uint64_t segments = state.cwndSegments();
    // "If credits accumulated at a higher w, apply them gently now."
    if (state.cwndCount >= w) {
        state.cwndCount = 0;
        ++segments;
    }
    state.cwndCount += acked;
    if (state.cwndCount >= w) {
        const std::uint32_t delta = state.cwndCount / w;
        state.cwndCount -= delta * w;
        segments += delta;
    }
    state.setCwndSegments(segments);
}

bool linuxSlowStartPrelude(SenderState& state, const AckEvent& ack, std::uint32_t& acked)
{
    if (!state.cwndLimited)
        return false;
    acked = ack.ackedSegments;
    if (state.inSlowStart()) {
        acked = linuxSlowStart(state, acked);
        if (acked == 0)
            return false;
    }
    return true;
}

void linuxRenoCongAvoid(SenderState& state, const AckEvent& ack)
{
    std::uint32_t acked = 0;
    if (linuxSlowStartPrelude(state, ack, acked))
        linuxCongAvoidAi(state, state.cwndSegments(), acked);
}

} // namespace windscope::analysis::cwnd
