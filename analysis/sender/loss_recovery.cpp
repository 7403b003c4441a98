// SPDX-License-Identifier: GPL-3.0-or-later
#include "loss_recovery.h"

#include <algorithm>

namespace windscope::analysis::cwnd {

void LossRecovery::setState(SenderState& state, CaState next)
{
    // Every timeout enters Loss anew, in Linux's tcp_enter_loss() (tcp_set_ca_state()) as
    // in ns-3's ReTxTimeout() (CongestionStateSet(CA_LOSS)): a backed-off one resets
    // the model again (CUBIC's W_max).
    if (next != state.state || next == CaState::Loss)
        m_model->congestionStateSet(state, next);
    state.state = next;
}

void LossRecovery::initUndo()
{
    // tcp_init_undo(): a new reduction, no re-send counted yet.
    m_undo.marker = true;
    m_undo.retrans = 0;
    m_undo.stampSet = false;
}

void LossRecovery::enterRecovery(SenderState& state, const RecoveryEntry& entry)
{
    initUndo();
    state.priorSsthresh = state.ssthresh;
    state.priorCwnd = state.cwnd;
    state.ssthresh = m_model->ssthresh(state, entry.flightBytes);
    state.recoveryPoint = entry.recoveryPoint;
    if (m_policy.clearCwndCountAtEntry)
        state.cwndCount = 0;
    m_prrDelivered = 0;
    m_prrOut = 0;
    m_recoverFsBytes = entry.outstandingBytes;
    setState(state, CaState::Recovery);
    // RFC 6675 5 / RFC 5681 3.2 step 2 (ns-3 TcpClassicRecovery::EnterRecovery()):
    // the window cut to ssthresh at once. A rate-based model sets it itself.
    if (m_policy.window == RecoveryWindow::Classic && !m_model->traits().rateBased)
        state.cwnd = state.ssthresh;
}

void LossRecovery::prrStep(SenderState& state, std::int64_t pipeSegments, std::uint32_t delivered, bool unaAdvanced,
                           bool retransmissionAcked, std::uint32_t boundDelivered)
{
    if (m_policy.window != RecoveryWindow::Prr || delivered == 0)
        return;
    // While the flight is above ssthresh, send ssthresh / prior cwnd of what was
    // delivered (proportional rate reduction); below it, catch up at most to ssthresh,
    // by what was delivered and one more when SND.UNA advanced (the SSRB bound).
    m_prrDelivered += delivered;
    const auto mss = static_cast<std::int64_t>(state.mss);
    const auto ssthresh = static_cast<std::int64_t>(state.ssthresh) / mss;
    const bool ns3 = m_policy.prrBound == PrrBound::Ns3;
    const std::uint64_t recoverFs = ns3 && m_recoverFsBytes > 0 ? m_recoverFsBytes : state.priorCwnd;
    const std::int64_t prior = std::max<std::int64_t>(1, static_cast<std::int64_t>(recoverFs) / mss);
    const std::int64_t delta = ssthresh - pipeSegments;
    const auto prrDelivered = static_cast<std::int64_t>(m_prrDelivered);
    const auto prrOut = static_cast<std::int64_t>(m_prrOut);
    std::int64_t sndcnt;
    if (delta < 0) {
        sndcnt = (ssthresh * prrDelivered + prior - 1) / prior - prrOut;
    } else if (ns3 && !retransmissionAcked) {
        sndcnt = std::min<std::int64_t>(delta, std::max(delivered, boundDelivered));
    } else {
        const std::int64_t bound = ns3 ? std::max(delivered, boundDelivered) : delivered;
        sndcnt = std::max<std::int64_t>(prrDelivered - prrOut, bound) + (ns3 || unaAdvanced ? 1 : 0);
        sndcnt = std::min(delta, sndcnt);
    }
    // The first retransmission of a recovery always goes out.
    sndcnt = std::max<std::int64_t>(sndcnt, m_prrOut ? 0 : 1);
    state.cwnd = static_cast<std::uint64_t>(std::max<std::int64_t>(1, pipeSegments + sndcnt)) * state.mss;
}

void LossRecovery::onSent(const SenderState& state, std::uint32_t segments)
{
    if (state.state == CaState::Recovery)
        m_prrOut += segments;
}

void LossRecovery::onRetransmit(bool hasTimestamps, std::uint32_t tsVal)
{
    if (!m_undo.stampSet && hasTimestamps) {
        m_undo.stamp = tsVal;
        m_undo.stampSet = true;
    }
    ++m_undo.retrans;
}

void LossRecovery::onDsack()
{
    if (m_undo.marker)
        --m_undo.retrans;
}

bool LossRecovery::endRecovery(SenderState& state, const UndoEvidence& evidence)
{
    // tcp_packet_delayed(): the ACK echoes a timestamp older than the first re-send, so
    // the original got through.
    const bool delayed = m_undo.stampSet && evidence.hasTimestamps &&
                         static_cast<std::int32_t>(evidence.tsEcr - m_undo.stamp) < 0;
    const bool undo = m_model->traits().undoesSpuriousReductions && m_undo.marker &&
                      (delayed || (m_undo.stampSet && m_undo.retrans <= 0));
    if (undo) {
        // tcp_undo_cwnd_reduction(): the model's undo_cwnd, ssthresh back up to its prior.
        state.cwnd = m_model->undoCwnd(state);
        if (state.priorSsthresh > state.ssthresh)
            state.ssthresh = state.priorSsthresh;
    } else if (state.state == CaState::Recovery && state.ssthresh < kInfiniteSsthresh) {
        // tcp_end_cwnd_reduction(): the window ends at ssthresh.
        state.cwnd = state.ssthresh;
    }
    m_undo.marker = false;
    setState(state, CaState::Open);
    return undo;
}

void LossRecovery::enterLoss(SenderState& state, const LossEntry& entry)
{
    if (m_policy.rto == RtoSsthresh::EachEntry) {
        if (state.state != CaState::Loss) {
            initUndo();
            state.priorSsthresh = state.ssthresh;
            state.priorCwnd = state.cwnd;
            state.ssthresh = m_model->ssthresh(state, entry.flightBytes);
        }
    } else if (state.state != CaState::Loss || state.sndUna >= state.recoveryPoint) {
        // "Reduce ssthresh if it has not yet been made inside this window."
        initUndo();
        state.priorSsthresh = state.ssthresh;
        state.priorCwnd = state.cwnd;
        if (state.state != CaState::Recovery)
            state.ssthresh = m_model->ssthresh(state, entry.flightBytes);
        else if (m_model->traits().rtoResetsSsthresh)
            state.ssthresh = m_model->ssthresh(state, entry.flightInRecoveryBytes);
        else if (state.ssthresh >= kInfiniteSsthresh)
            state.ssthresh = m_model->ssthresh(state, entry.flightBytes);
    } else if (m_model->traits().rtoResetsSsthresh) {
        // An RTO repeated by exponential backoff (RFC 6298 5.5).
        state.ssthresh = m_model->ssthresh(state, entry.flightBytes);
    }
    state.setCwndSegments(1);
    state.cwndCount = 0;
    state.recoveryPoint = entry.recoveryPoint;
    setState(state, CaState::Loss);
}

} // namespace windscope::analysis::cwnd
