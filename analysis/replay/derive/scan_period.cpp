// SPDX-License-Identifier: GPL-3.0-or-later
#include "scan_period.h"

#include "periodic_outages.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace windscope::analysis::replay::derive {

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
    fit.thresholdZ = std::log(static_cast<double>(candidates.size()) / kPeriodAlpha);
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

std::vector<double> secondsFromFirst(const std::vector<std::int64_t>& ns)
{
    std::vector<double> timesS;
    for (const std::int64_t t : ns)
        timesS.push_back(static_cast<double>(t - ns.front()) / 1e9);
    return timesS;
}

std::vector<double> phaseDeviations(const std::vector<double>& timesS, double periodS,
                                    double meanPhase)
{
    std::vector<double> deviations;
    for (const double t : timesS) {
        double d = std::fmod(t - meanPhase, periodS);
        d = d > periodS / 2 ? d - periodS : d <= -periodS / 2 ? d + periodS : d;
        deviations.push_back(d);
    }
    return deviations;
}

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

} // namespace windscope::analysis::replay::derive
