// SPDX-License-Identifier: GPL-3.0-or-later
// The outage steps of deriveScenario(): 802.11 events, a station's absences, a base
// station's zero-window holds, periodic outages found in the losses, and lone losses.
#include "derivation_steps.h"

#include "periodic_outages.h"
#include "analysis/wlan/wlan_frames.h"
#include "sample_statistics.h"

#include <algorithm>
#include <cstdio>
#include <limits>
#include <map>
#include <optional>
#include <set>

namespace windscope::analysis::replay::derive {

namespace {

// Periodic outages from the sender's losses, for a connection no 802.11 frame carries:
// a background scan (paper 004) is invisible there except in the phase its losses
// cluster at (periodic_outages.h). A pattern found becomes the scenario's periodic
// scan; the losses it does not explain are left to the random-loss fit.
// inferred: the TCP-inferred outages in the scenario's outage list (index, capture
// start and end); those the pattern explains are taken out again.
// Downstream of the losses the same detector folds the holes instead: each missing
// segment at the time it would have arrived, among the segments that did.
void findPeriodicOutages(const DerivationInput& in, DerivedScenario& out, double rttMinMs,
                         const std::vector<InferredOutage>& inferred, const DownstreamView& downstream,
                         const std::vector<SenderRtt>& senderRtt)
{
    const dissect::CaptureTables& tables = *in.tables;
    const TcpAnalysis& tcp = *in.tcp;
    const auto& t = tables.tcp;
    Scenario& s = out.scenario;
    // Every data transmission of the sender; one is lost when the same data (by its
    // first sequence number) was sent again later. The resends pair with the
    // transmission they repeat, for the loss episodes below.
    std::vector<TransmissionTime> tx;
    // (time the loss showed, when the lost transmission was sent or would have arrived)
    std::vector<std::pair<std::int64_t, double>> resends;
    if (downstream.downstream) {
        // The round trip from an arrival to the data its ACK released, for the flights
        // lost whole (periodic_outages.h).
        std::vector<double> roundTripsMs;
        for (const UpstreamRttSample& r : downstream.rtt)
            roundTripsMs.push_back(r.rttMs);
        tx = relocateSilenceLosses(downstream.arrivals, percentile(roundTripsMs, 0.5) / 1000);
        for (const MissingSegment& m : downstream.missing)
            resends.emplace_back(m.revealedNs, static_cast<double>(m.expectedNs - out.firstDataNs) / 1e9);
        std::sort(resends.begin(), resends.end());
    } else {
        std::vector<std::pair<std::int64_t, std::size_t>> bySeq; // (relative seq, index), unsorted
        std::vector<std::int64_t> sendNs;
        for (std::size_t row = 0; row < t.size(); ++row) {
            if (tcp.segments.connection[row] != in.connection || t.payloadLength[row] == 0 ||
                tcp.directionOf(tables, row) != in.sender)
                continue;
            bySeq.emplace_back(tcp.relativeSeq(t, row), tx.size());
            sendNs.push_back(t.timeNs[row]);
            tx.push_back({static_cast<double>(t.timeNs[row] - out.firstDataNs) / 1e9, false});
        }
        // Sorted by sequence, then by time: each transmission after the first of its
        // sequence repeats the one before it.
        std::stable_sort(bySeq.begin(), bySeq.end(),
                         [](const auto& a, const auto& b) { return a.first < b.first; });
        for (std::size_t i = 1; i < bySeq.size(); ++i)
            if (bySeq[i].first == bySeq[i - 1].first) {
                tx[bySeq[i - 1].second].lost = true;
                resends.emplace_back(sendNs[bySeq[i].second], tx[bySeq[i - 1].second].timeS);
            }
        std::sort(resends.begin(), resends.end());
    }
    const char* where = downstream.downstream ? "holes at the receiver" : "sender's losses";
    PeriodicOutageOptions options;
    options.placedLosses = downstream.downstream;
    const PeriodicOutageFit fit = detectPeriodicOutages(tx, options);
    if (!fit.found) {
        if (fit.periodS > 0)
            out.notes.push_back(
                format("periodic outages: none (%.0f loss bursts; the strongest period, %.1f ms, "
                       "concentrates them to R %.2f",
                       static_cast<double>(fit.events), fit.periodS * 1000, fit.concentration) +
                format(", Rayleigh -ln p %.1f against a threshold of %.1f): ", fit.rayleighZ,
                       fit.thresholdZ) +
                fit.reason);
        else
            out.notes.push_back("periodic outages: none (" + fit.reason + ")");
        return;
    }
    // Loss episodes as the calibration counts them (metrics.h): runs of resends, a new
    // one more than a mean RTT after the start of the last; one is explained when a
    // transmission it repeats fell in a window.
    const Connection& c = tcp.connections[in.connection];
    const double rttAvgMs = out.downstream ? out.holeMeanRttMs : c.direction[in.sender].rttAvgMs;
    const auto episodeNs = static_cast<std::int64_t>(std::max(1.0, rttAvgMs) * 1e6);
    std::uint64_t episodes = 0, explained = 0;
    std::int64_t episodeStart = 0;
    bool episodeExplained = false;
    std::set<std::int64_t> windowsWithLosses; // the windows an explained episode's losses fell in
    for (std::size_t i = 0; i < resends.size(); ++i) {
        if (i == 0 || resends[i].first - episodeStart > episodeNs) {
            explained += episodeExplained ? 1 : 0;
            ++episodes;
            episodeStart = resends[i].first;
            episodeExplained = false;
        }
        const std::int64_t window = fit.windowAt(resends[i].second, 0.0005);
        episodeExplained = episodeExplained || window >= 0;
        if (window >= 0)
            windowsWithLosses.insert(window);
    }
    explained += episodeExplained ? 1 : 0;
    // The Rayleigh test counts bursts as independent events, but the bursts of one loss
    // episode (one flight's overflow at a slow link, its lost sends a packet time or two
    // apart) are one, and so are the episodes of one outage (a handoff's flight resent
    // over several round trips after its timeout): a pattern whose windows hold fewer
    // episodes, or episodes in fewer windows, than the events the test asks for rests on
    // too few to stand (a 2 Mb/s slow start's overflow, 26 bursts in 2 episodes, made a
    // 156 ms "scan" every 504 ms; a 0.5 s handoff's 13 episodes, all in one window, a
    // 236 ms one).
    if (explained < options.minExplainedEvents || windowsWithLosses.size() < options.minExplainedEvents) {
        out.notes.push_back(format("periodic outages: none (%.0f loss bursts fold at %.1f ms, but its windows hold ",
                                   static_cast<double>(fit.events), fit.periodS * 1000) +
                            format("%.0f loss episodes of %.0f, in %.0f windows, ", static_cast<double>(explained),
                                   static_cast<double>(episodes), static_cast<double>(windowsWithLosses.size())) +
                            format("fewer than %.0f: the bursts were not independent)",
                                   static_cast<double>(options.minExplainedEvents)));
        return;
    }
    // The windows are where the sends were lost; the outage is where they met the
    // radio: one wired one-way delay later, plus the queue they waited in (the median
    // RTT rise of the sends around the windows).
    // Downstream, the holes are where the data met the outage, past the queue: one
    // wired one-way delay after the sender (simulated time 0 is when the first data
    // segment left it, which the capture saw that delay later).
    std::vector<double> nearWindows;
    for (const SenderRtt& r : senderRtt)
        if (fit.covers(static_cast<double>(r.dataNs - out.firstDataNs) / 1e9, fit.periodS / 4))
            nearWindows.push_back(r.ms - rttMinMs);
    const double queueMs = downstream.downstream ? 0 : percentile(nearWindows, 0.5);
    const double shiftS = (s.path.wiredDelayMs + queueMs) / 1000;
    PeriodicScan& scan = s.periodicScan;
    scan.intervalMs = fit.periodS * 1000;
    scan.dwellMs = fit.dwellS * 1000;
    scan.firstS = std::max(0.0, fit.windowStartS + shiftS);
    // Until the end of the run unless the windows stop well before the end of the
    // capture (a baseline slower than the capture runs longer, and the last windows
    // may have met no sends to lose).
    const double lastWindowEnd = fit.windowStartS + static_cast<double>(fit.lastCycle) * fit.periodS + fit.dwellS;
    const double tail = tx.back().timeS - lastWindowEnd;
    scan.untilS = tail < std::max(10 * fit.periodS, 0.1 * tx.back().timeS) ? 0 : lastWindowEnd + shiftS;
    // The sends in the windows were lost, not held: the AP did not keep them.
    scan.mode = OutageMode::Drop;
    // An ACK silence the windows explain is the sender's retransmission timeout after
    // a window took its whole flight (and maybe its retransmission), not an outage of
    // its own: most of the sends lost around it fell in windows. A longer outage (a
    // handoff) loses sends at every phase.
    const double rttS = std::max(1.0, rttAvgMs) / 1000;
    std::vector<std::size_t> explainedSilences;
    // The window's edges are uncertain by the queue's variation (sends of one phase
    // met the radio at different times): half a dwell either side still counts.
    const double silenceMarginS = fit.dwellS / 2;
    // Downstream the sender's attempts during a silence are not seen, and the flight
    // lost whole is one instant (relocateSilenceLosses): the windows explain a silence
    // only as long as the lost flight's round trip, the loss probe (two round trips)
    // and three timeouts (one lost to a window and its doubled retry) take. A handoff
    // starting at a window's phase is longer, and a silence right after it (within a
    // round trip: its last timeout's backoff) is still the handoff's.
    const double longestExplainedS =
        downstream.downstream ? 3 * rttS + 3 * (s.sender.minRtoMs / 1000 + rttS) : 1e300;
    double unexplainedEnd = -1e300;
    for (const InferredOutage& gap : inferred) {
        const double start = static_cast<double>(gap.startNs - out.firstDataNs) / 1e9;
        const double end = static_cast<double>(gap.endNs - out.firstDataNs) / 1e9;
        if (downstream.downstream && (end - start > longestExplainedS || start - unexplainedEnd <= rttS)) {
            unexplainedEnd = end;
            continue;
        }
        std::size_t before = 0, beforeInWindows = 0, during = 0, duringInWindows = 0;
        for (const TransmissionTime& x : tx) {
            if (!x.lost || x.timeS < start - rttS || x.timeS > end)
                continue;
            const bool covered = fit.covers(x.timeS, silenceMarginS);
            (x.timeS < start ? before : during) += 1;
            (x.timeS < start ? beforeInWindows : duringInWindows) += covered ? 1 : 0;
        }
        if (during > 0 ? duringInWindows == during : before > 0 && 2 * beforeInWindows >= before)
            explainedSilences.push_back(gap.index);
        else
            unexplainedEnd = end;
    }
    for (auto it = explainedSilences.rbegin(); it != explainedSilences.rend(); ++it)
        s.outageList.erase(s.outageList.begin() + static_cast<std::ptrdiff_t>(*it));
    char buf[900];
    std::snprintf(
        buf, sizeof buf,
        "periodic_scan: %.1f ms off every %.2f ms from %.2f s (drop), detected in the %s: "
        "%zu loss bursts concentrate at one phase of that period (R %.2f, Rayleigh -ln p %.1f "
        "against %.1f for a false detection rate of 1%% over the periods 50-500 ms); its windows, "
        "where %.0f%% of the sends were lost, hold %zu of the bursts, %zu of %zu lost sends and "
        "%llu of %llu loss episodes; shifted %.1f ms to the radio (wired delay and queue); %zu of "
        "the %zu TCP-inferred outages left out (ACK silences after losses in its windows: "
        "retransmission timeouts)",
        scan.dwellMs, scan.intervalMs, scan.firstS, where, fit.events, fit.concentration,
        fit.rayleighZ, fit.thresholdZ, fit.windowLossShare * 100, fit.explainedEvents,
        fit.explainedLost, fit.lostTransmissions, static_cast<unsigned long long>(explained),
        static_cast<unsigned long long>(episodes), shiftS * 1000, explainedSilences.size(),
        inferred.size());
    out.notes.push_back(buf);
}

// Zero-window ACKs from a base station (paper 001's ACK control, the lab's B zwa
// variants): an ACK that repeats the last one's acknowledgement with window 0 right
// after a full window was offered, then nothing from the receiver's side, not even
// answers to the sender's persist probes (a live receiver answers each with its
// window, RFC 9293 3.8.6.1), until an ACK with the same acknowledgement reopens the
// window. A receiver whose reader stalls closes its window as data arrives, its
// acknowledgement moving, and answers the probes. The episode is an outage the sender
// sat out in persist: the base station answered for the absent station and held the
// downlink, as the ap-zero-window-ack fix does. Times are the base station's: the
// capture's minus the wired one-way delay the ACKs crossed.
struct ZeroWindowHold
{
    std::int64_t closeNs = 0, reopenNs = 0;
    std::uint32_t unansweredProbes = 0;
};

std::vector<ZeroWindowHold> zeroWindowHolds(const DerivationInput& in, std::uint64_t maxWindow)
{
    const dissect::CaptureTables& tables = *in.tables;
    const TcpAnalysis& tcp = *in.tcp;
    const auto& t = tables.tcp;
    std::vector<ZeroWindowHold> holds;
    std::optional<ZeroWindowHold> open;
    std::int64_t lastAck = -1, closedAck = -1;
    std::uint64_t lastWindow = 0;
    for (std::size_t row = 0; row < t.size(); ++row) {
        if (tcp.segments.connection[row] != in.connection)
            continue;
        const int dir = tcp.directionOf(tables, row);
        if (dir == in.sender) {
            // A persist probe: no payload, or the sender's one-byte window probe.
            if (open && t.payloadLength[row] <= 1 && !(t.tcpFlags(row) & 0x07))
                ++open->unansweredProbes;
            continue;
        }
        if (!(t.tcpFlags(row) & 0x010))
            continue;
        const std::int64_t ack = tcp.relativeAck(t, row);
        const std::uint64_t window = tcp.windowBytes(t, row);
        if (open) {
            // The first ACK after the close ends the episode: a base station's reopens
            // at the same acknowledgement after probes went unanswered.
            if (ack == closedAck && window > 0 && open->unansweredProbes > 0) {
                open->reopenNs = t.timeNs[row];
                holds.push_back(*open);
            }
            open.reset();
        } else if (window == 0 && ack == lastAck && 2 * lastWindow >= maxWindow) {
            open = ZeroWindowHold{t.timeNs[row], 0, 0};
            closedAck = ack;
        }
        lastAck = ack;
        lastWindow = window;
    }
    return holds;
}

// A station that left this AP and was not heard from again may have been served by
// another one: the sender's retransmission timeouts from its departure on show when
// the path was back. A timeout resends the head (RFC 6298 5.4), and each one fires
// because the one before it was lost, so the head's repeated transmissions are the
// timeouts; the last got through when the sender then sent anything else (resends
// released by an ACK, new data). The path came back between the last two (the
// midpoint, as for an ACK silence). None: nothing shows a return. Only transmissions up
// to untilNs count (a later outage has its own).
std::optional<std::int64_t> backThroughTimeouts(const DerivationInput& in, std::int64_t leftNs,
                                                std::int64_t untilNs = std::numeric_limits<std::int64_t>::max())
{
    const dissect::CaptureTables& tables = *in.tables;
    const TcpAnalysis& tcp = *in.tcp;
    const auto& t = tables.tcp;
    std::vector<std::pair<std::int64_t, std::int64_t>> sends; // (time, relative seq) from leftNs on
    std::map<std::int64_t, std::uint32_t> counts;              // sends of each seq up to untilNs
    for (std::size_t row = 0; row < t.size(); ++row) {
        if (tcp.segments.connection[row] != in.connection || t.timeNs[row] < leftNs ||
            tcp.directionOf(tables, row) != in.sender || t.payloadLength[row] == 0)
            continue;
        sends.emplace_back(t.timeNs[row], tcp.relativeSeq(t, row));
        if (t.timeNs[row] <= untilNs)
            ++counts[sends.back().second];
    }
    // The head: the sequence sent most often (the lowest of a tie).
    const auto head = std::max_element(counts.begin(), counts.end(),
                                       [](const auto& a, const auto& b) { return a.second < b.second; });
    if (head == counts.end() || head->second < 2)
        return std::nullopt;
    // Its last two sends up to untilNs, and whether anything else followed them.
    std::int64_t previous = -1, last = -1;
    bool released = false;
    for (const auto& [time, seq] : sends) {
        if (seq == head->first && time <= untilNs) {
            previous = last;
            last = time;
            released = false;
        } else if (last >= 0 && seq != head->first) {
            released = true;
        }
    }
    if (!released)
        return std::nullopt;
    return (previous + last) / 2;
}

// An ACK silence seen at the sender, dated at the radio: it began between the arrival
// there of the last data the ACK before it (at lastAckNs) acknowledged and that of the
// first data sent after it that this ACK did not, their midpoint. Each arrived one
// forward delay after it was sent: the last one's round trip less the ACK's way back
// (reverseNs). Without those sends, one way back before the ACK.
std::int64_t silenceStartAtRadio(const DerivationInput& in, std::int64_t lastAckNs,
                                 std::int64_t reverseNs)
{
    const dissect::CaptureTables& tables = *in.tables;
    const TcpAnalysis& tcp = *in.tcp;
    const auto& t = tables.tcp;
    // Back from that ACK: its acknowledgement, then the sends back to the last one it
    // covered (about a flight), the earliest seen of those it did not.
    std::int64_t ack = -1, lastDeliveredNs = -1, firstLostNs = -1;
    for (auto row = static_cast<std::size_t>(
             std::upper_bound(t.timeNs.begin(), t.timeNs.end(), lastAckNs) - t.timeNs.begin());
         row-- > 0;) {
        if (tcp.segments.connection[row] != in.connection)
            continue;
        const bool fromSender = tcp.directionOf(tables, row) == in.sender;
        if (ack < 0) {
            if (!fromSender && (t.tcpFlags(row) & 0x010))
                ack = tcp.relativeAck(t, row);
            continue;
        }
        if (!fromSender || t.payloadLength[row] == 0)
            continue;
        const std::int64_t seq = tcp.relativeSeq(t, row);
        if (seq + static_cast<std::int64_t>(t.payloadLength[row]) <= ack) {
            lastDeliveredNs = t.timeNs[row];
            break;
        }
        if (seq >= ack)
            firstLostNs = t.timeNs[row];
    }
    if (lastDeliveredNs < 0 || firstLostNs < 0)
        return lastAckNs - reverseNs;
    const std::int64_t forwardNs =
        std::max<std::int64_t>(0, lastAckNs - lastDeliveredNs - reverseNs);
    return (lastDeliveredNs + firstLostNs) / 2 + forwardNs;
}

// The station's last frame heard before its departure: nothing went to it unanswered
// between then and the AP's first unanswered attempt because nothing was sent (a
// sender held back, e.g. by a base station's zero-window ACKs), so from the path's side
// it may have been gone from then on.
std::int64_t lastHeardBefore(const dissect::WlanColumns& w, std::uint32_t station, std::int64_t beforeNs)
{
    std::int64_t last = beforeNs;
    for (std::size_t row = 0; row < w.size() && w.timeNs[row] < beforeNs; ++row)
        if (!wlan::badFcs(w, row) && wlan::namesTransmitter(w.frameControl[row]) && w.addr2(row) == station)
            last = w.timeNs[row];
    return last;
}

// The first frame the station sent in (afterNs, untilNs] that this radio heard, untilNs
// if none: the station back in this BSS (its probe requests only search for one). Its
// station: the transmitter of the frame at untilNs (its first ACK here again).
std::int64_t firstHeardBetween(const dissect::WlanColumns& w, std::int64_t afterNs,
                               std::int64_t untilNs)
{
    const auto at = std::lower_bound(w.timeNs.begin(), w.timeNs.end(), untilNs);
    std::size_t row = static_cast<std::size_t>(at - w.timeNs.begin());
    if (row >= w.size() || w.timeNs[row] != untilNs || !wlan::namesTransmitter(w.frameControl[row]))
        return untilNs;
    const std::uint32_t station = w.addr2(row);
    const auto from = std::upper_bound(w.timeNs.begin(), w.timeNs.end(), afterNs);
    for (row = static_cast<std::size_t>(from - w.timeNs.begin());
         row < w.size() && w.timeNs[row] < untilNs; ++row)
        if (!wlan::badFcs(w, row) && wlan::namesTransmitter(w.frameControl[row]) &&
            w.addr2(row) == station &&
            !wlan::isManagement(w.frameControl[row], wlan::subtype::kProbeRequest))
            return w.timeNs[row];
    return untilNs;
}

// Without timeouts (a sender that sat the absence out, e.g. in persist behind a base
// station's zero-window ACKs): data past the right edge of every window the station
// offered here before it left was released by ACKs from elsewhere, so the path was
// back by the first of it.
std::optional<std::int64_t> backPastTheWindowEdge(const DerivationInput& in, std::int64_t leftNs)
{
    const dissect::CaptureTables& tables = *in.tables;
    const TcpAnalysis& tcp = *in.tcp;
    const auto& t = tables.tcp;
    std::int64_t rightEdge = -1;
    for (std::size_t row = 0; row < t.size(); ++row) {
        if (tcp.segments.connection[row] != in.connection)
            continue;
        const bool fromSender = tcp.directionOf(tables, row) == in.sender;
        if (!fromSender) {
            if (t.timeNs[row] < leftNs && (t.tcpFlags(row) & 0x010))
                rightEdge = std::max(rightEdge, tcp.relativeAck(t, row) + static_cast<std::int64_t>(tcp.windowBytes(t, row)));
            continue;
        }
        if (rightEdge >= 0 && t.timeNs[row] >= leftNs && t.payloadLength[row] > 0 &&
            tcp.relativeSeq(t, row) + static_cast<std::int64_t>(t.payloadLength[row]) > rightEdge)
            return t.timeNs[row];
    }
    return std::nullopt;
}

} // namespace

void deriveOutages(const DerivationInput& in, DerivationContext& ctx, DerivedScenario& out)
{
    Scenario& s = out.scenario;
    const dissect::CaptureTables& tables = *in.tables;
    const TcpAnalysis& tcp = *in.tcp;
    const DirectionStats& acks = tcp.connections[in.connection].direction[1 - in.sender];
    const DownstreamView& downstream = ctx.downstream;
    // Outages: 802.11 events of the station, else TCP-inferred ones. Simulated time 0
    // is the first data segment leaving the sender; an event seen at the radio is one
    // wired one-way delay after the sender.
    const double radioShiftS = (s.path.wiredDelayMs) / 1000;
    const double reverseShiftS =
        (s.path.reverseDelayMs >= 0 ? s.path.reverseDelayMs : s.path.wiredDelayMs) / 1000;
    std::uint32_t scans = 0, handoffs = 0, other = 0;
    std::vector<InferredOutage>& inferred = ctx.inferred;
    // A station that went to another AP and came back: two handoffs, and what the radio
    // here reported while it was away (retries to no one) is no outage of the path.
    const std::vector<StationAbsence> absences = stationAbsences(in, downstream);
    const auto duringAbsence = [&](std::int64_t fromNs, std::int64_t toNs) {
        return std::any_of(absences.begin(), absences.end(), [&](const StationAbsence& a) {
            return fromNs < a.returnedNs && toNs > a.leftNs;
        });
    };
    if (in.events) {
        const bool wlan = !tables.wlan.frame.empty();
        for (const WlanEvent& e : in.events->events) {
            if (e.kind == WlanEventKind::OutageInferred && e.connection != static_cast<std::int32_t>(in.connection))
                continue;
            if (duringAbsence(e.startNs, e.endNs))
                continue;
            // A stretch the station's own radio heard nothing in bounds its absence from
            // above (it holds the quiet before the station left and the wait for the AP's
            // next attempt after it came back) and does not say whether the AP held its
            // frames: the scans come from what bounds them from below or dates them (the
            // AP's retries, the held releases).
            if (e.fromStationRadio())
                continue;
            // A station away longer than any scan (roamed, or lost) is out of reach like
            // one in a handoff.
            const bool departed = e.departed();
            Outage o;
            o.kind = e.kind == WlanEventKind::Handoff     ? OutageKind::Handoff
                     : e.kind == WlanEventKind::PowerSave ? OutageKind::PowerSave
                                                          : OutageKind::Scan;
            if (e.kind == WlanEventKind::OutageInferred || departed)
                o.kind = OutageKind::Handoff;
            // An AP that kept sending to the absent station did not hold its frames; a
            // handoff holds them only where the path did (a base station's hold), which
            // the data arriving after it show downstream.
            o.mode = (e.kind == WlanEventKind::Handoff || e.kind == WlanEventKind::OutageInferred ||
                      e.retriesToStation > 0)
                         ? OutageMode::Drop
                         : OutageMode::Hold;
            if (e.kind == WlanEventKind::Handoff && heldThrough(in, downstream, e.startNs, e.endNs))
                o.mode = OutageMode::Hold;
            // Downstream of the path the capture sees the outage where the radio did.
            const double shift = wlan || downstream.downstream ? radioShiftS : 0;
            // The simulator's outages are the radio's: at the sender an ACK silence is
            // dated back to it (silenceStartAtRadio()); the ACK that ended it left the
            // radio one way back before, and a resend reached it one wired delay after
            // it was sent.
            // Over 802.11 (a path gone beyond the radio: outage_inference.cpp) the
            // start is read the same way: the data the last ACK left out met the outage.
            const bool silenceAtSender =
                e.kind == WlanEventKind::OutageInferred && !wlan && !downstream.downstream;
            const bool silenceUpstream = e.kind == WlanEventKind::OutageInferred && !downstream.downstream;
            const double startShift = silenceUpstream ? 0 : shift;
            double endShift = silenceAtSender ? -reverseShiftS : shift;
            const std::int64_t startNs =
                departed ? lastHeardBefore(tables.wlan, e.station, e.startNs)
                : silenceUpstream
                    ? silenceStartAtRadio(in, e.startNs,
                                          static_cast<std::int64_t>(reverseShiftS * 1e9))
                    : e.startNs;
            std::int64_t endNs = e.endNs;
            if (e.kind == WlanEventKind::OutageInferred) {
                // The ACK silence outlasts the outage by the RTO backoff: the path was
                // back between the head's last two sends in the gap, the earlier lost,
                // the later through (backThroughTimeouts(); the head's, not the segments
                // the ACK that ends the gap releases at once).
                if (const std::optional<std::int64_t> back =
                        backThroughTimeouts(in, e.startNs, e.endNs)) {
                    endNs = *back;
                    if (silenceAtSender)
                        endShift = radioShiftS;
                }
            } else if (departed && e.openEnded) {
                std::optional<std::int64_t> back = backThroughTimeouts(in, e.startNs);
                if (!back)
                    back = backPastTheWindowEdge(in, e.startNs);
                if (back)
                    endNs = std::min(endNs, *back);
            }
            o.startS =
                std::max(0.0, static_cast<double>(startNs - out.firstDataNs) / 1e9 + startShift);
            o.durationS = std::max(0.0, static_cast<double>(endNs - out.firstDataNs) / 1e9 +
                                            endShift - o.startS);
            if (o.durationS <= 0)
                continue;
            if (e.kind == WlanEventKind::OutageInferred)
                inferred.push_back({s.outageList.size(), e.startNs, e.endNs});
            if (departed)
                out.notes.push_back(
                    format("outage %.3f s for %.3f s: the station left this AP and is handled as a handoff (drop): ",
                           o.startS, o.durationS) +
                    (!e.openEnded ? std::string("unanswered retries for longer than any scan")
                     : endNs < e.endNs
                         ? std::string("unanswered retries to the end of the capture; its end read from the "
                                       "sender: between its last lost retransmission timeout and the one that got "
                                       "through, else its first data past every window the station offered here")
                         : std::string("unanswered retries to the end of the capture, and nothing shows it back")));
            s.outageList.push_back(o);
            (o.kind == OutageKind::Scan ? scans : o.kind == OutageKind::Handoff ? handoffs : other)++;
        }
    }
    for (const StationAbsence& a : absences) {
        const auto toSim = [&](std::int64_t ns) {
            return std::max(0.0, static_cast<double>(ns - out.firstDataNs) / 1e9 + radioShiftS);
        };
        const OutageMode mode = a.held ? OutageMode::Hold : OutageMode::Drop;
        if (!a.returned) {
            // Its first ACK by the other AP can wait for the sender's next timeout; the
            // timeouts, where the sender had them, date the return closer.
            const std::optional<std::int64_t> byTimeouts = backThroughTimeouts(in, a.leftNs);
            const bool timedOut = byTimeouts && *byTimeouts < a.backElsewhereNs;
            const std::int64_t backNs = timedOut ? *byTimeouts : a.backElsewhereNs;
            Outage o;
            o.kind = OutageKind::Handoff;
            o.mode = mode;
            o.startS = toSim(a.leftNs);
            o.durationS = static_cast<double>(backNs - a.leftNs) / 1e9;
            if (o.durationS <= 0)
                continue;
            s.outageList.push_back(o);
            ++handoffs;
            out.notes.push_back(
                format("outages: the station left this AP at %.3f s and was not seen here again; the sender's data "
                       "passed every window offered here, so it was served by another AP, its first ACK there at "
                       "%.3f s (the first the sender echoed, TSecr); ",
                       o.startS, toSim(a.backElsewhereNs)) +
                format("back from %.3f s: a handoff of %.3f s", toSim(backNs), o.durationS) +
                (a.held ? " (hold: the data forwarded here then had been sent more than half the outage before)"
                        : " (drop)") +
                (timedOut ? " (between the sender's last lost retransmission timeout and the one that got through)"
                          : ""));
            continue;
        }
        // Its first ACK by the other AP can wait for the sender's next timeout (as above).
        std::int64_t backElsewhereNs = a.backElsewhereNs;
        if (const std::optional<std::int64_t> byTimeouts = backThroughTimeouts(in, a.leftNs, a.backElsewhereNs))
            backElsewhereNs = std::clamp(*byTimeouts, a.leftNs, a.backElsewhereNs);
        // Its return here: the first frame this radio heard from it again (its probes and
        // association), not its first ACK, which waits for the data the sender's next
        // timeout resends; a replay whose resend came a little earlier would lose it.
        const std::int64_t returnedNs =
            firstHeardBetween(tables.wlan, a.leftElsewhereNs, a.returnedNs);
        for (const auto& [from, to] : {std::pair{a.leftNs, backElsewhereNs}, std::pair{a.leftElsewhereNs, returnedNs}}) {
            Outage o;
            o.kind = OutageKind::Handoff;
            o.mode = mode;
            o.startS = toSim(from);
            o.durationS = static_cast<double>(to - from) / 1e9;
            if (o.durationS <= 0)
                continue;
            s.outageList.push_back(o);
            ++handoffs;
        }
        char buf[600];
        std::snprintf(buf, sizeof buf,
                      "outages: the station left this AP at %.3f s and came back at %.3f s; the sender's data passed "
                      "every window offered here, so it was served by another AP from %.3f s to %.3f s (the first and "
                      "last of its ACKs the sender echoed, TSecr): handoffs of %.3f s and %.3f s (%s; data on its "
                      "return %s)",
                      toSim(a.leftNs), toSim(a.returnedNs), toSim(backElsewhereNs), toSim(a.leftElsewhereNs),
                      static_cast<double>(backElsewhereNs - a.leftNs) / 1e9,
                      static_cast<double>(returnedNs - a.leftElsewhereNs) / 1e9, a.held ? "hold" : "drop",
                      a.held ? "held more than half the outage, not resent" : "not held");
        out.notes.push_back(buf);
    }
    if (!absences.empty())
        std::sort(s.outageList.begin(), s.outageList.end(),
                  [](const Outage& a, const Outage& b) { return a.startS < b.startS; });
    // Zero-window episodes from a base station: handoffs with the base station's hold
    // and zero-window ACKs in the baseline.
    const std::vector<ZeroWindowHold> holds = zeroWindowHolds(in, acks.maxWindowBytes);
    for (const ZeroWindowHold& h : holds) {
        Outage o;
        o.kind = OutageKind::Handoff;
        o.mode = OutageMode::Drop; // what the old AP still had is lost
        o.startS = std::max(0.0, static_cast<double>(h.closeNs - out.firstDataNs) / 1e9 - reverseShiftS);
        o.durationS = static_cast<double>(h.reopenNs - h.closeNs) / 1e9;
        s.outageList.push_back(o);
        ++handoffs;
        out.notes.push_back(format("outage %.3f s for %.3f s: zero-window ACK control at the base station (a window "
                                   "closed without new data acknowledged, %.0f persist probes unanswered, reopened at "
                                   "the same acknowledgement)",
                                   o.startS, o.durationS, h.unansweredProbes));
    }
    if (!holds.empty()) {
        std::sort(s.outageList.begin(), s.outageList.end(),
                  [](const Outage& a, const Outage& b) { return a.startS < b.startS; });
        if (std::find(s.fixes.begin(), s.fixes.end(), "ap-zero-window-ack") == s.fixes.end())
            s.fixes.push_back("ap-zero-window-ack");
        out.notes.push_back("fixes ap-zero-window-ack: the capture's base station already answers the handoffs with "
                            "zero-window ACKs and holds the downlink; the baseline does the same");
    }
    out.notes.push_back(format("outages: %.0f scans, %.0f handoffs or TCP-inferred outages, %.0f power-save periods",
                               scans, handoffs, other));
}

void derivePeriodicOutages(const DerivationInput& in, DerivationContext& ctx, DerivedScenario& out)
{
    if (!ctx.carriedBy80211)
        findPeriodicOutages(in, out, ctx.rttMin, ctx.inferred, ctx.downstream, ctx.senderRtt);
}

// A segment lost first time alone, while the queue was short, is the radio's loss, not
// the queue's. Too few of them for the random-loss fit (replayCapture() fits a rate to
// more than two episodes), and one such loss can decide when a recovery starts: the
// baseline loses the same segments. Where an outage timeline stands for the losses, it
// explains them. So do periodic scans that drop, or where the 802.11 model makes their
// losses; a scan the AP covers by holding loses nothing without it, and a lone loss that
// met one is the frame the AP's radio held when the station left: placed as the scans'
// (PeriodicScan::lostSegments), whatever their number, since a window cut by a few such
// losses on a long path stays small for seconds, which spread random losses do not
// reproduce.
constexpr std::size_t kMaxPlacedLosses = 2;
void placeLoneLosses(const DerivationInput&, DerivationContext& ctx, DerivedScenario& out)
{
    const SackReadings& readings = ctx.sackReadings;
    Scenario& s = out.scenario;
    if (readings.loneLosses.empty() || !s.outageList.empty() || s.path.lossFwd > 0)
        return;
    const PeriodicScan& scan = s.periodicScan;
    if (scan.intervalMs > 0 && (s.mac.enabled || scan.mode == OutageMode::Drop))
        return;
    std::vector<const SackReadings::LoneLoss*> others;
    std::size_t atScans = 0;
    for (const SackReadings::LoneLoss& l : readings.loneLosses) {
        if (scan.intervalMs > 0) {
            // When it reached the radio, on the simulation's clock (the scans' own):
            // downstream the capture is past the path, one wired delay after the
            // sender; at the sender it is one wired delay and the queue it met ahead.
            const double atRadioS =
                static_cast<double>(l.atNs - out.firstDataNs) / 1e9 + s.path.wiredDelayMs / 1000 +
                (ctx.downstream.downstream ? 0 : l.queueBeforeMs / 1000);
            // At a scan, within a dwell before or after it: the frame was at the radio
            // when the station left, and its arrival there is read with the queue's and
            // the delay split's error. The scan timer ran before the first scan the
            // capture showed.
            const double periodS = scan.intervalMs / 1000, dwellS = scan.dwellMs / 1000;
            double phaseS = std::fmod(atRadioS - scan.firstS, periodS);
            if (phaseS < 0)
                phaseS += periodS;
            if (phaseS <= 2 * dwellS || phaseS >= periodS - dwellS) {
                s.periodicScan.lostSegments.push_back(l.segment);
                ++atScans;
                continue;
            }
        }
        others.push_back(&l);
    }
    out.loneLossesAtScans = atScans;
    out.loneLossesElsewhere = others.size();
    if (scan.intervalMs > 0)
        out.scanLossWindowShare = std::min(1.0, 3 * scan.dwellMs / scan.intervalMs);
    if (atScans > 0)
        out.notes.push_back(format("periodic_scan.lost_segments: %.0f of the %.0f segments lost first time alone "
                                   "(of %.0f lost first time) reached the radio within a dwell of a scan: the frames "
                                   "it held when the station left, which the scans lose without the 802.11 model",
                                   static_cast<double>(atScans), static_cast<double>(readings.loneLosses.size()),
                                   static_cast<double>(readings.firstTransmissionLosses)));
    if (others.empty() || others.size() > kMaxPlacedLosses)
        return;
    for (const SackReadings::LoneLoss* l : others) {
        s.path.lostSegments.push_back(l->segment);
        out.notes.push_back(format("path.lost_segments: segment %.0f lost first time alone (of %.0f lost first "
                                   "time), the queue %.1f ms, under half the fullest a loss met",
                                   static_cast<double>(l->segment),
                                   static_cast<double>(readings.firstTransmissionLosses), l->queueBeforeMs));
    }
}

} // namespace windscope::analysis::replay::derive
