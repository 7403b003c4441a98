// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A congestion-control model: a small class acting on SenderState, shaped after ns-3's
// TcpCongestionOps (IncreaseWindow, GetSsThresh, PktsAcked, CongestionStateSet) whose
// methods map onto Linux's struct tcp_congestion_ops (cong_avoid, ssthresh,
// pkts_acked, set_state, undo_cwnd). Loss detection and recovery (RFC 6675, PRR) are
// the inference engine's; a model only decides how the window grows and how far it
// is cut. One model per file; makeCongestionModel() picks one by name.

#include "sender_state.h"

#include <memory>
#include <string_view>
#include <vector>

namespace windscope::analysis::cwnd {

class CongestionModel
{
public:
    virtual ~CongestionModel() = default;
    virtual std::string_view name() const = 0;
    virtual std::unique_ptr<CongestionModel> clone() const = 0;

    // tcp_congestion_ops.init / TcpCongestionOps::Init, at connection start.
    virtual void init(SenderState&) {}
    // cong_avoid / IncreaseWindow: called for an ACK that delivered data outside
    // window reduction (Linux tcp_cong_control() with tcp_may_raise_cwnd()).
    virtual void increaseWindow(SenderState& state, const AckEvent& ack) = 0;
    // ssthresh / GetSsThresh: the slow-start threshold after a loss, in bytes.
    // flightBytes is RFC 5681's FlightSize at the moment of the loss.
    virtual std::uint64_t ssthresh(const SenderState& state, std::uint64_t flightBytes) = 0;
    // pkts_acked / PktsAcked: every ACK that acknowledged data, with its RTT sample.
    virtual void pktsAcked(SenderState&, const AckEvent&) {}
    // set_state / CongestionStateSet: the congestion state is about to change.
    virtual void congestionStateSet(SenderState&, CaState) {}
    // Whether every RTO sets a fresh ssthresh from the flight at that moment -- during
    // fast recovery, and at each backed-off timeout while in Loss, when one re-sent
    // segment is all that is out -- as RFC 5681 (4) reads and ns-3
    // TcpSocketBase::ReTxTimeout() does. Linux tcp_enter_loss() keeps the one already set.
    virtual bool rtoResetsSsthresh() const { return false; }
    // Whether a reduction proven spurious (D-SACK, an echoed timestamp older than the
    // retransmission: Linux tcp_try_undo_recovery()/tcp_try_undo_loss()) is undone.
    // RFC 6582 and ns-3's TcpSocketBase have no undo.
    virtual bool undoesSpuriousReductions() const { return true; }
    // A rate-based model (BBR) sets the window itself on every ACK that delivered
    // data, SACK-only ones and those of a recovery included (Linux's cong_control hook,
    // which replaces cong_avoid and PRR): increaseWindow() is then called for all of
    // them, and the sender keeps its hands off the window when a recovery starts.
    virtual bool setsWindowOnEveryAck() const { return false; }
    // The rate the sender paces at, bytes per second; 0: not paced by the model.
    virtual double pacingRateBytesPerSecond(const SenderState&) const { return 0; }
    // undo_cwnd: the window restored when a reduction proved spurious; Linux
    // tcp_reno_undo_cwnd() (max(cwnd, prior_cwnd)) unless a model overrides it.
    virtual std::uint64_t undoCwnd(const SenderState& state) const
    {
        return state.cwnd > state.priorCwnd ? state.cwnd : state.priorCwnd;
    }
};

// "reno", "newreno", "cubic", "westwood-plus", "veno", "bbr"; nullptr for an unknown name.
std::unique_ptr<CongestionModel> makeCongestionModel(std::string_view name);
// The models inference tries, in the order it tries them.
const std::vector<std::string_view>& congestionModelNames();
// Every name makeCongestionModel() accepts (the inference candidates first).
const std::vector<std::string_view>& allCongestionModelNames();

} // namespace windscope::analysis::cwnd
