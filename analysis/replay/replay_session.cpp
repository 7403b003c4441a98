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
    const std::uint64_t capRetx = report.capture->retransmissions;
    if (options.fitLoss && capRetx > report.baseline.retransmissions + 2 && c.direction[input.sender].dataPackets > 0) {
        const double missing = static_cast<double>(capRetx - report.baseline.retransmissions);
        Scenario refit = report.scenario;
        refit.path.lossFwd = std::min(0.2, missing / static_cast<double>(c.direction[input.sender].dataPackets));
        SimResult again = simulate(refit);
        if (again.ok()) {
            const Metrics m = metricsOf(again);
            const double before = std::fabs(report.baseline.goodputBps - report.capture->goodputBps);
            const double after = std::fabs(m.goodputBps - report.capture->goodputBps);
            char buf[200];
            std::snprintf(buf, sizeof buf,
                          "path.loss_fwd %.5f: the baseline retransmitted %llu segments, the capture %llu%s",
                          refit.path.lossFwd, static_cast<unsigned long long>(report.baseline.retransmissions),
                          static_cast<unsigned long long>(capRetx),
                          after <= before * 1.05 + 1 ? "" : " (kept although goodput moved away)");
            report.notes.push_back(buf);
            report.scenario = refit;
            report.baselineRun = std::move(again);
            report.baseline = m;
        }
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
