// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A replay as the CLI and the GUI run it: the capture's own metrics, the baseline
// simulated from the derived (or given) scenario with its calibration error, and the
// same scenario re-simulated with the proposed fixes.

#include "derive_scenario.h"
#include "metrics.h"
#include "simulator.h"

#include <optional>

namespace windscope::analysis::replay {

struct ReplayOptions
{
    std::vector<std::string> fixes;
    double warnThreshold = 0.10;  // calibration error on goodput that triggers the warning
    // Fit the random loss rate once: when the baseline retransmits clearly less than
    // the capture, add the missing retransmissions as random loss on the radio hop and
    // run the baseline again.
    bool fitLoss = true;
};

struct ReplayReport
{
    Scenario scenario;                   // baseline scenario (after fitting)
    std::vector<std::string> notes;
    std::optional<Metrics> capture;      // absent when run from a scenario alone
    Metrics baseline;
    std::optional<Metrics> fixed;        // absent without fixes
    std::optional<CalibrationError> calibration;
    // What the fixed run's figures do not say by themselves (e.g. a fix that lifts the
    // window on a path whose rate the capture only bounds from below).
    std::vector<std::string> warnings;
    SimResult baselineRun, fixedRun;
    std::string error;
};

// From a capture: scenario derived, baseline calibrated, fixes applied.
ReplayReport replayCapture(const DerivationInput& input, const ReplayOptions& options);
// From a scenario (preset or file): baseline, and the fixes on top.
ReplayReport replayScenario(const Scenario& scenario, const ReplayOptions& options);

} // namespace windscope::analysis::replay
