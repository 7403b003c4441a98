// SPDX-License-Identifier: GPL-3.0-or-later
#include "model_fit.h"

#include "analysis/sender/loss_recovery.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>
#include <unordered_map>

namespace windscope::analysis::cwnd {

namespace {

constexpr std::uint32_t kNotRetransmission =
    segment_flag::kZeroWindowProbe | segment_flag::kKeepAlive | kDelayedOriginal;

class Replayer
{
public:
    Replayer(const FlowEvents& flow, const CongestionModel& model, bool keepSamples, ReplayScratch& scratch)
        : m_flow(flow), m_model(model.clone()), m_recovery(*m_model, followPolicy(modelStackOf(model))),
          m_congestionRtt(modelStackOf(model)), m_ackRule(modelStackOf(model)),
          m_ns3Stack(modelStackOf(model) == ModelStack::Ns3),
          m_keep(keepSamples),
          m_sent(scratch.sent), m_resentAt(scratch.resentAt)
    {
        m_sent.clear();
        m_resentAt.clear();
        if (m_keep) {
            m_result.samples = std::move(scratch.spareSamples);
            m_result.samples.clear();
        }
        m_state.mss = std::max<std::uint32_t>(flow.mss, 1);
        m_state.setCwndSegments(10); // RFC 6928 / Linux TCP_INIT_CWND
        m_state.ssthresh = kInfiniteSsthresh;
        m_rwnd = flow.initialRwndBytes;
        m_result.fit.model = model.name();
        m_result.fit.growthOf = model.traits().growthOf;
        m_result.fit.stack = modelStackOf(model);
    }

    ReplayResult run();

private:
    void onAck(const FlowEvent& e);
    void onData(const FlowEvent& e, bool burstEnd);
    void enterRecovery(const FlowEvent& e);
    void enterLoss(const FlowEvent& e);
    void leaveRecovery(const FlowEvent& e);
    void validateCwnd(bool limitedNow);
    void noteFirstLoss();
    void noteLossWindow()
    {
        // A 64-bit polynomial fold (FNV-1a's prime): equal sequences give equal values.
        constexpr std::uint64_t kPrime = 1099511628211ull;
        m_result.fit.lossWindows = m_result.fit.lossWindows * kPrime + m_state.ssthresh / m_state.mss + 1;
    }
    double costSoFar() const;
    std::uint64_t flightAtRtoInRecovery() const;
    double unseenTimerRtos(const FlowEvent& e) const;
    int unseenTimeouts(const FlowEvent& e) const;
    bool resumesAfterUnseenTimeouts(const FlowEvent& e) const;
    void timedOut(const FlowEvent& e);
    // The pipe as the model's stack counts it: Linux's tcp_packets_in_flight() (a hole
    // below the highest SACK is lost, a SACKed re-send is out of flight), ns-3's
    // BytesInFlight() (Scoreboard::pipeNs3()), which its PRR and its send window read.
    std::uint64_t pipe() const
    {
        return m_ns3Stack ? m_board.pipeNs3(m_state.sndNxt, m_state.mss) : m_board.pipe(m_state.sndNxt);
    }
    std::uint32_t segments(std::uint64_t bytes) const
    {
        return static_cast<std::uint32_t>((bytes + m_state.mss - 1) / m_state.mss);
    }
    std::int64_t pipeSegments() const { return segments(pipe()); }

    // The captured senders (Linux, ns-3's TcpPrrRecovery) bring the window down with PRR,
    // each with its own bound (PrrBound).
    static RecoveryPolicy followPolicy(ModelStack stack)
    {
        return {.window = RecoveryWindow::Prr,
                .prrBound = stack == ModelStack::Ns3 ? PrrBound::Ns3 : PrrBound::Linux};
    }

    const FlowEvents& m_flow;
    std::unique_ptr<CongestionModel> m_model;
    LossRecovery m_recovery;
    CongestionRtt m_congestionRtt;
    StackAckRule m_ackRule;
    bool m_ns3Stack;
    bool m_keep;
    SenderState m_state;
    Scoreboard m_board;
    ReplayResult m_result;
    std::uint64_t m_rwnd = 0;
    bool m_started = false;
    // Delivered bytes not yet a whole segment (Linux counts packets, we see bytes).
    std::uint64_t m_deliveredCarry = 0;
    std::uint32_t m_lastDelivered = 0;
    bool m_lastUnaAdvanced = false;
    // What the ACKs since the last send delivered, and whether one of them acknowledged a
    // re-send: ns-3's PRR bounds each ACK's sends by what it delivered, and the sender
    // sent after each ACK, where the capture shows an aggregate's ACKs together and the
    // data they released after them.
    std::uint32_t m_deliveredSinceSend = 0;
    bool m_retransmissionAckedSinceSend = false;
    // tcp_cwnd_validate(): is_cwnd_limited, max_packets_out, cwnd_usage_seq.
    std::uint32_t m_maxPacketsOut = 0;
    std::int64_t m_cwndUsageSeq = 0;
    // Send times for RTT samples (Karn: re-sent data gives none).
    using Sent = ReplayScratch::Sent;
    std::vector<Sent>& m_sent;
    std::size_t m_sentHead = 0;
    double m_gapSum = 0;
    // First re-send time per sequence number in the current episode: sending the same
    // data again a timeout later is the retransmission timer (RFC 6298 5.4), even when
    // the direction was never silent long enough for kRtoTimeout.
    std::unordered_map<std::int64_t, std::int64_t>& m_resentAt;
    // When SND.UNA last advanced: the retransmission timer restarts then (RFC 6298 5.3).
    std::int64_t m_unaAdvancedNs = 0;
    // Duplicate ACKs since then (RFC 6675 2: with SACK, one that SACKs new data): a
    // fast retransmit needs them. ns-3 enters recovery on the DupThresh-th
    // (TcpSocketBase::DupAck()) and takes ssthresh from BytesInFlight() then, not at
    // the re-send the capture sees some ACKs later, whose SACKs have by then made more
    // holes lost. Where the re-send went with that ACK (within the timestamps' placing,
    // ns-3 re-sending the head on entering recovery), the data placed between them went
    // before it too: ACKs that reached the sender together (one A-MPDU) each released
    // data its radio sent after the last of them, in one tick of its clock.
    std::uint32_t m_dupAcksSinceAdvance = 0;
    struct FlightAtDupThresh {
        std::uint64_t pipe = 0;
        std::int64_t sndNxt = 0;
        std::int64_t ackNs = 0; // the sender's time of that ACK
        // Segments delivered from that ACK on: ns-3 ran its PRR on each of them, in
        // recovery since that ACK, where the model enters it at the re-send.
        std::uint32_t deliveredSince = 0;
    };
    std::optional<FlightAtDupThresh> m_ns3FlightAtDupThresh;
    // When the sender's timer last restarted, as its stack restarts it (m_ackRule): a
    // recovery that drags on times out in ns-3, which restarts it at the first partial
    // ACK alone.
    std::int64_t m_timerStartNs = 0;
    // The previous data segment's send time (the timer's first timeout, from
    // m_congestionRtt's estimator, for the timeouts a capture away from the sender did
    // not see).
    std::int64_t m_lastSendNs = 0;
    bool m_lastSendFull = false;
};

double Replayer::costSoFar() const
{
    ModelFit f = m_result.fit;
    f.meanGap = f.burstEnds ? m_gapSum / static_cast<double>(f.burstEnds) : 0;
    return f.cost();
}

void Replayer::noteFirstLoss()
{
    if (m_result.fit.lossEpisodes == 0)
        m_result.costBeforeFirstLoss = costSoFar();
}

void Replayer::validateCwnd(bool limitedNow)
{
    // tcp_cwnd_validate(): remember, per window of data, whether the sender filled cwnd
    // and the most it had out, which tcp_is_cwnd_limited() then consults.
    const std::uint32_t packetsOut = segments(static_cast<std::uint64_t>(m_state.sndNxt - m_state.sndUna));
    if (m_state.sndUna >= m_cwndUsageSeq || limitedNow ||
        (!m_state.cwndLimited && packetsOut > m_maxPacketsOut)) {
        m_state.cwndLimited = limitedNow;
        m_maxPacketsOut = packetsOut;
        m_cwndUsageSeq = m_state.sndNxt;
    }
}

void Replayer::enterRecovery(const FlowEvent& e)
{
    // A re-send outside recovery: the captured sender found a loss (RFC 6675, RACK).
    // ssthresh from the pipe as the model's stack counts it. ns-3's
    // TcpSocketBase::EnterRecovery() marks the head lost and hands its model
    // BytesInFlight(), where a hole is lost only with DupThresh segments SACKed above
    // it (TcpTxBuffer::IsLost()): the holes the last few ACKs opened are still in
    // flight there. (Linux's models take cwnd, not the flight.)
    noteFirstLoss();
    ++m_result.fit.lossEpisodes;
    // A data segment's time is placed from its TSval, truncated to the tick, and a tick
    // more is taken off its queueing (flow_events.cpp): two ticks from the ACK.
    constexpr std::int64_t kSameMomentNs = 2 * kTsValTickNs;
    std::uint64_t flight = pipe();
    // ns-3's RecoverFS: the data outstanding when it entered the recovery.
    std::int64_t highAtEntry = m_state.sndNxt;
    const bool sameMoment = m_ns3Stack && m_ns3FlightAtDupThresh &&
                            e.senderTimeNs - m_ns3FlightAtDupThresh->ackNs <= kSameMomentNs;
    if (m_ns3Stack && m_ns3FlightAtDupThresh) {
        flight = m_ns3FlightAtDupThresh->pipe;
        if (sameMoment)
            flight += static_cast<std::uint64_t>(std::max<std::int64_t>(0, m_state.sndNxt - m_ns3FlightAtDupThresh->sndNxt));
        else
            highAtEntry = m_ns3FlightAtDupThresh->sndNxt;
    } else if (m_ns3Stack) {
        flight = m_board.pipeNs3(m_state.sndNxt, m_state.mss, true);
    }
    m_recovery.enterRecovery(
        m_state, {.flightBytes = flight,
                  .recoveryPoint = m_state.sndNxt,
                  .outstandingBytes = static_cast<std::uint64_t>(std::max<std::int64_t>(0, highAtEntry - m_state.sndUna))});
    noteLossWindow();
    // The ACK that triggered the retransmission also ran PRR (with ns-3, every ACK since
    // the one that entered the recovery).
    const std::uint32_t delivered = sameMoment ? m_ns3FlightAtDupThresh->deliveredSince : m_lastDelivered;
    m_recovery.prrStep(m_state, pipeSegments(), std::max<std::uint32_t>(1, delivered), m_lastUnaAdvanced);
}

std::uint64_t Replayer::flightAtRtoInRecovery() const
{
    // ns-3's TcpSocketBase::ReTxTimeout() takes ssthresh from its own BytesInFlight(),
    // counted on its scoreboard with RFC 6675's IsLost(): that is the pipe here when
    // the receive window left the sender room. (Where ns-3's recovery window fell with
    // its flight, the model's PRR window can stay above both.) Held at the receive
    // window, the sender's count and the one rebuilt from the capture part ways (it
    // can mark more lost than the sender did), and PRR's window is the flight the
    // sender kept out.
    const std::uint64_t outstanding =
        static_cast<std::uint64_t>(std::max<std::int64_t>(0, m_state.sndNxt - m_state.sndUna));
    if (outstanding + m_state.mss > m_rwnd)
        return std::max(pipe(), m_state.cwnd);
    return m_board.pipeNs3(m_state.sndNxt, m_state.mss);
}

void Replayer::enterLoss(const FlowEvent&)
{
    if (m_state.state != CaState::Loss) {
        noteFirstLoss();
        ++m_result.fit.lossEpisodes;
    }
    m_recovery.enterLoss(m_state, {.flightBytes = pipe(),
                                   .flightInRecoveryBytes = flightAtRtoInRecovery(),
                                   .recoveryPoint = m_state.sndNxt});
    m_board.markAllLost(m_state.sndNxt);
    noteLossWindow();
}

// A timer is taken to have run out once the time reaches its RTO less a twentieth: the
// send times are rebuilt from 1 ms TSval ticks and the RTO from rebuilt RTT samples.
constexpr double kTimerSlack = 0.95;

// Away from the sender, how long the retransmission timer had run, in units of its
// first RTO (RFC 6298 2.3, at least the minimum), when e was sent, provided nothing the
// capture saw was sent since the timer last restarted (SND.UNA advanced); 0 otherwise.
double Replayer::unseenTimerRtos(const FlowEvent& e) const
{
    if (m_flow.vantage.point == VantagePoint::Sender || !m_congestionRtt.estimator().hasSample() || m_lastSendNs > m_unaAdvancedNs)
        return 0;
    return static_cast<double>(e.senderTimeNs - m_unaAdvancedNs) /
           static_cast<double>(m_congestionRtt.estimator().timeoutThresholdNs(kMinRtoNs, 1));
}

// Away from the sender, a timer that ran while nothing reached the capture (the
// station away, the path down) fired unseen before the retransmission that got
// through: the backoff (RFC 6298 5.5) doubles each timeout, so k of them span
// RTO (2^k - 1). Each fired timeout re-sent only the head, and a model that takes a
// new ssthresh at every timeout takes it from that one segment: from the second on
// the count changes nothing, and six bound the loop.
int Replayer::unseenTimeouts(const FlowEvent& e) const
{
    constexpr int kMaxUnseenTimeouts = 6;
    const double rtos = unseenTimerRtos(e);
    int timeouts = 1;
    while (timeouts < kMaxUnseenTimeouts && rtos >= kTimerSlack * static_cast<double>((2 << timeouts) - 1))
        ++timeouts;
    return timeouts - 1;
}

// Away from the sender, data that resumes at the head after a silence the timer
// spans, with nothing outstanding that the capture saw: the sender's window was open
// and it had been sending full segments, so it kept sending, unseen, and the
// resumption is its timer re-sending SND.UNA. An application that paused would have
// ended on a short segment (its last write); a closed window is the persist timer's.
bool Replayer::resumesAfterUnseenTimeouts(const FlowEvent& e) const
{
    return m_lastSendFull && m_state.sndNxt == m_state.sndUna && e.seq() == m_state.sndUna &&
           m_rwnd >= m_state.mss && unseenTimerRtos(e) >= kTimerSlack;
}

void Replayer::timedOut(const FlowEvent& e)
{
    const int unseen = unseenTimeouts(e);
    enterLoss(e);
    for (int i = 0; i < unseen; ++i) {
        m_board.retransmitted(e.seq(), e.end());
        enterLoss(e);
    }
}

void Replayer::leaveRecovery(const FlowEvent& e)
{
    m_recovery.endRecovery(m_state, {.hasTimestamps = e.hasTimestamps, .tsEcr = e.tsEcr});
}

void Replayer::onAck(const FlowEvent& e)
{
    m_rwnd = e.windowBytes();
    if (!m_started || e.ack() < m_state.sndUna)
        return;
    const bool unaAdvanced = e.ack() > m_state.sndUna;
    std::uint64_t deliveredBytes = 0;
    std::int64_t rttNs = -1, ns3RttNs = -1;
    const std::int64_t oldUna = m_state.sndUna;
    // ns-3's PRR catches up beyond what an ACK delivered only on a partial ACK over a
    // re-sent segment not SACKed (TcpSocketBase::ProcessAck(), m_isRetransDataAcked).
    const bool retransmissionAcked = unaAdvanced && m_state.state == CaState::Recovery &&
                                     e.ack() < m_state.recoveryPoint && m_board.resentUnsacked(oldUna, e.ack());
    if (unaAdvanced) {
        m_unaAdvancedNs = e.senderTimeNs;
        deliveredBytes += m_board.advance(e.ack());
        m_state.sndUna = e.ack();
        // Linux ca_rtt_us: the newest segment this ACK covers, unless re-sent. ns-3's
        // EstimateRtt(): a sample only when the oldest segment it covers was not
        // re-sent, now less the tick its TSecr echoes (1 ms timestamps), or less that
        // segment's send time without timestamps.
        bool first = true;
        while (m_sentHead < m_sent.size() && m_sent[m_sentHead].end <= e.ack()) {
            const Sent& s = m_sent[m_sentHead++];
            rttNs = s.resent ? -1 : e.senderTimeNs - s.timeNs;
            if (first && m_ns3Stack && !s.resent)
                ns3RttNs = e.hasTimestamps && e.tsEcr != 0 && m_flow.tsClockKnown
                               ? e.senderTimeNs - m_flow.tsTickStartNs(e.tsEcr)
                               : e.senderTimeNs - s.timeNs;
            first = false;
        }
        if (m_sentHead > 4096 && m_sentHead * 2 > m_sent.size()) {
            m_sent.erase(m_sent.begin(), m_sent.begin() + static_cast<std::ptrdiff_t>(m_sentHead));
            m_sentHead = 0;
        }
    }
    std::uint64_t sackedBytes = 0;
    for (int i = 0; i < e.sackCount; ++i) {
        bool dsack = false;
        sackedBytes += m_board.sack(m_flow.sackEdge(e, 2 * i), m_flow.sackEdge(e, 2 * i + 1), m_state.sndNxt, dsack);
        if (dsack && i == 0)
            m_recovery.onDsack();
    }
    const std::uint32_t duplicatesBefore = m_dupAcksSinceAdvance;
    if (unaAdvanced) {
        m_dupAcksSinceAdvance = 0;
        m_ns3FlightAtDupThresh.reset();
    } else if (e.ack() == m_state.sndUna && m_state.sndNxt > m_state.sndUna && (e.sackCount == 0 || sackedBytes > 0) &&
               ++m_dupAcksSinceAdvance == kDupThresh && m_ns3Stack &&
               (m_state.state == CaState::Open || m_state.state == CaState::Disorder)) {
        m_ns3FlightAtDupThresh =
            FlightAtDupThresh{m_board.pipeNs3(m_state.sndNxt, m_state.mss, true), m_state.sndNxt, e.senderTimeNs};
    }
    // The timer and the growth as the stack has them (an ACK rebuilt from the sender's
    // TSecr is known by the data sent a round trip before, not by its edge).
    StackAckRule::Outcome rule;
    if (unaAdvanced)
        rule = m_ackRule.onUnaAdvance(m_state, oldUna, e.ack(), sackedBytes > 0, !(e.flags & kRebuiltAck),
                                      duplicatesBefore);
    if (unaAdvanced && rule.restartTimer)
        m_timerStartNs = e.senderTimeNs;
    deliveredBytes += sackedBytes;
    m_deliveredCarry += deliveredBytes;
    const auto delivered = static_cast<std::uint32_t>(m_deliveredCarry / m_state.mss);
    m_deliveredCarry %= m_state.mss;
    m_lastDelivered = delivered;
    m_deliveredSinceSend += delivered;
    m_retransmissionAckedSinceSend = m_retransmissionAckedSinceSend || retransmissionAcked;
    if (m_ns3FlightAtDupThresh)
        m_ns3FlightAtDupThresh->deliveredSince += delivered;
    m_lastUnaAdvanced = unaAdvanced;
    m_state.pipeBytes = pipe();

    const AckEvent ack{.nowNs = e.senderTimeNs,
                       .ackedSegments = delivered,
                       .ackedBytes = deliveredBytes,
                       .rttNs = m_congestionRtt.onAck(m_state, m_ns3Stack ? ns3RttNs : rttNs)};
    // ns-3 counts what StackAckRule says, an ACK at SND.UNA with data outstanding one.
    const bool duplicate = !unaAdvanced && e.ack() == m_state.sndUna && m_state.sndNxt > m_state.sndUna;
    if (!m_ns3Stack) {
        if (unaAdvanced || delivered)
            m_model->pktsAcked(m_state, ack);
    } else if (duplicate || (unaAdvanced && rule.ns3CountsAcked)) {
        const std::uint32_t counted = unaAdvanced ? rule.ns3PktsAcked : StackAckRule::kNs3PktsAckedOnDuplicate;
        m_model->pktsAcked(m_state, AckEvent{.nowNs = ack.nowNs,
                                             .ackedSegments = counted,
                                             .ackedBytes = std::uint64_t{counted} * m_state.mss,
                                             .rttNs = ack.rttNs});
    }

    switch (m_state.state) {
    case CaState::Recovery:
        if (m_state.sndUna >= m_state.recoveryPoint) {
            leaveRecovery(e);
            break;
        }
        // The pipe was counted above, after this ACK's SACKs.
        m_recovery.prrStep(m_state, segments(m_state.pipeBytes), delivered, unaAdvanced,
                           m_retransmissionAckedSinceSend, m_deliveredSinceSend);
        return;
    case CaState::Loss:
        if (m_state.sndUna >= m_state.recoveryPoint)
            leaveRecovery(e);
        break;
    default:
        m_recovery.setState(m_state, m_board.anySacked() ? CaState::Disorder : CaState::Open);
        break;
    }
    // tcp_cong_control(): grow only on an ACK that advanced SND.UNA
    // (tcp_may_raise_cwnd(), FLAG_DATA_ACKED), by everything it delivered.
    // ns-3 in CA_OPEN (and CA_LOSS) only, by the segments SND.UNA moved over.
    if (m_ns3Stack && unaAdvanced && rule.ns3Segments && rule.grows)
        m_model->increaseWindow(m_state, AckEvent{.nowNs = ack.nowNs,
                                                  .ackedSegments = rule.ns3Segments,
                                                  .ackedBytes = std::uint64_t{rule.ns3Segments} * m_state.mss,
                                                  .rttNs = ack.rttNs});
    else if (!m_ns3Stack && unaAdvanced && delivered)
        m_model->increaseWindow(m_state, ack);
}

void Replayer::onData(const FlowEvent& e, bool burstEnd)
{
    if (!m_started) {
        m_started = true;
        m_unaAdvancedNs = m_timerStartNs = e.senderTimeNs;
        m_state.sndUna = m_state.sndNxt = e.seq();
        m_cwndUsageSeq = e.seq();
        m_board.reset(e.seq());
        m_model->init(m_state);
        if (m_flow.vantage.handshakeRttNs > 0)
            m_congestionRtt.onHandshake(m_state, m_flow.vantage.handshakeRttNs);
    }
    const bool resend = e.seq() < m_state.sndNxt && !(e.flags & kNotRetransmission);
    if (resend && e.end() > m_state.sndUna) {
        bool timeout = (e.flags & segment_flag::kRtoTimeout) != 0;
        if (m_state.state == CaState::Recovery) {
            const auto it = m_resentAt.find(e.seq());
            timeout |= it != m_resentAt.end() && e.senderTimeNs - it->second >= kMinRtoNs;
            // Re-sending the oldest hole a timeout after SND.UNA last moved is the timer
            // too: fast recovery re-sent it at once, and that copy was lost before a
            // capture past the bottleneck queue could see it.
            const bool headResent = e.seq() <= m_state.sndUna;
            timeout |= headResent && e.senderTimeNs - m_unaAdvancedNs >= kMinRtoNs;
            // ns-3's timer runs from the recovery's first partial ACK: a head re-sent an
            // RTO after that is the timer's, unless it left within a tick of the latest
            // partial ACK (TcpSocketBase re-sends the new head at once, DoRetransmit()).
            timeout |= m_ns3Stack && headResent && e.senderTimeNs - m_unaAdvancedNs > kTsValTickNs &&
                       static_cast<double>(e.senderTimeNs - m_timerStartNs) >=
                           kTimerSlack * static_cast<double>(m_congestionRtt.estimator().timeoutThresholdNs(kMinRtoNs, 1));
        }
        // The head re-sent with neither a duplicate ACK nor a SACK since SND.UNA last
        // moved, a minimum RTO later: no fast retransmit (RFC 5681 3.2, RFC 6675 5,
        // RACK) has anything to start from, so the timer sent it. Away from the sender a
        // resend may reach the capture right behind the data it repeats (a radio that
        // retried them to a departed station), which Wireshark calls out of order and
        // the silence rule of tcp_measure never sees. With one segment out, Linux's
        // tail loss probe re-sends the head too, without the timeout's reduction.
        // In Loss, the head re-sent again so is the timer backed off (its first copy
        // lost too): the loss state re-sends each segment once. Away from the sender
        // the two copies may reach the capture closer than the timer ran, the first
        // held in a queue the second found empty.
        const bool headUnprompted = e.seq() == m_state.sndUna && m_dupAcksSinceAdvance == 0;
        timeout |= m_state.state == CaState::Open && headUnprompted &&
                   m_state.sndNxt - m_state.sndUna > static_cast<std::int64_t>(m_state.mss) &&
                   static_cast<double>(e.senderTimeNs - m_unaAdvancedNs) >= kTimerSlack * static_cast<double>(kMinRtoNs);
        timeout |= m_state.state == CaState::Loss && headUnprompted && m_resentAt.contains(e.seq());
        if (m_state.state == CaState::Open || m_state.state == CaState::Disorder || timeout)
            m_resentAt.clear();
        m_resentAt.emplace(e.seq(), e.senderTimeNs);
        if (timeout)
            timedOut(e);
        else if (m_state.state == CaState::Open || m_state.state == CaState::Disorder)
            enterRecovery(e);
        m_recovery.onRetransmit(e.hasTimestamps, e.tsVal);
        m_board.retransmitted(e.seq(), e.end());
    } else if (resend ? (e.flags & segment_flag::kRtoTimeout) != 0 : resumesAfterUnseenTimeouts(e)) {
        // The timer re-sent data the capture saw acknowledged (those ACKs were lost past
        // the capture, e.g. a station that left its AP, and the sender timed out as if
        // they had never been sent), or data that looks new here (the sends before it
        // were lost unseen).
        m_resentAt.clear();
        m_resentAt.emplace(e.seq(), e.senderTimeNs);
        timedOut(e);
        m_recovery.onRetransmit(e.hasTimestamps, e.tsVal);
    }
    m_lastSendNs = e.senderTimeNs;
    m_lastSendFull = e.end() - e.seq() >= static_cast<std::int64_t>(m_state.mss);
    if (e.end() > m_state.sndNxt)
        m_state.sndNxt = e.end();
    m_recovery.onSent(m_state, segments(static_cast<std::uint64_t>(e.end() - e.seq())));
    m_deliveredSinceSend = 0;
    m_retransmissionAckedSinceSend = false;
    m_sent.push_back({e.end(), e.senderTimeNs, resend});

    const std::uint64_t pipeNow = pipe();
    const std::uint64_t flight = static_cast<std::uint64_t>(std::max<std::int64_t>(0, m_state.sndNxt - m_state.sndUna));
    m_state.pipeBytes = pipeNow;
    // Linux sends while tcp_packets_in_flight() < cwnd, so after a send pipe <= cwnd.
    validateCwnd(pipeNow + m_state.mss / 2 >= m_state.cwnd);

    const bool persist = m_rwnd == 0;
    // Besides the receive window, the send buffer bounds the flight (ns-3 grows cwnd far
    // beyond it); its size is not on the wire, but the flight never exceeded it. Within
    // a sixteenth of that bound counts as at it: send times estimated away from the
    // sender (TSval ticks, queueing) blur the flight by a few segments.
    const std::uint64_t window = std::min(m_rwnd, std::max<std::uint64_t>(m_flow.maxFlightBytes, m_state.mss));
    const bool rwndLimited = !persist && flight + std::max<std::uint64_t>(m_state.mss, window / 16) > window &&
                             window < m_state.cwnd + m_state.mss;
    const bool appLimited = !resend && e.end() - e.seq() < static_cast<std::int64_t>(m_state.mss) && !rwndLimited;
    SenderPhase phase;
    if (m_state.state == CaState::Recovery)
        phase = SenderPhase::FastRecovery;
    else if (m_state.state == CaState::Loss)
        phase = SenderPhase::Loss;
    else if (persist)
        phase = SenderPhase::Persist;
    else if (rwndLimited)
        phase = SenderPhase::RwndLimited;
    else if (appLimited)
        phase = SenderPhase::AppLimited;
    else
        phase = m_state.inSlowStart() ? SenderPhase::SlowStart : SenderPhase::CongestionAvoidance;

    ModelFit& fit = m_result.fit;
    if (!persist) {
        ++fit.sends;
        // Only the model's own window: a flight over the receive window is the same for
        // every model (send times estimated away from the sender, or a shrunk window),
        // so it tells none of them apart. A replayed window is good to one segment: the
        // stacks round differently (ns-3 keeps bytes, Linux segments), and an ssthresh
        // taken from a window in mid-recovery carries PRR's rounding for the rest of
        // the connection; a model one segment under the sender's would otherwise be
        // "violated" on every send of a congestion avoidance. Away from the sender the
        // flight is blurred by the same few segments as at the window bound above:
        // only a flight beyond that blur is one the model's window did not allow.
        const std::uint64_t blur = m_flow.vantage.point == VantagePoint::Sender
                                       ? m_state.mss
                                       : std::max<std::uint64_t>(m_state.mss, m_state.cwnd / 16);
        if (pipeNow > m_state.cwnd + blur)
            ++fit.violations;
    }
    if (burstEnd && (phase == SenderPhase::SlowStart || phase == SenderPhase::CongestionAvoidance ||
                     phase == SenderPhase::FastRecovery || phase == SenderPhase::Loss)) {
        // Against the window the model lets the sender use: above the receive window or
        // the send buffer, a model's cwnd is not seen, and no model is judged by it.
        // After a timeout too: the re-sends fill the window the model gives, and the
        // stacks part there (a fresh ssthresh at every backed-off timeout, or not).
        const double c = static_cast<double>(std::min(m_state.cwnd, window));
        m_gapSum += std::min(1.0, std::abs(static_cast<double>(pipeNow) - c) / c);
        ++fit.burstEnds;
    }
    if (m_keep)
        m_result.samples.push_back({e.row, m_state.cwnd, m_state.ssthresh, pipeNow, m_rwnd, phase});
}

ReplayResult Replayer::run()
{
    const std::vector<FlowEvent>& events = m_flow.events;
    if (m_keep)
        m_result.samples.reserve(m_flow.dataSegments);
    for (std::size_t i = 0; i < events.size(); ++i) {
        const FlowEvent& e = events[i];
        m_state.nowNs = e.senderTimeNs;
        if (e.kind == FlowEvent::Kind::Ack) {
            onAck(e);
        } else {
            const bool burstEnd = i + 1 == events.size() || events[i + 1].kind == FlowEvent::Kind::Ack;
            onData(e, burstEnd);
        }
    }
    if (m_result.fit.lossEpisodes == 0)
        m_result.costBeforeFirstLoss = costSoFar();
    if (m_result.fit.burstEnds)
        m_result.fit.meanGap = m_gapSum / static_cast<double>(m_result.fit.burstEnds);
    return std::move(m_result);
}

} // namespace

const char* senderPhaseName(SenderPhase phase)
{
    switch (phase) {
    case SenderPhase::SlowStart: return "slow_start";
    case SenderPhase::CongestionAvoidance: return "congestion_avoidance";
    case SenderPhase::FastRecovery: return "fast_recovery";
    case SenderPhase::Loss: return "loss";
    case SenderPhase::Persist: return "persist";
    case SenderPhase::RwndLimited: return "rwnd_limited";
    case SenderPhase::AppLimited: return "app_limited";
    case SenderPhase::NotFollowed: return "not_followed";
    }
    return "";
}

double ModelFit::cost() const
{
    const double violationRate = sends ? static_cast<double>(violations) / static_cast<double>(sends) : 0;
    return 2 * violationRate + meanGap;
}

ReplayResult replayFlow(const FlowEvents& flow, const CongestionModel& model, bool keepSamples,
                        ReplayScratch* scratch)
{
    if (scratch)
        return Replayer(flow, model, keepSamples, *scratch).run();
    ReplayScratch own;
    return Replayer(flow, model, keepSamples, own).run();
}

} // namespace windscope::analysis::cwnd
