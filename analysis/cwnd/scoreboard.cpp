// SPDX-License-Identifier: GPL-3.0-or-later
#include "scoreboard.h"

#include <algorithm>
#include <limits>

namespace windscope::analysis::cwnd {

void Scoreboard::reset(std::int64_t sndUna)
{
    m_sndUna = sndUna;
    m_lostPoint = sndUna;
    m_sacked.clear();
    m_retransmitted.clear();
}

std::uint64_t Scoreboard::addRange(std::vector<Range>& set, std::int64_t start, std::int64_t end)
{
    if (end <= start)
        return 0;
    const std::uint64_t before = overlap(set, start, end);
    auto it = std::lower_bound(set.begin(), set.end(), start,
                               [](const Range& r, std::int64_t s) { return r.end < s; });
    std::int64_t s = start, e = end;
    auto first = it;
    while (it != set.end() && it->start <= e) {
        s = std::min(s, it->start);
        e = std::max(e, it->end);
        ++it;
    }
    it = set.erase(first, it);
    set.insert(it, Range{s, e});
    return static_cast<std::uint64_t>(end - start) - before;
}

std::uint64_t Scoreboard::overlap(const std::vector<Range>& set, std::int64_t start, std::int64_t end)
{
    std::uint64_t total = 0;
    for (const Range& r : set) {
        if (r.start >= end)
            break;
        const std::int64_t s = std::max(r.start, start), e = std::min(r.end, end);
        if (e > s)
            total += static_cast<std::uint64_t>(e - s);
    }
    return total;
}

void Scoreboard::trim(std::vector<Range>& set, std::int64_t below)
{
    std::size_t keep = 0;
    for (const Range& r : set) {
        if (r.end <= below)
            continue;
        set[keep++] = Range{std::max(r.start, below), r.end};
    }
    set.resize(keep);
}

std::uint64_t Scoreboard::advance(std::int64_t ack)
{
    if (ack <= m_sndUna)
        return 0;
    const std::uint64_t sacked = overlap(m_sacked, m_sndUna, ack);
    const std::uint64_t newly = static_cast<std::uint64_t>(ack - m_sndUna) - sacked;
    m_sndUna = ack;
    trim(m_sacked, ack);
    trim(m_retransmitted, ack);
    m_lostPoint = std::max(m_lostPoint, ack);
    return newly;
}

std::uint64_t Scoreboard::sack(std::int64_t start, std::int64_t end, std::int64_t sndNxt, bool& dsack)
{
    if (end <= m_sndUna || overlap(m_sacked, start, end) == static_cast<std::uint64_t>(std::max<std::int64_t>(0, end - start))) {
        dsack = true;
        return 0;
    }
    start = std::max(start, m_sndUna);
    end = std::min(end, sndNxt);
    if (end <= start)
        return 0;
    const std::uint64_t added = addRange(m_sacked, start, end);
    // A SACKed re-send is no longer in flight.
    std::vector<Range> kept;
    for (const Range& r : m_retransmitted) {
        if (overlap(m_sacked, r.start, r.end) < static_cast<std::uint64_t>(r.end - r.start))
            kept.push_back(r);
    }
    m_retransmitted.swap(kept);
    return added;
}

void Scoreboard::retransmitted(std::int64_t start, std::int64_t end)
{
    start = std::max(start, m_sndUna);
    if (end > start)
        addRange(m_retransmitted, start, end);
}

void Scoreboard::markAllLost(std::int64_t point)
{
    m_lostPoint = std::max(point, m_sndUna);
    m_retransmitted.clear();
}

bool Scoreboard::wasRetransmitted(std::int64_t start, std::int64_t end) const
{
    return overlap(m_retransmitted, start, end) > 0;
}

std::uint64_t Scoreboard::sackedBytes() const
{
    return overlap(m_sacked, m_sndUna, std::numeric_limits<std::int64_t>::max());
}

std::uint64_t Scoreboard::pipe(std::int64_t sndNxt) const
{
    if (sndNxt <= m_sndUna)
        return 0;
    const std::uint64_t outstanding = static_cast<std::uint64_t>(sndNxt - m_sndUna);
    const std::uint64_t sacked = overlap(m_sacked, m_sndUna, sndNxt);
    // Lost: the holes below the highest SACKed byte, and after an RTO everything below
    // the recovery point that is not SACKed.
    std::int64_t lostEdge = m_lostPoint;
    if (!m_sacked.empty())
        lostEdge = std::max(lostEdge, m_sacked.back().end);
    lostEdge = std::min(lostEdge, sndNxt);
    std::uint64_t lost = 0;
    if (lostEdge > m_sndUna)
        lost = static_cast<std::uint64_t>(lostEdge - m_sndUna) - overlap(m_sacked, m_sndUna, lostEdge);
    const std::uint64_t resent = overlap(m_retransmitted, m_sndUna, sndNxt);
    const std::uint64_t notInFlight = sacked + lost;
    const std::uint64_t base = outstanding > notInFlight ? outstanding - notInFlight : 0;
    return base + resent;
}

} // namespace windscope::analysis::cwnd
