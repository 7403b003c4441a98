// SPDX-License-Identifier: GPL-3.0-or-later
#include "tcp_sequence_analysis.h"

namespace windscope::analysis::detail {

namespace {

constexpr std::uint16_t kSynFinRst = th::kSyn | th::kFin | th::kRst;
// Fast retransmission must follow the last duplicate ACK within 20 ms.
constexpr std::uint64_t kFastRetransmissionWindowNs = 20'000'000;
// Out-of-order threshold when no handshake RTT (ts_first_rtt) is known.
constexpr std::uint64_t kDefaultOutOfOrderThresholdNs = 3'000'000;
// Wireshark only shows bytes in flight below this bound.
constexpr std::uint32_t kMaxBytesInFlight = 2'000'000'000u;

// Elapsed time as Wireshark computes it: an unsigned 64-bit difference, so a clock
// going backwards gives a huge value rather than a negative one.
std::uint64_t elapsed(std::int64_t now, std::int64_t then)
{
    return static_cast<std::uint64_t>(now) - static_cast<std::uint64_t>(then);
}

// tcp_analyze_sequence_number(): the body of the classifier, condition for condition.
void analyzeSequenceNumber(const SequenceConnection& connection, SequenceFlow& fwd,
                           SequenceFlow& rev, const SegmentInput& in, SegmentVerdict& verdict)
{
    const std::uint32_t seq = in.seq;
    const std::uint32_t ack = in.ack;
    const std::uint32_t seglen = in.length;
    const std::uint16_t flags = in.flags;
    const std::uint32_t window = in.window;
    std::uint16_t f = verdict.flags;

    if (flags & th::kAck)
        rev.validBytesInFlight = true;

    // The checks up to "finished_fwd" are exclusive only where Wireshark jumps out.
    [&] {
        // Zero window probe: one byte at the expected sequence number into a zero window.
        if (seglen == 1 && seq == fwd.nextSeq && rev.window == 0) {
            f |= ws_flag::kZeroWindowProbe;
            return;
        }
        // Zero window: SYN, FIN and RST segments excepted.
        if (window == 0 && (flags & kSynFinRst) == 0)
            f |= ws_flag::kZeroWindow;
        // Lost segment: a hole before this segment (not checked for RST).
        if (fwd.nextSeq && seqGt(seq, fwd.nextSeq) && (flags & th::kRst) == 0) {
            f |= ws_flag::kLostPacket;
            fwd.validBytesInFlight = false; // until the other side ACKs again
        }
        // Keep-alive: 0 or 1 byte starting one byte before the next expected sequence.
        if ((seglen == 0 || seglen == 1) && seq == fwd.nextSeq - 1 && (flags & kSynFinRst) == 0)
            f |= ws_flag::kKeepAlive;
        // Window update: an empty segment repeating seq/ack with a new non-zero window.
        if (seglen == 0 && window && window != fwd.window && seq == fwd.nextSeq &&
            ack == fwd.lastAck && (flags & kSynFinRst) == 0)
            f |= ws_flag::kWindowUpdate;
        // Window full: data reaching exactly the right edge of the peer's window, when the
        // peer's scaling is known (issue 14690: unscaled until its first pure ACK).
        if (seglen > 0 && rev.winScale != -1) {
            const int shift = rev.isFirstAck ? 0 : (rev.winScale == -2 ? 0 : rev.winScale);
            if (seq + seglen == rev.lastAck + (rev.window << shift) && (flags & kSynFinRst) == 0)
                f |= ws_flag::kWindowFull;
        }
        const bool repeatsAck =
            seglen == 0 && seq == fwd.nextSeq && ack == fwd.lastAck && (flags & kSynFinRst) == 0;
        if (repeatsAck && window && window == fwd.window &&
            (rev.lastSegmentFlags & ws_flag::kKeepAlive)) {
            f |= ws_flag::kKeepAliveAck;
            return;
        }
        if (repeatsAck && window == 0 && window == fwd.window &&
            (rev.lastSegmentFlags & ws_flag::kZeroWindowProbe)) {
            f |= ws_flag::kZeroWindowProbeAck;
            return;
        }
        // Duplicate ACK: an empty segment repeating seq, ack and window.
        if (repeatsAck && window && window == fwd.window) {
            // -1 marks an "ACKed unseen segment" and restarts the count at 1.
            fwd.dupAckNum = fwd.dupAckNum == 0xffffffffu ? 1 : fwd.dupAckNum + 1;
            f |= ws_flag::kDuplicateAck;
            verdict.dupAckNumber = fwd.dupAckNum;
        }
    }();

    // finished_fwd: a new ack number restarts the duplicate count.
    if (ack != fwd.lastAck)
        fwd.dupAckNum = 0;

    // ACKed unseen segment: the ACK covers more than the other side was seen to send.
    if (rev.maxSeqToBeAcked && seqGt(ack, rev.maxSeqToBeAcked) && (flags & th::kAck)) {
        if (seqLt(rev.maxSeqToBeAcked, rev.nextSeq)) {
            rev.maxSeqToBeAcked = rev.nextSeq;
            f |= ws_flag::kAckLostPacket;
        } else {
            // Flag a stalled peer's repeated ACKs only once per loss.
            if (rev.dupAckNum == 0)
                f |= ws_flag::kAckLostPacket;
            rev.dupAckNum = 0xffffffffu;
        }
    }

    // Retransmission / fast retransmission / spurious / out-of-order, for segments that
    // occupy sequence space. Keep-alives are never retransmissions.
    if ((seglen > 0 || (flags & (th::kSyn | th::kFin))) && !(f & ws_flag::kKeepAlive)) {
        bool seqNotAdvanced = fwd.nextSeq && seqLt(seq, fwd.nextSeq);
        // More than one byte starting at nextseq - 1 follows a zero window probe: new data.
        if (seglen > 1 && fwd.nextSeq - 1 == seq)
            seqNotAdvanced = false;
        if (seglen > 0 && rev.lastAck && seqLe(seq + seglen, rev.lastAck)) {
            // Everything in it was already acknowledged.
            f |= ws_flag::kSpuriousRetransmission;
        } else if (seqNotAdvanced && rev.dupAckNum >= 2 && rev.lastAck == seq &&
                   elapsed(in.timeNs, rev.lastAckTimeNs) < kFastRetransmissionWindowNs) {
            // Fast retransmission takes precedence over out-of-order (fastrt_supersedes_ooo).
            f |= ws_flag::kFastRetransmission;
        } else if (seqNotAdvanced &&
                   elapsed(in.timeNs, fwd.nextSeqTimeNs) <
                       (connection.firstRttNs == 0
                            ? kDefaultOutOfOrderThresholdNs
                            : static_cast<std::uint64_t>(connection.firstRttNs)) &&
                   fwd.nextSeq != seq + seglen + ((flags & (th::kSyn | th::kFin)) ? 1u : 0u)) {
            f |= ws_flag::kOutOfOrder;
        } else if (seqNotAdvanced) {
            f |= ws_flag::kRetransmission;
        }
    }

    // finished_checking_retransmission_type: remember the segment as unacknowledged.
    std::uint32_t nextSeq = seq + seglen;
    if ((seglen || (flags & (th::kSyn | th::kFin))) && !fwd.unacked.full()) {
        if (flags & (th::kSyn | th::kFin))
            nextSeq += 1; // SYN and FIN occupy one sequence number
        fwd.unacked.add(seq, nextSeq);
    }
    // Zero window probes do not advance nextseq.
    if ((seqGt(nextSeq, fwd.nextSeq) || !fwd.nextSeq) && !(f & ws_flag::kZeroWindowProbe)) {
        fwd.nextSeq = nextSeq;
        fwd.nextSeqTimeNs = in.timeNs;
    }
    if ((seq == fwd.maxSeqToBeAcked || !fwd.maxSeqToBeAcked) && !(f & ws_flag::kZeroWindowProbe))
        fwd.maxSeqToBeAcked = fwd.nextSeq;

    fwd.window = window;
    fwd.lastAck = ack;
    fwd.lastAckTimeNs = in.timeNs;
    fwd.lastSegmentFlags = f;

    // Every packet prunes the other side's list with its ack field, ACK bit or not.
    rev.unacked.acknowledge(ack);

    // Bytes in flight, payload-based (bif_seq_based off), minus the peer's latest SACKs.
    std::uint32_t first = 0, last = 0;
    if (seglen != 0 && fwd.validBytesInFlight &&
        fwd.unacked.relativeSpan(fwd.baseSeq, first, last)) {
        std::uint32_t inFlight = last - first;
        std::uint32_t delivered = 0;
        for (std::uint8_t i = 0; i < rev.sackCount; ++i)
            delivered += rev.sackRight[i] - rev.sackLeft[i];
        inFlight -= delivered;
        if (inFlight > 0 && inFlight < kMaxBytesInFlight) {
            // SYN and FIN are virtual bytes.
            verdict.bytesInFlight = inFlight - ((flags & (th::kSyn | th::kFin)) ? 1u : 0u);
        }
    }
    verdict.flags = f;
}

// verify_tcp_window_scaling(): called for SYN and SYN+ACK after their options.
void verifyWindowScaling(bool isSynAck, SequenceFlow& fwd, SequenceFlow& rev)
{
    if (fwd.winScale == -1) {
        // This SYN has no window scale option: neither side scales (RFC 7323 2.2).
        fwd.winScale = -2;
        rev.winScale = -2;
    } else if (isSynAck && rev.winScale == -2) {
        // The SYN+ACK offers a scale the SYN did not: not used either.
        fwd.winScale = -2;
    }
}

} // namespace

bool synNeedsNewConnection(const SequenceConnection& connection, int side, const SegmentInput& in)
{
    if ((in.flags & (th::kSyn | th::kAck)) != th::kSyn)
        return false;
    const SequenceFlow& fwd = connection.flow[side];
    return fwd.baseSeqSet && in.seq != fwd.baseSeq;
}

void applyReusedSynRules(SequenceConnection& connection, int side, const SegmentInput& in,
                         SegmentVerdict& verdict)
{
    SequenceFlow& fwd = connection.flow[side];
    const std::uint16_t synAck = in.flags & (th::kSyn | th::kAck);
    if (synAck == th::kSyn) {
        // A SYN repeating the ISN: a RST may have moved nextseq (RFC 9293 3.10.7.3,
        // issue 17616), so restore it from the highest contiguous sequence.
        if (fwd.baseSeqSet && in.seq == fwd.baseSeq)
            fwd.nextSeq = fwd.maxSeqToBeAcked;
    } else if (synAck == (th::kSyn | th::kAck)) {
        if (fwd.baseSeqSet && in.seq != fwd.baseSeq) {
            fwd.baseSeq = in.seq;
            verdict.flags |= ws_flag::kReusedPorts;
        }
    }
}

void analyzeSegment(SequenceConnection& connection, int side, const SegmentInput& in,
                    const SegmentOptions& options, SegmentVerdict& verdict)
{
    SequenceFlow& fwd = connection.flow[side];
    SequenceFlow& rev = connection.flow[1 - side];
    const std::uint16_t flags = in.flags;

    fwd.sackCount = 0;
    // base_seq: the ISN when this side's first segment is a SYN, else seq - 1 so that
    // relative numbers start at 1 (bug 1542); the other side's from ack - 1.
    if (!fwd.baseSeqSet) {
        fwd.baseSeq = (flags & th::kSyn) ? in.seq : in.seq - 1;
        fwd.baseSeqSet = true;
    }
    if (!rev.baseSeqSet && (flags & th::kAck)) {
        rev.baseSeq = in.ack - 1;
        rev.baseSeqSet = true;
    }

    analyzeSequenceNumber(connection, fwd, rev, in, verdict);

    // tcp.window_size: SYNs are never scaled; an unknown scale (-1) is not applied.
    std::uint32_t window = in.window;
    if (!(flags & th::kSyn) && fwd.winScale >= 0)
        window <<= fwd.winScale;
    verdict.windowBytes = window;

    if (flags & th::kSyn) {
        if (!(flags & th::kAck))
            connection.mruSynTimeNs = in.timeNs;
        fwd.isFirstAck = true;
    }
    if ((flags & (th::kSyn | th::kAck)) == th::kAck) {
        // The first pure ACK after a SYN gives the handshake RTT used as the
        // out-of-order threshold (zero time values mean "unset", as nstime_is_zero).
        if (connection.mruSynTimeNs != 0 && connection.firstRttNs == 0)
            connection.firstRttNs = in.timeNs - connection.mruSynTimeNs;
        fwd.isFirstAck = false;
    }

    // Options are dissected after the analysis.
    if (options.windowScale >= 0)
        fwd.winScale = options.windowScale;
    if (options.sackBlockCount && options.sackBlocks) {
        std::uint8_t stored = 0;
        for (std::uint8_t b = 0; b < options.sackBlockCount && stored < 3; ++b) {
            fwd.sackLeft[stored] = options.sackBlocks[2 * b];
            fwd.sackRight[stored] = options.sackBlocks[2 * b + 1];
            ++stored;
        }
        fwd.sackCount = stored;
    }
    if (flags & th::kSyn)
        verifyWindowScaling((flags & th::kAck) != 0, fwd, rev);
}

} // namespace windscope::analysis::detail
