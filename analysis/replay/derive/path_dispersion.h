// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The path's capacity from packet-train dispersion (Keshav 1991, "packet pair";
// Dovrolis, Ramanathan, Moore 2001/2004, "packet dispersion"): segments that reach the
// bottleneck back to back leave it spaced by its service time, and whatever follows
// keeps that spacing: their arrivals downstream, and the receiver's ACKs back at the
// sender (Westwood+ reads its bandwidth estimate from the ACKs the same way, Linux
// tcp_westwood_update_window()). A sender held by a small window never fills the path,
// so its delivered rate says nothing of the path's; the spacing inside each of its
// flights does.

#include <cstddef>
#include <cstdint>
#include <span>

namespace windscope::analysis::replay {

// One delivery as the capture shows it: at the sender an ACK (atNs its arrival, bytes
// what it acknowledged, cumulatively), downstream a data segment's arrival (bytes the
// in-order data received so far).
struct DispersionPoint
{
    std::int64_t atNs = 0;
    std::int64_t bytes = 0;
    // At the sender: when the last of those bytes was sent (first transmission); -1
    // unknown (a resend).
    std::int64_t sentNs = -1;
    // Downstream: the receiver's ACK that released the segment (the first whose right
    // edge, ACK plus window, reached its end), as an index; -1 unknown.
    std::int64_t releasedBy = -1;
    // Downstream: the segment's TSecr (RFC 7323), the TSval of the latest ACK the sender
    // had when it sent it; -1 without timestamps.
    std::int64_t echo = -1;
};

struct DispersionCapacity
{
    double mbps = 0;            // payload rate of the bottleneck; 0 when not read
    std::size_t trains = 0;     // trains that qualified
    double agreeing = 0;        // segments of the trains within kDispersionBand of the reading
    std::size_t backToBack = 0; // of them, read at the sender (data sent at least twice as fast as acked)

    // Two trains' worth agreeing (two delayed-ACK pairs, kTrainSegments segments): one
    // alone could be a run of compressed ACKs or one aggregate.
    bool read() const;
};

// Two train estimates within this factor read the same rate: a train of a few segments
// is timed to a few percent (the capture's microsecond, a relay's release lateness of
// tens of us against a train span of 0.5 ms at 100 Mb/s), and the replay calls a
// calibration good within 10 %.
inline constexpr double kDispersionBand = 1.10;

// A train spans at least this many segments past its first delivery: two delayed ACKs
// (RFC 1122 4.2.3.2, one ACK per two full segments), so no single ACK's timing makes it.
inline constexpr int kTrainSegments = 4;

inline bool DispersionCapacity::read() const
{
    return mbps > 0 && agreeing >= 2.0 * kTrainSegments;
}

// Reads the capacity from deliveries in capture order, from trains whose data the
// sender sent back to back, so that the bottleneck, not the sender, spaced them. At the
// sender: the longest runs of ACKs whose data went out in at most half the span of the
// ACKs (slow start's 2:1 release, RFC 5681 3.1, an initial window, a window opening at
// once) over at least kTrainSegments segments; the ACK clock's own later flights carry
// whatever spacing the ACKs took on their way back (an 802.11 uplink's channel access),
// not the bottleneck's. Downstream: the arrivals of the segments one ACK released (a
// packet pair or train, Keshav's probe made by the sender's own ACK clock): those the
// same ACK's right edge let out and, with timestamps, that echo the same TSecr, since
// nothing newer had reached the sender between them (the edge alone tells a release only
// where the receiver's window, not the cwnd, held the sender). The reading
// is the mode of the trains' estimates (the median of the most populated band of width
// kDispersionBand), not the maximum or a high percentile: ACK compression and 802.11
// aggregation deliver short runs faster than the path, but only the bottleneck's
// spacing recurs train after train. Every point of a train must deliver new data (a
// resend or a hole cuts it).
// senderTimes: the points carry the sender's times (a capture at the sender); a train
// whose ends lack them is then left out. floorMbps: the connection's mean delivery rate
// over its active time; a train reading below it held a pause (the gap between two of a
// window-limited sender's flights, the same every round trip, so it would make a mode
// of its own), since a bottleneck busy throughout serves at least the mean.
DispersionCapacity dispersionCapacity(std::span<const DispersionPoint> points, std::uint32_t mss, bool senderTimes,
                                      double floorMbps = 0);

} // namespace windscope::analysis::replay
