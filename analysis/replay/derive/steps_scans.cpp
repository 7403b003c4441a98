// SPDX-License-Identifier: GPL-3.0-or-later
// The scan step of deriveScenario(): at the AP's radio, a station's background scans as
// the AP's retries show them. A scan announced as power save (802.11-2020 11.2.3) lets
// the AP hold new frames, but those already in its hardware queue are still sent to
// the absent station, each retried with a doubling contention window until the station
// answers or the retry limit drops it (10.3.4.3, 10.23.2.12; ns-3
// WifiRemoteStationManager::NeedRetransmission). So a scan shows only when it met a
// frame in that queue, and the scans it met are a sample of a periodic pattern: the
// scans it did not meet still cost the station its ACKs' timing and, at the next
// backlog, a frame. The step replaces the scans the capture lists one by one by the
// periodic pattern they sample (period, phase, dwell), in power-save-announced mode,
// with the retry limit and the hardware queue depth the AP's retries show.

#include "derivation_steps.h"

#include "analysis/wlan/wlan_frames.h"
#include "sample_statistics.h"
#include "scan_period.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>

namespace windscope::analysis::replay::derive {

namespace {

// Dropped retry chains of one length needed before that length is taken as the limit
// (a chain acknowledged at its last attempt by chance does not repeat).
constexpr std::size_t kMinDroppedChains = 3;

// One transmission of the AP to the station: its time, sequence number, whether the
// next frame acknowledged it.
struct Attempt
{
    std::int64_t ns = 0;
    std::uint16_t sequence = 0;
    bool acked = false;
    // From the station's ACK of the AP's previous frame to this attempt, as stamped; -1:
    // the attempt did not follow such an ACK.
    std::int64_t sinceAnswerNs = -1;
};

// How long a pause the station waits for to leave, where its power-save announcement is
// not on air. It leaves only between exchanges, and the AP, holding new frames from the
// scan's start, sends it what its radio already has: within a scan, the pauses after
// which the station still answered are shorter than its wait, the pause before the
// attempt that met it gone at least as long. The wait is the threshold that splits them
// with fewest exceptions (a collision at the scan's start looks like a departure),
// midway between the longest pause stayed through and the shortest gone at. Pauses are
// read from the stamps (start or end of a frame, by capture), so they are put on the
// medium's clock by the shortest one the AP ever waited after an ACK: a DIFS, with
// no backoff slot drawn.
struct LeavePause
{
    bool found = false;
    double us = 0;
    std::size_t stayed = 0, gone = 0, exceptions = 0;
    double offsetUs = 0;
};

LeavePause leavePauseOf(std::vector<std::pair<std::int64_t, bool>> pauses, std::int64_t shortestNs,
                        double difsUs)
{
    LeavePause out;
    for (const auto& [ns, gone] : pauses)
        (gone ? out.gone : out.stayed) += 1;
    if (out.gone == 0 || out.stayed == 0 || shortestNs < 0)
        return out;
    std::sort(pauses.begin(), pauses.end());
    // A threshold between pauses[i - 1] and pauses[i] excepts the stays from i on and
    // the departures before i.
    std::size_t stayedAbove = out.stayed, goneBelow = 0, best = pauses.size() + 1;
    double threshold = 0;
    for (std::size_t i = 1; i < pauses.size(); ++i) {
        if (pauses[i - 1].second)
            ++goneBelow;
        else
            --stayedAbove;
        if (pauses[i].first != pauses[i - 1].first && stayedAbove + goneBelow < best) {
            best = stayedAbove + goneBelow;
            threshold = static_cast<double>(pauses[i - 1].first + pauses[i].first) / 2;
        }
    }
    if (best > pauses.size())
        return out;
    out.exceptions = best;
    out.offsetUs = static_cast<double>(shortestNs) / 1e3 - difsUs;
    out.us = threshold / 1e3 - out.offsetUs;
    out.found = out.us > difsUs;
    return out;
}

// The scans' line through the early edge of times that lag them by a varying amount,
// never lead them: each time's cycle from the fold, a least-squares line, then again
// through the times on or below it. Times far from the phase (collisions that reached a
// few retries) stay out of it. Cycle 0 is the first time's.
struct ScanLine
{
    double firstS = 0, periodS = 0;
};
ScanLine earlyEdgeLine(const std::vector<double>& timesS, const PeriodFit& fit)
{
    const double meanPhase = fold(timesS, fit.periodS).second;
    const std::vector<double> deviations = phaseDeviations(timesS, fit.periodS, meanPhase);
    std::vector<double> cycles;
    for (std::size_t i = 0; i < timesS.size(); ++i)
        cycles.push_back(std::round((timesS[i] - deviations[i] - meanPhase) / fit.periodS));
    const auto lineThrough = [&](const std::vector<std::size_t>& use, double& offsetS, double& slopeS) {
        double sx = 0, sy = 0, sxx = 0, sxy = 0;
        for (const std::size_t i : use) {
            sx += cycles[i];
            sy += timesS[i];
            sxx += cycles[i] * cycles[i];
            sxy += cycles[i] * timesS[i];
        }
        const double m = static_cast<double>(use.size()), det = m * sxx - sx * sx;
        slopeS = det > 0 ? (m * sxy - sx * sy) / det : fit.periodS;
        offsetS = (sy - slopeS * sx) / m;
    };
    std::vector<std::size_t> all;
    for (std::size_t i = 0; i < timesS.size(); ++i)
        if (std::abs(deviations[i]) <= fit.periodS / 8)
            all.push_back(i);
    double offsetS = 0, periodS = fit.periodS;
    lineThrough(all, offsetS, periodS);
    std::vector<std::size_t> early;
    for (const std::size_t i : all)
        if (timesS[i] <= offsetS + periodS * cycles[i])
            early.push_back(i);
    if (early.size() >= 2)
        lineThrough(early, offsetS, periodS);
    return {offsetS + periodS * cycles.front(), periodS};
}

// Captured on the station's own radio (basis "deaf-retry"): each stretch it heard
// nothing in, ended by a frame that shows it missed others, holds a scan. The radio left after the last frame it
// heard and was back by the first, so each stretch is at least the dwell, and its end
// lags the scan's end by the wait for the next attempt, never leads it.
void deriveDeafScans(const DerivationInput& in, DerivedScenario& out, const std::vector<const WlanEvent*>& runs)
{
    Scenario& s = out.scenario;
    const dissect::WlanColumns& w = in.tables->wlan;
    std::vector<std::int64_t> ends;
    for (const WlanEvent* e : runs)
        ends.push_back(e->endNs);
    const double n = static_cast<double>(ends.size());
    if (ends.size() < kMinAbsences) {
        out.notes.push_back(format("scan absences: %.0f stretches the station's own radio heard nothing in, fewer "
                                   "than %.0f: the scans stay as listed",
                                   n, static_cast<double>(kMinAbsences)));
        return;
    }
    const std::vector<double> timesS = secondsFromFirst(ends);
    const PeriodFit fit = searchPeriod(timesS);
    if (!fit.found) {
        out.notes.push_back(format("scan absences: %.0f stretches the station's own radio heard nothing in, no "
                                   "period concentrates their ends (R %.2f, Rayleigh -ln p %.1f): the scans stay "
                                   "as listed",
                                   n, fit.r, fit.z));
        return;
    }
    const ScanLine line = earlyEdgeLine(timesS, fit);
    const double meanPhase = fold(timesS, fit.periodS).second;
    const std::vector<double> deviations = phaseDeviations(timesS, fit.periodS, meanPhase);
    std::vector<double> stretchesMs;
    for (std::size_t i = 0; i < runs.size(); ++i)
        if (std::abs(deviations[i]) <= fit.periodS / 8)
            stretchesMs.push_back(static_cast<double>(runs[i]->endNs - runs[i]->startNs) / 1e6);
    if (stretchesMs.size() < kMinAbsences)
        return;
    // Each stretch bounds the dwell from above; the 10th percentile, as the AP's
    // capture takes the station's answers.
    const double dwellMs = percentile(stretchesMs, 0.1);
    const auto dwellNs = static_cast<std::int64_t>(dwellMs * 1e6);
    const auto scanStartNs = [&](std::int64_t k) {
        return ends.front() + static_cast<std::int64_t>((line.firstS + static_cast<double>(k) * line.periodS) * 1e9) -
               dwellNs;
    };
    // Scans before the first seen: back to the earliest cycle whose window's first half
    // (its edges are uncertain by a frame or two) the radio heard nothing in.
    const auto heardWithin = [&](std::int64_t fromNs) {
        const auto it = std::lower_bound(w.timeNs.begin(), w.timeNs.end(), fromNs);
        return it != w.timeNs.end() && *it < fromNs + dwellNs / 2;
    };
    std::int64_t firstCycle = 0;
    while (scanStartNs(firstCycle - 1) >= out.firstDataNs && !heardWithin(scanStartNs(firstCycle - 1)))
        --firstCycle;
    PeriodicScan& scan = s.periodicScan;
    scan.intervalMs = line.periodS * 1000;
    scan.dwellMs = dwellMs;
    scan.mode = OutageMode::PsAnnounced;
    // In simulated time: the radio sees the sender's data one wired delay after it left.
    scan.firstS = std::max(0.0, static_cast<double>(scanStartNs(firstCycle) - out.firstDataNs) / 1e9 +
                                    s.path.wiredDelayMs / 1000);
    scan.untilS = 0;
    const std::size_t listed = s.outageList.size();
    std::erase_if(s.outageList, [](const Outage& o) { return o.kind == OutageKind::Scan; });
    out.notes.push_back(
        format("periodic_scan: %.1f ms off every %.2f ms from %.3f s (power save announced): ", scan.dwellMs,
               scan.intervalMs, scan.firstS) +
        format("%.0f stretches the station's own radio heard nothing in, each ended by a frame showing it missed "
               "others, fold at that period by their ends (R %.2f, Rayleigh -ln p %.1f ",
               n, fit.r, fit.z) +
        format("against %.1f); the dwell is the 10th percentile of the %.0f at its phase, each at least the "
               "dwell; %.0f listed scans replaced",
               fit.thresholdZ, static_cast<double>(stretchesMs.size()),
               static_cast<double>(listed - s.outageList.size())));
}

// The AP's retry absences of the station with the most of them (the connection's): the
// starts of the absences they hold. One absence can hold several retry runs: after a
// drop at the retry limit the AP moves to the next queued frame within AIFS, a backoff
// of CWmin slots and one exchange.
struct RetryAbsences
{
    std::uint32_t station = 0;
    std::vector<std::int64_t> starts;
};
RetryAbsences retryAbsencesOf(const WlanEvents& events, const Scenario& s)
{
    // (Named apart, not bound: lambdas capture the station.)
    const auto found = absencesOfMostAbsentStation(events, "retry-absence");
    RetryAbsences out;
    out.station = found.first;
    const auto usNs = [](double us) { return static_cast<std::int64_t>(us * 1000); };
    const double frameUs = s.mac.preambleUs + (s.sender.mss + 88) * 8 / s.mac.phyRateMbps;
    const std::int64_t nextMpduNs =
        usNs(s.mac.firstAttemptAccessUs() + 2 * frameUs + s.mac.preambleUs + 14 * 8 / s.mac.basicRateMbps);
    std::int64_t lastEnd = -1;
    for (const WlanEvent* e : found.second) {
        if (out.starts.empty() || e->startNs - lastEnd > nextMpduNs)
            out.starts.push_back(e->startNs);
        lastEnd = std::max(lastEnd, e->endNs);
    }
    return out;
}

// The AP's attempts to the station and what the station sent (it was there).
struct StationTraffic
{
    std::vector<Attempt> attempts;
    std::vector<std::int64_t> heard;
};
StationTraffic trafficOf(const dissect::WlanColumns& w, std::uint32_t station)
{
    StationTraffic out;
    const auto isDataToStation = [&](std::size_t row) {
        const std::uint16_t fc = w.frameControl[row];
        return !wlan::badFcs(w, row) && wlan::frameType(fc) == wlan::kData && wlan::fromDs(fc) &&
               !wlan::toDs(fc) && w.addr1(row) == station;
    };
    for (std::size_t row = 0; row < w.size(); ++row) {
        if (wlan::badFcs(w, row))
            continue;
        const std::uint16_t fc = w.frameControl[row];
        const std::uint8_t type = wlan::frameType(fc);
        if (isDataToStation(row) && w.sequenceControl[row] != 0xffff) {
            Attempt a{w.timeNs[row], static_cast<std::uint16_t>(w.sequenceControl[row] >> 4), false};
            if (row + 1 < w.size() && wlan::isAckTo(w, row + 1, w.addr2(row)))
                a.acked = true;
            if (row >= 2 && wlan::isAckTo(w, row - 1, w.addr2(row)) && isDataToStation(row - 2))
                a.sinceAnswerNs = w.timeNs[row] - w.timeNs[row - 1];
            out.attempts.push_back(a);
        } else if (type != wlan::kControl && w.addr2(row) == station) {
            out.heard.push_back(w.timeNs[row]);
        }
    }
    return out;
}

// What the AP's retries tell of the scans on a line (scan k from originNs + (firstS + k
// periodS) s): per scan that met the AP's frames, how long the station was away at least
// and back by; the pauses it stayed through and left at; the chains the AP gave up; the
// most frames one absence was sent.
struct AbsenceReading
{
    std::vector<double> awayMs, backMs;
    LeavePause leave;
    RetryChains chains;
    bool dwellRead() const { return !awayMs.empty() && !backMs.empty(); }
    // The dwell lies between the last unacknowledged attempt and the station's answer:
    // the station answers at once when it comes back with frames queued, so the early
    // bounds are tight; midway between the bounds most scans agree with (the 90th
    // percentile of the first, the 10th of the second). Bounds that cross (a scan that
    // began later than its run shows) leave the lower: the station was away that long in
    // most scans.
    double dwellLowMs() const { return percentile(awayMs, 0.9); }
    double dwellHighMs() const { return percentile(backMs, 0.1); }
    double dwellMs() const
    {
        const double low = dwellLowMs(), high = dwellHighMs();
        return low <= high ? (low + high) / 2 : low;
    }
};
AbsenceReading readAbsences(const StationTraffic& traffic, const Scenario& s, const RetryAbsences& absences,
                            std::int64_t originNs, const ScanLine& line)
{
    const double firstScanS = line.firstS, periodS = line.periodS;
    const auto scanStartNs = [&](std::int64_t k) {
        return originNs + static_cast<std::int64_t>((firstScanS + static_cast<double>(k) * periodS) * 1e9);
    };
    const auto cycleOf = [&](std::int64_t ns) {
        return static_cast<std::int64_t>(
            std::floor((static_cast<double>(ns - originNs) / 1e9 - firstScanS) / periodS + 0.5));
    };
    // A run that began before the line says (the line is a fit) starts that scan.
    std::map<std::int64_t, std::int64_t> seenStartNs;
    for (const std::int64_t ns : absences.starts)
        seenStartNs.try_emplace(cycleOf(ns), ns);
    const auto cycleStartNs = [&](std::int64_t k) {
        const auto it = seenStartNs.find(k);
        return it != seenStartNs.end() ? std::min(it->second, scanStartNs(k)) : scanStartNs(k);
    };
    const std::vector<Attempt>& attempts = traffic.attempts;
    const std::vector<std::int64_t>& heard = traffic.heard;
    AbsenceReading out;
    // Per scan that met the AP's frames: the station was away at the end of its last
    // unacknowledged attempt and back by the first frame it acknowledged or sent.
    const double frameUs = s.mac.preambleUs + (s.sender.mss + 88) * 8 / s.mac.phyRateMbps;
    const auto attemptNs = static_cast<std::int64_t>(frameUs * 1000);
    std::map<std::int64_t, std::pair<std::int64_t, std::int64_t>> bounds; // cycle -> (away until, back by)
    std::map<std::int64_t, std::uint32_t> mpdusPerScan;
    for (std::size_t i = 0; i < attempts.size(); ++i) {
        const Attempt& a = attempts[i];
        const std::int64_t k = cycleOf(a.ns);
        const std::int64_t since = a.ns - cycleStartNs(k);
        if (since < 0 || since > static_cast<std::int64_t>(periodS / 2 * 1e9))
            continue;
        auto& [awayUntil, backBy] = bounds.try_emplace(k, 0, std::int64_t{-1}).first->second;
        if (backBy >= 0)
            continue;
        if (a.acked) {
            backBy = since;
        } else {
            awayUntil = since + attemptNs;
            if (i == 0 || attempts[i - 1].sequence != a.sequence || cycleOf(attempts[i - 1].ns) != k)
                ++mpdusPerScan[k];
        }
    }
    for (const std::int64_t ns : heard) {
        const std::int64_t k = cycleOf(ns);
        const auto it = bounds.find(k);
        const std::int64_t since = ns - cycleStartNs(k);
        if (it != bounds.end() && since >= it->second.first && (it->second.second < 0 || since < it->second.second))
            it->second.second = since;
    }
    for (const auto& [k, b] : bounds) {
        if (b.first <= 0)
            continue;
        out.awayMs.push_back(static_cast<double>(b.first) / 1e6);
        if (b.second >= 0)
            out.backMs.push_back(static_cast<double>(b.second) / 1e6);
    }
    // The pauses the station stayed through after each scan's start, and the one before
    // the attempt that found it gone.
    std::vector<std::pair<std::int64_t, bool>> pauses; // (pause as stamped, gone)
    std::int64_t shortestNs = -1;
    for (const Attempt& a : attempts) {
        if (a.sinceAnswerNs < 0)
            continue;
        if (shortestNs < 0 || a.sinceAnswerNs < shortestNs)
            shortestNs = a.sinceAnswerNs;
        const std::int64_t k = cycleOf(a.ns);
        const auto seen = seenStartNs.find(k);
        if (seen == seenStartNs.end() || a.ns < cycleStartNs(k) || a.ns > seen->second)
            continue;
        // The absence's first attempt found the station gone; one unanswered before it
        // was answered at its retry (a collision): the station was there.
        if (a.ns == seen->second)
            pauses.emplace_back(a.sinceAnswerNs, true);
        else if (a.acked)
            pauses.emplace_back(a.sinceAnswerNs, false);
    }
    out.leave = leavePauseOf(std::move(pauses), shortestNs, s.mac.difsUs());
    // The retry limit: the attempts of the chains the AP gave up (the next attempt a new
    // frame), when one length repeats.
    std::map<std::uint32_t, std::size_t> dropped; // attempts -> chains
    for (std::size_t i = 0, j = 0; i < attempts.size(); i = j) {
        for (j = i + 1; j < attempts.size() && attempts[j].sequence == attempts[i].sequence; ++j) {
        }
        if (j < attempts.size() && !attempts[j - 1].acked && j - i > 1)
            ++dropped[static_cast<std::uint32_t>(j - i)];
    }
    for (const auto& [len, count] : dropped)
        if (count >= kMinDroppedChains && count >= out.chains.count) {
            out.chains.attempts = len;
            out.chains.count = count;
        }
    for (const auto& [k, m] : mpdusPerScan)
        out.chains.mostMpdus = std::max(out.chains.mostMpdus, m);
    return out;
}

std::string leavePauseNote(double pauseUs, const LeavePause& leave)
{
    if (leave.found)
        return format("mac.station_leave_pause_us %.0f: no announcement on air; within the scans the station "
                      "answered after %.0f pauses shorter and was gone after %.0f longer",
                      leave.us, static_cast<double>(leave.stayed), static_cast<double>(leave.gone)) +
               format(" (%.0f exceptions; stamps %.0f us after the medium's clock)",
                      static_cast<double>(leave.exceptions), leave.offsetUs);
    return format("mac.station_leave_pause_us %.0f: no announcement on air, and the scans show %.0f pauses stayed "
                  "through and %.0f gone at: an ACKTimeout, once no response follows",
                  pauseUs, static_cast<double>(leave.stayed), static_cast<double>(leave.gone));
}

} // namespace

std::pair<std::uint32_t, std::vector<const WlanEvent*>> absencesOfMostAbsentStation(const WlanEvents& events,
                                                                                   const char* basis)
{
    std::map<std::uint32_t, std::vector<const WlanEvent*>> byStation;
    for (const WlanEvent& e : events.events)
        if ((e.kind == WlanEventKind::Scan || e.kind == WlanEventKind::Absence) && std::strcmp(e.basis, basis) == 0)
            byStation[e.station].push_back(&e);
    if (byStation.empty())
        return {};
    return *std::max_element(byStation.begin(), byStation.end(),
                             [](const auto& a, const auto& b) { return a.second.size() < b.second.size(); });
}

// The pattern from the station's own radio, where no earlier step read one (the held
// releases read the scans and the path around them from the data): the simulator holds
// the AP's frames through it with or without the 802.11 model.
void deriveStationRadioScans(const DerivationInput& in, DerivationContext&, DerivedScenario& out)
{
    if (!in.events || out.scenario.periodicScan.intervalMs > 0)
        return;
    const auto found = absencesOfMostAbsentStation(*in.events, "deaf-retry");
    if (!found.second.empty())
        deriveDeafScans(in, out, found.second);
}

std::string applyRetryChains(const RetryChains& chains, MacParams& mac)
{
    if (chains.attempts > 1)
        mac.retryLimit = chains.attempts - 1; // attempts after the first (scenario.h)
    mac.hwQueueFrames = std::max(mac.hwQueueFrames, chains.mostMpdus);
    return (chains.attempts > 1
                ? format("mac.retry_limit %.0f: %.0f chains the AP gave up after %.0f attempts", mac.retryLimit,
                         static_cast<double>(chains.count), chains.attempts)
                : format("mac.retry_limit %.0f: no chain length the AP gave up at repeats", mac.retryLimit)) +
           format("; mac.hw_queue_frames %.0f: at least the %.0f frames one absence was sent", mac.hwQueueFrames,
                  chains.mostMpdus);
}

RetriedScans readRetriedScans(const DerivationInput& in, const Scenario& s, std::int64_t scanStartNs, double periodS)
{
    RetriedScans out;
    if (!in.events || !s.mac.enabled || in.tables->wlan.frame.empty())
        return out;
    const RetryAbsences absences = retryAbsencesOf(*in.events, s);
    if (absences.starts.empty())
        return out;
    const AbsenceReading reading =
        readAbsences(trafficOf(in.tables->wlan, absences.station), s, absences, scanStartNs, {0, periodS});
    out.bounded = std::min(reading.awayMs.size(), reading.backMs.size());
    if (!reading.dwellRead())
        return out;
    out.dwellLowMs = reading.dwellLowMs();
    out.dwellHighMs = reading.dwellHighMs();
    if (reading.leave.found && s.mac.stationLeavePauseUs > 0) {
        out.leaveFound = true;
        out.leaveUs = reading.leave.us;
        out.leaveNote = leavePauseNote(reading.leave.us, reading.leave);
    }
    out.chains = reading.chains;
    return out;
}

void deriveScanAbsences(const DerivationInput& in, DerivationContext&, DerivedScenario& out)
{
    Scenario& s = out.scenario;
    const dissect::CaptureTables& tables = *in.tables;
    const dissect::WlanColumns& w = tables.wlan;
    if (!in.events || !s.mac.enabled || w.frame.empty())
        return;
    // The scans found in the AP's unacknowledged retries (not announced on air), with
    // the runs too short to be called scans on their own (absences), by station; the
    // station with the most is the connection's. Runs the events admitted for ending on
    // the station's period are left out: their evidence is that period, and only their
    // end is on it, where the fold below reads the starts.
    const RetryAbsences absences = retryAbsencesOf(*in.events, s);
    const std::vector<std::int64_t>& starts = absences.starts;
    if (starts.empty())
        return;
    if (starts.size() < kMinAbsences) {
        out.notes.push_back(format("scan absences: %.0f seen in the AP's retries, fewer than %.0f: the scans stay as "
                                   "listed",
                                   static_cast<double>(starts.size()), static_cast<double>(kMinAbsences)));
        return;
    }
    // The period: fold the absences' starts over the candidates.
    const std::vector<double> timesS = secondsFromFirst(starts);
    const PeriodFit fit = searchPeriod(timesS);
    const double n = static_cast<double>(timesS.size());
    if (!fit.found) {
        out.notes.push_back(
            format("scan absences: %.0f in the AP's retries, no period concentrates them (R %.2f, "
                   "Rayleigh -ln p %.1f): the scans stay as listed",
                   n, fit.r, fit.z));
        return;
    }
    const double r = fit.r, thresholdZ = fit.thresholdZ;
    // A scan starts at or before its first unacknowledged attempt (the AP may be in a
    // backoff when the station leaves, or meet the scan with a later frame): the starts
    // lag the scans by a varying amount, never lead them.
    const ScanLine line = earlyEdgeLine(timesS, fit);
    const std::int64_t originNs = starts.front();
    const StationTraffic traffic = trafficOf(w, absences.station);
    const AbsenceReading reading = readAbsences(traffic, s, absences, originNs, line);
    if (!reading.dwellRead())
        return;
    const double dwellMs = reading.dwellMs();
    const std::string chains = applyRetryChains(reading.chains, s.mac);
    const LeavePause& leave = reading.leave;
    // The pattern, in simulated time (the radio sees the sender's data one wired delay
    // after it left).
    const double radioShiftS = s.path.wiredDelayMs / 1000;
    PeriodicScan& scan = s.periodicScan;
    scan.intervalMs = line.periodS * 1000;
    scan.dwellMs = dwellMs;
    scan.mode = OutageMode::PsAnnounced;
    // A station whose announcements are not on air (deriveMac()) waits for a pause to
    // leave in, as long as the scans show it.
    const bool announcesOnAir = s.mac.stationLeavePauseUs == 0;
    if (!announcesOnAir && leave.found)
        s.mac.stationLeavePauseUs = leave.us;
    // Scans before the first one seen met no queued frame, or were not there: the
    // pattern starts at the earliest cycle back to which no frame the station
    // acknowledged or sent falls in a scan's window.
    const auto scanStartNs = [&](std::int64_t k) {
        return originNs + static_cast<std::int64_t>((line.firstS + static_cast<double>(k) * line.periodS) * 1e9);
    };
    const auto dwellNs = static_cast<std::int64_t>(dwellMs * 1e6);
    const auto present = [&](std::int64_t fromNs) {
        // The first half of the window: its edges are uncertain by a frame or two.
        const auto inWindow = [&](std::int64_t ns) { return ns >= fromNs && ns < fromNs + dwellNs / 2; };
        return std::any_of(traffic.attempts.begin(), traffic.attempts.end(),
                           [&](const Attempt& a) { return a.acked && inWindow(a.ns); }) ||
               std::any_of(traffic.heard.begin(), traffic.heard.end(), inWindow);
    };
    std::int64_t firstCycle = 0;
    while (scanStartNs(firstCycle - 1) >= out.firstDataNs && !present(scanStartNs(firstCycle - 1)))
        --firstCycle;
    scan.firstS = std::max(0.0, static_cast<double>(scanStartNs(firstCycle) - out.firstDataNs) / 1e9 + radioShiftS);
    scan.untilS = 0;
    const std::size_t listed = s.outageList.size();
    std::erase_if(s.outageList, [](const Outage& o) { return o.kind == OutageKind::Scan; });
    char buf[700];
    std::snprintf(
        buf, sizeof buf,
        "periodic_scan: %.1f ms off every %.2f ms from %.3f s (power save announced): %zu absences "
        "in the AP's retries fold at that period (R %.2f, Rayleigh -ln p %.1f against %.1f); the "
        "dwell lies between the last unacknowledged attempt (90th percentile %.1f ms) and the "
        "station's answer (10th percentile %.1f ms) over %zu scans; %zu listed scans replaced",
        scan.dwellMs, scan.intervalMs, scan.firstS, starts.size(), r, fit.z, thresholdZ, reading.dwellLowMs(),
        reading.dwellHighMs(), reading.awayMs.size(), listed - s.outageList.size());
    out.notes.push_back(buf);
    if (announcesOnAir)
        out.notes.push_back(
            "mac.station_leave_pause_us 0: frames to the AP carry the Power Management bit: the "
            "station announces its scans on air and leaves once the AP has the announcement");
    else
        out.notes.push_back(leavePauseNote(s.mac.stationLeavePauseUs, leave));
    out.notes.push_back(chains);
}

} // namespace windscope::analysis::replay::derive
