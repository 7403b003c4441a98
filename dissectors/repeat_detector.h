// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A capture that holds itself twice (a file merged or appended with itself, a ring
// buffer saved over its own start): its time steps back and the same packets come
// again, with the same timestamps and the same bytes (IP IDs and TCP sequence numbers
// repeating); so does one from two interfaces that hear the same frames. Analysed as
// they stand, such packets read as retransmissions, duplicate ACKs and outages that
// never happened. A record equal in time and bytes to an earlier
// one, once the file's time has gone back, is such a repeat: two transmissions of a
// packet never share a timestamp, and a MAC retry differs in its Retry bit.
//
// Fingerprints live in a fixed four-way set-associative table, so memory stays
// bounded on files of any size: a repeat whose original was pushed out of the table by
// later packets is missed (and analysed), never the other way round.

#include "capture_reader.h"

#include <cstdint>
#include <vector>

namespace windscope::dissect {

class RepeatDetector
{
public:
    // slots: fingerprints kept (rounded up to a power of two).
    explicit RepeatDetector(std::size_t slots);
    // Whether this packet repeats an earlier one; every packet is remembered.
    bool isRepeat(const RawPacket& packet);

private:
    static constexpr std::size_t kWays = 4;
    std::vector<std::uint64_t> m_table;
    std::uint64_t m_mask = 0;
    std::int64_t m_latestNs = 0;
    bool m_any = false;
    bool m_steppedBack = false;
};

} // namespace windscope::dissect
