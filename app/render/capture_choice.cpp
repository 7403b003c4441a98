// SPDX-License-Identifier: GPL-3.0-or-later
#include "capture_choice.h"

#include "analysis/report/report_json.h"
#include "analysis/wlan/impact_ranking.h"

#include <algorithm>

namespace windscope::render {

double impactScore(const analysis::ConnectionImpact& m)
{
    return analysis::impactScore(m);
}

Selection mostAffected(const AnalysisBundle& c)
{
    const analysis::ImpactSelection s = analysis::mostAffected(c.tcp, c.events, c.correlation);
    return {s.connection, s.event};
}

int worstEventOf(const AnalysisBundle& c, int connection)
{
    int best = -1;
    double bestScore = -1;
    for (std::size_t e = 0; e < c.correlation.impacts.size() && e < c.events.size(); ++e)
        for (const analysis::ConnectionImpact& m : c.correlation.impacts[e].connections) {
            if (static_cast<int>(m.connection) != connection)
                continue;
            const double score = analysis::impactScore(m);
            if (score > bestScore) {
                bestScore = score;
                best = static_cast<int>(e);
            }
        }
    return best;
}

int connectionForEvent(const AnalysisBundle& c, std::size_t event, int preferred)
{
    return analysis::connectionForEvent(c.events, c.correlation, event, preferred);
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
