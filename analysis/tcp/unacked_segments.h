// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The per-direction list of segments sent but not yet acknowledged, with the exact
// semantics of Wireshark 4.0's tcp_unacked_t list (packet-tcp.c,
// tcp_analyze_sequence_number): entries are added for every segment that carries data,
// SYN or FIN (at most TCP_MAX_UNACKED_SEGMENTS of them), every later packet of the
// other direction prunes them with its acknowledgment number in 32-bit modular
// arithmetic, and bytes in flight is the span of what remains.
//
// Wireshark walks the whole linked list for every packet. This class keeps a
// vector-backed queue and, while the entries are in sequence order and the numbers
// involved lie on an arc shorter than 2^31 (so that modular comparisons agree with
// that order), prunes and measures from the ends in amortised O(1); otherwise it
// falls back to the full walk, which gives the same answer.

#include <cstddef>
#include <cstdint>
#include <vector>

namespace windscope::analysis::detail {

// RFC 9293 3.4 sequence comparisons, as Wireshark's GT_SEQ/LT_SEQ/GE_SEQ/LE_SEQ.
constexpr bool seqGt(std::uint32_t x, std::uint32_t y)
{
    return static_cast<std::int32_t>(y - x) < 0;
}
constexpr bool seqLt(std::uint32_t x, std::uint32_t y)
{
    return static_cast<std::int32_t>(x - y) < 0;
}
constexpr bool seqGe(std::uint32_t x, std::uint32_t y)
{
    return static_cast<std::int32_t>(y - x) <= 0;
}
constexpr bool seqLe(std::uint32_t x, std::uint32_t y)
{
    return static_cast<std::int32_t>(x - y) <= 0;
}

class UnackedSegments
{
public:
    // packet-tcp.h TCP_MAX_UNACKED_SEGMENTS.
    static constexpr std::size_t kMaxSegments = 10000;

    std::size_t size() const { return m_entries.size() - m_head; }
    bool empty() const { return size() == 0; }
    bool full() const { return size() >= kMaxSegments; }

    void add(std::uint32_t seq, std::uint32_t nextSeq);
    // Removes what ack covers and trims partially covered entries (the pruning loop
    // at the end of tcp_analyze_sequence_number).
    void acknowledge(std::uint32_t ack);
    // Wireshark's payload-based bytes in flight: the largest (nextseq - base) minus the
    // smallest (seq - base), compared as unsigned 32-bit values. False when empty.
    bool relativeSpan(std::uint32_t base, std::uint32_t& first, std::uint32_t& last) const;
    void clear();

private:
    struct Entry
    {
        std::uint32_t seq;
        std::uint32_t nextSeq;
    };
    // The fast paths need ordered entries spanning well under 2^31.
    static constexpr std::uint32_t kMaxOrderedSpan = 1u << 30;

    const Entry& front() const { return m_entries[m_head]; }
    const Entry& back() const { return m_entries.back(); }
    void popFront();
    bool insertOrdered(std::uint32_t seq, std::uint32_t nextSeq);
    void acknowledgeByScan(std::uint32_t ack);
    void recomputeOrdered();

    std::vector<Entry> m_entries;
    std::size_t m_head = 0; // entries before m_head are dead (popped)
    bool m_ordered = true;  // seq and nextSeq both non-decreasing, span < kMaxOrderedSpan
};

} // namespace windscope::analysis::detail
