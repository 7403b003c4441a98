// SPDX-License-Identifier: GPL-3.0-or-later
#include "scenario.h"

#include "analysis/sender/congestion_model.h"

#include <algorithm>
#include <cmath>

namespace windscope::analysis::replay {

const char* outageKindName(OutageKind kind)
{
    switch (kind) {
    case OutageKind::Scan: return "scan";
    case OutageKind::Handoff: return "handoff";
    case OutageKind::PowerSave: return "power_save";
    }
    return "scan";
}

const char* outageModeName(OutageMode mode)
{
    switch (mode) {
    case OutageMode::Drop: return "drop";
    case OutageMode::Hold: return "hold";
    case OutageMode::PsAnnounced: return "ps";
    }
    return "drop";
}

bool parseOutageKind(const std::string& text, OutageKind& kind)
{
    for (OutageKind k : {OutageKind::Scan, OutageKind::Handoff, OutageKind::PowerSave})
        if (text == outageKindName(k)) {
            kind = k;
            return true;
        }
    return false;
}

bool parseOutageMode(const std::string& text, OutageMode& mode)
{
    for (OutageMode m : {OutageMode::Drop, OutageMode::Hold, OutageMode::PsAnnounced})
        if (text == outageModeName(m)) {
            mode = m;
            return true;
        }
    return false;
}

std::vector<Outage> Scenario::outages() const
{
    std::vector<Outage> out = outageList;
    const PeriodicScan& p = periodicScan;
    if (p.intervalMs > 0 && p.dwellMs > 0) {
        const double until = p.untilS > 0 ? p.untilS : durationS + 600;
        for (double t = p.firstS; t < until; t += p.intervalMs / 1000) {
            const Outage scan{OutageKind::Scan, p.mode, t, p.dwellMs / 1000};
            // As the lab does: a scan that would overlap another outage is left out.
            const bool overlaps = std::any_of(outageList.begin(), outageList.end(), [&](const Outage& o) {
                return scan.startS < o.endS() + 0.05 && o.startS - 0.05 < scan.endS();
            });
            if (!overlaps)
                out.push_back(scan);
        }
    }
    std::sort(out.begin(), out.end(), [](const Outage& a, const Outage& b) { return a.startS < b.startS; });
    // A station is away for one reason at a time: outages that overlap (a scan event
    // inside a handoff lengthened by hand or by a sweep, two sources of the same
    // absence) become one spanning both, so that the first to end does not bring the
    // station back while the other is still under way. The longer one names it.
    std::vector<Outage> merged;
    for (const Outage& o : out) {
        if (merged.empty() || o.startS >= merged.back().endS()) {
            merged.push_back(o);
            continue;
        }
        Outage& away = merged.back();
        const double end = std::max(away.endS(), o.endS());
        if (o.durationS > away.durationS) {
            away.kind = o.kind;
            away.mode = o.mode;
        }
        away.durationS = end - away.startS;
    }
    return merged;
}

void Scenario::scaleScanLoss(double factor)
{
    // The kept ones spread evenly: the k-th stays where the running count of the kept
    // share steps past a whole number.
    if (factor < 1) {
        std::vector<std::int64_t> kept;
        const double keep = std::max(0.0, factor);
        for (std::size_t k = 0; k < periodicScan.lostSegments.size(); ++k)
            if (std::floor(static_cast<double>(k + 1) * keep) > std::floor(static_cast<double>(k) * keep))
                kept.push_back(periodicScan.lostSegments[k]);
        periodicScan.lostSegments = std::move(kept);
    }
    const double share = std::clamp(periodicScan.lossShare, 0.0, 1.0);
    if (share <= 0 || path.lossFwd <= 0)
        return;
    const double scans = path.lossFwd * share * std::max(0.0, factor);
    const double rest = path.lossFwd * (1 - share);
    path.lossFwd = rest + scans;
    periodicScan.lossShare = path.lossFwd > 0 ? scans / path.lossFwd : 0;
}

double retryChainEndsWithin(const MacParams& mac, double ms)
{
    // The backoffs' sum in slots, by convolving each attempt's uniform draw.
    std::vector<double> slots{1.0};
    std::uint32_t cw = mac.cwMin;
    for (std::uint32_t attempt = 0; attempt <= mac.retryLimit; ++attempt) {
        std::vector<double> next(slots.size() + cw, 0.0);
        // Prefix sums make each step linear in the support.
        std::vector<double> prefix(slots.size() + 1, 0.0);
        for (std::size_t i = 0; i < slots.size(); ++i)
            prefix[i + 1] = prefix[i] + slots[i];
        for (std::size_t k = 0; k < next.size(); ++k) {
            const std::size_t hi = std::min(k, slots.size() - 1);
            const std::size_t lo = k >= cw ? k - cw : 0;
            if (lo <= hi)
                next[k] = (prefix[hi + 1] - prefix[lo]) / (cw + 1);
        }
        slots = std::move(next);
        cw = std::min(2 * cw + 1, mac.cwMax);
    }
    const double fixedUs = (mac.retryLimit + 1) * mac.difsUs();
    const double budgetUs = ms * 1000 - fixedUs;
    if (budgetUs < 0)
        return 0;
    double p = 0;
    for (std::size_t k = 0; k < slots.size() && static_cast<double>(k) * mac.slotUs <= budgetUs;
         ++k)
        p += slots[k];
    return std::min(1.0, p);
}

std::string Scenario::validate() const
{
    if (sender.mss < 64 || sender.mss > 65000)
        return "sender.mss must be within 64..65000";
    if (!cwnd::makeCongestionModel(sender.cc))
        return "sender.cc '" + sender.cc + "' is not a known congestion control (" +
               cwnd::congestionModelNameList(", ") + ")";
    if (cwnd::ModelStack stack; !cwnd::parseModelStack(sender.stack, stack))
        return "sender.stack '" + sender.stack + "' is not " +
               std::string(cwnd::modelStackName(cwnd::ModelStack::Linux)) + " or " +
               std::string(cwnd::modelStackName(cwnd::ModelStack::Ns3));
    if (durationS <= 0 && bytes == 0)
        return "give duration_s or bytes";
    if (path.bottleneckMbps <= 0)
        return "path.bottleneck_mbps must be positive";
    if (mac.enabled && (mac.phyRateMbps <= 0 || mac.basicRateMbps <= 0))
        return "mac rates must be positive";
    if (mac.hops < 1 || mac.hops > 16) // the MAC keeps a bit per node in 32-bit masks
        return "mac.hops must be within 1..16";
    if (mac.longRetryLimit < 1)
        return "mac.long_retry_limit must be at least 1";
    if (mac.aifsSlots < 1 || mac.aifsSlots > 15) // AIFSN is a 4-bit field (9.4.2.28)
        return "mac.aifs_slots must be within 1..15";
    if (mac.ampduMax < 1 || mac.ampduMax > 256)
        return "mac.ampdu_max must be within 1..256";
    if (receiver.bufferBytes < sender.mss)
        return "receiver.buffer_bytes must hold at least one segment";
    if (path.lossFwd < 0 || path.lossFwd >= 1 || path.lossRev < 0 || path.lossRev >= 1)
        return "loss rates must be within [0, 1)";
    if (periodicScan.lossShare < 0 || periodicScan.lossShare > 1)
        return "periodic_scan.loss_share must be within [0, 1]";
    for (const Outage& o : outageList)
        if (o.durationS < 0 || o.startS < 0)
            return "outage times must not be negative";
    return {};
}

} // namespace windscope::analysis::replay
