// SPDX-License-Identifier: GPL-3.0-or-later
#include "unacked_segments.h"

#include <algorithm>

namespace windscope::analysis::detail {

void UnackedSegments::clear()
{
    m_entries.clear();
    m_head = 0;
    m_ordered = true;
}

void UnackedSegments::popFront()
{
    ++m_head;
    if (m_head == m_entries.size()) {
        m_entries.clear();
        m_head = 0;
    } else if (m_head >= 64 && m_head * 2 >= m_entries.size()) {
        // Compact once the dead prefix dominates, keeping pops amortised O(1).
        m_entries.erase(m_entries.begin(), m_entries.begin() + static_cast<std::ptrdiff_t>(m_head));
        m_head = 0;
    }
}

void UnackedSegments::add(std::uint32_t seq, std::uint32_t nextSeq)
{
    if (empty()) {
        clear();
        m_entries.push_back({seq, nextSeq});
        m_ordered = nextSeq - seq < kMaxOrderedSpan;
        return;
    }
    if (m_ordered) {
        const Entry& last = back();
        if (seqGe(seq, last.seq) && seqGe(nextSeq, last.nextSeq) &&
            nextSeq - front().seq < kMaxOrderedSpan) {
            m_entries.push_back({seq, nextSeq});
            return;
        }
        // Usually a retransmission: Wireshark's answers do not depend on the order of
        // the list, so keep it sorted if the segment has a place.
        if (insertOrdered(seq, nextSeq))
            return;
        m_ordered = false;
    }
    m_entries.push_back({seq, nextSeq});
}

bool UnackedSegments::insertOrdered(std::uint32_t seq, std::uint32_t nextSeq)
{
    // Offsets from 2^30 before the first entry: the entries lie in [2^30, 2^31), and a
    // segment whose ends are below 2^31 compares with them linearly.
    const std::uint32_t origin = front().seq - kMaxOrderedSpan;
    const auto offset = [origin](std::uint32_t x) { return x - origin; };
    const std::uint32_t s = offset(seq), n = offset(nextSeq);
    if (s >= n || n >= 2 * kMaxOrderedSpan)
        return false;
    if (std::max(n, offset(back().nextSeq)) - std::min(s, offset(front().seq)) >= kMaxOrderedSpan)
        return false;
    // Place it after every entry ending at or before its end; its start must then sit
    // between its neighbours' starts.
    const auto begin = m_entries.begin() + static_cast<std::ptrdiff_t>(m_head);
    const auto at =
        std::upper_bound(begin, m_entries.end(), n, [&](std::uint32_t value, const Entry& e) {
            return value < offset(e.nextSeq);
        });
    if (at != begin && offset((at - 1)->seq) > s)
        return false;
    if (at != m_entries.end() && s > offset(at->seq))
        return false;
    if (at == begin && m_head > 0)
        m_entries[--m_head] = {seq, nextSeq}; // reuse a popped slot
    else
        m_entries.insert(at, {seq, nextSeq});
    return true;
}

void UnackedSegments::acknowledge(std::uint32_t ack)
{
    if (empty())
        return;
    if (!m_ordered) {
        acknowledgeByScan(ack);
        return;
    }
    const std::uint32_t span = back().nextSeq - front().seq;
    const std::uint32_t offset = ack - front().seq;
    if (offset > span && offset >= 0x80000000u) {
        // ack lies before the first entry. If every entry is within 2^31 after it,
        // Wireshark keeps them all untouched; otherwise comparisons wrap unevenly and
        // only the full walk reproduces them.
        const std::uint32_t before = front().seq - ack;
        if (static_cast<std::uint64_t>(before) + span < 0x80000000u)
            return;
        acknowledgeByScan(ack);
        return;
    }
    // ack lies inside the ordered run or less than 2^31 after its start: every
    // comparison with ack agrees with the entries' order. Entries with nextseq <= ack
    // form a prefix and are deleted (exact match or "old"); of the rest, those starting
    // before ack are trimmed to start at ack (partially acknowledged).
    while (!empty() && seqLe(front().nextSeq, ack))
        popFront();
    for (std::size_t i = m_head; i < m_entries.size() && seqGt(ack, m_entries[i].seq); ++i)
        m_entries[i].seq = ack;
}

void UnackedSegments::acknowledgeByScan(std::uint32_t ack)
{
    // The rule of Wireshark's loop, entry by entry; the order of entries is irrelevant.
    std::size_t out = 0;
    for (std::size_t i = m_head; i < m_entries.size(); ++i) {
        Entry e = m_entries[i];
        bool keep;
        if (ack == e.nextSeq) {
            keep = false;
        } else if (seqGt(ack, e.seq) && seqLe(ack, e.nextSeq)) {
            e.seq = ack;
            keep = true;
        } else {
            keep = seqGt(e.nextSeq, ack);
        }
        if (keep)
            m_entries[out++] = e;
    }
    m_entries.resize(out);
    m_head = 0;
    recomputeOrdered();
}

void UnackedSegments::recomputeOrdered()
{
    m_ordered = true;
    if (empty())
        return;
    for (std::size_t i = m_head + 1; i < m_entries.size(); ++i) {
        if (!seqGe(m_entries[i].seq, m_entries[i - 1].seq) ||
            !seqGe(m_entries[i].nextSeq, m_entries[i - 1].nextSeq)) {
            m_ordered = false;
            return;
        }
    }
    m_ordered = back().nextSeq - front().seq < kMaxOrderedSpan;
}

bool UnackedSegments::relativeSpan(std::uint32_t base, std::uint32_t& first,
                                   std::uint32_t& last) const
{
    if (empty())
        return false;
    if (m_ordered) {
        first = front().seq - base;
        last = back().nextSeq - base;
        // Without a wrap of the relative numbers the ends are the extremes.
        if (first <= last)
            return true;
    }
    first = m_entries[m_head].seq - base;
    last = m_entries[m_head].nextSeq - base;
    for (std::size_t i = m_head + 1; i < m_entries.size(); ++i) {
        const std::uint32_t s = m_entries[i].seq - base;
        const std::uint32_t n = m_entries[i].nextSeq - base;
        if (n > last)
            last = n;
        if (s < first)
            first = s;
    }
    return true;
}

} // namespace windscope::analysis::detail
