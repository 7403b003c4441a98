// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// One direction of a connection as its sender lived it: the data segments it sent and
// the ACKs it received, on the sender's clock. Near the sender that is the capture's
// own order. Further along the path (at the AP or the receiver) an ACK reaches the
// sender one upstream one-way delay after the capture saw it, and a data segment left
// the sender that delay plus its queueing delay before; both are estimated here from
// the handshake and the TSval clock (RFC 7323), so that the replay processes ACKs and
// transmissions in the order the sender did.

#include "analysis/tcp/tcp_analysis.h"

#include <cstdint>
#include <vector>

namespace windscope::analysis::cwnd {

enum class VantagePoint : std::uint8_t { Sender, Path, Unknown };
const char* vantagePointName(VantagePoint v); // "sender", "path", "unknown"

struct Vantage
{
    VantagePoint point = VantagePoint::Unknown;
    // Round trips from the capture point to the sender and back (upstream) and to the
    // receiver and back (downstream), from the handshake; -1 unknown.
    std::int64_t upstreamRttNs = -1;
    std::int64_t downstreamRttNs = -1;
    std::int64_t oneWayShiftNs = 0; // half the upstream round trip, applied to every event
    // The sender's own RTT sample of the handshake (its SYN or SYN-ACK to the answer):
    // SYN to the ACK of the SYN-ACK at any capture point, both loops; -1 unseen.
    std::int64_t handshakeRttNs = -1;
    bool queueingFromTimestamps = false;
};

// The TSval clock's tick, Linux's and ns-3's (1 ms), which the send times rebuilt from
// TSvals are known to.
inline constexpr std::int64_t kTsValTickNs = 1'000'000;

// The least retransmission timeout: Linux's TCP_RTO_MIN, ns-3's MinRto in the lab.
inline constexpr std::int64_t kMinRtoNs = 200'000'000;

// A FlowEvent::flags bit of this module's own, beyond analysis::segment_flag's: data
// below the highest sequence sent whose TSval is no newer than the TSval of the first
// segment seen above it. A re-send leaves the sender at least a round trip after the
// segments above it (the loss had to be signalled back), so on a path whose least
// round trip spans a TSval tick this is the original, delayed on its way to the
// capture (an 802.11 retransmission of a frame the capture missed, reordering).
inline constexpr std::uint32_t kDelayedOriginal = 1u << 31;
// An ACK the capture never saw, rebuilt from the TSecr of the data it released
// (addMissedAcks()): when it came is known to a round trip's accuracy, what it
// acknowledged only as the highest data sent a round trip before.
inline constexpr std::uint32_t kRebuiltAck = 1u << 30;

struct FlowEvent
{
    enum class Kind : std::uint8_t { Data, Ack };
    std::uint64_t row = 0;            // row in CaptureTables::tcp
    std::int64_t senderTimeNs = 0;    // estimated sender clock, capture-relative
    // Data and ACK fields share the record, which the replay of every model reads once
    // per segment: at 48 bytes it stays small next to the capture's own columns.
    std::int64_t seqOrAck = 0;        // data: first byte, relative; ACK: relative ack
    std::uint32_t lengthOrWindow = 0; // data: payload bytes; ACK: advertised window, scaled
    std::uint32_t flags = 0;          // segment_flag bits of the row
    std::uint32_t tsVal = 0, tsEcr = 0;
    std::uint32_t firstSackEdge = 0;  // ACK: its first edge in FlowEvents::sackEdges
    Kind kind = Kind::Data;
    std::uint8_t sackCount = 0;       // ACK: SACK blocks, two edges each
    bool hasTimestamps = false;
    // Data: its TSecr is newer than every TSval of the receiver's the capture saw before
    // it, so the ACK that carried it went past the capture.
    bool echoesUnseenAck = false;

    std::int64_t seq() const { return seqOrAck; }
    std::int64_t end() const { return seqOrAck + lengthOrWindow; }
    std::int64_t ack() const { return seqOrAck; }
    std::uint64_t windowBytes() const { return lengthOrWindow; }
};

struct FlowEvents
{
    Vantage vantage;
    std::uint32_t mss = 0;            // largest payload the sender sent (fallback: MSS option)
    std::uint64_t initialRwndBytes = 0;
    std::uint64_t dataSegments = 0;
    std::uint64_t ackLostSegments = 0; // ACKs for data the capture never saw
    std::uint64_t missedAcks = 0;      // ACKs the capture never saw, added from the sender's TSecr
    // The most the sender ever had in flight (highest end sent minus highest ACK): a
    // bound on its usable window from the capture alone, e.g. a full send buffer.
    std::uint64_t maxFlightBytes = 0;
    // The sender's TSval clock on the sender's clock, from the least offset between the
    // capture times and the TSvals of its data: tick ts began at
    // tsTickStartNs(ts). Known when every data segment carried timestamps.
    bool tsClockKnown = false;
    std::uint32_t tsTickBase = 0;
    std::int64_t tsTickBaseNs = 0;
    std::int64_t tsTickStartNs(std::uint32_t ts) const
    {
        return tsTickBaseNs + static_cast<std::int64_t>(static_cast<std::int32_t>(ts - tsTickBase)) * kTsValTickNs;
    }
    std::vector<FlowEvent> events;    // sorted by senderTimeNs
    std::vector<std::int64_t> sackEdges; // the ACKs' SACK block edges, relative

    std::int64_t sackEdge(const FlowEvent& ack, int i) const { return sackEdges[ack.firstSackEdge + i]; }
};

// Data sent by endpoint sender (0 or 1) of connection, ACKs sent by the other endpoint.
// rows: the connection's rows in CaptureTables::tcp, in order, when the caller has them
// (nullptr: found here, scanning the rows between the connection's first and last frame).
FlowEvents collectFlowEvents(const dissect::CaptureTables& tables, const TcpAnalysis& analysis,
                             std::size_t connection, int sender, const std::vector<std::uint64_t>* rows = nullptr);
// Every connection's rows in CaptureTables::tcp, in one pass: connections that overlap
// in time would each scan most of the capture otherwise.
std::vector<std::vector<std::uint64_t>> rowsByConnection(const TcpAnalysis& analysis);

} // namespace windscope::analysis::cwnd
