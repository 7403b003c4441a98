// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A connection captured downstream of the path's losses: at the receiver, or on a hop
// so close to it that the receiver's ACKs answer the data at once (the cwnd
// inference's vantage point: on the path, with a downstream round trip that is the
// receiver's own turnaround). There the sender's view has to be read from what reaches
// the receiver:
// - a segment lost upstream is a hole in the sequence (Wireshark's "previous segment
//   not captured"), filled later by its retransmission; the missing segment would
//   have arrived between its neighbours, which is when it met the outage or the
//   queue that dropped it;
// - the round trip is the receiver's ACK to the first data segment it released (the
//   data echoes the ACK's TSval, RFC 7323), one upstream round trip plus the queue;
//   the data-to-ACK time the capture also shows is the receiver's own turnaround.

#include "derive_scenario.h"
#include "periodic_outages.h"

#include <cstdint>
#include <string>
#include <vector>

namespace windscope::analysis::replay {

// The receiver's ACK to the first data it released: what the sender's RTT was.
struct UpstreamRttSample
{
    std::int64_t dataNs = 0;      // capture time of the released data segment
    double rttMs = 0;             // from the ACK (first one with the echoed TSval)
    std::int64_t flightBytes = 0; // released data's end minus that ACK's ack number
};

// A segment that never reached the capture point first time: the hole it left.
struct MissingSegment
{
    std::int64_t expectedNs = 0; // when it would have arrived (between its neighbours)
    std::int64_t revealedNs = 0; // arrival of the segment past the hole
    std::int64_t segment = 0;    // index of MSS-sized segments from the first data byte
    std::int64_t afterNs = 0;    // arrival of the segment before the hole
    // Filled sooner after the hole showed than any resend of the sender's could come
    // (the least upstream round trip: the receiver's word of it has to reach the sender
    // and the resend come back): the hop's own radio sent it again (an A-MPDU subframe
    // a Block Ack reported missing, a retry after a lost 802.11 ACK) or the path reordered
    // it. Not a loss the sender saw: left out of the loss episodes and the lone losses.
    bool recoveredBelowTcp = false;
    // The round trip of the segment before the hole (the receiver's ACK it echoes to its
    // arrival) where the arrivals paused after it for longer than it waited in the queue,
    // -1 otherwise: it entered the queue just ahead of the drop, behind all the queue
    // held, and the queue had drained before the hole showed.
    std::int64_t queueRttNs = -1;
    // When the capture saw this radio send it first and give it up, every attempt
    // unanswered (an AP's retries to a station away); -1: it never passed here.
    std::int64_t givenUpNs = -1;
};

struct DownstreamView
{
    bool downstream = false;
    std::string basis;                  // why the capture is (or is not) taken as downstream
    std::int64_t upstreamRttNs = -1;    // handshake, capture to sender and back
    std::int64_t downstreamRttNs = -1;  // handshake, capture to receiver and back
    std::vector<UpstreamRttSample> rtt; // by time
    // Whole loops as the sender's own samples run them: the receiver's ACK to the ACK
    // drawn by an in-order segment it released (ms: ACK to ACK). The sender times a
    // segment that drew an ACK, the second of a delayed-ACK pair, which crosses the relay
    // behind its mate, plus the receiver's turnaround; the first released segment
    // crosses ahead of it and reads the path's delay variation low (by time).
    std::vector<UpstreamRttSample> loopRtt;
    std::vector<MissingSegment> missing; // by expected time
    // Every first arrival and every missing segment, relative to the first data
    // segment's arrival (lost: missing), for the periodic-outage detector.
    std::vector<TransmissionTime> arrivals;
    // Retransmissions that arrived: the capture's resends as the receiver sees them.
    std::uint64_t filledHoles = 0;
};

// Reads the view when the capture is downstream (downstream false otherwise, with
// the reason in basis). firstDataNs: the first data segment's capture time.
DownstreamView readDownstreamView(const DerivationInput& input, std::int64_t firstDataNs);

// Loss episodes from the holes (metrics.h: runs of losses, a new one more than a mean
// RTT after the start of the last), and those that began while the ACK-to-data round
// trip said the queue was less than half full.
struct HoleEpisodes
{
    std::uint64_t episodes = 0, offQueue = 0;
    double meanRttMs = 0;
};
HoleEpisodes holeEpisodes(const DownstreamView& view);

// The congestion-control model to run for a downstream capture, where the cwnd
// inference's fits nearly tie: their costs weigh the sends beyond the model's window
// double, and downstream a send's time is the arrival less an estimated one-way delay,
// while the holes hide the lost sends: that count is the less reliable part there. Of
// the fits within kNearTie of the best cost, the one whose window matches the flight
// best at the ends of its bursts (the smallest mean gap) is taken. Empty when the
// inference's choice stands (no near tie, a model forced by the user, a rate-based
// sender); note says what was chosen and why.
inline constexpr double kNearTie = 0.10;
std::string modelByWindowAmongNearTies(const cwnd::CwndInference& inference, std::string& note);

// A station that left this capture's AP for another one and came back (bridged APs of
// one network): while it was away the sender's data, still forwarded here, passes the
// right edge of every window the receiver offered here (its ACKs reached the sender by
// the other AP), and the radio here has no one to deliver it to. The absence is two
// handoff outages with the other AP's service between them, dated on the receiver's
// clock as the sender echoed it (TSecr): the first ACK it echoed that this capture
// never saw is when the station was back on the other AP, the last one it echoed
// before the station reappeared here is when it left that AP. A station that never
// came back is one handoff, to when it was back on the other AP.
struct StationAbsence
{
    std::int64_t leftNs = 0;          // last ACK from the receiver seen here
    std::int64_t backElsewhereNs = 0; // its first ACK by the other AP
    std::int64_t leftElsewhereNs = 0; // its last ACK by the other AP (returned only)
    std::int64_t returnedNs = 0;      // its first ACK seen here again; the capture's end if not
    bool returned = true;
    // Data that reached the station on its return had been sent more than half the
    // second outage before it arrived, and not resent: the path held the downlink.
    bool held = false;
};
std::vector<StationAbsence> stationAbsences(const DerivationInput& input,
                                            const DownstreamView& view);

// Whether the path held the downlink through an outage the capture saw (fromNs to toNs,
// capture clock) downstream of it: new data arriving within an upstream round trip of
// its end had been sent, on the sender's TSval clock, more than half the outage before
// it arrived beyond the path's least delay (a base station's hold, as stationAbsences()
// reads it); data the sender sent again after the outage arrive on time.
bool heldThrough(const DerivationInput& input, const DownstreamView& view, std::int64_t fromNs, std::int64_t toNs);

// What each of the sender's data segments waited on the path beyond its least delay:
// its capture time less its send time on the sender's TSval clock (RFC 7323: the clock
// when sent), less the least such difference. Empty without timestamps or downstream.
struct DataWait
{
    std::int64_t timeNs = 0; // capture time
    double waitMs = 0;
    bool firstSeen = false;  // new data, not a resend
};
struct SenderDataWaits
{
    std::vector<DataWait> waits;
    double tickMs = 0; // the sender's TSval tick: what a wait is known to
};
SenderDataWaits senderDataWaits(const DerivationInput& input, const DownstreamView& view);

// The sender's retransmission timeouts as a capture downstream shows them, for the RTO
// rule (derive_scenario.cpp): a resend of the sender's head (the highest cumulative ACK
// that had reached it) at least the minimum RTO (within 5 %, the error of the clock read
// here) after the timer's last restart (that ACK's arrival at the sender, or the head's
// previous transmission), not itself after a timeout of the same segment. The times are
// the sender's own, from the TSvals its data carry (the clock's rate and offset read
// from the arrivals, as stationAbsences() does); an ACK reaches the sender one upstream
// base round trip after it passes here, on that clock (the ACK path has no queue). The
// SRTT is RFC 6298's over the round trips measured here (the receiver's ACK to the data
// it released, plus the turnaround).
struct DownstreamTimeout
{
    std::int64_t arrivalNs = 0; // the resend's capture time
    std::int64_t segment = 0;   // its index of MSS-sized segments from the first data byte
    double timerMs = 0;         // how long the timer ran (one RTO), on the sender's clock
    double srttMs = 0;
    int backoffs = 1; // timeouts of its chain the silence before it spanned (resends unseen)
};
std::vector<DownstreamTimeout> downstreamTimeouts(const DerivationInput& in,
                                                  const DownstreamView& view, double minRtoMs);

// Segments lost first time alone downstream (as SackReadings::loneLosses at the sender,
// sack_readings.h): a hole of one segment with no other hole within kLoneSpan segments,
// where the queue the arrivals just before it had met (the least RTT rise of the last
// three round trips measured before it) was under half the fullest any hole met or the
// RTT showed (fullQueueMs). A drop-tail queue drops when full, and overflowing in slow
// start it leaves holes of one in three segments.
struct LoneHole
{
    std::int64_t segment = 0; // index of MSS-sized segments from the first data byte
    double queueBeforeMs = 0;
    std::int64_t afterNs = 0; // the arrival before the hole
};
std::vector<LoneHole> loneHoles(const DownstreamView& view, double fullQueueMs);

} // namespace windscope::analysis::replay
