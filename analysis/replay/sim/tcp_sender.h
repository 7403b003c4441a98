// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The simulated TCP sender of a bulk transfer. The window arithmetic is the shared
// congestion-control models of analysis/sender and its loss recovery (LossRecovery:
// recovery entry, PRR, end of recovery, RTO entry), the same classes the cwnd
// inference's model fit runs, acting on their plain SenderState; this class adds what
// they leave to the stack: SACK scoreboard and loss marking (RFC 6675 with DupThresh 3, and
// RACK-TLP of RFC 8985 as Linux runs it), NewReno partial ACKs without SACK (RFC 6582), the
// retransmission timer (RFC 6298 estimators, Linux
// __tcp_set_rto() bound srtt + max(4 rttvar, rto_min), exponential backoff), the zero
// window (persist timer, RFC 9293 3.8.6.1; an RTO while the window is zero is a probe
// that keeps cwnd, Linux tcp_retransmit_timer(), where ns-3 stops the timer and probes
// on the persist timer alone), and pacing.

#include "analysis/sender/congestion_model.h"
#include "analysis/sender/loss_recovery.h"
#include "event_queue.h"
#include "packet.h"
#include "analysis/replay/scenario/scenario.h"

#include <functional>
#include <memory>
#include <vector>

namespace windscope::analysis::replay {

struct SenderCounters
{
    std::uint64_t dataSegments = 0;      // transmissions, retransmissions included
    std::uint64_t retransmissions = 0;
    std::uint64_t rtoTimeouts = 0;       // RTOs that entered Loss
    std::uint64_t zeroWindowProbes = 0;  // persist probes and RTOs under a zero window
    std::uint64_t fastRecoveries = 0;
    std::uint64_t lossProbes = 0;        // TLP probes sent
};

// Sender state after each transmission, for the cwnd plot of a replay run.
struct SenderSample
{
    std::int64_t timeNs = 0;
    std::uint64_t cwndBytes = 0, ssthreshBytes = 0, inFlightBytes = 0, rwndBytes = 0;
    cwnd::CaState state = cwnd::CaState::Open;
};

class TcpSender
{
public:
    using Output = std::function<void(const Packet&)>;
    TcpSender(EventQueue& queue, const SenderParams& params, std::uint64_t totalSegments, std::int64_t stopNs,
              std::uint64_t initialRwnd, std::unique_ptr<cwnd::CongestionModel> model, Output output);

    void start();
    void onAck(const Packet& ack);
    // A time-bound transfer past its stop time with nothing outstanding is done.
    void checkIdleDone()
    {
        if (!m_done && m_una >= m_nxt && !moreNewData()) {
            m_done = true;
            m_doneNs = m_queue.now();
            m_rtoTimer.cancel();
            m_persistTimer.cancel();
        }
    }

    bool done() const { return m_done; }
    std::int64_t doneNs() const { return m_doneNs; }
    std::int64_t segmentsAcked() const { return m_una; }
    const SenderCounters& counters() const { return m_counters; }
    const std::vector<SenderSample>& samples() const { return m_samples; }
    const cwnd::SenderState& state() const { return m_state; }
    std::int64_t rtoNs() const { return m_rtoNs; }

private:
    struct Segment
    {
        std::int64_t lastSentNs = 0;
        bool sacked = false, lost = false, inPipe = false, retransmitted = false;
        // Resent while still in the pipe (RFC 6675 NextSeg() rule 3): counted twice.
        bool resentInPipe = false;
    };

    void trySend();
    void sendWhatFits();
    void transmit(std::int64_t index, bool retransmission);
    // RFC 6675 NextSeg() rule 3: with nothing lost to resend and no new data the windows
    // allow, the first unSACKed segment above HighRxt. Returns false when none.
    bool sendForwardRetransmission();
    void sendProbe();
    void onRtoTimer();
    void onPersistTimer();
    // RACK (RFC 8985 6.2): a segment sent before the most recently delivered one and
    // unacknowledged an RTT (plus the reordering window) after it was sent is lost.
    // Returns true when it marked one; arms the reordering timer for the rest.
    bool rackDetectLoss();
    void onRackTimer();
    void scheduleLossProbe();
    void onLossProbeTimer();
    bool rackTlp() const { return m_params.rackTlp && m_params.sack; }
    bool prr() const { return m_params.prr && m_params.sack; }
    // The RTO doubled by the backoff (RFC 6298 5.5), at most max_rto: the
    // retransmission and the persist timers' interval.
    std::int64_t backedOffRtoNs() const;
    void armRto();
    void rttSample(std::int64_t rttNs);
    void enterRecovery();
    // The steps of one ACK (onAck()).
    // RFC 2018: segments the SACK blocks newly cover leave the pipe; returns how many.
    std::uint32_t processSackBlocks(const Packet& ack, std::int64_t ackSeg);
    // SND.UNA advances to ackSeg: RTT, timers, the end of a recovery, the model's
    // growth. Returns false when that completed the transfer.
    bool processCumulativeAck(const Packet& ack, std::int64_t ackSeg, std::uint32_t& delivered);
    // RFC 5681 2 / RFC 6582 without SACK; returns true when it marked a loss.
    bool processDuplicateAck(const Packet& ack, std::uint64_t previousRwnd);
    // RFC 6675 IsLost() on the scoreboard, then RACK; true when a loss was marked.
    bool markLosses();
    // Enter a fast recovery on a new loss, or run PRR inside one.
    void updateRecovery(bool newLoss, std::uint32_t delivered, bool unaAdvanced);
    // RFC 8985 6.2 RACK_update() for a segment this ACK delivered.
    void rackAdvance(std::int64_t index);
    void markLost(std::int64_t index);
    void removeFromPipe(Segment& s);
    bool moreNewData() const;
    std::uint64_t flightBytes() const { return static_cast<std::uint64_t>(m_nxt - m_una) * m_state.mss; }

    EventQueue& m_queue;
    SenderParams m_params;
    std::uint64_t m_total;       // 0: unlimited (time-bound)
    std::int64_t m_stopNs;
    std::unique_ptr<cwnd::CongestionModel> m_model;
    cwnd::LossRecovery m_recovery;
    cwnd::CongestionRtt m_congestionRtt;
    cwnd::StackAckRule m_ackRule;
    Output m_output;
    cwnd::SenderState m_state;

    std::vector<Segment> m_segments;
    std::int64_t m_una = 0, m_nxt = 0;
    std::int64_t m_pipe = 0;              // segments in flight (RFC 6675 pipe)
    std::int64_t m_highSack = -1;         // highest SACKed segment
    std::int64_t m_lossScan = 0;          // segments below are loss-checked
    std::int64_t m_retxScan = 0;          // lowest segment that may need retransmission
    std::uint32_t m_dupAcks = 0;
    std::uint32_t m_dupCredit = 0;        // RFC 6582 window inflation, no SACK
    std::int64_t m_highRxt = -1;          // RFC 6675 HighRxt: the highest segment resent in this recovery
    // The model's stack: ns-3's grows by the segments SND.UNA moved over (m_ackRule).
    bool m_ns3Stack = false;
    // This ACK moved SND.UNA over a re-sent segment not SACKed (ns-3's
    // m_isRetransDataAcked, which its PRR bound reads).
    bool m_retransmissionAcked = false;
    // ns-3: a partial ACK's resend of the next lost segment, beyond the window.
    bool m_partialAckResendDue = false;
    bool m_fastRetransmitDue = false;     // RFC 6675 4.3: the recovery's first retransmission, whatever the pipe
    std::uint64_t m_rwnd;
    std::int64_t m_srttNs = -1, m_rttvarNs = 0, m_rtoNs;
    std::uint32_t m_backoff = 0;
    std::int64_t m_nextSendNs = 0;        // pacing
    // RACK: send time, segment and RTT of the most recently sent segment delivered.
    std::int64_t m_rackXmitNs = -1, m_rackSegment = -1, m_rackRttNs = 0;
    std::int64_t m_tlpHigh = -1;          // m_nxt when the outstanding probe went out
    bool m_sendScheduled = false;
    bool m_done = false;
    std::int64_t m_doneNs = -1;
    std::uint64_t m_packetIds = 0;
    Timer m_rtoTimer, m_persistTimer, m_rackTimer, m_tlpTimer;
    SenderCounters m_counters;
    std::vector<SenderSample> m_samples;
};

} // namespace windscope::analysis::replay
