// SPDX-License-Identifier: GPL-3.0-or-later
#include "capture_choice.h"

#include "analysis/report/report_json.h"

#include <algorithm>

namespace windscope::render {

double impactScore(const analysis::ConnectionImpact& m)
{
    const double lost =
        m.throughputBeforeBps > 0 ? std::max(0.0, 1.0 - m.throughputDuringBps / m.throughputBeforeBps) : 0.0;
    return m.retransmissions + 3.0 * m.rtoTimeouts + lost;
}

Selection mostAffected(const AnalysisBundle& c)
{
    Selection best;
    double bestScore = -1;
    for (const analysis::EventImpact& impact : c.correlation.impacts) {
        for (const analysis::ConnectionImpact& m : impact.connections) {
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
    for (std::size_t i = 0; i < c.tcp.connections.size(); ++i) {
        const analysis::Connection& k = c.tcp.connections[i];
        const std::uint64_t bytes = k.direction[0].dataBytes + k.direction[1].dataBytes;
        if (best.connection < 0 || bytes > most) {
            most = bytes;
            best.connection = static_cast<int>(i);
        }
    }
    if (!c.events.events.empty())
        best.event = 0;
    return best;
}

int worstEventOf(const AnalysisBundle& c, int connection)
{
    int best = -1;
    double bestScore = -1;
    for (std::size_t e = 0; e < c.correlation.impacts.size() && e < c.events.events.size(); ++e)
        for (const analysis::ConnectionImpact& m : c.correlation.impacts[e].connections) {
            if (static_cast<int>(m.connection) != connection)
                continue;
            const double score = impactScore(m);
            if (score > bestScore) {
                bestScore = score;
                best = static_cast<int>(e);
            }
        }
    return best;
}

int connectionForEvent(const AnalysisBundle& c, std::size_t event, int preferred)
{
    if (event >= c.events.events.size())
        return -1;
    const analysis::ConnectionImpact* worst = nullptr;
    if (event < c.correlation.impacts.size())
        for (const analysis::ConnectionImpact& m : c.correlation.impacts[event].connections) {
            if (preferred >= 0 && static_cast<int>(m.connection) == preferred)
                return preferred;
            if (!worst || m.retransmissions + m.rtoTimeouts > worst->retransmissions + worst->rtoTimeouts)
                worst = &m;
        }
    if (worst)
        return static_cast<int>(worst->connection);
    const analysis::WlanEvent& e = c.events.events[event];
    if (preferred >= 0 && e.connection == preferred)
        return preferred;
    return e.connection >= 0 ? e.connection : -1;
}

QString connectionText(const AnalysisBundle& c, std::size_t connection)
{
    const analysis::Connection& k = c.tcp.connections[connection];
    return QStringLiteral("%1 → %2")
        .arg(QString::fromStdString(analysis::endpointText(c.tables, k.address[0], k.port[0])),
             QString::fromStdString(analysis::endpointText(c.tables, k.address[1], k.port[1])));
}

QString macText(const AnalysisBundle& c, std::uint32_t mac)
{
    if (mac >= c.tables.macAddresses.size())
        return QStringLiteral("-");
    return QString::fromStdString(c.tables.macAddresses.at(mac).toString());
}

} // namespace windscope::render
