// SPDX-License-Identifier: GPL-3.0-or-later
#include "path_dispersion.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace windscope::analysis::replay {

namespace {

// The weighted median of the most weighted band of kDispersionBand around one estimate
// (the mode of the estimates, read without bins whose edges would split a cluster).
// Each train weighs as many spacings as it has segments: in a longer train one ACK's
// lateness or compression weighs less.
double modeOf(std::vector<std::pair<double, double>> rates, double& agreeing)
{
    std::sort(rates.begin(), rates.end());
    double best = 0;
    std::size_t bestFrom = 0, bestTo = 0, from = 0, to = 0;
    double inBand = 0; // weight of [from, to]
    for (std::size_t k = 0; k < rates.size(); ++k) {
        while (rates[from].first * kDispersionBand < rates[k].first)
            inBand -= rates[from++].second;
        if (to < k || (to == k && inBand == 0)) {
            to = k;
            inBand = 0;
            for (std::size_t m = from; m <= k; ++m)
                inBand += rates[m].second;
        }
        while (to + 1 < rates.size() && rates[to + 1].first <= rates[k].first * kDispersionBand)
            inBand += rates[++to].second;
        if (inBand > best) {
            best = inBand;
            bestFrom = from;
            bestTo = to;
        }
    }
    agreeing = best;
    if (best <= 0)
        return 0;
    double half = 0;
    for (std::size_t m = bestFrom; m <= bestTo; ++m) {
        half += rates[m].second;
        if (half >= best / 2)
            return rates[m].first;
    }
    return rates[bestTo].first;
}

} // namespace

DispersionCapacity dispersionCapacity(std::span<const DispersionPoint> points, std::uint32_t mss, bool senderTimes,
                                      double floorMbps)
{
    DispersionCapacity out;
    if (mss == 0 || points.size() < 2)
        return out;
    std::vector<std::pair<double, double>> rates; // (estimate, segments)
    const auto delivers = [&](std::size_t k) { return points[k].bytes > points[k - 1].bytes; };
    const auto take = [&](std::size_t i, std::size_t j) {
        const std::int64_t span = points[j].atNs - points[i].atNs;
        if (span <= 0)
            return;
        const double mbps = static_cast<double>(points[j].bytes - points[i].bytes) * 8 / static_cast<double>(span) * 1e3;
        if (mbps >= floorMbps)
            rates.emplace_back(mbps, static_cast<double>(points[j].bytes - points[i].bytes) / mss);
    };
    if (senderTimes) {
        // The longest runs of ACKs whose data left back to back: the longer the train,
        // the less one ACK's lateness or compression weighs in it.
        const std::int64_t trainBytes = static_cast<std::int64_t>(kTrainSegments) * mss;
        for (std::size_t i = 0; i + 1 < points.size();) {
            std::size_t j = i;
            while (j + 1 < points.size() && points[i].sentNs >= 0 && points[j + 1].sentNs >= 0 && delivers(j + 1) &&
                   2 * (points[j + 1].sentNs - points[i].sentNs) <= points[j + 1].atNs - points[i].atNs)
                ++j;
            // The train's last segment alone, acknowledged on the delayed-ACK timer (RFC
            // 1122 4.2.3.2; 40 ms in Linux and ns-3), times the timer, not the path.
            if (j > i + 1 && points[j].bytes - points[j - 1].bytes < points[j - 1].bytes - points[j - 2].bytes)
                --j;
            if (points[j].bytes - points[i].bytes >= trainBytes) {
                take(i, j);
                i = j;
            } else {
                ++i;
            }
        }
        out.backToBack = rates.size();
    } else {
        // Runs of arrivals one ACK released: the sender sent them back to back. A window
        // far ahead of the cwnd lets out all of a flight at its first ACK's edge, whatever
        // ACKs clocked it out, so where the segments carry an echo it must agree too (the
        // edge still parts two ACKs of one timestamp tick).
        const auto releasedTogether = [&](std::size_t a, std::size_t b) {
            return points[a].releasedBy >= 0 && points[b].releasedBy == points[a].releasedBy &&
                   (points[a].echo < 0 || points[b].echo < 0 || points[a].echo == points[b].echo);
        };
        for (std::size_t i = 0; i + 1 < points.size();) {
            std::size_t j = i;
            while (j + 1 < points.size() && releasedTogether(i, j + 1) && delivers(j + 1))
                ++j;
            if (j > i)
                take(i, j);
            i = j + 1;
        }
    }
    out.trains = rates.size();
    out.mbps = modeOf(std::move(rates), out.agreeing);
    return out;
}

} // namespace windscope::analysis::replay
