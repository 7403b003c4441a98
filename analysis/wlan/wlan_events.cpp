// SPDX-License-Identifier: GPL-3.0-or-later
#include "wlan_events.h"

#include "wlan_event_detectors.h"
#include "wlan_frames.h"

#include <algorithm>
#include <cmath>

namespace windscope::analysis {

const char* eventKindName(WlanEventKind kind)
{
    switch (kind) {
    case WlanEventKind::Scan:
        return "scan";
    case WlanEventKind::PowerSave:
        return "power_save";
    case WlanEventKind::Handoff:
        return "handoff";
    case WlanEventKind::OutageInferred:
        return "outage_inferred";
    case WlanEventKind::Authentication:
        return "authentication";
    case WlanEventKind::Association:
        return "association";
    case WlanEventKind::EapolHandshake:
        return "eapol_handshake";
    case WlanEventKind::Deauthentication:
        return "deauthentication";
    case WlanEventKind::Disassociation:
        return "disassociation";
    case WlanEventKind::AssociationRefused:
        return "association_refused";
    case WlanEventKind::AttemptUnanswered:
        return "attempt_unanswered";
    case WlanEventKind::FailedRoam:
        return "failed_roam";
    case WlanEventKind::Disconnection:
        return "disconnection";
    case WlanEventKind::Absence:
        return "absence";
    case WlanEventKind::BeaconLoss:
        return "beacon_loss";
    }
    return "unknown";
}

bool isLifecycleKind(WlanEventKind kind)
{
    return static_cast<std::uint8_t>(kind) >= static_cast<std::uint8_t>(WlanEventKind::Authentication) &&
           kind != WlanEventKind::Absence;
}

const char* initiatorName(EventInitiator initiator)
{
    switch (initiator) {
    case EventInitiator::Station:
        return "station";
    case EventInitiator::AccessPoint:
        return "ap";
    case EventInitiator::Unknown:
        break;
    }
    return "";
}

namespace {

bool overlaps(const WlanEvent& a, const WlanEvent& b)
{
    return a.station == b.station && a.startNs <= b.endNs && b.startNs <= a.endNs;
}

// An unannounced absence inside an announced one (or inside a handoff) is the same
// event seen through the AP's retries: its counts join the event that explains it.
void foldAbsences(std::vector<WlanEvent>& events)
{
    std::vector<WlanEvent> kept;
    kept.reserve(events.size());
    std::vector<const WlanEvent*> absences;
    const auto unannounced = [](const WlanEvent& e) {
        return std::string_view(e.basis) == "retry-absence" || e.fromStationRadio() ||
               e.departed();
    };
    for (WlanEvent& e : events)
        if (!unannounced(e))
            kept.push_back(std::move(e));
    for (WlanEvent& e : events) {
        if (!unannounced(e))
            continue;
        WlanEvent* host = nullptr;
        for (WlanEvent& k : kept)
            if (overlaps(k, e) && k.kind != WlanEventKind::OutageInferred) {
                host = &k;
                break;
            }
        if (!host) {
            kept.push_back(std::move(e));
            continue;
        }
        host->retriesToStation += e.retriesToStation;
        for (std::uint64_t f : e.evidenceFrames)
            detail::addEvidence(*host, f);
        std::sort(host->evidenceFrames.begin(), host->evidenceFrames.end());
    }
    events = std::move(kept);
}

double median(std::vector<double> v)
{
    if (v.empty())
        return 0;
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

// The spacings near a whole number (at least one) of intervals: within a tenth of the
// interval, or with widening within a tenth of the multiple (a scanning station's
// timer jitters by a few percent, and a skipped scan leaves a multiple). Without
// widening a short candidate interval cannot take every long spacing for one of its
// multiples.
enum class Tolerance { OfTheInterval, OfTheMultiple };
std::size_t nearMultiples(const std::vector<double>& spacing, double intervalMs, Tolerance tolerance)
{
    if (intervalMs <= 0)
        return 0;
    std::size_t near = 0;
    for (double s : spacing) {
        const double ratio = s / intervalMs;
        const double nearest = std::max(1.0, std::round(ratio));
        if (std::fabs(ratio - nearest) <= 0.1 * (tolerance == Tolerance::OfTheMultiple ? nearest : 1.0))
            ++near;
    }
    return near;
}

std::vector<ScanPattern> scanPatterns(const std::vector<WlanEvent>& events)
{
    std::vector<ScanPattern> patterns;
    std::vector<std::uint32_t> stations;
    for (const WlanEvent& e : events)
        if (e.kind == WlanEventKind::Scan &&
            std::find(stations.begin(), stations.end(), e.station) == stations.end())
            stations.push_back(e.station);
    for (std::uint32_t station : stations) {
        std::vector<double> spacing, dwell;
        std::int64_t previous = -1;
        ScanPattern p;
        p.station = station;
        for (const WlanEvent& e : events) {
            if (e.kind != WlanEventKind::Scan || e.station != station)
                continue;
            ++p.scans;
            dwell.push_back(static_cast<double>(e.endNs - e.startNs) / 1e6);
            if (previous >= 0)
                spacing.push_back(static_cast<double>(e.startNs - previous) / 1e6);
            previous = e.startNs;
        }
        // A skipped scan leaves a spacing of several intervals, which pulls the plain
        // median up: each spacing is divided by the whole number of intervals it spans
        // under the estimate so far, until the estimate stops moving (it settles within
        // a few rounds; a long gap's count is only right once the estimate is close).
        // Where most scans were not seen (a station's own radio sees only those the AP
        // sent into), the median spans several intervals: the start is then the spacing
        // that the most others are whole multiples of, the larger on a tie (every
        // multiple of an interval is one of its halves too).
        p.intervalMs = median(spacing);
        std::size_t bestFit = nearMultiples(spacing, p.intervalMs, Tolerance::OfTheInterval);
        for (double candidate : spacing) {
            const std::size_t fit = nearMultiples(spacing, candidate, Tolerance::OfTheInterval);
            if (fit > bestFit || (fit == bestFit && candidate > p.intervalMs)) {
                bestFit = fit;
                p.intervalMs = candidate;
            }
        }
        for (int round = 0; round < 8 && p.intervalMs > 0; ++round) {
            std::vector<double> single;
            for (double s : spacing)
                single.push_back(s / std::max(1.0, std::round(s / p.intervalMs)));
            const double refined = median(single);
            const bool settled = std::fabs(refined - p.intervalMs) < 1e-6 * p.intervalMs;
            p.intervalMs = refined;
            if (settled)
                break;
        }
        p.dwellMs = median(dwell);
        // Periodic when most spacings sit within 10% of the interval; a skipped scan
        // (a multiple of the interval) does not count against it.
        if (p.scans >= 3 && p.intervalMs > 0)
            p.periodic = static_cast<double>(nearMultiples(spacing, p.intervalMs, Tolerance::OfTheMultiple)) >=
                         0.8 * static_cast<double>(spacing.size());
        patterns.push_back(p);
    }
    return patterns;
}

// A short run of unacknowledged retries is as likely a collision as an absence, unless
// the station scans periodically and the run ends on that period: then it is a scan
// during which the AP had little to send. The phase is taken from the ends of the
// nearest scans found on their own evidence, so a pattern that drifts or stops admits
// nothing.
std::size_t admitPeriodicShortRuns(const std::vector<ScanPattern>& patterns,
                                   std::vector<WlanEvent>& events,
                                   std::vector<WlanEvent>& shortRuns,
                                   const WlanEventOptions& options)
{
    std::size_t admitted = 0;
    for (const ScanPattern& p : patterns) {
        if (!p.periodic || p.intervalMs <= 0)
            continue;
        const double intervalNs = p.intervalMs * 1e6;
        std::vector<std::int64_t> ends;
        for (const WlanEvent& e : events)
            if (e.kind == WlanEventKind::Scan && e.station == p.station)
                ends.push_back(e.endNs);
        std::sort(ends.begin(), ends.end());
        // Offset of t from the grid the nearby scan ends lie on: the median over up to
        // kNeighbours of them on each side, each offset folded into half an interval,
        // so one late end (an acknowledgement delayed by backoff) does not move it.
        constexpr std::ptrdiff_t kNeighbours = 4;
        const auto onPeriod = [&](std::int64_t t) {
            const auto at = std::lower_bound(ends.begin(), ends.end(), t) - ends.begin();
            const std::ptrdiff_t first = std::max<std::ptrdiff_t>(0, at - kNeighbours);
            const std::ptrdiff_t last = std::min<std::ptrdiff_t>(std::ssize(ends), at + kNeighbours);
            std::vector<double> offsets;
            double nearestPeriods = 1e18;
            for (std::ptrdiff_t i = first; i < last; ++i) {
                const double periods = static_cast<double>(t - ends[static_cast<std::size_t>(i)]) / intervalNs;
                nearestPeriods = std::min(nearestPeriods, std::fabs(periods));
                offsets.push_back((periods - std::round(periods)) * intervalNs);
            }
            if (offsets.size() < 3 || nearestPeriods < 0.5 ||
                nearestPeriods > static_cast<double>(options.maxPeriodsAway) + 0.5)
                return false;
            return std::fabs(median(offsets)) <= static_cast<double>(options.periodicEndToleranceNs);
        };
        std::vector<WlanEvent> admittedRuns;
        for (WlanEvent& run : shortRuns) {
            if (run.station != p.station || !onPeriod(run.endNs))
                continue;
            const bool explained = std::any_of(events.begin(), events.end(), [&](const WlanEvent& e) {
                return overlaps(e, run);
            });
            if (explained)
                continue;
            // Runs split by a frame the station squeezed in are one absence.
            if (!admittedRuns.empty() && overlaps(admittedRuns.back(), run)) {
                WlanEvent& into = admittedRuns.back();
                into.endNs = std::max(into.endNs, run.endNs);
                into.retriesToStation += run.retriesToStation;
                into.framesToStation += run.framesToStation;
                for (std::uint64_t f : run.evidenceFrames)
                    detail::addEvidence(into, f);
                continue;
            }
            run.basis = "retry-absence-periodic";
            admittedRuns.push_back(std::move(run));
        }
        // Such a run keeps the span its frames show: the station can have been heard
        // just before it (in the lab's ns-3 runs the radio sleeps only once its last
        // transmission is over), so its start cannot be moved back to a full dwell.
        admitted += admittedRuns.size();
        for (WlanEvent& run : admittedRuns)
            events.push_back(std::move(run));
    }
    return admitted;
}

// A closed run of unanswered retries shorter than the shortest scan (two channel
// switches and a dwell, WlanEventOptions::minScanNs) is an absence of unknown cause: its
// span is what the AP's attempts show, a lower bound, and too short to show the station
// left the channel. Done after the periodic admission, which reads the station's scans as
// their retries showed them, so the replay derivation (which takes both kinds) is fed as
// before.
std::size_t classifyShortAbsences(std::vector<WlanEvent>& events, const WlanEventOptions& options)
{
    std::size_t n = 0;
    for (WlanEvent& e : events)
        if (e.kind == WlanEventKind::Scan && !e.openEnded &&
            (std::string_view(e.basis).starts_with("retry-absence") || e.fromStationRadio()) &&
            e.endNs - e.startNs < options.minScanNs) {
            e.kind = WlanEventKind::Absence;
            ++n;
        }
    return n;
}

} // namespace

MacFrame MacFrame::of(const dissect::WlanColumns& w, std::size_t row)
{
    return MacFrame{w.frameControl[row], w.status[row],         w.mcs[row],
                    w.signalDbm[row],    w.dataRateKbps[row],   w.ampduReference[row]};
}

void countMacFrame(MacStatsBin& bin, const MacFrame& f, bool sent, std::uint32_t& lastAmpduReference)
{
    const std::uint8_t type = wlan::frameType(f.frameControl);
    const std::uint8_t sub = wlan::frameSubtype(f.frameControl);
    if (type == wlan::kControl) {
        if (sub == wlan::subtype::kBlockAck)
            ++bin.blockAcks;
        else if (sub == wlan::subtype::kBlockAckRequest)
            ++bin.blockAckRequests;
        return;
    }
    ++(sent ? bin.framesSent : bin.framesReceived);
    if (wlan::retry(f.frameControl))
        ++bin.retries;
    if (f.status & dissect::WlanColumns::kMacDuplicate)
        ++bin.failedAttempts;
    if (type == wlan::kData && f.dataRateKbps) {
        ++bin.rateSamples;
        bin.meanRateMbps += (f.dataRateKbps / 1000.0 - bin.meanRateMbps) / static_cast<double>(bin.rateSamples);
    }
    if (f.mcs != 0xff && (bin.maxMcs == 0xff || f.mcs > bin.maxMcs))
        bin.maxMcs = f.mcs;
    if (sent && f.signalDbm != dissect::WlanColumns::kNoSignal) {
        ++bin.signalSamples;
        bin.meanSignalDbm += (f.signalDbm - bin.meanSignalDbm) / static_cast<double>(bin.signalSamples);
    }
    if (type == wlan::kData && f.ampduReference) {
        ++bin.ampduSubframes;
        if (f.ampduReference != lastAmpduReference)
            ++bin.ampdus;
        lastAmpduReference = f.ampduReference;
    }
}

WlanEvents detectWlanEvents(const dissect::CaptureTables& tables, const WlanInventory& inventory,
                            const TcpAnalysis& tcp, const WlanEventOptions& options)
{
    WlanEvents result;
    const detail::DetectorContext context{tables, inventory, tcp, options};
    std::vector<WlanEvent> shortRuns;
    detail::detectAbsences(context, result.events, shortRuns, result.macStats, result.notes);
    detail::detectHandoffs(context, result.events, result.notes);
    foldAbsences(result.events);
    detail::detectProbeBursts(context, result.events, result.notes);
    detail::inferOutages(context, result.events, result.notes);
    const auto byStart = [](const WlanEvent& a, const WlanEvent& b) { return a.startNs < b.startNs; };
    std::stable_sort(result.events.begin(), result.events.end(), byStart);
    result.scanPatterns = scanPatterns(result.events);
    if (const std::size_t n = admitPeriodicShortRuns(result.scanPatterns, result.events, shortRuns, options)) {
        std::stable_sort(result.events.begin(), result.events.end(), byStart);
        result.scanPatterns = scanPatterns(result.events);
        result.notes.push_back(std::to_string(n) + " short run(s) of unacknowledged retries (fewer than " +
                               std::to_string(options.minRetries) +
                               " retries) kept as absences because they fall on the station's scan period");
    }
    if (const std::size_t n = classifyShortAbsences(result.events, options)) {
        result.scanPatterns = scanPatterns(result.events);
        result.notes.push_back(std::to_string(n) + " run(s) of unanswered retries shorter than " +
                               std::to_string(options.minScanNs / 1'000'000) +
                               " ms reported as absences, not scans: the station was away at least that "
                               "long, too short to show it left the channel");
    }
    for (std::size_t i = 0; i < result.events.size(); ++i)
        result.events[i].id = i;
    detail::detectLifecycle(context, result.events, result.lifecycle, result.notes);
    detail::detectBeaconLoss(context, result.lifecycle, result.notes);
    std::stable_sort(result.lifecycle.begin(), result.lifecycle.end(), byStart);
    for (std::size_t i = 0; i < result.lifecycle.size(); ++i)
        result.lifecycle[i].id = result.events.size() + i;
    if (tables.wlan.size() && inventory.stations.empty())
        result.notes.push_back("no station could be identified (no infrastructure data or "
                               "association frames): scans, power save and handoffs could not "
                               "be determined");
    return result;
}

} // namespace windscope::analysis
