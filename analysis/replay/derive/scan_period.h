// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The period of a station's background scans, from the times its absences began (the
// AP's retries, the holds the deliveries show): the times folded over candidate periods
// and the concentration of their phases tested (Rayleigh, periodic_outages.h's
// rayleighSurprise()). Shared by the scan steps (steps_scans.cpp, steps_held_releases.cpp).

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace windscope::analysis::replay::derive {

// Fewer absences than this leave the period to chance.
inline constexpr std::size_t kMinAbsences = 8;
// Family-wise false-detection rate of the period search (as periodic_outages.h).
inline constexpr double kPeriodAlpha = 0.01;
// A scan period is searched between these (issue #19's range; paper 004's 100-300 ms).
inline constexpr double kMinPeriodS = 0.05, kMaxPeriodS = 1.0;
// A sub-multiple of the period folds the scans as well as the period itself; the
// period is the longest candidate within this share of the best concentration.
inline constexpr double kHarmonicShare = 0.9;

// Mean resultant length of the times folded at periodS, and its mean phase.
std::pair<double, double> fold(const std::vector<double>& timesS, double periodS);

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
PeriodFit searchPeriod(const std::vector<double>& timesS);

// Capture times as seconds from the first, for the fold.
std::vector<double> secondsFromFirst(const std::vector<std::int64_t>& ns);

// Each time's offset from the mean phase, in (-period/2, period/2].
std::vector<double> phaseDeviations(const std::vector<double>& timesS, double periodS,
                                    double meanPhase);

// Silences of another rhythm (a slow start's flights, one round trip apart) can fold
// with the scans' at a sub-multiple of the scan period. A scan that repeats every
// cycle of a period puts its silences in every residue of their cycle numbers modulo
// k in turn; at most three quarters of them in one residue is that spread. Silences at
// the phase that fall three quarters or more in one residue repeat every k-th cycle:
// the period is k times longer, up to the longest searched.
void wholeMultipleOfPeriod(const std::vector<double>& timesS, PeriodFit& fit);

} // namespace windscope::analysis::replay::derive
