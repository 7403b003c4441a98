// SPDX-License-Identifier: GPL-3.0-or-later
// One pass over the TCP rows in capture order: the conversation of each row selects its
// current connection (a new one on port reuse, as Wireshark numbers tcp.stream), the
// Wireshark-equivalent classifier (tcp_sequence_analysis.cpp) flags the segment, and
// Windscope's own measurements (64-bit sequence space, RTT, RTO timeouts, statistics)
// run beside it. This is the hot loop of an analysis: the steps of measure() are
// functions of this file only, so the compiler can fold them back into it.
#include "tcp_analyzer.h"

#include <algorithm>
#include <stdexcept>

namespace windscope::analysis::detail {

namespace {

// Wireshark TCP_A_* bit -> segment_flag bits, indexed by bit position.
constexpr std::uint32_t kFlagMap[15] = {
    segment_flag::kRetransmission,                                         // 0x0001
    segment_flag::kLostSegment,                                            // 0x0002
    segment_flag::kAckLostSegment,                                         // 0x0004
    segment_flag::kKeepAlive,                                              // 0x0008
    segment_flag::kDuplicateAck,                                           // 0x0010
    segment_flag::kZeroWindow,                                             // 0x0020
    segment_flag::kZeroWindowProbe,                                        // 0x0040
    segment_flag::kZeroWindowProbeAck,                                     // 0x0080
    segment_flag::kKeepAliveAck,                                           // 0x0100
    segment_flag::kOutOfOrder,                                             // 0x0200
    segment_flag::kFastRetransmission | segment_flag::kRetransmission,     // 0x0400
    segment_flag::kWindowUpdate,                                           // 0x0800
    segment_flag::kWindowFull,                                             // 0x1000
    segment_flag::kPortReuse,                                              // 0x2000
    segment_flag::kSpuriousRetransmission | segment_flag::kRetransmission, // 0x4000
};

std::uint32_t mapFlags(std::uint16_t wsFlags)
{
    std::uint32_t out = 0;
    for (unsigned bit = 0; wsFlags; ++bit, wsFlags >>= 1)
        if (wsFlags & 1u)
            out |= kFlagMap[bit];
    return out;
}

// The fields of a row that measure()'s steps read.
struct RowFacts
{
    std::size_t row = 0;
    std::uint16_t tcpFlags = 0;
    std::uint32_t length = 0;
    std::int64_t timeNs = 0;
    bool syn = false, fin = false, ack = false;
    bool hasTimestamps = false;
};

// Unwrapped sequence numbers relative to Wireshark's base_seq.
void unwrapSequence(const dissect::TcpColumns& t, const RowFacts& r, SideWork& s, const SequenceFlow& fwd,
                    const SequenceFlow& rev, std::int64_t& relSeq, std::int64_t& relAck)
{
    SideSequence& q = s.sequence;
    if (!q.seqBaseSet || q.seqBase != fwd.baseSeq) {
        if (q.seqBaseSet)
            s.rtt.ack.reset(); // the ISN moved: old sequence space is meaningless
        q.seqBase = fwd.baseSeq;
        q.seqBaseSet = true;
        q.seqReference = 0;
    }
    relSeq = unwrap(t.seq[r.row] - q.seqBase, q.seqReference);
    relAck = 0;
    if (r.ack) {
        if (!q.ackBaseSet || q.ackBase != rev.baseSeq) {
            q.ackBase = rev.baseSeq;
            q.ackBaseSet = true;
            q.ackReference = 0;
        }
        relAck = unwrap(t.ack[r.row] - q.ackBase, q.ackReference);
    }
}

// The derived columns of the row (relative seq/ack, scaled window), through the side's
// encoder: most rows cost no memory beyond the side's rule.
void encodeColumns(const dissect::TcpColumns& t, const RowFacts& r, SideDecoder& d,
                   std::vector<SegmentDecodeCheckpoint>& checkpoints, std::uint32_t index, int side,
                   std::int64_t relSeq, std::int64_t relAck, std::uint32_t windowBytes)
{
    using Field = SegmentDecodeCheckpoint::Field;
    const bool fromB = side == 1;
    d.encodeRelative(d.seq, d.decode.seqBase, checkpoints,
                     SegmentDecodeCheckpoint::streamOf(index, fromB, Field::kSeq), r.row, t.seq[r.row], relSeq);
    if (r.ack)
        d.encodeRelative(d.ack, d.decode.ackBase, checkpoints,
                         SegmentDecodeCheckpoint::streamOf(index, fromB, Field::kAck), r.row, t.ack[r.row], relAck);
    d.encodeWindow(checkpoints, SegmentDecodeCheckpoint::streamOf(index, fromB, Field::kWindowShift), r.row,
                   t.window[r.row], r.syn, windowBytes);
}

// Connection and direction bookkeeping.
void countSegment(const dissect::TcpColumns& t, const RowFacts& r, ConnectionWork& c, SideWork& s,
                  std::int64_t relSeq, const dissect::TcpSideOptions* options, std::uint32_t windowBytes)
{
    ++c.segments;
    c.lastTimeNs = r.timeNs;
    c.lastFrame = t.frame[r.row];
    DirectionStats& st = s.stats;
    if (!s.anyPacket) {
        st.firstTimeNs = r.timeNs;
        s.anyPacket = true;
    }
    st.lastTimeNs = r.timeNs;
    ++st.packets;
    st.bytes += r.length;
    if (r.length > 0) {
        ++st.dataPackets;
        st.dataBytes += r.length;
        if (!s.anyData) {
            st.firstDataTimeNs = r.timeNs;
            s.anyData = true;
        }
        st.lastDataTimeNs = r.timeNs;
        s.sequence.highestDataEnd = std::max(s.sequence.highestDataEnd, relSeq + (r.syn ? 1 : 0) + r.length);
        s.seen.add(relSeq + (r.syn ? 1 : 0), r.length);
    }
    if (r.tcpFlags & (th::kSyn | th::kFin | th::kRst)) {
        st.synCount += r.syn;
        st.finCount += r.fin;
        st.rstCount += (r.tcpFlags & th::kRst) != 0;
    }
    if (options && options->sackBlockCount) {
        ++st.sackPackets;
        s.anySack = true;
    }
    if (!(r.tcpFlags & th::kRst) && (r.ack || r.syn)) {
        const std::uint64_t window = windowBytes;
        st.maxWindowBytes = std::max(st.maxWindowBytes, window);
        c.maxWindow = std::max(c.maxWindow, window);
    }
    s.anyTimestamps |= r.hasTimestamps;
}

// Handshake: the client is the sender of the first pure SYN, else the receiver of
// the first SYN-ACK.
void noteHandshake(const dissect::TcpColumns& t, const RowFacts& r, ConnectionWork& c, SideWork& s, int side,
                   const dissect::TcpSideOptions* options)
{
    if (r.syn) {
        SideHandshake& h = s.handshake;
        h.sentSyn = true;
        if (options) {
            h.windowScale = options->windowScale;
            h.mss = options->mss;
            h.sackPermitted = options->sackPermitted;
        } else {
            h.windowScale = -1;
            h.mss = 0;
            h.sackPermitted = false;
        }
        h.timestamps = r.hasTimestamps;
        if (!r.ack) {
            if (!c.clientFromSyn) {
                c.clientSide = side;
                c.clientFromSyn = true;
            }
            c.lastSynNs = r.timeNs;
        } else {
            if (!c.sawSynAck && !c.clientFromSyn)
                c.clientSide = 1 - side;
            c.sawSynAck = true;
            c.synAckSeq = t.seq[r.row];
        }
    } else if (r.ack && c.clientFromSyn && c.sawSynAck && c.handshakeRttNs < 0 && side == c.clientSide &&
               t.ack[r.row] == c.synAckSeq + 1) {
        c.handshakeRttNs = r.timeNs - c.lastSynNs;
    }
}

// The peer's retransmission timer restarts with an ACK that advances its head; a
// timeout candidate of the peer whose head this acknowledges was a timeout.
void restartPeerTimer(const RowFacts& r, SideWork& peer, std::int64_t relAck, std::vector<std::uint32_t>& flagColumn)
{
    SideTimer& timer = peer.timer;
    if (r.ack && (!timer.anyCumulativeAck || relAck > timer.cumulativeAck)) {
        if (timer.timeoutCandidate && relAck > timer.timeoutCandidateSeq) {
            flagColumn[timer.timeoutCandidateIndex] |= segment_flag::kRtoTimeout;
            ++peer.stats.rtoTimeouts;
        }
        timer.timeoutCandidate = false;
        timer.headResent = false;
        timer.anyCumulativeAck = true;
        timer.cumulativeAck = relAck;
        timer.timerStartNs = r.timeNs;
    }
}

void addRttSample(RttSamples& samples, SideWork& dataSide, std::size_t ackRow, std::uint64_t dataRow,
                  std::int64_t rttNs, bool fromTimestamps)
{
    // Both trackers measure from the data row's time to the ACK row's, which is what
    // RttSample::rttNs() recomputes.
    if (ackRow - dataRow <= RttSample::kMaxRowsBack)
        samples.push_back(RttSample(ackRow, dataRow, fromTimestamps));
    (fromTimestamps ? dataSide.rtt.tsSamples : dataSide.rtt.ackSamples).add(rttNs);
    dataSide.timer.rto.addSample(rttNs);
}

// RTT: this row acknowledges (and echoes) the peer's data, and sends its own.
void sampleRtt(const dissect::TcpColumns& t, const RowFacts& r, SideWork& s, SideWork& peer, std::int64_t relAck,
               RttSamples& samples)
{
    std::int64_t rttNs = 0;
    std::uint64_t dataRow = 0;
    if (r.ack && peer.rtt.ack.onAck(relAck, r.timeNs, rttNs, dataRow))
        addRttSample(samples, peer, r.row, dataRow, rttNs, false);
    if (r.ack && r.hasTimestamps && peer.rtt.ts.onEcho(t.tsEcr[r.row], r.timeNs, rttNs, dataRow))
        addRttSample(samples, peer, r.row, dataRow, rttNs, true);
    if (r.hasTimestamps)
        s.rtt.ts.onSend(t.tsVal[r.row], r.timeNs, r.row);
}

// A segment occupying sequence space: the RTT tracker's send, and the RTO-timeout rule.
void followTransmission(const RowFacts& r, SideWork& s, const SequenceFlow& rev, std::int64_t relSeq,
                        const TcpAnalysisOptions& options, std::vector<std::uint32_t>& flagColumn,
                        std::uint32_t& flags)
{
    s.rtt.ack.onSegment(relSeq, relSeq + r.length + (r.syn ? 1 : 0) + (r.fin ? 1 : 0), r.timeNs, r.row);
    SideTimer& timer = s.timer;
    DirectionStats& st = s.stats;
    // RTO timeout: a retransmission, not fast, after a silence longer than the RTO.
    // Not a zero-window probe, nor anything sent while the peer's window is closed:
    // the persist timer sends those (RFC 9293 3.8.6.1), and the congestion state
    // survives it.
    const bool persisting = rev.window == 0 || (flags & segment_flag::kZeroWindowProbe);
    const bool timerCandidate = (flags & segment_flag::kRetransmission) &&
                                !(flags & segment_flag::kFastRetransmission) && !persisting;
    const bool afterSilence =
        timerCandidate && timer.anyTransmission &&
        r.timeNs - timer.lastTransmissionNs > timer.rto.timeoutThresholdNs(options.rtoFloorNs, options.rtoSrttFactor);
    if (afterSilence) {
        flags |= segment_flag::kRtoTimeout;
        ++st.rtoTimeouts;
    }
    // The segment after a timeout candidate decides it: the head again (the timer,
    // backed off) confirms it, anything else sent before the head was acknowledged
    // answered an ACK, which a sender with one segment of window does not.
    if (timer.timeoutCandidate) {
        if (relSeq == timer.timeoutCandidateSeq && (flags & segment_flag::kRetransmission)) {
            flagColumn[timer.timeoutCandidateIndex] |= segment_flag::kRtoTimeout;
            ++st.rtoTimeouts;
        }
        timer.timeoutCandidate = false;
    }
    // A retransmission of the head at least the minimum RTO after the timer's last
    // restart: the timer may have fired though the sender never fell silent (RFC
    // 6298's bound, max(min RTO, SRTT + 4 RTTVAR), sits just above the RTT on a long
    // path, and a retransmission queued behind a full buffer outlives it). The
    // minimum less the capture's microsecond rounding: ns-3 fires at exactly 200 ms.
    const bool head = timer.anyCumulativeAck && relSeq == timer.cumulativeAck;
    constexpr std::int64_t kTimestampRoundingNs = 1'000'000;
    const bool headRetransmission = head && (flags & segment_flag::kRetransmission);
    const bool fastRetransmit = headRetransmission && (flags & segment_flag::kFastRetransmission) && !timer.headResent;
    if (!afterSilence && headRetransmission && !fastRetransmit && !persisting &&
        r.timeNs - timer.timerStartNs >= options.rtoFloorNs - kTimestampRoundingNs) {
        timer.timeoutCandidate = true;
        timer.timeoutCandidateIndex = flagColumn.size(); // this row's, pushed next
        timer.timeoutCandidateSeq = relSeq;
        timer.timerStartNs = r.timeNs; // a timer that fired is armed again (RFC 6298 5.5, 5.6)
    }
    // The timer starts when new data leaves with nothing outstanding (RFC 6298 5.1);
    // Linux also restarts it on the head's retransmission, ns-3 does not (its timer
    // can fire soon after a fast retransmit), so the candidates' clock runs from the
    // earlier start and the next segment or ACK confirms them.
    const bool nothingOutstanding =
        !timer.anyTransmission || (head && !(flags & segment_flag::kRetransmission));
    if (nothingOutstanding)
        timer.timerStartNs = r.timeNs;
    timer.headResent = timer.headResent || headRetransmission;
    timer.anyTransmission = true;
    timer.lastTransmissionNs = r.timeNs;
}

// Counts of Wireshark's classifications (most segments carry none).
void countClassifications(DirectionStats& st, std::uint32_t flags, std::uint32_t length)
{
    if (flags == 0)
        return;
    if (flags & segment_flag::kRetransmission) {
        ++st.retransmissions;
        st.retransmittedBytes += length;
    }
    st.fastRetransmissions += (flags & segment_flag::kFastRetransmission) != 0;
    st.spuriousRetransmissions += (flags & segment_flag::kSpuriousRetransmission) != 0;
    st.outOfOrder += (flags & segment_flag::kOutOfOrder) != 0;
    st.lostSegments += (flags & segment_flag::kLostSegment) != 0;
    st.ackLostSegments += (flags & segment_flag::kAckLostSegment) != 0;
    st.dupAcks += (flags & segment_flag::kDuplicateAck) != 0;
    st.zeroWindows += (flags & segment_flag::kZeroWindow) != 0;
    st.zeroWindowProbes += (flags & segment_flag::kZeroWindowProbe) != 0;
    st.windowUpdates += (flags & segment_flag::kWindowUpdate) != 0;
    st.windowFull += (flags & segment_flag::kWindowFull) != 0;
    st.keepAlives += (flags & segment_flag::kKeepAlive) != 0;
}

} // namespace

std::uint32_t Analyzer::openConnection(std::uint32_t conversation, std::size_t row)
{
    const auto index = static_cast<std::uint32_t>(m_work.size());
    ConnectionWork& c = m_work.emplace_back();
    c.conversation = conversation;
    c.firstSide = m_tables.tcp.fromB(row) ? 1 : 0;
    c.firstTimeNs = m_tables.tcp.timeNs[row];
    c.firstFrame = m_tables.tcp.frame[row];
    if (m_current[conversation] != kNoConnection)
        m_work[m_current[conversation]].nextInConversation = index;
    else
        m_firstOfConversation[conversation] = index;
    m_current[conversation] = index;
    return index;
}

void Analyzer::processRow(std::size_t row)
{
    const dissect::TcpColumns& t = m_tables.tcp;
    const std::uint32_t conversation = t.conversation[row];
    const int side = t.fromB(row) ? 1 : 0;

    SegmentInput in;
    in.seq = t.seq[row];
    in.ack = t.ack[row];
    in.length = t.payloadLength[row];
    in.flags = t.tcpFlags(row);
    in.window = t.window[row];
    // Wireshark compares absolute times, and zero means "never" in its state.
    in.timeNs = m_tables.summary.firstEpochNs + t.timeNs[row];

    SegmentVerdict verdict;
    // Ingest fills in CaptureTables::conversations at the end: grow with the rows.
    if (conversation >= m_current.size()) {
        m_current.resize(std::size_t(conversation) + 1, kNoConnection);
        m_firstOfConversation.resize(std::size_t(conversation) + 1, kNoConnection);
    }
    std::uint32_t index = m_current[conversation];
    if (index == kNoConnection)
        index = openConnection(conversation, row);
    // dissect_tcp(): a SYN with a new ISN on a conversation whose side already has a
    // base_seq starts a new conversation, hence a new tcp.stream.
    if (synNeedsNewConnection(m_work[index].sequence, side, in)) {
        index = openConnection(conversation, row);
        verdict.flags |= ws_flag::kReusedPorts;
    }
    ConnectionWork& c = m_work[index];
    applyReusedSynRules(c.sequence, side, in, verdict);

    SegmentOptions options;
    const dissect::TcpSideOptions* segmentOptions = nullptr;
    if (t.flags[row] & dissect::TcpColumns::kHasSideOptions)
        segmentOptions = &m_tables.tcpSideOptions[m_nextSideOptions++];
    if (segmentOptions) {
        options.windowScale = segmentOptions->windowScale;
        options.sackBlockCount = segmentOptions->sackBlockCount;
        options.sackBlocks = segmentOptions->sackBlocks.data();
    }
    analyzeSegment(c.sequence, side, in, options, verdict);

    SegmentColumns& out = m_result.segments;
    std::uint32_t flags = mapFlags(verdict.flags);
    out.connection.push_back(index);
    out.bytesInFlight.push_back(verdict.bytesInFlight);
    if (verdict.flags & ws_flag::kDuplicateAck)
        out.dupAckNumber.emplace_back(row, verdict.dupAckNumber);
    measure(row, index, c, side, verdict.windowBytes, segmentOptions, flags);
    out.flags.push_back(flags);
}

// Windscope's own measurements for one row: unwrapped sequence numbers, the derived
// columns, statistics, the handshake facts, RTT samples and the RTO-timeout rule.
void Analyzer::measure(std::size_t row, std::uint32_t index, ConnectionWork& c, int side,
                       std::uint32_t windowBytes, const dissect::TcpSideOptions* options,
                       std::uint32_t& flags)
{
    const dissect::TcpColumns& t = m_tables.tcp;
    RowFacts r;
    r.row = row;
    r.tcpFlags = t.tcpFlags(row);
    r.length = t.payloadLength[row];
    r.timeNs = t.timeNs[row];
    r.syn = r.tcpFlags & th::kSyn;
    r.fin = r.tcpFlags & th::kFin;
    r.ack = r.tcpFlags & th::kAck;
    r.hasTimestamps = t.flags[row] & dissect::TcpColumns::kHasTimestamps;
    SideWork& s = c.side[side];
    SideWork& peer = c.side[1 - side];
    const SequenceFlow& fwd = c.sequence.flow[side];
    const SequenceFlow& rev = c.sequence.flow[1 - side];
    std::vector<std::uint32_t>& flagColumn = m_result.segments.flags;

    std::int64_t relSeq = 0, relAck = 0;
    unwrapSequence(t, r, s, fwd, rev, relSeq, relAck);
    encodeColumns(t, r, s.decoder, m_result.segments.checkpoints, index, side, relSeq, relAck, windowBytes);
    countSegment(t, r, c, s, relSeq, options, windowBytes);
    noteHandshake(t, r, c, s, side, options);
    restartPeerTimer(r, peer, relAck, flagColumn);
    sampleRtt(t, r, s, peer, relAck, m_result.rtt);
    if (r.length > 0 || r.syn || r.fin)
        followTransmission(r, s, rev, relSeq, m_options, flagColumn, flags);
    countClassifications(s.stats, flags, r.length);
}

void Analyzer::analyzeNewRows()
{
    if (m_finished)
        throw std::logic_error("TCP analysis: rows added after finish()");
    const std::size_t rows = m_tables.tcp.size();
    if (m_nextRow == rows)
        return;
    SegmentColumns& out = m_result.segments;
    if (m_nextRow == 0) {
        // Ingest reserves its columns for the most rows the file could hold; following
        // that bound costs address space only, and avoids the copies (and doubled peak)
        // of regrowth. At most two RTT samples per row (seq/ack and timestamp echo):
        // bulk transfers with timestamps give about 0.9 per row.
        const std::size_t bound = std::max(rows, m_tables.tcp.capacity());
        out.connection.reserve(bound);
        out.flags.reserve(bound);
        out.bytesInFlight.reserve(bound);
        m_result.rtt.reserve(2 * bound);
    }
    for (std::size_t row = m_nextRow; row < rows; ++row)
        processRow(row);
    m_nextRow = rows;
}

} // namespace windscope::analysis::detail
