// SPDX-License-Identifier: GPL-3.0-or-later
#include "tcp_sender.h"

#include <algorithm>

namespace windscope::analysis::replay {

namespace {
using cwnd::kDupThresh;
constexpr std::int64_t kMs = 1'000'000;
constexpr std::uint32_t kIpTcpHeaderBytes = 52; // IPv4 and TCP with timestamps

cwnd::RecoveryPolicy recoveryPolicy(const SenderParams& params, bool ns3Stack)
{
    // PRR needs SACK's delivered count; without it the window is cut at once. The RTO
    // rule and the kept snd_cwnd_cnt are the simulator's calibrated choices: with the
    // fit's (Linux's) the lab baselines drift, cubic-wifi 1.9 -> 9.5 % and ns-3's
    // B-handoff-zwa-hold AP 2 past 10 % (docs/replay.md, "One sender engine"). ns-3's
    // TcpSocketBase::ReTxTimeout() sets ssthresh at every timeout, a backed-off one too,
    // from the bytes in flight then: after a first timeout the one segment it resent,
    // so 2 MSS (the model's rule, with that flight: onRtoTimer()).
    return {.window = params.prr && params.sack ? cwnd::RecoveryWindow::Prr
                                                : cwnd::RecoveryWindow::Classic,
            .prrBound = ns3Stack ? cwnd::PrrBound::Ns3 : cwnd::PrrBound::Linux,
            .rto = ns3Stack ? cwnd::RtoSsthresh::ModelRule : cwnd::RtoSsthresh::EachEntry,
            .clearCwndCountAtEntry = false};
}
} // namespace

TcpSender::TcpSender(EventQueue& queue, const SenderParams& params, std::uint64_t totalSegments,
                     std::int64_t stopNs, std::uint64_t initialRwnd,
                     std::unique_ptr<cwnd::CongestionModel> model, Output output)
    : m_queue(queue), m_params(params), m_total(totalSegments), m_stopNs(stopNs),
      m_model(std::move(model)),
      m_recovery(*m_model,
                 recoveryPolicy(params, cwnd::modelStackOf(*m_model) == cwnd::ModelStack::Ns3)),
      m_congestionRtt(cwnd::modelStackOf(*m_model)), m_ackRule(cwnd::modelStackOf(*m_model)),
      m_output(std::move(output)), m_rwnd(initialRwnd),
      m_rtoNs(static_cast<std::int64_t>(params.initialRtoMs * kMs)),
      m_rtoTimer(queue, [this] { onRtoTimer(); }),
      m_persistTimer(queue, [this] { onPersistTimer(); }),
      m_rackTimer(queue, [this] { onRackTimer(); }),
      m_tlpTimer(queue, [this] { onLossProbeTimer(); })
{
    m_ns3Stack = cwnd::modelStackOf(*m_model) == cwnd::ModelStack::Ns3;
    m_state.mss = params.mss;
    m_state.cwnd = static_cast<std::uint64_t>(params.initialWindowSegments) * params.mss;
    m_model->init(m_state);
}

void TcpSender::start()
{
    trySend();
}

bool TcpSender::moreNewData() const
{
    if (m_total > 0 && m_nxt >= static_cast<std::int64_t>(m_total))
        return false;
    return m_total > 0 || m_queue.now() < m_stopNs;
}

void TcpSender::removeFromPipe(Segment& s)
{
    if (s.inPipe) {
        s.inPipe = false;
        --m_pipe;
    }
    if (s.resentInPipe) {
        s.resentInPipe = false;
        --m_pipe;
    }
}

void TcpSender::markLost(std::int64_t index)
{
    Segment& s = m_segments[static_cast<std::size_t>(index)];
    if (s.sacked || s.lost)
        return;
    s.lost = true;
    removeFromPipe(s);
    m_retxScan = std::min(m_retxScan, index);
}

void TcpSender::transmit(std::int64_t index, bool retransmission)
{
    if (static_cast<std::size_t>(index) >= m_segments.size())
        m_segments.resize(static_cast<std::size_t>(index) + 1);
    Segment& s = m_segments[static_cast<std::size_t>(index)];
    const std::int64_t now = m_queue.now();
    s.lastSentNs = now;
    s.lost = false;
    if (!s.inPipe) {
        s.inPipe = true;
        ++m_pipe;
    }
    if (retransmission) {
        s.retransmitted = true;
        ++m_counters.retransmissions;
        if (m_state.state == cwnd::CaState::Recovery)
            m_highRxt = std::max(m_highRxt, index);
    }
    m_recovery.onSent(m_state, 1);
    ++m_counters.dataSegments;
    Packet p;
    p.kind = Packet::Kind::Data;
    p.segment = index;
    p.length = m_state.mss;
    p.retransmission = retransmission;
    p.sentNs = now;
    p.id = ++m_packetIds;
    if (m_params.paceMs > 0) {
        m_nextSendNs = now + static_cast<std::int64_t>(m_params.paceMs * kMs);
    } else if (const double rate = m_model->pacingRateBytesPerSecond(m_state); rate > 0) {
        // The model's pacing rate, on the segment as it goes on the wire (Linux
        // tcp_update_skb_after_send()).
        m_nextSendNs = now + static_cast<std::int64_t>(static_cast<double>(m_state.mss + kIpTcpHeaderBytes) * 1e9 / rate);
    }
    if (!m_rtoTimer.armed())
        armRto();
    m_samples.push_back({now, m_state.cwnd, m_state.ssthresh, static_cast<std::uint64_t>(m_pipe) * m_state.mss,
                         m_rwnd, m_state.state});
    m_output(p);
}

bool TcpSender::sendForwardRetransmission()
{
    // An RFC 6675 sender in a recovery (ns-3 TcpTxBuffer::NextSeg()) keeps the pipe full
    // this way where the receiver's window or the send buffer holds new data back; Linux
    // no longer resends what it has not marked lost (and RACK-TLP marks by time).
    if (m_state.state != cwnd::CaState::Recovery || !m_params.sack || rackTlp())
        return false;
    for (std::int64_t i = std::max(m_highRxt + 1, m_una); i < m_nxt; ++i) {
        Segment& s = m_segments[static_cast<std::size_t>(i)];
        if (s.sacked || s.lost || !s.inPipe)
            continue;
        s.resentInPipe = true;
        ++m_pipe;
        transmit(i, true);
        return true;
    }
    return false;
}

void TcpSender::sendProbe()
{
    // Linux tcp_xmit_probe_skb(): an empty segment with sequence SND.UNA - 1 that the
    // receiver must answer with its current window.
    Packet p;
    p.kind = Packet::Kind::Probe;
    p.segment = m_una;
    p.sentNs = m_queue.now();
    p.id = ++m_packetIds;
    ++m_counters.zeroWindowProbes;
    m_output(p);
}

void TcpSender::trySend()
{
    const std::uint64_t sentBefore = m_counters.dataSegments;
    sendWhatFits();
    // Linux tcp_write_xmit(): every burst re-arms the loss probe.
    if (m_counters.dataSegments != sentBefore)
        scheduleLossProbe();
}

void TcpSender::sendWhatFits()
{
    if (m_done)
        return;
    const std::int64_t now = m_queue.now();
    while (true) {
        if (now < m_nextSendNs) {
            if (!m_sendScheduled) {
                m_sendScheduled = true;
                m_queue.at(m_nextSendNs, [this] {
                    m_sendScheduled = false;
                    trySend();
                });
            }
            return;
        }
        const std::uint64_t allowance = m_state.cwnd + static_cast<std::uint64_t>(m_dupCredit) * m_state.mss;
        const bool pipeRoom = static_cast<std::uint64_t>(m_pipe + 1) * m_state.mss <= allowance;
        // Retransmissions first (RFC 6675 NextSeg() rule 1; go-back-N after an RTO).
        if (m_state.state == cwnd::CaState::Recovery || m_state.state == cwnd::CaState::Loss) {
            while (m_retxScan < m_nxt && !m_segments[static_cast<std::size_t>(m_retxScan)].lost)
                ++m_retxScan;
            if (m_retxScan < m_nxt) {
                if (!pipeRoom && !m_fastRetransmitDue && !m_partialAckResendDue) {
                    m_state.cwndLimited = true;
                    return;
                }
                m_fastRetransmitDue = false;
                m_partialAckResendDue = false;
                transmit(m_retxScan, true);
                continue;
            }
        }
        const std::uint64_t outstandingAfter = static_cast<std::uint64_t>(m_nxt - m_una + 1) * m_state.mss;
        const bool newDataBlocked = !moreNewData() || outstandingAfter > m_rwnd ||
                                    (m_params.maxWindowBytes > 0 && outstandingAfter > m_params.maxWindowBytes);
        if (newDataBlocked && pipeRoom && sendForwardRetransmission())
            continue;
        if (!moreNewData())
            return;
        if (outstandingAfter > m_rwnd) {
            // Receiver-limited. With nothing in flight a zero window needs the persist
            // timer (RFC 9293 3.8.6.1), or the transfer would wait forever for an update.
            if (m_nxt == m_una && !m_persistTimer.armed())
                m_persistTimer.arm(backedOffRtoNs());
            m_state.cwndLimited = false;
            return;
        }
        if (m_params.maxWindowBytes > 0 && outstandingAfter > m_params.maxWindowBytes) {
            m_state.cwndLimited = false;
            return;
        }
        if (!pipeRoom) {
            m_state.cwndLimited = true;
            return;
        }
        transmit(m_nxt, false);
        ++m_nxt;
    }
}

std::int64_t TcpSender::backedOffRtoNs() const
{
    return std::min<std::int64_t>(m_rtoNs << std::min<std::uint32_t>(m_backoff, 20),
                                  static_cast<std::int64_t>(m_params.maxRtoMs * kMs));
}

void TcpSender::armRto()
{
    m_rtoTimer.arm(backedOffRtoNs());
}

void TcpSender::rttSample(std::int64_t rttNs)
{
    if (rttNs <= 0)
        return;
    // RFC 6298 2.2 / 2.3.
    if (m_srttNs < 0) {
        m_srttNs = rttNs;
        m_rttvarNs = rttNs / 2;
    } else {
        const std::int64_t err = m_srttNs > rttNs ? m_srttNs - rttNs : rttNs - m_srttNs;
        m_rttvarNs = (3 * m_rttvarNs + err) / 4;
        m_srttNs = (7 * m_srttNs + rttNs) / 8;
    }
    // Linux __tcp_set_rto(): srtt + rttvar where rttvar is at least tcp_rto_min, i.e.
    // srtt + max(4 * mdev, rto_min); RFC 6298 2.4's max(1 s, ...) floor is Linux's 200 ms.
    const auto minRto = static_cast<std::int64_t>(m_params.minRtoMs * kMs);
    // RFC 6298 2.4 (ns-3 TcpSocketBase: a 1 ms clock granularity G, max(min, srtt +
    // max(G, 4 rttvar))).
    const std::int64_t rto = m_params.rtoRfc6298 ? std::max(minRto, m_srttNs + std::max(4 * m_rttvarNs, kMs))
                                                 : m_srttNs + std::max(4 * m_rttvarNs, minRto);
    m_rtoNs = std::min<std::int64_t>(rto, static_cast<std::int64_t>(m_params.maxRtoMs * kMs));
}

void TcpSender::enterRecovery()
{
    // ssthresh from all the data outstanding (RFC 5681 3.2 step 2's FlightSize).
    m_recovery.enterRecovery(m_state, {.flightBytes = flightBytes(),
                                       .recoveryPoint = m_nxt * m_state.mss,
                                       .outstandingBytes = flightBytes()});
    // RFC 6675 4.3 / RFC 5681 3.2 step 2: the segment presumed lost goes out at once,
    // even while the pipe is above the cut window (ns-3 and Linux both send it).
    m_fastRetransmitDue = true;
    m_highRxt = m_una - 1;
    ++m_counters.fastRecoveries;
    m_tlpTimer.cancel();
}

void TcpSender::onAck(const Packet& ack)
{
    if (m_done)
        return;
    m_state.nowNs = m_queue.now();
    const std::uint64_t previousRwnd = m_rwnd;
    m_rwnd = ack.windowBytes;
    if (m_rwnd > 0 && m_persistTimer.armed()) {
        m_persistTimer.cancel();
        m_backoff = 0;
        // ns-3 stopped the retransmission timer under the zero window; what is still
        // outstanding has one again (ns-3 re-arms it with its next send, here at once).
        if (m_una < m_nxt && !m_rtoTimer.armed())
            armRto();
    }
    const std::int64_t ackSeg = std::min(ack.ackSegment, m_nxt);
    const bool unaAdvanced = ackSeg > m_una;
    m_retransmissionAcked = false;
    std::uint32_t delivered = processSackBlocks(ack, ackSeg);
    bool newLoss = false;
    if (unaAdvanced) {
        if (!processCumulativeAck(ack, ackSeg, delivered))
            return;
    } else if (ackSeg == m_una) {
        newLoss = processDuplicateAck(ack, previousRwnd);
        // ns-3 ProcessAck(): "after all, one segment has been ACKed", with the RTT it
        // last estimated.
        if (m_ns3Stack && m_una < m_nxt) {
            m_state.nowNs = m_queue.now();
            m_model->pktsAcked(m_state, cwnd::AckEvent{.nowNs = m_state.nowNs,
                                                       .ackedSegments = cwnd::StackAckRule::kNs3PktsAckedOnDuplicate,
                                                       .ackedBytes = m_state.mss,
                                                       .rttNs = m_congestionRtt.onAck(m_state, -1)});
        }
    }
    if (markLosses())
        newLoss = true;
    updateRecovery(newLoss, delivered, unaAdvanced);
    // A rate-based model counts what SACKs delivered too (SND.UNA's advance was
    // counted with it).
    if (!unaAdvanced && delivered > 0 && m_model->traits().rateBased) {
        m_state.pipeBytes = static_cast<std::uint64_t>(m_pipe) * m_state.mss;
        const cwnd::AckEvent event{.nowNs = m_state.nowNs,
                                   .ackedSegments = delivered,
                                   .ackedBytes = static_cast<std::uint64_t>(delivered) * m_state.mss,
                                   .rttNs = -1};
        m_model->increaseWindow(m_state, event);
    }
    // Linux tcp_ack() re-arms the probe timer on every ACK, whether or not it sent.
    sendWhatFits();
    m_partialAckResendDue = false; // this ACK's alone
    scheduleLossProbe();
    // ns-3 TcpSocketBase::DoForwardUp(): a zero window stops the retransmission timer,
    // data outstanding or not, and the persist timer probes instead. Linux keeps it
    // running (onRtoTimer()).
    if (m_ns3Stack && m_rwnd == 0 && m_una < m_nxt && !m_persistTimer.armed()) {
        m_rtoTimer.cancel();
        m_tlpTimer.cancel();
        m_persistTimer.arm(backedOffRtoNs());
    }
}

void TcpSender::rackAdvance(std::int64_t index)
{
    // RFC 8985 6.2 RACK_update(): the most recently sent segment delivered, and its
    // RTT. A retransmission delivered sooner than the minimum RTT after it was sent
    // may be the original's delivery: it says nothing (Linux tcp_rack_advance(); the
    // timestamp echo cannot tell, as a SACK echoes the last in-order segment's).
    const std::int64_t now = m_state.nowNs;
    const Segment& s = m_segments[static_cast<std::size_t>(index)];
    if (s.retransmitted && m_state.minRttNs > 0 && now - s.lastSentNs < m_state.minRttNs)
        return;
    if (s.lastSentNs > m_rackXmitNs || (s.lastSentNs == m_rackXmitNs && index > m_rackSegment)) {
        m_rackXmitNs = s.lastSentNs;
        m_rackSegment = index;
        m_rackRttNs = now - s.lastSentNs;
    }
}

std::uint32_t TcpSender::processSackBlocks(const Packet& ack, std::int64_t ackSeg)
{
    if (!m_params.sack)
        return 0;
    std::uint32_t delivered = 0;
    for (std::uint8_t b = 0; b < ack.sackCount; ++b) {
        const std::int64_t from = std::max(ack.sack[b].start, std::max(m_una, ackSeg));
        const std::int64_t to = std::min(ack.sack[b].end, m_nxt);
        for (std::int64_t i = from; i < to; ++i) {
            Segment& s = m_segments[static_cast<std::size_t>(i)];
            if (s.sacked)
                continue;
            s.sacked = true;
            s.lost = false;
            // ns-3's BytesInFlight() counts a resent segment until SND.UNA passes it,
            // SACKed or not (TcpTxBuffer keeps its retransmission mark): the pipe drops
            // by the whole run of them when a partial ACK covers it.
            if (!m_ns3Stack || !s.retransmitted) {
                removeFromPipe(s);
            } else if (s.resentInPipe) {
                s.resentInPipe = false;
                --m_pipe;
            }
            ++delivered;
            rackAdvance(i);
        }
        if (to > from)
            m_highSack = std::max(m_highSack, to - 1);
    }
    return delivered;
}

bool TcpSender::processCumulativeAck(const Packet& ack, std::int64_t ackSeg, std::uint32_t& delivered)
{
    const std::int64_t now = m_state.nowNs;
    // The timer and the growth as the stack has them; what the SACK blocks of this ACK
    // delivered is processSackBlocks()'s count.
    const cwnd::StackAckRule::Outcome rule = m_ackRule.onUnaAdvance(
        m_state, m_una * m_state.mss, ackSeg * m_state.mss, delivered > 0, true, m_dupAcks);
    std::int64_t rtt = -1;
    const Segment& newest = m_segments[static_cast<std::size_t>(ackSeg - 1)];
    // Karn's rule unless the ACK echoes a timestamp (RFC 7323 4.1).
    if (ack.echoNs >= 0)
        rtt = now - ack.echoNs;
    else if (!newest.retransmitted)
        rtt = now - newest.lastSentNs;
    for (std::int64_t i = m_una; i < ackSeg; ++i) {
        Segment& s = m_segments[static_cast<std::size_t>(i)];
        if (!s.sacked) {
            ++delivered;
            rackAdvance(i);
            m_retransmissionAcked |= s.retransmitted;
        }
        removeFromPipe(s);
    }
    if (m_tlpHigh >= 0 && ackSeg >= m_tlpHigh)
        m_tlpHigh = -1;
    m_una = ackSeg;
    m_lossScan = std::max(m_lossScan, m_una);
    m_retxScan = std::max(m_retxScan, m_una);
    m_dupAcks = 0;
    m_dupCredit = 0;
    m_backoff = 0;
    rttSample(rtt);
    const std::int64_t modelRtt = m_congestionRtt.onAck(m_state, rtt);
    if (m_una >= m_nxt)
        m_rtoTimer.cancel();
    else if (rule.restartTimer || !m_rtoTimer.armed())
        armRto();
    const bool recovering = m_state.state == cwnd::CaState::Recovery || m_state.state == cwnd::CaState::Loss;
    if (recovering && m_una * m_state.mss >= m_state.recoveryPoint) {
        // The simulated path neither reorders nor duplicates, and its receiver sends no
        // D-SACK: there is no evidence to undo with.
        m_recovery.endRecovery(m_state, {});
        m_fastRetransmitDue = false;
    } else if (m_state.state == cwnd::CaState::Recovery && !m_params.sack) {
        // RFC 6582 3.2 step 5: a partial ACK; the next hole is lost too.
        markLost(m_una);
    } else if (m_state.state == cwnd::CaState::Recovery && m_ns3Stack &&
               !m_segments[static_cast<std::size_t>(m_una)].retransmitted) {
        // ns-3.37 ProcessAck(): on a partial ACK whose new head was not resent,
        // DoRetransmit() sends the first lost segment whatever the window allows.
        m_partialAckResendDue = true;
    }
    const cwnd::AckEvent event{.nowNs = now,
                               .ackedSegments = std::max<std::uint32_t>(delivered, 1),
                               .ackedBytes = static_cast<std::uint64_t>(std::max<std::uint32_t>(delivered, 1)) *
                                             m_state.mss,
                               .rttNs = modelRtt};
    m_state.sndUna = m_una * m_state.mss;
    m_state.sndNxt = m_nxt * m_state.mss;
    m_state.pipeBytes = static_cast<std::uint64_t>(m_pipe) * m_state.mss;
    if (!m_ns3Stack)
        m_model->pktsAcked(m_state, event);
    else if (rule.ns3CountsAcked)
        m_model->pktsAcked(m_state, cwnd::AckEvent{.nowNs = now,
                                                   .ackedSegments = rule.ns3PktsAcked,
                                                   .ackedBytes = std::uint64_t{rule.ns3PktsAcked} * m_state.mss,
                                                   .rttNs = modelRtt});
    if (m_ns3Stack && !m_model->traits().rateBased) {
        if (m_state.state != cwnd::CaState::Recovery && rule.grows)
            m_model->increaseWindow(m_state, cwnd::AckEvent{.nowNs = now,
                                                            .ackedSegments = rule.ns3Segments,
                                                            .ackedBytes = std::uint64_t{rule.ns3Segments} * m_state.mss,
                                                            .rttNs = modelRtt});
    } else if (m_state.state != cwnd::CaState::Recovery || m_model->traits().rateBased) {
        m_model->increaseWindow(m_state, event);
    }
    if (m_una >= m_nxt && !moreNewData()) {
        m_done = true;
        m_doneNs = now;
        m_rtoTimer.cancel();
        m_persistTimer.cancel();
        return false;
    }
    return true;
}

bool TcpSender::processDuplicateAck(const Packet& ack, std::uint64_t previousRwnd)
{
    // RFC 5681 2: a duplicate ACK (same ack, same window, data outstanding).
    if (m_una >= m_nxt || ack.kind != Packet::Kind::Ack || ack.injected || ack.windowBytes != previousRwnd)
        return false;
    ++m_dupAcks;
    if (m_params.sack)
        return false;
    if (m_state.state == cwnd::CaState::Recovery) {
        ++m_dupCredit;
    } else if (m_dupAcks == kDupThresh) {
        markLost(m_una);
        return true;
    }
    return false;
}

bool TcpSender::markLosses()
{
    bool newLoss = false;
    // RFC 6675 IsLost(): DupThresh SACKed segments above a hole make it lost.
    if (m_params.sack && m_highSack >= 0) {
        const std::int64_t now = m_state.nowNs;
        // A retransmission still too young to judge is checked again on later ACKs.
        std::int64_t pending = -1;
        for (std::int64_t i = std::max(m_lossScan, m_una); i + static_cast<std::int64_t>(kDupThresh) <= m_highSack;
             ++i) {
            const Segment& s = m_segments[static_cast<std::size_t>(i)];
            if (!s.sacked && !s.lost && !s.retransmitted) {
                markLost(i);
                newLoss = true;
            } else if (!s.sacked && !s.lost && s.retransmitted && !m_ns3Stack) {
                // A retransmission not SACKed an RTT later while later data is: lost
                // again (Linux RACK's reordering window, much simplified). ns-3's
                // NextSeg() never resends a segment it retransmitted (TcpTxBuffer's
                // m_retrans): only the retransmission timer finds that loss.
                if (m_srttNs > 0 && now - s.lastSentNs > m_srttNs + m_rttvarNs * 4) {
                    markLost(i);
                    newLoss = true;
                } else if (pending < 0) {
                    pending = i;
                }
            }
            m_lossScan = i + 1;
        }
        if (pending >= 0)
            m_lossScan = pending;
    }
    if (rackTlp() && rackDetectLoss())
        newLoss = true;
    return newLoss;
}

void TcpSender::updateRecovery(bool newLoss, std::uint32_t delivered, bool unaAdvanced)
{
    if (newLoss && (m_state.state == cwnd::CaState::Open || m_state.state == cwnd::CaState::Disorder)) {
        enterRecovery();
        // The ACK that started the recovery also runs PRR (Linux tcp_cong_control()).
        m_recovery.prrStep(m_state, m_pipe, std::max<std::uint32_t>(1, delivered), unaAdvanced);
    } else if (m_state.state == cwnd::CaState::Recovery) {
        m_recovery.prrStep(m_state, m_pipe, delivered, unaAdvanced, m_retransmissionAcked);
    }
}

bool TcpSender::rackDetectLoss()
{
    if (m_rackXmitNs < 0)
        return false;
    const std::int64_t now = m_queue.now();
    // Linux tcp_rack_reo_wnd() with no reordering seen: none in recovery or once
    // DupThresh segments are SACKed, else a quarter of the minimum RTT. The SACKed
    // segments are counted only as far as the answer needs.
    std::int64_t reorderWindow = 0;
    if (m_state.state != cwnd::CaState::Recovery && m_state.state != cwnd::CaState::Loss) {
        std::uint32_t sacked = 0;
        for (std::int64_t i = m_una; i < m_nxt && sacked < kDupThresh; ++i)
            sacked += m_segments[static_cast<std::size_t>(i)].sacked ? 1 : 0;
        if (sacked < kDupThresh)
            reorderWindow = std::max<std::int64_t>(m_state.minRttNs, 0) / 4;
    }
    bool marked = false;
    std::int64_t earliest = -1;
    for (std::int64_t i = m_una; i < m_nxt; ++i) {
        const Segment& s = m_segments[static_cast<std::size_t>(i)];
        if (s.sacked || s.lost)
            continue;
        const bool sentBefore = s.lastSentNs < m_rackXmitNs || (s.lastSentNs == m_rackXmitNs && i < m_rackSegment);
        if (!sentBefore)
            continue;
        const std::int64_t deadline = s.lastSentNs + m_rackRttNs + reorderWindow;
        if (now >= deadline) {
            markLost(i);
            marked = true;
        } else if (earliest < 0 || deadline < earliest) {
            earliest = deadline;
        }
    }
    if (earliest >= 0)
        m_rackTimer.arm(earliest - now);
    else
        m_rackTimer.cancel();
    return marked;
}

void TcpSender::onRackTimer()
{
    if (m_done || m_una >= m_nxt)
        return;
    m_state.nowNs = m_queue.now();
    if (!rackDetectLoss())
        return;
    if (m_state.state == cwnd::CaState::Open || m_state.state == cwnd::CaState::Disorder)
        enterRecovery();
    trySend();
}

void TcpSender::scheduleLossProbe()
{
    // RFC 8985 7.2 as Linux tcp_schedule_loss_probe(): in the open state, one probe at
    // a time, 2 SRTT after the last send or ACK (plus the worst delayed ACK, 200 ms,
    // with a single segment out), never later than the RTO.
    if (!rackTlp() || m_done || m_state.state != cwnd::CaState::Open || m_una >= m_nxt || m_tlpHigh >= 0 ||
        m_srttNs < 0) {
        m_tlpTimer.cancel();
        return;
    }
    const std::int64_t now = m_queue.now();
    std::int64_t pto = 2 * m_srttNs + (m_nxt - m_una == 1 ? static_cast<std::int64_t>(m_params.minRtoMs * kMs) : 2 * kMs);
    if (m_rtoTimer.armed())
        pto = std::min(pto, m_rtoTimer.deadline() - now);
    if (pto <= 0) {
        m_tlpTimer.cancel();
        return;
    }
    m_tlpTimer.arm(std::max<std::int64_t>(pto, 10 * kMs));
}

void TcpSender::onLossProbeTimer()
{
    if (m_done || m_una >= m_nxt || m_state.state != cwnd::CaState::Open || m_tlpHigh >= 0)
        return;
    m_state.nowNs = m_queue.now();
    // Linux tcp_send_loss_probe(): new data if the receiver's window takes it (the
    // congestion window does not count for a probe), else the last segment again.
    const std::uint64_t outstandingAfter = static_cast<std::uint64_t>(m_nxt - m_una + 1) * m_state.mss;
    if (moreNewData() && outstandingAfter <= m_rwnd &&
        (m_params.maxWindowBytes == 0 || outstandingAfter <= m_params.maxWindowBytes)) {
        transmit(m_nxt, false);
        ++m_nxt;
    } else {
        std::int64_t last = m_nxt - 1;
        while (last >= m_una && m_segments[static_cast<std::size_t>(last)].sacked)
            --last;
        if (last < m_una)
            return;
        transmit(last, true);
    }
    m_tlpHigh = m_nxt;
    ++m_counters.lossProbes;
    armRto();
}

void TcpSender::onRtoTimer()
{
    if (m_done || m_una >= m_nxt)
        return;
    m_state.nowNs = m_queue.now();
    if (m_rwnd == 0) {
        // Linux tcp_retransmit_timer(): "Receiver dastardly shrinks window. Our
        // retransmits become zero probes" -- the head is resent and the timer backs
        // off; the tcp_enter_loss() it also calls is undone once the ACKs show the
        // original delivered (its timestamp echoed, tcp_try_undo_loss()), so cwnd and
        // ssthresh come back: kept here. This is what the AP zero-window ACK of paper
        // 001 relies on. (ns-3's stack has no timer running here: onAck().)
        ++m_counters.zeroWindowProbes;
        ++m_backoff;
        Packet p;
        p.kind = Packet::Kind::Data;
        p.segment = m_una;
        p.length = m_state.mss;
        p.retransmission = true;
        p.sentNs = m_queue.now();
        p.id = ++m_packetIds;
        ++m_counters.retransmissions;
        ++m_counters.dataSegments;
        m_segments[static_cast<std::size_t>(m_una)].retransmitted = true;
        m_output(p);
        armRto();
        return;
    }
    // RFC 6298 5.4-5.7 and RFC 5681 (4): retransmit the head, back off, ssthresh from
    // the model, cwnd to one segment (Linux tcp_enter_loss()); everything outstanding
    // and not SACKed is marked lost and resent go-back-N as the window reopens.
    ++m_counters.rtoTimeouts;
    m_tlpHigh = -1;
    m_tlpTimer.cancel();
    // ns-3 TcpSocketBase::ReTxTimeout() halves what RFC 6675 counts in the pipe (after
    // a PRR recovery about cwnd); else RFC 5681 (4)'s FlightSize, all outstanding data.
    const std::uint64_t flight = m_ns3Stack || m_params.rtoRfc6298
                                     ? static_cast<std::uint64_t>(m_pipe) * m_state.mss
                                     : flightBytes();
    m_recovery.enterLoss(m_state,
                         {.flightBytes = flight, .flightInRecoveryBytes = flight, .recoveryPoint = m_nxt * m_state.mss});
    m_fastRetransmitDue = false;
    for (std::int64_t i = m_una; i < m_nxt; ++i) {
        Segment& s = m_segments[static_cast<std::size_t>(i)];
        if (!s.sacked) {
            s.lost = true;
            s.retransmitted = false; // the next send is a fresh loss-recovery round
        }
        removeFromPipe(s); // SACKed and still counted: ns-3's resent segments
    }
    m_retxScan = m_una;
    m_dupAcks = 0;
    m_dupCredit = 0;
    ++m_backoff;
    armRto();
    trySend();
    if (!m_rtoTimer.armed())
        armRto();
}

void TcpSender::onPersistTimer()
{
    if (m_done)
        return;
    if (m_rwnd > 0) {
        trySend();
        return;
    }
    sendProbe();
    ++m_backoff;
    m_persistTimer.arm(backedOffRtoNs());
}

} // namespace windscope::analysis::replay
