// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "capture_tables.h"

#include <array>
#include <unordered_map>

namespace windscope::dissect {

// TCP conversations (address/port 4-tuples, both directions) numbered by first
// appearance, with the IP addresses they name. Ingest runs it on its reading thread,
// ahead of the table thread, and hands the result to the tables at the end.
class ConversationIndex
{
public:
    struct Entry
    {
        std::uint32_t conversation = 0; // index into CaptureTables::conversations
        bool srcIsA = false;            // the segment is sent by endpoint a
    };

    // Whether the frame's TCP segment is numbered: not from an 802.11 frame with a bad
    // FCS (its header cannot be trusted), not an IP fragment (not reassembled).
    static bool numbers(const Frame& frame);
    Entry of(const IpInfo& ip, const TcpInfo& tcp);
    // Moves the conversations and the IP addresses into tables (emptying this index).
    void moveInto(CaptureTables& tables);

private:
    // Consecutive segments mostly belong to a few flows: a direct-mapped cache of recent
    // (src, dst, ports) tuples skips interning and the conversation hash.
    struct Recent
    {
        bool valid = false;
        std::uint16_t srcPort = 0, dstPort = 0;
        Entry entry;
        IpAddress src, dst;
    };
    static constexpr std::size_t kRecentSlots = 256; // a power of two
    static std::size_t recentSlot(const IpInfo& ip, const TcpInfo& tcp);
    std::array<Recent, kRecentSlots> m_recent{};
    std::unordered_map<ConversationKey, std::uint32_t, ConversationHash> m_index;
    std::vector<ConversationKey> m_conversations;
    Dictionary<IpAddress, IpHash> m_addresses;
};

} // namespace windscope::dissect
