// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Reno as Linux runs it (net/ipv4/tcp_cong.c, tcp_reno_congestion_ops): slow start and
// congestion avoidance counted in whole segments acked (snd_cwnd_cnt), growth only
// while the window is actually used (tcp_is_cwnd_limited), half the window on loss.

#include "congestion_model.h"

namespace windscope::analysis::cwnd {

class RenoModel final : public CongestionModel
{
public:
    std::string_view name() const override { return "reno"; }
    std::unique_ptr<CongestionModel> clone() const override { return std::make_unique<RenoModel>(*this); }
    // Linux tcp_reno: RACK-TLP, tcp_is_cwnd_limited(), undo, tcp_enter_loss()'s ssthresh.
    ModelTraits traits() const override { return {.rackTlpByDefault = true}; }
    // tcp_reno_cong_avoid().
    void increaseWindow(SenderState& state, const AckEvent& ack) override;
    // tcp_reno_ssthresh(): max(cwnd / 2, 2) segments; the flight is not used.
    std::uint64_t ssthresh(const SenderState& state, std::uint64_t flightBytes) override;
};

} // namespace windscope::analysis::cwnd
