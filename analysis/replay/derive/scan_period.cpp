// SPDX-License-Identifier: GPL-3.0-or-later
#include "scan_period.h"

#include "periodic_outages.h"
#include "sample_statistics.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
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

namespace {

// The most times within toleranceS of one phase of periodS, and that phase.
std::pair<std::size_t, double> mostOnLattice(const std::vector<double>& timesS, double periodS,
                                             double toleranceS, std::vector<double>& phases)
{
    phases.clear();
    for (const double t : timesS)
        phases.push_back(std::fmod(t, periodS));
    std::sort(phases.begin(), phases.end());
    const std::size_t n = phases.size();
    for (std::size_t i = 0; i < n; ++i)
        phases.push_back(phases[i] + periodS);
    std::size_t most = 0;
    double phase = 0;
    for (std::size_t i = 0, j = 0; i < n; ++i) {
        j = std::max(j, i);
        while (j + 1 < i + n && phases[j + 1] - phases[i] <= 2 * toleranceS)
            ++j;
        if (j - i + 1 > most) {
            most = j - i + 1;
            phase = std::fmod((phases[i] + phases[j]) / 2, periodS);
        }
    }
    return {most, phase};
}

} // namespace

// Beyond this many times the fold's test has the power itself (a fold of 64 with half of
// them at the phase, R 0.5, has a Rayleigh surprise of about 16, above every threshold of
// the search), and the lattice's search would cost candidates times as many.
constexpr std::size_t kMaxLatticeTimes = 64;
constexpr double kMaxLatticeCandidates = 1 << 18;

PeriodFit searchLattice(const std::vector<double>& timesS, double toleranceS)
{
    PeriodFit fit;
    const std::size_t n = timesS.size();
    if (n < kMinLatticeTimes || n > kMaxLatticeTimes || toleranceS <= 0)
        return fit;
    const double spanS = std::max(timesS.back() - timesS.front(), kMaxPeriodS);
    // The candidates the search steps through (the phase drifting by the tolerance over
    // the span): a cost bound, beyond which the fold alone is tried (about three minutes
    // of silences at a 2 ms tolerance).
    if (std::log(kMaxPeriodS / kMinPeriodS) * spanS / toleranceS > kMaxLatticeCandidates)
        return fit;
    std::vector<double> phases;
    double bestSurprise = 0, bestPeriod = 0, bestPhase = 0;
    std::size_t bestCount = 0, candidates = 0;
    for (double p = kMinPeriodS; p <= kMaxPeriodS; p += toleranceS * p / spanS) {
        ++candidates;
        const auto [count, phase] = mostOnLattice(timesS, p, toleranceS, phases);
        if (count < kMinLatticeTimes)
            continue;
        const double surprise =
            -logBinomialTail(count - 1, n - 1, std::min(1.0, 2 * toleranceS / p));
        if (surprise > bestSurprise) {
            bestSurprise = surprise;
            bestPeriod = p;
            bestPhase = phase;
            bestCount = count;
        }
    }
    fit.thresholdZ =
        std::log(static_cast<double>(candidates) * static_cast<double>(n) / kPeriodAlpha);
    fit.z = bestSurprise;
    if (bestSurprise <= fit.thresholdZ)
        return fit;
    // A sub-multiple of the period holds the scans' times as well, and those of another
    // rhythm that falls on it too (a flight a round trip apart, where the round trip is a
    // whole number of the sub-multiple): the period is the longest whole multiple whose
    // own lattice is as surprising within the harmonic share (as the fold's candidates).
    const double basePeriod = bestPeriod;
    for (int k = 2; k * basePeriod <= kMaxPeriodS; ++k) {
        const double p = k * basePeriod;
        const auto [count, phase] = mostOnLattice(timesS, p, toleranceS, phases);
        if (count < kMinLatticeTimes)
            continue;
        const double surprise = -logBinomialTail(count - 1, n - 1, std::min(1.0, 2 * toleranceS / p));
        if (surprise > fit.thresholdZ && surprise >= kHarmonicShare * bestSurprise) {
            bestPeriod = p;
            bestPhase = phase;
            bestCount = count;
            fit.z = surprise;
        }
    }
    // Refined: the least-squares line through the times on the lattice, by cycle.
    double sx = 0, sy = 0, sxx = 0, sxy = 0, m = 0;
    for (const double t : timesS) {
        const double cycle = std::round((t - bestPhase) / bestPeriod);
        if (std::abs(t - bestPhase - cycle * bestPeriod) > toleranceS)
            continue;
        sx += cycle;
        sy += t;
        sxx += cycle * cycle;
        sxy += cycle * t;
        ++m;
    }
    const double det = m * sxx - sx * sx;
    fit.periodS = det > 0 ? (m * sxy - sx * sy) / det : bestPeriod;
    const double offsetS = det > 0 ? (sy - fit.periodS * sx) / m : bestPhase;
    fit.phaseS = std::fmod(offsetS, fit.periodS);
    if (fit.phaseS < 0)
        fit.phaseS += fit.periodS;
    fit.toleranceS = toleranceS;
    fit.onLattice = bestCount;
    fit.r = fold(timesS, fit.periodS).first;
    fit.found = true;
    return fit;
}

void preferLattice(PeriodFit& fit, const PeriodFit& lattice, double spanS)
{
    if (!lattice.found)
        return;
    if (!fit.found) {
        fit = lattice;
        return;
    }
    // A whole multiple: k times the fold's period drifts from the lattice's by at most
    // the fold's own band (an eighth of a period) over the times.
    const double k = std::round(lattice.periodS / fit.periodS);
    if (k >= 2 && std::abs(lattice.periodS - k * fit.periodS) * spanS / lattice.periodS <=
                      lattice.periodS / 8)
        fit = lattice;
}

double phaseOf(const std::vector<double>& timesS, const PeriodFit& fit)
{
    return fit.toleranceS > 0 ? fit.phaseS : fold(timesS, fit.periodS).second;
}

double phaseBand(const PeriodFit& fit)
{
    return fit.toleranceS > 0 ? fit.toleranceS : fit.periodS / 8;
}

std::string periodEvidence(const PeriodFit& fit)
{
    char buf[160];
    if (fit.toleranceS > 0)
        std::snprintf(buf, sizeof buf,
                      "%zu within %.1f ms of its lattice, binomial -ln p %.1f against %.1f",
                      fit.onLattice, fit.toleranceS * 1000, fit.z, fit.thresholdZ);
    else
        std::snprintf(buf, sizeof buf, "R %.2f, Rayleigh -ln p %.1f against %.1f", fit.r, fit.z,
                      fit.thresholdZ);
    return buf;
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
    const double meanPhase = phaseOf(timesS, fit);
    const std::vector<double> deviations = phaseDeviations(timesS, fit.periodS, meanPhase);
    std::vector<long long> cycles;
    for (std::size_t i = 0; i < timesS.size(); ++i)
        if (std::abs(deviations[i]) <= phaseBand(fit))
            cycles.push_back(std::llround((timesS[i] - deviations[i] - meanPhase) / fit.periodS));
    if (cycles.size() < kMinAbsences)
        return;
    for (int k = 2; k * fit.periodS <= kMaxPeriodS; ++k) {
        std::vector<std::size_t> residues(static_cast<std::size_t>(k), 0);
        for (const long long c : cycles)
            ++residues[static_cast<std::size_t>(((c % k) + k) % k)];
        const auto most = static_cast<double>(*std::max_element(residues.begin(), residues.end()));
        if (most >= kOneResidueShare * static_cast<double>(cycles.size())) {
            if (fit.toleranceS > 0) {
                // The lattice's phase is the most populous residue's cycle.
                const auto residue =
                    std::max_element(residues.begin(), residues.end()) - residues.begin();
                fit.phaseS = std::fmod(fit.phaseS + static_cast<double>(residue) * fit.periodS,
                                       k * fit.periodS);
                fit.onLattice = static_cast<std::size_t>(most);
            }
            fit.periodS *= k;
            fit.r = fold(timesS, fit.periodS).first;
            return;
        }
    }
}

void periodOfSeenScans(const std::vector<double>& timesS, PeriodFit& fit, const std::vector<double>& awayS)
{
    if (!fit.found || awayS.size() < 2)
        return;
    std::vector<double> spacings;
    for (std::size_t i = 1; i < awayS.size(); ++i)
        if (awayS[i] - awayS[i - 1] <= kMaxPeriodS)
            spacings.push_back(awayS[i] - awayS[i - 1]);
    if (spacings.empty())
        return;
    const double shortest = *std::min_element(spacings.begin(), spacings.end());
    if (shortest >= fit.periodS - phaseBand(fit))
        return;
    const long long k = std::llround(fit.periodS / shortest);
    if (k < 2)
        return;
    const double periodS = fit.periodS / static_cast<double>(k);
    // Each spacing a whole number of the shorter periods, within the phase a scan's
    // start may deviate by.
    const bool allWhole = std::all_of(spacings.begin(), spacings.end(), [&](double d) {
        return std::abs(d - periodS * std::round(d / periodS)) <= periodS / 8;
    });
    if (!allWhole)
        return;
    fit.periodS = periodS;
    fit.phaseS = std::fmod(fit.phaseS, periodS);
    fit.r = fold(timesS, fit.periodS).first;
}

} // namespace windscope::analysis::replay::derive
