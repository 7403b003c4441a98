// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// CUBIC as Linux runs it (net/ipv4/tcp_cubic.c, RFC 9438): the cubic window function
// with fast convergence and the TCP-friendly region, beta 717/1024, growth only while
// cwnd-limited, and HyStart (ack train and delay increase) ending the first slow start
// before it overshoots. Time is Linux's: jiffies at HZ=1000 for the cubic epoch,
// microseconds for HyStart.

#include "congestion_model.h"

namespace windscope::analysis::cwnd {

class CubicModel final : public CongestionModel
{
public:
    // struct bictcp, the per-socket state of tcp_cubic.c.
    struct Bic
    {
        std::uint32_t cnt = 0;            // segments acked per cwnd increment
        std::uint32_t lastMaxCwnd = 0;    // W_max, segments
        std::uint32_t lastCwnd = 0;
        std::uint32_t lastTime = 0;       // jiffies
        std::uint32_t originPoint = 0;
        std::uint32_t k = 0;              // in 1/1024 s (BICTCP_HZ)
        std::uint32_t delayMinUs = 0;
        std::uint32_t epochStart = 0;     // jiffies, 0 = no epoch
        std::uint32_t ackCount = 0;
        std::uint32_t tcpCwnd = 0;        // Reno-equivalent window (TCP friendliness)
        std::uint8_t sampleCount = 0;
        bool found = false;               // HyStart ended slow start
        std::int64_t roundStartUs = 0, lastAckUs = 0;
        std::int64_t endSeq = 0;
        std::uint32_t currRttUs = ~0u;
    };

    std::string_view name() const override { return "cubic"; }
    std::unique_ptr<CongestionModel> clone() const override { return std::make_unique<CubicModel>(*this); }
    // Linux tcp_cubic: RACK-TLP, tcp_is_cwnd_limited(), undo, tcp_enter_loss()'s ssthresh.
    ModelTraits traits() const override { return {.rackTlpByDefault = true}; }
    // cubictcp_init(): bictcp_reset() and bictcp_hystart_reset().
    void init(SenderState& state) override;
    // cubictcp_cong_avoid(): tcp_slow_start(), then bictcp_update() and tcp_cong_avoid_ai().
    void increaseWindow(SenderState& state, const AckEvent& ack) override;
    // cubictcp_recalc_ssthresh(): W_max with fast convergence, cwnd * 717 / 1024.
    std::uint64_t ssthresh(const SenderState& state, std::uint64_t flightBytes) override;
    // cubictcp_acked(): delay_min and hystart_update().
    void pktsAcked(SenderState& state, const AckEvent& ack) override;
    // cubictcp_state(): entering Loss resets the epoch and HyStart.
    void congestionStateSet(SenderState& state, CaState newState) override;

    const Bic& bic() const { return m_bic; }
    Bic& bic() { return m_bic; }

private:
    void update(std::uint32_t cwnd, std::uint32_t acked, std::uint32_t nowJiffies); // bictcp_update()
    void hystartReset(const SenderState& state);                                   // bictcp_hystart_reset()
    void hystartUpdate(SenderState& state, std::uint32_t delayUs);                  // hystart_update()

    Bic m_bic;
};

} // namespace windscope::analysis::cwnd
