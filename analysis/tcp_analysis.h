// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// TCP connection analysis over the ingest tables: connections keyed across both
// directions with port reuse split out, 64-bit unwrapped sequence space, window
// scaling from the handshake, and per-segment classifications equivalent to
// Wireshark's tcp.analysis.* flags, plus bytes in flight, RTT and low windows.

#include "dissectors/capture_tables.h"

#include <cstdint>
#include <string>
#include <vector>

namespace windscope::analysis {

// One bit per classification; names follow Wireshark's tcp.analysis.* fields.
namespace segment_flag {
inline constexpr std::uint32_t kRetransmission = 1u << 0;         // tcp.analysis.retransmission
inline constexpr std::uint32_t kFastRetransmission = 1u << 1;     // tcp.analysis.fast_retransmission
inline constexpr std::uint32_t kSpuriousRetransmission = 1u << 2; // tcp.analysis.spurious_retransmission
inline constexpr std::uint32_t kOutOfOrder = 1u << 3;             // tcp.analysis.out_of_order
inline constexpr std::uint32_t kLostSegment = 1u << 4;            // tcp.analysis.lost_segment
inline constexpr std::uint32_t kAckLostSegment = 1u << 5;         // tcp.analysis.ack_lost_segment
inline constexpr std::uint32_t kDuplicateAck = 1u << 6;           // tcp.analysis.duplicate_ack
inline constexpr std::uint32_t kZeroWindow = 1u << 7;             // tcp.analysis.zero_window
inline constexpr std::uint32_t kZeroWindowProbe = 1u << 8;        // tcp.analysis.zero_window_probe
inline constexpr std::uint32_t kZeroWindowProbeAck = 1u << 9;     // tcp.analysis.zero_window_probe_ack
inline constexpr std::uint32_t kWindowFull = 1u << 10;            // tcp.analysis.window_full
inline constexpr std::uint32_t kWindowUpdate = 1u << 11;          // tcp.analysis.window_update
inline constexpr std::uint32_t kKeepAlive = 1u << 12;             // tcp.analysis.keep_alive
inline constexpr std::uint32_t kKeepAliveAck = 1u << 13;          // tcp.analysis.keep_alive_ack
inline constexpr std::uint32_t kLowWindow = 1u << 14;             // Windscope: advertised window below threshold
inline constexpr std::uint32_t kRtoTimeout = 1u << 15;            // Windscope: retransmission after an RTO-like silence
inline constexpr std::uint32_t kPortReuse = 1u << 16;             // tcp.analysis.reused_ports
inline constexpr std::uint32_t kMacRetryExcluded = 1u << 17;      // never set on a row; see stats
} // namespace segment_flag

// Name of each flag bit, e.g. "tcp.analysis.retransmission" / "low_window".
const char* segmentFlagName(std::uint32_t singleBit);

struct TcpAnalysisOptions
{
    // Low window: advertised (scaled) window below this many bytes. 0 selects the
    // default, max(2 * MSS, largest advertised window of the connection / 8).
    std::uint64_t lowWindowThresholdBytes = 0;
};

struct RttSample
{
    std::uint64_t ackRow = 0;     // row in TcpColumns of the acknowledging segment
    std::uint64_t dataRow = 0;    // row of the segment it acknowledges
    std::int64_t rttNs = 0;
    bool fromTimestamps = false;  // TSecr echo (RFC 7323) rather than seq/ack matching
};

struct DirectionStats
{
    std::uint64_t packets = 0;
    std::uint64_t bytes = 0;               // IP-level bytes are not kept; payload bytes
    std::uint64_t dataPackets = 0;
    std::uint64_t dataBytes = 0;           // tcp.len summed, retransmissions included
    std::uint64_t uniqueBytes = 0;         // highest seq reached - initial seq
    std::uint64_t retransmittedBytes = 0;
    std::uint64_t retransmissions = 0;     // all kinds (fast and spurious included)
    std::uint64_t fastRetransmissions = 0;
    std::uint64_t spuriousRetransmissions = 0;
    std::uint64_t rtoTimeouts = 0;
    std::uint64_t outOfOrder = 0;
    std::uint64_t lostSegments = 0;
    std::uint64_t ackLostSegments = 0;
    std::uint64_t dupAcks = 0;
    std::uint64_t zeroWindows = 0;
    std::uint64_t zeroWindowProbes = 0;
    std::uint64_t windowUpdates = 0;
    std::uint64_t windowFull = 0;
    std::uint64_t keepAlives = 0;
    std::uint64_t lowWindows = 0;
    std::uint64_t macRetriesExcluded = 0;  // 802.11 retries of this direction's segments
    std::uint64_t synCount = 0, finCount = 0, rstCount = 0, sackPackets = 0;
    std::uint64_t maxWindowBytes = 0;      // largest scaled advertised window
    std::uint64_t rttSamples = 0;
    double rttMinMs = 0, rttAvgMs = 0, rttMaxMs = 0, rttStddevMs = 0;
    double throughputBps = 0;              // all data bytes / active time
    double goodputBps = 0;                 // unique bytes / active time
    std::int64_t firstTimeNs = 0, lastTimeNs = 0;
};

struct Connection
{
    std::uint64_t id = 0;                  // 0-based, in order of first packet (like tcp.stream)
    std::uint32_t conversation = 0;        // index in CaptureTables::conversations
    // Endpoint 0 is the client (sent the SYN) when the handshake was seen, else the
    // sender of the first packet. Direction 0 is endpoint 0 -> endpoint 1.
    std::uint32_t address[2] = {0, 0};    // ids in CaptureTables::ipAddresses
    std::uint16_t port[2] = {0, 0};
    bool handshakeSeen = false;
    bool windowScaleKnown = false;         // both SYNs seen
    std::int8_t windowScale[2] = {-1, -1}; // shift each endpoint announced (-1 none/unknown)
    std::uint16_t mss[2] = {0, 0};
    bool sackPermitted = false;
    bool timestamps = false;
    std::int64_t handshakeRttNs = -1;      // SYN -> ACK of SYN-ACK, -1 unknown
    std::int64_t firstTimeNs = 0, lastTimeNs = 0;
    std::uint64_t firstFrame = 0, lastFrame = 0;
    std::uint64_t segments = 0;
    std::uint64_t lowWindowThresholdBytes = 0;
    DirectionStats direction[2];
};

// Per-row results, parallel to CaptureTables::tcp.
struct SegmentColumns
{
    std::vector<std::uint32_t> connection;   // index into TcpAnalysis::connections
    std::vector<std::uint32_t> flags;        // segment_flag bits
    std::vector<std::uint32_t> bytesInFlight;
    // Sparse: (row, n) for rows flagged duplicate ACK: the n-th duplicate.
    std::vector<std::pair<std::uint64_t, std::uint32_t>> dupAckNumber;
};

struct TcpAnalysis
{
    std::vector<Connection> connections;
    SegmentColumns segments;
    std::vector<RttSample> rtt;
    // Direction index (0 or 1) of a row within its connection.
    std::uint8_t directionOf(const dissect::CaptureTables& tables, std::size_t row) const;
};

TcpAnalysis analyzeTcp(const dissect::CaptureTables& tables, const TcpAnalysisOptions& options = {});

} // namespace windscope::analysis
