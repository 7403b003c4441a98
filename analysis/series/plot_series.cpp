// SPDX-License-Identifier: GPL-3.0-or-later
#include "plot_series.h"

#include "analysis/report/report_json.h"
#include "analysis/wlan/wlan_frames.h"
#include "view_bins.h"

#include <algorithm>
#include <cmath>
#include <optional>

namespace windscope::analysis {

namespace {

constexpr std::uint16_t kTcpAck = 0x010;

double seconds(std::int64_t ns) { return static_cast<double>(ns) / 1e9; }

// The only place that reads the per-segment analysis columns (SegmentColumns), so a
// change of their storage touches this function alone.
struct SegmentView
{
    const dissect::TcpColumns& rows;
    const TcpAnalysis& tcp;
    std::uint32_t connection(std::size_t row) const { return tcp.segments.connection[row]; }
    std::uint32_t flags(std::size_t row) const { return tcp.segments.flags[row]; }
    std::int64_t relativeSeq(std::size_t row) const { return tcp.relativeSeq(rows, row); }
    std::int64_t relativeAck(std::size_t row) const { return tcp.relativeAck(rows, row); }
    std::uint32_t windowBytes(std::size_t row) const { return tcp.windowBytes(rows, row); }
    std::uint32_t bytesInFlight(std::size_t row) const { return tcp.segments.bytesInFlight[row]; }
};

void buildTimeSequence(const SeriesInputs& in, const SegmentView& view, std::size_t connection,
                       int sender, ConnectionSeries& out)
{
    const dissect::TcpColumns& rows = in.tables.tcp;
    TimeSequenceSeries& ts = out.timeSequence;
    WindowSeries& win = out.window;
    for (std::size_t row = 0; row < rows.size(); ++row) {
        if (view.connection(row) != connection)
            continue;
        out.rows.push_back(row);
        const double t = seconds(rows.timeNs[row]);
        const std::uint64_t frame = rows.frame[row];
        const std::uint32_t flags = view.flags(row);
        const bool fromSender = in.tcp.directionOf(in.tables, row) == sender;
        if (fromSender) {
            const std::uint32_t len = rows.payloadLength[row];
            if (len > 0) {
                const double lo = static_cast<double>(view.relativeSeq(row));
                const double hi = lo + len;
                ts.segments.push(t, lo, hi, frame);
                if (flags & segment_flag::kRetransmission)
                    ts.retransmissions.push(t, lo, hi, frame);
                if (flags & segment_flag::kRtoTimeout)
                    ts.rtoRetransmissions.push(t, lo, hi, frame);
            }
            if (flags & segment_flag::kZeroWindowProbe) {
                const double lo = static_cast<double>(view.relativeSeq(row));
                ts.zeroWindowProbes.push(t, lo, lo + std::max<std::uint32_t>(len, 1), frame);
            }
            if (const std::uint32_t bif = view.bytesInFlight(row))
                win.bytesInFlight.push(t, bif);
            continue;
        }
        if (!(rows.tcpFlags(row) & kTcpAck))
            continue;
        const std::int64_t ack = view.relativeAck(row);
        const std::uint32_t window = view.windowBytes(row);
        ts.ack.push(t, static_cast<double>(ack));
        ts.rwnd.push(t, static_cast<double>(ack) + window);
        win.rwnd.push(t, window);
        if (flags & segment_flag::kZeroWindow)
            ts.zeroWindows.push(t, static_cast<double>(ack));
        const std::uint32_t side = rows.sideOptionsIndex(row);
        if (side == dissect::TcpColumns::kNoSideOptions || side >= in.tables.tcpSideOptions.size())
            continue;
        const dissect::TcpSideOptions& o = in.tables.tcpSideOptions[side];
        // SACK edges are raw 32-bit sequence numbers (RFC 2018 section 3); their offset
        // from the segment's raw ACK places them in the unwrapped relative space.
        const std::size_t edges = std::min<std::size_t>(o.sackBlockCount * 2u, o.sackBlocks.size());
        for (std::size_t b = 0; b + 1 < edges; b += 2) {
            const auto left = static_cast<std::int32_t>(o.sackBlocks[b] - rows.ack[row]);
            const auto right = static_cast<std::int32_t>(o.sackBlocks[b + 1] - rows.ack[row]);
            ts.sackBlocks.push(t, static_cast<double>(ack + left), static_cast<double>(ack + right),
                               frame);
        }
    }
}

void buildRates(const ConnectionSeries& s, const SeriesOptions& options, RateSeries& rate)
{
    double bin = options.binSeconds;
    if (bin <= 0)
        bin = std::max(0.01, (s.endSeconds - s.startSeconds) / 200.0);
    rate = binRates(s, s.startSeconds, s.endSeconds, bin);
}

void buildRtt(const SeriesInputs& in, const SegmentView& view, std::size_t connection, int sender,
              RttSeries& rtt)
{
    for (const RttSample& r : in.tcp.rtt) {
        if (view.connection(r.dataRow()) != connection ||
            in.tcp.directionOf(in.tables, r.dataRow()) != sender)
            continue;
        const double t = seconds(in.tables.tcp.timeNs[r.ackRow()]);
        (r.fromTimestamps() ? rtt.timestamps : rtt.seqAck)
            .push(t, static_cast<double>(r.rttNs(in.tables.tcp)) / 1e6);
    }
}

void buildCwnd(const SeriesInputs& in, std::size_t connection, int sender, WindowSeries& win)
{
    if (!in.cwnd)
        return;
    const cwnd::CwndInference& inference = in.cwnd->cwndOfSender(connection, sender);
    if (inference.notFollowed != cwnd::NotFollowedReason::None) {
        win.cwndNotFollowed = cwnd::notFollowedReasonText(inference.notFollowed);
        return;
    }
    win.cwndModel = cwnd::modelLabel(inference);
    // The limit of each stretch from one data segment to the next: the phase the first
    // was sent in, as the inference replayed the sender.
    const auto limitOf = [](cwnd::SenderPhase phase) -> std::optional<WindowLimit> {
        switch (phase) {
        case cwnd::SenderPhase::SlowStart:
        case cwnd::SenderPhase::CongestionAvoidance:
        case cwnd::SenderPhase::FastRecovery:
        case cwnd::SenderPhase::Loss: return WindowLimit::CongestionWindow;
        case cwnd::SenderPhase::Persist:
        case cwnd::SenderPhase::RwndLimited: return WindowLimit::ReceiveWindow;
        case cwnd::SenderPhase::AppLimited: return WindowLimit::Application;
        case cwnd::SenderPhase::NotFollowed: break;
        }
        return std::nullopt;
    };
    for (std::size_t i = 0; i + 1 < inference.series.size(); ++i) {
        const auto limit = limitOf(inference.series[i].phase);
        if (!limit)
            continue;
        const double from = seconds(in.tables.tcp.timeNs[inference.series[i].row]);
        const double to = seconds(in.tables.tcp.timeNs[inference.series[i + 1].row]);
        if (!win.limits.empty() && win.limits.back().limit == *limit && win.limits.back().end == from)
            win.limits.back().end = to;
        else
            win.limits.push_back({from, to, *limit});
    }
    for (std::size_t i = 0; i + 1 < inference.series.size(); ++i) {
        const cwnd::CwndSample& x = inference.series[i];
        win.phaseSeconds[static_cast<std::size_t>(x.phase)] +=
            seconds(in.tables.tcp.timeNs[inference.series[i + 1].row] - in.tables.tcp.timeNs[x.row]);
    }
    for (const cwnd::CwndSample& x : inference.series) {
        if (x.phase == cwnd::SenderPhase::NotFollowed)
            continue;
        const double t = seconds(in.tables.tcp.timeNs[x.row]);
        win.cwnd.push(t, static_cast<double>(x.cwndBytes));
        win.effective.push(t, static_cast<double>(x.effectiveWindowBytes()));
        if (x.ssthreshBytes < cwnd::kInfiniteSsthresh)
            win.ssthresh.push(t, static_cast<double>(x.ssthreshBytes));
    }
}

void buildLane(const SeriesInputs& in, std::size_t connection, WlanLaneSeries& lane)
{
    if (!in.inventory || connection >= in.inventory->connections.size())
        return;
    lane.station = in.inventory->connections[connection].station;
    std::uint32_t mac = 0xffffffffu;
    if (lane.station >= 0) {
        mac = in.inventory->stations[static_cast<std::size_t>(lane.station)].mac;
        lane.stationMac = in.tables.macAddresses.at(mac).toString();
    }
    // Absences and moves, then the station's lifecycle (authentication, deauthentication...).
    for (std::size_t id = 0; in.events && id < in.events->size(); ++id) {
        const WlanEvent& e = in.events->at(id);
        const bool mine = (mac != 0xffffffffu && e.station == mac) ||
                          (e.kind == WlanEventKind::OutageInferred &&
                           e.connection == static_cast<std::int32_t>(connection));
        if (mine)
            lane.events.push_back({e.id, e.kind, seconds(e.startNs), seconds(e.endNs)});
    }
    if (mac == 0xffffffffu)
        return;
    // The frames the station sent or was sent, read as the events' MAC statistics read them.
    const dissect::WlanColumns& w = in.tables.wlan;
    for (std::size_t row = 0; row < w.size(); ++row) {
        const bool sent = wlan::namesTransmitter(w.frameControl[row]) && w.addr2(row) == mac;
        if (sent || w.addr1(row) == mac)
            lane.frames.push_back({seconds(w.timeNs[row]), w.frame[row], sent, MacFrame::of(w, row)});
    }
}

} // namespace

ConnectionSeries buildConnectionSeries(const SeriesInputs& in, std::size_t connection,
                                       const SeriesOptions& options)
{
    ConnectionSeries s;
    s.connection = connection;
    if (connection >= in.tcp.connections.size())
        return s;
    const Connection& c = in.tcp.connections[connection];
    s.sender = options.sender == 0 || options.sender == 1 ? options.sender : cwnd::dataSenderOf(c);
    s.startSeconds = seconds(c.firstTimeNs);
    s.endSeconds = seconds(c.lastTimeNs);
    const SegmentView view{in.tables.tcp, in.tcp};
    buildTimeSequence(in, view, connection, s.sender, s);
    buildRates(s, options, s.rate);
    buildRtt(in, view, connection, s.sender, s.rtt);
    if (options.inferCwnd)
        buildCwnd(in, connection, s.sender, s.window);
    buildLane(in, connection, s.lane);
    s.lane.bins = binLane(s.lane, s.startSeconds, s.startSeconds, s.endSeconds, s.rate.binSeconds);
    return s;
}

void addCwndSeries(const SeriesInputs& in, ConnectionSeries& series)
{
    series.window.cwnd = {};
    series.window.effective = {};
    series.window.limits.clear();
    series.window.ssthresh = {};
    series.window.phaseSeconds = {};
    series.window.cwndModel.clear();
    series.window.cwndNotFollowed.clear();
    if (series.connection < in.tcp.connections.size())
        buildCwnd(in, series.connection, series.sender, series.window);
}

PacketRow packetRow(const SeriesInputs& in, std::uint64_t row)
{
    const dissect::TcpColumns& rows = in.tables.tcp;
    const SegmentView view{rows, in.tcp};
    PacketRow p;
    p.row = row;
    p.frame = rows.frame[row];
    p.time = seconds(rows.timeNs[row]);
    p.direction = in.tcp.directionOf(in.tables, row);
    p.seq = view.relativeSeq(row);
    p.ack = view.relativeAck(row);
    p.length = rows.payloadLength[row];
    p.windowBytes = view.windowBytes(row);
    p.bytesInFlight = view.bytesInFlight(row);
    p.tcpFlags = rows.tcpFlags(row);
    p.analysisFlags = view.flags(row);
    return p;
}

std::pair<std::size_t, std::size_t> rowsBetween(const dissect::CaptureTables& tables,
                                                const std::vector<std::uint64_t>& rows, double from,
                                                double to)
{
    const std::vector<std::int64_t>& timeNs = tables.tcp.timeNs;
    auto before = [&](std::uint64_t row, double t) { return seconds(timeNs[row]) < t; };
    auto after = [&](double t, std::uint64_t row) { return t < seconds(timeNs[row]); };
    const auto first = std::lower_bound(rows.begin(), rows.end(), from, before);
    const auto last = std::upper_bound(first, rows.end(), to, after);
    return {static_cast<std::size_t>(first - rows.begin()), static_cast<std::size_t>(last - rows.begin())};
}

std::vector<ComparisonRow> compareConnections(const TcpAnalysis& a, std::size_t connectionA,
                                              const TcpAnalysis& b, std::size_t connectionB)
{
    const Connection& ca = a.connections.at(connectionA);
    const Connection& cb = b.connections.at(connectionB);
    const int sa = cwnd::dataSenderOf(ca), sb = cwnd::dataSenderOf(cb);
    const DirectionStats& da = ca.direction[sa];
    const DirectionStats& db = cb.direction[sb];
    const DirectionStats& ra = ca.direction[1 - sa];
    const DirectionStats& rb = cb.direction[1 - sb];
    auto count = [](std::uint64_t v) { return static_cast<double>(v); };
    return {
        {"completion time", "s", seconds(ca.lastTimeNs - ca.firstTimeNs), seconds(cb.lastTimeNs - cb.firstTimeNs)},
        {"data bytes", "bytes", count(da.dataBytes), count(db.dataBytes)},
        {"unique bytes", "bytes", count(da.uniqueBytes), count(db.uniqueBytes)},
        {"throughput", "bit/s", da.throughputBps, db.throughputBps},
        {"goodput", "bit/s", da.goodputBps, db.goodputBps},
        {"retransmissions", "", count(da.retransmissions), count(db.retransmissions)},
        {"fast retransmissions", "", count(da.fastRetransmissions), count(db.fastRetransmissions)},
        {"spurious retransmissions", "", count(da.spuriousRetransmissions), count(db.spuriousRetransmissions)},
        {"RTO timeouts", "", count(da.rtoTimeouts), count(db.rtoTimeouts)},
        {"duplicate ACKs", "", count(ra.dupAcks), count(rb.dupAcks)},
        {"zero windows", "", count(ra.zeroWindows), count(rb.zeroWindows)},
        {"mean RTT", "ms", da.rttAvgMs, db.rttAvgMs},
        {"max RTT", "ms", da.rttMaxMs, db.rttMaxMs},
    };
}

void appendSenderPhaseRows(std::vector<ComparisonRow>& rows, const WindowSeries& a, const WindowSeries& b)
{
    const bool aKnown = a.cwndNotFollowed.empty(), bKnown = b.cwndNotFollowed.empty();
    for (std::size_t p = 0; p < kSenderPhaseCount; ++p) {
        if (a.phaseSeconds[p] <= 0 && b.phaseSeconds[p] <= 0)
            continue;
        ComparisonRow row{std::string("time in ") + cwnd::senderPhaseName(static_cast<cwnd::SenderPhase>(p)), "s",
                          a.phaseSeconds[p], b.phaseSeconds[p]};
        row.aKnown = aKnown;
        row.bKnown = bKnown;
        rows.push_back(std::move(row));
    }
}

ConnectionSeries shiftedSeries(const ConnectionSeries& series, double offset)
{
    ConnectionSeries s = series;
    auto shift = [offset](std::vector<double>& t) {
        for (double& x : t)
            x -= offset;
    };
    for (RangeSeries* r : {&s.timeSequence.segments, &s.timeSequence.retransmissions,
                           &s.timeSequence.rtoRetransmissions, &s.timeSequence.zeroWindowProbes,
                           &s.timeSequence.sackBlocks})
        shift(r->t);
    for (XySeries* x : {&s.timeSequence.ack, &s.timeSequence.rwnd, &s.timeSequence.zeroWindows, &s.window.cwnd,
                        &s.window.effective, &s.window.ssthresh, &s.window.bytesInFlight, &s.window.rwnd,
                        &s.rate.throughput,
                        &s.rate.goodput, &s.rtt.seqAck, &s.rtt.timestamps, &s.lane.bins.framesReceived,
                        &s.lane.bins.retries, &s.lane.bins.failedAttempts, &s.lane.bins.rateMbps, &s.lane.bins.signalDbm})
        shift(x->t);
    for (LaneEvent& e : s.lane.events) {
        e.start -= offset;
        e.end -= offset;
    }
    for (LaneFrame& f : s.lane.frames)
        f.time -= offset;
    for (WindowLimitInterval& l : s.window.limits) {
        l.start -= offset;
        l.end -= offset;
    }
    s.startSeconds -= offset;
    s.endSeconds -= offset;
    return s;
}

std::size_t nearestIndex(const std::vector<double>& times, double t)
{
    if (times.empty())
        return 0;
    const auto it = std::lower_bound(times.begin(), times.end(), t);
    if (it == times.begin())
        return 0;
    if (it == times.end())
        return times.size() - 1;
    const auto i = static_cast<std::size_t>(it - times.begin());
    return (t - times[i - 1] <= times[i] - t) ? i - 1 : i;
}

namespace {

void csvXy(std::ostream& out, const char* name, const XySeries& s, int decimals)
{
    for (std::size_t i = 0; i < s.size(); ++i)
        out << name << ',' << fixedText(s.t[i], 9) << ',' << fixedText(s.v[i], decimals) << ",,\n";
}

void csvRange(std::ostream& out, const char* name, const RangeSeries& s)
{
    for (std::size_t i = 0; i < s.size(); ++i)
        out << name << ',' << fixedText(s.t[i], 9) << ',' << fixedText(s.lo[i], 0) << ','
            << fixedText(s.hi[i], 0) << ',' << s.frame[i] << '\n';
}

} // namespace

void writeSeriesCsv(std::ostream& out, const ConnectionSeries& s)
{
    out << "series,time_s,value,value2,frame\n";
    const TimeSequenceSeries& ts = s.timeSequence;
    csvRange(out, "segment", ts.segments);
    csvRange(out, "retransmission", ts.retransmissions);
    csvRange(out, "rto_retransmission", ts.rtoRetransmissions);
    csvRange(out, "zero_window_probe", ts.zeroWindowProbes);
    csvXy(out, "ack", ts.ack, 0);
    csvXy(out, "rwnd_edge", ts.rwnd, 0);
    csvRange(out, "sack", ts.sackBlocks);
    csvXy(out, "zero_window", ts.zeroWindows, 0);
    csvXy(out, "cwnd", s.window.cwnd, 0);
    csvXy(out, "effective_window", s.window.effective, 0);
    csvXy(out, "ssthresh", s.window.ssthresh, 0);
    csvXy(out, "bytes_in_flight", s.window.bytesInFlight, 0);
    csvXy(out, "rwnd", s.window.rwnd, 0);
    csvXy(out, "throughput_bps", s.rate.throughput, 1);
    csvXy(out, "goodput_bps", s.rate.goodput, 1);
    csvXy(out, "rtt_ms", s.rtt.seqAck, 6);
    csvXy(out, "rtt_ts_ms", s.rtt.timestamps, 6);
    csvXy(out, "mac_frames_received", s.lane.bins.framesReceived, 0);
    csvXy(out, "mac_retries", s.lane.bins.retries, 0);
    csvXy(out, "mac_failed_attempts", s.lane.bins.failedAttempts, 0);
    csvXy(out, "rate_mbps", s.lane.bins.rateMbps, 3);
    csvXy(out, "signal_dbm", s.lane.bins.signalDbm, 3);
    for (const LaneEvent& e : s.lane.events)
        out << "event_" << eventKindName(e.kind) << ',' << fixedText(e.start, 9) << ','
            << fixedText(e.end, 9) << ',' << e.id << ",\n";
    for (const WindowLimitInterval& l : s.window.limits)
        out << "limit_" << windowLimitName(l.limit) << ',' << fixedText(l.start, 9) << ',' << fixedText(l.end, 9)
            << ",,\n";
}

const char* windowLimitName(WindowLimit limit)
{
    switch (limit) {
    case WindowLimit::CongestionWindow: return "cwnd";
    case WindowLimit::ReceiveWindow: return "receive_window";
    case WindowLimit::Application: return "application";
    }
    return "";
}

} // namespace windscope::analysis
