// SPDX-License-Identifier: GPL-3.0-or-later
#include "replay_session.h"

#include <cmath>
#include <cstdio>

namespace windscope::analysis::replay {

namespace {

void runFixed(ReplayReport& report, const ReplayOptions& options)
{
    if (options.fixes.empty())
        return;
    Scenario fixed = report.scenario;
    fixed.fixes.insert(fixed.fixes.end(), options.fixes.begin(), options.fixes.end());
    report.fixedRun = simulate(fixed);
    if (!report.fixedRun.ok()) {
        report.error = report.fixedRun.error;
        return;
    }
    report.fixed = metricsOf(report.fixedRun);
}

} // namespace

ReplayReport replayCapture(const DerivationInput& input, const ReplayOptions& options)
{
    ReplayReport report;
    DerivedScenario derived = deriveScenario(input);
    report.scenario = derived.scenario;
    report.notes = derived.notes;
    const Connection& c = input.tcp->connections[input.connection];
    report.capture = metricsOf(*input.tcp, input.connection, input.sender);
    report.baselineRun = simulate(report.scenario);
    if (!report.baselineRun.ok()) {
        report.error = report.baselineRun.error;
        return report;
    }
    report.baseline = metricsOf(report.baselineRun);
    // Random loss the capture shows beyond what the baseline reproduces: the
    // retransmissions the baseline lacks, spread over the data packets, kept when it
    // brings the baseline closer to the capture in goodput and retransmissions taken
    // together.
    const auto resent = [](const Metrics& m) { return m.retransmissions; };
    const auto distance = [&](const Metrics& m) {
        const double g = std::fabs(m.goodputBps - report.capture->goodputBps) /
                         std::max(1.0, report.capture->goodputBps);
        const double r = std::fabs(static_cast<double>(resent(m)) - static_cast<double>(resent(*report.capture))) /
                         std::max(1.0, static_cast<double>(resent(*report.capture)));
        return g + r;
    };
    const std::uint64_t capResent = resent(*report.capture), simResent = resent(report.baseline);
    if (options.fitLoss && capResent > simResent + 2 && c.direction[input.sender].dataPackets > 0) {
        Scenario fitted;
        SimResult fittedRun;
        Metrics fittedMetrics;
        bool improved = false;
        const double loss = std::min(0.2, static_cast<double>(capResent - simResent) /
                                              static_cast<double>(c.direction[input.sender].dataPackets));
        Scenario refit = report.scenario;
        refit.path.lossFwd = loss;
        SimResult again = simulate(refit);
        if (again.ok()) {
            const Metrics m = metricsOf(again);
            if (distance(m) < distance(report.baseline)) {
                fitted = refit;
                fittedRun = std::move(again);
                fittedMetrics = m;
                improved = true;
            }
        }
        if (improved) {
            report.scenario = fitted;
            report.baselineRun = std::move(fittedRun);
            report.baseline = fittedMetrics;
        }
        char buf[200];
        std::snprintf(buf, sizeof buf, "path.loss_fwd %.5f: fitted (capture resent %llu segments, baseline without "
                                       "random loss %llu)",
                      report.scenario.path.lossFwd, static_cast<unsigned long long>(capResent),
                      static_cast<unsigned long long>(simResent));
        report.notes.push_back(buf);
    }
    report.calibration = calibrationError(*report.capture, report.baseline, options.warnThreshold);
    runFixed(report, options);
    return report;
}

ReplayReport replayScenario(const Scenario& scenario, const ReplayOptions& options)
{
    ReplayReport report;
    report.scenario = scenario;
    report.baselineRun = simulate(scenario);
    if (!report.baselineRun.ok()) {
        report.error = report.baselineRun.error;
        return report;
    }
    report.baseline = metricsOf(report.baselineRun);
    runFixed(report, options);
    return report;
}

} // namespace windscope::analysis::replay
