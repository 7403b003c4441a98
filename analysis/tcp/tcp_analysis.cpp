// SPDX-License-Identifier: GPL-3.0-or-later
// One pass over the TCP rows in capture order: the conversation of each row selects its
// current connection (a new one on port reuse, as Wireshark numbers tcp.stream), the
// Wireshark-equivalent classifier (tcp_sequence_analysis.cpp) flags the segment, and
// Windscope's own measurements (64-bit sequence space, RTT, RTO timeouts, statistics)
// run beside it. A second, cheap pass over the rows flags low windows once each
// connection's largest window is known.
#include "tcp_analysis.h"

#include "rtt_tracker.h"
#include "tcp_sequence_analysis.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace windscope::analysis {

namespace {

using namespace detail;

constexpr std::uint32_t kNone = 0xffffffffu;

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

// Unwraps a 32-bit offset to the 64-bit value nearest to the highest seen so far.
std::int64_t unwrap(std::uint32_t relative, std::int64_t& reference)
{
    const std::int64_t value =
        reference + static_cast<std::int32_t>(relative - static_cast<std::uint32_t>(reference));
    if (value > reference)
        reference = value;
    return value;
}

// The derived per-row values (see SegmentDecodeSide): the encoder in Analyzer and the
// accessors of TcpAnalysis share these two rules.
std::int64_t decodeRelative(std::int64_t checkpointValue, std::uint32_t checkpointRaw, std::uint32_t raw)
{
    return checkpointValue + static_cast<std::int32_t>(raw - checkpointRaw);
}

std::uint32_t decodeWindow(std::uint16_t raw, bool syn, int shift)
{
    return (syn || shift < 0) ? raw : static_cast<std::uint32_t>(raw) << shift;
}

struct RelativeDecodeState
{
    bool started = false;
    std::int64_t value = 0;
    std::uint32_t raw = 0;
};

struct RunningStats
{
    std::uint64_t count = 0;
    double sum = 0, sumSquares = 0;
    std::int64_t min = 0, max = 0;
    void add(std::int64_t v)
    {
        if (count == 0 || v < min)
            min = v;
        if (count == 0 || v > max)
            max = v;
        ++count;
        const double d = static_cast<double>(v);
        sum += d;
        sumSquares += d * d;
    }
};

// Everything Windscope tracks for one side of a conversation (side 0 = sent by
// endpoint a of the ConversationKey) within one connection.
struct SideWork
{
    DirectionStats stats;
    bool anyPacket = false;
    bool anyData = false;
    bool anyTimestamps = false;
    bool anySack = false;
    // 64-bit unwrapping, restarted if Wireshark's base_seq moves (SYN-ACK with a new ISN).
    std::uint32_t seqBase = 0, ackBase = 0;
    bool seqBaseSet = false, ackBaseSet = false;
    std::int64_t seqReference = 0, ackReference = 0;
    std::int64_t highestDataEnd = std::numeric_limits<std::int64_t>::min();
    // RTO-timeout rule.
    bool anyTransmission = false;
    std::int64_t lastTransmissionNs = 0;
    RtoEstimator rto;
    // The retransmission timer as RFC 6298 (5.1, 5.3) and Linux run it: restarted by
    // an ACK that advances the peer's cumulative acknowledgement and by a
    // (re)transmission of the segment at it (the head). A timeout inside a loss
    // recovery resends the head while the sender is still busy resending others, so
    // no silence shows it; its timer does (see measure()).
    bool anyCumulativeAck = false;
    std::int64_t cumulativeAck = 0; // highest relative ACK from the peer
    std::int64_t timerStartNs = 0;
    // A head retransmission the timer could have sent, confirmed when the sender
    // answers no ACK until the head is acknowledged (a window of one segment after a
    // timeout; a loss recovery answers the duplicate ACKs).
    bool timeoutCandidate = false;
    std::size_t timeoutCandidateIndex = 0;
    std::int64_t timeoutCandidateSeq = 0;
    // The head was retransmitted since the peer's cumulative ACK last advanced. Its
    // first retransmission after duplicate ACKs is the fast retransmit, not the timer,
    // however late a capture behind a queue (at the access point) sees it.
    bool headResent = false;
    // RTT of this side's data.
    AckRttTracker ackRtt;
    TimestampRttTracker tsRtt;
    RunningStats ackSamples, tsSamples;
    // Handshake options of this side's SYN (or SYN-ACK).
    bool sentSyn = false;
    std::int8_t synWindowScale = -1;
    std::uint16_t synMss = 0;
    bool synSackPermitted = false;
    bool synTimestamps = false;
    // Low-window state for the second pass.
    bool low = false;
    // Encoder state of the derived columns (relative seq/ack, scaled window).
    SegmentDecodeSide decode;
    RelativeDecodeState seqDecode, ackDecode;
    bool windowShiftStarted = false;
    std::int8_t windowShift = -1;
};

struct ConnectionWork
{
    SequenceConnection sequence;
    SideWork side[2];
    std::uint32_t conversation = 0;
    std::uint32_t nextInConversation = kNone; // next (later) connection of the conversation
    int firstSide = 0;
    int clientSide = -1; // decided by a pure SYN, else by a SYN-ACK
    bool clientFromSyn = false;
    bool sawSynAck = false;
    std::uint32_t synAckSeq = 0;
    std::int64_t lastSynNs = 0;
    std::int64_t handshakeRttNs = -1;
    std::uint64_t maxWindow = 0;
    std::uint64_t lowWindowThreshold = 0;
    std::uint64_t segments = 0;
    std::int64_t firstTimeNs = 0, lastTimeNs = 0;
    std::uint64_t firstFrame = 0, lastFrame = 0;
};

class Analyzer
{
public:
    Analyzer(const dissect::CaptureTables& tables, const TcpAnalysisOptions& options)
        : m_tables(tables), m_options(options)
    {
    }

    void analyzeNewRows();
    TcpAnalysis finish();

private:
    std::uint32_t openConnection(std::uint32_t conversation, std::size_t row);
    void processRow(std::size_t row);
    void measure(std::size_t row, std::uint32_t index, ConnectionWork& c, int side,
                 std::uint32_t windowBytes, const dissect::TcpSideOptions* options,
                 std::uint32_t& flags);
    void encodeRelative(SideWork& s, RelativeDecodeState& state, std::uint32_t& base,
                        std::uint64_t stream, std::size_t row, std::uint32_t raw, std::int64_t value);
    void encodeWindow(SideWork& s, std::uint64_t stream, std::size_t row, std::uint16_t raw, bool syn,
                      std::uint32_t value);
    void addRttSample(ConnectionWork& c, int dataSide, std::size_t ackRow, std::uint64_t dataRow,
                      std::int64_t rttNs, bool fromTimestamps);
    void finishDecode();
    void flagLowWindows();
    void attributeMacRetries();
    void finishConnections();

    const dissect::CaptureTables& m_tables;
    const TcpAnalysisOptions m_options;
    TcpAnalysis m_result;
    std::size_t m_nextRow = 0;
    // Rows come in order, so the next row with side options names the next entry.
    std::uint32_t m_nextSideOptions = 0;
    bool m_finished = false;
    std::vector<ConnectionWork> m_work;
    std::vector<std::uint32_t> m_current;             // conversation -> current connection
    std::vector<std::uint32_t> m_firstOfConversation; // conversation -> first connection
};

std::uint32_t Analyzer::openConnection(std::uint32_t conversation, std::size_t row)
{
    const auto index = static_cast<std::uint32_t>(m_work.size());
    ConnectionWork& c = m_work.emplace_back();
    c.conversation = conversation;
    c.firstSide = m_tables.tcp.fromB(row) ? 1 : 0;
    c.firstTimeNs = m_tables.tcp.timeNs[row];
    c.firstFrame = m_tables.tcp.frame[row];
    if (m_current[conversation] != kNone)
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
        m_current.resize(std::size_t(conversation) + 1, kNone);
        m_firstOfConversation.resize(std::size_t(conversation) + 1, kNone);
    }
    std::uint32_t index = m_current[conversation];
    if (index == kNone)
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

void Analyzer::addRttSample(ConnectionWork& c, int dataSide, std::size_t ackRow,
                            std::uint64_t dataRow, std::int64_t rttNs, bool fromTimestamps)
{
    // Both trackers measure from the data row's time to the ACK row's, which is what
    // RttSample::rttNs() recomputes.
    if (ackRow - dataRow <= RttSample::kMaxRowsBack)
        m_result.rtt.push_back(RttSample(ackRow, dataRow, fromTimestamps));
    SideWork& s = c.side[dataSide];
    (fromTimestamps ? s.tsSamples : s.ackSamples).add(rttNs);
    s.rto.addSample(rttNs);
}

// Windscope's own measurements for one row: unwrapped sequence numbers, statistics,
// RTT samples, the RTO-timeout rule and the handshake facts.
// Keeps the derived columns exact: a row whose value the side's current rule would not
// give back starts a checkpoint.
void Analyzer::encodeRelative(SideWork& s, RelativeDecodeState& state, std::uint32_t& base,
                              std::uint64_t stream, std::size_t row, std::uint32_t raw,
                              std::int64_t value)
{
    if (!state.started) {
        state = {true, 0, raw - static_cast<std::uint32_t>(value)};
        base = state.raw;
    }
    if (decodeRelative(state.value, state.raw, raw) == value)
        return;
    m_result.segments.checkpoints.push_back({stream, row, value, raw});
    state.value = value;
    state.raw = raw;
    s.decode.hasCheckpoints = true;
}

void Analyzer::encodeWindow(SideWork& s, std::uint64_t stream, std::size_t row, std::uint16_t raw,
                            bool syn, std::uint32_t value)
{
    // SYNs are never scaled and a zero window is zero at any shift: neither says
    // anything about the shift.
    if (syn || raw == 0)
        return;
    if (s.windowShiftStarted && decodeWindow(raw, false, s.windowShift) == value)
        return;
    std::int8_t shift = -1;
    for (int k = 1; k < 32 && value != raw; ++k)
        if ((static_cast<std::uint64_t>(raw) << k) == value) {
            shift = static_cast<std::int8_t>(k);
            break;
        }
    if (!s.windowShiftStarted) {
        s.windowShiftStarted = true;
        s.decode.windowShift = shift;
    } else {
        m_result.segments.checkpoints.push_back({stream, row, shift, raw});
        s.decode.hasCheckpoints = true;
    }
    s.windowShift = shift;
}

void Analyzer::measure(std::size_t row, std::uint32_t index, ConnectionWork& c, int side,
                       std::uint32_t windowBytes, const dissect::TcpSideOptions* options,
                       std::uint32_t& flags)
{
    const dissect::TcpColumns& t = m_tables.tcp;
    const std::uint16_t tcpFlags = t.tcpFlags(row);
    const std::uint32_t length = t.payloadLength[row];
    const std::int64_t timeNs = t.timeNs[row];
    const bool syn = tcpFlags & th::kSyn, fin = tcpFlags & th::kFin, ack = tcpFlags & th::kAck;
    SideWork& s = c.side[side];
    SideWork& peer = c.side[1 - side];
    const SequenceFlow& fwd = c.sequence.flow[side];
    const SequenceFlow& rev = c.sequence.flow[1 - side];

    // Unwrapped sequence numbers relative to Wireshark's base_seq.
    if (!s.seqBaseSet || s.seqBase != fwd.baseSeq) {
        if (s.seqBaseSet)
            s.ackRtt.reset(); // the ISN moved: old sequence space is meaningless
        s.seqBase = fwd.baseSeq;
        s.seqBaseSet = true;
        s.seqReference = 0;
    }
    const std::int64_t relSeq = unwrap(t.seq[row] - s.seqBase, s.seqReference);
    std::int64_t relAck = 0;
    if (ack) {
        if (!s.ackBaseSet || s.ackBase != rev.baseSeq) {
            s.ackBase = rev.baseSeq;
            s.ackBaseSet = true;
            s.ackReference = 0;
        }
        relAck = unwrap(t.ack[row] - s.ackBase, s.ackReference);
    }
    using Field = SegmentDecodeCheckpoint::Field;
    const bool fromB = side == 1;
    encodeRelative(s, s.seqDecode, s.decode.seqBase,
                   SegmentDecodeCheckpoint::streamOf(index, fromB, Field::kSeq), row, t.seq[row], relSeq);
    if (ack)
        encodeRelative(s, s.ackDecode, s.decode.ackBase,
                       SegmentDecodeCheckpoint::streamOf(index, fromB, Field::kAck), row, t.ack[row],
                       relAck);
    encodeWindow(s, SegmentDecodeCheckpoint::streamOf(index, fromB, Field::kWindowShift), row,
                 t.window[row], syn, windowBytes);

    // Connection and direction bookkeeping.
    ++c.segments;
    c.lastTimeNs = timeNs;
    c.lastFrame = t.frame[row];
    DirectionStats& st = s.stats;
    if (!s.anyPacket) {
        st.firstTimeNs = timeNs;
        s.anyPacket = true;
    }
    st.lastTimeNs = timeNs;
    ++st.packets;
    st.bytes += length;
    if (length > 0) {
        ++st.dataPackets;
        st.dataBytes += length;
        if (!s.anyData) {
            st.firstDataTimeNs = timeNs;
            s.anyData = true;
        }
        st.lastDataTimeNs = timeNs;
        s.highestDataEnd = std::max(s.highestDataEnd, relSeq + (syn ? 1 : 0) + length);
    }
    if (tcpFlags & (th::kSyn | th::kFin | th::kRst)) {
        st.synCount += syn;
        st.finCount += fin;
        st.rstCount += (tcpFlags & th::kRst) != 0;
    }
    if (options && options->sackBlockCount) {
        ++st.sackPackets;
        s.anySack = true;
    }
    if (!(tcpFlags & th::kRst) && (ack || syn)) {
        const std::uint64_t window = windowBytes;
        st.maxWindowBytes = std::max(st.maxWindowBytes, window);
        c.maxWindow = std::max(c.maxWindow, window);
    }
    const bool hasTimestamps = t.flags[row] & dissect::TcpColumns::kHasTimestamps;
    s.anyTimestamps |= hasTimestamps;

    // Handshake: the client is the sender of the first pure SYN, else the receiver of
    // the first SYN-ACK.
    if (syn) {
        s.sentSyn = true;
        if (options) {
            s.synWindowScale = options->windowScale;
            s.synMss = options->mss;
            s.synSackPermitted = options->sackPermitted;
        } else {
            s.synWindowScale = -1;
            s.synMss = 0;
            s.synSackPermitted = false;
        }
        s.synTimestamps = hasTimestamps;
        if (!ack) {
            if (!c.clientFromSyn) {
                c.clientSide = side;
                c.clientFromSyn = true;
            }
            c.lastSynNs = timeNs;
        } else {
            if (!c.sawSynAck && !c.clientFromSyn)
                c.clientSide = 1 - side;
            c.sawSynAck = true;
            c.synAckSeq = t.seq[row];
        }
    } else if (ack && c.clientFromSyn && c.sawSynAck && c.handshakeRttNs < 0 &&
               side == c.clientSide && t.ack[row] == c.synAckSeq + 1) {
        c.handshakeRttNs = timeNs - c.lastSynNs;
    }

    // The peer's retransmission timer restarts with an ACK that advances its head; a
    // timeout candidate of the peer whose head this acknowledges was a timeout.
    if (ack && (!peer.anyCumulativeAck || relAck > peer.cumulativeAck)) {
        if (peer.timeoutCandidate && relAck > peer.timeoutCandidateSeq) {
            m_result.segments.flags[peer.timeoutCandidateIndex] |= segment_flag::kRtoTimeout;
            ++peer.stats.rtoTimeouts;
        }
        peer.timeoutCandidate = false;
        peer.headResent = false;
        peer.anyCumulativeAck = true;
        peer.cumulativeAck = relAck;
        peer.timerStartNs = timeNs;
    }

    // RTT: this row acknowledges (and echoes) the peer's data, and sends its own.
    std::int64_t rttNs = 0;
    std::uint64_t dataRow = 0;
    if (ack && peer.ackRtt.onAck(relAck, timeNs, rttNs, dataRow))
        addRttSample(c, 1 - side, row, dataRow, rttNs, false);
    if (ack && hasTimestamps && peer.tsRtt.onEcho(t.tsEcr[row], timeNs, rttNs, dataRow))
        addRttSample(c, 1 - side, row, dataRow, rttNs, true);
    if (hasTimestamps)
        s.tsRtt.onSend(t.tsVal[row], timeNs, row);

    const bool occupiesSequence = length > 0 || syn || fin;
    if (occupiesSequence) {
        s.ackRtt.onSegment(relSeq, relSeq + length + (syn ? 1 : 0) + (fin ? 1 : 0), timeNs,
                           row);
        // RTO timeout: a retransmission, not fast, after a silence longer than the RTO.
        // Not a zero-window probe, nor anything sent while the peer's window is closed:
        // the persist timer sends those (RFC 9293 3.8.6.1), and the congestion state
        // survives it.
        const bool persisting = rev.window == 0 || (flags & segment_flag::kZeroWindowProbe);
        const bool timerCandidate = (flags & segment_flag::kRetransmission) &&
                                    !(flags & segment_flag::kFastRetransmission) && !persisting;
        const bool afterSilence =
            timerCandidate && s.anyTransmission &&
            timeNs - s.lastTransmissionNs > s.rto.timeoutThresholdNs(m_options.rtoFloorNs, m_options.rtoSrttFactor);
        if (afterSilence) {
            flags |= segment_flag::kRtoTimeout;
            ++st.rtoTimeouts;
        }
        // The segment after a timeout candidate decides it: the head again (the timer,
        // backed off) confirms it, anything else sent before the head was acknowledged
        // answered an ACK, which a sender with one segment of window does not.
        if (s.timeoutCandidate) {
            if (relSeq == s.timeoutCandidateSeq && (flags & segment_flag::kRetransmission)) {
                m_result.segments.flags[s.timeoutCandidateIndex] |= segment_flag::kRtoTimeout;
                ++st.rtoTimeouts;
            }
            s.timeoutCandidate = false;
        }
        // A retransmission of the head at least the minimum RTO after the timer's last
        // restart: the timer may have fired though the sender never fell silent (RFC
        // 6298's bound, max(min RTO, SRTT + 4 RTTVAR), sits just above the RTT on a long
        // path, and a retransmission queued behind a full buffer outlives it). The
        // minimum less the capture's microsecond rounding: ns-3 fires at exactly 200 ms.
        const bool head = s.anyCumulativeAck && relSeq == s.cumulativeAck;
        constexpr std::int64_t kTimestampRoundingNs = 1'000'000;
        const bool headRetransmission = head && (flags & segment_flag::kRetransmission);
        const bool fastRetransmit = headRetransmission && (flags & segment_flag::kFastRetransmission) && !s.headResent;
        if (!afterSilence && headRetransmission && !fastRetransmit && !persisting &&
            timeNs - s.timerStartNs >= m_options.rtoFloorNs - kTimestampRoundingNs) {
            s.timeoutCandidate = true;
            s.timeoutCandidateIndex = m_result.segments.flags.size(); // this row's, pushed next
            s.timeoutCandidateSeq = relSeq;
        }
        if (head || !s.anyTransmission)
            s.timerStartNs = timeNs;
        s.headResent = s.headResent || headRetransmission;
        s.anyTransmission = true;
        s.lastTransmissionNs = timeNs;
    }

    // Counts of Wireshark's classifications (most segments carry none).
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

void Analyzer::flagLowWindows()
{
    for (ConnectionWork& c : m_work) {
        std::uint64_t threshold = m_options.lowWindowThresholdBytes;
        if (threshold == 0) {
            std::uint64_t mss = 0;
            for (const SideWork& s : c.side)
                if (s.synMss && (mss == 0 || s.synMss < mss))
                    mss = s.synMss;
            threshold = std::max<std::uint64_t>(2 * mss, c.maxWindow / 8);
        }
        c.lowWindowThreshold = threshold;
    }
    const dissect::TcpColumns& t = m_tables.tcp;
    SegmentColumns& out = m_result.segments;
    // The window shift of each side, followed through its checkpoints in row order
    // (what TcpAnalysis::windowBytes looks up per row, without the search).
    struct ShiftCursor
    {
        int shift = -1;
        std::size_t next = 0, end = 0; // its window-shift checkpoints still ahead
    };
    std::vector<ShiftCursor> cursors(out.decode.size());
    for (std::size_t i = 0; i < cursors.size(); ++i)
        cursors[i].shift = out.decode[i].windowShift;
    const std::vector<SegmentDecodeCheckpoint>& checkpoints = out.checkpoints;
    for (std::size_t i = 0; i < checkpoints.size();) {
        std::size_t end = i;
        while (end < checkpoints.size() && checkpoints[end].stream == checkpoints[i].stream)
            ++end;
        if (checkpoints[i].stream % 3 == SegmentDecodeCheckpoint::kWindowShift)
            cursors[checkpoints[i].stream / 3] = {cursors[checkpoints[i].stream / 3].shift, i, end};
        i = end;
    }
    for (std::size_t row = 0; row < t.size(); ++row) {
        const std::uint16_t tcpFlags = t.tcpFlags(row);
        // Only segments whose window field is meaningful advertise a window.
        if (!(tcpFlags & th::kAck) || (tcpFlags & (th::kSyn | th::kRst)))
            continue;
        const std::uint32_t connection = out.connection[row];
        const int fromB = t.fromB(row) ? 1 : 0;
        ConnectionWork& c = m_work[connection];
        SideWork& s = c.side[fromB];
        ShiftCursor& cursor = cursors[2 * std::size_t(connection) + std::size_t(fromB)];
        for (; cursor.next < cursor.end && checkpoints[cursor.next].row <= row; ++cursor.next)
            cursor.shift = static_cast<int>(checkpoints[cursor.next].value);
        const std::uint32_t window = decodeWindow(t.window[row], false, cursor.shift);
        const bool low = window > 0 && window < c.lowWindowThreshold;
        if (low) {
            out.flags[row] |= segment_flag::kLowWindow;
            if (!s.low)
                ++s.stats.lowWindows; // an entry into the low state
        }
        s.low = low;
    }
}

void Analyzer::attributeMacRetries()
{
    for (const dissect::ExcludedTcpSegment& e : m_tables.macDuplicateTcp) {
        if (e.conversation >= m_firstOfConversation.size())
            continue;
        // The latest connection of the conversation begun before the retry; a retry
        // older than all of them goes to the first.
        std::uint32_t index = m_firstOfConversation[e.conversation];
        if (index == kNone)
            continue; // every segment of the conversation was a MAC retry
        for (std::uint32_t next = m_work[index].nextInConversation;
             next != kNone && m_work[next].firstFrame <= e.frame;
             next = m_work[next].nextInConversation)
            index = next;
        ++m_work[index].side[e.fromB ? 1 : 0].stats.macRetriesExcluded;
    }
}

void finishRtt(SideWork& s)
{
    DirectionStats& st = s.stats;
    st.rttAckSamples = s.ackSamples.count;
    st.rttTimestampSamples = s.tsSamples.count;
    const bool useTimestamps = s.ackSamples.count == 0 && s.tsSamples.count > 0;
    const RunningStats& r = useTimestamps ? s.tsSamples : s.ackSamples;
    st.rttFromTimestamps = useTimestamps;
    st.rttSamples = r.count;
    if (r.count == 0)
        return;
    constexpr double kNsPerMs = 1e6;
    const double n = static_cast<double>(r.count);
    const double mean = r.sum / n;
    st.rttMinMs = static_cast<double>(r.min) / kNsPerMs;
    st.rttMaxMs = static_cast<double>(r.max) / kNsPerMs;
    st.rttAvgMs = mean / kNsPerMs;
    st.rttStddevMs = std::sqrt(std::max(0.0, r.sumSquares / n - mean * mean)) / kNsPerMs;
}

void finishRates(SideWork& s)
{
    DirectionStats& st = s.stats;
    // Unique bytes: highest data sequence reached minus the first data byte (relative 1).
    st.uniqueBytes = s.highestDataEnd > 1 ? static_cast<std::uint64_t>(s.highestDataEnd - 1) : 0;
    const std::int64_t active = st.lastDataTimeNs - st.firstDataTimeNs;
    if (st.dataPackets >= 2 && active > 0) {
        const double seconds = static_cast<double>(active) / 1e9;
        st.throughputBps = static_cast<double>(st.dataBytes) * 8 / seconds;
        st.goodputBps = static_cast<double>(st.uniqueBytes) * 8 / seconds;
    }
}

void Analyzer::finishDecode()
{
    m_result.segments.decode.resize(2 * m_work.size());
    for (std::size_t i = 0; i < m_work.size(); ++i)
        for (int side = 0; side < 2; ++side)
            m_result.segments.decode[2 * i + side] = m_work[i].side[side].decode;
    // Appended in row order; grouped by stream, each stream stays in row order.
    std::stable_sort(m_result.segments.checkpoints.begin(), m_result.segments.checkpoints.end(),
                     [](const SegmentDecodeCheckpoint& a, const SegmentDecodeCheckpoint& b) {
                         return a.stream < b.stream;
                     });
}

void Analyzer::finishConnections()
{
    m_result.connections.resize(m_work.size());
    for (std::size_t i = 0; i < m_work.size(); ++i) {
        ConnectionWork& c = m_work[i];
        Connection& out = m_result.connections[i];
        const dissect::ConversationKey& key = m_tables.conversations[c.conversation];
        int client = c.clientSide >= 0 ? c.clientSide : c.firstSide;
        // Identical endpoints: ingest marks every row as sent by b; keep a as endpoint 0.
        if (key.addrA == key.addrB && key.portA == key.portB)
            client = 0;
        const std::uint32_t address[2] = {key.addrA, key.addrB};
        const std::uint16_t port[2] = {key.portA, key.portB};
        for (int e = 0; e < 2; ++e) {
            const int side = e == 0 ? client : 1 - client;
            SideWork& s = c.side[side];
            finishRtt(s);
            finishRates(s);
            out.address[e] = address[side];
            out.port[e] = port[side];
            out.windowScale[e] = s.sentSyn ? s.synWindowScale : -1;
            out.mss[e] = s.sentSyn ? s.synMss : 0;
            out.direction[e] = s.stats;
        }
        out.id = i;
        out.conversation = c.conversation;
        out.handshakeSeen = c.clientFromSyn && c.sawSynAck;
        out.windowScaleKnown =
            c.sequence.flow[0].winScale != -1 && c.sequence.flow[1].winScale != -1;
        const SideWork& a = c.side[0];
        const SideWork& b = c.side[1];
        out.sackPermitted = (a.synSackPermitted && b.synSackPermitted) || a.anySack || b.anySack;
        out.timestamps = (a.sentSyn && b.sentSyn) ? (a.synTimestamps && b.synTimestamps)
                                                  : (a.anyTimestamps && b.anyTimestamps);
        out.handshakeRttNs = c.handshakeRttNs;
        out.firstTimeNs = c.firstTimeNs;
        out.lastTimeNs = c.lastTimeNs;
        out.firstFrame = c.firstFrame;
        out.lastFrame = c.lastFrame;
        out.segments = c.segments;
        out.lowWindowThresholdBytes = c.lowWindowThreshold;
    }
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

TcpAnalysis Analyzer::finish()
{
    analyzeNewRows();
    m_finished = true;
    finishDecode();
    flagLowWindows();
    attributeMacRetries();
    finishConnections();
    m_work = {};
    return std::move(m_result);
}

} // namespace

const char* segmentFlagName(std::uint32_t singleBit)
{
    switch (singleBit) {
    case segment_flag::kRetransmission:
        return "tcp.analysis.retransmission";
    case segment_flag::kFastRetransmission:
        return "tcp.analysis.fast_retransmission";
    case segment_flag::kSpuriousRetransmission:
        return "tcp.analysis.spurious_retransmission";
    case segment_flag::kOutOfOrder:
        return "tcp.analysis.out_of_order";
    case segment_flag::kLostSegment:
        return "tcp.analysis.lost_segment";
    case segment_flag::kAckLostSegment:
        return "tcp.analysis.ack_lost_segment";
    case segment_flag::kDuplicateAck:
        return "tcp.analysis.duplicate_ack";
    case segment_flag::kZeroWindow:
        return "tcp.analysis.zero_window";
    case segment_flag::kZeroWindowProbe:
        return "tcp.analysis.zero_window_probe";
    case segment_flag::kZeroWindowProbeAck:
        return "tcp.analysis.zero_window_probe_ack";
    case segment_flag::kWindowFull:
        return "tcp.analysis.window_full";
    case segment_flag::kWindowUpdate:
        return "tcp.analysis.window_update";
    case segment_flag::kKeepAlive:
        return "tcp.analysis.keep_alive";
    case segment_flag::kKeepAliveAck:
        return "tcp.analysis.keep_alive_ack";
    case segment_flag::kLowWindow:
        return "low_window";
    case segment_flag::kRtoTimeout:
        return "rto_timeout";
    case segment_flag::kPortReuse:
        return "tcp.analysis.reused_ports";
    case segment_flag::kMacRetryExcluded:
        return "mac_retry_excluded";
    default:
        return "";
    }
}

bool TcpAnalysis::sendsFromB(const dissect::CaptureTables& tables, std::size_t connection, int endpoint) const
{
    const Connection& c = connections[connection];
    const dissect::ConversationKey& key = tables.conversations[c.conversation];
    const bool endpoint0IsA = c.address[0] == key.addrA && c.port[0] == key.portA;
    return endpoint0IsA == (endpoint != 0);
}

std::uint8_t TcpAnalysis::directionOf(const dissect::CaptureTables& tables, std::size_t row) const
{
    return tables.tcp.fromB(row) == sendsFromB(tables, segments.connection[row], 0) ? 0 : 1;
}

const SegmentDecodeCheckpoint* TcpAnalysis::checkpoint(std::uint64_t stream, std::size_t row) const
{
    const std::vector<SegmentDecodeCheckpoint>& all = segments.checkpoints;
    auto after = std::upper_bound(all.begin(), all.end(), std::pair<std::uint64_t, std::uint64_t>(stream, row),
                                  [](const std::pair<std::uint64_t, std::uint64_t>& key,
                                     const SegmentDecodeCheckpoint& c) {
                                      return key < std::pair<std::uint64_t, std::uint64_t>(c.stream, c.row);
                                  });
    if (after == all.begin())
        return nullptr;
    --after;
    return after->stream == stream ? &*after : nullptr;
}

std::int64_t TcpAnalysis::relativeSeq(const dissect::TcpColumns& tcp, std::size_t row) const
{
    const std::uint32_t connection = segments.connection[row];
    const bool fromB = tcp.fromB(row);
    const SegmentDecodeSide& d = segments.decode[2 * std::size_t(connection) + fromB];
    if (d.hasCheckpoints)
        if (const SegmentDecodeCheckpoint* c = checkpoint(
                SegmentDecodeCheckpoint::streamOf(connection, fromB, SegmentDecodeCheckpoint::kSeq), row))
            return decodeRelative(c->value, c->raw, tcp.seq[row]);
    return decodeRelative(0, d.seqBase, tcp.seq[row]);
}

std::int64_t TcpAnalysis::relativeAck(const dissect::TcpColumns& tcp, std::size_t row) const
{
    if (!(tcp.tcpFlags(row) & th::kAck))
        return 0;
    const std::uint32_t connection = segments.connection[row];
    const bool fromB = tcp.fromB(row);
    const SegmentDecodeSide& d = segments.decode[2 * std::size_t(connection) + fromB];
    if (d.hasCheckpoints)
        if (const SegmentDecodeCheckpoint* c = checkpoint(
                SegmentDecodeCheckpoint::streamOf(connection, fromB, SegmentDecodeCheckpoint::kAck), row))
            return decodeRelative(c->value, c->raw, tcp.ack[row]);
    return decodeRelative(0, d.ackBase, tcp.ack[row]);
}

std::uint32_t TcpAnalysis::windowBytes(const dissect::TcpColumns& tcp, std::size_t row) const
{
    const std::uint32_t connection = segments.connection[row];
    const bool fromB = tcp.fromB(row);
    const SegmentDecodeSide& d = segments.decode[2 * std::size_t(connection) + fromB];
    int shift = d.windowShift;
    if (d.hasCheckpoints)
        if (const SegmentDecodeCheckpoint* c = checkpoint(
                SegmentDecodeCheckpoint::streamOf(connection, fromB, SegmentDecodeCheckpoint::kWindowShift),
                row))
            shift = static_cast<int>(c->value);
    return decodeWindow(tcp.window[row], tcp.tcpFlags(row) & th::kSyn, shift);
}

struct TcpAnalyzer::Impl
{
    Analyzer analyzer;
};

TcpAnalyzer::TcpAnalyzer(const dissect::CaptureTables& tables, const TcpAnalysisOptions& options)
    : m_impl(std::make_unique<Impl>(Impl{Analyzer(tables, options)}))
{
}

TcpAnalyzer::~TcpAnalyzer() = default;

void TcpAnalyzer::analyzeNewRows()
{
    m_impl->analyzer.analyzeNewRows();
}

TcpAnalysis TcpAnalyzer::finish()
{
    return m_impl->analyzer.finish();
}

dissect::IngestOptions TcpAnalyzer::following(const dissect::IngestOptions& ingest)
{
    dissect::IngestOptions out = ingest;
    out.rowsAppended = [this, before = ingest.rowsAppended](const dissect::CaptureTables& rows) {
        if (before)
            before(rows);
        analyzeNewRows();
    };
    return out;
}

TcpAnalysis analyzeTcp(const dissect::CaptureTables& tables, const TcpAnalysisOptions& options)
{
    return TcpAnalyzer(tables, options).finish();
}

bool readAndAnalyzeTcp(const std::string& path, const dissect::IngestOptions& ingest,
                       dissect::CaptureTables& tables, TcpAnalysis& tcp, std::string& error,
                       const TcpAnalysisOptions& options)
{
    tcp = {};
    TcpAnalyzer analyzer(tables, options);
    if (!dissect::ingestCapture(path, analyzer.following(ingest), tables, error))
        return false;
    tcp = analyzer.finish();
    return true;
}

} // namespace windscope::analysis
