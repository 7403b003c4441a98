// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The working state of the TCP analysis (tcp_analysis.h) while rows come in, shared by
// its parts: tcp_segment_decode.cpp (the derived columns' read side), tcp_measure.cpp
// (the per-row pass: Wireshark's classifier and Windscope's measurements beside it) and
// tcp_finish.cpp (the passes that need every row, and the statistics).

#include "rtt_tracker.h"
#include "seen_bytes.h"
#include "tcp_analysis.h"
#include "tcp_sequence_analysis.h"

#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

namespace windscope::analysis::detail {

inline constexpr std::uint32_t kNoConnection = 0xffffffffu;

// Unwraps a 32-bit offset to the 64-bit value nearest to the highest seen so far.
inline std::int64_t unwrap(std::uint32_t relative, std::int64_t& reference)
{
    const std::int64_t value =
        reference + static_cast<std::int32_t>(relative - static_cast<std::uint32_t>(reference));
    if (value > reference)
        reference = value;
    return value;
}

// The derived per-row values (see SegmentDecodeSide): the encoder (SideDecoder) and the
// accessors of TcpAnalysis share these two rules.
inline std::int64_t decodeRelative(std::int64_t checkpointValue, std::uint32_t checkpointRaw, std::uint32_t raw)
{
    return checkpointValue + static_cast<std::int32_t>(raw - checkpointRaw);
}

inline std::uint32_t decodeWindow(std::uint16_t raw, bool syn, int shift)
{
    return (syn || shift < 0) ? raw : static_cast<std::uint32_t>(raw) << shift;
}

struct RelativeDecodeState
{
    bool started = false;
    std::int64_t value = 0;
    std::uint32_t raw = 0;
};

// Encoder of one side's derived columns (relative seq/ack, scaled window): keeps them
// exact, a row whose value the side's current rule would not give back starting a
// checkpoint.
struct SideDecoder
{
    SegmentDecodeSide decode;
    RelativeDecodeState seq, ack;
    bool windowShiftStarted = false;
    std::int8_t windowShift = -1;

    void encodeRelative(RelativeDecodeState& state, std::uint32_t& base,
                        std::vector<SegmentDecodeCheckpoint>& checkpoints, std::uint64_t stream,
                        std::size_t row, std::uint32_t raw, std::int64_t value)
    {
        if (!state.started) {
            state = {true, 0, raw - static_cast<std::uint32_t>(value)};
            base = state.raw;
        }
        if (decodeRelative(state.value, state.raw, raw) == value)
            return;
        checkpoints.push_back({stream, row, value, raw});
        state.value = value;
        state.raw = raw;
        decode.hasCheckpoints = true;
    }

    void encodeWindow(std::vector<SegmentDecodeCheckpoint>& checkpoints, std::uint64_t stream, std::size_t row,
                      std::uint16_t raw, bool syn, std::uint32_t value)
    {
        // SYNs are never scaled and a zero window is zero at any shift: neither says
        // anything about the shift.
        if (syn || raw == 0)
            return;
        if (windowShiftStarted && decodeWindow(raw, false, windowShift) == value)
            return;
        std::int8_t shift = -1;
        for (int k = 1; k < 32 && value != raw; ++k)
            if ((static_cast<std::uint64_t>(raw) << k) == value) {
                shift = static_cast<std::int8_t>(k);
                break;
            }
        if (!windowShiftStarted) {
            windowShiftStarted = true;
            decode.windowShift = shift;
        } else {
            checkpoints.push_back({stream, row, shift, raw});
            decode.hasCheckpoints = true;
        }
        windowShift = shift;
    }
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

// 64-bit unwrapping of one side's sequence and acknowledgment numbers, restarted if
// Wireshark's base_seq moves (SYN-ACK with a new ISN).
struct SideSequence
{
    std::uint32_t seqBase = 0, ackBase = 0;
    bool seqBaseSet = false, ackBaseSet = false;
    std::int64_t seqReference = 0, ackReference = 0;
    std::int64_t highestDataEnd = std::numeric_limits<std::int64_t>::min();
};

// The side's retransmission timer, for the RTO-timeout rule (tcp_analysis.h).
struct SideTimer
{
    bool anyTransmission = false;
    std::int64_t lastTransmissionNs = 0;
    RtoEstimator rto;
    // The retransmission timer as RFC 6298 (5.1, 5.3) runs it: started by data sent
    // with nothing outstanding, restarted by an ACK that advances the peer's cumulative
    // acknowledgement (Linux's restart on the head's retransmission comes later, so
    // this start bounds both stacks' timers from below). A timeout inside a loss
    // recovery resends the head while the sender is still busy resending others, so
    // no silence shows it; its timer does (see followTransmission() in tcp_measure.cpp).
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
};

// RTT of the side's data: the trackers and the samples they gave.
struct SideRtt
{
    AckRttTracker ack;
    TimestampRttTracker ts;
    RunningStats ackSamples, tsSamples;
};

// Handshake options of the side's SYN (or SYN-ACK).
struct SideHandshake
{
    bool sentSyn = false;
    std::int8_t windowScale = -1;
    std::uint16_t mss = 0;
    bool sackPermitted = false;
    bool timestamps = false;
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
    bool low = false; // low-window state for the second pass
    SideSequence sequence;
    SeenBytes seen; // the data bytes the capture shows (uniqueBytes)
    SideTimer timer;
    SideRtt rtt;
    SideHandshake handshake;
    SideDecoder decoder;
};

struct ConnectionWork
{
    SequenceConnection sequence;
    SideWork side[2];
    std::uint32_t conversation = 0;
    std::uint32_t nextInConversation = kNoConnection; // next (later) connection of the conversation
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

    void analyzeNewRows();   // tcp_measure.cpp
    TcpAnalysis finish();    // tcp_finish.cpp

private:
    // tcp_measure.cpp
    std::uint32_t openConnection(std::uint32_t conversation, std::size_t row);
    void processRow(std::size_t row);
    void measure(std::size_t row, std::uint32_t index, ConnectionWork& c, int side,
                 std::uint32_t windowBytes, const dissect::TcpSideOptions* options,
                 std::uint32_t& flags);
    // tcp_finish.cpp
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

} // namespace windscope::analysis::detail
