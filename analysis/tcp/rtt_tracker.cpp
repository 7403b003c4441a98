// SPDX-License-Identifier: GPL-3.0-or-later
#include "rtt_tracker.h"

#include <algorithm>
#include <cmath>

namespace windscope::analysis::detail {

namespace {

template <typename T> void popQueueFront(std::vector<T>& queue, std::size_t& head)
{
    ++head;
    if (head == queue.size()) {
        queue.clear();
        head = 0;
    } else if (head >= 64 && head * 2 >= queue.size()) {
        queue.erase(queue.begin(), queue.begin() + static_cast<std::ptrdiff_t>(head));
        head = 0;
    }
}

} // namespace

void RtoEstimator::addSample(std::int64_t rttNs)
{
    const double r = static_cast<double>(rttNs);
    if (!m_hasSample) {
        // RFC 6298 (2.2): the first measurement.
        m_srtt = r;
        m_rttvar = r / 2;
        m_hasSample = true;
        return;
    }
    // RFC 6298 (2.3) with alpha = 1/8, beta = 1/4; RTTVAR first, from the old SRTT.
    m_rttvar = 0.75 * m_rttvar + 0.25 * std::fabs(m_srtt - r);
    m_srtt = 0.875 * m_srtt + 0.125 * r;
}

std::int64_t RtoEstimator::timeoutThresholdNs(std::int64_t floorNs, double srttFactor) const
{
    if (!m_hasSample)
        return floorNs;
    const double rto = std::max(srttFactor * m_srtt, m_srtt + 4 * m_rttvar);
    return std::max(floorNs, static_cast<std::int64_t>(rto));
}

void AckRttTracker::reset()
{
    *this = AckRttTracker{};
}

void AckRttTracker::popFront()
{
    popQueueFront(m_sent, m_head);
}

void AckRttTracker::onSegment(std::int64_t start, std::int64_t end, std::int64_t timeNs,
                              std::uint64_t row)
{
    if (end <= start)
        return;
    if (!m_anySent || start >= m_highestEnd) {
        if (m_sent.size() - m_head >= kMaxPending)
            popFront(); // the peer is not acknowledging (one-sided capture)
        m_sent.push_back({start, end, timeNs, row});
        m_highestEnd = end;
        m_anySent = true;
        return;
    }
    // Sequence space sent again: an ACK covering it cannot tell which copy arrived.
    if (!m_resent.empty() && start <= m_resent.back().end && end >= m_resent.back().start) {
        m_resent.back().start = std::min(m_resent.back().start, start);
        m_resent.back().end = std::max(m_resent.back().end, end);
    } else {
        if (m_resent.size() >= kMaxResent)
            m_resent.erase(m_resent.begin());
        m_resent.push_back({start, end});
    }
    m_highestEnd = std::max(m_highestEnd, end);
}

bool AckRttTracker::onNewAck(std::int64_t ack, std::int64_t timeNs, std::int64_t& rttNs,
                             std::uint64_t& dataRow)
{
    const bool first = !m_anyAck;
    const std::int64_t previous = m_highestAck;
    m_anyAck = true;
    m_highestAck = ack;
    // Does (previous, ack] cover re-sent sequence space? Forget what is now covered.
    bool coversResent = false;
    std::size_t kept = 0;
    for (const Range& r : m_resent) {
        if (r.start < ack && (first || r.end > previous))
            coversResent = true;
        if (r.end > ack)
            m_resent[kept++] = r;
    }
    m_resent.resize(kept);
    bool found = false;
    while (m_head < m_sent.size() && m_sent[m_head].end <= ack) {
        const Sent& s = m_sent[m_head];
        if (s.end == ack && !coversResent && timeNs >= s.timeNs) {
            rttNs = timeNs - s.timeNs;
            dataRow = s.row;
            found = true;
        }
        popFront();
    }
    return found;
}

void TimestampRttTracker::popFront()
{
    popQueueFront(m_sent, m_head);
}

void TimestampRttTracker::onNewValue(std::uint32_t tsVal, std::int64_t timeNs, std::uint64_t row)
{
    m_anySent = true;
    m_lastSent = tsVal;
    if (m_sent.size() - m_head >= kMaxPending)
        popFront();
    m_sent.push_back({tsVal, row, timeNs});
}

bool TimestampRttTracker::onNewEcho(std::uint32_t tsEcr, std::int64_t timeNs, std::int64_t& rttNs,
                                    std::uint64_t& dataRow)
{
    m_anyEcho = true;
    m_lastEcho = tsEcr;
    while (m_head < m_sent.size() && tsNewer(tsEcr, m_sent[m_head].tsVal))
        popFront();
    if (m_head == m_sent.size() || m_sent[m_head].tsVal != tsEcr || timeNs < m_sent[m_head].timeNs)
        return false;
    rttNs = timeNs - m_sent[m_head].timeNs;
    dataRow = m_sent[m_head].row;
    return true;
}

} // namespace windscope::analysis::detail
