// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Veno: a Vegas-style backlog estimate diff = cwnd * (1 - baseRTT / RTT) tells a
// congestive loss (backlog >= beta = 3 segments: halve) from a random one (backlog
// small: cut to 4/5). Two implementations:
// - Linux (net/ipv4/tcp_veno.c): past the backlog threshold congestion avoidance grows
//   every other RTT only, only while cwnd-limited; ssthresh from cwnd;
// - ns-3 (TcpVeno): the RTT count and minimum restart on every IncreaseWindow(), so
//   with one RTT sample per ACK it never leaves TcpNewReno's growth (m_cntRtt <= 2)
//   and its diff is the last ACK's; GetSsThresh() cuts the flight (4/5 or 1/2).

#include "congestion_model.h"

namespace windscope::analysis::cwnd {

class VenoModel final : public CongestionModel
{
public:
    explicit VenoModel(ModelStack stack = ModelStack::Linux) : m_stack(stack) {}
    std::string_view name() const override { return "veno"; }
    std::unique_ptr<CongestionModel> clone() const override { return std::make_unique<VenoModel>(*this); }
    // Linux: written after the paper (and ns-3's setups), no RACK-TLP;
    // tcp_veno_cong_avoid() grows only while cwnd-limited. ns-3: TcpNewReno's rules.
    ModelTraits traits() const override
    {
        if (m_stack == ModelStack::Ns3)
            return {.cwndLimited = CwndLimitedRule::EveryAck, .rtoResetsSsthresh = true,
                    .undoesSpuriousReductions = false, .growsAsReno = true,
                    .growthOf = "newreno", .slowStartOneSmssPerAck = true};
        return {.growsAsReno = true};
    }
    // tcp_veno_cong_avoid() / TcpVeno::IncreaseWindow().
    void increaseWindow(SenderState& state, const AckEvent& ack) override;
    // tcp_veno_ssthresh(): cwnd * 4 / 5 when diff < beta, else cwnd / 2; at least 2.
    // TcpVeno::GetSsThresh(): the same cuts of the flight, at least 2 SMSS.
    std::uint64_t ssthresh(const SenderState& state, std::uint64_t flightBytes) override;
    // tcp_veno_pkts_acked(): baseRTT (all-time minimum) and this RTT's minimum.
    void pktsAcked(SenderState& state, const AckEvent& ack) override;

    // Veno's backlog estimate in segments << 1 (V_PARAM_SHIFT), as Linux keeps it.
    std::uint64_t diff() const { return m_diff; }
    void setSamples(std::uint32_t baseRttUs, std::uint32_t minRttUs, std::uint32_t count)
    {
        m_baseRttUs = baseRttUs;
        m_minRttUs = minRttUs;
        m_cntRtt = count;
    }

    ModelStack stack() const { return m_stack; }

private:
    void ns3IncreaseWindow(SenderState& state, const AckEvent& ack);

    ModelStack m_stack;
    static constexpr std::uint32_t kParamShift = 1;          // V_PARAM_SHIFT
    static constexpr std::uint64_t kBeta = 3u << kParamShift; // beta
    std::uint32_t m_baseRttUs = 0x7fffffff;
    std::uint32_t m_minRttUs = 0x7fffffff;
    std::uint32_t m_cntRtt = 0;
    std::uint64_t m_diff = 0;
    bool m_inc = true;
};

} // namespace windscope::analysis::cwnd
