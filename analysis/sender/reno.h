// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Reno as Linux runs it (net/ipv4/tcp_cong.c, tcp_reno_congestion_ops): slow start and
// congestion avoidance counted in whole segments acked (snd_cwnd_cnt), growth only
// while the window is actually used (tcp_is_cwnd_limited), half the window on loss.
//
// The ns-3 stack is ns-3's TcpLinuxReno: the same arithmetic in TcpSocketBase, so growth
// on every ACK, slow start capped at ssthresh with the rest of the ACK dropped, and
// half the window in bytes.

#include "congestion_model.h"

namespace windscope::analysis::cwnd {

class RenoModel final : public CongestionModel
{
public:
    explicit RenoModel(ModelStack stack = ModelStack::Linux) : m_stack(stack) {}
    std::string_view name() const override { return "reno"; }
    std::unique_ptr<CongestionModel> clone() const override { return std::make_unique<RenoModel>(*this); }
    // Linux tcp_reno: RACK-TLP, tcp_is_cwnd_limited(), undo, tcp_enter_loss()'s ssthresh.
    // ns-3: TcpSocketBase's rules as NewRenoModel declares them, byte-counting slow start.
    ModelTraits traits() const override
    {
        if (m_stack == ModelStack::Ns3)
            return {.cwndLimited = CwndLimitedRule::EveryAck, .rtoResetsSsthresh = true,
                    .undoesSpuriousReductions = false};
        return {.rackTlpByDefault = true};
    }
    void init(SenderState&) override { m_ns3CwndCnt = 0; }
    // tcp_reno_cong_avoid() / TcpLinuxReno::IncreaseWindow().
    void increaseWindow(SenderState& state, const AckEvent& ack) override;
    // tcp_reno_ssthresh(): max(cwnd / 2, 2) segments; TcpLinuxReno::GetSsThresh():
    // max(cwnd / 2, 2 SMSS) in bytes. The flight is not used.
    std::uint64_t ssthresh(const SenderState& state, std::uint64_t flightBytes) override;

private:
    ModelStack m_stack;
    std::uint32_t m_ns3CwndCnt = 0; // TcpLinuxReno::m_cWndCnt
};

} // namespace windscope::analysis::cwnd
