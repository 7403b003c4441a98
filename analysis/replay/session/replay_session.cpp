// SPDX-License-Identifier: GPL-3.0-or-later
#include "replay_session.h"

#include "analysis/parallel.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <optional>
#include <thread>

namespace windscope::analysis::replay {

namespace {

// Refinements of the fitted random loss rate (each one run over the seeds).
constexpr int kLossFitSteps = 3;
// Runs of a baseline with a periodic scan, the scan shifted by 1/kPhaseRuns of its
// period each.
constexpr std::uint32_t kPhaseRuns = 8;

constexpr double Metrics::*kFigures[] = {&Metrics::goodputBps, &Metrics::completionS};
constexpr std::uint64_t Metrics::*kCounts[] = {
    &Metrics::retransmissions,      &Metrics::rtoTimeouts,    &Metrics::bytes,
    &Metrics::outOfOrder,           &Metrics::resentSegments, &Metrics::lossEpisodes,
    &Metrics::lossEpisodesOffQueue, &Metrics::dataPackets};

struct RunOutcome
{
    SimResult run;
    Metrics metrics;
};

// Runs every scenario, up to `threads` at once: a shared counter hands out the next
// index, as runSweep does, and each result lands at its scenario's index, so what comes
// out does not depend on the number of threads or on which thread ran what. Without
// keepTraces a run keeps only its metrics (and error).
std::vector<RunOutcome> runAll(const std::vector<Scenario>& scenarios, unsigned threads,
                               bool keepTraces, bool lossesAtReceiver = false)
{
    std::vector<RunOutcome> out(scenarios.size());
    if (scenarios.empty())
        return out;
    threads = threads ? threads : std::max(1u, std::thread::hardware_concurrency());
    threads = static_cast<unsigned>(std::min<std::size_t>(threads, scenarios.size()));
    std::atomic<std::size_t> next{0};
    auto worker = [&] {
        for (std::size_t i = next++; i < scenarios.size(); i = next++) {
            RunOutcome& o = out[i];
            o.run = simulate(scenarios[i]);
            if (o.run.ok()) {
                o.metrics = metricsOf(o.run);
                if (lossesAtReceiver)
                    countLossesAtReceiver(o.run, o.metrics);
            }
            if (!keepTraces) {
                SimResult metricsOnly;
                metricsOnly.error = std::move(o.run.error);
                o.run = std::move(metricsOnly);
            }
        }
    };
    runOnThreads(threads, worker);
    return out;
}

Metrics meanOf(const std::vector<Metrics>& runs)
{
    Metrics mean;
    if (runs.empty())
        return mean;
    const auto n = static_cast<double>(runs.size());
    for (auto figure : kFigures) {
        double sum = 0;
        for (const Metrics& m : runs)
            sum += m.*figure;
        mean.*figure = sum / n;
    }
    for (auto count : kCounts) {
        double sum = 0;
        for (const Metrics& m : runs)
            sum += static_cast<double>(m.*count);
        mean.*count = static_cast<std::uint64_t>(std::llround(sum / n));
    }
    return mean;
}

// Each figure's smallest (largest: pickLarger) value over the runs.
Metrics extremeOf(const std::vector<Metrics>& runs, bool pickLarger)
{
    Metrics out = runs.empty() ? Metrics{} : runs.front();
    for (const Metrics& m : runs) {
        for (auto figure : kFigures)
            out.*figure =
                pickLarger ? std::max(out.*figure, m.*figure) : std::min(out.*figure, m.*figure);
        for (auto count : kCounts)
            out.*count =
                pickLarger ? std::max(out.*count, m.*count) : std::min(out.*count, m.*count);
    }
    return out;
}

// The scenario once per seed; the run closest to the mean kept in `kept`, or the one of
// seed index keepIndex where given. False with error when a run failed.
bool runOverSeeds(const Scenario& scenario, const std::vector<std::uint64_t>& seeds,
                  unsigned threads, SeedRuns& out, SimResult& kept, std::string& error,
                  bool lossesAtReceiver = false,
                  std::optional<std::size_t> keepIndex = std::nullopt)
{
    std::vector<Scenario> runs(seeds.size(), scenario);
    for (std::size_t i = 0; i < seeds.size(); ++i)
        runs[i].seed = seeds[i];
    std::vector<RunOutcome> done = runAll(runs, threads, true, lossesAtReceiver);
    std::vector<Metrics> perSeed;
    for (RunOutcome& o : done) {
        if (!o.run.ok()) {
            error = o.run.error;
            return false;
        }
        perSeed.push_back(o.metrics);
    }
    out = summariseSeedRuns(seeds, std::move(perSeed));
    if (keepIndex && *keepIndex < done.size())
        out.kept = *keepIndex;
    kept = std::move(done[out.kept].run);
    return true;
}

// overCaptureTime: the capture ended mid-transfer (DerivedScenario::endedMidTransfer),
// so the fix is compared over its time: in the time a cut capture recorded, a fix
// delivers more, not the same bytes sooner, and the two differ where the fix changes
// what follows an event (a timer backed off through a handoff leaves a small ssthresh
// the rest of the capture crawls behind) rather than the pace throughout.
void runFixed(ReplayReport& report, const ReplayOptions& options, bool overCaptureTime = false)
{
    if (options.fixes.empty())
        return;
    Scenario base = report.scenario;
    const SeedRuns* compared = &report.baselineSeeds;
    SeedRuns timed;
    if (overCaptureTime && base.bytes > 0) {
        base.bytes = 0;
        SimResult timedRun;
        if (!runOverSeeds(base, report.baselineSeeds.seeds, options.threads, timed, timedRun,
                          report.error))
            return;
        compared = &timed;
        report.fixBaseline = timed.mean;
        char buf[200];
        std::snprintf(buf, sizeof buf,
                      "fix effect over the capture's %.3f s: it ended mid-transfer, so the "
                      "baseline and the fixed run send for that time (the baseline %.0f b/s "
                      "over it)",
                      base.durationS, timed.mean.goodputBps);
        report.notes.push_back(buf);
    }
    Scenario fixed = base;
    fixed.fixes.insert(fixed.fixes.end(), options.fixes.begin(), options.fixes.end());
    // The baseline's seeds, so that seed k of the fix meets the draws seed k of the
    // baseline met (common random numbers): the pairs differ by the fix, not the luck.
    // The fixed run kept is the one on the baseline's kept seed, so the two drawn side
    // by side differ by the fix too.
    SeedRuns runs;
    if (!runOverSeeds(fixed, report.baselineSeeds.seeds, options.threads, runs, report.fixedRun,
                      report.error, false, report.baselineSeeds.kept))
        return;
    FixEffect effect;
    effect.goodputRatio = runs.mean.goodputBps / std::max(1.0, compared->mean.goodputBps);
    for (std::size_t i = 0; i < runs.perSeed.size(); ++i) {
        const double ratio =
            runs.perSeed[i].goodputBps / std::max(1.0, compared->perSeed[i].goodputBps);
        effect.perSeedRatioMin = i == 0 ? ratio : std::min(effect.perSeedRatioMin, ratio);
        effect.perSeedRatioMax = i == 0 ? ratio : std::max(effect.perSeedRatioMax, ratio);
    }
    report.fixed = runs.mean;
    report.fixedSeeds = std::move(runs);
    report.fixEffect = effect;
}

std::string joined(const std::vector<std::string>& items)
{
    std::string out;
    for (const std::string& item : items)
        out += (out.empty() ? "" : ", ") + item;
    return out;
}

// The baseline's spread over its seeds, and the warning's word on it: a capture inside
// that range is no further from the mean than another draw of the same scenario.
void calibrateOverSeeds(ReplayReport& report)
{
    CalibrationError& e = *report.calibration;
    const SeedRuns& runs = report.baselineSeeds;
    e.seedRuns = static_cast<std::uint32_t>(runs.seeds.size());
    e.seedGoodputMinBps = runs.min.goodputBps;
    e.seedGoodputMaxBps = runs.max.goodputBps;
    if (e.exceeded && e.captureWithinSeedRange()) {
        char buf[200];
        std::snprintf(buf, sizeof buf,
                      "; the capture's goodput lies within the baseline's range over its %u seeds "
                      "(%.3f to %.3f "
                      "Mb/s): one capture is one draw of the scenario's random elements (",
                      e.seedRuns, e.seedGoodputMinBps / 1e6, e.seedGoodputMaxBps / 1e6);
        e.warning += buf + joined(randomElements(report.scenario)) + ")";
    }
}

// How much the baseline's goodput depends on where the periodic scan falls in the
// sender's rhythm: the scan's start shifted by each eighth of its period, the rest of
// the scenario unchanged. The derived phase is known to a few milliseconds, and which
// flights a 10 ms scan meets, and so how often the window is cut, turns on less. Each
// shift runs over the baseline's seeds and counts with its mean, so the range is what
// the phase does to the prediction (unshifted: the baseline's mean).
void calibrateOverScanPhase(ReplayReport& report, const ReplayOptions& options)
{
    const PeriodicScan& scan = report.scenario.periodicScan;
    if (scan.intervalMs <= 0 || !report.calibration)
        return;
    CalibrationError& e = *report.calibration;
    e.phaseRuns = kPhaseRuns;
    e.phaseGoodputMinBps = e.phaseGoodputMaxBps = report.baseline.goodputBps;
    const std::vector<std::uint64_t>& seeds = report.baselineSeeds.seeds;
    std::vector<Scenario> runs;
    for (std::uint32_t k = 1; k < kPhaseRuns; ++k)
        for (const std::uint64_t seed : seeds) {
            Scenario shifted = report.scenario;
            shifted.seed = seed;
            shifted.periodicScan.firstS += scan.intervalMs / 1000 * k / kPhaseRuns;
            if (shifted.periodicScan.untilS > 0)
                shifted.periodicScan.untilS += scan.intervalMs / 1000 * k / kPhaseRuns;
            runs.push_back(std::move(shifted));
        }
    const std::vector<RunOutcome> done = runAll(runs, options.threads, false);
    for (std::size_t k = 0; k + 1 < kPhaseRuns; ++k) {
        double sum = 0;
        bool ok = true;
        for (std::size_t i = 0; i < seeds.size(); ++i) {
            const RunOutcome& o = done[k * seeds.size() + i];
            ok = ok && o.run.ok();
            sum += o.metrics.goodputBps;
        }
        if (!ok)
            continue;
        const double goodput = sum / static_cast<double>(seeds.size());
        e.phaseGoodputMinBps = std::min(e.phaseGoodputMinBps, goodput);
        e.phaseGoodputMaxBps = std::max(e.phaseGoodputMaxBps, goodput);
    }
    if (e.exceeded && e.senderModelled && e.captureWithinPhaseRange()) {
        char buf[300];
        std::snprintf(buf, sizeof buf,
                      "; the capture's goodput lies within the baseline's range over the scan's "
                      "phase (%.3f to %.3f "
                      "Mb/s over %u shifts): the error is the outcome's sensitivity to that phase",
                      e.phaseGoodputMinBps / 1e6, e.phaseGoodputMaxBps / 1e6, e.phaseRuns);
        e.warning += buf;
    }
}

// ReplayReport::atQueueFloor, and a warning where it and the fix effect assumed differ
// by more than the calibration threshold (the most the baseline may miss its capture
// by and still count as its match).
void runAtQueueFloor(ReplayReport& report, const ReplayOptions& options, const DerivedScenario& derived)
{
    if (!report.fixEffect || derived.queueFloorBytes == 0 ||
        derived.queueFloorBytes >= report.scenario.path.queueBytes)
        return;
    ReplayReport floor;
    floor.scenario = report.scenario;
    floor.scenario.path.queueBytes = derived.queueFloorBytes;
    if (!runOverSeeds(floor.scenario, report.baselineSeeds.seeds, options.threads, floor.baselineSeeds,
                      floor.baselineRun, floor.error))
        return;
    floor.baseline = floor.baselineSeeds.mean;
    runFixed(floor, options, derived.endedMidTransfer);
    if (!floor.fixEffect || !floor.fixed)
        return;
    ReplayReport::QueueFloorRun run;
    run.queueBytes = derived.queueFloorBytes;
    run.baseline = floor.fixBaseline ? *floor.fixBaseline : floor.baseline;
    run.fixed = *floor.fixed;
    run.effect = *floor.fixEffect;
    const double assumed = report.fixEffect->goodputRatio, atFloor = run.effect.goodputRatio;
    if (std::fabs(atFloor - assumed) > options.warnThreshold * std::min(atFloor, assumed)) {
        char buf[400];
        std::snprintf(buf, sizeof buf,
                      "the fix effect turns on a queue the capture never saw full: %.3fx with the one BDP "
                      "assumed (%llu B), %.3fx with the least it allows (%llu B, its fullest reading); "
                      "the effect lies between (sweep queue-kb to see how it moves)",
                      assumed, static_cast<unsigned long long>(report.scenario.path.queueBytes), atFloor,
                      static_cast<unsigned long long>(run.queueBytes));
        report.warnings.push_back(buf);
    }
    report.atQueueFloor = run;
}

// The baseline of another run of the scenario taken in place of the report's: its
// scenario, its seeds' runs and their mean.
void takeBaseline(ReplayReport& into, ReplayReport& from)
{
    into.scenario = std::move(from.scenario);
    into.baselineSeeds = std::move(from.baselineSeeds);
    into.baselineRun = std::move(from.baselineRun);
    into.baseline = from.baseline;
}

// Of the radio's own losses (segments lost first time alone), the share that were the
// scans': those at the scans beyond what chance puts in that stretch of the cycle, where
// losses elsewhere show the radio's rate. Zero where the stretch is the whole cycle.
double scanShareOfLoneLosses(const DerivedScenario& derived)
{
    const double at = static_cast<double>(derived.loneLossesAtScans),
                 all = at + static_cast<double>(derived.loneLossesElsewhere),
                 window = derived.scanLossWindowShare;
    if (at == 0 || window >= 1)
        return 0;
    // at = scans + window * random, all = scans + random.
    const double scans = std::max(0.0, (at - window * all) / (1 - window));
    return std::min(1.0, scans / all);
}

// The baseline of `scenario` over its seeds into the report. False with report.error.
// lossesAtReceiver: count its loss episodes as a capture at the receiver does.
bool runBaseline(ReplayReport& report, const ReplayOptions& options, bool lossesAtReceiver = false)
{
    if (!runOverSeeds(report.scenario, seedsFor(report.scenario, options.seedRuns), options.threads,
                      report.baselineSeeds, report.baselineRun, report.error, lossesAtReceiver))
        return false;
    report.baseline = report.baselineSeeds.mean;
    return true;
}

} // namespace

std::vector<std::string> randomElements(const Scenario& scenario)
{
    std::vector<std::string> out;
    if (scenario.path.lossFwd > 0)
        out.emplace_back("path.loss_fwd");
    if (scenario.path.lossRev > 0)
        out.emplace_back("path.loss_rev");
    if (scenario.path.jitterMs > 0)
        out.emplace_back("path.jitter_ms");
    if (scenario.mac.enabled && scenario.mac.cwMin > 0)
        out.emplace_back("mac backoff");
    if (scenario.mac.enabled && scenario.mac.frameErrorRate > 0)
        out.emplace_back("mac.frame_error_rate");
    return out;
}

std::vector<std::uint64_t> seedsFor(const Scenario& scenario, std::uint32_t runs)
{
    std::vector<std::uint64_t> seeds{scenario.seed};
    if (runs > 1 && !randomElements(scenario).empty())
        for (std::uint32_t k = 1; k < runs; ++k)
            seeds.push_back(scenario.seed + k);
    return seeds;
}

SeedRuns summariseSeedRuns(std::vector<std::uint64_t> seeds, std::vector<Metrics> perSeed)
{
    SeedRuns s;
    s.seeds = std::move(seeds);
    s.perSeed = std::move(perSeed);
    s.mean = meanOf(s.perSeed);
    s.min = extremeOf(s.perSeed, false);
    s.max = extremeOf(s.perSeed, true);
    for (std::size_t i = 1; i < s.perSeed.size(); ++i)
        if (std::fabs(s.perSeed[i].goodputBps - s.mean.goodputBps) <
            std::fabs(s.perSeed[s.kept].goodputBps - s.mean.goodputBps))
            s.kept = i;
    return s;
}

ReplayReport replayCapture(const DerivationInput& input, const ReplayOptions& options)
{
    ReplayReport report;
    DerivedScenario derived = deriveScenario(input);
    report.scenario = derived.scenario;
    report.notes = derived.notes;
    const Connection& c = input.tcp->connections[input.connection];
    report.capture = metricsOf(*input.tables, *input.tcp, input.connection, input.sender);
    // Downstream of the losses, the loss episodes are the holes (downstream_view.h), and
    // the baseline's are counted as its receiver would see them.
    const bool lossesAtReceiver = derived.downstream;
    if (lossesAtReceiver) {
        report.capture->lossEpisodes = derived.holeEpisodes;
        report.capture->lossEpisodesOffQueue = derived.holeEpisodesOffQueue;
    }
    if (!runBaseline(report, options, lossesAtReceiver))
        return report;
    const auto goodputError = [&](const Metrics& m) {
        return std::fabs(m.goodputBps - report.capture->goodputBps) /
               std::max(1.0, report.capture->goodputBps);
    };
    const auto episodeError = [&](const Metrics& m) {
        const double cap = static_cast<double>(report.capture->lossEpisodes);
        return std::fabs(static_cast<double>(m.lossEpisodes) - cap) / std::max(1.0, cap);
    };
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
    // independent (bursts the outage timeline already stands for). Every figure here is
    // the mean over the seeds (random loss is itself a random element), so the rate is
    // fitted to what the scenario predicts, not to one draw of it.
    const double dataPackets = static_cast<double>(c.direction[input.sender].dataPackets);
    // scanLoneShare: the share of the radio's own losses that were the scans', where the
    // random loss also stands for those the capture placed at the scans.
    const auto fitRandomLoss = [&](ReplayReport& r, double scanLoneShare) {
        const std::uint64_t capEpisodes = report.capture->lossEpisodes,
                            simEpisodes = r.baseline.lossEpisodes;
        // A scan's loss (the frames the AP sent into the absence, DerivedScenario::
        // scanLossEpisodes) is not congestion wherever the queue stood.
        const bool offQueueLoss =
            report.capture->lossEpisodesOffQueue > r.baseline.lossEpisodesOffQueue + 2 ||
            derived.scanLossEpisodes > 0 || scanLoneShare > 0;
        if (options.fitLoss && offQueueLoss && capEpisodes > simEpisodes && dataPackets > 0) {
            double loss = 0;
            std::uint64_t episodesNow = simEpisodes;
            for (int step = 0; step < kLossFitSteps && episodesNow < capEpisodes; ++step) {
                loss =
                    std::min(0.2, loss + static_cast<double>(capEpisodes - episodesNow) / dataPackets);
                ReplayReport refit;
                refit.scenario = r.scenario;
                refit.scenario.path.lossFwd = loss;
                if (!runBaseline(refit, options, lossesAtReceiver))
                    break;
                const Metrics& m = refit.baseline;
                episodesNow = m.lossEpisodesOffQueue;
                if (goodputError(m) < goodputError(r.baseline) &&
                    episodeError(m) < episodeError(r.baseline))
                    takeBaseline(r, refit);
            }
            char buf[240];
            std::snprintf(buf, sizeof buf,
                          "path.loss_fwd %.5f: fitted (the capture has %llu loss episodes, %llu "
                          "segments resent; the "
                          "baseline without random loss %llu episodes)",
                          r.scenario.path.lossFwd, static_cast<unsigned long long>(capEpisodes),
                          static_cast<unsigned long long>(report.capture->resentSegments),
                          static_cast<unsigned long long>(simEpisodes));
            r.notes.push_back(buf);
            // Without the 802.11 model the scans lose nothing themselves; the random loss
            // stands for theirs too, up to the episodes it was fitted to make up.
            Scenario& fitted = r.scenario;
            if ((derived.scanLossEpisodes > 0 || scanLoneShare > 0) && fitted.path.lossFwd > 0 &&
                !fitted.mac.enabled && fitted.periodicScan.intervalMs > 0) {
                const double afterScans = std::min(1.0, static_cast<double>(derived.scanLossEpisodes) /
                                                            static_cast<double>(capEpisodes - simEpisodes));
                fitted.periodicScan.lossShare = std::max(afterScans, scanLoneShare);
                char share[320];
                if (afterScans >= scanLoneShare)
                    std::snprintf(
                        share, sizeof share,
                        "periodic_scan.loss_share %.2f: of the %llu episodes the random loss makes "
                        "up, %llu followed the scans (the frames sent into their absences)",
                        fitted.periodicScan.lossShare,
                        static_cast<unsigned long long>(capEpisodes - simEpisodes),
                        static_cast<unsigned long long>(derived.scanLossEpisodes));
                else
                    std::snprintf(
                        share, sizeof share,
                        "periodic_scan.loss_share %.2f: the random loss stands for the radio's own "
                        "losses, %llu of them at the scans and %llu elsewhere, where chance puts "
                        "%.0f %% of them (a dwell before a scan to two after)",
                        fitted.periodicScan.lossShare,
                        static_cast<unsigned long long>(derived.loneLossesAtScans),
                        static_cast<unsigned long long>(derived.loneLossesElsewhere),
                        100 * derived.scanLossWindowShare);
                r.notes.push_back(share);
            }
        }
    };
    // The scans' losses placed where the capture lost them (PeriodicScan::lostSegments)
    // stand for what the held scans lose without the 802.11 model. Where the baseline's
    // own congestion already makes the capture's episodes (the placed ones land among
    // its queue's drops in another order) they are losses twice: kept only when, the
    // random loss fitted to each, they bring the baseline closer to the capture in
    // goodput and no further in episodes, as the random loss itself is.
    if (!report.scenario.periodicScan.lostSegments.empty() && options.fitLoss) {
        ReplayReport without;
        without.scenario = report.scenario;
        without.scenario.periodicScan.lostSegments.clear();
        if (runBaseline(without, options, lossesAtReceiver)) {
            fitRandomLoss(report, 0);
            fitRandomLoss(without, scanShareOfLoneLosses(derived));
            if (!(goodputError(report.baseline) < goodputError(without.baseline) &&
                  episodeError(report.baseline) <= episodeError(without.baseline))) {
                char buf[160];
                std::snprintf(buf, sizeof buf,
                              "periodic_scan.lost_segments: left out (the baseline %.1f %% off the capture's "
                              "goodput with them, %.1f %% without)",
                              100 * goodputError(report.baseline), 100 * goodputError(without.baseline));
                report.notes.resize(derived.notes.size());
                report.notes.insert(report.notes.end(), without.notes.begin(), without.notes.end());
                report.notes.push_back(buf);
                takeBaseline(report, without);
            }
        } else {
            fitRandomLoss(report, 0);
        }
    } else {
        fitRandomLoss(report, 0);
    }
    report.calibration = calibrationError(*report.capture, report.baseline, options.warnThreshold);
    calibrateOverSeeds(report);
    calibrateOverScanPhase(report, options);
    if (!derived.senderNotModelled.empty()) {
        CalibrationError& e = *report.calibration;
        e.senderModelled = false;
        e.exceeded = true;
        char buf[120];
        std::snprintf(buf, sizeof buf,
                      " (goodput %.1f%% off) measures the stand-in, not the path model",
                      e.goodput * 100);
        e.warning = derived.senderNotModelled +
                    ": the baseline runs CUBIC in its place, so its error" + buf +
                    ", and the fix results are not predictions for this sender";
    }
    runFixed(report, options, derived.endedMidTransfer);
    runAtQueueFloor(report, options, derived);
    if (!derived.pathRateUnseen.empty() && report.fixEffect &&
        report.fixEffect->goodputRatio > 1.1) {
        char buf[200];
        std::snprintf(buf, sizeof buf,
                      "the fixed run goes %.0f%% faster than the baseline on a path whose rate the "
                      "capture only bounds from below (%.3f Mb/s assumed): ",
                      (report.fixEffect->goodputRatio - 1) * 100,
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
    if (!runBaseline(report, options))
        return report;
    runFixed(report, options);
    return report;
}

} // namespace windscope::analysis::replay
