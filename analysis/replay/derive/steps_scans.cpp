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
//
// A scan the capture shows neither in power-save frames nor in retries (the AP held the
// station's frames and none was in flight) still shows in the delivery of the data: a
// silence, then the frames held through it released faster than the path's bottleneck
// can deliver them (deriveHeldReleases).
#include "derivation_steps.h"

#include "analysis/wlan/wlan_frames.h"
#include "periodic_outages.h"
#include "sample_statistics.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <numbers>

namespace windscope::analysis::replay::derive {

namespace {

// Capture times rebuilt from milliseconds or seconds (an RTT sample's ACK, a delivery
// relative to the first data) are within this of the packet they stand for.
constexpr std::int64_t kRebuiltTimeSlackNs = 1'000;
// Fewer absences than this leave the period to chance.
constexpr std::size_t kMinAbsences = 8;
// Family-wise false-detection rate of the period search (as periodic_outages.h).
constexpr double kAlpha = 0.01;
// A scan period is searched between these (issue #19's range; paper 004's 100-300 ms).
constexpr double kMinPeriodS = 0.05, kMaxPeriodS = 1.0;
// A sub-multiple of the period folds the scans as well as the period itself; the
// period is the longest candidate within this share of the best concentration.
constexpr double kHarmonicShare = 0.9;
// Dropped retry chains of one length needed before that length is taken as the limit
// (a chain acknowledged at its last attempt by chance does not repeat).
constexpr std::size_t kMinDroppedChains = 3;
// A silence no longer than two of the longest 802.11n PPDUs (aPPDUMaxTime 5.484 ms,
// 802.11-2020 Table 19-25) may be one aggregate's airtime and its backoff, not an
// absence.
constexpr std::int64_t kMinHeldSilenceNs = 10'968'000;
// Released bytes beyond what the bottleneck could have delivered since the silence
// ended, in segments, for the silence to count as a hold: one segment is a delivery's
// own size (the bytes arrive at once), a second one the timing of the segment before.
constexpr double kMinReleasedAheadSegments = 2;

// One transmission of the AP to the station: its time, sequence number, whether the
// next frame acknowledged it.
struct Attempt
{
    std::int64_t ns = 0;
    std::uint16_t sequence = 0;
    bool acked = false;
};

// Mean resultant length of the times folded at periodS, and its mean phase.
std::pair<double, double> fold(const std::vector<double>& timesS, double periodS)
{
    double c = 0, s = 0;
    for (const double t : timesS) {
        const double a = 2 * std::numbers::pi * std::fmod(t, periodS) / periodS;
        c += std::cos(a);
        s += std::sin(a);
    }
    const double n = static_cast<double>(timesS.size());
    double phase = std::atan2(s, c) / (2 * std::numbers::pi) * periodS;
    if (phase < 0)
        phase += periodS;
    return {std::hypot(c, s) / n, phase};
}

struct PeriodFit
{
    bool found = false;
    double periodS = 0, r = 0;
    double z = 0, thresholdZ = 0; // the Rayleigh test's -ln p at the best R, what it had to exceed
};

// The scan period of times that repeat at it (a scan's start, seen with a frame's jitter):
// the candidates step so that the phase drifts by at most an eighth of a period over
// the times; the longest candidate near the best concentration, refined. The test is
// Bonferroni's over the candidates: the silences a sender's own rhythms leave (a slow
// reader's window, a flight a round trip) are not independent events, and folded over
// hundreds of periods one of them may concentrate past what the independent periods
// alone would allow.
PeriodFit searchPeriod(const std::vector<double>& timesS)
{
    PeriodFit fit;
    if (timesS.size() < kMinAbsences)
        return fit;
    const double spanS = std::max(timesS.back() - timesS.front(), kMaxPeriodS);
    std::vector<std::pair<double, double>> candidates; // (period, R)
    for (double p = kMinPeriodS; p <= kMaxPeriodS; p += p * p / (8 * spanS))
        candidates.emplace_back(p, fold(timesS, p).first);
    double best = 0;
    for (const auto& [p, r] : candidates)
        best = std::max(best, r);
    const double n = static_cast<double>(timesS.size());
    fit.thresholdZ = std::log(static_cast<double>(candidates.size()) / kAlpha);
    fit.r = best;
    fit.z = rayleighSurprise(n, best);
    if (fit.z < fit.thresholdZ)
        return fit;
    for (const auto& [p, rp] : candidates)
        if (rp >= kHarmonicShare * best)
            fit.periodS = p;
    // Refine around the longest candidate, a hundredth of a step at a time.
    const double step = fit.periodS * fit.periodS / (8 * spanS);
    double bestP = fit.periodS;
    fit.r = 0;
    for (double p = fit.periodS - step; p <= fit.periodS + step; p += step / 100)
        if (const double rp = fold(timesS, p).first; rp > fit.r) {
            fit.r = rp;
            bestP = p;
        }
    fit.periodS = bestP;
    fit.z = rayleighSurprise(n, fit.r);
    fit.found = true;
    return fit;
}

// Capture times as seconds from the first, for the fold.
std::vector<double> secondsFromFirst(const std::vector<std::int64_t>& ns)
{
    std::vector<double> timesS;
    for (const std::int64_t t : ns)
        timesS.push_back(static_cast<double>(t - ns.front()) / 1e9);
    return timesS;
}

// A silence in the deliveries that a hold explains: from the last delivery before it to
// the first after it (capture times).
struct Hold
{
    std::int64_t startNs, endNs;
    // Told by the sender's clock (the data after it waited through it), not by a release
    // faster than the bottleneck's rate.
    bool byWait = false;
};

// At the sender a hold shows in its ACKs: they stop, and the first round trip that
// comes back after the silence timed data sent before it, longer than the round trip
// before the silence by at least half the silence (the data waited through most of it
// at the radio). The ACK clock's own gaps (a window-limited sender waiting for its
// flight's ACKs) end in a round trip like the ones before; a loss ends in a resend,
// which times nothing (Karn). No rate is needed: the rate read from ACKs is what the
// releases after the holds inflate.
std::vector<Hold> heldAckSilences(const std::vector<std::pair<std::int64_t, std::int64_t>>& deliveries,
                                  const std::vector<SenderRtt>& senderRtt, double deliveryNs)
{
    struct Sample
    {
        std::int64_t ackNs, dataNs;
        double ms;
    };
    std::vector<Sample> samples;
    samples.reserve(senderRtt.size());
    for (const SenderRtt& r : senderRtt)
        samples.push_back({r.dataNs + static_cast<std::int64_t>(std::llround(r.ms * 1e6)), r.dataNs, r.ms});
    std::sort(samples.begin(), samples.end(), [](const Sample& a, const Sample& b) { return a.ackNs < b.ackNs; });
    std::vector<Hold> holds;
    for (std::size_t i = 1; i < deliveries.size(); ++i) {
        const std::int64_t fromNs = deliveries[i - 1].first, toNs = deliveries[i].first;
        const std::int64_t silenceNs = toNs - fromNs;
        if (silenceNs < kMinHeldSilenceNs || static_cast<double>(silenceNs) < 2 * deliveryNs)
            continue;
        const auto after = std::lower_bound(samples.begin(), samples.end(), toNs - kRebuiltTimeSlackNs,
                                            [](const Sample& s, std::int64_t ns) { return s.ackNs < ns; });
        if (after == samples.begin() || after == samples.end() || after->ackNs > toNs + silenceNs / 2 ||
            after->dataNs >= fromNs)
            continue;
        auto before = after;
        while (before != samples.begin() && before->ackNs > fromNs + kRebuiltTimeSlackNs)
            --before;
        if (before->ackNs > fromNs + kRebuiltTimeSlackNs)
            continue;
        if ((after->ms - before->ms) * 1e6 >= static_cast<double>(silenceNs) / 2)
            holds.push_back({fromNs, toNs});
    }
    return holds;
}

// Each time's offset from the mean phase, in (-period/2, period/2].
std::vector<double> phaseDeviations(const std::vector<double>& timesS, double periodS, double meanPhase)
{
    std::vector<double> deviations;
    for (const double t : timesS) {
        double d = std::fmod(t - meanPhase, periodS);
        d = d > periodS / 2 ? d - periodS : d <= -periodS / 2 ? d + periodS : d;
        deviations.push_back(d);
    }
    return deviations;
}

// Silences of another rhythm (a slow start's flights, one round trip apart) can fold
// with the scans' at a sub-multiple of the scan period. A scan that repeats every
// cycle of a period puts its silences in every residue of their cycle numbers modulo
// k in turn; at most three quarters of them in one residue is that spread. Silences at
// the phase that fall three quarters or more in one residue repeat every k-th cycle:
// the period is k times longer, up to the longest searched.
void wholeMultipleOfPeriod(const std::vector<double>& timesS, PeriodFit& fit)
{
    constexpr double kOneResidueShare = 0.75;
    if (!fit.found)
        return;
    const double meanPhase = fold(timesS, fit.periodS).second;
    const std::vector<double> deviations = phaseDeviations(timesS, fit.periodS, meanPhase);
    std::vector<long long> cycles;
    for (std::size_t i = 0; i < timesS.size(); ++i)
        if (std::abs(deviations[i]) <= fit.periodS / 8)
            cycles.push_back(std::llround((timesS[i] - deviations[i] - meanPhase) / fit.periodS));
    if (cycles.size() < kMinAbsences)
        return;
    for (int k = 2; k * fit.periodS <= kMaxPeriodS; ++k) {
        std::vector<std::size_t> residues(static_cast<std::size_t>(k), 0);
        for (const long long c : cycles)
            ++residues[static_cast<std::size_t>(((c % k) + k) % k)];
        const auto most = static_cast<double>(*std::max_element(residues.begin(), residues.end()));
        if (most >= kOneResidueShare * static_cast<double>(cycles.size())) {
            fit.periodS *= k;
            fit.r = fold(timesS, fit.periodS).first;
            return;
        }
    }
}

// What the bottleneck went on delivering into the AP's queue through a hold (the
// silence before delivery i) comes out at once when it ends: at least half of it (the
// sender's flight may have run out during the hold), and the release is over within
// half the silence (a hold's frames leave at the radio's rate, above the bottleneck's).
// A silence of the sender's own (its flight waiting for ACKs) ends in data at the
// bottleneck's pace, or in one aggregate's worth, far less; so does a hold at a radio
// that is itself the bottleneck.
bool releasedAhead(const std::vector<std::pair<std::int64_t, std::int64_t>>& deliveries, std::size_t i,
                   double bytesPerNs, double deliveryNs, double aheadNeeded)
{
    const std::int64_t silenceNs = deliveries[i].first - deliveries[i - 1].first;
    const double heldBytes = bytesPerNs * (static_cast<double>(silenceNs) - deliveryNs);
    double ahead = 0;
    for (std::size_t k = i; k < deliveries.size(); ++k) {
        const double sinceNs = static_cast<double>(deliveries[k].first - deliveries[i].first);
        if (sinceNs > static_cast<double>(silenceNs) / 2)
            break;
        ahead = std::max(ahead, static_cast<double>(deliveries[k].second - deliveries[i - 1].second) -
                                    sinceNs * bytesPerNs);
    }
    return ahead >= std::max(aheadNeeded, heldBytes / 2);
}

// Whether the receiver sent an ACK (seen in the capture) within withinNs from fromNs.
bool answeredWithin(const std::vector<std::pair<std::int64_t, std::int64_t>>& receiverAcks, std::int64_t fromNs,
                    std::int64_t withinNs)
{
    const auto it = std::lower_bound(receiverAcks.begin(), receiverAcks.end(), fromNs,
                                     [](const auto& a, std::int64_t ns) { return a.first < ns; });
    return it != receiverAcks.end() && it->first <= fromNs + withinNs;
}

// A silence the data after it waited through: the first new segment after it had
// waited on the path longer than the last one before it, by half the silence or more
// (on the sender's TSval clock). Its own silence -- a flight's ACKs on their way --
// ends in data sent after it began, which waited no longer than the data before; a
// queue grows only while it is fed, by far less than the silence.
bool waitedThrough(const std::vector<DataWait>& waits, std::int64_t fromNs, std::int64_t toNs)
{
    const auto after = std::lower_bound(waits.begin(), waits.end(), toNs - kRebuiltTimeSlackNs,
                                        [](const DataWait& w, std::int64_t ns) { return w.timeNs < ns; });
    if (after == waits.begin() || after == waits.end() || !after->firstSeen || after->timeNs > toNs + kRebuiltTimeSlackNs)
        return false;
    auto before = std::prev(after);
    if (before->timeNs > fromNs + kRebuiltTimeSlackNs)
        return false;
    return after->waitMs - before->waitMs >= static_cast<double>(toNs - fromNs) / 2e6;
}

} // namespace

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
    std::map<std::uint32_t, std::vector<const WlanEvent*>> byStation;
    for (const WlanEvent& e : in.events->events)
        if ((e.kind == WlanEventKind::Scan || e.kind == WlanEventKind::Absence) &&
            std::strcmp(e.basis, "retry-absence") == 0)
            byStation[e.station].push_back(&e);
    if (byStation.empty())
        return;
    const auto most = std::max_element(byStation.begin(), byStation.end(),
                                       [](const auto& a, const auto& b) { return a.second.size() < b.second.size(); });
    const std::uint32_t station = most->first;
    const std::vector<const WlanEvent*>& runs = most->second;
    // One absence can hold several retry runs: after a drop at the retry limit the AP
    // moves to the next queued frame within AIFS, a backoff of CWmin slots and one
    // exchange.
    const auto usNs = [](double us) { return static_cast<std::int64_t>(us * 1000); };
    const double frameUs = s.mac.preambleUs + (s.sender.mss + 88) * 8 / s.mac.phyRateMbps;
    const std::int64_t nextMpduNs =
        usNs(s.mac.sifsUs + (3 + s.mac.cwMin) * s.mac.slotUs + 2 * frameUs + s.mac.preambleUs + 14 * 8 / s.mac.basicRateMbps);
    std::vector<std::int64_t> starts;
    std::int64_t lastEnd = -1;
    for (const WlanEvent* e : runs) {
        if (starts.empty() || e->startNs - lastEnd > nextMpduNs)
            starts.push_back(e->startNs);
        lastEnd = std::max(lastEnd, e->endNs);
    }
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
    const double meanPhase = fold(timesS, fit.periodS).second;
    // A scan starts at or before its first unacknowledged attempt (the AP may be in a
    // backoff when the station leaves, or meet the scan with a later frame): the starts
    // lag the scans by a varying amount, never lead them. The pattern is the line
    // through the early edge: each start's cycle from the fold, a least-squares line,
    // then again through the starts on or below it.
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
    // Runs far from the phase (collisions that reached a few retries) stay out of it.
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
    // Cycle 0 is the first absence's.
    const double firstScanS = offsetS + periodS * cycles.front();
    const auto scanStartNs = [&](std::int64_t k) {
        return starts.front() + static_cast<std::int64_t>((firstScanS + static_cast<double>(k) * periodS) * 1e9);
    };
    const auto cycleOf = [&](std::int64_t ns) {
        return static_cast<std::int64_t>(
            std::floor((static_cast<double>(ns - starts.front()) / 1e9 - firstScanS) / periodS + 0.5));
    };
    // A run that began before the line says (the line is a fit) starts that scan.
    std::map<std::int64_t, std::int64_t> seenStartNs;
    for (const std::int64_t ns : starts)
        seenStartNs.try_emplace(cycleOf(ns), ns);
    const auto cycleStartNs = [&](std::int64_t k) {
        const auto it = seenStartNs.find(k);
        return it != seenStartNs.end() ? std::min(it->second, scanStartNs(k)) : scanStartNs(k);
    };
    // The AP's attempts to the station and what the station sent (it was there).
    std::vector<Attempt> attempts;
    std::vector<std::int64_t> heard;
    for (std::size_t row = 0; row < w.size(); ++row) {
        if (wlan::badFcs(w, row))
            continue;
        const std::uint16_t fc = w.frameControl[row];
        const std::uint8_t type = wlan::frameType(fc);
        if (type == wlan::kData && wlan::fromDs(fc) && !wlan::toDs(fc) && w.addr1(row) == station &&
            w.sequenceControl[row] != 0xffff) {
            Attempt a{w.timeNs[row], static_cast<std::uint16_t>(w.sequenceControl[row] >> 4), false};
            if (row + 1 < w.size() && wlan::frameType(w.frameControl[row + 1]) == wlan::kControl &&
                wlan::frameSubtype(w.frameControl[row + 1]) == wlan::subtype::kAck && w.addr1(row + 1) == w.addr2(row))
                a.acked = true;
            attempts.push_back(a);
        } else if (type != wlan::kControl && w.addr2(row) == station) {
            heard.push_back(w.timeNs[row]);
        }
    }
    // The dwell, per scan that met the AP's frames: the station was away at the end of
    // its last unacknowledged attempt and back by the first frame it acknowledged or
    // sent. The station answers at once when it comes back with frames queued, so the
    // early bounds are tight; the dwell is taken midway between the bounds most scans
    // agree with (the 90th percentile of the first, the 10th of the second).
    const std::int64_t attemptNs = usNs(frameUs);
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
    std::vector<double> awayMs, backMs;
    for (const auto& [k, b] : bounds) {
        if (b.first <= 0)
            continue;
        awayMs.push_back(static_cast<double>(b.first) / 1e6);
        if (b.second >= 0)
            backMs.push_back(static_cast<double>(b.second) / 1e6);
    }
    if (awayMs.empty() || backMs.empty())
        return;
    const double dwellLow = percentile(awayMs, 0.9), dwellHigh = percentile(backMs, 0.1);
    // Bounds that cross (a scan that began later than its run shows) leave the lower:
    // the station was away that long in most scans.
    const double dwellMs = dwellLow <= dwellHigh ? (dwellLow + dwellHigh) / 2 : dwellLow;
    // The retry limit: the attempts of the chains the AP gave up (the next attempt a new
    // frame), when one length repeats.
    std::map<std::uint32_t, std::size_t> dropped; // attempts -> chains
    for (std::size_t i = 0, j = 0; i < attempts.size(); i = j) {
        for (j = i + 1; j < attempts.size() && attempts[j].sequence == attempts[i].sequence; ++j) {
        }
        if (j < attempts.size() && !attempts[j - 1].acked && j - i > 1)
            ++dropped[static_cast<std::uint32_t>(j - i)];
    }
    std::uint32_t chainAttempts = 0;
    std::size_t chainCount = 0;
    for (const auto& [len, count] : dropped)
        if (count >= kMinDroppedChains && count >= chainCount) {
            chainAttempts = len;
            chainCount = count;
        }
    if (chainAttempts > 1)
        s.mac.retryLimit = chainAttempts - 1; // attempts after the first (scenario.h)
    std::uint32_t mostMpdus = 0;
    for (const auto& [k, m] : mpdusPerScan)
        mostMpdus = std::max(mostMpdus, m);
    s.mac.hwQueueFrames = std::max(s.mac.hwQueueFrames, mostMpdus);
    // The pattern, in simulated time (the radio sees the sender's data one wired delay
    // after it left).
    const double radioShiftS = s.path.wiredDelayMs / 1000;
    PeriodicScan& scan = s.periodicScan;
    scan.intervalMs = periodS * 1000;
    scan.dwellMs = dwellMs;
    scan.mode = OutageMode::PsAnnounced;
    // Scans before the first one seen met no queued frame, or were not there: the
    // pattern starts at the earliest cycle back to which no frame the station
    // acknowledged or sent falls in a scan's window.
    const auto dwellNs = static_cast<std::int64_t>(dwellMs * 1e6);
    const auto present = [&](std::int64_t fromNs) {
        // The first half of the window: its edges are uncertain by a frame or two.
        const auto inWindow = [&](std::int64_t ns) { return ns >= fromNs && ns < fromNs + dwellNs / 2; };
        return std::any_of(attempts.begin(), attempts.end(), [&](const Attempt& a) { return a.acked && inWindow(a.ns); }) ||
               std::any_of(heard.begin(), heard.end(), inWindow);
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
        scan.dwellMs, scan.intervalMs, scan.firstS, starts.size(), r, fit.z, thresholdZ, dwellLow,
        dwellHigh, awayMs.size(), listed - s.outageList.size());
    out.notes.push_back(buf);
    out.notes.push_back((chainAttempts > 1 ? format("mac.retry_limit %.0f: %.0f chains the AP gave up after %.0f attempts",
                                                    s.mac.retryLimit, static_cast<double>(chainCount), chainAttempts)
                                             : format("mac.retry_limit %.0f: no chain length the AP gave up at repeats",
                                                      s.mac.retryLimit)) +
                        format("; mac.hw_queue_frames %.0f: at least the %.0f frames one absence was sent",
                               s.mac.hwQueueFrames, mostMpdus));
}

// Holds the capture shows only in the delivery of the data. Downstream of the path
// (the AP's radio, the receiver): a FIFO bottleneck delivers at most its rate (a token
// bucket its burst on top), so bytes that arrive faster, right after a silence, were
// held past it, by the AP while the station was away. At the sender: its ACKs stop,
// and the first round trip after the silence is longer by most of it
// (heldAckSilences()). Silences of that kind that repeat at one phase of a period are
// a periodic scan the AP covered by holding: power-save-announced mode, the dwell the
// silences' length less half a delivery interval (the station left somewhere in the
// interval after the last delivery), at the capture's phase moved to the radio's.
void deriveHeldReleases(const DerivationInput& in, DerivationContext& ctx, DerivedScenario& out)
{
    Scenario& s = out.scenario;
    // The test needs the bottleneck's rate as a bound the deliveries cannot beat: one the
    // capture bounds only from below (a window-limited sender) is not one.
    if (s.periodicScan.intervalMs > 0 || ctx.rateMbps <= 0 || !out.pathRateUnseen.empty())
        return;
    // (capture ns, bytes delivered so far): downstream the data's arrivals; upstream of
    // the radio the ACKs' progress, which tells of the same releases but crosses the
    // 802.11 uplink, whose contention and aggregation bunch the ACKs whatever happened
    // to the data: there a hold is told by the round trips instead.
    const bool downstream = ctx.downstream.downstream;
    std::vector<std::pair<std::int64_t, std::int64_t>> deliveries;
    if (downstream) {
        std::int64_t delivered = 0;
        for (const TransmissionTime& a : ctx.downstream.arrivals)
            if (!a.lost)
                deliveries.emplace_back(out.firstDataNs + static_cast<std::int64_t>(a.timeS * 1e9),
                                        delivered += s.sender.mss);
    } else {
        for (const auto& [ns, bytes] : ctx.ackProgress)
            if (deliveries.empty() || bytes > deliveries.back().second)
                deliveries.emplace_back(ns, bytes);
    }
    if (deliveries.size() < 2)
        return;
    const double aheadNeeded = static_cast<double>(s.path.burstBytes) + kMinReleasedAheadSegments * s.sender.mss;
    std::vector<double> intervalBytes, intervalNs;
    for (std::size_t i = 1; i < deliveries.size(); ++i) {
        intervalBytes.push_back(static_cast<double>(deliveries[i].second - deliveries[i - 1].second));
        intervalNs.push_back(static_cast<double>(deliveries[i].first - deliveries[i - 1].first));
    }
    // A window-limited sender's silences are its own: it sends its window and waits for
    // the ACKs, which then come back at the bottleneck's pace whatever else held them.
    // So is one whose flight reached the receiver's largest window (within two segments:
    // the delayed ACK's), which paced it. At the sender such silences are not read as holds.
    if (!downstream && (windowLimited(in, ctx) || (s.receiver.bufferBytes > 0 &&
                                                   ctx.maxFlight + 2 * s.sender.mss >= s.receiver.bufferBytes))) {
        out.notes.push_back("held releases: not read from the ACKs: the sender was window-limited (its flight "
                            "reached its send buffer or the receiver's largest window), so its ACK silences are "
                            "its own");
        return;
    }
    // The holds against a rate: the releases are tested against it, and the silences
    // measured against an interval -- downstream the bottleneck's time for one
    // delivery's bytes; at the sender, where the rate is what the releases inflate, the
    // ACKs' own median spacing.
    struct HoldSearch
    {
        double bytesPerNs = 0, deliveryNs = 0;
        std::vector<Hold> holds;
        std::vector<double> timesS;
        PeriodFit fit;
    };
    // Downstream, the sender's send times (its TSvals) tell a hold where the releases
    // cannot: at a radio that is itself the bottleneck they leave at its own pace.
    const std::vector<DataWait> waits = downstream ? senderDataWaits(in, ctx.downstream) : std::vector<DataWait>{};
    const auto searchHolds = [&](double mbps) {
        HoldSearch h;
        h.bytesPerNs = mbps * 1e6 / 8 / 1e9;
        h.deliveryNs = downstream ? percentile(intervalBytes, 0.5) / h.bytesPerNs : percentile(intervalNs, 0.5);
        if (!downstream)
            h.holds = heldAckSilences(deliveries, ctx.senderRtt, h.deliveryNs);
        for (std::size_t i = 1; downstream && i < deliveries.size(); ++i) {
            const std::int64_t silenceNs = deliveries[i].first - deliveries[i - 1].first;
            if (silenceNs < kMinHeldSilenceNs || static_cast<double>(silenceNs) < 2 * h.deliveryNs)
                continue;
            // A hold ends when the station is back: it answers what the AP releases. After
            // it left for good (a handoff away from this AP) the AP's queue only grows.
            if (!answeredWithin(ctx.ackProgress, deliveries[i].first, silenceNs))
                continue;
            if (releasedAhead(deliveries, i, h.bytesPerNs, h.deliveryNs, aheadNeeded))
                h.holds.push_back({deliveries[i - 1].first, deliveries[i].first});
            else if (waitedThrough(waits, deliveries[i - 1].first, deliveries[i].first))
                h.holds.push_back({deliveries[i - 1].first, deliveries[i].first, true});
        }
        std::vector<std::int64_t> holdStarts;
        for (const Hold& hold : h.holds)
            holdStarts.push_back(hold.startNs);
        h.timesS = secondsFromFirst(holdStarts);
        if (h.holds.size() >= kMinAbsences)
            h.fit = searchPeriod(h.timesS);
        wholeMultipleOfPeriod(h.timesS, h.fit);
        return h;
    };
    HoldSearch search = searchHolds(ctx.rateMbps);
    // Downstream, a rate read from windows that held the releases (a radio that left
    // often enough that most windows saw one) hides them: where the queue's link
    // delivered less over its standing stretches (deriveBottleneck()), by more than two
    // readings of one rate differ by, the releases are tested against that -- also
    // where the holds were found by the data's waits alone, which do not test the rate.
    const auto holdsByWait = [](const HoldSearch& h) {
        return std::count_if(h.holds.begin(), h.holds.end(), [](const Hold& hold) { return hold.byWait; });
    };
    const bool releasesUnseen = !search.fit.found || 2 * holdsByWait(search) > std::ssize(search.holds);
    if (downstream && releasesUnseen && ctx.standingStretchesMbps > 0 &&
        kSameRateBand * ctx.standingStretchesMbps < ctx.rateMbps) {
        HoldSearch slower = searchHolds(ctx.standingStretchesMbps);
        if (slower.fit.found)
            search = std::move(slower);
    }
    const double bytesPerNs = search.bytesPerNs, deliveryNs = search.deliveryNs;
    const std::vector<Hold>& holds = search.holds;
    const std::vector<double>& timesS = search.timesS;
    const PeriodFit& fit = search.fit;
    if (holds.size() < kMinAbsences)
        return;
    const double n = static_cast<double>(timesS.size());
    if (!fit.found) {
        out.notes.push_back(format(
            downstream ? "held releases: %.0f silences ended by more data than the bottleneck "
                         "carries or by data that waited through them; no period "
                         "concentrates them (R %.2f, Rayleigh -ln p %.1f)"
                       : "held releases: %.0f silences in the ACKs ended by a round trip longer "
                         "by half the silence; no period concentrates them (R %.2f, Rayleigh "
                         "-ln p %.1f)",
            n, fit.r, fit.z));
        return;
    }
    // At the sender the ACK clock has a rhythm of its own: a flight a round trip, whose
    // silences fold at the round trip whatever held them, where the round trip holds
    // steady within the eighth of a period a hold at the phase may deviate by. (Holds
    // lengthen the round trips of the data they held: where the silences are a scan's,
    // the round trip spreads over its dwell.)
    const double periodMs = fit.periodS * 1000;
    if (!downstream && periodMs >= ctx.rttMin && periodMs <= ctx.rttP95 &&
        ctx.rttP95 - ctx.rttMin <= periodMs / 8) {
        out.notes.push_back(
            format("held releases: %.0f silences in the ACKs fold at %.2f ms (R %.2f, ", n,
                   periodMs, fit.r) +
            format("Rayleigh -ln p %.1f), ", fit.z) +
            format("within the round trip's steady range (%.1f to %.1f ms, its minimum and 95th "
                   "percentile): the ACK clock's own flights, not a periodic scan",
                   ctx.rttMin, ctx.rttP95));
        return;
    }
    const double meanPhase = fold(timesS, fit.periodS).second;
    const std::vector<double> deviations = phaseDeviations(timesS, fit.periodS, meanPhase);
    // The holds at the pattern's phase: their dwells and starts, and the spans the rate
    // is read again without (below).
    std::vector<double> dwellsMs, startsS;
    std::vector<std::pair<std::int64_t, std::int64_t>> heldSpans;
    std::size_t releasedAtOnce = 0, byWait = 0;
    for (std::size_t i = 0; i < holds.size(); ++i)
        if (std::abs(deviations[i]) <= fit.periodS / 8) {
            if (!downstream) {
                const auto end = std::lower_bound(deliveries.begin(), deliveries.end(), holds[i].endNs,
                                                  [](const auto& d, std::int64_t ns) { return d.first < ns; });
                const auto index = static_cast<std::size_t>(end - deliveries.begin());
                releasedAtOnce += index > 0 && index < deliveries.size() &&
                                  releasedAhead(deliveries, index, bytesPerNs, deliveryNs, aheadNeeded);
            }
            byWait += holds[i].byWait;
            const std::int64_t silenceNs = holds[i].endNs - holds[i].startNs;
            dwellsMs.push_back(std::max(0.0, static_cast<double>(silenceNs) - deliveryNs / 2) / 1e6);
            startsS.push_back(static_cast<double>(holds[i].startNs - out.firstDataNs) / 1e9 + deliveryNs / 2e9);
            heldSpans.emplace_back(holds[i].startNs, holds[i].endNs + silenceNs / 2);
        }
    if (dwellsMs.size() < kMinAbsences)
        return;
    // The bottleneck's rate was read before the holds were known, over windows some of
    // which held a release (the AP's held data at the radio's rate): read again as the
    // bottleneck step reads it, without each hold from its silence's start to its
    // release's end (a window inside a silence reads nothing of the path either), and
    // with at least as many windows as holds (else the path was seldom seen between
    // them); a lower reading replaces it and the queue it sized.
    const double reread = windowedDeliveryRate(deliveries, heldSpans, kMinAbsences).mbps();
    // Within the two percentiles' own spread the first reading stands.
    constexpr double kRateAgreement = 0.95;
    // Deliveries outside the releases that run faster than the rate say it is no bound
    // (a rate read low, e.g. from trains spaced by something slower than the path):
    // the releases were then the path's own pace.
    // At the sender the holds were found by the round trips, without the rate, and so
    // downstream were those the data's waits told: there a faster reading says only that
    // the rate stands.
    const double boundMbps = bytesPerNs * 8e3;
    if (downstream && reread * kRateAgreement > boundMbps && 2 * byWait < dwellsMs.size()) {
        out.notes.push_back(format("held releases: %.0f silences fold at %.2f ms, but the deliveries outside them run "
                                   "at %.3f Mb/s, above the rate they were measured against: no periodic scan",
                                   n, fit.periodS * 1000, reread));
        return;
    }
    // A rate read from packet trains did not count the releases: it stands.
    if (reread > 0 && reread < kRateAgreement * ctx.rateMbps && !ctx.rateFromDispersion) {
        const double scale = reread / ctx.rateMbps;
        // Where the air was taken for the bottleneck on the rate the releases inflated
        // (the AP's held data at the radio's rate) and the path's own rate lies well
        // below what the air carries, the link in front of the radio limits the flow:
        // it comes back, and the air is off the model as deriveMac() leaves it for
        // such a path.
        const bool linkInFront = s.mac.enabled && ctx.airCapacityMbps > 0 &&
                                 reread < kAirLimitsShare * ctx.airCapacityMbps;
        const double linkMbps = linkInFront ? ctx.linkBeforeAirMbps : s.path.bottleneckMbps;
        const std::uint64_t queueBytes = linkInFront ? ctx.queueBeforeAirBytes : s.path.queueBytes;
        out.notes.push_back(
            format("path.bottleneck_mbps %.3f: the delivered rate between the holds and their "
                   "releases (%.3f Mb/s payload, not %.3f)",
                   linkMbps * scale, reread, ctx.rateMbps) +
            (linkInFront
                 ? format(" is under %.0f %% of what the air carries (about %.1f Mb/s for "
                          "TCP): the link in front of the radio is the bottleneck; mac: off",
                          kAirLimitsShare * 100, ctx.airCapacityMbps)
                 : std::string()));
        if (linkInFront) {
            s.mac = MacParams{};
            ctx.airCapacityMbps = 0;
        }
        s.path.bottleneckMbps = linkMbps * scale;
        s.path.queueBytes =
            static_cast<std::uint64_t>(std::llround(static_cast<double>(queueBytes) * scale));
        ctx.rateMbps = reread;
    }
    // Downstream the capture sees the data one wired delay after the sender sent it; at
    // the sender the ACKs stop one wired delay after the station left.
    const double radioShiftS = (downstream ? 1 : -1) * s.path.wiredDelayMs / 1000;
    // At the sender, holds whose data came back at the bottleneck's pace, not ahead of it,
    // were held at the bottleneck itself: the AP's radio, which then carried nothing
    // through them. Most releases ahead: a slower link in front went on filling the
    // AP's queue.
    // Where the sender's own link is the bottleneck (its host queued before the capture)
    // the radio is not: the releases came at that link's pace because nothing faster
    // fed the AP.
    const bool heldAtBottleneck =
        !downstream && !ctx.rateFromSendersLink && 2 * releasedAtOnce < dwellsMs.size();
    s.path.atRadio = heldAtBottleneck;
    // A radio that held is the bottleneck and carried nothing through its holds: a rate
    // read over windows some of which spanned a hold's silence reads it low. Its back-to-
    // back trains, timed between the holds, read it as it serialises.
    // On the wire, with the IP and TCP headers (timestamps on), as deriveBottleneck() sets it.
    const double trainsMbps =
        ctx.dispersion.mbps * static_cast<double>(s.sender.mss + 52) / s.sender.mss;
    if (heldAtBottleneck && !ctx.rateFromDispersion && ctx.dispersion.read() &&
        ctx.dispersion.mbps > kSameRateBand * ctx.rateMbps && trainsMbps > s.path.bottleneckMbps) {
        const double scale = trainsMbps / s.path.bottleneckMbps;
        out.notes.push_back(
            format("path.bottleneck_mbps %.3f: packet-train dispersion (%.3f Mb/s payload), not "
                   "the %.3f read over windows the holds left silent",
                   trainsMbps, ctx.dispersion.mbps, ctx.rateMbps));
        s.path.bottleneckMbps = trainsMbps;
        s.path.queueBytes = static_cast<std::uint64_t>(
            std::llround(static_cast<double>(s.path.queueBytes) * scale));
        ctx.rateMbps = ctx.dispersion.mbps;
    }
    PeriodicScan& scan = s.periodicScan;
    scan.intervalMs = fit.periodS * 1000;
    scan.dwellMs = percentile(dwellsMs, 0.5);
    scan.mode = OutageMode::PsAnnounced;
    // The first scan: the earliest hold at the phase, back by whole periods while no
    // data was delivered inside the earlier window (a scan there met no backlog to
    // hold; a delivery inside it says the station was there).
    double firstS = startsS.front();
    const auto deliveredIn = [&](double fromS) {
        const auto fromNs = out.firstDataNs + static_cast<std::int64_t>(fromS * 1e9);
        const auto toNs = fromNs + static_cast<std::int64_t>(scan.dwellMs * 1e6);
        const auto next = std::lower_bound(deliveries.begin(), deliveries.end(), fromNs,
                                           [](const auto& d, std::int64_t ns) { return d.first < ns; });
        return next != deliveries.end() && next->first < toNs;
    };
    while (firstS - fit.periodS >= 0 && !deliveredIn(firstS - fit.periodS))
        firstS -= fit.periodS;
    scan.firstS = std::max(0.0, firstS + radioShiftS);
    scan.untilS = 0;
    char evidence[160];
    if (downstream)
        std::snprintf(evidence, sizeof evidence,
                      "silences in the data's arrivals ended by more data than the bottleneck carries (%.2f Mb/s) "
                      "or by data that waited through them",
                      bytesPerNs * 8e3);
    else
        std::snprintf(evidence, sizeof evidence,
                      "silences in the ACKs ended by a round trip longer by half the silence or more (data held "
                      "through it)");
    char buf[500];
    std::snprintf(buf, sizeof buf,
                  "periodic_scan: %.1f ms off every %.2f ms from %.3f s (power save announced, "
                  "frames held): %zu %s fold at that period (R %.2f, Rayleigh -ln p %.1f against "
                  "%.1f); the %zu at its phase give the dwell",
                  scan.dwellMs, scan.intervalMs, scan.firstS, holds.size(), evidence, fit.r, fit.z,
                  fit.thresholdZ, dwellsMs.size());
    out.notes.push_back(buf);
    if (!downstream)
        out.notes.push_back(
            std::string("path.bottleneck_at_radio ") + (heldAtBottleneck ? "true: " : "false: ") +
            format(
                "%.0f of the %.0f holds at the phase released their data ahead of the bottleneck's "
                "rate",
                static_cast<double>(releasedAtOnce), static_cast<double>(dwellsMs.size())) +
            (heldAtBottleneck ? " (the rest at its pace: the radio that held is the bottleneck, "
                                "and carries nothing while the station is away)"
             : ctx.rateFromSendersLink
                 ? " (the sender's own link is the bottleneck: nothing faster "
                   "fed the AP)"
                 : " (a slower link in front fills the AP's queue through them)"));
}

} // namespace windscope::analysis::replay::derive
