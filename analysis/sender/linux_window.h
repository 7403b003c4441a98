// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The window-growth helpers of Linux net/ipv4/tcp_cong.c that Reno and CUBIC share,
// in segments as Linux counts them.

#include "sender_state.h"

namespace windscope::analysis::cwnd {

// tcp_slow_start(): cwnd grows by the segments acked, up to ssthresh; returns the
// acked segments left over for congestion avoidance.
std::uint32_t linuxSlowStart(SenderState& state, std::uint32_t acked);

// tcp_cong_avoid_ai(): one segment per w segments acked, counted in snd_cwnd_cnt.
void linuxCongAvoidAi(SenderState& state, std::uint32_t w, std::uint32_t acked);

// tcp_reno_cong_avoid(): nothing unless the window was used ("if
// (!tcp_is_cwnd_limited(sk)) return;", RFC 7661 in spirit), then slow start up to
// ssthresh and additive increase with the rest. Reno's growth, and Westwood+'s.
void linuxRenoCongAvoid(SenderState& state, const AckEvent& ack);
// The opening Linux's Reno and CUBIC cong_avoid share: nothing unless cwnd-limited; in
// slow start, grow, and stop if slow start used every acked segment. False when the
// caller has nothing more to do; else acked holds the segments left for congestion
// avoidance.
bool linuxSlowStartPrelude(SenderState& state, const AckEvent& ack, std::uint32_t& acked);

} // namespace windscope::analysis::cwnd
