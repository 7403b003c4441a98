// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "capture_tables.h"

#include <array>
#include "conversation_index.h"
#include "mac_duplicate_filter.h"

namespace windscope::dissect {

// Appends decoded frames to the columnar tables. This is where the MAC layer is
// reconciled with TCP: a frame with a bad FCS, or an 802.11 retry of a frame already
// heard, keeps its 802.11 row but never becomes a TCP segment.
// Takes the TCP rows instead of the tables (ingest appends them on another thread).
// options: the row's side options when row.sideOptions names them.
class TcpRowSink
{
public:
    virtual ~TcpRowSink() = default;
    virtual void add(const TcpRow& row, const TcpSideOptions* options) = 0;
};

class TableBuilder
{
public:
    explicit TableBuilder(CaptureTables& tables) : m_tables(tables) {}
    // Numbers the frame's TCP conversation itself.
    void add(const Frame& frame, bool linkTypeKnown);
    // With the conversation numbered by the caller's index (ConversationIndex::of when
    // ConversationIndex::numbers(frame)); the caller moves that index into the tables.
    void add(const Frame& frame, bool linkTypeKnown, ConversationIndex::Entry conversation);
    void finish();
    // From now on TCP rows and their side options go to sink, not to the tables.
    void sendTcpRowsTo(TcpRowSink* sink) { m_tcpRows = sink; }

private:
    void addFrame(const Frame& frame, bool linkTypeKnown, ConversationIndex::Entry conversation);
    void noteLinkType(int linkType, bool known);
    std::uint8_t addWlan(const Frame& frame, std::int64_t timeNs); // WlanColumns status bits
    void addTcp(const Frame& frame, std::int64_t timeNs, bool macDuplicate, ConversationIndex::Entry conversation);

    // The same few address sets repeat frame after frame: a direct-mapped cache of the
    // raw addresses skips interning three MACs and the set on most frames.
    struct RecentAddresses
    {
        bool valid = false;
        std::array<std::uint64_t, 3> raw{}; // 48-bit MACs, 0 beyond the frame's count
        std::uint8_t count = 0;
        std::uint32_t set = 0;              // id in WlanColumns::addressSets
    };
    static constexpr std::size_t kRecentSlots = 256;
    std::uint32_t addressSetOf(const WlanInfo& w);

    CaptureTables& m_tables;
    std::array<RecentAddresses, kRecentSlots> m_recentAddresses{};
    MacDuplicateFilter m_duplicates;
    ConversationIndex m_conversations; // used by add(frame, known) only
    bool m_numbersConversations = false;
    TcpRowSink* m_tcpRows = nullptr;
    std::uint32_t m_sideOptions = 0; // side options added so far
    int m_lastLinkType = -1;
};

} // namespace windscope::dissect
