// SPDX-License-Identifier: GPL-3.0-or-later
#include "metrics.h"

#include "analysis/cwnd/cwnd_inference.h"
#include "trace_tables.h"

#include <cmath>
#include <cstdio>

namespace windscope::analysis::replay {

Metrics metricsOf(const TcpAnalysis& analysis, std::size_t connection, int sender)
{
    Metrics m;
    if (connection >= analysis.connections.size())
        return m;
    const Connection& c = analysis.connections[connection];
    const DirectionStats& d = c.direction[sender];
    m.goodputBps = d.goodputBps;
    m.completionS = static_cast<double>(c.lastTimeNs - c.firstTimeNs) / 1e9;
    m.retransmissions = d.retransmissions;
    m.rtoTimeouts = d.rtoTimeouts;
    m.bytes = d.uniqueBytes;
    m.outOfOrder = d.outOfOrder;
    m.dataPackets = d.dataPackets;
    return m;
}

Metrics metricsOf(const SimResult& run)
{
    const dissect::CaptureTables tables = traceToTables(run);
    const TcpAnalysis analysis = analyzeTcp(tables);
    if (analysis.connections.empty())
        return {};
    return metricsOf(analysis, 0, cwnd::dataSenderOf(analysis.connections[0]));
}

CalibrationError calibrationError(const Metrics& capture, const Metrics& baseline, double threshold)
{
    CalibrationError e;
    auto rel = [](double sim, double cap) { return cap > 0 ? std::fabs(sim - cap) / cap : (sim > 0 ? 1.0 : 0.0); };
    auto relCount = [](std::uint64_t sim, std::uint64_t cap) {
        return std::fabs(static_cast<double>(sim) - static_cast<double>(cap)) / std::max(1.0, static_cast<double>(cap));
    };
    e.goodput = rel(baseline.goodputBps, capture.goodputBps);
    e.completion = rel(baseline.completionS, capture.completionS);
    e.retransmissions = relCount(baseline.retransmissions, capture.retransmissions);
    e.rtoTimeouts = relCount(baseline.rtoTimeouts, capture.rtoTimeouts);
    e.threshold = threshold;
    e.exceeded = e.goodput > threshold;
    if (e.exceeded) {
        char buf[200];
        std::snprintf(buf, sizeof buf,
                      "baseline goodput is %.1f%% off the capture (threshold %.0f%%): the fix results are "
                      "indicative only",
                      e.goodput * 100, threshold * 100);
        e.warning = buf;
    }
    return e;
}

} // namespace windscope::analysis::replay
