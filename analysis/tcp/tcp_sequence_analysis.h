// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The per-segment classifier: a reimplementation of the semantics of Wireshark 4.0's
// TCP sequence analysis (epan/dissectors/packet-tcp.c: the conversation and base_seq
// handling of dissect_tcp(), tcp_analyze_sequence_number(), verify_tcp_window_scaling()
// and the SACK bookkeeping of dissect_tcpopt_sack()) with the default preferences
// (analyze_seq, relative_seq, track_bytes_in_flight and calculate_timestamps on,
// bif_seq_based off, fastrt_supersedes_ooo on, default_window_scaling "not known").
//
// It deliberately works in 32-bit modular sequence space with Wireshark's quirks kept
// (0 means "not seen yet" for nextseq/lastack/maxseqtobeacked, the ack field of
// segments without ACK is still used for pruning, dupacknum is unsigned and -1 marks
// an ACKed unseen segment): the point is that every flag agrees with tshark. The
// 64-bit unwrapped sequence space lives in the driver (tcp_measure.cpp).

#include "unacked_segments.h"

#include <cstdint>

namespace windscope::analysis::detail {

// packet-tcp.c TCP_A_* bits (struct tcp_acked::flags is 16 bits wide).
namespace ws_flag {
inline constexpr std::uint16_t kRetransmission = 0x0001;
inline constexpr std::uint16_t kLostPacket = 0x0002;
inline constexpr std::uint16_t kAckLostPacket = 0x0004;
inline constexpr std::uint16_t kKeepAlive = 0x0008;
inline constexpr std::uint16_t kDuplicateAck = 0x0010;
inline constexpr std::uint16_t kZeroWindow = 0x0020;
inline constexpr std::uint16_t kZeroWindowProbe = 0x0040;
inline constexpr std::uint16_t kZeroWindowProbeAck = 0x0080;
inline constexpr std::uint16_t kKeepAliveAck = 0x0100;
inline constexpr std::uint16_t kOutOfOrder = 0x0200;
inline constexpr std::uint16_t kFastRetransmission = 0x0400;
inline constexpr std::uint16_t kWindowUpdate = 0x0800;
inline constexpr std::uint16_t kWindowFull = 0x1000;
inline constexpr std::uint16_t kReusedPorts = 0x2000;
inline constexpr std::uint16_t kSpuriousRetransmission = 0x4000;
} // namespace ws_flag

// tcp.flags bits used here (packet-tcp.h TH_*).
namespace th {
inline constexpr std::uint16_t kFin = 0x01, kSyn = 0x02, kRst = 0x04, kPush = 0x08, kAck = 0x10;
}

// tcp_flow_t plus tcp_analyze_seq_flow_info_t: one direction of one connection.
struct SequenceFlow
{
    // Window scale: -1 unknown, -2 known not to be used, else the shift.
    std::int16_t winScale = -1;
    bool baseSeqSet = false;
    bool isFirstAck = false; // issue 14690: between a SYN and this side's first pure ACK
    bool validBytesInFlight = true;
    std::uint32_t baseSeq = 0;
    std::uint32_t window = 0xffffffffu; // last raw window (G_MAXUINT32 before any)
    std::uint32_t lastAck = 0;
    std::int64_t lastAckTimeNs = 0; // absolute; 0 before any packet, like nstime zero
    std::uint32_t dupAckNum = 0;
    std::uint32_t nextSeq = 0;
    std::int64_t nextSeqTimeNs = 0;
    std::uint32_t maxSeqToBeAcked = 0;
    std::uint32_t lastSegmentFlags = 0;
    // SACK blocks of this side's most recent packet; Wireshark stores at most
    // MAX_TCP_SACK_RANGES - 1 of them for bytes in flight.
    std::uint8_t sackCount = 0;
    std::uint32_t sackLeft[3] = {0, 0, 0};
    std::uint32_t sackRight[3] = {0, 0, 0};
    UnackedSegments unacked;
};

// struct tcp_analysis: the state of one connection (one tcp.stream).
struct SequenceConnection
{
    SequenceFlow flow[2];          // indexed by side: 0 = sent by conversation endpoint a
    std::int64_t mruSynTimeNs = 0; // ts_mru_syn
    std::int64_t firstRttNs = 0;   // ts_first_rtt, 0 = not yet known
};

struct SegmentInput
{
    std::uint32_t seq = 0, ack = 0, length = 0;
    std::uint16_t flags = 0;  // tcp.flags
    std::uint16_t window = 0; // raw tcp.window_size_value
    std::int64_t timeNs = 0;  // absolute capture time
};

struct SegmentVerdict
{
    std::uint16_t flags = 0;         // ws_flag bits
    std::uint32_t dupAckNumber = 0;  // tcp.analysis.duplicate_ack_num, 0 = none
    std::uint32_t bytesInFlight = 0; // tcp.analysis.bytes_in_flight, 0 = not shown
    std::uint32_t windowBytes = 0;   // tcp.window_size (scaled as Wireshark does)
};

// What the options of this segment said; applied after the analysis, as Wireshark
// parses options after tcp_analyze_sequence_number().
struct SegmentOptions
{
    std::int8_t windowScale = -1;
    std::uint8_t sackBlockCount = 0;
    const std::uint32_t* sackBlocks = nullptr; // left/right pairs
};

// Runs the dissect_tcp() steps that follow the conversation lookup for one segment of
// `side` (port reuse decisions are the caller's, since they open a new connection;
// `flags` carries what they flagged). The caller must already have run
// applyReusedSynRules() on this connection.
void analyzeSegment(SequenceConnection& connection, int side, const SegmentInput& in,
                    const SegmentOptions& options, SegmentVerdict& verdict);

// The SYN checks of dissect_tcp() that do not open a new connection: a repeated SYN
// with the same ISN restores nextseq (issue 17616); a SYN+ACK with a different ISN
// moves base_seq (issue 16944) and is flagged reused_ports. Returns true when a pure
// SYN with a different ISN means the caller must open a new connection.
bool synNeedsNewConnection(const SequenceConnection& connection, int side, const SegmentInput& in);
void applyReusedSynRules(SequenceConnection& connection, int side, const SegmentInput& in,
                         SegmentVerdict& verdict);

} // namespace windscope::analysis::detail
