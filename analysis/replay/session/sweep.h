// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Sweeps: one scenario run for each value of one parameter, on all cores, with
// progress and cancel. A parameter is a fix with a sweep range in the fix registry
// (scan-interval, rx-app-buffer, ampdu-max, max-window, ...) or one of the scenario
// keys declared here (handoff-duration, loss, seed, ...); sweepParameters() lists both
// with their units and starting ranges, for the front-ends to format.

#include "metrics.h"
#include "replay_session.h"
#include "analysis/replay/scenario/fix.h"
#include "analysis/replay/scenario/scenario.h"

#include <atomic>
#include <functional>
#include <string>
#include <vector>

namespace windscope::analysis::replay {

struct SweepSpec
{
    std::string parameter;
    double from = 0, to = 0, step = 1;
    unsigned threads = 0;            // 0: std::thread::hardware_concurrency()
    // Each point is the mean over these seeds (the scenario's and the next ones, the
    // same at every point), as the baseline is, when the scenario has a random element;
    // 1: the scenario's seed once. A sweep of the seed itself runs each point once.
    std::uint32_t seedRuns = kDefaultSeedRuns;
};

struct SweepPoint
{
    double value = 0;
    Metrics metrics; // the mean over runs.seeds
    SeedRuns runs;
    std::string error;
};

// One parameter a sweep can vary: a fix with a value, or a scenario key.
struct SweepParameter
{
    std::string_view name;
    ValueKind kind = ValueKind::Number;
    std::string_view unit; // "" for none (a probability, a seed)
    SweepRange range;      // where a sweep starts from
    std::string_view help;
    bool isFix = false;
};

// The fixes with a sweep range, in registry order, then the scenario keys.
const std::vector<SweepParameter>& sweepParameters();
// The parameter named name, or nullptr.
const SweepParameter* findSweepParameter(std::string_view name);
// The names of sweepParameters(), in the same order.
const std::vector<std::string>& sweepParameterNames();

// "PARAM=from:to:step" -> spec; false with error.
bool parseSweep(const std::string& text, SweepSpec& out, std::string& error);
// Sets one value of the parameter on a copy of the scenario.
bool applySweepValue(Scenario& scenario, const std::string& parameter, double value, std::string& error);

// progress(done, total) is called from worker threads, serialised.
std::vector<SweepPoint> runSweep(const Scenario& base, const SweepSpec& spec,
                                 const std::function<void(std::size_t, std::size_t)>& progress = {},
                                 const std::atomic<bool>* cancel = nullptr);

} // namespace windscope::analysis::replay
