// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A congestion-control model: a small class acting on SenderState, shaped after ns-3's
// TcpCongestionOps (IncreaseWindow, GetSsThresh, PktsAcked, CongestionStateSet) whose
// methods map onto Linux's struct tcp_congestion_ops (cong_avoid, ssthresh,
// pkts_acked, set_state, undo_cwnd). Loss detection is each sender's and loss recovery
// (PRR, undo, RTO entry) is LossRecovery's (loss_recovery.h); a model decides how the
// window grows and how far it is cut, and declares the traits the senders and the
// scenario derivation ask about (ModelTraits). One model per file; makeCongestionModel()
// picks one by name from the registry (model_registry.cpp).

#include "analysis/tcp/rtt_tracker.h"
#include "sender_state.h"

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace windscope::analysis::cwnd {

// When the model lets the window grow.
enum class CwndLimitedRule : std::uint8_t {
    // Only while the sender used its window: Linux tcp_is_cwnd_limited() (RFC 7661 in
    // spirit), read from SenderState::cwndLimited.
    LinuxCwndLimited,
    // On every ACK that delivered data, used or not (ns-3 TcpNewReno::IncreaseWindow()).
    EveryAck,
    // The model sets the window itself from its own estimates (a rate-based model).
    ModelSets,
};

// The stack whose code a model follows where Linux and ns-3 part ways on one algorithm
// (Westwood+: net/ipv4/tcp_westwood.c vs ns-3 TcpWestwood; Veno: tcp_veno.c vs TcpVeno):
// the growth rule, the flight the ssthresh is taken from, undo and the RTO's ssthresh.
enum class ModelStack : std::uint8_t { Linux, Ns3 };

// What a model is, beyond its arithmetic: the properties callers ask about instead of
// comparing model names.
struct ModelTraits
{
    // Sets the window itself on every ACK that delivered data, SACK-only ones and those
    // of a recovery included (Linux's cong_control hook, which replaces cong_avoid and
    // PRR): increaseWindow() is then called for all of them, and the sender keeps its
    // hands off the window when a recovery starts. BBR.
    bool rateBased = false;
    // The stack the model comes from recovers with RACK-TLP (RFC 8985) by default:
    // Linux's (since 4.18). Models written after their papers and ns-3 have none.
    bool rackTlpByDefault = false;
    CwndLimitedRule cwndLimited = CwndLimitedRule::LinuxCwndLimited;
    // Whether every RTO sets a fresh ssthresh from the flight at that moment -- during
    // fast recovery, and at each backed-off timeout while in Loss, when one re-sent
    // segment is all that is out -- as RFC 5681 (4) reads and ns-3
    // TcpSocketBase::ReTxTimeout() does. Linux tcp_enter_loss() keeps the one already set.
    bool rtoResetsSsthresh = false;
    // Whether a reduction proven spurious (D-SACK, an echoed timestamp older than the
    // retransmission: Linux tcp_try_undo_recovery()/tcp_try_undo_loss()) is undone.
    // RFC 6582 and ns-3's TcpSocketBase have no undo.
    bool undoesSpuriousReductions = true;
    // Whether the model grows as Reno/NewReno and departs from it only in its loss rule
    // (Westwood+, Veno): evidence for it lies in the windows after losses alone.
    bool growsAsReno = false;
    // The model whose growth this one runs, as this stack has it, when it departs from
    // it in its loss rule alone: ns-3's Westwood+ and Veno call TcpNewReno's
    // IncreaseWindow() (Veno's own branch only on the first ACK after a recovery, when
    // its RTT count was not reset: one ACK's increment), Linux's Westwood+
    // tcp_reno_cong_avoid(). Empty otherwise (Linux's Veno grows every other RTT past
    // its backlog threshold).
    std::string_view growthOf = {};
    // Whether slow start adds one SMSS per ACK however much it covered (ns-3's
    // TcpNewReno::SlowStart()), rather than every segment acked (Linux
    // tcp_slow_start(), ns-3's TcpCubic).
    bool slowStartOneSmssPerAck = false;
};

class CongestionModel
{
public:
    virtual ~CongestionModel() = default;
    virtual std::string_view name() const = 0;
    virtual std::unique_ptr<CongestionModel> clone() const = 0;
    virtual ModelTraits traits() const = 0;

    // tcp_congestion_ops.init / TcpCongestionOps::Init, at connection start.
    virtual void init(SenderState&) {}
    // cong_avoid / IncreaseWindow: called for an ACK that delivered data outside
    // window reduction (Linux tcp_cong_control() with tcp_may_raise_cwnd()), and for
    // every ACK that delivered data when the model is rate-based.
    virtual void increaseWindow(SenderState& state, const AckEvent& ack) = 0;
    // ssthresh / GetSsThresh: the slow-start threshold after a loss, in bytes.
    // flightBytes is RFC 5681's FlightSize at the moment of the loss.
    virtual std::uint64_t ssthresh(const SenderState& state, std::uint64_t flightBytes) = 0;
    // pkts_acked / PktsAcked: every ACK that acknowledged data, with its RTT sample.
    virtual void pktsAcked(SenderState&, const AckEvent&) {}
    // set_state / CongestionStateSet: the congestion state is about to change.
    virtual void congestionStateSet(SenderState&, CaState) {}
    // The rate the sender paces at, bytes per second; 0: not paced by the model.
    virtual double pacingRateBytesPerSecond(const SenderState&) const { return 0; }
    // undo_cwnd: the window restored when a reduction proved spurious; Linux
    // tcp_reno_undo_cwnd() (max(cwnd, prior_cwnd)) unless a model overrides it.
    virtual std::uint64_t undoCwnd(const SenderState& state) const
    {
        return state.cwnd > state.priorCwnd ? state.cwnd : state.priorCwnd;
    }
};

// A model of the registry by name; nullptr for an unknown name.
std::unique_ptr<CongestionModel> makeCongestionModel(std::string_view name);
// The model as `stack` implements it, for the models written after both (Westwood+,
// Veno); the others exist in one stack only and come as makeCongestionModel() gives them.
std::unique_ptr<CongestionModel> makeCongestionModel(std::string_view name, ModelStack stack);
// The stack a model's growth rule comes from: ns-3's grows on every ACK, Linux's only
// while cwnd-limited.
ModelStack modelStackOf(const CongestionModel& model);
// A stack's name where one is written ("linux", "ns-3"), and back; false for another name.
std::string_view modelStackName(ModelStack stack);
bool parseModelStack(std::string_view name, ModelStack& stack);

// The RTT a stack hands its congestion control with an ACK (pkts_acked / PktsAcked) and
// the minimum it keeps (SenderState::minRttNs), with RFC 6298's estimator over the
// samples it takes (the sender's RTO). Linux: the ACK's own sample and the least of
// those. ns-3: its smoothed estimate, on every ACK once there is one
// (TcpSocketBase::EstimateRtt() sets m_lastRtt to RttMeanDeviation's estimate, RFC
// 6298's alpha 1/8 from the first sample, and m_minRtt to the least of those), so ns-3's
// Westwood+ takes its ssthresh from the least smoothed RTT, not the least sample.
class CongestionRtt
{
public:
    explicit CongestionRtt(ModelStack stack) : m_stack(stack) {}
    // The sample the handshake gave: ns-3 estimates from it (it is the first its
    // TcpSocketBase::EstimateRtt() takes); Linux's congestion controls never see it.
    void onHandshake(SenderState& state, std::int64_t sampleNs)
    {
        if (m_stack == ModelStack::Ns3)
            onAck(state, sampleNs);
    }
    // One ACK; sampleNs its own RTT sample, -1 none. Updates state.minRttNs and returns
    // the RTT for the model's AckEvent (-1 none).
    std::int64_t onAck(SenderState& state, std::int64_t sampleNs)
    {
        if (sampleNs > 0)
            m_estimator.addSample(sampleNs);
        const std::int64_t modelRtt = m_stack == ModelStack::Linux || !m_estimator.hasSample()
                                          ? sampleNs
                                          : static_cast<std::int64_t>(m_estimator.srttNs());
        if (sampleNs > 0 && (state.minRttNs < 0 || modelRtt < state.minRttNs))
            state.minRttNs = modelRtt;
        return modelRtt;
    }
    const detail::RtoEstimator& estimator() const { return m_estimator; }

private:
    ModelStack m_stack;
    detail::RtoEstimator m_estimator;
};

// What an ACK that moved SND.UNA does to a stack's retransmission timer, growth and
// congestion control's count of acknowledged segments, beyond what it delivered. Linux
// (tcp_ack()) rearms the timer on every such ACK and grows by what it delivered. ns-3 (TcpSocketBase::ProcessAck()) takes an ACK that
// SACKs new data for a duplicate even when it also advances SND.UNA (RFC 6675 2): out of
// recovery it stays in CA_DISORDER, where it neither restarts the timer (NewAck()) nor
// grows (IncreaseWindow()); in fast recovery it restarts the timer at the first partial
// ACK only (RFC 6582 4.1's "Impatient" variant); it grows by the whole segments SND.UNA
// moved over, SACKed before or not, the rest carried (m_bytesAckedNotProcessed), and
// leaving CA_LOSS by those above the recovery point only (the data the timeout went back
// over was counted when first sent). It hands its congestion control (PktsAcked(), the
// count Westwood+'s bandwidth estimate sums) one segment for every ACK that leaves
// SND.UNA where it was and for a partial ACK in fast recovery, the whole segments SND.UNA
// moved over otherwise, less the duplicates already counted in CA_DISORDER, and at the
// end of a fast recovery every segment the ACK covers, SACKed and counted before or not.
class StackAckRule
{
public:
    explicit StackAckRule(ModelStack stack) : m_stack(stack) {}
    struct Outcome
    {
        bool restartTimer = true;
        bool grows = true;                 // the stack's growth runs on this ACK
        std::uint32_t ns3Segments = 0;     // ns-3: the segments it grows by
        bool ns3CountsAcked = true;        // ns-3: PktsAcked() runs on this ACK,
        std::uint32_t ns3PktsAcked = 0;    // with this count
    };
    // ns-3's count for an ACK that leaves SND.UNA where it was, data outstanding, and for
    // a partial ACK of a fast recovery: "one segment has been ACKed".
    static constexpr std::uint32_t kNs3PktsAckedOnDuplicate = 1;
    static constexpr std::uint32_t kNs3PktsAckedOnPartialAck = 1;
    // state as before the ACK (its CA state, recovery point, MSS), SND.UNA moving from
    // oldUna to ack; sackedNew: its SACK blocks reported new data; exactEdge false where
    // the ACK's value is an estimate (rebuilt from the sender's TSecr), which side of the
    // recovery point it covered then unknown: all of it counts leaving CA_LOSS.
    // duplicatesBefore: the ACKs since SND.UNA last moved that left it where it was.
    Outcome onUnaAdvance(const SenderState& state, std::int64_t oldUna, std::int64_t ack, bool sackedNew,
                         bool exactEdge = true, std::uint32_t duplicatesBefore = 0)
    {
        Outcome out;
        if (m_stack != ModelStack::Ns3)
            return out;
        const bool partialInRecovery = state.state == CaState::Recovery && ack < state.recoveryPoint;
        const bool inDisorder = sackedNew && (state.state == CaState::Open || state.state == CaState::Disorder);
        out.restartTimer = partialInRecovery ? m_firstPartialAck : !inDisorder;
        out.grows = !inDisorder;
        m_firstPartialAck = !partialInRecovery;
        m_ackedCarry += static_cast<std::uint64_t>(ack - oldUna);
        out.ns3Segments = static_cast<std::uint32_t>(m_ackedCarry / state.mss);
        m_ackedCarry %= state.mss;
        const std::uint32_t segmentsAcked = out.ns3Segments;
        if (state.state == CaState::Loss && ack >= state.recoveryPoint && exactEdge)
            out.ns3Segments = static_cast<std::uint32_t>((ack - state.recoveryPoint) / state.mss);
        if (state.state == CaState::Recovery) {
            out.ns3PktsAcked = partialInRecovery ? kNs3PktsAckedOnPartialAck
                                                 : static_cast<std::uint32_t>((ack - oldUna) / state.mss);
        } else if (state.state == CaState::Loss) {
            out.ns3PktsAcked = ack < state.recoveryPoint ? segmentsAcked : out.ns3Segments;
        } else if (state.state == CaState::Disorder) {
            out.ns3CountsAcked = segmentsAcked >= duplicatesBefore;
            out.ns3PktsAcked = out.ns3CountsAcked ? segmentsAcked - duplicatesBefore : 0;
        } else {
            out.ns3PktsAcked = segmentsAcked;
        }
        return out;
    }

private:
    ModelStack m_stack;
    bool m_firstPartialAck = true;
    std::uint64_t m_ackedCarry = 0;
};

// The models inference tries, in the order it tries them.
const std::vector<std::string_view>& congestionModelNames();
// Every name makeCongestionModel() accepts (the inference candidates first).
const std::vector<std::string_view>& allCongestionModelNames();
// allCongestionModelNames() (or only the inference candidates) joined by separator, for
// help texts, value hints and error messages.
std::string congestionModelNameList(std::string_view separator, bool inferenceCandidatesOnly = false);
// The registry's rate-based model (the one a sender on its own clock is replayed with);
// empty if none.
std::string_view rateBasedModelName();

} // namespace windscope::analysis::cwnd
