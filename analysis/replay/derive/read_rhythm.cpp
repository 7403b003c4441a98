// SPDX-License-Identifier: GPL-3.0-or-later
#include "read_rhythm.h"

#include "sample_statistics.h"

#include <algorithm>
#include <cmath>

namespace windscope::analysis::replay {

ReadRhythm readRhythm(const std::vector<std::pair<std::int64_t, std::uint64_t>>& updates)
{
    ReadRhythm r;
    std::vector<double> gaps; // microseconds between consecutive updates
    for (std::size_t i = 1; i < updates.size(); ++i) {
        const double us = static_cast<double>(updates[i].first - updates[i - 1].first) / 1e3;
        if (us > 0 && us < 2e6)
            gaps.push_back(us);
    }
    if (gaps.size() < 20)
        return r;
    std::sort(gaps.begin(), gaps.end());
    // Clusters of equal gaps (within 2% or 50 us), the well populated ones (10% each).
    struct Cluster
    {
        double sum = 0;
        std::size_t count = 0;
        double centre() const { return sum / static_cast<double>(count); }
    };
    std::vector<Cluster> clusters;
    for (const double g : gaps) {
        if (clusters.empty() || g - clusters.back().centre() > std::max(50.0, 0.02 * g))
            clusters.push_back({});
        clusters.back().sum += g;
        ++clusters.back().count;
    }
    std::vector<double> centres;
    for (const Cluster& c : clusters)
        if (c.count * 10 >= gaps.size())
            centres.push_back(c.centre());
    if (centres.empty())
        return r;
    if (centres.size() == 1) {
        r.periodUs = centres[0];
        r.oneReadPerUpdate = true;
        std::vector<double> opened;
        for (const auto& u : updates)
            opened.push_back(static_cast<double>(u.second));
        r.bytesPerUpdate = percentile(opened, 0.5);
        return r;
    }
    // The common step of the intervals: the smallest difference between neighbouring
    // centres, accepted when every centre is a whole number of it.
    double step = centres.back();
    for (std::size_t i = 1; i < centres.size(); ++i)
        step = std::min(step, centres[i] - centres[i - 1]);
    for (const double c : centres) {
        const double n = c / step;
        if (std::fabs(n - std::round(n)) > 0.15)
            return r;
    }
    r.periodUs = step;
    return r;
}

} // namespace windscope::analysis::replay
