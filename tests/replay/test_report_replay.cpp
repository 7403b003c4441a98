// SPDX-License-Identifier: GPL-3.0-or-later
// The replay's writers (analysis/report/report_replay.h) on hand-made results: the sweep
// CSV both front-ends write, and the keys of the contract JSON.
#include "analysis/report/report_replay.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <sstream>

using namespace windscope::analysis;

namespace {

replay::SweepPoint point(double value, double goodputBps, double completionS, std::uint64_t retx,
                         std::uint64_t rto, std::string error = {})
{
    replay::SweepPoint p;
    p.value = value;
    p.metrics.goodputBps = goodputBps;
    p.metrics.completionS = completionS;
    p.metrics.retransmissions = retx;
    p.metrics.rtoTimeouts = rto;
    p.runs.seeds = {1, 2};
    p.runs.min.goodputBps = goodputBps - 10;
    p.runs.max.goodputBps = goodputBps + 10;
    p.error = std::move(error);
    return p;
}

} // namespace

TEST(ReportReplay, SweepCsvRowsHaveTheContractFormatsAndSkipFailedPoints)
{
    const std::vector<replay::SweepPoint> points = {
        point(100, 1234567.6, 1.5, 3, 1), point(150, 0, 0, 0, 0, "cancelled"),
        point(0.0025, 2e6, 12.3456789, 0, 0), point(1e12, 999.4, 0.0000004, 18446744073709551615ull, 2)};
    std::ostringstream out;
    writeSweepCsv(out, "scan-interval", points);
    EXPECT_EQ(out.str(), "scan-interval,goodput_bps,completion_s,retransmissions,rto_timeouts\n"
                         "100,1234568,1.500000,3,1\n"
                         "0.0025,2000000,12.345679,0,0\n"
                         "1e+12,999,0.000000,18446744073709551615,2\n");
}

TEST(ReportReplay, SweepJsonListsTheFinishedPoints)
{
    replay::ReplayReport report;
    report.baseline.goodputBps = 5e6;
    replay::SweepSpec spec;
    spec.parameter = "loss";
    const std::vector<replay::SweepPoint> points = {point(0, 4e6, 2, 1, 0), point(0.01, 0, 0, 0, 0, "cancelled"),
                                                    point(0.02, 0, 0, 0, 0, "fix refused")};
    const auto j = nlohmann::json::parse(sweepJson(report, spec, points, true));
    EXPECT_TRUE(j["capture"].is_null());
    EXPECT_EQ(j["baseline"]["goodput_bps"], 5e6);
    EXPECT_EQ(j["sweep"]["parameter"], "loss");
    EXPECT_EQ(j["sweep"]["cancelled"], true);
    ASSERT_EQ(j["sweep"]["points"].size(), 2u);
    EXPECT_EQ(j["sweep"]["points"][0]["result"]["goodput_bps"], 4e6);
    EXPECT_EQ(j["sweep"]["points"][0]["seed_runs"], 2);
    EXPECT_EQ(j["sweep"]["points"][0]["goodput_range_bps"], nlohmann::json::array({4e6 - 10, 4e6 + 10}));
    EXPECT_EQ(j["sweep"]["points"][1]["error"], "fix refused");
}

TEST(ReportReplay, ReplayJsonHasTheContractKeys)
{
    replay::ReplayReport report;
    report.scenario.name = "scan-004-T100";
    report.baseline.goodputBps = 3e6;
    report.baseline.retransmissions = 4;
    report.fixed = report.baseline;
    report.fixed->goodputBps = 6e6;
    report.baselineSeeds.seeds = {7};
    report.baselineSeeds.perSeed = {report.baseline};
    report.notes = {"a note"};
    const auto j = nlohmann::ordered_json::parse(replayJson(report, {"scan-aware-ap"}));
    std::vector<std::string> keys;
    for (const auto& [k, v] : j.items())
        keys.push_back(k);
    EXPECT_EQ(keys, (std::vector<std::string>{"capture", "baseline", "fixed", "fix_baseline",
                                              "calibration_error", "seed_runs", "fix_effect_at_queue_floor",
                                              "fixes", "warnings", "scenario", "notes"}));
    EXPECT_TRUE(j["capture"].is_null());
    EXPECT_TRUE(j["fix_effect_at_queue_floor"].is_null()); // a scenario's queue is what it says
    EXPECT_TRUE(j["fix_baseline"].is_null()); // a scenario alone, not a capture cut mid-transfer
    EXPECT_TRUE(j["calibration_error"].is_null());
    EXPECT_EQ(j["baseline"]["retransmissions"], 4);
    EXPECT_EQ(j["fixed"]["goodput_bps"], 6e6);
    EXPECT_EQ(j["seed_runs"]["count"], 1);
    EXPECT_EQ(j["seed_runs"]["baseline"]["kept_seed"], 7);
    EXPECT_EQ(j["fixes"], nlohmann::ordered_json::array({"scan-aware-ap"}));
    EXPECT_EQ(j["scenario"], "scan-004-T100");
}

// A fix run again with the queue at the least the capture allows: its size, both means
// and the effect there.
TEST(ReportReplay, ReplayJsonGivesTheFixEffectAtTheQueueFloor)
{
    replay::ReplayReport report;
    report.baseline.goodputBps = 1e6;
    report.fixed = report.baseline;
    report.fixed->goodputBps = 50e6;
    report.baselineSeeds.seeds = {1};
    report.baselineSeeds.perSeed = {report.baseline};
    replay::ReplayReport::QueueFloorRun floor;
    floor.queueBytes = 20358;
    floor.baseline.goodputBps = 1e6;
    floor.fixed.goodputBps = 3.2e6;
    floor.effect.goodputRatio = 3.2;
    floor.effect.perSeedRatioMin = 3.0;
    floor.effect.perSeedRatioMax = 3.5;
    report.atQueueFloor = floor;
    const auto j = nlohmann::json::parse(replayJson(report, {"max-window=4194304"}));
    const auto& f = j["fix_effect_at_queue_floor"];
    EXPECT_EQ(f["queue_bytes"], 20358);
    EXPECT_EQ(f["baseline"]["goodput_bps"], 1e6);
    EXPECT_EQ(f["fixed"]["goodput_bps"], 3.2e6);
    EXPECT_EQ(f["goodput_ratio"], 3.2);
    EXPECT_EQ(f["per_seed_goodput_ratio"], nlohmann::json::array({3.0, 3.5}));
}
