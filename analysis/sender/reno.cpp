// SPDX-License-Identifier: GPL-3.0-or-later
#include "reno.h"

#include "linux_window.h"

#include <algorithm>

namespace windscope::analysis::cwnd {

void RenoModel::increaseWindow(SenderState& state, const AckEvent& ack)
{
    linuxRenoCongAvoid(state, ack);
}

std::uint64_t RenoModel::ssthresh(const SenderState& state, std::uint64_t)
{
    return std::max<std::uint64_t>(state.cwndSegments() / 2, 2) * state.mss;
}

} // namespace windscope::analysis::cwnd
