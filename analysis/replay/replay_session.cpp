// SPDX-License-Identifier: GPL-3.0-or-later
#include "replay_session.h"

#include "downstream_view.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace windscope::analysis::replay {

namespace {

// Refinements of the fitted random loss rate (each one simulation).
constexpr int kLossFitSteps = 3;
// Runs of a baseline with a periodic scan, the scan shifted by 1/kPhaseRuns of its
// period each.
constexpr std::uint32_t kPhaseRuns = 8;

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

// How much the baseline's goodput depends on where the periodic scan falls in the
// sender's rhythm: the scan's start shifted by each eighth of its period, the rest of
// the scenario unchanged. The derived phase is known to a few milliseconds, and which
// flights a 10 ms scan meets, and so how often the window is cut, turns on less.
void calibrateOverScanPhase(ReplayReport& report)
{
    const PeriodicScan& scan = report.scenario.periodicScan;
    if (scan.intervalMs <= 0 || !report.calibration)
        return;
    CalibrationError& e = *report.calibration;
    e.phaseRuns = kPhaseRuns;
    e.phaseGoodputMinBps = e.phaseGoodputMaxBps = report.baseline.goodputBps;
    for (std::uint32_t k = 1; k < kPhaseRuns; ++k) {
        Scenario shifted = report.scenario;
        shifted.periodicScan.firstS += scan.intervalMs / 1000 * k / kPhaseRuns;
        if (shifted.periodicScan.untilS > 0)
            shifted.periodicScan.untilS += scan.intervalMs / 1000 * k / kPhaseRuns;
        const SimResult run = simulate(shifted);
        if (!run.ok())
            continue;
        const double goodput = metricsOf(run).goodputBps;
        e.phaseGoodputMinBps = std::min(e.phaseGoodputMinBps, goodput);
        e.phaseGoodputMaxBps = std::max(e.phaseGoodputMaxBps, goodput);
    }
    if (e.exceeded && e.senderModelled && e.captureWithinPhaseRange()) {
        char buf[300];
        std::snprintf(buf, sizeof buf,
                      "; the capture's goodput lies within the baseline's range over the scan's phase (%.3f to %.3f "
                      "Mb/s over %u shifts): the error is the outcome's sensitivity to that phase",
                      e.phaseGoodputMinBps / 1e6, e.phaseGoodputMaxBps / 1e6, e.phaseRuns);
        e.warning += buf;
    }
}

} // namespace

ReplayReport replayCapture(const DerivationInput& input, const ReplayOptions& options)
{
    ReplayReport report;
    DerivedScenario derived = deriveScenario(input);
    report.scenario = derived.scenario;
    report.notes = derived.notes;
    const Connection& c = input.tcp->connections[input.connection];
    report.capture = metricsOf(*input.tables, *input.tcp, input.connection, input.sender);
    // Downstream of the losses, the loss episodes are the holes (downstream_view.h).
    countLossesFromHoles(input, *report.capture);
    report.baselineRun = simulate(report.scenario);
    if (!report.baselineRun.ok()) {
        report.error = report.baselineRun.error;
        return report;
    }
    report.baseline = metricsOf(report.baselineRun);
    // Random loss the capture shows beyond what the baseline reproduces. Only when the
    // capture has loss episodes away from a full queue (Metrics::lossEpisodesOffQueue)
    // that the baseline lacks: more drops at a full queue are congestion, which the
    // path model has to make itself. The rate then makes up the loss episodes
    // (Metrics::lossEpisodes) the baseline lacks, spread over the data packets as
    // independent losses, and is refined by the same step from each run (random loss
    // also lowers the window and with it the queue drops, so one step undershoots).
    // Episodes, not segments: a burst (a scan, a queue overflow) resends many segments
    // but cuts the window once, an independent loss is one segment an episode. A rate
    // is kept only when it brings the baseline closer to the capture in goodput and in
    // episodes both: closer episodes at a worse goodput say the losses were not
    // independent (bursts the outage timeline already stands for).
    const auto goodputError = [&](const Metrics& m) {
        return std::fabs(m.goodputBps - report.capture->goodputBps) / std::max(1.0, report.capture->goodputBps);
    };
    const auto episodeError = [&](const Metrics& m) {
        const double cap = static_cast<double>(report.capture->lossEpisodes);
        return std::fabs(static_cast<double>(m.lossEpisodes) - cap) / std::max(1.0, cap);
    };
    const std::uint64_t capEpisodes = report.capture->lossEpisodes, simEpisodes = report.baseline.lossEpisodes;
    const bool offQueueLoss = report.capture->lossEpisodesOffQueue > report.baseline.lossEpisodesOffQueue + 2;
    const double dataPackets = static_cast<double>(c.direction[input.sender].dataPackets);
    if (options.fitLoss && offQueueLoss && capEpisodes > simEpisodes && dataPackets > 0) {
        double loss = 0;
        std::uint64_t episodesNow = simEpisodes;
        for (int step = 0; step < kLossFitSteps && episodesNow < capEpisodes; ++step) {
            loss = std::min(0.2, loss + static_cast<double>(capEpisodes - episodesNow) / dataPackets);
            Scenario refit = report.scenario;
            refit.path.lossFwd = loss;
            SimResult again = simulate(refit);
            if (!again.ok())
                break;
            const Metrics m = metricsOf(again);
            episodesNow = m.lossEpisodesOffQueue;
            if (goodputError(m) < goodputError(report.baseline) && episodeError(m) < episodeError(report.baseline)) {
                report.scenario = refit;
                report.baselineRun = std::move(again);
                report.baseline = m;
            }
        }
        char buf[240];
        std::snprintf(buf, sizeof buf,
                      "path.loss_fwd %.5f: fitted (the capture has %llu loss episodes, %llu segments resent; the "
                      "baseline without random loss %llu episodes)",
                      report.scenario.path.lossFwd, static_cast<unsigned long long>(capEpisodes),
                      static_cast<unsigned long long>(report.capture->resentSegments),
                      static_cast<unsigned long long>(simEpisodes));
        report.notes.push_back(buf);
    }
    report.calibration = calibrationError(*report.capture, report.baseline, options.warnThreshold);
    calibrateOverScanPhase(report);
    if (!derived.senderNotModelled.empty()) {
        CalibrationError& e = *report.calibration;
        e.senderModelled = false;
        e.exceeded = true;
        char buf[120];
        std::snprintf(buf, sizeof buf, " (goodput %.1f%% off) measures the stand-in, not the path model", e.goodput * 100);
        e.warning = derived.senderNotModelled + ": the baseline runs CUBIC in its place, so its error" + buf +
                    ", and the fix results are not predictions for this sender";
    }
    runFixed(report, options);
    if (!derived.pathRateUnseen.empty() && report.fixed && report.fixed->goodputBps > 1.1 * report.baseline.goodputBps) {
        char buf[200];
        std::snprintf(buf, sizeof buf,
                      "the fixed run goes %.0f%% faster than the baseline on a path whose rate the capture only "
                      "bounds from below (%.3f Mb/s assumed): ",
                      (report.fixed->goodputBps / report.baseline.goodputBps - 1) * 100,
                      report.scenario.path.bottleneckMbps);
        report.warnings.push_back(buf + derived.pathRateUnseen +
                                  "; its gain is a lower bound (sweep bottleneck-mbps to see how it grows with the path)");
    }
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
