// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A packet in the simulator. The transfer is a bulk stream cut into MSS-sized
// segments, so sequence space is counted in segment indices (segment i carries bytes
// [i * mss, (i + 1) * mss)); the trace converts them back to TCP sequence numbers.

#include <array>
#include <cstdint>

namespace windscope::analysis::replay {

struct SackBlock
{
    std::int64_t start = 0, end = 0; // segment indices, [start, end)
};

struct Packet
{
    enum class Kind : std::uint8_t { Data, Ack, Probe };
    Kind kind = Kind::Data;
    std::int64_t segment = 0;        // Data: its index
    std::uint32_t length = 0;        // payload bytes
    std::int64_t ackSegment = 0;     // Ack: next segment expected (cumulative)
    std::uint64_t windowBytes = 0;   // Ack: advertised receive window
    std::array<SackBlock, 3> sack{}; // Ack: RFC 2018 blocks, most recent first
    std::uint8_t sackCount = 0;
    bool retransmission = false;
    bool injected = false;           // Ack made by a fix at the AP / base station
    std::int64_t sentNs = 0;         // Data: when the sender sent it (TSval)
    std::int64_t echoNs = -1;        // Ack: TSecr, the TSval it echoes
    std::uint64_t id = 0;            // unique per packet, for tracing
};

} // namespace windscope::analysis::replay
