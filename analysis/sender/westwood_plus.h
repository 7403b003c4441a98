// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Westwood+ as Linux runs it (net/ipv4/tcp_westwood.c): Reno growth, but after a loss
// the window is set from the bandwidth the ACK stream shows times the minimum RTT
// (tcp_westwood_bw_rttmin), so random wireless losses do not halve a window the path
// can carry. The bandwidth estimate is sampled once per RTT (at least 50 ms,
// TCP_WESTWOOD_RTT_MIN) and smoothed with westwood_do_filter(): 7/8 old + 1/8 new.

#include "congestion_model.h"

namespace windscope::analysis::cwnd {

class WestwoodPlusModel final : public CongestionModel
{
public:
    std::string_view name() const override { return "westwood-plus"; }
    std::unique_ptr<CongestionModel> clone() const override { return std::make_unique<WestwoodPlusModel>(*this); }
    // Written after the paper (and ns-3's setups): no RACK-TLP; Linux's Reno growth.
    ModelTraits traits() const override { return {}; }
    // tcp_reno_cong_avoid(), which Westwood+ uses unchanged.
    void increaseWindow(SenderState& state, const AckEvent& ack) override;
    // tcp_westwood_bw_rttmin(): max(bw_est * rtt_min / mss, 2) segments; before any
    // bandwidth sample, tcp_reno_ssthresh().
    std::uint64_t ssthresh(const SenderState& state, std::uint64_t flightBytes) override;
    // tcp_westwood_pkts_acked() + westwood_update_window(): RTT and bytes acked.
    void pktsAcked(SenderState& state, const AckEvent& ack) override;

    double bandwidthBytesPerSecond() const { return m_bwEst; }

private:
    double m_bwEst = 0, m_bwNsEst = 0;   // bytes per second
    std::uint64_t m_bk = 0;              // bytes acked in the current sample period
    std::int64_t m_rttWinStartNs = -1;
    std::int64_t m_rttNs = 0;            // last RTT sample
    bool m_firstSample = true;
};

} // namespace windscope::analysis::cwnd
