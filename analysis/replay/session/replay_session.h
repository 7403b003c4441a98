// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A replay as the CLI and the GUI run it: the capture's own metrics, the baseline
// simulated from the derived (or given) scenario with its calibration error, and the
// same scenario re-simulated with the proposed fixes.
//
// A scenario with a random element (randomElements()) is one distribution of outcomes,
// not one: its baseline is run over several seeds and reported as the mean with the
// range across them, and each fix runs over the same seeds (common random numbers), so
// that what a fix changes is not mistaken for a different draw.

#include "analysis/replay/derive/derive_scenario.h"
#include "metrics.h"
#include "analysis/replay/sim/simulator.h"

#include <optional>

namespace windscope::analysis::replay {

// Seeds a scenario with a random element runs over by default: enough that the mean of
// a baseline whose single runs spread by +-10 % (cubic-wifi's scans and random loss)
// is known to a few percent, few enough that a replay stays under a second.
constexpr std::uint32_t kDefaultSeedRuns = 8;

struct ReplayOptions
{
    std::vector<std::string> fixes;
    double warnThreshold = 0.10; // calibration error on goodput that triggers the warning
    // Fit the random loss rate once: when the baseline retransmits clearly less than
    // the capture, add the missing retransmissions as random loss on the radio hop and
    // run the baseline again.
    bool fitLoss = true;
    // Runs of a scenario with a random element, seeds scenario.seed, +1, ...; 1: the
    // scenario's own seed once, as a single draw. A deterministic scenario runs once.
    std::uint32_t seedRuns = kDefaultSeedRuns;
    unsigned threads = 0; // simulations at once; 0: std::thread::hardware_concurrency()
};

// The scenario's random elements, by their scenario keys ("path.loss_fwd",
// "path.jitter_ms", "mac backoff", ...); empty: every seed gives the same run.
std::vector<std::string> randomElements(const Scenario& scenario);

// One scenario run over a list of seeds.
struct SeedRuns
{
    std::vector<std::uint64_t> seeds; // one seed when the scenario has no random element
    std::vector<Metrics> perSeed;     // in the order of seeds
    // Over the seeds: the mean of each figure (counts rounded to the nearest whole),
    // and the smallest and largest value of each.
    Metrics mean, min, max;
    // The run whose trace is kept (ReplayReport::baselineRun / fixedRun): the one whose
    // goodput is closest to the mean, the first such seed on a tie; for the fixed runs
    // the one on the baseline's kept seed (the pair drawn differs by the fix). A real
    // run, not an average trace.
    std::size_t kept = 0;
    std::uint64_t keptSeed() const { return seeds.empty() ? 0 : seeds[kept]; }
};

// The seeds a scenario runs over: its own, and the next runs - 1 when it has a random
// element.
std::vector<std::uint64_t> seedsFor(const Scenario& scenario, std::uint32_t runs);
// The runs' mean, range and kept run.
SeedRuns summariseSeedRuns(std::vector<std::uint64_t> seeds, std::vector<Metrics> perSeed);

// What the fixes change, over the seeds the baseline ran (the same ones).
struct FixEffect
{
    // The ratio of the mean goodputs (fixed / baseline): the effect on the goodput the
    // scenario predicts, and what the two reported means give. A mean of the per-seed
    // ratios would weigh a seed whose baseline drew a slow run more.
    double goodputRatio = 1;
    // Per seed, fixed over baseline on the same seed: how much the prediction moves
    // with the draw (common random numbers keep the pairs' noise mostly in common).
    double perSeedRatioMin = 1, perSeedRatioMax = 1;
};

struct ReplayReport
{
    Scenario scenario; // baseline scenario (after fitting)
    std::vector<std::string> notes;
    std::optional<Metrics> capture;              // absent when run from a scenario alone
    Metrics baseline;                            // the mean over baselineSeeds (one run: that run)
    std::optional<Metrics> fixed;                // absent without fixes; the mean over fixedSeeds
    // A capture cut mid-transfer (DerivedScenario::endedMidTransfer): the baseline sent
    // for the capture's time, as the fixed run did; the fix effect is against it. The
    // baseline above sends the capture's bytes, for the calibration (and its completion).
    std::optional<Metrics> fixBaseline;
    std::optional<CalibrationError> calibration; // against the baseline's mean
    SeedRuns baselineSeeds;
    std::optional<SeedRuns> fixedSeeds; // the same seeds as baselineSeeds
    std::optional<FixEffect> fixEffect;
    // The fixes again with the bottleneck queue at the least the capture allows
    // (DerivedScenario::queueFloorBytes) in place of the one BDP the scenario assumes
    // for a queue it never saw full: a fix that grows the flight past the capture's
    // meets that queue, and between the two effects lies what the capture cannot
    // decide. Over the same seeds; absent without fixes or with the queue measured.
    struct QueueFloorRun
    {
        std::uint64_t queueBytes = 0;
        Metrics baseline, fixed; // the means (baseline: over the capture's time where cut)
        FixEffect effect;
    };
    std::optional<QueueFloorRun> atQueueFloor;
    // What the fixed run's figures do not say by themselves (e.g. a fix that lifts the
    // window on a path whose rate the capture only bounds from below).
    std::vector<std::string> warnings;
    // The kept runs' traces (SeedRuns::kept), for plots and exports.
    SimResult baselineRun, fixedRun;
    std::string error;
};

// From a capture: scenario derived, baseline calibrated, fixes applied.
ReplayReport replayCapture(const DerivationInput& input, const ReplayOptions& options);
// From a scenario (preset or file): baseline, and the fixes on top.
ReplayReport replayScenario(const Scenario& scenario, const ReplayOptions& options);

} // namespace windscope::analysis::replay
