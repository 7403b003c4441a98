// SPDX-License-Identifier: GPL-3.0-or-later
// Cost of the congestion-window inference next to the ingest and TCP analysis it
// builds on: one run over a capture, wall time of each stage, the inference done for
// the data sender of every connection that carried data (what the GUI and
// `windscope-cli cwnd` compute for one flow at a time), every model replayed per flow.
//
//   windscope-bench-cwnd FILE [--repeat N]
//
// With --repeat, the inference runs N times on one thread and N times on every
// hardware thread, and the fastest of each is given: on a shared machine the other
// work only ever adds time.
#include "analysis/cwnd/cwnd_inference.h"
#include "analysis/tcp/tcp_analysis.h"
#include "dissectors/ingest.h"

#include <algorithm>
#include <chrono>
#include <ctime>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

namespace {

double secondsSince(std::chrono::steady_clock::time_point start)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// CPU time of the whole process (every thread): unlike wall time it hardly moves when
// other work shares the machine.
double processCpuSeconds()
{
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) / 1e9;
}

} // namespace

int main(int argc, char** argv)
{
    using namespace windscope;
    int repeat = 1;
    if (argc == 4 && std::string(argv[2]) == "--repeat")
        repeat = std::max(1, std::atoi(argv[3]));
    if (argc != 2 && argc != 4) {
        std::fprintf(stderr, "usage: windscope-bench-cwnd FILE [--repeat N]\n");
        return 2;
    }
    const std::string path = argv[1];
    auto start = std::chrono::steady_clock::now();
    double cpu = processCpuSeconds();
    dissect::CaptureTables tables;
    std::string error;
    if (!dissect::ingestCapture(path, {}, tables, error)) {
        std::fprintf(stderr, "windscope-bench-cwnd: %s\n", error.c_str());
        return 1;
    }
    const double ingestS = secondsSince(start);
    const double ingestCpu = processCpuSeconds() - cpu;
    start = std::chrono::steady_clock::now();
    cpu = processCpuSeconds();
    const analysis::TcpAnalysis tcp = analysis::analyzeTcp(tables);
    const double analysisS = secondsSince(start);
    const double analysisCpu = processCpuSeconds() - cpu;

    // Once on one thread (the CPU cost), once on every hardware thread (the wall time
    // a user waits); the results are the same.
    std::vector<analysis::cwnd::CwndInference> inference;
    double inferenceS = 0, inferenceCpu = 0, parallelS = 0;
    for (int run = 0; run < repeat; ++run) {
        start = std::chrono::steady_clock::now();
        cpu = processCpuSeconds();
        if (!analysis::cwnd::inferCwndAll(tables, tcp, {}, 1, inference, error)) {
            std::fprintf(stderr, "windscope-bench-cwnd: %s\n", error.c_str());
            return 1;
        }
        const double wall = secondsSince(start), used = processCpuSeconds() - cpu;
        inferenceS = run ? std::min(inferenceS, wall) : wall;
        inferenceCpu = run ? std::min(inferenceCpu, used) : used;
    }
    for (int run = 0; run < repeat; ++run) {
        start = std::chrono::steady_clock::now();
        analysis::cwnd::inferCwndAll(tables, tcp, {}, 0, inference, error);
        const double wall = secondsSince(start);
        parallelS = run ? std::min(parallelS, wall) : wall;
    }
    std::size_t flows = 0, followed = 0;
    std::uint64_t samples = 0;
    for (const analysis::cwnd::CwndInference& i : inference) {
        if (i.notFollowed == analysis::cwnd::NotFollowedReason::NoData)
            continue;
        ++flows;
        followed += i.notFollowed == analysis::cwnd::NotFollowedReason::None;
        samples += i.series.size();
    }
    const double baseS = ingestS + analysisS;
    std::printf("file: %s\n", path.c_str());
    std::printf("tcp segments: %zu, connections with data: %zu (cwnd followed for %zu), cwnd samples: %llu\n",
                tables.tcp.size(), flows, followed, static_cast<unsigned long long>(samples));
    std::printf("ingest            %8.4f s\n", ingestS);
    std::printf("tcp analysis      %8.4f s\n", analysisS);
    std::printf("cwnd inference    %8.4f s  (%.1f%% of ingest + analysis) on 1 thread\n", inferenceS,
                baseS > 0 ? 100.0 * inferenceS / baseS : 0.0);
    std::printf("cwnd inference    %8.4f s  (%.1f%% of ingest + analysis) on %u threads\n", parallelS,
                baseS > 0 ? 100.0 * parallelS / baseS : 0.0, std::max(1u, std::thread::hardware_concurrency()));
    const double baseCpu = ingestCpu + analysisCpu;
    std::printf("cpu time: ingest %.4f s, tcp analysis %.4f s, cwnd inference %.4f s (%.1f%% of ingest + "
                "analysis)\n",
                ingestCpu, analysisCpu, inferenceCpu, baseCpu > 0 ? 100.0 * inferenceCpu / baseCpu : 0.0);
    return 0;
}
