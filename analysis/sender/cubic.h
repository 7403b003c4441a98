// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// CUBIC as Linux runs it (net/ipv4/tcp_cubic.c, RFC 9438): the cubic window function
// with fast convergence and the TCP-friendly region, beta 717/1024, growth only while
// cwnd-limited, and HyStart (ack train and delay increase) ending the first slow start
// before it overshoots. Time is Linux's: jiffies at HZ=1000 for the cubic epoch,
// microseconds for HyStart.
//
// The ns-3 stack (ns-3's TcpCubic) runs the same window function otherwise: no
// TCP-friendly region, at most one segment per ACK, beta 0.7 in floating point, growth
// on every ACK, samples discarded 10 ms (not 1 s) after a reduction, and a HyStart that
// waits for the RTT to grow by delay_min itself (clamped to 4 ms..1 s, where Linux takes
// an eighth clamped to 4..16 ms) and for an ack train a whole delay_min long.

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
    // TcpCubic's own state where it differs from struct bictcp (ns-3 stack).
    struct Ns3Cubic
    {
        std::uint32_t cwndCnt = 0;        // m_cWndCnt: segments acked towards the next increment
        double k = 0;                     // m_bicK, seconds
        std::int64_t epochStartNs = -1;   // m_epochStart, -1 = none
        std::int64_t delayMinNs = -1;     // m_delayMin, -1 = none
        std::int64_t currRttNs = -1;      // m_currRtt, -1 = none
    };

    explicit CubicModel(ModelStack stack = ModelStack::Linux) : m_stack(stack) {}

    std::string_view name() const override { return "cubic"; }
    std::unique_ptr<CongestionModel> clone() const override { return std::make_unique<CubicModel>(*this); }
    // Linux tcp_cubic: RACK-TLP, tcp_is_cwnd_limited(), undo, tcp_enter_loss()'s ssthresh.
    // ns-3: TcpSocketBase's rules as NewRenoModel declares them, with byte-counting slow
    // start (TcpCubic adds every segment acked, as Linux does).
    ModelTraits traits() const override
    {
        if (m_stack == ModelStack::Ns3)
            return {.cwndLimited = CwndLimitedRule::EveryAck, .rtoResetsSsthresh = true,
                    .undoesSpuriousReductions = false};
        return {.rackTlpByDefault = true};
    }
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

    ModelStack stack() const { return m_stack; }

private:
    void update(std::uint32_t cwnd, std::uint32_t acked, std::uint32_t nowJiffies); // bictcp_update()
    // TcpCubic::IncreaseWindow(), Update(), PktsAcked(), HystartUpdate(), GetSsThresh().
    void ns3IncreaseWindow(SenderState& state, std::uint32_t acked);
    std::uint32_t ns3Update(const SenderState& state);
    void ns3PktsAcked(SenderState& state, const AckEvent& ack);
    void ns3HystartUpdate(SenderState& state, std::int64_t delayNs);
    std::uint64_t ns3Ssthresh(const SenderState& state);
    void hystartReset(const SenderState& state);                                   // bictcp_hystart_reset()
    void hystartUpdate(SenderState& state, std::uint32_t delayUs);                  // hystart_update()

    ModelStack m_stack;
    Bic m_bic;
    Ns3Cubic m_ns3;
};

} // namespace windscope::analysis::cwnd
