// SPDX-License-Identifier: GPL-3.0-or-later
#include "metrics.h"

#include "analysis/cwnd/cwnd_inference.h"
#include "analysis/replay/sim/trace_tables.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <span>
#include <cstdio>

namespace windscope::analysis::replay {

Metrics metricsOf(const dissect::CaptureTables& tables, const TcpAnalysis& analysis, std::size_t connection,
                  int sender)
{
    Metrics m;
    if (connection >= analysis.connections.size())
        return m;
    const Connection& c = analysis.connections[connection];
    const DirectionStats& d = c.direction[sender];
    // The transfer's rate: every byte up to the highest sequence reached the receiver,
    // also those this capture point never saw (a monitor's misses, frames an AP dropped
    // for a station gone to another AP), as every byte does in a simulated run.
    const std::int64_t activeNs = d.lastDataTimeNs - d.firstDataTimeNs;
    m.goodputBps = d.dataPackets >= 2 && activeNs > 0
                       ? static_cast<double>(d.uniqueBytes) * 8 / (static_cast<double>(activeNs) / 1e9)
                       : d.goodputBps;
    m.completionS = static_cast<double>(c.lastTimeNs - c.firstTimeNs) / 1e9;
    m.retransmissions = d.retransmissions;
    m.rtoTimeouts = d.rtoTimeouts;
    m.bytes = d.uniqueBytes;
    m.outOfOrder = d.outOfOrder;
    m.resentSegments = d.retransmissions + d.outOfOrder;
    const auto& t = tables.tcp;
    // RTT samples of the sender's data by the time of their ACK.
    std::vector<std::pair<std::int64_t, std::int64_t>> rtt;
    for (const RttSample& r : analysis.rtt)
        if (analysis.segments.connection[r.dataRow()] == connection && t.payloadLength[r.dataRow()] > 0 &&
            analysis.directionOf(tables, r.dataRow()) == sender)
            rtt.emplace_back(t.timeNs[r.ackRow()], r.rttNs(t));
    LossEpisodeCounter episodes(std::move(rtt), static_cast<std::int64_t>(std::max(1.0, d.rttAvgMs) * 1e6));
    for (const std::int64_t ns : senderResendTimesNs(tables, analysis, connection, sender))
        episodes.loss(ns);
    m.lossEpisodes = episodes.episodes();
    m.lossEpisodesOffQueue = episodes.offQueue();
    m.dataPackets = d.dataPackets;
    return m;
}

std::vector<std::int64_t> senderResendTimesNs(const dissect::CaptureTables& tables,
                                              const TcpAnalysis& analysis, std::size_t connection,
                                              int sender)
{
    const auto& t = tables.tcp;
    std::vector<std::int64_t> out;
    for (std::size_t row = 0; row < t.size(); ++row)
        if (analysis.segments.connection[row] == connection && t.payloadLength[row] > 0 &&
            (analysis.segments.flags[row] &
             (segment_flag::kRetransmission | segment_flag::kOutOfOrder)) &&
            analysis.directionOf(tables, row) == sender)
            out.push_back(t.timeNs[row]);
    return out;
}

Metrics metricsOf(const SimResult& run)
{
    const dissect::CaptureTables tables = traceToTables(run);
    const TcpAnalysis analysis = analyzeTcp(tables);
    if (analysis.connections.empty())
        return {};
    return metricsOf(tables, analysis, 0, cwnd::dataSenderOf(analysis.connections[0]));
}

void countLossesAtReceiver(const SimResult& run, Metrics& m)
{
    // Over the span the run is read over, as metricsOf() reads it.
    const std::span<const TraceRecord> trace(run.trace.data(), recordsInSpan(run));
    std::vector<std::uint64_t> dropped;
    for (const DropRecord& d : run.drops)
        if (d.data)
            dropped.push_back(d.packet.id);
    std::sort(dropped.begin(), dropped.end());
    // The sender's round trips by the time of their ACK (the ACK's echo of the data's
    // send time), for the episode length and the queue at each episode's start.
    std::vector<std::pair<std::int64_t, std::int64_t>> rtt;
    double sum = 0;
    for (const TraceRecord& r : trace)
        if (!r.fromSender && r.packet.kind == Packet::Kind::Ack && r.packet.echoNs >= 0 &&
            r.timeNs > r.packet.echoNs) {
            rtt.emplace_back(r.timeNs, r.timeNs - r.packet.echoNs);
            sum += static_cast<double>(r.timeNs - r.packet.echoNs);
        }
    const auto episodeNs = static_cast<std::int64_t>(
        std::max(1e6, rtt.empty() ? 0.0 : sum / static_cast<double>(rtt.size())));
    LossEpisodeCounter episodes(std::move(rtt), episodeNs);
    // The path keeps the order of what it delivers: the receiver sees the sender's data
    // less the drops, and a segment past the highest one delivered reveals a hole.
    std::int64_t highestEnd = -1;
    for (const TraceRecord& r : trace) {
        if (!r.fromSender || r.packet.kind != Packet::Kind::Data || r.packet.length == 0 ||
            std::binary_search(dropped.begin(), dropped.end(), r.packet.id))
            continue;
        const std::int64_t segment = r.packet.segment;
        if (highestEnd >= 0 && segment > highestEnd)
            episodes.loss(r.timeNs);
        highestEnd = std::max(highestEnd, segment + 1);
    }
    m.lossEpisodes = episodes.episodes();
    m.lossEpisodesOffQueue = episodes.offQueue();
}

LossEpisodeCounter::LossEpisodeCounter(std::vector<std::pair<std::int64_t, std::int64_t>> rttByTimeNs,
                                       std::int64_t episodeNs)
    : m_rtt(std::move(rttByTimeNs)), m_halfQueueNs(std::numeric_limits<std::int64_t>::max()), m_episodeNs(episodeNs)
{
    std::sort(m_rtt.begin(), m_rtt.end());
    if (m_rtt.empty())
        return;
    std::vector<std::int64_t> values;
    values.reserve(m_rtt.size());
    for (const auto& r : m_rtt)
        values.push_back(r.second);
    std::sort(values.begin(), values.end());
    const std::int64_t p95 = values[(values.size() - 1) * 95 / 100];
    m_halfQueueNs = values.front() + std::max<std::int64_t>((p95 - values.front()) / 2, 1'000'000);
}

void LossEpisodeCounter::loss(std::int64_t timeNs, std::int64_t queueRttNs)
{
    if (m_episodes > 0 && timeNs - m_episodeStart <= m_episodeNs)
        return;
    ++m_episodes;
    m_episodeStart = timeNs;
    m_starts.push_back(timeNs);
    const auto it = std::upper_bound(m_rtt.begin(), m_rtt.end(),
                                     std::make_pair(timeNs, std::numeric_limits<std::int64_t>::max()));
    const std::int64_t rttNs = std::max(it == m_rtt.begin() ? std::int64_t{-1} : std::prev(it)->second, queueRttNs);
    if (rttNs < 0 || rttNs <= m_halfQueueNs)
        ++m_offQueue;
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
    e.retransmissions = relCount(baseline.resentSegments, capture.resentSegments);
    e.rtoTimeouts = relCount(baseline.rtoTimeouts, capture.rtoTimeouts);
    e.threshold = threshold;
    e.capturedGoodputBps = capture.goodputBps;
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
