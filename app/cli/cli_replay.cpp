// SPDX-License-Identifier: GPL-3.0-or-later
// windscope-cli replay: re-simulate a captured connection (or a preset / edited
// scenario) with proposed fixes. JSON follows the CLI contract in DESIGN.md:
// {"capture": M, "baseline": M, "fixed": M, "calibration_error": {...}} with M =
// {goodput_bps, completion_s, retransmissions, rto_timeouts}; more keys are added
// (warnings, notes, scenario, fixes), none changes meaning.
#include "cli_replay.h"
#include "cli_flow.h"

#include "analysis/cwnd/cwnd_inference.h"
#include "analysis/report/json_writer.h"
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
#include <sstream>

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
    "           --list-presets, --list-fixes\n";

void writeMetrics(analysis::JsonWriter& w, const char* key, const rp::Metrics* m)
{
    w.key(key);
    if (!m) {
        w.null();
        return;
    }
    w.beginObject();
    w.field("goodput_bps", m->goodputBps);
    w.field("completion_s", m->completionS);
    w.field("retransmissions", m->retransmissions);
    w.field("rto_timeouts", m->rtoTimeouts);
    w.field("bytes", m->bytes);
    w.endObject();
}

void printMetricsRow(const char* label, const rp::Metrics& m)
{
    std::printf("%-9s %12.0f %12.3f %8llu %8llu\n", label, m.goodputBps, m.completionS,
                static_cast<unsigned long long>(m.retransmissions), static_cast<unsigned long long>(m.rtoTimeouts));
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

void writeCalibration(analysis::JsonWriter& w, const rp::ReplayReport& report)
{
    w.key("calibration_error");
    if (!report.calibration) {
        w.null();
        return;
    }
    const rp::CalibrationError& e = *report.calibration;
    w.beginObject();
    w.field("goodput", e.goodput);
    w.field("completion", e.completion);
    w.field("retransmissions", e.retransmissions);
    w.field("rto_timeouts", e.rtoTimeouts);
    w.field("threshold", e.threshold);
    w.field("exceeded", e.exceeded);
    w.field("sender_modelled", e.senderModelled);
    w.field("seed_runs", static_cast<std::uint64_t>(e.seedRuns));
    w.key("goodput_seed_range_bps");
    if (e.seedRuns > 1) {
        w.beginArray();
        w.value(e.seedGoodputMinBps);
        w.value(e.seedGoodputMaxBps);
        w.endArray();
    } else {
        w.null();
    }
    w.field("phase_runs", static_cast<std::uint64_t>(e.phaseRuns));
    w.key("goodput_phase_range_bps");
    if (e.phaseRuns > 0) {
        w.beginArray();
        w.value(e.phaseGoodputMinBps);
        w.value(e.phaseGoodputMaxBps);
        w.endArray();
    } else {
        w.null();
    }
    w.endObject();
}

void writeRange(analysis::JsonWriter& w, const char* key, double low, double high)
{
    w.key(key).beginArray();
    w.value(low);
    w.value(high);
    w.endArray();
}

// One scenario over its seeds: the range of each contract figure, each seed's goodput,
// and the run kept as the trace (its seed and its own figures).
void writeSeedRuns(analysis::JsonWriter& w, const char* key, const rp::SeedRuns* runs)
{
    w.key(key);
    if (!runs) {
        w.null();
        return;
    }
    w.beginObject();
    writeRange(w, "goodput_bps", runs->min.goodputBps, runs->max.goodputBps);
    writeRange(w, "completion_s", runs->min.completionS, runs->max.completionS);
    writeRange(w, "retransmissions", static_cast<double>(runs->min.retransmissions),
               static_cast<double>(runs->max.retransmissions));
    writeRange(w, "rto_timeouts", static_cast<double>(runs->min.rtoTimeouts), static_cast<double>(runs->max.rtoTimeouts));
    w.key("per_seed_goodput_bps").beginArray();
    for (const rp::Metrics& m : runs->perSeed)
        w.value(m.goodputBps);
    w.endArray();
    w.field("kept_seed", runs->keptSeed());
    writeMetrics(w, "kept", runs->perSeed.empty() ? nullptr : &runs->perSeed[runs->kept]);
    w.endObject();
}

// {"count", "seeds", "random_elements", "baseline": S, "fixed": S, "fix_effect"}: how
// the baseline and the fixes were averaged (baseline and fixed M are the means).
void writeSeeds(analysis::JsonWriter& w, const rp::ReplayReport& report)
{
    const rp::SeedRuns& base = report.baselineSeeds;
    w.key("seed_runs").beginObject();
    w.field("count", static_cast<std::uint64_t>(base.seeds.size()));
    w.key("seeds").beginArray();
    for (const std::uint64_t seed : base.seeds)
        w.value(seed);
    w.endArray();
    w.key("random_elements").beginArray();
    for (const std::string& e : rp::randomElements(report.scenario))
        w.value(e);
    w.endArray();
    writeSeedRuns(w, "baseline", &base);
    writeSeedRuns(w, "fixed", report.fixedSeeds ? &*report.fixedSeeds : nullptr);
    w.key("fix_effect");
    if (report.fixEffect) {
        w.beginObject();
        w.field("goodput_ratio", report.fixEffect->goodputRatio);
        writeRange(w, "per_seed_goodput_ratio", report.fixEffect->perSeedRatioMin, report.fixEffect->perSeedRatioMax);
        w.endObject();
    } else {
        w.null();
    }
    w.endObject();
}

// The contract JSON of one replay: {"capture", "baseline", "fixed", "calibration_error",
// ...}; also what a project keeps as the run's record.
std::string replayJson(const rp::ReplayReport& report, const std::vector<std::string>& fixes)
{
    std::ostringstream out;
    analysis::JsonWriter w(out);
    w.beginObject();
    writeMetrics(w, "capture", report.capture ? &*report.capture : nullptr);
    writeMetrics(w, "baseline", &report.baseline);
    writeMetrics(w, "fixed", report.fixed ? &*report.fixed : nullptr);
    writeCalibration(w, report);
    writeSeeds(w, report);
    w.key("fixes").beginArray();
    for (const std::string& f : fixes)
        w.value(f);
    w.endArray();
    w.key("warnings").beginArray();
    if (report.calibration && report.calibration->exceeded)
        w.value(report.calibration->warning);
    for (const std::string& warning : report.warnings)
        w.value(warning);
    w.endArray();
    w.field("scenario", report.scenario.name);
    w.key("notes").beginArray();
    for (const std::string& n : report.notes)
        w.value(n);
    w.endArray();
    w.endObject();
    return out.str();
}

// The JSON of a sweep: capture and baseline, then one result per point finished.
std::string sweepJson(const rp::ReplayReport& report, const rp::SweepSpec& sweep,
                      const std::vector<rp::SweepPoint>& points, bool cancelled)
{
    std::ostringstream out;
    analysis::JsonWriter w(out);
    w.beginObject();
    writeMetrics(w, "capture", report.capture ? &*report.capture : nullptr);
    writeMetrics(w, "baseline", &report.baseline);
    w.key("sweep").beginObject();
    w.field("parameter", sweep.parameter);
    w.field("cancelled", cancelled);
    w.key("points").beginArray();
    for (const rp::SweepPoint& p : points) {
        if (p.error == "cancelled")
            continue;
        w.beginObject();
        w.field("value", p.value);
        if (p.error.empty()) {
            writeMetrics(w, "result", &p.metrics);
            w.field("seed_runs", static_cast<std::uint64_t>(p.runs.seeds.size()));
            writeRange(w, "goodput_range_bps", p.runs.min.goodputBps, p.runs.max.goodputBps);
        } else
            w.field("error", p.error);
        w.endObject();
    }
    w.endArray();
    w.endObject();
    w.endObject();
    return out.str();
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
        } else if (a == "--list-fixes") {
            for (const rp::FixInfo& f : rp::fixCatalog()) {
                const std::string name =
                    std::string(f.name) + (f.valueHint.empty() ? "" : "=" + std::string(f.valueHint));
                std::printf("%-48s %.*s\n", name.c_str(), static_cast<int>(f.summary.size()), f.summary.data());
            }
            return 0;
        } else if (!a.empty() && a[0] == '-') {
            std::fprintf(stderr, "windscope-cli replay: unknown option %s\n%s", a.c_str(), kUsage);
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
                     kUsage);
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
        const std::string record = sweepJson(report, sweep, points, cancelled);
        if (json) {
            std::cout << record << '\n';
        } else {
            std::printf("%s,goodput_bps,completion_s,retransmissions,rto_timeouts\n", sweep.parameter.c_str());
            for (const rp::SweepPoint& p : points)
                if (p.error.empty())
                    std::printf("%.10g,%.0f,%.6f,%llu,%llu\n", p.value, p.metrics.goodputBps, p.metrics.completionS,
                                static_cast<unsigned long long>(p.metrics.retransmissions),
                                static_cast<unsigned long long>(p.metrics.rtoTimeouts));
        }
        std::fflush(stdout);
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

    const std::string record = replayJson(report, options.fixes);
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
    }
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
    for (const std::string& n : report.notes)
        std::printf("  %s\n", n.c_str());
    return 0;
}

} // namespace windscope::cli
