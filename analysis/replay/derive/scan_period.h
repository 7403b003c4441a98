// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The period of a station's background scans, from the times its absences began (the
// AP's retries, the holds the deliveries show): the times folded over candidate periods
// and the concentration of their phases tested (Rayleigh, periodic_outages.h's
// rayleighSurprise()). Shared by the scan steps (steps_scans.cpp, steps_held_releases.cpp).

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace windscope::analysis::replay::derive {

// Fewer absences than this leave the period to chance.
inline constexpr std::size_t kMinAbsences = 8;
// Two times give a lattice's period; the third is the first that can fall on it or not.
inline constexpr std::size_t kMinLatticeTimes = 3;
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
    double z = 0, thresholdZ = 0; // the test's -ln p at the best candidate, what it had to exceed
    // Set where the lattice test (searchLattice()) gave the period: the starts' phase,
    // how far from it a start on the lattice lies, and how many do; else 0.
    double phaseS = 0, toleranceS = 0;
    std::size_t onLattice = 0;
};

// The scan period of times that repeat at it (a scan's start, seen with a frame's jitter):
// the candidates step so that the phase drifts by at most an eighth of a period over
// the times; the longest candidate near the best concentration, refined. The test is
// Bonferroni's over the candidates: the silences a sender's own rhythms leave (a slow
// reader's window, a flight a round trip) are not independent events, and folded over
// hundreds of periods one of them may concentrate past what the independent periods
// alone would allow.
PeriodFit searchPeriod(const std::vector<double>& timesS);

// A scan's timer keeps its period to the microsecond; what blurs the silences it leaves
// is where each was seen to begin, within toleranceS of the station's departure (the
// last delivery before it). The lattice test counts the times within toleranceS of one
// phase of a candidate period, where times at random would land with probability
// 2 toleranceS / period each: the binomial tail of that count (the phase's own time
// aside) is the surprise, tested over every candidate and phase (Bonferroni). Where
// few silences were seen, or many of another rhythm mix with them, it finds a period
// the fold's mean resultant cannot: a fold's Rayleigh surprise is at most about 2n
// for n times, a lattice's grows with how tight they fall. Candidates step so that the
// phase drifts by at most toleranceS over the times; a sub-multiple holds whatever the
// period holds, so the period is the longest whole multiple of the best whose lattice is
// as surprising within kHarmonicShare; it is refined through the times on the lattice.
PeriodFit searchLattice(const std::vector<double>& timesS, double toleranceS);

// The fold's period (searchPeriod()) and the lattice's: the lattice's where the fold
// found none, or where it is a whole multiple of the fold's (a fold concentrates as
// well at a sub-multiple of the period, the lattice counts the tighter hits of the
// longer one); an unrelated lattice leaves the fold's.
void preferLattice(PeriodFit& fit, const PeriodFit& lattice, double spanS);

// The phase a fit's pattern starts at (the lattice's, or the fold's mean phase) and
// how far from it a time still counts as at it (the lattice's tolerance, or an eighth
// of the period).
double phaseOf(const std::vector<double>& timesS, const PeriodFit& fit);
double phaseBand(const PeriodFit& fit);

// The test behind a fit, for a note: "R 0.85, Rayleigh -ln p 19.9 against 11.9" or
// "12 within 4.0 ms of its lattice, binomial -ln p 41.6 against 17.0".
std::string periodEvidence(const PeriodFit& fit);

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

// The converse: silences that met every k-th scan only fold at k times the scans'
// period. Scans seen otherwise (awayS, in time order) closer together than the fit's
// period, each spacing a whole number of a period k times shorter, set the period.
void periodOfSeenScans(const std::vector<double>& timesS, PeriodFit& fit, const std::vector<double>& awayS);

} // namespace windscope::analysis::replay::derive
