// SPDX-License-Identifier: GPL-3.0-or-later
#include "wlan_correlation.h"

#include "analysis/cwnd/cwnd_inference.h"
#include "analysis/tcp/rtt_tracker.h"

#include <algorithm>
#include <limits>

namespace windscope::analysis {

namespace {

namespace sf = segment_flag;

// One connection's rows and its delivered-data curve (cumulative ACK over time).
struct Series
{
    int dataDirection = 0;
    std::int64_t rttNs = 100'000'000;
    std::vector<std::uint64_t> rows;
    std::vector<std::int64_t> ackTimeNs;
    std::vector<std::int64_t> ackedBytes;
    // The highest sequence sent (relative, end of payload) over time, never decreasing,
    // and the largest payload: what was outstanding when the ACK clock stopped.
    std::vector<std::int64_t> sentTimeNs;
    std::vector<std::int64_t> sentEnd;
    std::int64_t mss = 0;
    std::int64_t lastRowNs = 0;
    // The data's RTT samples (time of the acknowledging row, RTT), in time order.
    std::vector<std::pair<std::int64_t, std::int64_t>> rttSamples;

    std::int64_t ackedAt(std::int64_t t) const
    {
        auto it = std::upper_bound(ackTimeNs.begin(), ackTimeNs.end(), t);
        if (it == ackTimeNs.begin())
            return ackedBytes.empty() ? 0 : ackedBytes.front();
        return ackedBytes[static_cast<std::size_t>(it - ackTimeNs.begin() - 1)];
    }
    double throughputBps(std::int64_t a, std::int64_t b) const
    {
        if (b <= a)
            return 0;
        return static_cast<double>(ackedAt(b) - ackedAt(a)) * 8e9 / static_cast<double>(b - a);
    }
    // When the highest sequence sent first reached seq; max when it never did.
    std::int64_t sentReachedNs(std::int64_t seq) const
    {
        auto it = std::lower_bound(sentEnd.begin(), sentEnd.end(), seq);
        return it == sentEnd.end() ? std::numeric_limits<std::int64_t>::max()
                                   : sentTimeNs[static_cast<std::size_t>(it - sentEnd.begin())];
    }
    std::int64_t firstAckNs() const { return ackTimeNs.empty() ? 0 : ackTimeNs.front(); }
    std::int64_t lastAckNs() const { return ackTimeNs.empty() ? 0 : ackTimeNs.back(); }
};

std::vector<Series> buildSeries(const dissect::CaptureTables& tables, const TcpAnalysis& tcp)
{
    std::vector<Series> series(tcp.connections.size());
    for (std::size_t c = 0; c < tcp.connections.size(); ++c) {
        const Connection& conn = tcp.connections[c];
        Series& s = series[c];
        s.dataDirection = conn.direction[1].dataBytes > conn.direction[0].dataBytes ? 1 : 0;
        const DirectionStats& d = conn.direction[s.dataDirection];
        if (d.rttSamples)
            s.rttNs = static_cast<std::int64_t>(d.rttAvgMs * 1e6);
        else if (conn.handshakeRttNs > 0)
            s.rttNs = conn.handshakeRttNs;
    }
    const dissect::TcpColumns& rows = tables.tcp;
    for (std::size_t r = 0; r < rows.size(); ++r) {
        Series& s = series[tcp.segments.connection[r]];
        s.rows.push_back(r);
        s.lastRowNs = rows.timeNs[r];
        if (tcp.directionOf(tables, r) == s.dataDirection) {
            if (const std::int64_t length = rows.payloadLength[r]; length > 0) {
                const std::int64_t end = tcp.relativeSeq(rows, r) + length;
                s.mss = std::max(s.mss, length);
                if (s.sentEnd.empty() || end > s.sentEnd.back()) {
                    s.sentTimeNs.push_back(rows.timeNs[r]);
                    s.sentEnd.push_back(end);
                }
            }
            continue;
        }
        if (!(rows.tcpFlags(r) & 0x10))
            continue;
        const std::int64_t ack = tcp.relativeAck(tables.tcp, r);
        const std::int64_t highest = s.ackedBytes.empty() ? ack : std::max(s.ackedBytes.back(), ack);
        s.ackTimeNs.push_back(rows.timeNs[r]);
        s.ackedBytes.push_back(highest);
    }
    for (const RttSample sample : tcp.rtt) {
        Series& s = series[tcp.segments.connection[sample.ackRow()]];
        if (tcp.directionOf(tables, sample.dataRow()) == s.dataDirection)
            s.rttSamples.emplace_back(rows.timeNs[sample.ackRow()], sample.rttNs(rows));
    }
    return series;
}

ConnectionImpact measure(const dissect::CaptureTables& tables, const TcpAnalysis& tcp,
                         const Series& s, std::uint32_t connection, const WlanEvent& e,
                         const CorrelationOptions& o)
{
    ConnectionImpact m;
    m.connection = connection;
    m.dataDirection = s.dataDirection;
    const std::int64_t pre = o.preNs >= 0 ? o.preNs : s.rttNs;
    m.windowStartNs = e.startNs - pre;
    m.windowEndNs = e.endNs + o.postNs;
    const std::int64_t baseline = std::max(pre, o.minBaselineNs);
    const std::int64_t afterEnd = std::min(m.windowEndNs, std::max(s.lastAckNs(), e.endNs));
    m.throughputBeforeBps = s.throughputBps(e.startNs - baseline, e.startNs);
    m.throughputDuringBps = s.throughputBps(e.startNs, e.endNs);
    m.throughputAfterBps = s.throughputBps(e.endNs, afterEnd);

    const dissect::TcpColumns& rows = tables.tcp;
    auto first = std::lower_bound(s.rows.begin(), s.rows.end(), m.windowStartNs,
                                  [&](std::uint64_t r, std::int64_t t) { return rows.timeNs[r] < t; });
    std::uint32_t run = 0;
    for (auto it = first; it != s.rows.end() && rows.timeNs[*it] <= m.windowEndNs; ++it) {
        const std::uint32_t flags = tcp.segments.flags[*it];
        if (tcp.directionOf(tables, *it) == s.dataDirection) {
            m.retransmissions += (flags & sf::kRetransmission) != 0;
            m.fastRetransmissions += (flags & sf::kFastRetransmission) != 0;
            m.rtoTimeouts += (flags & sf::kRtoTimeout) != 0;
            continue;
        }
        if (flags & sf::kDuplicateAck) {
            ++m.dupAcks;
            if (++run == 3)
                ++m.dupAckBursts;
        } else {
            run = 0;
        }
        m.zeroWindows += (flags & sf::kZeroWindow) != 0;
        m.lowWindows += (flags & sf::kLowWindow) != 0;
    }

    if (m.nothingToRecover())
        return m; // nothing was flowing: no recovery time (not 0, which reads as instant)
    const std::int64_t slide = std::max(s.rttNs, o.minBaselineNs / 2);
    const double target = o.recoveryFraction * m.throughputBeforeBps;
    auto ack = std::lower_bound(s.ackTimeNs.begin(), s.ackTimeNs.end(), e.endNs);
    for (; ack != s.ackTimeNs.end() && *ack <= m.windowEndNs; ++ack)
        if (s.throughputBps(*ack - slide, *ack) >= target) {
            m.recoveryNs = *ack - e.endNs;
            break;
        }
    return m;
}

struct Slot
{
    const WlanEvent* event;
    ConnectionImpact* impact;
};

// The slot a moment is charged to among those eligible: an event in force at t
// (absences and moves before lifecycle events, then the latest started), else the one
// that ended last before t, else the next to start.
template <typename Eligible>
const Slot* chargedSlot(const std::vector<Slot>& slots, std::int64_t t, Eligible eligible)
{
    const auto rank = [](const WlanEvent& e) { return isLifecycleKind(e.kind) ? 1 : 0; };
    const Slot* best = nullptr;
    int bestClass = 3; // 0 in force, 1 after, 2 before
    for (const Slot& slot : slots) {
        if (!eligible(slot))
            continue;
        const WlanEvent& e = *slot.event;
        const int cls = t < e.startNs ? 2 : t <= e.endNs ? 0 : 1;
        bool better = cls < bestClass;
        if (best && cls == bestClass) {
            const WlanEvent& b = *best->event;
            if (cls == 0)
                better = rank(e) < rank(b) || (rank(e) == rank(b) && e.startNs > b.startNs);
            else if (cls == 1)
                better = e.endNs > b.endNs;
            else
                better = e.startNs < b.startNs;
        }
        if (better) {
            best = &slot;
            bestClass = cls;
        }
    }
    return best;
}

struct Gap
{
    std::int64_t startNs, endNs;
};

// Where the connection's ACK clock stood still: from the moment two full segments
// were outstanding after an ACK advance to the next advance (or the connection's last
// packet), when that is longer than SRTT + 4 RTTVAR at the time (RFC 6298's
// retransmission timeout without its floor: the sender's own bound on a late ACK; a
// slow start after a timeout, one ACK per RTT, stays within it).
std::vector<Gap> ackClockStalls(const Series& s)
{
    std::vector<Gap> stalls;
    if (s.ackTimeNs.empty() || s.mss == 0)
        return stalls;
    // RFC 6298 section 2 estimators fed with the data's samples so far; before the
    // first, (2.2) on the connection's mean RTT: SRTT + 4 * RTT/2.
    detail::RtoEstimator estimator;
    std::size_t nextSample = 0;
    const auto lateAfter = [&](std::int64_t t) {
        for (; nextSample < s.rttSamples.size() && s.rttSamples[nextSample].first <= t; ++nextSample)
            estimator.addSample(s.rttSamples[nextSample].second);
        return estimator.hasSample() ? estimator.timeoutThresholdNs(0, 0) : 3 * s.rttNs;
    };
    std::int64_t advancedNs = s.ackTimeNs.front(), acked = s.ackedBytes.front();
    for (std::size_t i = 1; i <= s.ackTimeNs.size(); ++i) {
        const bool last = i == s.ackTimeNs.size();
        if (!last && s.ackedBytes[i] <= acked)
            continue;
        const std::int64_t next = last ? s.lastRowNs : s.ackTimeNs[i];
        const std::int64_t from = std::max(advancedNs, s.sentReachedNs(acked + 2 * s.mss));
        if (from < next && next - from > lateAfter(from))
            stalls.push_back({from, next});
        if (!last) {
            advancedNs = s.ackTimeNs[i];
            acked = s.ackedBytes[i];
        }
    }
    return stalls;
}

// The goodput each event cost a connection, against the connection's own rate outside
// every event's span of effect (the event and its recovery). Spans of one connection's
// events are cut where the next one starts, so no byte is counted twice.
void chargeGoodputLost(const Series& s, std::vector<Slot>& slots, const CorrelationOptions& o)
{
    if (s.ackTimeNs.empty())
        return;
    const std::int64_t first = s.firstAckNs(), last = s.lastAckNs();
    for (Slot& slot : slots) {
        ConnectionImpact& m = *slot.impact;
        const WlanEvent& e = *slot.event;
        const std::int64_t end = m.recoveryNs >= 0 ? e.endNs + m.recoveryNs : std::min(m.windowEndNs, last);
        m.costEndNs = std::max(e.startNs, end);
    }
    std::sort(slots.begin(), slots.end(),
              [](const Slot& a, const Slot& b) { return a.event->startNs < b.event->startNs; });
    std::int64_t coveredNs = 0, coveredBytes = 0, reach = first;
    for (const Slot& slot : slots) {
        const std::int64_t from = std::max(reach, std::max(first, slot.event->startNs));
        const std::int64_t to = std::min(last, slot.impact->costEndNs);
        if (to > from) {
            coveredNs += to - from;
            coveredBytes += s.ackedAt(to) - s.ackedAt(from);
        }
        reach = std::max(reach, to);
    }
    const std::int64_t freeNs = (last - first) - coveredNs;
    double reference = -1;
    if (freeNs >= o.minScanFreeNs)
        reference = static_cast<double>(s.ackedAt(last) - s.ackedAt(first) - coveredBytes) * 8e9 /
                    static_cast<double>(freeNs);
    for (std::size_t i = 0; i < slots.size(); ++i) {
        ConnectionImpact& m = *slots[i].impact;
        const std::int64_t from = slots[i].event->startNs;
        if (i + 1 < slots.size())
            m.costEndNs = std::min(m.costEndNs, std::max(from, slots[i + 1].event->startNs));
        m.referenceGoodputBps = reference;
        if (reference < 0)
            continue;
        if (m.nothingToRecover()) { // nothing flowed before: no loss to measure
            m.goodputLostBytes = 0;
            continue;
        }
        const double expected = reference / 8e9 * static_cast<double>(m.costEndNs - from);
        const double delivered = static_cast<double>(s.ackedAt(m.costEndNs) - s.ackedAt(from));
        m.goodputLostBytes = static_cast<std::int64_t>(std::max(0.0, expected - delivered));
    }
}

// Charges each retransmission, timeout and ACK-clock stall of every connection to one
// event (see correlateEvents in the header), and the goodput each event cost; records
// which events' windows overlap.
void attribute(const dissect::CaptureTables& tables, const TcpAnalysis& tcp, const WlanEvents& events,
               const std::vector<Series>& series, std::vector<EventImpact>& impacts,
               const CorrelationOptions& options)
{
    std::vector<std::vector<Slot>> byConnection(series.size());
    for (std::size_t i = 0; i < impacts.size(); ++i)
        for (ConnectionImpact& m : impacts[i].connections) {
            m.retransmissionsInWindow = m.retransmissions;
            m.fastRetransmissionsInWindow = m.fastRetransmissions;
            m.rtoTimeoutsInWindow = m.rtoTimeouts;
            m.retransmissions = m.fastRetransmissions = m.rtoTimeouts = 0;
            byConnection[m.connection].push_back({&events.at(i), &m});
        }
    for (std::size_t c = 0; c < byConnection.size(); ++c) {
        std::vector<Slot>& slots = byConnection[c];
        if (slots.empty())
            continue;
        for (Slot& a : slots)
            for (const Slot& b : slots)
                if (a.impact != b.impact && a.impact->windowStartNs <= b.impact->windowEndNs &&
                    b.impact->windowStartNs <= a.impact->windowEndNs)
                    a.impact->overlappingEvents.push_back(b.event->id);
        const Series& s = series[c];
        for (std::uint64_t r : s.rows) {
            const std::uint32_t flags = tcp.segments.flags[r];
            if (!(flags & (sf::kRetransmission | sf::kRtoTimeout)) || tcp.directionOf(tables, r) != s.dataDirection)
                continue;
            const std::int64_t t = tables.tcp.timeNs[r];
            const Slot* best = chargedSlot(slots, t, [&](const Slot& slot) {
                return t >= slot.impact->windowStartNs && t <= slot.impact->windowEndNs;
            });
            if (!best)
                continue;
            best->impact->retransmissions += (flags & sf::kRetransmission) != 0;
            best->impact->fastRetransmissions += (flags & sf::kFastRetransmission) != 0;
            best->impact->rtoTimeouts += (flags & sf::kRtoTimeout) != 0;
        }
        // A stall is charged like a retransmission sent when the missed ACK was due, one
        // RTT into the stall: an event starting later did not cause it.
        for (const Gap& g : ackClockStalls(s)) {
            const std::int64_t due = g.startNs + s.rttNs;
            if (const Slot* best = chargedSlot(slots, due, [&](const Slot& slot) {
                    return due >= slot.impact->windowStartNs && due <= slot.impact->windowEndNs;
                }))
            {
                ConnectionImpact& m = *best->impact;
                m.stalledNs += g.endNs - g.startNs;
                m.stallStartNs = m.stallStartNs < 0 ? g.startNs : std::min(m.stallStartNs, g.startNs);
                m.stallEndNs = std::max(m.stallEndNs, g.endNs);
            }
        }
        chargeGoodputLost(s, slots, options);
    }
}

std::vector<KindAggregate> aggregateKinds(const WlanEvents& events,
                                          const std::vector<EventImpact>& impacts)
{
    std::vector<KindAggregate> kinds;
    for (std::size_t kindIndex = 0; kindIndex < kWlanEventKinds; ++kindIndex) {
        const auto kind = static_cast<WlanEventKind>(kindIndex);
        KindAggregate k;
        k.kind = kind;
        double duration = 0, pct = 0, recovery = 0;
        std::uint64_t pctCount = 0, recovered = 0;
        for (std::size_t i = 0; i < events.size(); ++i) {
            const WlanEvent& e = events.at(i);
            if (e.kind != kind)
                continue;
            ++k.events;
            duration += static_cast<double>(e.endNs - e.startNs) / 1e6;
            if (!impacts[i].connections.empty())
                ++k.eventsWithConnections;
            for (const ConnectionImpact& m : impacts[i].connections) {
                k.retransmissions += m.retransmissions;
                k.rtoTimeouts += m.rtoTimeouts;
                k.dupAckBursts += m.dupAckBursts;
                k.zeroWindows += m.zeroWindows;
                k.stalledNs += m.stalledNs;
                if (m.goodputLostBytes >= 0)
                    k.goodputLostBytes += m.goodputLostBytes;
                else
                    ++k.lostUnknown;
                if (m.throughputBeforeBps > 0) {
                    pct += 100.0 * m.throughputDuringBps / m.throughputBeforeBps;
                    ++pctCount;
                }
                if (m.recoveryNs >= 0) {
                    recovery += static_cast<double>(m.recoveryNs) / 1e6;
                    ++recovered;
                } else if (!m.nothingToRecover()) {
                    ++k.notRecovered; // nothing to recover is neither recovered nor not
                }
            }
        }
        if (!k.events)
            continue;
        k.meanDurationMs = duration / static_cast<double>(k.events);
        k.meanThroughputDuringPct = pctCount ? pct / static_cast<double>(pctCount) : 0;
        k.meanRecoveryMs = recovered ? recovery / static_cast<double>(recovered) : 0;
        kinds.push_back(k);
    }
    return kinds;
}

void addCwnd(const dissect::CaptureTables& tables, const cwnd::CwndInference& inference,
             const WlanEvent& e, ConnectionImpact& impact)
{
    if (inference.notFollowed != cwnd::NotFollowedReason::None) {
        impact.cwndNotFollowed = cwnd::notFollowedReasonName(inference.notFollowed);
        return;
    }
    impact.cwndModel = cwnd::modelLabel(inference);
    const auto& series = inference.series;
    const auto timeOf = [&](const cwnd::CwndSample& s) { return tables.tcp.timeNs[s.row]; };
    const auto firstAtOrAfter = [&](std::int64_t t) {
        return std::partition_point(series.begin(), series.end(),
                                    [&](const cwnd::CwndSample& s) { return timeOf(s) < t; });
    };
    const auto effective = [](const cwnd::CwndSample& s) { return static_cast<std::int64_t>(s.effectiveWindowBytes()); };
    const auto start = firstAtOrAfter(e.startNs);
    if (start != series.begin()) {
        impact.cwndBeforeBytes = static_cast<std::int64_t>(std::prev(start)->cwndBytes);
        impact.windowBeforeBytes = effective(*std::prev(start));
    }
    const auto windowEnd = firstAtOrAfter(impact.windowEndNs + 1);
    for (auto it = start; it != windowEnd; ++it) {
        if (impact.cwndMinBytes < 0 || it->cwndBytes < static_cast<std::uint64_t>(impact.cwndMinBytes))
            impact.cwndMinBytes = static_cast<std::int64_t>(it->cwndBytes);
        if (impact.windowMinBytes < 0 || effective(*it) < impact.windowMinBytes)
            impact.windowMinBytes = effective(*it);
    }
    if (windowEnd != start) {
        const cwnd::CwndSample& last = *std::prev(windowEnd);
        impact.cwndAfterBytes = static_cast<std::int64_t>(last.cwndBytes);
        impact.windowAfterBytes = effective(last);
        if (last.ssthreshBytes != cwnd::kInfiniteSsthresh)
            impact.ssthreshAfterBytes = static_cast<std::int64_t>(last.ssthreshBytes);
    }
}

} // namespace

Correlation correlateEvents(const dissect::CaptureTables& tables, const TcpAnalysis& tcp,
                            const WlanInventory& inventory, const WlanEvents& events,
                            const cwnd::CwndSource& cwnd, const CorrelationOptions& options)
{
    Correlation result;
    const std::vector<Series> series = buildSeries(tables, tcp);
    // Connections per station, from the inventory's placement.
    std::vector<std::vector<std::uint32_t>> byStation(inventory.stations.size());
    for (const ConnectionPlacement& p : inventory.connections)
        if (p.station >= 0)
            byStation[static_cast<std::size_t>(p.station)].push_back(p.connection);

    std::size_t withoutConnections = 0;
    for (std::size_t id = 0; id < events.size(); ++id) {
        const WlanEvent& e = events.at(id);
        EventImpact impact;
        impact.event = e.id;
        std::vector<std::uint32_t> candidates;
        if (e.connection >= 0)
            candidates.push_back(static_cast<std::uint32_t>(e.connection));
        else if (const std::int32_t s = inventory.stationIndex(e.station); s >= 0)
            candidates = byStation[static_cast<std::size_t>(s)];
        for (std::uint32_t c : candidates) {
            const Connection& conn = tcp.connections[c];
            if (conn.lastTimeNs < e.startNs - series[c].rttNs || conn.firstTimeNs > e.endNs + options.postNs)
                continue;
            ConnectionImpact& m = impact.connections.emplace_back(measure(tables, tcp, series[c], c, e, options));
            if (options.cwnd)
                addCwnd(tables, cwnd.cwndOf(c), e, m);
        }
        if (impact.connections.empty())
            ++withoutConnections;
        result.impacts.push_back(std::move(impact));
    }
    if (withoutConnections)
        result.notes.push_back(std::to_string(withoutConnections) +
                               " event(s) with no TCP connection of their station in the window: "
                               "their effect on TCP could not be determined");
    attribute(tables, tcp, events, series, result.impacts, options);
    std::size_t shared = 0;
    for (const EventImpact& impact : result.impacts)
        for (const ConnectionImpact& m : impact.connections)
            shared += !m.overlappingEvents.empty();
    if (shared)
        result.notes.push_back(std::to_string(shared) +
                               " (event, connection) window(s) overlap another event's: each "
                               "retransmission and timeout is charged to the event in force when "
                               "it was sent (see overlapping_events, retransmissions_in_window)");
    result.kinds = aggregateKinds(events, result.impacts);

    for (const ScanPattern& p : events.scanPatterns) {
        ScanIntervalAggregate a;
        a.station = p.station;
        a.intervalMs = p.intervalMs;
        a.dwellMs = p.dwellMs;
        a.periodic = p.periodic;
        a.scans = p.scans;
        bool first = true;
        for (const WlanEvent& e : events.events)
            if (e.kind == WlanEventKind::Scan && e.station == p.station) {
                a.scanningStartNs = first ? e.startNs : std::min(a.scanningStartNs, e.startNs);
                a.scanningEndNs = first ? e.endNs : std::max(a.scanningEndNs, e.endNs);
                first = false;
            }
        const std::int32_t s = inventory.stationIndex(p.station);
        if (s < 0)
            continue;
        std::int64_t scanningBytes = 0, freeBytes = 0;
        std::int64_t stationStart = 0, stationEnd = 0;
        bool any = false;
        std::uint64_t losses = 0, timeouts = 0;
        for (std::uint32_t c : byStation[static_cast<std::size_t>(s)]) {
            const Series& x = series[c];
            if (x.ackTimeNs.empty())
                continue;
            stationStart = any ? std::min(stationStart, x.firstAckNs()) : x.firstAckNs();
            stationEnd = any ? std::max(stationEnd, x.lastAckNs()) : x.lastAckNs();
            any = true;
            scanningBytes += x.ackedAt(a.scanningEndNs) - x.ackedAt(a.scanningStartNs);
            freeBytes += (x.ackedAt(a.scanningStartNs) - x.ackedAt(x.firstAckNs())) +
                         (x.ackedAt(x.lastAckNs()) - x.ackedAt(a.scanningEndNs));
            for (std::uint64_t r : x.rows) {
                const std::int64_t t = tables.tcp.timeNs[r];
                if (t < a.scanningStartNs || t > a.scanningEndNs ||
                    tcp.directionOf(tables, r) != x.dataDirection)
                    continue;
                losses += (tcp.segments.flags[r] & sf::kRetransmission) != 0;
                timeouts += (tcp.segments.flags[r] & sf::kRtoTimeout) != 0;
            }
        }
        const std::int64_t scanning = std::max<std::int64_t>(
            0, std::min(stationEnd, a.scanningEndNs) - std::max(stationStart, a.scanningStartNs));
        const std::int64_t free = std::max<std::int64_t>(0, a.scanningStartNs - stationStart) +
                                  std::max<std::int64_t>(0, stationEnd - a.scanningEndNs);
        if (scanning > 0)
            a.throughputScanningBps = static_cast<double>(scanningBytes) * 8e9 / static_cast<double>(scanning);
        if (any && free >= options.minScanFreeNs) {
            a.throughputScanFreeBps = static_cast<double>(freeBytes) * 8e9 / static_cast<double>(free);
            if (a.throughputScanFreeBps > 0)
                a.throughputPct = 100.0 * a.throughputScanningBps / a.throughputScanFreeBps;
        } else {
            result.notes.push_back("station " + tables.macAddresses.at(p.station).toString() +
                                   ": its connections had less than " +
                                   std::to_string(options.minScanFreeNs / 1'000'000) +
                                   " ms of scan-free transfer; throughput as a share of scan-free "
                                   "periods could not be determined");
        }
        if (a.scans) {
            a.lossesPerScan = static_cast<double>(losses) / static_cast<double>(a.scans);
            a.timeoutsPerScan = static_cast<double>(timeouts) / static_cast<double>(a.scans);
        }
        result.scanIntervals.push_back(a);
    }
    return result;
}

} // namespace windscope::analysis
