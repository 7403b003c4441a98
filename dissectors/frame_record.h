// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What the tables keep of one decoded frame, packed. Ingest decodes on one thread and
// builds the tables on another; a Frame spans seven cache lines and every line that
// crosses between cores is a miss on both sides, so only this record does: 96 bytes.
// The rare parts (handshake options and SACK blocks, management bodies, the first
// error) travel beside it, in frame order, flagged in the record.

#include "capture_tables.h"
#include "conversation_index.h"
#include "frame.h"

#include <array>
#include <cstdint>

namespace windscope::dissect {

struct FrameRecord
{
    // presence bits
    static constexpr std::uint16_t kLinkTypeKnown = 1u << 0;
    static constexpr std::uint16_t kWlan = 1u << 1;        // the 802.11 fields below are set
    static constexpr std::uint16_t kBadFcs = 1u << 2;      // the radio header flagged a bad FCS
    static constexpr std::uint16_t kWlanSequence = 1u << 3; // the frame has a sequence control field
    static constexpr std::uint16_t kManagement = 1u << 4;  // a ManagementInfo travels beside it
    static constexpr std::uint16_t kMalformed = 1u << 5;   // its first error annotation travels beside it
    static constexpr std::uint16_t kTcp = 1u << 6;         // the TCP fields below are set
    static constexpr std::uint16_t kIpFragment = 1u << 7;  // the TCP header came in an IP fragment
    static constexpr std::uint16_t kTcpOptions = 1u << 8;  // a TcpSideOptions travels beside it
    // The record repeats an earlier one of the same file (same time, same bytes) after
    // the capture's time stepped back: a capture that holds itself twice. Counted; its
    // 802.11 row is kept, its TCP segment is not analysed again.
    static constexpr std::uint16_t kRepeat = 1u << 9;

    std::uint64_t number = 0;
    std::int64_t epochNs = 0;
    std::uint32_t capturedLength = 0;
    std::int32_t linkType = 0;
    std::uint16_t presence = 0;

    // 802.11 (kWlan), in WlanColumns' conventions
    std::uint16_t frameControl = 0;
    std::uint16_t sequenceControl = 0xffff; // seq << 4 | frag
    std::uint16_t duration = 0;
    std::uint8_t addressCount : 3 = 0;      // of addresses 1-3
    std::uint8_t queue : 5 = 0;             // the TID of a QoS frame, 16 otherwise
    std::int8_t signalDbm = 0;
    std::uint8_t radioFlags = 0;
    std::uint8_t mcs = 0;
    std::uint8_t undecoded = 0;             // Undecoded, in a byte the packed fields above leave free
    std::uint8_t ipTtl = 0;                  // ip.ttl / ipv6.hlim of a TCP frame
    std::uint16_t channelFreqMhz = 0;
    std::uint32_t dataRateKbps = 0;
    std::uint32_t ampduReference = 0;        // +1; 0 = not in an A-MPDU
    std::array<std::uint8_t, 18> addresses{}; // 1-3, zero beyond addressCount
    std::uint16_t ipId = 0;                  // ip.id of a TCP frame (in what was padding)

    // TCP (kTcp); conversation only when ConversationIndex::numbers(frame)
    std::uint32_t conversation = 0;
    std::uint32_t seq = 0, ack = 0;
    std::uint32_t tsVal = 0, tsEcr = 0;
    std::uint32_t payloadLength = 0;
    std::uint16_t window = 0;
    std::uint16_t tcpFlags = 0; // as TcpColumns::flags: with the direction and timestamp bits

    bool has(std::uint16_t bit) const { return presence & bit; }
    bool retry() const { return frameControl & 0x0800; }
    MacAddress address(unsigned index) const
    {
        MacAddress m;
        for (unsigned i = 0; i < 6; ++i)
            m.bytes[i] = addresses[index * 6 + i];
        return m;
    }
};

static_assert(sizeof(FrameRecord) == 96, "a FrameRecord crosses between cores: keep it to 96 bytes");

// The parts of a frame that few frames carry, beside its record.
struct FrameRecordSide
{
    const TcpSideOptions* options = nullptr;     // when kTcpOptions
    const ManagementInfo* management = nullptr;  // when kManagement
    const Annotation* firstError = nullptr;      // when kMalformed
};

// Fills record from a decoded frame (conversation: as ConversationIndex::of numbered
// it, when ConversationIndex::numbers(frame)). Returns the presence bits; options is
// filled when kTcpOptions is among them, firstError when kMalformed is.
void packFrameRecord(const Frame& frame, bool linkTypeKnown, ConversationIndex::Entry conversation,
                     FrameRecord& record, TcpSideOptions& options, const Annotation*& firstError);

} // namespace windscope::dissect
