// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "capture_tables.h"

#include "conversation_index.h"
#include "frame_record.h"
#include "mac_duplicate_filter.h"
#include "relay_filter.h"
#include "sequence_gap_counter.h"

#include <array>

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
    // A frame packed by packFrameRecord, its conversation numbered by the caller's
    // index; the caller moves that index into the tables.
    void add(const FrameRecord& record, const FrameRecordSide& side);
    void finish();
    // From now on TCP rows and their side options go to sink, not to the tables.
    void sendTcpRowsTo(TcpRowSink* sink) { m_tcpRows = sink; }

private:
    void noteLinkType(int linkType, bool known);
    // Returns the WlanColumns status bits.
    std::uint8_t addWlan(const FrameRecord& record, const ManagementInfo* management, std::int64_t timeNs);
    void addTcp(const FrameRecord& record, const TcpSideOptions* options, std::int64_t timeNs, bool macDuplicate);

    // The same few address sets repeat frame after frame: a direct-mapped cache of the
    // raw addresses skips interning three MACs and the set on most frames.
    struct RecentAddresses
    {
        bool valid = false;
        std::array<std::uint8_t, 18> raw{}; // addresses 1-3, 0 beyond the frame's count
        std::uint8_t count = 0;
        std::uint32_t set = 0;              // id in WlanColumns::addressSets
    };
    static constexpr std::size_t kRecentSlots = 256;
    std::uint32_t addressSetOf(const FrameRecord& record);

    CaptureTables& m_tables;
    std::array<RecentAddresses, kRecentSlots> m_recentAddresses{};
    void countSequence(const FrameRecord& record, std::uint32_t transmitter, std::uint32_t receiver);
    void addWarnings();

    MacDuplicateFilter m_duplicates;
    SequenceGapCounter m_sequenceGaps;
    RelayFilter m_relays;
    ConversationIndex m_conversations; // used by add(frame, known) only
    bool m_numbersConversations = false;
    TcpRowSink* m_tcpRows = nullptr;
    std::uint32_t m_sideOptions = 0; // side options added so far
    int m_lastLinkType = -1;
};

} // namespace windscope::dissect
