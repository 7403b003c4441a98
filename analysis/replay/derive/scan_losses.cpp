// SPDX-License-Identifier: GPL-3.0-or-later
#include "scan_losses.h"

#include "analysis/replay/session/metrics.h"

#include "downstream_view.h"
#include "periodic_outages.h"
#include "sample_statistics.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace windscope::analysis::replay::derive {

std::vector<std::int64_t> lossEpisodeStarts(const DerivationInput& in)
{
    const double rttAvgMs = in.tcp->connections[in.connection].direction[in.sender].rttAvgMs;
    LossEpisodeCounter episodes({}, static_cast<std::int64_t>(std::max(1.0, rttAvgMs) * 1e6));
    for (const std::int64_t ns : senderResendTimesNs(*in.tables, *in.tcp, in.connection, in.sender))
        episodes.loss(ns);
    return episodes.starts();
}

std::vector<std::int64_t> scanEndsOfPattern(const std::vector<std::int64_t>& endsNs,
                                            std::int64_t periodNs, std::int64_t firstNs,
                                            std::int64_t lastNs)
{
    std::vector<std::int64_t> out;
    for (std::int64_t at = endsNs.front() - (endsNs.front() - firstNs) / periodNs * periodNs;
         at < lastNs; at += periodNs) {
        const auto next = std::lower_bound(endsNs.begin(), endsNs.end(), at);
        std::int64_t nearest = next == endsNs.end() ? endsNs.back() : *next;
        if (next != endsNs.begin() && (next == endsNs.end() || *next - at > at - *std::prev(next)))
            nearest = *std::prev(next);
        const std::int64_t cycles =
            (at - nearest + (at >= nearest ? periodNs / 2 : -periodNs / 2)) / periodNs;
        out.push_back(nearest + cycles * periodNs);
    }
    return out;
}

// A scans' excess of losses over chance is counted where its tail is under this.
constexpr double kFalseExcessShare = 0.05;
std::uint64_t lossesAfterScans(const std::vector<std::int64_t>& episodeStarts,
                               const std::vector<std::int64_t>& scanEndsNs, std::int64_t windowNs,
                               std::int64_t presentNs)
{
    if (windowNs <= 0)
        return 0;
    const auto within = [&](std::int64_t fromNs) {
        const auto it = std::lower_bound(episodeStarts.begin(), episodeStarts.end(), fromNs);
        return it != episodeStarts.end() && *it < fromNs + windowNs;
    };
    // At least one: where the cycle leaves no room for a window outside the scan's, the
    // next one after it.
    const std::int64_t controls = std::max<std::int64_t>(1, presentNs / windowNs - 1);
    std::int64_t after = 0, chance = 0;
    for (const std::int64_t end : scanEndsNs) {
        after += within(end);
        for (std::int64_t k = 1; k <= controls; ++k)
            chance += within(end + k * windowNs);
    }
    if (after == 0)
        return 0;
    // X ~ Binomial(after + chance, 1 / (controls + 1)), its mid-p tail at the scans' count.
    const double tail = std::exp(logBinomialTail(static_cast<std::size_t>(after),
                                                 static_cast<std::size_t>(after + chance),
                                                 1 / static_cast<double>(controls + 1), true));
    if (tail >= kFalseExcessShare)
        return 0;
    const double excess =
        static_cast<double>(after) - static_cast<double>(chance) / static_cast<double>(controls);
    return excess > 0 ? static_cast<std::uint64_t>(std::llround(excess)) : 0;
}

ListedScansHeld holdListedScansAsPattern(Scenario& s, const DownstreamView* downstream, std::int64_t firstDataNs,
                                         double radioShiftS)
{
    ListedScansHeld out;
    PeriodicScan& scan = s.periodicScan;
    const double periodS = scan.intervalMs / 1000;
    // The frames the capture saw the AP give up, by their first attempt on the run's clock.
    std::vector<std::pair<double, std::int64_t>> givenUpAt;
    if (downstream)
        for (const MissingSegment& m : downstream->missing)
            if (m.givenUpNs >= 0 && !m.recoveredBelowTcp)
                givenUpAt.emplace_back(static_cast<double>(m.givenUpNs - firstDataNs) / 1e9 + radioShiftS,
                                       m.segment);
    std::vector<std::int64_t> givenUp;
    for (Outage& o : s.outageList) {
        if (o.kind != OutageKind::Scan || o.mode == scan.mode ||
            std::abs(foldedOffset(o.startS, scan.firstS, periodS)) * 1000 > scan.dwellMs)
            continue;
        o.mode = scan.mode;
        ++out.held;
        for (const auto& [atS, segment] : givenUpAt)
            if (atS >= o.startS - o.durationS && atS <= o.endS())
                givenUp.push_back(segment);
    }
    std::sort(givenUp.begin(), givenUp.end());
    givenUp.erase(std::unique(givenUp.begin(), givenUp.end()), givenUp.end());
    scan.lostSegments.insert(scan.lostSegments.end(), givenUp.begin(), givenUp.end());
    out.givenUp = givenUp.size();
    return out;
}

} // namespace windscope::analysis::replay::derive
