// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Westwood+: Reno growth, but after a loss the window is set from the bandwidth the ACK
// stream shows times the minimum RTT, so random wireless losses do not halve a window
// the path can carry. Two implementations differ in everything but that rule:
// - Linux (net/ipv4/tcp_westwood.c): tcp_reno_cong_avoid() growth (only while
//   cwnd-limited), one bandwidth sample per max(RTT, 50 ms) (TCP_WESTWOOD_RTT_MIN)
//   smoothed twice by westwood_do_filter() (7/8 old + 1/8 new), ssthresh
//   tcp_westwood_bw_rttmin() in whole segments;
// - ns-3 (TcpWestwood, ProtocolType WestwoodPlus): TcpNewReno growth on every ACK, one
//   sample of the segments acked over the RTT that follows the first ACK of a period
//   (TcpWestwood::EstimateBW()), Tustin-filtered (alpha 0.9, TcpWestwood::Filtering()),
//   ssthresh max(2 SMSS, bw * minRtt) in bytes -- 2 SMSS before the first sample.

#include "congestion_model.h"

namespace windscope::analysis::cwnd {

class WestwoodPlusModel final : public CongestionModel
{
public:
    explicit WestwoodPlusModel(ModelStack stack = ModelStack::Linux) : m_stack(stack) {}
    std::string_view name() const override { return "westwood-plus"; }
    std::unique_ptr<CongestionModel> clone() const override { return std::make_unique<WestwoodPlusModel>(*this); }
    // Linux: written after the paper (and ns-3's setups), no RACK-TLP; Linux's Reno
    // growth. ns-3: TcpNewReno's rules as NewRenoModel declares them.
    ModelTraits traits() const override
    {
        if (m_stack == ModelStack::Ns3)
            return {.cwndLimited = CwndLimitedRule::EveryAck, .rtoResetsSsthresh = true,
                    .undoesSpuriousReductions = false, .growsAsReno = true, .growthOf = "newreno",
                    .slowStartOneSmssPerAck = true};
        return {.growsAsReno = true, .growthOf = "reno"};
    }
    // tcp_reno_cong_avoid() (Linux) / TcpNewReno::IncreaseWindow() (ns-3).
    void increaseWindow(SenderState& state, const AckEvent& ack) override;
    // Linux tcp_westwood_bw_rttmin(): max(bw_est * rtt_min / mss, 2) segments, before any
    // bandwidth sample tcp_reno_ssthresh(); ns-3 TcpWestwood::GetSsThresh().
    std::uint64_t ssthresh(const SenderState& state, std::uint64_t flightBytes) override;
    // tcp_westwood_pkts_acked() + westwood_update_window() / TcpWestwood::PktsAcked().
    void pktsAcked(SenderState& state, const AckEvent& ack) override;

    double bandwidthBytesPerSecond() const { return m_bwEst; }
    ModelStack stack() const { return m_stack; }

private:
    void ns3PktsAcked(const SenderState& state, const AckEvent& ack);
    void ns3EstimateDue(std::int64_t nowNs, std::uint32_t mss);

    ModelStack m_stack;
    double m_bwEst = 0, m_bwNsEst = 0;   // bytes per second
    std::uint64_t m_bk = 0;              // bytes acked in the current sample period
    std::int64_t m_rttWinStartNs = -1;
    std::int64_t m_rttNs = 0;            // last RTT sample
    bool m_firstSample = true;
    // ns-3: m_ackedSegments, the pending EstimateBW event (m_IsCount) and its RTT, and
    // the Tustin filter's m_lastSampleBW / m_lastBW.
    std::uint64_t m_ackedSegments = 0;
    std::int64_t m_estimateAtNs = -1;
    std::int64_t m_estimateRttNs = 0;
    double m_lastSampleBw = 0, m_lastBw = 0;
};

} // namespace windscope::analysis::cwnd
