// SPDX-License-Identifier: GPL-3.0-or-later
// Replay engine speed: simulated seconds per wall second for one 50 Mb/s connection
// over 60 s (single thread), with and without turning the trace into TCP tables and
// analysing it, and the wall time of a 32-point sweep on all cores.
#include "analysis/replay/session/metrics.h"
#include "analysis/replay/scenario/presets.h"
#include "analysis/replay/session/replay_session.h"
#include "analysis/replay/sim/simulator.h"
#include "analysis/replay/session/sweep.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <ctime>
#include <cstdio>
#include <thread>

using namespace windscope::analysis::replay;

namespace {

double seconds(std::chrono::steady_clock::duration d)
{
    return std::chrono::duration<double>(d).count();
}

Scenario bulk50()
{
    Scenario s;
    s.name = "bench-50mbps";
    s.durationS = 60;
    s.path.bottleneckMbps = 50;
    s.path.queueBytes = 125000; // 20 ms at 50 Mb/s
    s.path.wiredDelayMs = 10;
    s.path.wirelessDelayMs = 1;
    s.path.lossFwd = 0.0001;
    s.sender.cc = "cubic";
    s.receiver.bufferBytes = 4u << 20;
    return s;
}

} // namespace

int main()
{
    // The machine may be shared: the wall clock also counts other processes, so each
    // figure is the best of a few runs, CPU time is given too, and so is the load.
    constexpr int kRepeats = 5;
    double loads[3] = {0, 0, 0};
    if (getloadavg(loads, 3) == 3)
        std::printf("load average %.2f %.2f %.2f on %u cores\n", loads[0], loads[1], loads[2],
                    std::max(1u, std::thread::hardware_concurrency()));
    const Scenario s = bulk50();
    SimResult r;
    double bestWall = 1e9, bestCpu = 1e9, bestBoth = 1e9;
    Metrics m;
    for (int i = 0; i < kRepeats; ++i) {
        const auto t0 = std::chrono::steady_clock::now();
        const std::clock_t c0 = std::clock();
        r = simulate(s);
        const std::clock_t c1 = std::clock();
        const auto t1 = std::chrono::steady_clock::now();
        m = metricsOf(r);
        const auto t2 = std::chrono::steady_clock::now();
        if (!r.ok()) {
            std::fprintf(stderr, "replay_bench: %s\n", r.error.c_str());
            return 1;
        }
        bestWall = std::min(bestWall, seconds(t1 - t0));
        bestCpu = std::min(bestCpu, static_cast<double>(c1 - c0) / CLOCKS_PER_SEC);
        bestBoth = std::min(bestBoth, seconds(t2 - t0));
    }
    const double simulated = static_cast<double>(r.endNs) / 1e9;
    std::printf("50 Mb/s, 60 s: %.1f Mb/s goodput, %llu events, %zu trace rows (best of %d)\n", m.goodputBps / 1e6,
                static_cast<unsigned long long>(r.events), r.trace.size(), kRepeats);
    std::printf("  simulate:            %.3f s wall, %.0fx real time\n", bestWall, simulated / bestWall);
    std::printf("  simulate:            %.3f s CPU,  %.0fx real time\n", bestCpu, simulated / bestCpu);
    std::printf("  simulate + analyse:  %.3f s wall, %.0fx real time\n", bestBoth, simulated / bestBoth);

    // A scenario derived from a Linux sender's capture recovers with RACK-TLP, whose
    // loss detection walks the outstanding segments on every ACK.
    Scenario withRack = s;
    withRack.sender.rackTlp = true;
    double bestRack = 1e9;
    for (int i = 0; i < kRepeats; ++i) {
        const auto t0 = std::chrono::steady_clock::now();
        r = simulate(withRack);
        bestRack = std::min(bestRack, seconds(std::chrono::steady_clock::now() - t0));
    }
    std::printf("  simulate, RACK-TLP:  %.3f s wall, %.0fx real time (%llu loss probes)\n", bestRack,
                static_cast<double>(r.endNs) / 1e9 / bestRack, static_cast<unsigned long long>(r.sender.lossProbes));

    Scenario scan;
    makePreset("scan-004-none", scan);
    SweepSpec spec{"scan-interval", 100, 410, 10, 0};
    const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    auto t0 = std::chrono::steady_clock::now();
    const auto points = runSweep(scan, spec);
    auto t1 = std::chrono::steady_clock::now();
    std::printf("sweep scan-interval 100..410 ms on scan-004 (10 s each): %zu points, %u threads, %.3f s wall\n",
                points.size(), cores, seconds(t1 - t0));
    spec.threads = 1;
    t0 = std::chrono::steady_clock::now();
    runSweep(scan, spec);
    t1 = std::chrono::steady_clock::now();
    std::printf("  same sweep on one thread: %.3f s wall\n", seconds(t1 - t0));

    // A replay of a scenario with a random element (the 50 Mb/s run's random loss): its
    // baseline over the default seeds on all cores against one run.
    for (const std::uint32_t seedRuns : {1u, kDefaultSeedRuns}) {
        ReplayOptions options;
        options.seedRuns = seedRuns;
        t0 = std::chrono::steady_clock::now();
        const ReplayReport report = replayScenario(s, options);
        t1 = std::chrono::steady_clock::now();
        std::printf("replay of the 50 Mb/s run, %u seed run%s, %u threads: %.3f s wall (goodput %.2f Mb/s)\n", seedRuns,
                    seedRuns == 1 ? "" : "s", cores, seconds(t1 - t0), report.baseline.goodputBps / 1e6);
    }
    return 0;
}
