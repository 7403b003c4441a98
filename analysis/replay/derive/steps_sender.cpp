// SPDX-License-Identifier: GPL-3.0-or-later
// The endpoints' steps of deriveScenario(): the receiver's drain, the sender's
// congestion control, its RTO rule and its loss recovery.
#include "derivation_steps.h"

#include "analysis/sender/congestion_model.h"
#include "path_dispersion.h"
#include "read_rhythm.h"
#include "reader_fit.h"
#include "sample_statistics.h"

#include <algorithm>
#include <limits>
#include <cmath>
#include <cstdio>

namespace windscope::analysis::replay::derive {

namespace {

// The RTO rule read from the sender's own timeouts (kRtoTimeout rows, the first of
// each backoff chain): how long its retransmission timer ran, from its last restart
// (an ACK advancing the head, or the head's previous transmission, RFC 6298 5.3 and
// 5.5) to the timeout, against the smoothed RTT the capture's samples give at that
// moment. Linux bounds the RTO below by SRTT + the minimum (__tcp_set_rto()); RFC 6298
// (ns-3, the BSDs) by the minimum alone, max(min RTO, SRTT + 4 RTTVAR). A timer runs
// out late, never early, so one that ran out under Linux's bound is RFC 6298's (Linux's
// own timers, read so, sit 6-40 ms above it); the bound is taken with a quarter off the
// SRTT, which the capture's samples estimate, not the sender's own (at an SRTT of 22 ms
// RFC 6298's 200 ms minimum is only 22 ms under Linux's bound). The shortest such timer
// bounds the minimum RTO from above. Both rules keep the RTO above the SRTT, so at the
// sender a resend after less than that share of it was no timer running out (its start
// misread) and is not read.
constexpr double kSrttShareOfBound = 0.75; // of the capture's SRTT in Linux's bound
// A timer that ran out under Linux's bound, srtt + min RTO.
bool underLinuxBound(double timerMs, double srttMs, double minRtoMs)
{
    return timerMs < kSrttShareOfBound * srttMs + minRtoMs;
}
// A timer no RTO rule allows: shorter than the SRTT (with the estimate's share).
bool shorterThanAnyRto(double timerMs, double srttMs)
{
    return timerMs < kSrttShareOfBound * srttMs;
}
struct RtoRuleReading
{
    std::size_t timeouts = 0;    // first timeouts of their chains, with an RTT before them
    std::size_t underLinuxBound = 0;
    double shortestTimerMs = 0;
    double srttAtShortestMs = 0;
};

RtoRuleReading readRtoRule(const DerivationInput& in, double minRtoMs)
{
    const dissect::CaptureTables& tables = *in.tables;
    const TcpAnalysis& tcp = *in.tcp;
    const auto& t = tables.tcp;
    RtoRuleReading out;
    // The sender's RTT samples in the order their ACKs came.
    std::vector<std::pair<std::int64_t, double>> samples; // (ACK time, RTT ms)
    for (const RttSample& r : tcp.rtt)
        if (tcp.segments.connection[r.dataRow()] == in.connection && tcp.directionOf(tables, r.dataRow()) == in.sender)
            samples.emplace_back(t.timeNs[r.ackRow()], static_cast<double>(r.rttNs(t)) / 1e6);
    std::sort(samples.begin(), samples.end());
    // Timeouts the capture's own analysis cannot tell from a fast re-send (a timer that
    // ran out in recovery, re-sending the head a second time) but the cwnd inference's
    // stack rules did: the segments that took its sender into the loss state.
    std::vector<std::uint64_t> inferredTimeoutRows;
    if (in.inference)
        for (std::size_t i = 0; i < in.inference->series.size(); ++i)
            if (in.inference->series[i].phase == cwnd::SenderPhase::Loss &&
                (i == 0 || in.inference->series[i - 1].phase != cwnd::SenderPhase::Loss))
                inferredTimeoutRows.push_back(in.inference->series[i].row);
    std::sort(inferredTimeoutRows.begin(), inferredTimeoutRows.end());
    std::size_t nextSample = 0;
    double srtt = -1, rttvar = 0;
    bool anyAck = false;
    std::int64_t cumulativeAck = 0, timerStartNs = 0;
    // Last transmission of each sequence number, and whether it was a timeout.
    std::vector<std::pair<std::int64_t, std::pair<std::int64_t, bool>>> lastSend; // seq -> (time, timeout)
    const auto findSend = [&](std::int64_t seq) {
        return std::lower_bound(lastSend.begin(), lastSend.end(), seq,
                                [](const auto& e, std::int64_t v) { return e.first < v; });
    };
    for (std::size_t row = 0; row < t.size(); ++row) {
        if (tcp.segments.connection[row] != in.connection)
            continue;
        const std::int64_t now = t.timeNs[row];
        for (; nextSample < samples.size() && samples[nextSample].first <= now; ++nextSample) {
            const double r = samples[nextSample].second; // RFC 6298 2.2 / 2.3
            rttvar = srtt < 0 ? r / 2 : 0.75 * rttvar + 0.25 * std::fabs(srtt - r);
            srtt = srtt < 0 ? r : 0.875 * srtt + 0.125 * r;
        }
        if (tcp.directionOf(tables, row) != in.sender) {
            const std::int64_t ack = tcp.relativeAck(t, row);
            if ((t.tcpFlags(row) & 0x010) && (!anyAck || ack > cumulativeAck)) {
                anyAck = true;
                cumulativeAck = ack;
                timerStartNs = now;
            }
            continue;
        }
        if (t.payloadLength[row] == 0)
            continue;
        const std::int64_t seq = tcp.relativeSeq(t, row);
        const bool timeout = (tcp.segments.flags[row] & segment_flag::kRtoTimeout) ||
                             std::binary_search(inferredTimeoutRows.begin(), inferredTimeoutRows.end(), row);
        auto it = findSend(seq);
        const bool sentBefore = it != lastSend.end() && it->first == seq;
        if (timeout && srtt > 0 && !(sentBefore && it->second.second)) {
            const std::int64_t startNs = sentBefore ? std::max(timerStartNs, it->second.first) : timerStartNs;
            const double timerMs = static_cast<double>(now - startNs) / 1e6;
            if (!shorterThanAnyRto(timerMs, srtt)) {
                if (out.timeouts == 0 || timerMs < out.shortestTimerMs) {
                    out.shortestTimerMs = timerMs;
                    out.srttAtShortestMs = srtt;
                }
                ++out.timeouts;
                out.underLinuxBound += underLinuxBound(timerMs, srtt, minRtoMs) ? 1 : 0;
            }
        }
        if (sentBefore)
            it->second = {now, timeout};
        else
            lastSend.insert(it, {seq, {now, timeout}});
        if (anyAck && seq == cumulativeAck)
            timerStartNs = now;
    }
    return out;
}

// Applies what readRtoRule() found: RFC 6298's bound when every first timeout of the
// capture ran out under Linux's, with a minimum no longer than the shortest of them.
// Downstream of the losses the capture's own RTT samples are the receiver's
// turnaround, and the sender's timer shows on its own clock (downstreamTimeouts()).
RtoRuleReading readDownstreamRtoRule(const DerivationInput& in, const DownstreamView& downstream, double minRtoMs)
{
    RtoRuleReading out;
    // Not filtered by shorterThanAnyRto(): downstream, the SRTT is the round trip from
    // the receiver's ACKs to the data they released, which can run well above the
    // sender's own (a B handoff run: 298 ms timers at 1,009 ms), not an estimate of it.
    for (const DownstreamTimeout& d : downstreamTimeouts(in, downstream, minRtoMs)) {
        if (out.timeouts == 0 || d.timerMs < out.shortestTimerMs) {
            out.shortestTimerMs = d.timerMs;
            out.srttAtShortestMs = d.srttMs;
        }
        ++out.timeouts;
        out.underLinuxBound += underLinuxBound(d.timerMs, d.srttMs, minRtoMs) ? 1 : 0;
    }
    return out;
}

// What the advertised windows say of the reader over [firstNs, lastNs], each against the
// largest advertised up to then (autotuning only raises it): the share of the time the
// window was below half of it, and by how much it fell short of it on average
// (time-weighted), the bytes left unread; and the first ACK that held it so.
struct WindowHold
{
    double heldShare = 0, meanShortfallBytes = 0;
    std::size_t firstHeld = std::numeric_limits<std::size_t>::max(); // index in the windows
};
WindowHold readWindowHold(const std::vector<std::pair<std::int64_t, std::uint64_t>>& windows, std::int64_t firstNs,
                          std::int64_t lastNs)
{
    WindowHold out;
    if (lastNs <= firstNs)
        return out;
    std::uint64_t largest = 0;
    std::int64_t heldNs = 0;
    double shortfall = 0;
    for (std::size_t i = 0; i < windows.size(); ++i) {
        largest = std::max(largest, windows[i].second);
        const std::int64_t from = std::max(windows[i].first, firstNs);
        const std::int64_t to = std::min(i + 1 < windows.size() ? windows[i + 1].first : lastNs, lastNs);
        if (to <= from)
            continue;
        if (2 * windows[i].second < largest) {
            heldNs += to - from;
            out.firstHeld = std::min(out.firstHeld, i);
        }
        shortfall += static_cast<double>(largest - windows[i].second) * static_cast<double>(to - from);
    }
    const auto spanNs = static_cast<double>(lastNs - firstNs);
    out.heldShare = static_cast<double>(heldNs) / spanNs;
    out.meanShortfallBytes = shortfall / spanNs;
    return out;
}

// The right edge's pace from the first ACK that held the window (WindowHold::firstHeld,
// an index in the same ACKs) to the last ACK that moved the edge; fallbackBps where that
// span is shorter than a second or moves nothing.
double heldDrainBps(const std::vector<std::pair<std::int64_t, std::int64_t>>& rightEdges,
                    std::size_t firstHeld, double fallbackBps)
{
    // A second: several reads of any reader that holds a window back (a 32 kB read at
    // 2 Mb/s takes 131 ms), so that where a span starts and ends within a read matters
    // little.
    constexpr std::int64_t kMinSpanNs = 1'000'000'000;
    if (firstHeld >= rightEdges.size())
        return fallbackBps;
    std::size_t last = firstHeld;
    for (std::size_t i = firstHeld + 1; i < rightEdges.size(); ++i)
        if (rightEdges[i].second > rightEdges[last].second)
            last = i;
    const std::int64_t spanNs = rightEdges[last].first - rightEdges[firstHeld].first;
    const std::int64_t movedBytes = rightEdges[last].second - rightEdges[firstHeld].second;
    if (spanNs < kMinSpanNs || movedBytes <= 0)
        return fallbackBps;
    return static_cast<double>(movedBytes) * 8 / (static_cast<double>(spanNs) / 1e9);
}

// A held reader's read size from the steps of the window's right edge. The edge moves
// only as the application reads, and a reader that holds the window always finds a
// full read waiting: an ACK shows the edge after the whole reads since the ACK before,
// so every step is a whole number of reads, each edge truncated to the window scale's
// unit (RFC 7323 2.3). The read size is the step seen twice or more, or difference of
// two such, that the most steps are whole multiples of, three quarters at least (their
// bytes over their reads); 0 where none is.
struct EdgeSteps
{
    double readBytes = 0;
    std::size_t steps = 0, multiples = 0;
};
EdgeSteps readSizeFromEdgeSteps(const std::vector<std::pair<std::int64_t, std::int64_t>>& rightEdges,
                                std::size_t firstHeld, std::int64_t lastNs, std::int64_t unitBytes)
{
    // Eight steps or more: one odd read (the first after a zero window, a partial last
    // one) is then not most of them.
    constexpr std::size_t kMinSteps = 8;
    EdgeSteps out;
    if (firstHeld >= rightEdges.size())
        return out;
    std::vector<std::int64_t> steps;
    std::int64_t edge = rightEdges[firstHeld].second;
    for (std::size_t i = firstHeld + 1; i < rightEdges.size() && rightEdges[i].first <= lastNs; ++i) {
        if (rightEdges[i].second > edge)
            steps.push_back(rightEdges[i].second - edge);
        edge = std::max(edge, rightEdges[i].second);
    }
    out.steps = steps.size();
    if (steps.size() < kMinSteps)
        return out;
    std::sort(steps.begin(), steps.end());
    // Steps within (k + 1) units of k candidates: the candidate, itself a step, is off the
    // read by up to a unit, k of it by k. Returns how many, and the read their bytes
    // over their reads give.
    const auto multiplesOf = [&](std::int64_t candidate, double& read) {
        std::size_t multiples = 0;
        std::int64_t bytes = 0, reads = 0;
        for (const std::int64_t step : steps) {
            const std::int64_t k = std::max<std::int64_t>(1, (step + candidate / 2) / candidate);
            // A tolerance of half the candidate or more takes any step for a multiple:
            // no test.
            if (2 * (k + 1) * unitBytes >= candidate)
                continue;
            if (std::abs(step - k * candidate) <= (k + 1) * unitBytes) {
                ++multiples;
                bytes += step;
                reads += k;
            }
        }
        read = reads > 0 ? static_cast<double>(bytes) / static_cast<double>(reads) : 0;
        return multiples;
    };
    // Steps that recur (runs within one unit, two or more long), and what two recur
    // apart by: adjacent runs are k and k + 1 reads, one read apart.
    std::vector<std::int64_t> recurring;
    for (std::size_t i = 0; i + 1 < steps.size();) {
        std::size_t end = i + 1;
        while (end < steps.size() && steps[end] - steps[i] <= unitBytes)
            ++end;
        if (end - i >= 2)
            recurring.push_back(steps[i + (end - i) / 2]);
        i = end;
    }
    std::vector<std::int64_t> candidates = recurring;
    for (std::size_t i = 1; i < recurring.size(); ++i)
        candidates.push_back(recurring[i] - recurring[i - 1]);
    std::sort(candidates.rbegin(), candidates.rend());
    // The one most steps are whole multiples of, the larger of two that explain as many,
    // and three quarters of them at least: a reader's steps all are, but for the odd
    // one; a multiple of its read size explains only the steps of that many reads.
    for (const std::int64_t candidate : candidates) {
        double read = 0;
        const std::size_t multiples = multiplesOf(candidate, read);
        if (4 * multiples >= 3 * steps.size() && multiples > out.multiples) {
            out.readBytes = read;
            out.multiples = multiples;
        }
    }
    return out;
}

// What the reader fit compares (reader_fit.h): the receiver's ACKs over the transfer
// and when each byte of new data became readable, on the ACKs' clock. A segment that
// drew its own ACK arrived as that ACK left; one that did not (the first of a delayed
// ACK's pair, or one a timer or a read ACKed later) arrived one such round trip after
// it left, the lesser of its neighbours', and never before an ACK that did not yet
// cover it nor after the first that did.
ReaderFitInput readerFitInput(const DerivationContext& ctx, std::uint32_t mss, std::int64_t firstNs, std::int64_t lastNs)
{
    ReaderFitInput in;
    in.mss = mss;
    // 1 ms a read call: the handheld's per-read cost the slow-reader model takes (the
    // rest of a read's time is per byte, which the fit reads).
    in.readFixedUs = 1000;
    // The first 5,000 ACKs of the transfer: hundreds of flights, enough for a reader's
    // pace, and the fit's cost stays bounded on a long capture.
    constexpr std::size_t kMostAcks = 5'000;
    std::vector<std::int64_t> covered; // the highest acknowledgement up to each ACK
    for (std::size_t i = 0; i < ctx.rightEdges.size() && in.acks.size() < kMostAcks; ++i) {
        const std::int64_t ns = ctx.rightEdges[i].first;
        if (ns < firstNs || ns > lastNs)
            continue;
        const std::uint64_t window = ctx.advertisedWindows[i].second;
        const std::int64_t ack = ctx.rightEdges[i].second - static_cast<std::int64_t>(window);
        in.acks.push_back({ns, ack, window});
        covered.push_back(covered.empty() ? ack : std::max(covered.back(), ack));
    }
    if (in.acks.empty())
        return in;
    struct Sent
    {
        std::int64_t ns, end;
        std::size_t coveredBy;
        std::int64_t roundTripNs; // -1: its ACK does not name it
    };
    std::vector<Sent> sent;
    std::int64_t highest = std::numeric_limits<std::int64_t>::min();
    for (const DerivationContext::Departure& d : ctx.departures) {
        if (d.end <= highest)
            continue; // a resend: what it fills shows in the ACK that covers it
        highest = d.end;
        const auto k = static_cast<std::size_t>(std::lower_bound(covered.begin(), covered.end(), d.end) - covered.begin());
        if (k >= in.acks.size())
            break;
        if (in.acks[k].ns < d.ns)
            continue;
        // Drawn by the data: the ACK names the segment's end and covers more than it
        // (a delayed ACK's second segment). One that covers a lone segment may have
        // waited for the delayed-ACK timer or a read (a window update).
        const bool drawn = in.acks[k].ack == d.end && k > 0 && covered[k] - covered[k - 1] > mss;
        sent.push_back({d.ns, d.end, k, drawn ? in.acks[k].ns - d.ns : -1});
    }
    std::int64_t previousRoundTrip = -1;
    std::vector<std::int64_t> nextRoundTrip(sent.size(), -1);
    for (std::size_t i = sent.size(); i-- > 0;)
        nextRoundTrip[i] = sent[i].roundTripNs >= 0 ? sent[i].roundTripNs
                                                    : (i + 1 < sent.size() ? nextRoundTrip[i + 1] : -1);
    std::int64_t lastArrival = std::numeric_limits<std::int64_t>::min();
    for (std::size_t i = 0; i < sent.size(); ++i) {
        const Sent& x = sent[i];
        if (x.roundTripNs >= 0)
            previousRoundTrip = x.roundTripNs;
        std::int64_t roundTrip = x.roundTripNs;
        if (roundTrip < 0)
            roundTrip = previousRoundTrip < 0 ? nextRoundTrip[i]
                        : nextRoundTrip[i] < 0 ? previousRoundTrip
                                               : std::min(previousRoundTrip, nextRoundTrip[i]);
        std::int64_t arrival = roundTrip < 0 ? in.acks[x.coveredBy].ns : x.ns + roundTrip;
        arrival = std::min(arrival, in.acks[x.coveredBy].ns);
        if (x.coveredBy > 0)
            arrival = std::max(arrival, in.acks[x.coveredBy - 1].ns);
        lastArrival = std::max(lastArrival, arrival);
        in.arrivals.emplace_back(lastArrival, x.end);
    }
    return in;
}

// A reader taking readBytes a call at the drain rate: the capture does not show how a
// read's time divides between the call and the bytes, so the slow-reader model's 1 ms
// per call, at most half the period, and the rest per byte. Returns the period.
double setReadCost(ReceiverParams& receiver, std::uint64_t readBytes, double drainBytesPerUs)
{
    receiver.appReadBytes = std::max<std::uint64_t>(1, readBytes);
    const double periodUs = static_cast<double>(receiver.appReadBytes) / drainBytesPerUs;
    receiver.readFixedUs = std::min(1000.0, periodUs / 2);
    receiver.readPerByteUs = (periodUs - receiver.readFixedUs) / static_cast<double>(receiver.appReadBytes);
    return periodUs;
}

// Takes the reader fitReader() found for the replay's receiver.
void applyReaderFit(const ReaderFit& fit, ReceiverParams& receiver, DerivedScenario& out)
{
    receiver.appReadBytes = fit.readBytes;
    receiver.readFixedUs = fit.readFixedUs;
    receiver.readPerByteUs = fit.readPerByteUs;
    char buf[512];
    std::snprintf(buf, sizeof buf,
                  "receiver: reads of up to %llu B, %.0f us per call + %.3f us per byte: %.3f Mb/s when data "
                  "waits (the reader whose backlogs match the windows of %zu ACKs, %.0f B off on average; one "
                  "reading each byte as it came: %.0f B; readers from %.3f to %.3f Mb/s match about as well)",
                  static_cast<unsigned long long>(fit.readBytes), fit.readFixedUs, fit.readPerByteUs,
                  fit.drainBps() / 1e6, fit.acks, fit.meanErrorBytes, fit.keepsUpErrorBytes, fit.slowestBps / 1e6,
                  fit.fastestBps / 1e6);
    out.notes.push_back(buf);
}

} // namespace

void deriveReceiver(const DerivationInput& in, DerivationContext& ctx, DerivedScenario& out)
{
    Scenario& s = out.scenario;
    const Connection& c = in.tcp->connections[in.connection];
    const DirectionStats& data = c.direction[in.sender];
    const DirectionStats& acks = c.direction[1 - in.sender];
    const std::int64_t lastData = ctx.lastDataNs;
    const auto& windowUpdates = ctx.windowUpdates;
    // Receiver: its buffer is the largest window it advertised; a reader that keeps the
    // window low or closed drains at the rate the data got through.
    s.receiver.bufferBytes = std::max<std::uint64_t>(acks.maxWindowBytes, 2ull * s.sender.mss);
    out.notes.push_back("receiver.buffer_bytes " + std::to_string(s.receiver.bufferBytes) +
                        ": largest window the receiver advertised");
    const double activeS = std::max(1e-3, static_cast<double>(lastData - out.firstDataNs) / 1e9);
    // A window is the buffer less what the application has not read yet. A reader that
    // keeps up leaves the window near the largest it has offered (which autotuning
    // only raises); one that falls behind holds it below half of that -- more of its
    // buffer unread than free -- for most of the transfer, closed or not.
    const WindowHold hold = readWindowHold(ctx.advertisedWindows, out.firstDataNs, lastData);
    const double heldShare = hold.heldShare, shortfall = hold.meanShortfallBytes;
    const bool readerHolds = heldShare > 0.5;
    // Where the sender lost nothing (no loss cut its window), a window below the largest
    // offered by more than a delayed ACK's two segments on average is the reader's: it
    // leaves that much unread, and the sender, held to the window, sends no faster than
    // it reads.
    const bool readerLags = !readerHolds && data.retransmissions == 0 && shortfall > 2.0 * s.sender.mss;
    // A reader that holds the window is read from its edge's pace (heldDrainBps()): the
    // fit is for one that does not.
    const ReaderFit fit =
        readerHolds ? ReaderFit{} : fitReader(readerFitInput(ctx, s.sender.mss, out.firstDataNs, lastData));
    if ((acks.zeroWindows + acks.lowWindows > static_cast<std::uint64_t>(activeS) || readerHolds || readerLags) &&
        data.goodputBps > 0) {
        if (readerHolds)
            out.notes.push_back(format("receiver: the window stayed below half the largest offered before it for "
                                       "%.0f %% of the transfer: the application reads slower than the data comes",
                                       heldShare * 100));
        if (readerLags)
            out.notes.push_back(format("receiver: with no loss, the window stayed %.0f B below the largest offered "
                                       "on average (more than two segments): the application leaves that much unread",
                                       shortfall));
        // The capture shows the drain rate and, through the window updates, the reader's
        // rhythm: an update goes out after a read, so the times between updates are
        // whole numbers of read periods. Two or more distinct intervals (5 and 6 reads
        // of 512 B when a cycle is not a whole number of reads) give the period as their
        // common step; a single one is one read per update (a reader taking all there
        // is). The period times the drain rate is the read size. How a read's time
        // divides between the call and the bytes it does not show: 1 ms per call (the
        // handheld of paper 000 and the lab's reader), the rest per byte. Without window
        // updates to go by: reads of one MSS.
        // The drain rate: how fast the right edge moved while the reader held the
        // window (it moves only as the application reads). The sender's goodput runs
        // faster by the buffer it filled before the reader held it back and left
        // unread at its last send (the lab's 249 kB buffer over a 1.99 MB transfer:
        // 14 %).
        const double drainBps =
            readerHolds ? heldDrainBps(ctx.rightEdges, hold.firstHeld, data.goodputBps)
                        : data.goodputBps;
        if (drainBps != data.goodputBps)
            out.notes.push_back(format(
                "receiver: the application drains %.3f Mb/s, the right edge's pace while it "
                "held the window (the sender's goodput %.3f Mb/s counts the buffer it filled)",
                drainBps / 1e6, data.goodputBps / 1e6));
        const double perMssUs = static_cast<double>(s.sender.mss) * 8 / drainBps * 1e6;
        const double drainBytesPerUs = drainBps / 8 / 1e6;
        const ReadRhythm rhythm = readRhythm(windowUpdates);
        const bool readerFitted = fit.found;
        if (readerFitted) {
            // A reader that lets the window reopen between flights drains faster than
            // the data came: its pace is the one its backlogs at the ACKs show.
            applyReaderFit(fit, s.receiver, out);
        } else if (rhythm.periodUs > 0) {
            const double readBytes = rhythm.oneReadPerUpdate ? rhythm.bytesPerUpdate : rhythm.periodUs * drainBytesPerUs;
            const double periodUs =
                setReadCost(s.receiver, static_cast<std::uint64_t>(std::llround(readBytes)), drainBytesPerUs);
            out.notes.push_back(format(
                "receiver: slow reader reading %.0f B every %.0f us (the rhythm of its window "
                "updates and the drain rate), %.0f us per call + the rest per byte",
                static_cast<double>(s.receiver.appReadBytes), periodUs, s.receiver.readFixedUs));
        } else if (const EdgeSteps edge =
                       readerHolds ? readSizeFromEdgeSteps(ctx.rightEdges, hold.firstHeld, lastData,
                                                           std::int64_t{1} << std::max<int>(0, c.windowScale[1 - in.sender]))
                                   : EdgeSteps{};
                   edge.readBytes > 0) {
            const double periodUs =
                setReadCost(s.receiver, static_cast<std::uint64_t>(std::llround(edge.readBytes)), drainBytesPerUs);
            out.notes.push_back(
                format("receiver: slow reader reading %.0f B every %.0f us (the read the steps of the window's "
                       "right edge are whole numbers of: ",
                       static_cast<double>(s.receiver.appReadBytes), periodUs) +
                format("%.0f of its %.0f steps while the reader held it, each the reads between two ACKs; the "
                       "drain rate), ",
                       static_cast<double>(edge.multiples), static_cast<double>(edge.steps)) +
                format("%.0f us per call + the rest per byte", s.receiver.readFixedUs));
        } else {
            setReadCost(s.receiver, s.sender.mss, drainBytesPerUs);
            out.notes.push_back(format(
                "receiver: slow reader (%.0f zero and low windows) draining one MSS per "
                "%.0f us (the drain rate): reads of one MSS, %.0f us per call + the rest per byte",
                static_cast<double>(acks.zeroWindows + acks.lowWindows), perMssUs,
                s.receiver.readFixedUs));
        }
        // The ACKs pace at the reader, so they do not show the path's rate; the path
        // is taken to be well above what the reader drains.
        s.path.bottleneckMbps = std::max(s.path.bottleneckMbps, 20 * data.goodputBps / 1e6);
        s.path.queueBytes = std::max<std::uint64_t>(s.path.queueBytes, 100ull * (s.sender.mss + 52));
        out.notes.push_back(format(readerFitted ? "path.bottleneck_mbps %.3f: the window and the reader pace the "
                                                  "ACKs; path taken as 20x the goodput"
                                                : "path.bottleneck_mbps %.3f: the reader limits the flow; path taken "
                                                  "as 20x the goodput",
                                   s.path.bottleneckMbps));
    } else if (fit.found) {
        // The reader kept up with this flow, but not by a margin: its backlogs at the
        // ACKs show how fast it drains, which caps what a larger window or a faster
        // path would get.
        out.notes.push_back("receiver: the application kept up (few zero or low windows), with a backlog at the "
                            "ACKs that shows its pace");
        applyReaderFit(fit, s.receiver, out);
    } else {
        out.notes.push_back("receiver: the application keeps up (few zero or low windows)");
    }
}

void deriveCongestionControl(const DerivationInput& in, DerivationContext& ctx, DerivedScenario& out)
{
    Scenario& s = out.scenario;
    const DownstreamView& downstream = ctx.downstream;
    // Congestion control: the model the cwnd inference chose.
    s.sender.cc = "cubic";
    const auto inferredModel = in.inference ? cwnd::makeCongestionModel(in.inference->model) : nullptr;
    if (in.inference && (in.inference->rateEvidence.rateBased || (inferredModel && inferredModel->traits().rateBased) ||
                         in.inference->notFollowed == cwnd::NotFollowedReason::RateBased)) {
        char buf[300];
        s.sender.cc = cwnd::rateBasedModelName();
        std::snprintf(buf, sizeof buf,
                      "sender.cc %s: the sender is rate-based (%.0f%% of its sends on its own clock, %.0f%% of its "
                      "flight kept through loss: BBR-like)",
                      s.sender.cc.c_str(), in.inference->rateEvidence.unclockedSends * 100,
                      in.inference->rateEvidence.flightRetainedAfterLoss * 100);
        out.notes.push_back(buf);
    } else if (in.inference && !in.inference->model.empty()) {
        if (!inferredModel) {
            out.senderNotModelled = "the inference saw " + in.inference->model + ", which the simulator does not model";
            out.notes.push_back("sender.cc cubic: a stand-in; " + out.senderNotModelled);
        } else {
            s.sender.cc = in.inference->model;
            if (in.inference->undetermined != cwnd::ModelUndetermined::None)
                out.notes.push_back("sender.cc " + s.sender.cc + ": a stand-in, the best of tied fits; the model is "
                                    "undetermined: " + cwnd::modelUndeterminedText(in.inference->undetermined));
            else
                out.notes.push_back("sender.cc " + s.sender.cc + ": model the cwnd inference chose");
        }
    } else {
        out.notes.push_back("sender.cc cubic: no cwnd inference, Linux's default");
    }
    if (downstream.downstream && in.inference && !cwnd::makeCongestionModel(s.sender.cc)->traits().rateBased &&
        out.senderNotModelled.empty()) {
        std::string note;
        if (const std::string byWindow = modelByWindowAmongNearTies(*in.inference, note); !byWindow.empty()) {
            s.sender.cc = byWindow;
            out.notes.push_back(note);
        }
    }
    // The stack the inference replayed the model as, where both implement it: its fit.
    cwnd::ModelStack fitStack = cwnd::ModelStack::Linux;
    if (in.inference)
        for (const cwnd::ModelFit& fit : in.inference->fits)
            if (fit.model == s.sender.cc) {
                fitStack = fit.stack;
                break;
            }
    const auto model = cwnd::makeCongestionModel(s.sender.cc, fitStack);
    const cwnd::ModelStack stack = cwnd::modelStackOf(*model);
    const bool ns3 = stack == cwnd::ModelStack::Ns3;
    s.sender.stack = cwnd::modelStackName(stack);
    // The Linux models recover as Linux does; NewReno, Westwood+ and Veno are written
    // after their papers and ns-3, which have no RACK-TLP. ns-3 (3.37) recovers with
    // PRR by default (TcpL4Protocol's RecoveryType, TcpPrrRecovery).
    s.sender.rackTlp = s.sender.sack && model->traits().rackTlpByDefault;
    s.sender.prr = s.sender.sack && (s.sender.rackTlp || ns3);
    if (ns3 && cwnd::makeCongestionModel(s.sender.cc, cwnd::ModelStack::Linux)->traits().rackTlpByDefault)
        out.notes.push_back("sender.stack ns-3: the inference's " + s.sender.cc + " fitted best as ns-3 implements "
                            "it (its window growth and ACK rules); recovery with PRR and without RACK-TLP, as ns-3's");
}

// The sender's own pacing (a timer between its segments, what the tx-inter-packet-delay
// fix sets): of two segments it sent one after the other with no newer ACK between them
// (the same TSecr: nothing had come back to clock the second), an unpaced sender sends
// the second at once, within the same tick of its timestamp clock; a paced one a pace
// later. Where most such pairs are a tick or more apart, the pace is their spacing by
// the sender's clock (its TSvals, 1 ms ticks as Linux and ns-3 keep them), which the
// path does not change on its way to any vantage. A rate-based sender paces by its own
// model.
void deriveSenderPacing(const DerivationInput& in, DerivationContext& ctx, DerivedScenario& out)
{
    // A gap longer than a second is the sender idle, not a pace (no pace that slow
    // sends a flow).
    constexpr std::uint32_t kIdleTicks = 1000;
    Scenario& s = out.scenario;
    if (s.sender.cc == cwnd::rateBasedModelName())
        return;
    struct Pair
    {
        double ticks = 0, captureMs = 0; // apart by the sender's clock and by the capture's
    };
    std::vector<Pair> pairs;
    const auto& d = ctx.departures;
    for (std::size_t i = 1; i < d.size(); ++i) {
        if (!d[i].timestamps || !d[i - 1].timestamps || d[i].tsEcr != d[i - 1].tsEcr)
            continue;
        const std::uint32_t apart = d[i].tsVal - d[i - 1].tsVal; // modulo 2^32, as the clock wraps
        if (apart <= kIdleTicks)
            pairs.push_back({static_cast<double>(apart), static_cast<double>(d[i].ns - d[i - 1].ns) / 1e6});
    }
    // Two trains' worth, as the dispersion reading asks.
    if (pairs.size() < 2 * static_cast<std::size_t>(kTrainSegments))
        return;
    std::sort(pairs.begin(), pairs.end(), [](const Pair& a, const Pair& b) { return a.ticks < b.ticks; });
    const double median = pairs[pairs.size() / 2].ticks;
    if (median < 1)
        return;
    // The pace alone: a pair that also waited for window is further apart (a tick of
    // truncation either way).
    double ticks = 0, captureMs = 0;
    std::size_t paced = 0;
    for (const Pair& p : pairs)
        if (p.ticks <= median + 1) {
            ticks += p.ticks;
            captureMs += p.captureMs;
            ++paced;
        }
    // The capture's clock must agree that the ticks are milliseconds: over many pairs the
    // path's jitter and aggregation average out, and a sender whose timestamps tick
    // faster (microseconds) spaces its back-to-back segments by many ticks. Within half.
    const double paceMs = ticks / static_cast<double>(paced), capturedMs = captureMs / static_cast<double>(paced);
    if (capturedMs < 0.5 * paceMs || capturedMs > 1.5 * paceMs)
        return;
    s.sender.paceMs = paceMs;
    out.notes.push_back(format("sender.pace_ms %.2f: of %.0f pairs of segments sent with no newer ACK between them "
                               "(the same TSecr), half or more a tick or more apart by the sender's clock (median %.0f "
                               "ticks of 1 ms): it paces",
                               s.sender.paceMs, static_cast<double>(pairs.size()), median));
    // A path read no faster than the pace lets through (within the 10 % two readings of
    // one rate differ by) carried all it was offered: its rate is a lower bound, as
    // behind a window that held the sender, and a fix that lifts the pace is warned so.
    const DirectionStats& data = in.tcp->connections[in.connection].direction[in.sender];
    const double paceMbps = static_cast<double>(s.sender.mss + 52) * 8 / (s.sender.paceMs * 1e3);
    if (s.path.bottleneckMbps <= 1.1 * paceMbps && out.pathRateUnseen.empty()) {
        out.pathRateUnseen = format("the sender paced its segments %.2f ms apart (%.3f Mb/s with headers) and "
                                    "delivered %.3f Mb/s: ",
                                    s.sender.paceMs, paceMbps, data.goodputBps / 1e6) +
                             format("the path carried all it was offered, so its rate is at least %.3f Mb/s but "
                                    "not known beyond",
                                    s.path.bottleneckMbps);
        out.notes.push_back("path.bottleneck_mbps: a lower bound; " + out.pathRateUnseen);
    }
}

void deriveRtoRule(const DerivationInput& in, DerivationContext& ctx, DerivedScenario& out)
{
    const DownstreamView& downstream = ctx.downstream;
    Scenario& s = out.scenario;
    const RtoRuleReading r = downstream.downstream ? readDownstreamRtoRule(in, downstream, s.sender.minRtoMs)
                                                   : readRtoRule(in, s.sender.minRtoMs);
    // The stack the inference chose has one rule where it is ns-3's (TcpSocketBase):
    // timers read at or above Linux's bound there were backed off from a start the
    // capture did not see.
    const bool ns3 = s.sender.stack == cwnd::modelStackName(cwnd::ModelStack::Ns3);
    if (ns3 && (r.timeouts == 0 || r.underLinuxBound < r.timeouts)) {
        s.sender.rtoRfc6298 = true;
        out.notes.push_back(format(
            "sender.rto_rfc6298 on: ns-3's bound, max(min_rto, srtt + 4 rttvar) as RFC 6298, "
            "the only rule of the stack the inference chose (%.0f of the capture's %.0f first "
            "timeouts ran out under Linux's bound)",
            static_cast<double>(r.underLinuxBound), static_cast<double>(r.timeouts)));
        return;
    }
    if (r.timeouts == 0) {
        out.notes.push_back("sender.rto: Linux's bound, srtt + max(4 rttvar, min_rto) (no timeout in the capture to "
                            "read it from)");
        return;
    }
    if (r.underLinuxBound < r.timeouts) {
        out.notes.push_back(format("sender.rto: Linux's bound, srtt + max(4 rttvar, min_rto): %.0f of the capture's "
                                   "%.0f first timeouts ran out at or above it",
                                   static_cast<double>(r.timeouts - r.underLinuxBound),
                                   static_cast<double>(r.timeouts)) +
                            format(" (shortest %.1f ms at an SRTT of %.1f ms)", r.shortestTimerMs,
                                   r.srttAtShortestMs));
        return;
    }
    s.sender.rtoRfc6298 = true;
    s.sender.minRtoMs = std::min(s.sender.minRtoMs, r.shortestTimerMs);
    if (downstream.downstream)
        out.notes.push_back("sender.rto: read downstream, the timers on the sender's clock (its TSvals), the SRTT from "
                            "the receiver's ACKs to the data they released");
    out.notes.push_back(format("sender.rto_rfc6298 on, min_rto_ms %.0f: all %.0f first timeouts of the capture ran out "
                               "under Linux's bound (shortest %.1f ms",
                               s.sender.minRtoMs, static_cast<double>(r.timeouts), r.shortestTimerMs) +
                        format(" at an SRTT of %.1f ms): max(min_rto, srtt + 4 rttvar) as RFC 6298",
                               r.srttAtShortestMs));
}

void noteLossRecovery(const DerivationInput&, DerivationContext&, DerivedScenario& out)
{
    const Scenario& s = out.scenario;
    if (s.sender.rackTlp)
        out.notes.push_back("sender.rack_tlp on: Linux's loss recovery (RFC 8985) with its " + s.sender.cc + " model");
}

} // namespace windscope::analysis::replay::derive
