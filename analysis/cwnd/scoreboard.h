// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The sender's view of its outstanding data, rebuilt from SACK blocks (RFC 2018) and
// the retransmissions seen: what is SACKed, what is deemed lost, what was re-sent and
// is still in flight, and from that RFC 6675's pipe (Linux tcp_packets_in_flight():
// packets_out - sacked_out - lost_out + retrans_out).
//
// Loss marking is RFC 6675's IsLost() reduced to "a hole below the highest SACKed
// byte", which is also what RACK (RFC 8985) concludes once the reordering window has
// passed; after an RTO everything un-SACKed below the recovery point is lost (Linux
// tcp_timeout_mark_lost()).

#include "analysis/sender/sender_state.h"

#include <cstdint>
#include <vector>

namespace windscope::analysis::cwnd {

class Scoreboard
{
public:
    struct Range
    {
        std::int64_t start, end;
    };

    void reset(std::int64_t sndUna);
    // Cumulative ACK: returns the bytes newly acknowledged that were not SACKed before.
    std::uint64_t advance(std::int64_t ack);
    // A SACK block; returns the bytes newly SACKed. A block at or below SND.UNA, or
    // inside what is already SACKed, is a D-SACK (RFC 2883) and sets dsack.
    std::uint64_t sack(std::int64_t start, std::int64_t end, std::int64_t sndNxt, bool& dsack);
    void retransmitted(std::int64_t start, std::int64_t end);
    // RTO: everything un-SACKed below point is lost, earlier re-sends are forgotten.
    void markAllLost(std::int64_t point);
    // Bytes of a re-sent range covered by [start, end) (for D-SACK undo accounting).
    bool wasRetransmitted(std::int64_t start, std::int64_t end) const;
    // Whether a re-sent byte in [start, end) is not SACKed (ns-3's
    // TcpTxBuffer::IsRetransmittedDataAcked(), read before the cumulative ACK over it).
    bool resentUnsacked(std::int64_t start, std::int64_t end) const;

    std::uint64_t pipe(std::int64_t sndNxt) const;
    // The same count with RFC 6675's IsLost() as ns-3's TcpTxBuffer applies it: a hole
    // is lost only once more than (DupThresh - 1) * SMSS bytes above it are SACKed, so
    // the holes just below the highest SACKed bytes are still in flight. headLost: the
    // first segment counts as lost whatever lies above it (ns-3's EnterRecovery() marks
    // the head lost before it takes the flight for ssthresh).
    std::uint64_t pipeRfc6675(std::int64_t sndNxt, std::uint32_t smss, bool headLost = false) const;
    // ns-3's BytesInFlight(): the RFC 6675 count, and a re-sent segment stays in flight
    // until it is acknowledged cumulatively, SACKed or not (TcpTxBuffer::Update() marks
    // it SACKed but keeps its retransmission mark, which only removal from the sent
    // list or a timeout clears).
    std::uint64_t pipeNs3(std::int64_t sndNxt, std::uint32_t smss, bool headLost = false) const;
    std::uint64_t sackedBytes() const;
    bool anySacked() const { return !m_sacked.ranges.empty(); }
    std::int64_t sndUna() const { return m_sndUna; }

private:
    // A set of ranges kept disjoint, sorted and apart (touching ranges are merged), all
    // at or above SND.UNA, with their total length kept so that pipe() is a few
    // subtractions on every ACK and send rather than a walk over the ranges.
    struct RangeSet
    {
        std::vector<Range> ranges;
        std::uint64_t bytes = 0;

        // Returns the bytes of [start, end) not in the set before.
        std::uint64_t add(std::int64_t start, std::int64_t end);
        std::uint64_t overlap(std::int64_t start, std::int64_t end) const;
        // Whether one range holds all of [start, end) (end > start).
        bool covers(std::int64_t start, std::int64_t end) const;
        // Drops what lies below `below`; returns the bytes dropped.
        std::uint64_t trim(std::int64_t below);
        void clear()
        {
            ranges.clear();
            bytes = 0;
        }
        std::int64_t highestEnd() const { return ranges.empty() ? 0 : ranges.back().end; }
    };

    std::int64_t m_sndUna = 0;
    std::int64_t m_lostPoint = 0;      // after an RTO: all below is lost unless SACKed
    RangeSet m_sacked;
    RangeSet m_retransmitted;
    RangeSet m_resentThenSacked; // re-sends SACKed since (ns-3 counts them in flight)
};

} // namespace windscope::analysis::cwnd
