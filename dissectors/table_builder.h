// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "capture_tables.h"

#include <array>
#include "mac_duplicate_filter.h"

namespace windscope::dissect {

// Appends decoded frames to the columnar tables. This is where the MAC layer is
// reconciled with TCP: a frame with a bad FCS, or an 802.11 retry of a frame already
// heard, keeps its 802.11 row but never becomes a TCP segment.
class TableBuilder
{
public:
    explicit TableBuilder(CaptureTables& tables) : m_tables(tables) {}
    void add(const Frame& frame, bool linkTypeKnown);
    void finish();

private:
    void noteLinkType(int linkType, bool known);
    std::uint8_t addWlan(const Frame& frame, std::int64_t timeNs); // WlanColumns status bits
    void addTcp(const Frame& frame, std::int64_t timeNs, bool macDuplicate);

    struct RecentConversation
    {
        bool valid = false;
        bool srcIsA = false;
        std::uint16_t srcPort = 0, dstPort = 0;
        std::uint32_t conversation = 0;
        IpAddress src, dst;
    };
    static constexpr std::size_t kRecentSlots = 256;
    const RecentConversation& conversationOf(const IpInfo& ip, const TcpInfo& tcp);

    // The same few address sets repeat frame after frame: a direct-mapped cache of the
    // raw addresses skips interning three MACs and the set on most frames.
    struct RecentAddresses
    {
        bool valid = false;
        std::array<std::uint64_t, 3> raw{}; // 48-bit MACs, 0 beyond the frame's count
        std::uint8_t count = 0;
        std::uint32_t set = 0;              // id in WlanColumns::addressSets
    };
    std::uint32_t addressSetOf(const WlanInfo& w);

    CaptureTables& m_tables;
    std::array<RecentConversation, kRecentSlots> m_recent{};
    std::array<RecentAddresses, kRecentSlots> m_recentAddresses{};
    MacDuplicateFilter m_duplicates;
    std::unordered_map<ConversationKey, std::uint32_t, ConversationHash> m_conversationIndex;
    int m_lastLinkType = -1;
};

} // namespace windscope::dissect
