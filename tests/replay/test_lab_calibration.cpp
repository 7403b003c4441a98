// SPDX-License-Identifier: GPL-3.0-or-later
// Calibration against the lab captures (../shared/captures/lab): the baseline derived
// from a capture against the capture itself, and for the ns-3 sets that hold the same
// scenario with and without a fix, the predicted effect of the fix against the
// measured one. Every run prints its numbers; the assertions hold the runs the engine
// reproduces today, the others are reported (see the test output) as known gaps.
#include "analysis/pipeline/capture_pipeline.h"
#include "analysis/replay/derive/derive_scenario.h"
#include "analysis/replay/derive/downstream_view.h"
#include "analysis/replay/derive/periodic_outages.h"
#include "analysis/replay/session/replay_session.h"
#include "analysis/tcp/tcp_analysis.h"
#include "analysis/wlan/wlan_events.h"
#include "analysis/wlan/wlan_inventory.h"
#include "dissectors/ingest.h"
#include "lab_connection.h"
#include "test_support.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

using namespace windscope;
using namespace windscope::analysis::replay;

namespace {

// A lab run's meta.json, read with nlohmann-json into the few calls the checks make:
// find(key) (nullptr when absent), array(), number(), string().
class JsonValue
{
public:
    const JsonValue* find(std::string_view key) const
    {
        for (const auto& [k, v] : m_members)
            if (k == key)
                return &v;
        return nullptr;
    }
    const std::vector<JsonValue>& array() const { return m_array; }
    double number() const { return m_number; }
    const std::string& string() const { return m_string; }

    static bool parse(const std::string& text, JsonValue& out, std::string& error)
    {
        try {
            out = from(nlohmann::ordered_json::parse(text));
        } catch (const nlohmann::json::parse_error& e) {
            error = e.what();
            return false;
        }
        return true;
    }

private:
    static JsonValue from(const nlohmann::ordered_json& j)
    {
        JsonValue v;
        if (j.is_number())
            v.m_number = j.get<double>();
        else if (j.is_string())
            v.m_string = j.get<std::string>();
        else if (j.is_array())
            for (const auto& e : j)
                v.m_array.push_back(from(e));
        else if (j.is_object())
            for (const auto& [k, e] : j.items())
                v.m_members.emplace_back(k, from(e));
        return v;
    }
    double m_number = 0;
    std::string m_string;
    std::vector<JsonValue> m_array;
    std::vector<std::pair<std::string, JsonValue>> m_members;
};

using test::LabConnection;
using test::openLab;

// When the lab's first scan began (events.csv, capture clock, seconds); -1 without one.
double firstLabScanS(const std::filesystem::path& dir)
{
    std::ifstream events(dir / "events.csv");
    for (std::string line; std::getline(events, line);)
        if (line.starts_with("scan,"))
            return std::stod(line.substr(5));
    return -1;
}

struct LabReplay
{
    bool ok = false;
    std::string error;
    ReplayReport report;
    double captureGoodput = 0;
};

// The capture's bulk connection replayed with the given options (fixes, seeds).
LabReplay replayLab(const std::filesystem::path& file, const ReplayOptions& options)
{
    LabReplay out;
    LabConnection lab;
    if (!openLab(file, lab, out.error))
        return out;
    out.report = replayCapture(lab.input(), options);
    out.ok = out.report.error.empty() && out.report.capture && out.report.calibration;
    out.error = out.report.error;
    out.captureGoodput = out.report.capture ? out.report.capture->goodputBps : 0;
    return out;
}

LabReplay replayLab(const std::filesystem::path& file, const std::vector<std::string>& fixes = {})
{
    ReplayOptions options;
    options.fixes = fixes;
    return replayLab(file, options);
}

JsonValue readJson(const std::filesystem::path& file)
{
    std::ifstream in(file);
    std::stringstream text;
    text << in.rdbuf();
    JsonValue value;
    std::string error;
    EXPECT_TRUE(JsonValue::parse(text.str(), value, error)) << file << ": " << error;
    return value;
}

} // namespace

TEST(LabCalibration, LinuxBaselineThroughputWithinTenPercent)
{
    struct Case
    {
        const char* run;
        bool held; // asserted; the others are known gaps, reported only
        const char* file = "sender.pcap";
    };
    // The scans of reno-scan100, cubic-scan200 and cubic-wifi are found in the sender's
    // losses and replayed on the derived path (the tbf's bucket, the relay's delay
    // variation): a scan takes about the segments the lab's did
    // (ScanLossesPerScanMatchTheRelays). Which flights a scan meets still turns on a
    // few milliseconds, and the baseline of a scenario with a random element (the
    // relay's delay variation, random loss) is the mean over its seeds: one run is one
    // draw, and cubic-wifi's single runs spread from 2.1 to 2.6 Mb/s (seed 1, 2.04
    // Mb/s, was 15 % low; the mean is 2 % off, from sender.pcap and ap-wlan.pcap
    // alike). reno-scan100's sender.pcap holds since its delay variation is read as a
    // spread, not as the rise over its slow start's minimum (0.512 -> 0.241 ms; 11 %
    // low before, DelayVariationIsTheRelaysOnEveryLinuxRun). The sniffer next to the
    // AP shows reno-scan100's scans as 802.11 events. bbr-scan200 runs the BBR model.
    const Case cases[] = {{"reno-clean", true},          {"reno-handoff", true},
                          {"reno-scan100", true},        {"reno-scan100", true, "ap-wlan.pcap"},
                          {"cubic-scan200", true},       {"cubic-scan100hold", true},
                          {"cubic-wifi", true},          {"cubic-wifi", true, "ap-wlan.pcap"},
                          {"reno-loss05", true},         {"bbr-scan200", true}};
    std::printf("%-18s %-12s %8s %10s %7s %11s %7s\n", "linux run", "file", "capture", "baseline", "error",
                "resent c/b", "rto c/b");
    for (const Case& c : cases) {
        const auto file = test::labDir("linux/" + std::string(c.run)) / c.file;
        WINDSCOPE_REQUIRE_FILE(file);
        const LabReplay r = replayLab(file);
        ASSERT_TRUE(r.ok) << c.run << ": " << r.error;
        const Metrics& cap = *r.report.capture;
        // The resends the loss fit starts from are the kernel's own: one row each in
        // retrans.csv (header excluded).
        if (std::string(c.file) == "sender.pcap") {
            std::ifstream truth(test::labDir("linux/" + std::string(c.run)) / "retrans.csv");
            std::uint64_t kernelResent = 0;
            for (std::string line; std::getline(truth, line);)
                kernelResent += !line.empty();
            EXPECT_EQ(cap.resentSegments, kernelResent - 1) << c.run;
        }
        const Metrics& base = r.report.baseline;
        const double err = r.report.calibration->goodput;
        std::printf("%-18s %-12s %8.3f %10.3f %6.1f%% %5llu/%-5llu %3llu/%-3llu%s\n", c.run, c.file, cap.goodputBps / 1e6,
                    base.goodputBps / 1e6, err * 100, static_cast<unsigned long long>(cap.resentSegments),
                    static_cast<unsigned long long>(base.resentSegments),
                    static_cast<unsigned long long>(cap.rtoTimeouts), static_cast<unsigned long long>(base.rtoTimeouts),
                    c.held ? "" : "  (known gap)");
        const CalibrationError& cal = *r.report.calibration;
        const SeedRuns& seeds = r.report.baselineSeeds;
        if (seeds.seeds.size() > 1)
            std::printf("  baseline over %zu seeds: %.3f to %.3f Mb/s (trace kept: seed %llu)%s\n", seeds.seeds.size(),
                        seeds.min.goodputBps / 1e6, seeds.max.goodputBps / 1e6,
                        static_cast<unsigned long long>(seeds.keptSeed()),
                        cal.captureWithinSeedRange() ? ", the capture's within" : "");
        if (cal.phaseRuns > 0)
            std::printf("  baseline over the scan's phase (%u shifts): %.3f to %.3f Mb/s%s\n", cal.phaseRuns,
                        cal.phaseGoodputMinBps / 1e6, cal.phaseGoodputMaxBps / 1e6,
                        cal.captureWithinPhaseRange() ? ", the capture's within" : "");
        for (const std::string& n : r.report.notes)
            if (n.find("loss_fwd") != std::string::npos)
                std::printf("  %s; fitted baseline: %llu episodes, %llu segments resent\n", n.c_str(),
                            static_cast<unsigned long long>(base.lossEpisodes),
                            static_cast<unsigned long long>(base.resentSegments));
        if (c.held) {
            // BBR too: a rate-based model, chosen from the inference's evidence.
            EXPECT_TRUE(r.report.calibration->senderModelled) << c.run;
            EXPECT_LT(err, 0.10) << c.run;
            EXPECT_FALSE(r.report.calibration->exceeded) << c.run;
        } else if (err > 0.10) {
            // The warning the CLI shows must be there when the baseline is off.
            EXPECT_TRUE(r.report.calibration->exceeded) << c.run;
            EXPECT_FALSE(r.report.calibration->warning.empty()) << c.run;
            // A known gap of a random scenario: the capture is still one of its draws,
            // and the warning says so.
            if (seeds.seeds.size() > 1) {
                EXPECT_TRUE(cal.captureWithinSeedRange()) << c.run;
                EXPECT_NE(cal.warning.find("range over its 8 seeds"), std::string::npos) << cal.warning;
            }
        }
        // The scenarios with a random element run over 8 seeds (the relay's delay
        // variation is one on every Linux relay path but reno-clean's, reno-handoff's
        // and cubic-scan100hold's).
        EXPECT_EQ(seeds.seeds.size(), randomElements(r.report.scenario).empty() ? 1u : 8u) << c.run;
        EXPECT_EQ(cal.seedRuns, seeds.seeds.size()) << c.run;
        // Where the derivation found the scans in the sender's losses, the baseline is
        // also run over the scan's phase.
        if (r.report.scenario.periodicScan.intervalMs > 0) {
            EXPECT_EQ(cal.phaseRuns, 8u) << c.run;
            EXPECT_LE(cal.phaseGoodputMinBps, base.goodputBps) << c.run;
            EXPECT_GE(cal.phaseGoodputMaxBps, base.goodputBps) << c.run;
        } else {
            EXPECT_EQ(cal.phaseRuns, 0u) << c.run;
        }
        // When the capture lies within that range, a warning says the error is that
        // sensitivity.
        if (cal.exceeded && cal.captureWithinPhaseRange()) {
            EXPECT_NE(cal.warning.find("sensitivity to that phase"), std::string::npos) << cal.warning;
        }
    }
}

TEST(LabCalibration, Ns3FixEffectsWithinFifteenPercentOfMeasured)
{
    struct Pair
    {
        const char* baseline;
        const char* fixedRun;
        const char* file;
        std::vector<std::string> fixes;
        bool held;
    };
    // D's pair changes two things at once (NewReno with 2 MiB buffers to CUBIC with
    // 16 KiB): the fixed run is window-limited and the replay gets it within 2%, and the
    // NewReno baseline now takes ns-3's one timeout (docs/replay.md).
    const Pair pairs[] = {
        {"A-scan-T200", "A-scan-T200-fix", "wifi-ap.pcap", {"scan-aware-ap"}, true},
        {"B-handoff-baseline", "B-handoff-zwa-hold", "wired-server.pcap", {"ap-zero-window-ack"}, true},
        {"C-agg-h1-a1", "C-agg-h1-a4", "wifi-n0.pcap", {"ampdu-max=4"}, true},
        {"E-slowrx-r512", "E-slowrx-r32768", "wired-server.pcap", {"rx-app-buffer=32768"}, true},
        {"D-wan-newreno-2m", "D-wan-cubic-16k", "wired-server.pcap", {"cc=cubic", "max-window=16384"}, true},
    };
    std::printf("%-20s %-22s %8s %9s %9s %9s\n", "ns-3 pair", "fix", "base err", "measured", "predicted",
                "diff");
    for (const Pair& p : pairs) {
        const auto baseFile = test::labDir("ns3/" + std::string(p.baseline)) / p.file;
        const auto fixFile = test::labDir("ns3/" + std::string(p.fixedRun)) / p.file;
        WINDSCOPE_REQUIRE_FILE(baseFile);
        WINDSCOPE_REQUIRE_FILE(fixFile);
        const LabReplay base = replayLab(baseFile, p.fixes);
        const LabReplay fixed = replayLab(fixFile);
        ASSERT_TRUE(base.ok) << p.baseline << ": " << base.error;
        ASSERT_TRUE(fixed.ok) << p.fixedRun << ": " << fixed.error;
        ASSERT_TRUE(base.report.fixed.has_value());
        const double measured = fixed.captureGoodput / base.captureGoodput;
        const double predicted = base.report.fixed->goodputBps / base.report.baseline.goodputBps;
        const double diff = std::fabs(predicted - measured) / measured;
        std::string fixText;
        for (const std::string& f : p.fixes)
            fixText += (fixText.empty() ? "" : "+") + f;
        std::printf("%-20s %-22s %7.1f%% %8.3fx %8.3fx %8.1f%%%s\n", p.baseline, fixText.c_str(),
                    base.report.calibration->goodput * 100, measured, predicted, diff * 100,
                    p.held ? "" : "  (known gap)");
        if (p.held) {
            EXPECT_LT(diff, 0.15) << p.baseline << " + " << fixText;
            // And in the right direction, where the measured effect is more than a few
            // percent (A's scan-aware AP changes goodput by 1%).
            if (std::fabs(measured - 1.0) > 0.05) {
                EXPECT_EQ(predicted > 1.0, measured > 1.0) << p.baseline;
            }
        }
    }
}

// What a scan costs the sender: the lab's relay logs the frames each scan dropped
// (events.csv, hits_fwd), the simulator its own (SimResult::drops). The scans are found
// in the sender's losses and replayed on the derived path; a scan that meets a flight
// must take about as many of its segments per millisecond as the lab's did (the dwell
// read from the sender's losses can be longer than the lab's: reno-scan100's 12 ms
// against 10, the sends in a window's last milliseconds being few). Which flights meet
// a scan turns on the sub-millisecond timing of the path: a bottleneck that serialised
// every packet delayed every second one of an ACK-clocked pair by a packet time, which
// moved the flights 6 ms a period against a 200 ms scan instead of the lab's 1.5 ms
// (its tbf passes a pair at once), and a scan took 0.8 segments a millisecond on
// cubic-scan200 where the lab's took 0.4.
TEST(LabCalibration, ScanLossesPerScanMatchTheRelays)
{
    std::printf("%-14s %18s %22s %16s\n", "linux run", "scans hit lab/sim", "per hit lab/sim (ms)", "resent lab/sim");
    for (const char* run : {"reno-scan100", "cubic-scan200", "cubic-wifi"}) {
        const auto dir = test::labDir("linux/" + std::string(run));
        WINDSCOPE_REQUIRE_FILE(dir / "sender.pcap");
        const JsonValue meta = readJson(dir / "meta.json");
        const double labDwellMs = meta.find("parameters")->find("scans")->array().front().array()[1].number() * 1000;
        std::uint64_t labScans = 0, labHit = 0, labHits = 0;
        {
            std::ifstream events(dir / "events.csv");
            for (std::string line; std::getline(events, line);) {
                if (!line.starts_with("scan,"))
                    continue;
                // type,start_s,end_s,mode,hits_fwd,hits_rev
                std::stringstream fields(line);
                std::string f[6];
                for (std::string& x : f)
                    std::getline(fields, x, ',');
                const auto hits = std::stoull(f[4]);
                ++labScans;
                labHit += hits > 0 ? 1 : 0;
                labHits += hits;
            }
        }
        ASSERT_GT(labHit, 0u) << run;
        const LabReplay r = replayLab(dir / "sender.pcap");
        ASSERT_TRUE(r.ok) << run << ": " << r.error;
        const PeriodicScan& scan = r.report.scenario.periodicScan;
        ASSERT_GT(scan.intervalMs, 0) << run;
        // Pooled over the baseline's seeds: which flights meet a scan is what the
        // relay's delay variation draws, and the baseline is their mean.
        std::uint64_t simHits = 0, simHitScans = 0, simScans = 0;
        for (const std::uint64_t seed : r.report.baselineSeeds.seeds) {
            Scenario seeded = r.report.scenario;
            seeded.seed = seed;
            const SimResult sim = simulate(seeded);
            ASSERT_TRUE(sim.ok()) << run << ": " << sim.error;
            std::map<std::int64_t, std::uint64_t> perScan;
            for (const DropRecord& d : sim.drops)
                if (d.reason == DropRecord::Reason::Outage && d.data) {
                    const double t = static_cast<double>(d.timeNs) / 1e9 - scan.firstS;
                    ++perScan[static_cast<std::int64_t>(std::floor(t / (scan.intervalMs / 1000)))];
                }
            simScans += static_cast<std::uint64_t>(
                std::ceil((static_cast<double>(sim.endNs) / 1e9 - scan.firstS) / (scan.intervalMs / 1000)));
            for (const auto& [k, n] : perScan)
                simHits += n;
            simHitScans += perScan.size();
        }
        const double labPerHit = static_cast<double>(labHits) / static_cast<double>(labHit);
        const double simPerHit = static_cast<double>(simHits) / static_cast<double>(std::max<std::uint64_t>(1, simHitScans));
        const double labShare = static_cast<double>(labHit) / static_cast<double>(labScans);
        const double simShare = static_cast<double>(simHitScans) / static_cast<double>(std::max<std::uint64_t>(1, simScans));
        std::printf("%-14s %8.0f%% / %4.0f%% %6.2f / %.2f (%.0f / %.1f) %7llu / %-6llu\n", run, labShare * 100,
                    simShare * 100, labPerHit, simPerHit, labDwellMs, scan.dwellMs,
                    static_cast<unsigned long long>(r.report.capture->resentSegments),
                    static_cast<unsigned long long>(r.report.baseline.resentSegments));
        // A third to a half of the scans meet a flight, in the lab and in the replay.
        EXPECT_NEAR(simShare, labShare, 0.1) << run;
        // And take about as many segments from it, per millisecond of scan.
        const double labDensity = labPerHit / labDwellMs, simDensity = simPerHit / scan.dwellMs;
        EXPECT_NEAR(simDensity, labDensity, 0.2 * labDensity) << run;
        // So the sender resends about what Linux did (twice as much and more before).
        EXPECT_NEAR(static_cast<double>(r.report.baseline.resentSegments),
                    static_cast<double>(r.report.capture->resentSegments),
                    0.35 * static_cast<double>(r.report.capture->resentSegments))
            << run;
    }
}

// The random loss the lab's relay added (meta.json loss_fwd, 0.5% of the data frames)
// is what the calibration fits where the capture has loss episodes the path's own
// drops do not make: the fit spreads the missing episodes as independent losses, so it
// finds the lab's rate only where the replay's scans and queue cost what the lab's did.
// The capture holds one draw of that rate: the relay's drops.csv lists the frames it
// dropped at random, and on cubic-wifi they were 19 of 4,511 (0.42 %, 22.6 expected).
// The fit reads the rate from that count and no better, so it must come within 15 % of
// the lab's rate or within the count's own standard error (1 / sqrt(expected)) if that
// is larger: 21 % on cubic-wifi, where the fit on the mean over the seeds makes up the
// 19 episodes exactly (0.421 %), 14 % on reno-loss05.
TEST(LabCalibration, FittedRandomLossIsTheRelays)
{
    for (const char* run : {"reno-loss05", "cubic-wifi"}) {
        const auto dir = test::labDir("linux/" + std::string(run));
        WINDSCOPE_REQUIRE_FILE(dir / "sender.pcap");
        const JsonValue meta = readJson(dir / "meta.json");
        const double lab = meta.find("parameters")->find("loss_fwd")->number();
        std::uint64_t randomDrops = 0;
        {
            std::ifstream drops(dir / "drops.csv");
            for (std::string line; std::getline(drops, line);)
                randomDrops += line.find(",fwd,random,") != std::string::npos;
        }
        const LabReplay r = replayLab(dir / "sender.pcap");
        ASSERT_TRUE(r.ok) << run << ": " << r.error;
        const double dataPackets = static_cast<double>(r.report.capture->dataPackets);
        ASSERT_GT(dataPackets, 0) << run;
        const double tolerance = std::max(0.15, 1 / std::sqrt(lab * dataPackets));
        std::printf("%s: loss_fwd %.5f fitted, %.5f in the lab (%llu random drops of %.0f data frames: %.5f), "
                    "tolerance %.0f%%\n",
                    run, r.report.scenario.path.lossFwd, lab, static_cast<unsigned long long>(randomDrops), dataPackets,
                    static_cast<double>(randomDrops) / dataPackets, tolerance * 100);
        EXPECT_NEAR(r.report.scenario.path.lossFwd, lab, tolerance * lab) << run;
    }
}

// The baseline and each fix over the seeds: the same result whatever the number of
// threads, the mean inside the range of the runs, the kept trace one of them (the one
// closest to the mean), the fix over the baseline's seeds, one run for a scenario
// without a random element or when asked for one.
TEST(LabCalibration, SeedRunsAreDeterministicAndConsistent)
{
    const auto file = test::labDir("linux/cubic-wifi") / "sender.pcap";
    WINDSCOPE_REQUIRE_FILE(file);
    ReplayOptions options;
    options.fixes = {"scan-interval=400"};
    options.threads = 1;
    const LabReplay one = replayLab(file, options);
    options.threads = 3;
    const LabReplay three = replayLab(file, options);
    ASSERT_TRUE(one.ok) << one.error;
    ASSERT_TRUE(three.ok) << three.error;
    const ReplayReport& a = one.report;
    const ReplayReport& b = three.report;

    // Deterministic: the thread count changes nothing, to the bit.
    ASSERT_TRUE(a.fixedSeeds && b.fixedSeeds);
    EXPECT_EQ(a.baselineSeeds.seeds, b.baselineSeeds.seeds);
    ASSERT_EQ(a.baselineSeeds.perSeed.size(), b.baselineSeeds.perSeed.size());
    for (std::size_t i = 0; i < a.baselineSeeds.perSeed.size(); ++i) {
        EXPECT_EQ(a.baselineSeeds.perSeed[i].goodputBps, b.baselineSeeds.perSeed[i].goodputBps) << i;
        EXPECT_EQ(a.baselineSeeds.perSeed[i].resentSegments, b.baselineSeeds.perSeed[i].resentSegments) << i;
        EXPECT_EQ(a.fixedSeeds->perSeed[i].goodputBps, b.fixedSeeds->perSeed[i].goodputBps) << i;
    }
    EXPECT_EQ(a.baseline.goodputBps, b.baseline.goodputBps);
    EXPECT_EQ(a.fixed->goodputBps, b.fixed->goodputBps);
    EXPECT_EQ(a.scenario.path.lossFwd, b.scenario.path.lossFwd);
    EXPECT_EQ(a.calibration->phaseGoodputMinBps, b.calibration->phaseGoodputMinBps);
    EXPECT_EQ(a.calibration->phaseGoodputMaxBps, b.calibration->phaseGoodputMaxBps);
    EXPECT_EQ(a.baselineSeeds.kept, b.baselineSeeds.kept);
    EXPECT_EQ(a.baselineRun.trace.size(), b.baselineRun.trace.size());

    // Random loss and the relay's delay variation: seeds 1 to 8, and the fix over the
    // same ones.
    const std::vector<std::uint64_t> expectedSeeds{1, 2, 3, 4, 5, 6, 7, 8};
    EXPECT_EQ(a.baselineSeeds.seeds, expectedSeeds);
    EXPECT_EQ(a.fixedSeeds->seeds, a.baselineSeeds.seeds);
    EXPECT_EQ(randomElements(a.scenario), (std::vector<std::string>{"path.loss_fwd", "path.jitter_ms"}));

    for (const auto* runs : {&a.baselineSeeds, &*a.fixedSeeds}) {
        const SimResult& kept = runs == &a.baselineSeeds ? a.baselineRun : a.fixedRun;
        // The mean inside the range, the range the runs'.
        EXPECT_LE(runs->min.goodputBps, runs->mean.goodputBps);
        EXPECT_GE(runs->max.goodputBps, runs->mean.goodputBps);
        EXPECT_LE(runs->min.resentSegments, runs->mean.resentSegments);
        EXPECT_GE(runs->max.resentSegments, runs->mean.resentSegments);
        double sum = 0;
        for (const Metrics& m : runs->perSeed) {
            sum += m.goodputBps;
            EXPECT_GE(m.goodputBps, runs->min.goodputBps);
            EXPECT_LE(m.goodputBps, runs->max.goodputBps);
        }
        EXPECT_DOUBLE_EQ(runs->mean.goodputBps, sum / static_cast<double>(runs->perSeed.size()));
        // The kept trace is a real run: the kept seed's; the baseline's the closest to
        // the mean, the fix's on the same seed (the pair drawn differs by the fix).
        EXPECT_EQ(kept.scenario.seed, runs->keptSeed());
        EXPECT_EQ(metricsOf(kept).goodputBps, runs->perSeed[runs->kept].goodputBps);
        if (runs == &a.baselineSeeds)
            for (const Metrics& m : runs->perSeed)
                EXPECT_LE(std::fabs(runs->perSeed[runs->kept].goodputBps - runs->mean.goodputBps),
                          std::fabs(m.goodputBps - runs->mean.goodputBps));
        else
            EXPECT_EQ(runs->kept, a.baselineSeeds.kept);
    }
    // The report's figures are the means; the calibration is taken against them.
    EXPECT_EQ(a.baseline.goodputBps, a.baselineSeeds.mean.goodputBps);
    EXPECT_EQ(a.fixed->goodputBps, a.fixedSeeds->mean.goodputBps);
    EXPECT_DOUBLE_EQ(a.calibration->goodput,
                     std::fabs(a.baseline.goodputBps - a.capture->goodputBps) / a.capture->goodputBps);
    EXPECT_EQ(a.calibration->seedRuns, 8u);
    EXPECT_EQ(a.calibration->seedGoodputMinBps, a.baselineSeeds.min.goodputBps);
    EXPECT_EQ(a.calibration->seedGoodputMaxBps, a.baselineSeeds.max.goodputBps);
    // Each seed's run is the scenario run with that seed; the fix's, with the fix.
    for (const std::size_t i : {std::size_t{0}, a.baselineSeeds.seeds.size() - 1}) {
        Scenario seeded = a.scenario;
        seeded.seed = a.baselineSeeds.seeds[i];
        EXPECT_EQ(metricsOf(simulate(seeded)).goodputBps, a.baselineSeeds.perSeed[i].goodputBps) << i;
        seeded.fixes = options.fixes;
        EXPECT_EQ(metricsOf(simulate(seeded)).goodputBps, a.fixedSeeds->perSeed[i].goodputBps) << i;
    }
    // The effect: the ratio of the means, inside the range of the per-seed ratios.
    ASSERT_TRUE(a.fixEffect);
    EXPECT_DOUBLE_EQ(a.fixEffect->goodputRatio, a.fixed->goodputBps / a.baseline.goodputBps);
    EXPECT_LE(a.fixEffect->perSeedRatioMin, a.fixEffect->goodputRatio);
    EXPECT_GE(a.fixEffect->perSeedRatioMax, a.fixEffect->goodputRatio);
    std::printf("cubic-wifi: baseline %.3f Mb/s (%.3f to %.3f over seeds 1-8, kept seed %llu); scan-interval=400 "
                "%.3fx (%.3fx to %.3fx per seed)\n",
                a.baseline.goodputBps / 1e6, a.baselineSeeds.min.goodputBps / 1e6, a.baselineSeeds.max.goodputBps / 1e6,
                static_cast<unsigned long long>(a.baselineSeeds.keptSeed()), a.fixEffect->goodputRatio,
                a.fixEffect->perSeedRatioMin, a.fixEffect->perSeedRatioMax);

    // One seed when asked for: the scenario's own, once.
    options.seedRuns = 1;
    const LabReplay single = replayLab(file, options);
    ASSERT_TRUE(single.ok) << single.error;
    EXPECT_EQ(single.report.baselineSeeds.seeds, std::vector<std::uint64_t>{1});
    EXPECT_EQ(single.report.fixedSeeds->seeds, std::vector<std::uint64_t>{1});
    EXPECT_EQ(single.report.calibration->seedRuns, 1u);
    EXPECT_EQ(single.report.baseline.goodputBps, metricsOf(single.report.baselineRun).goodputBps);

    // A scenario without a random element runs once whatever is asked: reno-clean's
    // relay path has neither loss nor delay variation.
    const auto clean = test::labDir("linux/reno-clean") / "sender.pcap";
    WINDSCOPE_REQUIRE_FILE(clean);
    const LabReplay deterministic = replayLab(clean);
    ASSERT_TRUE(deterministic.ok) << deterministic.error;
    EXPECT_TRUE(randomElements(deterministic.report.scenario).empty());
    EXPECT_EQ(deterministic.report.baselineSeeds.seeds.size(), 1u);
    EXPECT_EQ(deterministic.report.calibration->seedRuns, 1u);
}

// The slow reader's read size comes from the rhythm of its window updates: E's handheld
// reads 512 B (a 3 ms period) or everything up to 32 KB per call (meta.json's
// receiver_app), and the derived scenario must say so.
TEST(LabCalibration, SlowReaderReadSizeFromWindowUpdates)
{
    for (const char* run : {"E-slowrx-r512", "E-slowrx-r32768"}) {
        const auto dir = test::labDir("ns3/" + std::string(run));
        WINDSCOPE_REQUIRE_FILE(dir / "wired-server.pcap");
        std::ifstream metaFile(dir / "meta.json");
        std::stringstream text;
        text << metaFile.rdbuf();
        JsonValue meta;
        std::string error;
        ASSERT_TRUE(JsonValue::parse(text.str(), meta, error)) << error;
        const JsonValue* app = meta.find("receiver_app");
        ASSERT_NE(app, nullptr);
        const JsonValue* readSize = app->find("read_size_bytes");
        ASSERT_NE(readSize, nullptr);
        const LabReplay r = replayLab(dir / "wired-server.pcap");
        ASSERT_TRUE(r.ok) << run << ": " << r.error;
        const auto derived = static_cast<double>(r.report.scenario.receiver.appReadBytes);
        std::printf("%s: reads %.0f B derived, %.0f B in the lab\n", run, derived, readSize->number());
        // A read takes at most what the 32 KB buffer holds, and at least its read size
        // when more is there: within 5% of the lab's, or of the buffer when smaller.
        const double expected = std::min(readSize->number(), static_cast<double>(r.report.scenario.receiver.bufferBytes));
        EXPECT_NEAR(derived, expected, 0.05 * expected) << run;
    }
}

// A wired capture cannot show a station's background scans, only what they did to the
// sender: scans that dropped frames in the phase its losses cluster at, scans that held
// them in its ACKs' silences ended by a round trip longer by the hold. Checked against
// the scans the lab's relay injected (meta.json, events.csv: period, dwell, mode, the
// first scan's start), and none must be found where the relay injected none. The path
// read from the same capture is checked against the lab's bottleneck (tbf rate and
// limit).
TEST(LabCalibration, PeriodicScansFromSenderLossesMatchTheInjectedOnes)
{
    const char* runs[] = {"reno-clean", "reno-handoff",      "reno-loss05", "reno-scan100",
                          "cubic-scan200", "cubic-scan100hold", "cubic-wifi", "bbr-scan200"};
    std::printf("%-18s %-34s %-34s %s\n", "linux run", "injected scans", "derived periodic_scan", "path (lab: tbf)");
    for (const char* run : runs) {
        const auto dir = test::labDir("linux/" + std::string(run));
        WINDSCOPE_REQUIRE_FILE(dir / "sender.pcap");
        const JsonValue meta = readJson(dir / "meta.json");
        const JsonValue* params = meta.find("parameters");
        ASSERT_NE(params, nullptr) << run;
        // scans: [[interval_s, dwell_s, mode], ...]; the lab's runs have at most one.
        double intervalMs = 0, dwellMs = 0;
        bool dropped = false;
        if (const JsonValue* scans = params->find("scans"); scans && !scans->array().empty()) {
            const auto& scan = scans->array().front().array();
            ASSERT_EQ(scan.size(), 3u) << run;
            intervalMs = scan[0].number() * 1000;
            dwellMs = scan[1].number() * 1000;
            dropped = scan[2].string() == "drop";
        }
        const double firstScanS = firstLabScanS(dir); // capture clock, seconds
        LabConnection lab;
        std::string error;
        ASSERT_TRUE(openLab(dir / "sender.pcap", lab, error)) << run << ": " << error;
        const DerivedScenario derived = deriveScenario(lab.input());
        const PeriodicScan& found = derived.scenario.periodicScan;
        const PathParams& path = derived.scenario.path;
        char injected[80] = "none", got[80] = "none";
        if (intervalMs > 0)
            std::snprintf(injected, sizeof injected, "%.0f ms every %.0f ms (%s)", dwellMs, intervalMs,
                          dropped ? "drop" : "hold");
        if (found.intervalMs > 0)
            std::snprintf(got, sizeof got, "%.1f ms every %.2f ms from %.3f s", found.dwellMs, found.intervalMs,
                          found.firstS);
        std::printf("%-18s %-34s %-34s %.2f Mb/s, %llu B queue (%.0f Mb/s, %.0f B)\n", run, injected, got,
                    path.bottleneckMbps, static_cast<unsigned long long>(path.queueBytes),
                    params->find("rate_mbit")->number(), params->find("limit_bytes")->number());
        if (intervalMs == 0) {
            EXPECT_EQ(found.intervalMs, 0) << run << ": a periodic scan found where the relay injected none";
        } else {
            ASSERT_GT(found.intervalMs, 0) << run << ": the injected scans were not found";
            EXPECT_NEAR(found.intervalMs, intervalMs, 0.01 * intervalMs) << run;
            EXPECT_NEAR(found.dwellMs, dwellMs, 3) << run;
            EXPECT_EQ(found.mode, dropped ? OutageMode::Drop : OutageMode::PsAnnounced) << run;
            // Simulated time 0 is the first data segment; the relay's clock is the
            // sender capture's. A window found may start a few periods into the scans
            // (the first ones met no sends), so the phase is compared.
            ASSERT_GE(firstScanS, 0) << run;
            const double firstScanSim =
                firstScanS - static_cast<double>(lab.pipeline->tables().summary.firstEpochNs + derived.firstDataNs) / 1e9;
            double phase = std::fmod(found.firstS - firstScanSim, found.intervalMs / 1000);
            if (phase > found.intervalMs / 2000)
                phase -= found.intervalMs / 1000;
            EXPECT_GE(found.firstS, firstScanSim - 0.005) << run;
            EXPECT_NEAR(phase * 1000, 0, 5) << run << ": phase of the derived scans, ms";
        }
        // The tbf's bucket (meta.json tbf.options.burst, bytes of Ethernet frames; the
        // scenario counts IP bytes) from how far the ACKs run ahead of the rate after a
        // pause. Not where the sender seldom pauses (reno-clean keeps the queue full),
        // paces (BBR), or where held frames are released at once (hold mode): those
        // read 0, 0 and a burst of the held frames.
        {
            const double burst = meta.find("tbf")->find("options")->find("burst")->number() * 1500 / 1514;
            std::printf("%-18s path.burst_bytes %llu (tbf %.0f B of IP packets), jitter_ms %.3f\n", run,
                        static_cast<unsigned long long>(path.burstBytes), burst, path.jitterMs);
            const std::string name = run;
            if (name != "reno-clean" && name != "bbr-scan200" && name != "cubic-scan100hold") {
                EXPECT_NEAR(static_cast<double>(path.burstBytes), burst, 0.1 * burst) << run;
            }
        }
        // A scan in hold mode delays every frame behind it by up to its dwell: that is
        // the outage, not the queue, and the queue may read up to 10 ms longer.
        {
            const double rate = params->find("rate_mbit")->number();
            EXPECT_NEAR(path.bottleneckMbps, rate, 0.1 * rate) << run;
            const double limit = params->find("limit_bytes")->number();
            const double heldBytes = dropped ? 0 : dwellMs / 1000 * rate * 1e6 / 8;
            EXPECT_GE(static_cast<double>(path.queueBytes), 0.9 * limit) << run;
            EXPECT_LE(static_cast<double>(path.queueBytes), 1.1 * limit + heldBytes) << run;
        }
    }
}

namespace {

JsonValue labMeta(const std::filesystem::path& dir)
{
    return readJson(dir / "meta.json");
}

const JsonValue* metaPath(const JsonValue& meta, std::initializer_list<const char*> keys)
{
    const JsonValue* v = &meta;
    for (const char* k : keys) {
        v = v ? v->find(k) : nullptr;
    }
    return v;
}

// The first number in a text such as "60Mbps" or "FIFO 100 packets (...)".
double leadingNumber(const std::string& text)
{
    const auto at = text.find_first_of("0123456789");
    return at == std::string::npos ? 0 : std::stod(text.substr(at));
}

// events.csv rows of one type: (start, end) in ns-3 seconds.
std::vector<std::pair<double, double>> labEvents(const std::filesystem::path& dir, const std::string& type)
{
    std::vector<std::pair<double, double>> out;
    std::ifstream in(dir / "events.csv");
    for (std::string line; std::getline(in, line);) {
        std::stringstream row(line);
        std::string kind, start, end;
        if (std::getline(row, kind, ',') && kind == type && std::getline(row, start, ',') && std::getline(row, end, ','))
            out.emplace_back(std::stod(start), std::stod(end));
    }
    return out;
}

// The sender's retransmission timeouts (rto.csv: each backoff raises the timer).
std::vector<double> labTimeouts(const std::filesystem::path& dir)
{
    std::vector<double> out;
    std::ifstream in(dir / "rto.csv");
    double previous = 0;
    for (std::string line; std::getline(in, line);) {
        std::stringstream row(line);
        std::string time, rto;
        if (!std::getline(row, time, ',') || !std::getline(row, rto, ',') || time == "time_s")
            continue;
        if (std::stod(rto) > previous && previous > 0)
            out.push_back(std::stod(time));
        previous = std::stod(rto);
    }
    return out;
}

// A return dated by the sender's timeouts: between the last one lost and the one that
// got through (seen at the radio a wired one-way delay later), within half their gap
// of the lab's association.
void expectBetweenTheTimeouts(const std::filesystem::path& dir, double end, double associatedS, double shiftS,
                              const std::string& what)
{
    const std::vector<double> timeouts = labTimeouts(dir);
    const auto through = std::lower_bound(timeouts.begin(), timeouts.end(), associatedS);
    ASSERT_TRUE(through != timeouts.begin() && through != timeouts.end()) << what;
    const double lost = *std::prev(through);
    std::printf("  sender's timeouts around the return: %.3f (lost), %.3f (got through)\n", lost, *through);
    EXPECT_GE(end, lost + shiftS) << what;
    EXPECT_LE(end, *through + shiftS) << what;
    EXPECT_NEAR(end, associatedS, (*through - lost) / 2) << what;
}

} // namespace

// The ns-3 A runs' server sees a station's scans that the AP covered by holding (power
// save announced, events.csv) only in its ACKs: they stop, and the first round trip
// after the silence is longer by most of it. Found from the server's capture: the
// period and dwell of events.csv and its phase, moved back by the ACKs' one-way delay;
// where the run had no scans, none.
TEST(LabCalibration, SenderReadsHeldScansFromItsAcks)
{
    for (const char* run : {"A-scan-T200", "A-scan-none"}) {
        const auto dir = test::labDir("ns3/" + std::string(run));
        WINDSCOPE_REQUIRE_FILE(dir / "wired-server.pcap");
        std::vector<double> scanStartsS; // simulation time = the capture's clock
        {
            std::ifstream events(dir / "events.csv");
            for (std::string line; std::getline(events, line);)
                if (line.starts_with("scan_offchannel,"))
                    scanStartsS.push_back(std::stod(line.substr(16)));
        }
        LabConnection lab;
        std::string error;
        ASSERT_TRUE(openLab(dir / "wired-server.pcap", lab, error)) << run << ": " << error;
        const DerivedScenario derived = deriveScenario(lab.input());
        const PeriodicScan& found = derived.scenario.periodicScan;
        std::printf("%s: %zu scans in events.csv; derived %.1f ms every %.2f ms from %.3f s\n", run,
                    scanStartsS.size(), found.dwellMs, found.intervalMs, found.firstS);
        if (scanStartsS.empty()) {
            EXPECT_EQ(found.intervalMs, 0) << run << ": a periodic scan found where the run had none";
            continue;
        }
        ASSERT_GE(scanStartsS.size(), 2u) << run;
        const double intervalMs = (scanStartsS[1] - scanStartsS[0]) * 1000;
        ASSERT_GT(found.intervalMs, 0) << run << ": the held scans were not found";
        EXPECT_EQ(found.mode, OutageMode::PsAnnounced) << run;
        EXPECT_NEAR(found.intervalMs, intervalMs, 0.01 * intervalMs) << run;
        // The dwell as the ACKs' silence less half an ACK interval: within the two ms an
        // ACK pair takes at the radio's 12 Mb/s and the ns-3 TSval's tick.
        EXPECT_NEAR(found.dwellMs, 10, 3) << run;
        // Scenario time 0 is the first data segment at the sender.
        const double firstScanSim =
            scanStartsS.front() - static_cast<double>(lab.pipeline->tables().summary.firstEpochNs + derived.firstDataNs) / 1e9;
        double phase = std::fmod(found.firstS - firstScanSim, found.intervalMs / 1000);
        if (phase > found.intervalMs / 2000)
            phase -= found.intervalMs / 1000;
        EXPECT_NEAR(phase * 1000, 0, 5) << run << ": phase of the derived scans, ms";
        // The radio that held is the bottleneck (802.11a at 12 Mb/s behind 100 Mb/s wired):
        // the ACKs after each hold come back at its pace, not ahead of it, and the replay
        // pauses it through the holds.
        EXPECT_TRUE(derived.scenario.path.atRadio) << run;
        // A scan loses a frame where the AP's retry chain to the absent station ended
        // within it (mac_drops.csv); the 10 ms scans at 12 Mb/s lost none, so none of the
        // sender's losses is the scans' (the excess after them over half a period later
        // within chance).
        std::size_t lossyScans = 0;
        {
            std::vector<double> dropsS;
            std::ifstream drops(dir / "mac_drops.csv");
            for (std::string line; std::getline(drops, line);)
                if (line.find(",ap,") != std::string::npos &&
                    line.find(",ACK") != std::string::npos)
                    dropsS.push_back(std::stod(line));
            for (const double start : scanStartsS)
                lossyScans += std::any_of(dropsS.begin(), dropsS.end(), [&](double d) {
                    return d >= start && d <= start + intervalMs / 1000;
                });
        }
        std::printf("  scans that cost the AP a frame: %zu in mac_drops.csv, %llu read from the "
                    "sender's losses\n",
                    lossyScans, static_cast<unsigned long long>(derived.scanLossEpisodes));
        EXPECT_LE(derived.scanLossEpisodes, lossyScans) << run;
    }
}

// The ns-3 B runs' server is its own bottleneck: a 1.5 Mb/s link behind a 100-packet
// device queue that its capture follows (a segment is seen when it leaves). The
// segments' TSvals against the capture's clock show their wait in that queue; their
// departures, back to back, the link's rate, which the ACKs (bunched by the 802.11
// uplink) read only roughly. The D runs' server has a 1 Gb/s access link: it queues
// nothing, and its 60 Mb/s bottleneck is read from the ACKs as before.
TEST(LabCalibration, SenderLinkRateFromItsQueuedDepartures)
{
    struct Case
    {
        const char* run;
        double wireMbps;
        bool ownLink;
    };
    for (const Case& c : {Case{"B-handoff-baseline", 1.5, true}, Case{"B-handoff-zwa-hold", 1.5, true},
                          Case{"D-wan-newreno-2m", 60, false}}) {
        const auto dir = test::labDir("ns3/" + std::string(c.run));
        WINDSCOPE_REQUIRE_FILE(dir / "wired-server.pcap");
        LabConnection lab;
        std::string error;
        ASSERT_TRUE(openLab(dir / "wired-server.pcap", lab, error)) << c.run << ": " << error;
        const DerivedScenario derived = deriveScenario(lab.input());
        const bool ownLink = std::any_of(derived.notes.begin(), derived.notes.end(), [](const std::string& n) {
            return n.starts_with("path.bottleneck_mbps") && n.find("the sender's link") != std::string::npos;
        });
        std::printf("%s: %.3f Mb/s on the wire (%s), the lab's %.1f\n", c.run, derived.scenario.path.bottleneckMbps,
                    ownLink ? "the sender's link" : "from the ACKs", c.wireMbps);
        EXPECT_EQ(ownLink, c.ownLink) << c.run;
        // The scenario's rate carries the IP and TCP headers, the link's also PPP's 2 B.
        EXPECT_NEAR(derived.scenario.path.bottleneckMbps, c.wireMbps, (c.ownLink ? 0.01 : 0.1) * c.wireMbps) << c.run;
    }
}

// The ns-3 captures of the server's link and the first AP, each replayed as its own
// baseline. A's server link sees the 802.11 hop's deliveries (the bottleneck's rate
// while its queue stood), zwa-hold's the base station's zero-window ACKs (the
// handoffs sat out in persist, the held segments delivered after), the first AP's the
// station's absence (two handoffs with the second AP's service between them),
// D-newreno-2m's the radio's lone loss that starts the recovery before the slow start's
// overflow shows, and the queue read from the SACKs behind it (ns-3's one timeout
// follows; 17 % without them, docs/replay.md).
TEST(LabCalibration, Ns3BaselinesWithinTenPercent)
{
    struct Case
    {
        const char* run;
        const char* file;
        bool held;
    };
    const Case cases[] = {
        {"A-scan-none", "wired-server.pcap", true},        {"A-scan-T200", "wired-server.pcap", true},
        {"A-scan-T200-fix", "wired-server.pcap", true},    {"B-handoff-zwa-hold", "wired-server.pcap", true},
        {"B-handoff-baseline", "wired-server.pcap", true}, {"D-wan-newreno-2m", "wired-server.pcap", true},
        {"B-handoff-baseline", "wifi-ap1.pcap", true},     {"B-handoff-zwa-hold", "wifi-ap1.pcap", true},
    };
    std::printf("%-20s %-18s %8s %9s %7s\n", "ns-3 run", "file", "capture", "baseline", "error");
    for (const Case& c : cases) {
        const auto file = test::labDir("ns3/" + std::string(c.run)) / c.file;
        WINDSCOPE_REQUIRE_FILE(file);
        const LabReplay r = replayLab(file);
        ASSERT_TRUE(r.ok) << c.run << ": " << r.error;
        const double err = r.report.calibration->goodput;
        std::printf("%-20s %-18s %8.3f %9.3f %6.1f%%%s\n", c.run, c.file, r.captureGoodput / 1e6,
                    r.report.baseline.goodputBps / 1e6, err * 100, c.held ? "" : "  (known gap)");
        if (c.held) {
            EXPECT_LT(err, 0.10) << c.run << " " << c.file;
        } else if (err > 0.10) {
            EXPECT_TRUE(r.report.calibration->exceeded) << c.run;
        }
    }
}

// What the derivation reads from the ns-3 server-link captures, against the run's
// meta.json and events.csv: A's bottleneck is the 802.11a hop, whose deliveries while
// its queue (32 frames in the radio, a 100-packet qdisc) stood come at least at the
// run's goodput and not far above (the high percentile of all windows read 9.2-9.5
// Mb/s, and the baselines ran 11-16% fast); D's is the 60 Mb/s router link, filled only in the
// slow-start overshoot; zwa-hold's handoffs are the zero-window episodes of the base
// station, at the lab's handoff start and for the outage until the station associated.
TEST(LabCalibration, Ns3DerivedPathMatchesTheRun)
{
    const auto payloadMbps = [](const Scenario& s) {
        return s.path.bottleneckMbps * s.sender.mss / (s.sender.mss + 52.0);
    };
    for (const char* run : {"A-scan-none", "A-scan-T200", "A-scan-T200-fix"}) {
        const auto dir = test::labDir("ns3/" + std::string(run));
        WINDSCOPE_REQUIRE_FILE(dir / "wired-server.pcap");
        const JsonValue meta = labMeta(dir);
        const JsonValue* goodput = metaPath(meta, {"results", "goodput_mbps"});
        const JsonValue* hwQueue = metaPath(meta, {"topology", "wifi", "ap_hw_queue_frames"});
        const JsonValue* qdisc = metaPath(meta, {"topology", "wifi", "ap_qdisc"});
        ASSERT_TRUE(goodput && hwQueue && qdisc) << run;
        LabConnection lab;
        std::string error;
        ASSERT_TRUE(openLab(dir / "wired-server.pcap", lab, error)) << error;
        const DerivedScenario d = deriveScenario(lab.input());
        const double rate = payloadMbps(d.scenario);
        const double queue = (hwQueue->number() + leadingNumber(qdisc->string())) * (d.scenario.sender.mss + 52.0);
        std::printf("%s: bottleneck %.3f Mb/s payload (goodput %.3f), queue %llu B (lab %.0f B)\n", run, rate,
                    goodput->number(), static_cast<unsigned long long>(d.scenario.path.queueBytes), queue);
        EXPECT_GE(rate, goodput->number()) << run;
        // Not far above: the scans' absences (10 ms in 200) are not service time.
        EXPECT_LT(rate, 1.10 * goodput->number()) << run;
        EXPECT_NEAR(static_cast<double>(d.scenario.path.queueBytes), queue, 0.15 * queue) << run;
    }
    {
        const auto dir = test::labDir("ns3/D-wan-newreno-2m");
        WINDSCOPE_REQUIRE_FILE(dir / "wired-server.pcap");
        const JsonValue meta = labMeta(dir);
        const JsonValue* rate = metaPath(meta, {"topology", "wired", "bottleneck_rate"});
        ASSERT_NE(rate, nullptr);
        LabConnection lab;
        std::string error;
        ASSERT_TRUE(openLab(dir / "wired-server.pcap", lab, error)) << error;
        const DerivedScenario d = deriveScenario(lab.input());
        const double lab60 = leadingNumber(rate->string());
        std::printf("D-wan-newreno-2m: bottleneck %.3f Mb/s (lab %.0f), queue %llu B\n", d.scenario.path.bottleneckMbps,
                    lab60, static_cast<unsigned long long>(d.scenario.path.queueBytes));
        EXPECT_NEAR(d.scenario.path.bottleneckMbps, lab60, 0.05 * lab60);
    }
    for (const char* run : {"B-handoff-zwa-hold", "B-handoff-baseline"}) {
        const auto dir = test::labDir("ns3/" + std::string(run));
        WINDSCOPE_REQUIRE_FILE(dir / "wired-server.pcap");
        const bool zwa = std::string(run) == "B-handoff-zwa-hold";
        LabConnection lab;
        std::string error;
        ASSERT_TRUE(openLab(dir / "wired-server.pcap", lab, error)) << error;
        const DerivedScenario d = deriveScenario(lab.input());
        const Scenario& s = d.scenario;
        const bool zeroWindowFix =
            std::find(s.fixes.begin(), s.fixes.end(), "ap-zero-window-ack") != s.fixes.end();
        EXPECT_EQ(zeroWindowFix, zwa) << run;
        if (!zwa)
            continue;
        const auto handoffs = labEvents(dir, "handoff");
        const auto actual = labEvents(dir, "handoff_outage_actual");
        ASSERT_EQ(handoffs.size(), 2u);
        ASSERT_EQ(actual.size(), 2u);
        ASSERT_EQ(s.outageList.size(), 2u);
        for (std::size_t i = 0; i < 2; ++i) {
            const Outage& o = s.outageList[i];
            const double start = o.startS + static_cast<double>(d.firstDataNs + lab.pipeline->tables().summary.firstEpochNs) / 1e9;
            const double labDuration = actual[i].second - actual[i].first;
            std::printf("%s handoff %zu: from %.3f s for %.3f s (lab %.3f s for %.3f s)\n", run, i + 1, start,
                        o.durationS, handoffs[i].first, labDuration);
            EXPECT_EQ(o.kind, OutageKind::Handoff);
            EXPECT_NEAR(start, handoffs[i].first, 0.02) << i;
            EXPECT_NEAR(o.durationS, labDuration, 0.02) << i;
        }
    }
}

// B's first AP while the station was with the second: the sender's data, still
// forwarded to the first AP, passed every window the station offered there, and the
// sender echoed ACKs the first AP never saw (TSecr). The derivation makes the absence
// two handoffs, against events.csv: each starts at the lab's handoff (the station's
// last ACK at AP1, its last ACK echoed from AP2); zwa-hold's end when the station
// associated (its first ACK by AP2, its first ACK back at AP1). Baseline's first ACK
// waits for the sender's next timeout: the first end lies between the sender's last
// lost timeout and the one that got through (the lab's rto.csv), within half that gap
// of the association; the second, the station's first ACK here, not before the
// association. The base station's hold shows
// in the data delivered on the return (sent a second before, not resent): hold mode on
// zwa-hold, drop on baseline.
TEST(LabCalibration, StationAbsenceFromTheFirstApIsTwoHandoffs)
{
    for (const char* run : {"B-handoff-zwa-hold", "B-handoff-baseline"}) {
        const auto dir = test::labDir("ns3/" + std::string(run));
        WINDSCOPE_REQUIRE_FILE(dir / "wifi-ap1.pcap");
        const bool hold = std::string(run) == "B-handoff-zwa-hold";
        LabConnection lab;
        std::string error;
        ASSERT_TRUE(openLab(dir / "wifi-ap1.pcap", lab, error)) << error;
        const DerivedScenario d = deriveScenario(lab.input());
        const Scenario& s = d.scenario;
        const auto handoffs = labEvents(dir, "handoff");
        const auto actual = labEvents(dir, "handoff_outage_actual");
        ASSERT_EQ(handoffs.size(), 2u);
        ASSERT_EQ(actual.size(), 2u);
        ASSERT_EQ(s.outageList.size(), 2u) << run << ": the radio's retries to the absent station taken as outages";
        for (std::size_t i = 0; i < 2; ++i) {
            const Outage& o = s.outageList[i];
            // Simulated time is the sender's; the radio saw the outage a wired delay later.
            const double start = o.startS - s.path.wiredDelayMs / 1000 +
                                 static_cast<double>(d.firstDataNs + lab.pipeline->tables().summary.firstEpochNs) / 1e9;
            const double end = start + o.durationS;
            std::printf("%s wifi-ap1 handoff %zu: %.3f-%.3f s %s (lab %.3f-%.3f s)\n", run, i + 1, start, end,
                        o.mode == OutageMode::Hold ? "hold" : "drop", handoffs[i].first, actual[i].second);
            EXPECT_EQ(o.kind, OutageKind::Handoff);
            EXPECT_EQ(o.mode, hold ? OutageMode::Hold : OutageMode::Drop) << run << " " << i;
            EXPECT_NEAR(start, handoffs[i].first, 0.02) << run << " " << i;
            if (hold) {
                EXPECT_NEAR(end, actual[i].second, 0.05) << run << " " << i;
            } else if (i == 1) {
                // The return here: the station's first ACK here, after the timeout.
                EXPECT_GT(end, actual[i].second - 0.02) << run << " " << i;
            } else {
                expectBetweenTheTimeouts(dir, end, actual[i].second, s.path.wiredDelayMs / 1000,
                                         std::string(run) + " " + std::to_string(i));
            }
        }
    }
}

// B's second AP after the station went back to the first: its radio retries every
// frame the base station still forwards to no one, to the end of the capture. That is
// one departure (an absence longer than any scan, open-ended), not a run of scans. The
// capture began after the handshake; its round trip to the sender, read from the
// connection's own exchanges, is the path's by hand. The derivation
// makes the departure one handoff from the station's last frame there (the lab's second
// handoff), back where the sender shows it: baseline between its last lost timeout and
// the one that got through, within half that gap of the association; zwa-hold (no
// timeouts: the base station held the sender with zero-window ACKs) at its first ACK
// echoed from AP1, with the base station's hold in the data forwarded then.
TEST(LabCalibration, StationThatLeftTheSecondApIsOneHandoff)
{
    for (const char* run : {"B-handoff-baseline", "B-handoff-zwa-hold"}) {
        const auto dir = test::labDir("ns3/" + std::string(run));
        WINDSCOPE_REQUIRE_FILE(dir / "wifi-ap2.pcap");
        const bool hold = std::string(run) == "B-handoff-zwa-hold";
        LabConnection lab;
        std::string error;
        ASSERT_TRUE(openLab(dir / "wifi-ap2.pcap", lab, error)) << error;

        std::size_t departures = 0, scans = 0;
        for (const analysis::WlanEvent& e : lab.pipeline->events().events) {
            departures += e.departed();
            scans += e.kind == analysis::WlanEventKind::Scan;
            if (e.departed()) {
                EXPECT_TRUE(e.openEnded) << run;
                EXPECT_EQ(e.kind, analysis::WlanEventKind::Absence) << run;
            }
        }
        EXPECT_EQ(departures, 1u) << run;
        EXPECT_EQ(scans, 0u) << run << ": the retries to the departed station taken for scans";

        ASSERT_FALSE(lab.pipeline->tcp().connections[lab.connection].handshakeSeen);
        const analysis::cwnd::Vantage passive = lab.input().inference->vantage;
        // By hand from meta.json: the 11 ms point-to-point link each way, and a data
        // segment (512 B + 52 B of IP/TCP with timestamps + 2 B PPP) and an ACK (54 B)
        // serialised at its 1.5 Mb/s: 25.307 ms; the 100 Mb/s LAN hops and the AP's own
        // turnaround add under 0.2 ms.
        const double upstreamMs = 2 * 11 + (566 + 54) * 8 / 1.5e6 * 1e3;
        std::printf("%s wifi-ap2 round trips %.3f ms upstream (by hand %.3f), %.3f ms downstream\n", run,
                    static_cast<double>(passive.upstreamRttNs) / 1e6, upstreamMs,
                    static_cast<double>(passive.downstreamRttNs) / 1e6);
        EXPECT_EQ(passive.point, analysis::cwnd::VantagePoint::Path) << run;
        EXPECT_NEAR(static_cast<double>(passive.upstreamRttNs) / 1e6, upstreamMs + 0.1, 0.1) << run;
        EXPECT_LT(passive.downstreamRttNs, 1'000'000) << run;

        const DerivedScenario d = deriveScenario(lab.input());
        const Scenario& s = d.scenario;
        const auto handoffs = labEvents(dir, "handoff");
        const auto actual = labEvents(dir, "handoff_outage_actual");
        ASSERT_EQ(actual.size(), 2u);
        ASSERT_EQ(s.outageList.size(), 1u) << run;
        const Outage& o = s.outageList.front();
        const double start = o.startS - s.path.wiredDelayMs / 1000 +
                             static_cast<double>(d.firstDataNs + lab.pipeline->tables().summary.firstEpochNs) / 1e9;
        const double end = start + o.durationS;
        std::printf("%s wifi-ap2 handoff: %.3f-%.3f s %s (lab %.3f-%.3f s)\n", run, start, end,
                    o.mode == OutageMode::Hold ? "hold" : "drop", handoffs[1].first, actual[1].second);
        EXPECT_EQ(o.kind, OutageKind::Handoff);
        EXPECT_EQ(o.mode, hold ? OutageMode::Hold : OutageMode::Drop) << run;
        EXPECT_NEAR(start, handoffs[1].first, 0.02) << run;
        if (hold) {
            // The first ACK by AP1 answers the first data released after the association.
            EXPECT_NEAR(end, actual[1].second, 0.05) << run;
        } else {
            expectBetweenTheTimeouts(dir, end, actual[1].second, s.path.wiredDelayMs / 1000, run);
        }
    }
}

// Captures taken downstream of the path's losses (the Linux runs' receiver.pcap, the
// ns-3 station's radio): the derivation reads the sender's round trip from the
// receiver's ACKs to the data they released (TSecr), not from the receiver's own
// turnaround (0.05 ms on Linux, 0.09 ms at D's station behind a 190 ms WAN path), and
// the losses from the holes in the sequence. Asserted within 10 % where the baseline
// holds (the mean over the seeds); the others are reported (docs/replay.md):
// D-newreno-2m's station shares its server link's slow-start overshoot
// (docs/replay.md). cubic-scan200 and cubic-wifi hold since the delay variation is read
// from the receiver's whole loops and the baseline's loss episodes are counted from its
// holes (12 % and 27 % fast before: ReceiverScenarioMatchesTheSendersOnTheSameRun);
// reno-scan100 since its scans are found from the receiver's silences and its delay
// variation is read as a spread, not over its slow start's minimum (18.6 % slow before).
TEST(LabCalibration, ReceiverSideBaselinesWithinTenPercent)
{
    struct Case
    {
        const char* run;
        const char* file;
        bool held;
        double baseRttMs; // the lab's base RTT (meta.json; 0: not asserted), the derived one within 5 %
    };
    const Case cases[] = {{"linux/reno-loss05", "receiver.pcap", true, 40},
                          {"linux/cubic-scan200", "receiver.pcap", true, 40},
                          {"linux/cubic-wifi", "receiver.pcap", true, 40},
                          {"linux/reno-scan100", "receiver.pcap", true, 40},
                          {"ns3/D-wan-newreno-2m", "wifi-sta.pcap", true, 190},
                          {"ns3/D-wan-cubic-16k", "wifi-sta.pcap", true, 190},
                          {"ns3/B-handoff-zwa-hold", "wifi-sta.pcap", true, 0},
                          {"ns3/B-handoff-baseline", "wifi-sta.pcap", true, 0}};
    std::printf("%-24s %-14s %8s %9s %7s %9s %14s\n", "run", "file", "capture", "baseline", "error", "base RTT",
                "episodes c/b");
    for (const Case& c : cases) {
        const auto dir = test::labDir(c.run);
        WINDSCOPE_REQUIRE_FILE(dir / c.file);
        const LabReplay r = replayLab(dir / c.file);
        ASSERT_TRUE(r.ok) << c.run << ": " << r.error;
        const Scenario& s = r.report.scenario;
        const double baseRttMs = 2 * (s.path.wiredDelayMs + s.path.wirelessDelayMs);
        const double err = r.report.calibration->goodput;
        std::printf("%-24s %-14s %8.3f %9.3f %6.1f%% %7.2f ms %6llu/%-6llu%s\n", c.run, c.file,
                    r.report.capture->goodputBps / 1e6, r.report.baseline.goodputBps / 1e6, err * 100, baseRttMs,
                    static_cast<unsigned long long>(r.report.capture->lossEpisodes),
                    static_cast<unsigned long long>(r.report.baseline.lossEpisodes), c.held ? "" : "  (known gap)");
        bool downstream = false;
        for (const std::string& n : r.report.notes)
            downstream = downstream || n.starts_with("vantage: captured next to the receiver");
        EXPECT_TRUE(downstream) << c.run << ": not read as a downstream capture";
        if (c.baseRttMs > 0) {
            EXPECT_NEAR(baseRttMs, c.baseRttMs, 0.05 * c.baseRttMs) << c.run;
        }
        if (c.held) {
            EXPECT_LT(err, 0.10) << c.run;
        }
        // Whatever the remaining error, far from the several hundred percent of a
        // baseline run on the receiver's turnaround as its RTT.
        EXPECT_LT(err, 0.5) << c.run;
    }
}

// The same Linux run read at the sender and at the receiver gives the same scenario on
// what the baseline turns on: the path's delay variation (path.jitter_ms), which moves
// the flights against a periodic scan, and the fitted random loss (path.loss_fwd). Read
// downstream, the first segment an ACK released crosses the relay ahead of its
// delayed-ACK mate and read the variation at a third of the sender's (0.09 against
// 0.27 ms on cubic-scan200), and the fit set the holes (first transmissions lost)
// against every resend of the baseline (a handoff's backed-off timeouts among them),
// which halved the rate on cubic-wifi (0.207 against 0.421 %) and added 0.16 % where
// the lab has none on cubic-scan200. Tolerances: the variation within 15 % of the
// sender's reading (the two sample sets differ by the sender's turnaround, 5-45 µs);
// the rate within 0.15 points, 1.5 standard errors of a rate drawn at the lab's 0.5 %
// over cubic-wifi's 4,509 data frames (sqrt(22.5) / 4509 = 0.105 points), which each
// side's fit reads against the simulator's own draws.
TEST(LabCalibration, ReceiverScenarioMatchesTheSendersOnTheSameRun)
{
    constexpr double kJitterTolerance = 0.15, kLossTolerance = 0.0015;
    std::printf("%-14s %22s %24s\n", "run", "jitter ms sender/recv", "loss_fwd % sender/recv");
    for (const char* run : {"cubic-scan200", "cubic-wifi", "reno-loss05", "reno-scan100"}) {
        const auto dir = test::labDir("linux/" + std::string(run));
        WINDSCOPE_REQUIRE_FILE(dir / "sender.pcap");
        WINDSCOPE_REQUIRE_FILE(dir / "receiver.pcap");
        const LabReplay atSender = replayLab(dir / "sender.pcap");
        const LabReplay atReceiver = replayLab(dir / "receiver.pcap");
        ASSERT_TRUE(atSender.ok) << run << ": " << atSender.error;
        ASSERT_TRUE(atReceiver.ok) << run << ": " << atReceiver.error;
        const PathParams& s = atSender.report.scenario.path;
        const PathParams& r = atReceiver.report.scenario.path;
        std::printf("%-14s %10.3f / %-10.3f %11.3f / %-10.3f\n", run, s.jitterMs, r.jitterMs, s.lossFwd * 100,
                    r.lossFwd * 100);
        ASSERT_GT(s.jitterMs, 0) << run;
        EXPECT_NEAR(r.jitterMs, s.jitterMs, kJitterTolerance * s.jitterMs) << run;
        // reno-scan100's fit makes up what its scans do not explain, not the same rate;
        // cubic-wifi's holes revealed after its handoffs' silences now go to the scans
        // (relocateSilenceLosses), and its receiver fits 0.23 % against the sender's
        // 0.42 %: a known gap, reported (docs/replay.md).
        if (std::string(run) != "reno-scan100" && std::string(run) != "cubic-wifi") {
            EXPECT_NEAR(r.lossFwd, s.lossFwd, kLossTolerance) << run;
        }
    }
}

// The path's delay variation is the relay's, the same in every run through it at the
// same load: read on every Linux run from both captures, it stays near what the relay
// says it added (meta.json, relay.release_lateness: the mean lateness of each stage a
// round trip crosses, the fixed delay line each way and the radio; the scenario's
// uniform extra delay of up to J each way adds J to a round trip on average). The
// relay's lateness falls with its load (0.18-0.22 ms summed on the runs at 2-6 Mb/s,
// where it wakes for each packet; 0.12-0.14 ms on those at 14-19 Mb/s). The reading
// runs 1.0-1.7 times the sum at 2-6 Mb/s: the lab's lateness has a tail the uniform
// model has not, and the relay releases the second packet of a pair behind the first.
// Tolerances: those runs within a factor of two of their relay's sum and within 30 %
// of their mean; bbr-scan200, whose samples under half the BDP come from its startup
// and its one ProbeRTT phase (158), within a factor of three. Read as the rise over
// the run's minimum, reno-scan100 gave 0.512 / 0.548 ms (2.3 and 2.5 times its relay's
// 0.222 ms, 1.6 times the mean of the eight readings): its minimum came from its slow
// start, when the relay was busy.
TEST(LabCalibration, DelayVariationIsTheRelaysOnEveryLinuxRun)
{
    constexpr double kFactor = 2.0, kBusyFactor = 3.0, kSpread = 0.30;
    std::printf("%-18s %-13s %10s %18s\n", "linux run", "capture", "jitter ms", "relay lateness ms");
    std::vector<double> lowRateReadings;
    for (const char* run : {"reno-clean", "reno-handoff", "reno-loss05", "reno-scan100", "cubic-scan200",
                            "cubic-scan100hold", "cubic-wifi", "bbr-scan200"}) {
        const auto dir = test::labDir("linux/" + std::string(run));
        const JsonValue meta = readJson(dir / "meta.json");
        const JsonValue* lateness = meta.find("relay")->find("release_lateness");
        ASSERT_NE(lateness, nullptr) << run;
        double relayMs = 0;
        for (const char* stage : {"fwd_delay_line", "fwd_radio", "rev_delay_line"})
            relayMs += lateness->find(stage)->find("mean_us")->number() / 1000;
        for (const char* file : {"sender.pcap", "receiver.pcap"}) {
            if (!std::filesystem::exists(dir / file))
                continue;
            LabConnection lab;
            std::string error;
            ASSERT_TRUE(openLab(dir / file, lab, error)) << run << ": " << error;
            const double jitterMs = deriveScenario(lab.input()).scenario.path.jitterMs;
            std::printf("%-18s %-13s %10.3f %18.3f\n", run, file, jitterMs, relayMs);
            // No reading where the flight seldom falls under half the BDP (a full queue,
            // reno-clean, reno-handoff; held frames, cubic-scan100hold).
            if (jitterMs == 0)
                continue;
            const bool busy = std::string(run) == "bbr-scan200";
            const double factor = busy ? kBusyFactor : kFactor;
            EXPECT_GT(jitterMs, relayMs / factor) << run << " " << file;
            EXPECT_LT(jitterMs, relayMs * factor) << run << " " << file;
            if (!busy)
                lowRateReadings.push_back(jitterMs);
        }
    }
    ASSERT_EQ(lowRateReadings.size(), 8u); // reno-loss05, reno-scan100, cubic-scan200, cubic-wifi; both sides
    double mean = 0;
    for (double j : lowRateReadings)
        mean += j / static_cast<double>(lowRateReadings.size());
    for (double j : lowRateReadings)
        EXPECT_NEAR(j, mean, kSpread * mean);
}

// The scans seen downstream: the holes they leave, each missing segment placed where it
// would have arrived, fold at the scan's period like the sender's lost sends do
// (periodic_outages.h). Checked against the lab's relay (meta.json, events.csv): the
// receiver sees the forward gap exactly at the window, so the phase is compared in
// simulated time, the first data segment's arrival being one wired one-way delay after
// it left the sender. The random loss is fitted to the loss episodes the holes make.
TEST(LabCalibration, ScansAndLossFromReceiverHoles)
{
    for (const char* run : {"cubic-scan200", "cubic-wifi", "reno-scan100", "reno-loss05"}) {
        const auto dir = test::labDir("linux/" + std::string(run));
        WINDSCOPE_REQUIRE_FILE(dir / "receiver.pcap");
        const JsonValue meta = readJson(dir / "meta.json");
        const JsonValue* params = meta.find("parameters");
        ASSERT_NE(params, nullptr) << run;
        double intervalMs = 0, dwellMs = 0;
        if (const JsonValue* scans = params->find("scans"); scans && !scans->array().empty()) {
            intervalMs = scans->array().front().array()[0].number() * 1000;
            dwellMs = scans->array().front().array()[1].number() * 1000;
        }
        const double firstScanS = firstLabScanS(dir);
        LabConnection lab;
        std::string error;
        ASSERT_TRUE(openLab(dir / "receiver.pcap", lab, error)) << run << ": " << error;
        const DerivedScenario derived = deriveScenario(lab.input());
        const PeriodicScan& found = derived.scenario.periodicScan;
        std::printf("%-14s injected %.0f ms every %.0f ms, derived %.1f ms every %.2f ms from %.3f s\n", run, dwellMs,
                    intervalMs, found.dwellMs, found.intervalMs, found.firstS);
        if (intervalMs == 0) {
            EXPECT_EQ(found.intervalMs, 0) << run << ": a periodic scan found where none was injected";
            const LabReplay r = replayLab(dir / "receiver.pcap");
            ASSERT_TRUE(r.ok) << run << ": " << r.error;
            const double lab05 = params->find("loss_fwd")->number();
            std::printf("%-14s loss_fwd %.5f fitted from the holes, %.5f in the lab\n", run,
                        r.report.scenario.path.lossFwd, lab05);
            EXPECT_NEAR(r.report.scenario.path.lossFwd, lab05, 0.2 * lab05) << run;
            continue;
        }
        ASSERT_GT(found.intervalMs, 0) << run << ": the injected scans were not found in the holes";
        EXPECT_NEAR(found.intervalMs, intervalMs, 0.001 * intervalMs) << run;
        EXPECT_NEAR(found.dwellMs, dwellMs, 3) << run;
        ASSERT_GE(firstScanS, 0) << run;
        const double firstScanSim = firstScanS -
                                    static_cast<double>(lab.pipeline->tables().summary.firstEpochNs + derived.firstDataNs) / 1e9 +
                                    derived.scenario.path.wiredDelayMs / 1000;
        double phase = std::fmod(found.firstS - firstScanSim, found.intervalMs / 1000);
        if (phase > found.intervalMs / 2000)
            phase -= found.intervalMs / 1000;
        EXPECT_NEAR(phase * 1000, 0, 3) << run << ": phase of the derived scans, ms";
    }
}

// A flight lost whole, seen downstream: the last arrivals at 0.100 s, nothing until the
// timeout's retransmission arrives in order at 0.400 s, then the rest of the flight as
// a hole revealed at 0.440 s (placed after 0.400). Both the hole and a silence without
// one (0.500 to 0.800 s) become a loss one round trip (40 ms) after the silence's start;
// arrivals closer than two round trips are no silence.
TEST(PeriodicOutages, SilenceIsAFlightLostWholeOneRoundTripAfterItsStart)
{
    const std::vector<TransmissionTime> seen = {{0.099, false}, {0.100, false}, {0.400, false}, {0.4006, true},
                                                {0.4012, true}, {0.440, false}, {0.500, false}, {0.570, false},
                                                {0.800, false}};
    const std::vector<TransmissionTime> moved = relocateSilenceLosses(seen, 0.040);
    std::vector<double> lost;
    for (const TransmissionTime& x : moved)
        if (x.lost)
            lost.push_back(x.timeS);
    ASSERT_EQ(lost.size(), 3u);
    EXPECT_NEAR(lost[0], 0.140, 1e-9);
    EXPECT_NEAR(lost[1], 0.140, 1e-9);
    EXPECT_NEAR(lost[2], 0.610, 1e-9); // after 0.570: 0.500 to 0.570 is no silence
    EXPECT_TRUE(std::is_sorted(moved.begin(), moved.end(), [](const TransmissionTime& a, const TransmissionTime& b) {
        return a.timeS < b.timeS;
    }));
    EXPECT_EQ(relocateSilenceLosses(seen, 0).size(), seen.size()); // no round trip: as seen
}

// The RTO rule read from the sender's own timeouts: ns-3 bounds its RTO as RFC 6298
// does (max(min RTO, SRTT + 4 RTTVAR); meta.json's min_rto_s), and its timeouts inside
// a loss recovery (A, D) ran out a few milliseconds above the RTT, B's handoff timers
// at the minimum, 200 ms at an SRTT of 28 ms; Linux's never ran less than its minimum
// above the SRTT (srtt + max(4 rttvar, 200 ms)).
TEST(LabCalibration, RtoRuleFromTheSendersTimeouts)
{
    for (const char* run : {"D-wan-newreno-2m", "A-scan-none", "A-scan-T200", "B-handoff-baseline"}) {
        const auto dir = test::labDir("ns3/" + std::string(run));
        WINDSCOPE_REQUIRE_FILE(dir / "wired-server.pcap");
        const JsonValue meta = labMeta(dir);
        const JsonValue* minRto = metaPath(meta, {"tcp", "min_rto_s"});
        ASSERT_NE(minRto, nullptr);
        LabConnection lab;
        std::string error;
        ASSERT_TRUE(openLab(dir / "wired-server.pcap", lab, error)) << error;
        const DerivedScenario d = deriveScenario(lab.input());
        EXPECT_TRUE(d.scenario.sender.rtoRfc6298) << run;
        EXPECT_NEAR(d.scenario.sender.minRtoMs, minRto->number() * 1000, 1.0) << run;
    }
    for (const char* run : {"reno-handoff", "reno-scan100", "cubic-wifi"}) {
        const auto file = test::labDir("linux/" + std::string(run)) / "sender.pcap";
        WINDSCOPE_REQUIRE_FILE(file);
        LabConnection lab;
        std::string error;
        ASSERT_TRUE(openLab(file, lab, error)) << error;
        const DerivedScenario d = deriveScenario(lab.input());
        EXPECT_FALSE(d.scenario.sender.rtoRfc6298) << run;
        EXPECT_DOUBLE_EQ(d.scenario.sender.minRtoMs, 200.0) << run;
    }
}

// A sender held by a fixed window that lost nothing never met the path's limit: D's
// 16 KiB run delivered its window per round trip (0.67 Mb/s over 190 ms) on a 60 Mb/s
// path. Its delivered rate is a lower bound, but the spacing of its packet trains reads
// the path (test_lab_path_rate.cpp), so the derivation says where its rate came from and
// a fix that lifts the window gets no lower-bound warning. A run that filled its path (D
// with 2 MiB, losses at the router) keeps the rate it delivered while its queue stood.
TEST(LabCalibration, WindowLimitedCaptureReadsThePathRateFromItsTrains)
{
    const auto limited = test::labDir("ns3/D-wan-cubic-16k") / "wired-server.pcap";
    const auto filled = test::labDir("ns3/D-wan-newreno-2m") / "wired-server.pcap";
    WINDSCOPE_REQUIRE_FILE(limited);
    WINDSCOPE_REQUIRE_FILE(filled);
    {
        LabConnection lab;
        std::string error;
        ASSERT_TRUE(openLab(limited, lab, error)) << error;
        const DerivedScenario d = deriveScenario(lab.input());
        EXPECT_TRUE(d.pathRateUnseen.empty()) << d.pathRateUnseen;
        EXPECT_TRUE(std::any_of(d.notes.begin(), d.notes.end(), [](const std::string& n) {
            return n.starts_with("path.bottleneck_mbps") && n.find("packet-train dispersion") != std::string::npos;
        }));
    }
    const LabReplay unchanged = replayLab(limited, {"scan-aware-ap"});
    ASSERT_TRUE(unchanged.ok) << unchanged.error;
    EXPECT_TRUE(unchanged.report.warnings.empty());
    {
        LabConnection lab;
        std::string error;
        ASSERT_TRUE(openLab(filled, lab, error)) << error;
        const DerivedScenario d = deriveScenario(lab.input());
        EXPECT_TRUE(d.pathRateUnseen.empty());
        EXPECT_TRUE(std::any_of(d.notes.begin(), d.notes.end(), [](const std::string& n) {
            return n.starts_with("path.bottleneck_mbps") && n.find("delivered rate") != std::string::npos;
        }));
    }
}

namespace {

// The first two columns of a ground-truth CSV (header skipped): (time_s, second column).
std::vector<std::pair<double, std::string>> labColumns(const std::filesystem::path& file)
{
    std::vector<std::pair<double, std::string>> out;
    std::ifstream in(file);
    std::string line;
    std::getline(in, line);
    while (std::getline(in, line)) {
        std::stringstream row(line);
        std::string time, second;
        if (std::getline(row, time, ',') && std::getline(row, second, ','))
            out.emplace_back(std::stod(time), second);
    }
    return out;
}

} // namespace

// D-wan-newreno-2m step by step against ns-3's own logs: the slow start overflows the
// router's 250-packet FIFO (+1 in the device) at 2.18 s after the first data
// (queue_drops.csv: 18 drops), an 802.11 retry-limit loss (mac_drops.csv) starts the
// recovery a round before the overflow shows, the head's resend waits behind the queue
// and ns-3's RTO runs out (tcp_events.csv), halving what the pipe held at cwnd
// (ssthresh.csv). The derivation reads the queue from the SACKs the lone loss left
// (the cumulative ACK stood at it through the overflow) and places that loss; the
// simulator's own drop log and samples must follow.
TEST(LabCalibration, Ns3SlowStartAndRecoveryFollowTheRun)
{
    const auto dir = test::labDir("ns3/D-wan-newreno-2m");
    WINDSCOPE_REQUIRE_FILE(dir / "wired-server.pcap");
    const JsonValue meta = labMeta(dir);
    const JsonValue* fifo = metaPath(meta, {"topology", "wired", "bottleneck_queue"});
    ASSERT_NE(fifo, nullptr);
    LabConnection lab;
    std::string error;
    ASSERT_TRUE(openLab(dir / "wired-server.pcap", lab, error)) << error;
    const DerivedScenario d = deriveScenario(lab.input());
    const Scenario& s = d.scenario;
    const double mss = s.sender.mss;
    const double labQueue = (leadingNumber(fifo->string()) + 1) * (mss + 52);
    std::printf("D-wan-newreno-2m: queue %llu B (lab %.0f B), lost segments", static_cast<unsigned long long>(s.path.queueBytes),
                labQueue);
    for (std::int64_t l : s.path.lostSegments)
        std::printf(" %lld", static_cast<long long>(l));
    std::printf("\n");
    EXPECT_NEAR(static_cast<double>(s.path.queueBytes), labQueue, 0.05 * labQueue);

    // The radio's loss, and none of the queue's: segments from the first data byte (1).
    const auto macDrops = labColumns(dir / "mac_drops.csv");
    ASSERT_EQ(macDrops.size(), 1u);
    std::ifstream macFile(dir / "mac_drops.csv");
    std::string header, row;
    std::getline(macFile, header);
    std::getline(macFile, row);
    std::vector<std::string> fields;
    std::stringstream rowText(row);
    for (std::string f; std::getline(rowText, f, ',');)
        fields.push_back(f);
    ASSERT_GE(fields.size(), 5u);
    const auto macSegment = static_cast<std::int64_t>((std::stod(fields[4]) - 1) / mss);
    ASSERT_EQ(s.path.lostSegments.size(), 1u);
    EXPECT_EQ(s.path.lostSegments[0], macSegment);

    // The run: times from the first data segment (tx_segments.csv's first row).
    const auto tx = labColumns(dir / "tx_segments.csv");
    ASSERT_FALSE(tx.empty());
    const double t0 = tx.front().first;
    const auto queueDrops = labColumns(dir / "queue_drops.csv");
    ASSERT_FALSE(queueDrops.empty());
    std::size_t labTimeouts = 0;
    double labTimeoutS = 0;
    for (const auto& [time, role] : labColumns(dir / "tcp_events.csv"))
        if (role == "sender") {
            ++labTimeouts;
            labTimeoutS = time - t0;
        }
    ASSERT_EQ(labTimeouts, 1u);
    double labSsthreshAfter = 0;
    for (const auto& [time, value] : labColumns(dir / "ssthresh.csv"))
        if (time - t0 >= labTimeoutS && labSsthreshAfter == 0)
            labSsthreshAfter = std::stod(value);

    const SimResult run = simulate(s);
    ASSERT_TRUE(run.ok()) << run.error;
    std::size_t overflow = 0;
    double firstDropS = -1;
    for (const DropRecord& r : run.drops)
        if (r.reason == DropRecord::Reason::Queue && r.timeNs < 2'400'000'000) {
            ++overflow;
            if (firstDropS < 0)
                firstDropS = static_cast<double>(r.timeNs) / 1e9;
        }
    double timeoutS = -1, ssthreshAfter = 0;
    for (const SenderSample& x : run.samples)
        if (x.state == analysis::cwnd::CaState::Loss) {
            timeoutS = static_cast<double>(x.timeNs) / 1e9;
            ssthreshAfter = static_cast<double>(x.ssthreshBytes);
            break;
        }
    std::printf("slow-start overflow: %zu drops from %.4f s (lab %zu from %.4f s); timeouts %llu at %.4f s "
                "(lab %zu at %.4f s), ssthresh %.0f B after (lab %.0f B)\n",
                overflow, firstDropS, queueDrops.size(), queueDrops.front().first - t0,
                static_cast<unsigned long long>(run.sender.rtoTimeouts), timeoutS, labTimeouts, labTimeoutS,
                ssthreshAfter, labSsthreshAfter);
    EXPECT_NEAR(firstDropS, queueDrops.front().first - t0, 0.010);
    // A drop-tail overflow drops one of every three of the round's last sends; the lab's
    // 18 with the 802.11 timing, the replay's link serialising at a constant pace.
    EXPECT_GE(overflow, queueDrops.size() / 2);
    EXPECT_LE(overflow, 2 * queueDrops.size());
    EXPECT_EQ(run.sender.rtoTimeouts, labTimeouts);
    EXPECT_NEAR(timeoutS, labTimeoutS, 0.010);
    EXPECT_NEAR(ssthreshAfter, labSsthreshAfter, 0.05 * labSsthreshAfter);
}

// Every capture of every lab run, each replayed as its own baseline as `windscope-cli
// replay FILE --flow 0` does: the sender's, the receiver's, the radios' and the server
// link's views of the same runs. The tests above check what each reading gets against
// the ground truth; this one checks that the whole collection calibrates, so that a
// change that helps one view and hurts another shows here.
TEST(LabCalibration, EveryLabCaptureWithinTenPercent)
{
    const std::filesystem::path lab = test::labDir("");
    if (!std::filesystem::exists(lab))
        GTEST_SKIP() << "needs " << lab << " (shared test material is absent)";
    // Known gaps, reported (docs/replay.md): none at present.
    const std::vector<std::string> knownGaps = {};
    std::vector<std::filesystem::path> files;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(lab))
        if (entry.is_regular_file() && entry.path().extension() == ".pcap")
            files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    ASSERT_GE(files.size(), 40u) << "lab captures found under " << lab;
    std::size_t within = 0;
    for (const auto& file : files) {
        const std::string name = std::filesystem::relative(file, lab).generic_string();
        const LabReplay r = replayLab(file);
        ASSERT_TRUE(r.ok) << name << ": " << r.error;
        const double err = r.report.calibration->goodput;
        const bool gap = std::find(knownGaps.begin(), knownGaps.end(), name) != knownGaps.end();
        std::printf("%-42s %8.3f %9.3f %6.1f%%%s\n", name.c_str(), r.report.capture->goodputBps / 1e6,
                    r.report.baseline.goodputBps / 1e6, err * 100, gap ? "  (known gap)" : "");
        within += err < 0.10;
        if (!gap) {
            EXPECT_LT(err, 0.10) << name;
        }
    }
    std::printf("%zu of %zu lab captures within 10 %%\n", within, files.size());
}

// The replay's sender runs the stack the lab's sender was: every Linux run's captures
// Linux's (with RACK-TLP for its Reno and CUBIC), every ns-3 run's whose model the
// inference names ns-3's (PRR, no RACK-TLP). A capture whose model is undetermined runs
// a stand-in, whose stack says nothing.
TEST(LabCalibration, SenderRunsTheStackOfTheLabsSender)
{
    const std::filesystem::path lab = test::labDir("");
    if (!std::filesystem::exists(lab))
        GTEST_SKIP() << "needs " << lab << " (shared test material is absent)";
    std::vector<std::filesystem::path> files;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(lab))
        if (entry.is_regular_file() && entry.path().extension() == ".pcap")
            files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    std::size_t linuxRuns = 0, ns3Named = 0;
    for (const auto& file : files) {
        const std::string name = std::filesystem::relative(file, lab).generic_string();
        test::LabConnection connection;
        std::string error;
        ASSERT_TRUE(test::openLab(file, connection, error)) << name << ": " << error;
        const DerivationInput in = connection.input();
        const DerivedScenario d = deriveScenario(in);
        const SenderParams& sender = d.scenario.sender;
        if (name.starts_with("linux/")) {
            ++linuxRuns;
            EXPECT_EQ(sender.stack, "linux") << name;
            if (sender.cc == "reno" || sender.cc == "cubic") {
                EXPECT_TRUE(sender.rackTlp) << name;
            }
        } else if (in.inference->undetermined == analysis::cwnd::ModelUndetermined::None &&
                   in.inference->notFollowed == analysis::cwnd::NotFollowedReason::None) {
            ++ns3Named;
            EXPECT_EQ(sender.stack, "ns-3") << name << " (" << sender.cc << ")";
            EXPECT_FALSE(sender.rackTlp) << name;
            EXPECT_EQ(sender.prr, sender.sack) << name;
        }
    }
    EXPECT_GE(linuxRuns, 16u);
    EXPECT_GE(ns3Named, 8u);
}

namespace {

// The rows of a ground-truth CSV (header skipped), split at the commas.
std::vector<std::vector<std::string>> labRows(const std::filesystem::path& file)
{
    std::vector<std::vector<std::string>> out;
    std::ifstream in(file);
    std::string line;
    std::getline(in, line);
    while (std::getline(in, line)) {
        std::stringstream row(line);
        out.emplace_back();
        for (std::string field; std::getline(row, field, ',');)
            out.back().push_back(field);
    }
    return out;
}

// The lab sender's timeouts that began a backoff chain (tcp_events.csv: the RTO not
// doubled from the one before): (segment from the first data byte, RTO in ms).
std::vector<std::pair<std::int64_t, double>> labFirstTimeouts(const std::filesystem::path& dir, double mss)
{
    std::vector<std::pair<std::int64_t, double>> out;
    std::string lastSeq;
    for (const auto& row : labRows(dir / "tcp_events.csv")) {
        if (row.size() < 5 || row[1] != "sender" || row[2] != "rto_timeout")
            continue;
        const std::size_t at = row[4].find("rto_s=");
        const double rtoMs = at == std::string::npos ? 0 : std::stod(row[4].substr(at + 6)) * 1000;
        if (row[3] != lastSeq)
            out.emplace_back(static_cast<std::int64_t>((std::stod(row[3]) - 1) / mss), rtoMs);
        lastSeq = row[3];
    }
    return out;
}

} // namespace

// The station's captures of D-wan-newreno-2m and B-handoff-baseline read what the server
// link's reading of the same run gets, against ns-3's logs. D: the air is no bottleneck
// (the A-MPDUs stay below their largest size, the AP's queue seldom held a full one),
// the 60 Mb/s router link and its 251-packet FIFO are; the radio's lone loss
// (mac_drops.csv) is the one hole of one segment away from the full queue; the timeout
// (tcp_events.csv) shows on the sender's clock, its TSvals: RFC 6298's rule at ns-3's
// minimum. B: the timeouts that reached the station are the last of each backoff chain
// (the first two were lost while it was away); the timer the silence spans is RTO (1 +
// 2 + 4), ns-3's 200 ms minimum where Linux's bound would be the SRTT (93 ms with the
// server's device queue, which the station sees) plus 200. Only the first chain is
// read: the second's resend arrived in order (the flight before it was lost whole), and
// the station cannot tell it from new data after a silence. Where the air is the
// bottleneck (C-agg-h1-a4: every A-MPDU at its limit of 4), the 802.11 model stays.
TEST(LabCalibration, StationReadsTheSendersPathAndTimer)
{
    constexpr double kClockTolerance = 0.05; // the sender's clock read from its TSvals
    {
        const auto dir = test::labDir("ns3/D-wan-newreno-2m");
        WINDSCOPE_REQUIRE_FILE(dir / "wifi-sta.pcap");
        const JsonValue meta = labMeta(dir);
        const JsonValue* rate = metaPath(meta, {"topology", "wired", "bottleneck_rate"});
        const JsonValue* fifo = metaPath(meta, {"topology", "wired", "bottleneck_queue"});
        const JsonValue* minRto = metaPath(meta, {"tcp", "min_rto_s"});
        ASSERT_TRUE(rate && fifo && minRto);
        LabConnection lab;
        std::string error;
        ASSERT_TRUE(openLab(dir / "wifi-sta.pcap", lab, error)) << error;
        const DerivedScenario d = deriveScenario(lab.input());
        const Scenario& s = d.scenario;
        const double mss = s.sender.mss;
        const double labRate = leadingNumber(rate->string());
        const double labQueue = (leadingNumber(fifo->string()) + 1) * (mss + 52);
        std::printf("D-wan-newreno-2m wifi-sta: mac %s, bottleneck %.3f Mb/s (lab %.0f), queue %llu B (lab %.0f B), "
                    "rto_rfc6298 %d min %.1f ms, lost segments",
                    s.mac.enabled ? "on" : "off", s.path.bottleneckMbps, labRate,
                    static_cast<unsigned long long>(s.path.queueBytes), labQueue, s.sender.rtoRfc6298 ? 1 : 0,
                    s.sender.minRtoMs);
        for (std::int64_t l : s.path.lostSegments)
            std::printf(" %lld", static_cast<long long>(l));
        std::printf("\n");
        EXPECT_FALSE(s.mac.enabled);
        EXPECT_NEAR(s.path.bottleneckMbps, labRate, 0.05 * labRate);
        EXPECT_NEAR(static_cast<double>(s.path.queueBytes), labQueue, 0.05 * labQueue);
        const auto macDrops = labRows(dir / "mac_drops.csv");
        ASSERT_EQ(macDrops.size(), 1u);
        ASSERT_GE(macDrops[0].size(), 5u);
        ASSERT_EQ(s.path.lostSegments.size(), 1u);
        EXPECT_EQ(s.path.lostSegments[0], static_cast<std::int64_t>((std::stod(macDrops[0][4]) - 1) / mss));
        EXPECT_TRUE(s.sender.rtoRfc6298);
        EXPECT_NEAR(s.sender.minRtoMs, minRto->number() * 1000, kClockTolerance * minRto->number() * 1000);

        const DownstreamView view = readDownstreamView(lab.input(), d.firstDataNs);
        const auto timeouts = downstreamTimeouts(lab.input(), view, 200);
        const auto labTimeouts = labFirstTimeouts(dir, mss);
        ASSERT_EQ(timeouts.size(), labTimeouts.size());
        for (std::size_t i = 0; i < timeouts.size(); ++i) {
            std::printf("  timeout at segment %lld: timer %.1f ms, SRTT %.1f ms (lab segment %lld, RTO %.1f ms)\n",
                        static_cast<long long>(timeouts[i].segment), timeouts[i].timerMs, timeouts[i].srttMs,
                        static_cast<long long>(labTimeouts[i].first), labTimeouts[i].second);
            EXPECT_EQ(timeouts[i].segment, labTimeouts[i].first);
            EXPECT_EQ(timeouts[i].backoffs, 1);
            EXPECT_NEAR(timeouts[i].timerMs, labTimeouts[i].second, kClockTolerance * labTimeouts[i].second);
        }
    }
    {
        const auto dir = test::labDir("ns3/B-handoff-baseline");
        WINDSCOPE_REQUIRE_FILE(dir / "wifi-sta.pcap");
        const JsonValue meta = labMeta(dir);
        const JsonValue* minRto = metaPath(meta, {"tcp", "min_rto_s"});
        ASSERT_NE(minRto, nullptr);
        LabConnection lab;
        std::string error;
        ASSERT_TRUE(openLab(dir / "wifi-sta.pcap", lab, error)) << error;
        const DerivedScenario d = deriveScenario(lab.input());
        const Scenario& s = d.scenario;
        std::printf("B-handoff-baseline wifi-sta: rto_rfc6298 %d, min %.1f ms\n", s.sender.rtoRfc6298 ? 1 : 0,
                    s.sender.minRtoMs);
        EXPECT_TRUE(s.sender.rtoRfc6298);
        EXPECT_NEAR(s.sender.minRtoMs, minRto->number() * 1000, kClockTolerance * minRto->number() * 1000);
        const DownstreamView view = readDownstreamView(lab.input(), d.firstDataNs);
        const auto timeouts = downstreamTimeouts(lab.input(), view, 200);
        const auto labTimeouts = labFirstTimeouts(dir, s.sender.mss);
        for (const DownstreamTimeout& t : timeouts)
            std::printf("  timeout at segment %lld: timer %.1f ms over %d backoffs, SRTT %.1f ms\n",
                        static_cast<long long>(t.segment), t.timerMs, t.backoffs, t.srttMs);
        ASSERT_FALSE(timeouts.empty());
        for (const DownstreamTimeout& t : timeouts) {
            const auto chain = std::find_if(labTimeouts.begin(), labTimeouts.end(),
                                            [&](const auto& l) { return l.first == t.segment; });
            ASSERT_NE(chain, labTimeouts.end()) << t.segment;
            EXPECT_EQ(t.backoffs, 3);
            EXPECT_NEAR(t.timerMs, chain->second, kClockTolerance * chain->second);
            EXPECT_LT(t.timerMs, t.srttMs + 200 - 50);
        }
    }
    {
        const auto file = test::labDir("ns3/C-agg-h1-a4") / "wifi-n0.pcap";
        WINDSCOPE_REQUIRE_FILE(file);
        LabConnection lab;
        std::string error;
        ASSERT_TRUE(openLab(file, lab, error)) << error;
        const DerivedScenario d = deriveScenario(lab.input());
        EXPECT_TRUE(d.scenario.mac.enabled);
        EXPECT_EQ(d.scenario.mac.ampduMax, 4u);
    }
}
