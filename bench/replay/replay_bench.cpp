// SPDX-License-Identifier: GPL-3.0-or-later
// Replay engine speed: simulated seconds per wall second for one 50 Mb/s connection
// over 60 s (single thread), with and without turning the trace into TCP tables and
// analysing it, and the wall time of a 32-point sweep on all cores.
#include "analysis/replay/metrics.h"
#include "analysis/replay/presets.h"
#include "analysis/replay/simulator.h"
#include "analysis/replay/sweep.h"

#include <chrono>
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
    const Scenario s = bulk50();
    auto t0 = std::chrono::steady_clock::now();
    const std::clock_t c0 = std::clock();
    const SimResult r = simulate(s);
    const std::clock_t c1 = std::clock();
    auto t1 = std::chrono::steady_clock::now();
    const Metrics m = metricsOf(r);
    auto t2 = std::chrono::steady_clock::now();
    if (!r.ok()) {
        std::fprintf(stderr, "replay_bench: %s\n", r.error.c_str());
        return 1;
    }
    const double simulated = static_cast<double>(r.endNs) / 1e9;
    std::printf("50 Mb/s, 60 s: %.1f Mb/s goodput, %llu events, %zu trace rows\n", m.goodputBps / 1e6,
                static_cast<unsigned long long>(r.events), r.trace.size());
    std::printf("  simulate:            %.3f s wall, %.0fx real time\n", seconds(t1 - t0), simulated / seconds(t1 - t0));
    // CPU time too: on a loaded machine the wall clock also counts other processes.
    const double cpu = static_cast<double>(c1 - c0) / CLOCKS_PER_SEC;
    std::printf("  simulate:            %.3f s CPU,  %.0fx real time\n", cpu, simulated / cpu);
    std::printf("  simulate + analyse:  %.3f s wall, %.0fx real time\n", seconds(t2 - t0), simulated / seconds(t2 - t0));

    Scenario scan;
    makePreset("scan-004-none", scan);
    SweepSpec spec{"scan-interval", 100, 410, 10, 0};
    const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    t0 = std::chrono::steady_clock::now();
    const auto points = runSweep(scan, spec);
    t1 = std::chrono::steady_clock::now();
    std::printf("sweep scan-interval 100..410 ms on scan-004 (10 s each): %zu points, %u threads, %.3f s wall\n",
                points.size(), cores, seconds(t1 - t0));
    spec.threads = 1;
    t0 = std::chrono::steady_clock::now();
    runSweep(scan, spec);
    t1 = std::chrono::steady_clock::now();
    std::printf("  same sweep on one thread: %.3f s wall\n", seconds(t1 - t0));
    return 0;
}
