// SPDX-License-Identifier: GPL-3.0-or-later
// windscope-cli replay: re-simulate a captured connection (or a preset / edited
// scenario) with proposed fixes. The JSON and CSV are written by analysis/report/
// report_replay.h, in the CLI contract of docs/cli.md: {"capture": M, "baseline": M,
// "fixed": M, "calibration_error": {...}}.
#include "cli_replay.h"
#include "cli_flow.h"

#include "analysis/cwnd/cwnd_inference.h"
#include "analysis/report/report_replay.h"
#include "analysis/replay/scenario/fix.h"
#include "analysis/replay/scenario/presets.h"
#include "analysis/replay/session/replay_session.h"
#include "analysis/replay/scenario/scenario_json.h"
#include "analysis/replay/session/sweep.h"
#include "analysis/tcp/tcp_analysis.h"
#include "analysis/wlan/wlan_events.h"
#include "analysis/wlan/wlan_inventory.h"

#include <atomic>
#include <csignal>
#include <cstdio>
#include <fstream>
#include <iostream>

#ifdef WINDSCOPE_HAVE_STORE
#include "analysis/store/project_store.h"
#endif

namespace windscope::cli {

namespace {

namespace rp = analysis::replay;

constexpr const char* kUsage =
    "usage: windscope-cli replay FILE --flow ID|ADDR:PORT-ADDR:PORT [--fix NAME[=VALUE]]... [--json]\n"
    "       windscope-cli replay --scenario FILE.json | --preset NAME [--fix NAME[=VALUE]]... [--json]\n"
    "  options: --sweep PARAM=from:to:step [--threads N] [--csv]   one run per value, all cores\n"
    "           --seed-runs N            seeds a scenario with a random element runs over (default 8; 1: one run)\n"
    "           --threads N              simulations at once (default: all cores)\n"
    "           --dump-scenario PATH|-   write the (derived) baseline scenario as JSON\n"
    "           --threshold PCT          calibration warning threshold on goodput (default 10)\n"
    "           --no-fit-loss            do not fit the random loss rate to the capture\n"
    "           --project P.wsproj       also save the scenario and the run's results in the project\n"
    "           --list-presets, --list-fixes, --list-sweep\n";

// The usage text with the parameters --sweep takes, as the registries declare them.
std::string usage()
{
    std::string text = kUsage;
    text += "  sweep parameters:";
    std::size_t column = 20;
    for (const rp::SweepParameter& p : rp::sweepParameters()) {
        std::string item = " " + std::string(p.name);
        if (!p.unit.empty())
            item += " (" + std::string(p.unit) + ")";
        if (column + item.size() > 88) {
            text += "\n                   ";
            column = 19;
        }
        text += item;
        column += item.size();
    }
    return text + "\n";
}

// --list-sweep: each parameter, its value, unit and the range a sweep starts from.
void listSweepParameters()
{
    for (const rp::SweepParameter& p : rp::sweepParameters()) {
        char range[96];
        std::snprintf(range, sizeof range, "%.10g:%.10g:%.10g", p.range.from, p.range.to, p.range.step);
        const std::string unit = p.unit.empty() ? std::string() : " " + std::string(p.unit);
        std::printf("%-24s %-18s %-20s %.*s\n", std::string(p.name).c_str(),
                    (std::string(rp::valueKindName(p.kind)) + unit).c_str(), range,
                    static_cast<int>(p.help.size()), p.help.data());
    }
}

void printMetricsRow(const char* label, const rp::Metrics& m)
{
    std::printf("%-9s %12.0f %12.3f %8llu %8llu\n", label, m.goodputBps, m.completionS,
                static_cast<unsigned long long>(m.retransmissions), static_cast<unsigned long long>(m.rtoTimeouts));
}

// Where the kept run lost what it lost: a replay off the capture usually loses in
// another place than the path did (a queue overflow where the capture shows a scan's
// retry-limit drops, or the reverse).
void printLosses(const char* label, const rp::SimResult& run)
{
    if (!run.ok())
        return;
    std::uint64_t data[3] = {0, 0, 0}, acks = 0;
    for (const rp::DropRecord& d : run.drops) {
        if (!d.data) {
            ++acks;
            continue;
        }
        ++data[static_cast<int>(d.reason)];
    }
    std::printf("%s run's losses: data %llu at the bottleneck queue, %llu while the station was "
                "away, %llu to the "
                "radio (retry limit, random loss or its full queue), ACKs %llu",
                label, static_cast<unsigned long long>(data[0]),
                static_cast<unsigned long long>(data[1]), static_cast<unsigned long long>(data[2]),
                static_cast<unsigned long long>(acks));
    if (run.scenario.mac.enabled)
        std::printf("; 802.11: %llu exchanges, %llu failed (%llu collisions, %llu to an absent "
                    "station), %llu frames "
                    "refused by a full radio queue",
                    static_cast<unsigned long long>(run.mac.exchanges),
                    static_cast<unsigned long long>(run.mac.failures),
                    static_cast<unsigned long long>(run.mac.collisions),
                    static_cast<unsigned long long>(run.mac.absentFailures),
                    static_cast<unsigned long long>(run.mac.queueDrops));
    std::printf("\n");
}

bool writeText(const std::string& path, const std::string& text)
{
    if (path == "-") {
        std::cout << text;
        return true;
    }
    std::ofstream out(path, std::ios::binary);
    out << text;
    return static_cast<bool>(out);
}

// Set by SIGINT during a sweep: the workers finish the run they are in and stop.
std::atomic<bool> g_sweepCancel{false};

extern "C" void cancelSweep(int)
{
    g_sweepCancel.store(true);
}

// Saves the scenario and the run's record in the project; the capture is linked when
// the project holds it. Returns false with error.
bool saveToProject(const std::string& projectPath, const std::string& capturePath, const rp::Scenario& scenario,
                   const std::string& scenarioName, const std::string& runJson, std::string& error)
{
#ifdef WINDSCOPE_HAVE_STORE
    namespace store = analysis::store;
    auto project = store::ProjectStore::open(projectPath, error);
    if (!project)
        return false;
    std::int64_t captureId = 0;
    if (!capturePath.empty()) {
        store::CaptureRecord capture;
        std::string notFound;
        if (project->findCapture(capturePath, capture, notFound))
            captureId = capture.id;
    }
    const std::int64_t scenarioId = project->saveScenario(captureId, scenarioName, rp::scenarioToJson(scenario), error);
    if (scenarioId == 0)
        return false;
    const std::int64_t runId = project->saveRun(scenarioId, runJson, error);
    if (runId == 0)
        return false;
    std::fprintf(stderr, "windscope-cli replay: saved run %lld (scenario %lld%s) in %s\n",
                 static_cast<long long>(runId), static_cast<long long>(scenarioId),
                 captureId ? (", capture " + std::to_string(captureId)).c_str() : "", projectPath.c_str());
    return true;
#else
    (void)capturePath, (void)scenario, (void)scenarioName, (void)runJson;
    error = "--project " + projectPath + ": this build has no project support (SQLite and OpenSSL)";
    return false;
#endif
}

} // namespace

int runReplay(const std::vector<std::string>& args)
{
    std::string path, flow, scenarioPath, preset, dumpPath, sweepText, projectPath;
    bool json = false, csv = false;
    unsigned threads = 0;
    rp::ReplayOptions options;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        const bool hasNext = i + 1 < args.size();
        if (a == "--json")
            json = true;
        else if (a == "--csv")
            csv = true;
        else if (a == "--flow" && hasNext)
            flow = args[++i];
        else if (a == "--fix" && hasNext)
            options.fixes.push_back(args[++i]);
        else if (a == "--scenario" && hasNext)
            scenarioPath = args[++i];
        else if (a == "--preset" && hasNext)
            preset = args[++i];
        else if (a == "--dump-scenario" && hasNext)
            dumpPath = args[++i];
        else if (a == "--sweep" && hasNext)
            sweepText = args[++i];
        else if (a == "--project" && hasNext)
            projectPath = args[++i];
        else if (a == "--threads" && hasNext)
            threads = static_cast<unsigned>(std::strtoul(args[++i].c_str(), nullptr, 10));
        else if (a == "--threshold" && hasNext)
            options.warnThreshold = std::strtod(args[++i].c_str(), nullptr) / 100;
        else if (a == "--seed-runs" && hasNext) {
            const long runs = std::strtol(args[++i].c_str(), nullptr, 10);
            if (runs < 1 || runs > 1000) {
                std::fprintf(stderr, "windscope-cli replay: --seed-runs takes 1 to 1000\n");
                return 2;
            }
            options.seedRuns = static_cast<std::uint32_t>(runs);
        } else if (a == "--no-fit-loss")
            options.fitLoss = false;
        else if (a == "--list-presets") {
            for (const rp::PresetInfo& p : rp::presetCatalog())
                std::printf("%-26s %.*s\n", std::string(p.name).c_str(), static_cast<int>(p.summary.size()),
                            p.summary.data());
            return 0;
        } else if (a == "--list-sweep") {
            listSweepParameters();
            return 0;
        } else if (a == "--list-fixes") {
            for (const rp::FixInfo& f : rp::fixCatalog()) {
                const std::string name =
                    std::string(f.name) + (f.valueHint.empty() ? "" : "=" + std::string(f.valueHint));
                std::printf("%-48s %.*s\n", name.c_str(), static_cast<int>(f.summary.size()), f.summary.data());
            }
            return 0;
        } else if (a.size() > 1 && a[0] == '-') { // "-" alone is standard input
            std::fprintf(stderr, "windscope-cli replay: unknown option %s\n%s", a.c_str(), usage().c_str());
            return 2;
        } else if (path.empty())
            path = a;
        else {
            std::fprintf(stderr, "windscope-cli replay: one capture file at a time (%s)\n", a.c_str());
            return 2;
        }
    }
    const int sources = !path.empty() + !scenarioPath.empty() + !preset.empty();
    if (sources != 1 || (!path.empty() && flow.empty())) {
        std::fprintf(stderr, "windscope-cli replay: give FILE --flow F, --scenario FILE.json or --preset NAME\n%s",
                     usage().c_str());
        return 2;
    }
    std::string error;
    for (const std::string& fix : options.fixes)
        if (!rp::makeFix(fix, error)) {
            std::fprintf(stderr, "windscope-cli replay: %s\n", error.c_str());
            return 2;
        }
    rp::SweepSpec sweep;
    if (!sweepText.empty() && !rp::parseSweep(sweepText, sweep, error)) {
        std::fprintf(stderr, "windscope-cli replay: %s\n", error.c_str());
        return 2;
    }
    sweep.threads = threads;
    sweep.seedRuns = options.seedRuns;
    options.threads = threads;

    // The baseline scenario: derived from the capture, or given.
    rp::ReplayReport report;
    LoadedFlow loaded;
    if (!path.empty()) {
        if (const int status = loadFlow("replay", path, flow, loaded))
            return status;
        const analysis::pipeline::CapturePipeline& pipeline = *loaded.pipeline;
        const dissect::CaptureTables& tables = pipeline.tables();
        const analysis::TcpAnalysis& tcp = pipeline.tcp();
        const std::size_t connection = loaded.connection;
        const int sender = loaded.sender;
        if (tcp.connections[connection].direction[sender].dataPackets < 2) {
            std::fprintf(stderr, "windscope-cli replay: connection %zu carries no data from its sender\n", connection);
            return 1;
        }
        rp::DerivationInput input{&tables, &tcp, connection, sender, &pipeline.events(),
                                  &pipeline.cwndOfSender(connection, sender)};
        rp::ReplayOptions first = options;
        if (!sweepText.empty())
            first.fixes.clear();
        report = rp::replayCapture(input, first);
    } else {
        rp::Scenario scenario;
        if (!preset.empty()) {
            if (!rp::makePreset(preset, scenario)) {
                std::fprintf(stderr, "windscope-cli replay: unknown preset '%s' (try --list-presets)\n",
                             preset.c_str());
                return 2;
            }
        } else if (!rp::readScenarioFile(scenarioPath, scenario, error)) {
            std::fprintf(stderr, "windscope-cli replay: %s\n", error.c_str());
            return 2;
        }
        rp::ReplayOptions first = options;
        if (!sweepText.empty())
            first.fixes.clear();
        report = rp::replayScenario(scenario, first);
    }
    if (!report.error.empty()) {
        std::fprintf(stderr, "windscope-cli replay: %s\n", report.error.c_str());
        return 1;
    }
    if (!dumpPath.empty() && !writeText(dumpPath, rp::scenarioToJson(report.scenario))) {
        std::fprintf(stderr, "windscope-cli replay: cannot write %s\n", dumpPath.c_str());
        return 1;
    }
    if (dumpPath == "-")
        return 0;
    if (report.calibration && report.calibration->exceeded)
        std::fprintf(stderr, "windscope-cli replay: warning: %s\n", report.calibration->warning.c_str());
    for (const std::string& warning : report.warnings)
        std::fprintf(stderr, "windscope-cli replay: warning: %s\n", warning.c_str());

    const std::string scenarioName =
        !preset.empty() ? preset
                        : (!scenarioPath.empty() ? scenarioPath : "derived from " + path + ", connection " + flow);
    if (!sweepText.empty()) {
        rp::Scenario base = report.scenario;
        base.fixes.insert(base.fixes.end(), options.fixes.begin(), options.fixes.end());
        // Ctrl-C stops the sweep: runs under way end at their next check, the points
        // finished are written as usual.
        g_sweepCancel.store(false);
        const auto previous = std::signal(SIGINT, cancelSweep);
        const auto points = rp::runSweep(
            base, sweep,
            [](std::size_t done, std::size_t total) {
                std::fprintf(stderr, "\rsweep: %zu/%zu", done, total);
                if (done == total)
                    std::fputc('\n', stderr);
            },
            &g_sweepCancel);
        std::signal(SIGINT, previous);
        const bool cancelled = g_sweepCancel.load();
        std::size_t finished = 0;
        for (const rp::SweepPoint& p : points)
            finished += p.error != "cancelled";
        const std::string record = analysis::sweepJson(report, sweep, points, cancelled);
        if (json) {
            std::cout << record << '\n';
        } else {
            analysis::writeSweepCsv(std::cout, sweep.parameter, points);
        }
        std::cout.flush();
        if (!projectPath.empty() && !saveToProject(projectPath, path, base, scenarioName, record, error)) {
            std::fprintf(stderr, "windscope-cli replay: %s\n", error.c_str());
            return 1;
        }
        if (cancelled) {
            std::fprintf(stderr, "\nwindscope-cli replay: sweep cancelled: %zu of %zu points finished\n", finished,
                         points.size());
            return 130;
        }
        (void)csv;
        return 0;
    }

    const std::string record = analysis::replayJson(report, options.fixes);
    if (!projectPath.empty() && !saveToProject(projectPath, path, report.scenario, scenarioName, record, error)) {
        std::fprintf(stderr, "windscope-cli replay: %s\n", error.c_str());
        return 1;
    }
    if (json) {
        std::cout << record << '\n';
        return 0;
    }
    std::printf("scenario: %s\n", report.scenario.name.c_str());
    std::printf("%-9s %12s %12s %8s %8s\n", "run", "goodput_bps", "completion_s", "retx", "rto");
    if (report.capture)
        printMetricsRow("capture", *report.capture);
    printMetricsRow("baseline", report.baseline);
    if (report.fixBaseline)
        printMetricsRow("base-time", *report.fixBaseline); // the baseline over the capture's time
    if (report.fixed)
        printMetricsRow("fixed", *report.fixed);
    const rp::SeedRuns& seeds = report.baselineSeeds;
    if (seeds.seeds.size() > 1) {
        std::string random;
        for (const std::string& e : rp::randomElements(report.scenario))
            random += (random.empty() ? "" : ", ") + e;
        std::printf("baseline and fixed: means over seeds %llu to %llu (random: %s); baseline goodput %.0f to %.0f "
                    "b/s over the seeds, trace kept: seed %llu\n",
                    static_cast<unsigned long long>(seeds.seeds.front()),
                    static_cast<unsigned long long>(seeds.seeds.back()), random.c_str(), seeds.min.goodputBps,
                    seeds.max.goodputBps, static_cast<unsigned long long>(seeds.keptSeed()));
        if (report.fixEffect)
            std::printf("fix effect on goodput: %.3fx (ratio of the means), %.3fx to %.3fx per seed\n",
                        report.fixEffect->goodputRatio, report.fixEffect->perSeedRatioMin,
                        report.fixEffect->perSeedRatioMax);
    } else if (report.fixEffect) {
        std::printf("fix effect on goodput: %.3fx\n", report.fixEffect->goodputRatio);
    }
    if (report.atQueueFloor)
        std::printf("fix effect with the queue at the least the capture allows (%llu B, not the %llu B "
                    "assumed): %.3fx\n",
                    static_cast<unsigned long long>(report.atQueueFloor->queueBytes),
                    static_cast<unsigned long long>(report.scenario.path.queueBytes),
                    report.atQueueFloor->effect.goodputRatio);
    if (report.calibration)
        std::printf("calibration error: goodput %.1f%%, completion %.1f%%, retransmissions %.1f%%, timeouts %.1f%%%s\n",
                    report.calibration->goodput * 100, report.calibration->completion * 100,
                    report.calibration->retransmissions * 100, report.calibration->rtoTimeouts * 100,
                    report.calibration->exceeded ? " (above threshold: fix results are indicative only)" : "");
    if (report.calibration && report.calibration->phaseRuns > 0)
        std::printf("baseline goodput over the scan's phase (%u shifts): %.0f to %.0f b/s%s\n",
                    report.calibration->phaseRuns, report.calibration->phaseGoodputMinBps,
                    report.calibration->phaseGoodputMaxBps,
                    report.calibration->captureWithinPhaseRange() ? ", the capture's within" : "");
    printLosses("baseline", report.baselineRun);
    if (report.fixed)
        printLosses("fixed", report.fixedRun);
    for (const std::string& n : report.notes)
        std::printf("  %s\n", n.c_str());
    return 0;
}

} // namespace windscope::cli
