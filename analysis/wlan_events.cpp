// SPDX-License-Identifier: GPL-3.0-or-later
#include "wlan_events.h"

#include "wlan_event_detectors.h"

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
    }
    return "unknown";
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
    for (WlanEvent& e : events)
        if (std::string_view(e.basis) != "retry-absence")
            kept.push_back(std::move(e));
    for (WlanEvent& e : events) {
        if (std::string_view(e.basis) != "retry-absence")
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
        p.intervalMs = median(spacing);
        p.dwellMs = median(dwell);
        if (p.scans >= 3 && p.intervalMs > 0) {
            // Periodic when most spacings sit within 10% of the median; a skipped scan
            // (a multiple of the interval) does not count against it.
            std::size_t regular = 0;
            for (double s : spacing) {
                const double ratio = s / p.intervalMs;
                const double nearest = std::max(1.0, std::round(ratio));
                if (std::fabs(ratio - nearest) <= 0.1 * nearest)
                    ++regular;
            }
            p.periodic = static_cast<double>(regular) >= 0.8 * static_cast<double>(spacing.size());
        }
        patterns.push_back(p);
    }
    return patterns;
}

} // namespace

WlanEvents detectWlanEvents(const dissect::CaptureTables& tables, const WlanInventory& inventory,
                            const TcpAnalysis& tcp, const WlanEventOptions& options)
{
    WlanEvents result;
    const detail::DetectorContext context{tables, inventory, tcp, options};
    detail::detectAbsences(context, result.events, result.macStats, result.notes);
    detail::detectHandoffs(context, result.events, result.notes);
    foldAbsences(result.events);
    detail::inferOutages(context, result.events, result.notes);
    std::stable_sort(result.events.begin(), result.events.end(),
                     [](const WlanEvent& a, const WlanEvent& b) { return a.startNs < b.startNs; });
    for (std::size_t i = 0; i < result.events.size(); ++i)
        result.events[i].id = i;
    result.scanPatterns = scanPatterns(result.events);
    if (tables.wlan.size() && inventory.stations.empty())
        result.notes.push_back("no station could be identified (no infrastructure data or "
                               "association frames): scans, power save and handoffs could not "
                               "be determined");
    return result;
}

} // namespace windscope::analysis
