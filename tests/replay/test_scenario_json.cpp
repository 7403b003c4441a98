// SPDX-License-Identifier: GPL-3.0-or-later
// Scenarios as JSON files: round trip, rejection of typos and bad values, fixes by name.
#include "analysis/replay/scenario/fix.h"
#include "analysis/replay/scenario/presets.h"
#include "analysis/replay/scenario/scenario_json.h"
#include "analysis/replay/session/sweep.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

using namespace windscope::analysis::replay;

TEST(ScenarioJson, RoundTripKeepsEveryField)
{
    Scenario s;
    ASSERT_TRUE(makePreset("handoff-001", s));
    s.seed = 42;
    s.path.jitterMs = 0.25;
    s.mac.ampduMax = 8;
    s.mac.longRetryLimit = 3;
    s.mac.aifsSlots = 2;
    s.mac.ampduBlockAck = false;
    s.receiver.appReadBytes = 512;
    s.sender.cc = "westwood-plus";
    s.sender.stack = "ns-3";
    s.periodicScan = {200, 10, 1.5, 9, OutageMode::PsAnnounced, 0.4, {17, 3050}};
    s.path.lossFwd = 0.002;
    s.fixes = {"ap-zero-window-ack", "tx-inter-packet-delay=5"};
    s.path.lostSegments = {2123, 40000};
    s.description = "quotes \" and \\ survive";
    const std::string text = scenarioToJson(s);
    Scenario back;
    std::string error;
    ASSERT_TRUE(scenarioFromJson(text, back, error)) << error;
    EXPECT_EQ(scenarioToJson(back), text);
    EXPECT_EQ(back.outageList.size(), 2u);
    EXPECT_EQ(back.outageList[1].kind, OutageKind::Handoff);
    EXPECT_DOUBLE_EQ(back.outageList[1].startS, 7.0);
    EXPECT_EQ(back.sender.cc, "westwood-plus");
    EXPECT_EQ(back.sender.stack, "ns-3");
    EXPECT_EQ(back.validate(), "");
    // A stack the simulator does not implement is refused by name.
    back.sender.stack = "bsd";
    EXPECT_EQ(back.validate(), "sender.stack 'bsd' is not linux or ns-3");
    EXPECT_EQ(back.mac.longRetryLimit, 3u);
    EXPECT_EQ(back.mac.aifsSlots, 2u);
    EXPECT_FALSE(back.mac.ampduBlockAck);
    back.sender.stack = "ns-3";
    back.mac.aifsSlots = 0;
    EXPECT_EQ(back.validate(), "mac.aifs_slots must be within 1..15");
    back.mac.aifsSlots = 2;
    EXPECT_EQ(back.description, s.description);
    EXPECT_EQ(back.fixes, s.fixes);
    EXPECT_EQ(back.path.lostSegments, s.path.lostSegments);
    EXPECT_DOUBLE_EQ(back.periodicScan.lossShare, 0.4);
    EXPECT_EQ(back.periodicScan.lostSegments, s.periodicScan.lostSegments);
    back.periodicScan.lossShare = 1.5;
    EXPECT_EQ(back.validate(), "periodic_scan.loss_share must be within [0, 1]");
}

TEST(ScenarioJson, EveryPresetRoundTripsAndValidates)
{
    for (const PresetInfo& p : presetCatalog()) {
        Scenario s, back;
        ASSERT_TRUE(makePreset(p.name, s));
        EXPECT_EQ(s.validate(), "") << p.name;
        std::string error;
        ASSERT_TRUE(scenarioFromJson(scenarioToJson(s), back, error)) << p.name << ": " << error;
        EXPECT_EQ(scenarioToJson(back), scenarioToJson(s)) << p.name;
    }
}

TEST(ScenarioJson, MissingKeysKeepDefaults)
{
    Scenario s;
    std::string error;
    ASSERT_TRUE(scenarioFromJson(R"({"path": {"bottleneck_mbps": 5}})", s, error)) << error;
    EXPECT_DOUBLE_EQ(s.path.bottleneckMbps, 5);
    EXPECT_EQ(s.sender.mss, Scenario{}.sender.mss);
}

TEST(ScenarioJson, RejectsTyposAndBadValuesWithTheKey)
{
    Scenario s;
    std::string error;
    EXPECT_FALSE(scenarioFromJson(R"({"path": {"bottleneck_mpbs": 5}})", s, error));
    EXPECT_NE(error.find("path.bottleneck_mpbs"), std::string::npos) << error;
    EXPECT_FALSE(scenarioFromJson(R"({"sender": {"mss": -3}})", s, error));
    EXPECT_NE(error.find("sender.mss"), std::string::npos) << error;
    EXPECT_FALSE(scenarioFromJson(R"({"outages": [{"kind": "nap", "start_s": 1, "duration_s": 1}]})", s, error));
    EXPECT_FALSE(scenarioFromJson("{\"seed\": 1,", s, error));
    EXPECT_NE(error.find("line 1"), std::string::npos) << error;
}

TEST(Fixes, ContractNamesResolveAndBadValuesAreRefused)
{
    const char* good[] = {"ap-zero-window-ack", "freeze-tcp", "snoop", "rx-app-buffer=32768",
                          "tx-inter-packet-delay=5", "ampdu-max=4", "cc=veno", "max-window=16384",
                          "scan-aware-ap", "scan-interval=200", "scan-dwell=10"};
    std::string error;
    for (const char* spec : good)
        EXPECT_NE(makeFix(spec, error), nullptr) << spec << ": " << error;
    EXPECT_EQ(fixCatalog().size(), std::size(good));
    EXPECT_EQ(makeFix("rx-app-buffer", error), nullptr);
    EXPECT_EQ(makeFix("cc=vegas", error), nullptr);
    EXPECT_EQ(makeFix("snoop=1", error), nullptr);
    EXPECT_EQ(makeFix("ampdu-max=2.5", error), nullptr);
    EXPECT_EQ(makeFix("teleport", error), nullptr);
}

TEST(Fixes, ParameterFixesRewriteTheScenario)
{
    Scenario s;
    ASSERT_TRUE(makePreset("scan-004-T100", s));
    s.fixes = {"scan-interval=300", "scan-dwell=5", "scan-aware-ap", "cc=reno", "max-window=65536"};
    std::vector<std::unique_ptr<FixAgent>> agents;
    std::string error;
    ASSERT_TRUE(applyFixes(s, agents, error)) << error;
    EXPECT_DOUBLE_EQ(s.periodicScan.intervalMs, 300);
    EXPECT_DOUBLE_EQ(s.periodicScan.dwellMs, 5);
    EXPECT_EQ(s.periodicScan.mode, OutageMode::Hold);
    EXPECT_EQ(s.sender.cc, "reno");
    EXPECT_EQ(s.sender.maxWindowBytes, 65536u);
    EXPECT_EQ(s.receiver.bufferBytes, 65536u);
    EXPECT_TRUE(agents.empty());
}

// A retry chain to an absent station (802.11-2020 10.23.2): each attempt waits a DIFS/AIFS
// and a backoff drawn uniformly from 0..CW slots, CW doubling from CWmin to CWmax.
TEST(Fixes, RetryChainEndsWithinItsBackoffs)
{
    MacParams mac; // 802.11a/g OFDM: 9 us slots, AIFS 16 + 3 * 9 = 43 us, CW 15..1023
    mac.retryLimit = 0;
    // One attempt: 43 us + k slots, k uniform over 0..15; within 43 + 7 * 9 us half of them.
    EXPECT_DOUBLE_EQ(retryChainEndsWithin(mac, 0.106), 0.5);
    EXPECT_DOUBLE_EQ(retryChainEndsWithin(mac, 0.042), 0);
    EXPECT_DOUBLE_EQ(retryChainEndsWithin(mac, 0.178), 1);
    // Eight attempts (seven retries): at most 8 * 43 us + (15 + 31 + ... + 511 + 1023 +
    // 1023) slots = 27.776 ms; the slots' sum is symmetric about its mean of 1524, so at
    // 8 * 43 us + 1524 slots (14.060 ms) just over half the chains are over.
    mac.retryLimit = 7;
    EXPECT_DOUBLE_EQ(retryChainEndsWithin(mac, 27.776), 1);
    EXPECT_LT(retryChainEndsWithin(mac, 27.7), 1);
    const double atMean = retryChainEndsWithin(mac, 14.060);
    EXPECT_GE(atMean, 0.5);
    EXPECT_LT(atMean, 0.51);
    EXPECT_DOUBLE_EQ(retryChainEndsWithin(mac, 0.3), 0);
}

namespace {

// base with fix applied, as a replay's fixed run has it.
Scenario withFix(const Scenario& base, const std::string& fix)
{
    Scenario s = base;
    s.fixes = {fix};
    std::vector<std::unique_ptr<FixAgent>> agents;
    std::string error;
    EXPECT_TRUE(applyFixes(s, agents, error)) << error;
    EXPECT_EQ(s.validate(), "") << fix;
    return s;
}

} // namespace

// Without the 802.11 model the scans' own losses are a share of the random loss; each
// fix that changes the scans scales that share and leaves the rest.
TEST(Fixes, ScanFixesScaleTheScansShareOfTheRandomLoss)
{
    Scenario base;
    ASSERT_TRUE(makePreset("scan-004-T100", base));
    base.mac.enabled = false;
    base.periodicScan.dwellMs = 40;
    base.path.lossFwd = 0.01;
    base.periodicScan.lossShare = 0.6;
    const auto fixed = [&](const std::string& fix) { return withFix(base, fix); };
    // Nothing sent into an absence: the scans' 0.006 goes, 0.004 stays.
    const Scenario aware = fixed("scan-aware-ap");
    EXPECT_NEAR(aware.path.lossFwd, 0.004, 1e-12);
    EXPECT_DOUBLE_EQ(aware.periodicScan.lossShare, 0);
    // Half as many scans: half their loss.
    const Scenario sparser = fixed("scan-interval=200");
    EXPECT_NEAR(sparser.path.lossFwd, 0.007, 1e-12);
    EXPECT_NEAR(sparser.periodicScan.lossShare, 3.0 / 7, 1e-12);
    EXPECT_NEAR(fixed("scan-interval=0").path.lossFwd, 0.004, 1e-12);
    // A 10 ms dwell drops a frame only where its chain is over within 10 ms; every chain
    // is over within 40.
    const Scenario shorter = fixed("scan-dwell=10");
    const double within10 = retryChainEndsWithin(base.mac, 10);
    EXPECT_DOUBLE_EQ(retryChainEndsWithin(base.mac, 40), 1);
    EXPECT_GT(within10, 0);
    EXPECT_LT(within10, 0.25);
    EXPECT_NEAR(shorter.path.lossFwd, 0.004 + 0.006 * within10, 1e-12);
    // No share, no change.
    base.periodicScan.lossShare = 0;
    EXPECT_DOUBLE_EQ(fixed("scan-aware-ap").path.lossFwd, 0.01);
}

// The scans' losses placed where a capture lost them: the fixes keep the same share of
// them, spread over the run (one in two at half the loss), none for the scan-aware AP,
// all where the scans would lose more than the capture showed.
TEST(Fixes, ScanFixesKeepTheirShareOfTheScansPlacedLosses)
{
    Scenario base;
    ASSERT_TRUE(makePreset("scan-004-T100", base));
    base.mac.enabled = false;
    base.periodicScan.lostSegments = {10, 20, 30, 40, 50, 60};
    const auto fixed = [&](const std::string& fix) { return withFix(base, fix).periodicScan.lostSegments; };
    EXPECT_TRUE(fixed("scan-aware-ap").empty());
    EXPECT_EQ(fixed("scan-interval=200"), (std::vector<std::int64_t>{20, 40, 60}));
    EXPECT_EQ(fixed("scan-interval=50"), base.periodicScan.lostSegments);
    EXPECT_TRUE(fixed("scan-interval=0").empty());
}

TEST(Sweep, ParsesRangeAndRefusesNonsense)
{
    SweepSpec spec;
    std::string error;
    ASSERT_TRUE(parseSweep("scan-interval=100:300:100", spec, error)) << error;
    EXPECT_EQ(spec.parameter, "scan-interval");
    EXPECT_DOUBLE_EQ(spec.to, 300);
    EXPECT_FALSE(parseSweep("scan-interval=300:100:100", spec, error));
    EXPECT_FALSE(parseSweep("warp=1:2:1", spec, error));
    EXPECT_FALSE(parseSweep("loss=0:1", spec, error));
}

TEST(ScenarioJson, MalformedFilesNameTheLineAndColumn)
{
    Scenario s;
    std::string error;
    // End of input after the comma: one past the last character, line 1 column 12.
    EXPECT_FALSE(scenarioFromJson("{\"seed\": 1,", s, error));
    EXPECT_EQ(error.rfind("line 1, column 12: ", 0), 0u) << error;
    // A misspelt literal on the third line: reported where the literal stops.
    EXPECT_FALSE(scenarioFromJson("{\n  \"seed\": 1,\n  \"mac\": {\"rts_cts\": tru}\n}\n", s, error));
    EXPECT_EQ(error.rfind("line 3, column 25: ", 0), 0u) << error;
    // A missing colon after a key on the second line, after a tab.
    EXPECT_FALSE(scenarioFromJson("{\n\t\"seed\" 7\n}", s, error));
    EXPECT_EQ(error.rfind("line 2, column 9: ", 0), 0u) << error;
    EXPECT_NE(error.find("':'"), std::string::npos) << error;
    // Text after the document.
    EXPECT_FALSE(scenarioFromJson("{}\n\n  x", s, error));
    EXPECT_EQ(error.rfind("line 3, column 3: ", 0), 0u) << error;
    // Empty file.
    EXPECT_FALSE(scenarioFromJson("", s, error));
    EXPECT_EQ(error.rfind("line 1, column 1: ", 0), 0u) << error;
    // Well-formed but not an object.
    EXPECT_FALSE(scenarioFromJson("[1, 2]", s, error));
    EXPECT_EQ(error, "a scenario is a JSON object");
}

TEST(ScenarioJson, ValidationNamesTheKeyAndWhatItMustBe)
{
    Scenario s;
    std::string error;
    EXPECT_FALSE(scenarioFromJson(R"({"seed": 1.5})", s, error));
    EXPECT_EQ(error, "'seed' must be a non-negative integer");
    EXPECT_FALSE(scenarioFromJson(R"({"mac": {"hops": 5e9}})", s, error));
    EXPECT_EQ(error, "'mac.hops' must be an integer below 2^32");
    EXPECT_FALSE(scenarioFromJson(R"({"mac": {"rts_cts": 1}})", s, error));
    EXPECT_EQ(error, "'mac.rts_cts' must be true or false");
    EXPECT_FALSE(scenarioFromJson(R"({"path": []})", s, error));
    EXPECT_EQ(error, "'path' must be an object");
    EXPECT_FALSE(scenarioFromJson(R"({"path": {"loss_fwd": "0.1"}})", s, error));
    EXPECT_EQ(error, "'path.loss_fwd' must be a number");
    EXPECT_FALSE(scenarioFromJson(R"({"periodic_scan": {"mode": "nap"}})", s, error));
    EXPECT_EQ(error, R"('periodic_scan.mode' must be "drop", "hold" or "ps")");
    EXPECT_FALSE(scenarioFromJson(R"({"path": {"lost_segments": [1, -2]}})", s, error));
    EXPECT_EQ(error, "'path.lost_segments' must be an array of segment indices");
    EXPECT_FALSE(scenarioFromJson(R"({"fixes": ["snoop", 3]})", s, error));
    EXPECT_EQ(error, "'fixes' must be an array of strings");
    // The first unknown key in the order of the file, not alphabetical.
    EXPECT_FALSE(scenarioFromJson(R"({"zeta": 1, "alpha": 2})", s, error));
    EXPECT_EQ(error, "unknown key 'zeta'");
    // Integers written as 3, 3.0 or 3e0 are the same value.
    ASSERT_TRUE(scenarioFromJson(R"({"seed": 3e0, "mac": {"hops": 3.0}, "path": {"loss_fwd": 0}})", s, error))
        << error;
    EXPECT_EQ(s.seed, 3u);
    EXPECT_EQ(s.mac.hops, 3u);
    // A key given twice keeps its first value.
    ASSERT_TRUE(scenarioFromJson(R"({"seed": 5, "path": {"jitter_ms": 2}, "seed": 6})", s, error)) << error;
    EXPECT_EQ(s.seed, 5u);
    EXPECT_DOUBLE_EQ(s.path.jitterMs, 2);
}

TEST(Registry, EveryFixDeclaresItsValueAndEverySweepStartsFromAValidRange)
{
    std::string error;
    for (const FixInfo& f : fixCatalog()) {
        const std::string name(f.name);
        SCOPED_TRACE(name);
        EXPECT_EQ(f.kind == ValueKind::None, f.valueHint.empty());
        EXPECT_FALSE(f.summary.empty());
        // The kind says what the fix's own parser takes.
        switch (f.kind) {
        case ValueKind::None:
            EXPECT_NE(makeFix(name, error), nullptr) << error;
            EXPECT_EQ(makeFix(name + "=1", error), nullptr);
            break;
        case ValueKind::Whole:
            EXPECT_NE(makeFix(name + "=4", error), nullptr) << error;
            EXPECT_EQ(makeFix(name + "=2.5", error), nullptr);
            break;
        case ValueKind::Number:
            EXPECT_NE(makeFix(name + "=2.5", error), nullptr) << error;
            EXPECT_EQ(makeFix(name + "=-1", error), nullptr);
            break;
        case ValueKind::Name: EXPECT_EQ(makeFix(name + "=2.5", error), nullptr); break;
        }
        EXPECT_EQ(findFix(f.name), &f);
        // Sweepable exactly when it takes a number, with its unit.
        EXPECT_EQ(f.sweep.sweepable(), f.kind == ValueKind::Whole || f.kind == ValueKind::Number);
        if (f.sweep.sweepable()) {
            EXPECT_FALSE(f.unit.empty());
        }
    }
    EXPECT_EQ(findFix("teleport"), nullptr);
    ASSERT_FALSE(sweepParameters().empty());
    EXPECT_EQ(sweepParameters().size(), sweepParameterNames().size());
    for (const SweepParameter& p : sweepParameters()) {
        const std::string name(p.name);
        SCOPED_TRACE(name);
        EXPECT_EQ(findSweepParameter(p.name), &p);
        EXPECT_FALSE(p.help.empty());
        // The starting range is one the CLI accepts, and each of its values applies.
        char text[160];
        std::snprintf(text, sizeof text, "%s=%.10g:%.10g:%.10g", name.c_str(), p.range.from, p.range.to,
                      p.range.step);
        SweepSpec spec;
        ASSERT_TRUE(parseSweep(text, spec, error)) << text << ": " << error;
        Scenario s;
        ASSERT_TRUE(makePreset("handoff-001", s));
        EXPECT_TRUE(applySweepValue(s, name, p.range.from, error)) << error;
        EXPECT_TRUE(applySweepValue(s, name, p.range.to, error)) << error;
        if (p.kind == ValueKind::Whole) {
            EXPECT_EQ(std::floor(p.range.step), p.range.step);
        }
    }
    // What the sweep window and the CLI usage show for two parameters.
    const SweepParameter* interval = findSweepParameter("scan-interval");
    ASSERT_NE(interval, nullptr);
    EXPECT_TRUE(interval->isFix);
    EXPECT_EQ(interval->unit, "ms");
    const SweepParameter* loss = findSweepParameter("loss");
    ASSERT_NE(loss, nullptr);
    EXPECT_FALSE(loss->isFix);
    EXPECT_DOUBLE_EQ(loss->range.step, 0.0025);
    EXPECT_EQ(findSweepParameter("cc"), nullptr); // a name, not a number
}
