// SPDX-License-Identifier: GPL-3.0-or-later
#include "impact_ranking.h"

#include <algorithm>

namespace windscope::analysis {

double impactScore(const ConnectionImpact& m)
{
    const double lost =
        m.throughputBeforeBps > 0 ? std::max(0.0, 1.0 - m.throughputDuringBps / m.throughputBeforeBps) : 0.0;
    return m.retransmissions + 3.0 * m.rtoTimeouts + lost;
}

std::vector<EventTotals> eventTotals(const Correlation& correlation, std::size_t eventCount)
{
    std::vector<EventTotals> totals(eventCount);
    for (const EventImpact& impact : correlation.impacts) {
        if (impact.event >= totals.size())
            continue;
        EventTotals& t = totals[impact.event];
        for (const ConnectionImpact& m : impact.connections) {
            ++t.connections;
            t.retransmissions += m.retransmissions;
            t.rtoTimeouts += m.rtoTimeouts;
            t.throughputBeforeBps += m.throughputBeforeBps;
            t.throughputDuringBps += m.throughputDuringBps;
            t.recoveryNs = std::max(t.recoveryNs, m.recoveryNs);
        }
    }
    return totals;
}

ImpactSelection mostAffected(const TcpAnalysis& tcp, const WlanEvents& events, const Correlation& correlation)
{
    ImpactSelection best;
    double bestScore = -1;
    for (const EventImpact& impact : correlation.impacts) {
        for (const ConnectionImpact& m : impact.connections) {
            const double score = impactScore(m);
            if (score > bestScore) {
                bestScore = score;
                best.connection = static_cast<int>(m.connection);
                best.event = static_cast<int>(impact.event);
            }
        }
    }
    if (best.connection >= 0)
        return best;
    std::uint64_t most = 0;
    for (std::size_t i = 0; i < tcp.connections.size(); ++i) {
        const Connection& k = tcp.connections[i];
        const std::uint64_t bytes = k.direction[0].dataBytes + k.direction[1].dataBytes;
        if (best.connection < 0 || bytes > most) {
            most = bytes;
            best.connection = static_cast<int>(i);
        }
    }
    if (!events.events.empty())
        best.event = 0;
    return best;
}

int connectionForEvent(const WlanEvents& events, const Correlation& correlation, std::size_t event, int preferred)
{
    if (event >= events.events.size())
        return -1;
    const ConnectionImpact* worst = nullptr;
    if (event < correlation.impacts.size())
        for (const ConnectionImpact& m : correlation.impacts[event].connections) {
            if (preferred >= 0 && static_cast<int>(m.connection) == preferred)
                return preferred;
            if (!worst || m.retransmissions + m.rtoTimeouts > worst->retransmissions + worst->rtoTimeouts)
                worst = &m;
        }
    if (worst)
        return static_cast<int>(worst->connection);
    const WlanEvent& e = events.events[event];
    if (preferred >= 0 && e.connection == preferred)
        return preferred;
    return e.connection >= 0 ? e.connection : -1;
}

} // namespace windscope::analysis
