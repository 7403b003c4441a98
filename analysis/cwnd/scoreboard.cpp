// SPDX-License-Identifier: GPL-3.0-or-later
#include "scoreboard.h"

#include <algorithm>
#include <limits>

namespace windscope::analysis::cwnd {

namespace {

// The first range that ends at or after start: the only candidates to touch [start, ...).
auto firstReaching(std::vector<Scoreboard::Range>& set, std::int64_t start)
{
    return std::lower_bound(set.begin(), set.end(), start,
                            [](const Scoreboard::Range& r, std::int64_t s) { return r.end < s; });
}

auto firstReaching(const std::vector<Scoreboard::Range>& set, std::int64_t start)
{
    return std::lower_bound(set.begin(), set.end(), start,
                            [](const Scoreboard::Range& r, std::int64_t s) { return r.end < s; });
}

} // namespace

std::uint64_t Scoreboard::RangeSet::add(std::int64_t start, std::int64_t end)
{
    if (end <= start)
        return 0;
    const std::uint64_t before = overlap(start, end);
    auto it = firstReaching(ranges, start);
    std::int64_t s = start, e = end;
    auto first = it;
    while (it != ranges.end() && it->start <= e) {
        s = std::min(s, it->start);
        e = std::max(e, it->end);
        ++it;
    }
    it = ranges.erase(first, it);
    ranges.insert(it, Range{s, e});
    const std::uint64_t added = static_cast<std::uint64_t>(end - start) - before;
    bytes += added;
    return added;
}

std::uint64_t Scoreboard::RangeSet::overlap(std::int64_t start, std::int64_t end) const
{
    std::uint64_t total = 0;
    for (auto it = firstReaching(ranges, start); it != ranges.end() && it->start < end; ++it) {
        const std::int64_t s = std::max(it->start, start), e = std::min(it->end, end);
        if (e > s)
            total += static_cast<std::uint64_t>(e - s);
    }
    return total;
}

bool Scoreboard::RangeSet::covers(std::int64_t start, std::int64_t end) const
{
    // Ranges never touch, so [start, end) lies in the set only if it lies in one range.
    const auto it = firstReaching(ranges, end);
    return it != ranges.end() && it->start <= start && it->end >= end;
}

std::uint64_t Scoreboard::RangeSet::trim(std::int64_t below)
{
    std::uint64_t dropped = 0;
    std::size_t keep = 0;
    for (const Range& r : ranges) {
        if (r.end <= below) {
            dropped += static_cast<std::uint64_t>(r.end - r.start);
            continue;
        }
        if (r.start < below)
            dropped += static_cast<std::uint64_t>(below - r.start);
        ranges[keep++] = Range{std::max(r.start, below), r.end};
    }
    ranges.resize(keep);
    bytes -= dropped;
    return dropped;
}

void Scoreboard::reset(std::int64_t sndUna)
{
    m_sndUna = sndUna;
    m_lostPoint = sndUna;
    m_sacked.clear();
    m_retransmitted.clear();
    m_resentThenSacked.clear();
}

std::uint64_t Scoreboard::advance(std::int64_t ack)
{
    if (ack <= m_sndUna)
        return 0;
    // Everything in the sets lies at or above SND.UNA: what is dropped below the new
    // SND.UNA is what was SACKed of the newly acknowledged range.
    const std::uint64_t sacked = m_sacked.trim(ack);
    const std::uint64_t newly = static_cast<std::uint64_t>(ack - m_sndUna) - sacked;
    m_sndUna = ack;
    m_retransmitted.trim(ack);
    m_resentThenSacked.trim(ack);
    m_lostPoint = std::max(m_lostPoint, ack);
    return newly;
}

std::uint64_t Scoreboard::sack(std::int64_t start, std::int64_t end, std::int64_t sndNxt, bool& dsack)
{
    if (end <= m_sndUna || end <= start || m_sacked.covers(start, end)) {
        dsack = true;
        return 0;
    }
    start = std::max(start, m_sndUna);
    end = std::min(end, sndNxt);
    if (end <= start)
        return 0;
    const std::uint64_t added = m_sacked.add(start, end);
    // A SACKed re-send is no longer in flight (but for ns-3's count).
    std::vector<Range>& resent = m_retransmitted.ranges;
    const auto gone = std::remove_if(resent.begin(), resent.end(), [&](const Range& r) {
        if (!m_sacked.covers(r.start, r.end))
            return false;
        m_retransmitted.bytes -= static_cast<std::uint64_t>(r.end - r.start);
        m_resentThenSacked.add(r.start, r.end);
        return true;
    });
    resent.erase(gone, resent.end());
    return added;
}

void Scoreboard::retransmitted(std::int64_t start, std::int64_t end)
{
    start = std::max(start, m_sndUna);
    if (end > start)
        m_retransmitted.add(start, end);
}

void Scoreboard::markAllLost(std::int64_t point)
{
    m_lostPoint = std::max(point, m_sndUna);
    m_retransmitted.clear();
    m_resentThenSacked.clear();
}

bool Scoreboard::wasRetransmitted(std::int64_t start, std::int64_t end) const
{
    return m_retransmitted.overlap(start, end) > 0;
}

bool Scoreboard::resentUnsacked(std::int64_t start, std::int64_t end) const
{
    for (const Range& r : m_retransmitted.ranges) {
        if (r.start >= end)
            break; // the ranges are sorted
        const std::int64_t a = std::max(start, r.start), b = std::min(end, r.end);
        if (a < b && m_sacked.overlap(a, b) < static_cast<std::uint64_t>(b - a))
            return true;
    }
    return false;
}

std::uint64_t Scoreboard::sackedBytes() const
{
    return m_sacked.bytes;
}

std::uint64_t Scoreboard::pipeRfc6675(std::int64_t sndNxt, std::uint32_t smss, bool headLost) const
{
    if (sndNxt <= m_sndUna)
        return 0;
    // The lowest SACKed byte with more than (DupThresh - 1) * SMSS SACKed bytes at or
    // above it: every hole below it is lost (RFC 6675 IsLost()).
    std::int64_t lostEdge = m_sndUna;
    std::uint64_t above = 0;
    for (auto it = m_sacked.ranges.rbegin(); it != m_sacked.ranges.rend(); ++it) {
        above += static_cast<std::uint64_t>(std::min(it->end, sndNxt) - std::min(it->start, sndNxt));
        if (above > (kDupThresh - 1) * smss) {
            lostEdge = it->start;
            break;
        }
    }
    if (headLost)
        lostEdge = std::max(lostEdge, m_sndUna + static_cast<std::int64_t>(smss));
    lostEdge = std::min(std::max(lostEdge, m_lostPoint), sndNxt);
    const std::uint64_t outstanding = static_cast<std::uint64_t>(sndNxt - m_sndUna);
    // As in pipe(): at the sender's own SND.NXT the sets' totals are their overlaps, and
    // the SACKed bytes below the lost edge are the total less the few ranges above it.
    const bool whole = sndNxt >= m_sacked.highestEnd() && sndNxt >= m_retransmitted.highestEnd();
    const std::uint64_t sacked = whole ? m_sacked.bytes : m_sacked.overlap(m_sndUna, sndNxt);
    std::uint64_t lost = 0;
    if (lostEdge > m_sndUna)
        lost = static_cast<std::uint64_t>(lostEdge - m_sndUna) -
               (whole ? m_sacked.bytes - m_sacked.overlap(lostEdge, sndNxt) : m_sacked.overlap(m_sndUna, lostEdge));
    const std::uint64_t resent = whole ? m_retransmitted.bytes : m_retransmitted.overlap(m_sndUna, sndNxt);
    const std::uint64_t notInFlight = sacked + lost;
    return (outstanding > notInFlight ? outstanding - notInFlight : 0) + resent;
}

std::uint64_t Scoreboard::pipe(std::int64_t sndNxt) const
{
    if (sndNxt <= m_sndUna)
        return 0;
    const std::uint64_t outstanding = static_cast<std::uint64_t>(sndNxt - m_sndUna);
    // Lost: the holes below the highest SACKed byte, and after an RTO everything below
    // the recovery point that is not SACKed.
    std::int64_t lostEdge = m_lostPoint;
    if (!m_sacked.ranges.empty())
        lostEdge = std::max(lostEdge, m_sacked.highestEnd());
    lostEdge = std::min(lostEdge, sndNxt);
    // Both sets lie within [SND.UNA, SND.NXT) whenever SND.NXT is at least their highest
    // end, as it is for the sender's own SND.NXT: then their totals are the overlaps.
    const bool whole = sndNxt >= m_sacked.highestEnd() && sndNxt >= m_retransmitted.highestEnd();
    const std::uint64_t sacked = whole ? m_sacked.bytes : m_sacked.overlap(m_sndUna, sndNxt);
    std::uint64_t lost = 0;
    if (lostEdge > m_sndUna)
        lost = static_cast<std::uint64_t>(lostEdge - m_sndUna) -
               (whole ? m_sacked.bytes : m_sacked.overlap(m_sndUna, lostEdge));
    const std::uint64_t resent = whole ? m_retransmitted.bytes : m_retransmitted.overlap(m_sndUna, sndNxt);
    const std::uint64_t notInFlight = sacked + lost;
    const std::uint64_t base = outstanding > notInFlight ? outstanding - notInFlight : 0;
    return base + resent;
}

std::uint64_t Scoreboard::pipeNs3(std::int64_t sndNxt, std::uint32_t smss, bool headLost) const
{
    const std::uint64_t resentThenSacked =
        sndNxt >= m_resentThenSacked.highestEnd() ? m_resentThenSacked.bytes : m_resentThenSacked.overlap(m_sndUna, sndNxt);
    return pipeRfc6675(sndNxt, smss, headLost) + resentThenSacked;
}

} // namespace windscope::analysis::cwnd
