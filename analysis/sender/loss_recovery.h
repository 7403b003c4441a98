// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Loss recovery, written once for every congestion-control model and for both senders
// that run one: the model fit that follows a captured sender (cwnd/model_fit.cpp) and
// the replay simulator's sender (replay/sim/tcp_sender.cpp). After ns-3's
// TcpRecoveryOps (tcp-recovery-ops.h, tcp-prr-recovery.cc) and the Linux functions
// each method names. It acts on the plain SenderState plus its own PRR counters and
// undo markers. How a loss is detected (a captured re-send, a SACK scoreboard, RACK,
// timers) stays with the caller, which hands in what it measured: the flight, the
// recovery point, the evidence that a retransmission was spurious.

#include "congestion_model.h"
#include "sender_state.h"

#include <cstdint>

namespace windscope::analysis::cwnd {

// How the window is set inside a fast recovery: ns-3's TcpPrrRecovery and Linux
// tcp_cwnd_reduction() (RFC 6937 with the slow-start reduction bound), or ns-3's
// TcpClassicRecovery (RFC 6675 5: cwnd = ssthresh at once, the flight drains to it).
enum class RecoveryWindow : std::uint8_t { Prr, Classic };

// The evidence Linux keeps to undo a reduction that proves spurious: tp->undo_marker,
// tp->undo_retrans and tp->retrans_stamp (tcp_init_undo()).
struct UndoMarkers
{
    bool marker = false;         // undo_marker: a reduction that may be undone
    int retrans = 0;             // undo_retrans: re-sends not yet proved unnecessary
    bool stampSet = false;       // retrans_stamp != 0
    std::uint32_t stamp = 0;     // TSval of the first retransmission
};

// What the ACK that ends a recovery tells about it (tcp_packet_delayed()).
struct UndoEvidence
{
    bool hasTimestamps = false;
    std::uint32_t tsEcr = 0;
};

// tcp_enter_recovery(): what the caller measured when it decided a loss was found.
struct RecoveryEntry
{
    // The flight the model's ssthresh is taken from (RFC 5681 FlightSize as each
    // caller counts it; only flight-based models such as NewReno read it).
    std::uint64_t flightBytes = 0;
    std::int64_t recoveryPoint = 0;  // tp->high_seq: SND.NXT, in the state's sequence unit
    // SND.NXT - SND.UNA: ns-3's RecoverFS (PrrBound::Ns3); 0 where the caller has none.
    std::uint64_t outstandingBytes = 0;
};

// tcp_enter_loss(): what the caller measured when its retransmission timer fired.
struct LossEntry
{
    std::uint64_t flightBytes = 0;            // flight out of the open state / a repeat RTO
    std::uint64_t flightInRecoveryBytes = 0;  // flight when the RTO cuts short a fast recovery
    std::int64_t recoveryPoint = 0;           // SND.NXT
};

// What a caller chooses about recovery; the reason for its choice is at the caller. The
// flight measures it hands in (RecoveryEntry, LossEntry) are its other choices.
// ssthresh at an RTO.
enum class RtoSsthresh : std::uint8_t {
    // The model's rule (enterLoss()): Linux tcp_enter_loss(), or a fresh one at every
    // RTO for a model whose traits say rtoResetsSsthresh.
    ModelRule,
    // A fresh one from LossEntry::flightBytes whenever Loss is entered from another
    // state, none at a backed-off RTO, whatever the model.
    EachEntry,
};

// How PRR (RFC 6937) reads its reduction and catches up once the pipe is below
// ssthresh. Linux tcp_cwnd_reduction(): RecoverFS is the cwnd before the cut, the
// catch-up max(prr_delivered - prr_out, delivered) on every ACK, one more where SND.UNA
// advanced. ns-3.37 TcpPrrRecovery::DoRecovery() with its default SSRB bound: RecoverFS
// is the data outstanding at entry, and the catch-up (with its one more) only on a
// partial ACK that covers a retransmission not SACKed (m_isRetransDataAcked); any other
// ACK sends no more than it delivered.
enum class PrrBound : std::uint8_t { Linux, Ns3 };

struct RecoveryPolicy
{
    RecoveryWindow window = RecoveryWindow::Prr;
    PrrBound prrBound = PrrBound::Linux;
    RtoSsthresh rto = RtoSsthresh::ModelRule;
    // tcp_init_cwnd_reduction() clears snd_cwnd_cnt; false keeps the congestion
    // avoidance credit across the recovery.
    bool clearCwndCountAtEntry = true;
};

class LossRecovery
{
public:
    LossRecovery(CongestionModel& model, const RecoveryPolicy& policy) : m_model(&model), m_policy(policy) {}

    // tcp_set_ca_state(): the model's set_state hook, then the state.
    void setState(SenderState& state, CaState next);

    // tcp_enter_recovery() -> tcp_init_cwnd_reduction(): prior cwnd and ssthresh kept for
    // undo, ssthresh from the model, the recovery point, PRR's counters, the undo
    // markers, snd_cwnd_cnt cleared; with the classic window the cut happens here,
    // unless the model is rate-based and sets the window itself.
    void enterRecovery(SenderState& state, const RecoveryEntry& entry);

    // tcp_cwnd_reduction() (RFC 6937 3 with the SSRB bound): an ACK during recovery that
    // delivered `delivered` segments leaves cwnd at pipe + sndcnt. No-op with the
    // classic window or when nothing was delivered. retransmissionAcked: SND.UNA moved
    // over a re-sent segment not SACKed (read with PrrBound::Ns3 only).
    // boundDelivered: with PrrBound::Ns3, what the catch-up bound reads as delivered
    // where the caller saw several ACKs and no send between them (the sender sent after
    // each what it allowed); 0: this ACK's delivered.
    void prrStep(SenderState& state, std::int64_t pipeSegments, std::uint32_t delivered, bool unaAdvanced,
                 bool retransmissionAcked = false, std::uint32_t boundDelivered = 0);
    // prr_out: segments sent while in recovery (tcp_cwnd_reduction() reads it).
    void onSent(const SenderState& state, std::uint32_t segments);

    // A retransmission went out: undo_retrans counts it and the first one's TSval is
    // retrans_stamp (tcp_retransmit_skb()).
    void onRetransmit(bool hasTimestamps, std::uint32_t tsVal);
    // tcp_check_dsack(): a D-SACK proved one re-send unnecessary.
    void onDsack();

    // The ACK that reached the recovery point (Recovery or Loss): tcp_try_undo_recovery()
    // restores the window when the model undoes and the evidence shows every re-send
    // unnecessary or the original delivered (tcp_packet_delayed()); otherwise
    // tcp_end_cwnd_reduction() leaves a fast recovery at ssthresh. Back to Open.
    // Returns true when the reduction was undone.
    bool endRecovery(SenderState& state, const UndoEvidence& evidence);

    // tcp_enter_loss(): the model's rule for ssthresh at an RTO, cwnd to one segment,
    // the recovery point, state Loss. A fresh ssthresh (and new undo markers) unless
    // the RTO repeats one still being recovered from; during a fast recovery Linux
    // keeps the ssthresh already set, a model whose traits say rtoResetsSsthresh takes
    // a new one then and at every backed-off RTO (ns-3 TcpSocketBase::ReTxTimeout()).
    void enterLoss(SenderState& state, const LossEntry& entry);

    RecoveryWindow window() const { return m_policy.window; }
    std::uint64_t prrDelivered() const { return m_prrDelivered; }
    std::uint64_t prrOut() const { return m_prrOut; }
    const UndoMarkers& undo() const { return m_undo; }

private:
    void initUndo();

    CongestionModel* m_model;
    RecoveryPolicy m_policy;
    std::uint64_t m_prrDelivered = 0, m_prrOut = 0; // RFC 6937, in segments
    std::uint64_t m_recoverFsBytes = 0;              // RecoverFS (PrrBound::Ns3)
    UndoMarkers m_undo;
};

} // namespace windscope::analysis::cwnd
