// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Veno as Linux runs it (net/ipv4/tcp_veno.c): a Vegas-style backlog estimate
// diff = cwnd * (1 - baseRTT / RTT) tells a congestive loss (backlog >= beta = 3
// segments: halve) from a random one (backlog small: cut to 4/5); past the backlog
// threshold congestion avoidance grows every other RTT only.

#include "congestion_model.h"

namespace windscope::analysis::cwnd {

class VenoModel final : public CongestionModel
{
public:
    std::string_view name() const override { return "veno"; }
    std::unique_ptr<CongestionModel> clone() const override { return std::make_unique<VenoModel>(*this); }
    // Written after the paper (and ns-3's setups): no RACK-TLP; tcp_veno_cong_avoid()
    // grows only while cwnd-limited.
    ModelTraits traits() const override { return {}; }
    // tcp_veno_cong_avoid().
    void increaseWindow(SenderState& state, const AckEvent& ack) override;
    // tcp_veno_ssthresh(): cwnd * 4 / 5 when diff < beta, else cwnd / 2; at least 2.
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

private:
    static constexpr std::uint32_t kParamShift = 1;          // V_PARAM_SHIFT
    static constexpr std::uint64_t kBeta = 3u << kParamShift; // beta
    std::uint32_t m_baseRttUs = 0x7fffffff;
    std::uint32_t m_minRttUs = 0x7fffffff;
    std::uint32_t m_cntRtt = 0;
    std::uint64_t m_diff = 0;
    bool m_inc = true;
};

} // namespace windscope::analysis::cwnd
