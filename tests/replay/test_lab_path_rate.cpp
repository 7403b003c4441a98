// SPDX-License-Identifier: GPL-3.0-or-later
// The path's rate from packet-train dispersion (path_dispersion.h) on the lab captures,
// against the rate the lab set: ns-3 D's 60 Mb/s router link, the Linux lab's tbf rate
// (meta.json). A window-limited capture takes its bottleneck from the trains; every
// capture reads them, and where the queue stood the two readings are compared.
#include "analysis/pipeline/capture_pipeline.h"
#include "analysis/replay/derive/derivation_steps.h"
#include "analysis/replay/session/replay_session.h"
#include "test_support.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>

using namespace windscope;
using namespace windscope::analysis;
using namespace windscope::analysis::replay;

namespace {

struct Derived
{
    DerivedScenario scenario;
    derive::DerivationContext context;
};

// The capture's bulk connection (most data), as the replay takes it.
bool bulkInput(pipeline::CapturePipeline& p, DerivationInput& in, std::string& error)
{
    if (!p.run(pipeline::AnalysisStage::Events, error))
        return false;
    std::size_t connection = 0;
    int bulkSender = 0;
    if (!bulkDirection(p.tcp(), connection, bulkSender)) {
        error = "no data";
        return false;
    }
    const int sender = cwnd::dataSenderOf(p.tcp().connections[connection]);
    in = {&p.tables(), &p.tcp(), connection, sender, &p.events(), &p.cwndOfSender(connection, sender)};
    return true;
}

// The bulk connection derived step by step, so the context can be read.
bool deriveLab(const std::filesystem::path& file, Derived& out, std::string& error)
{
    pipeline::CapturePipeline p(file.string());
    DerivationInput in;
    if (!bulkInput(p, in, error))
        return false;
    for (const derive::DerivationStep& step : derive::derivationSteps())
        step.run(in, out.context, out.scenario);
    return true;
}

// A fixture of tests/data derived as deriveLab() does (bundled: never skipped).
bool deriveFixture(const char* name, Derived& out, std::string& error)
{
    return deriveLab(test::testData(name), out, error);
}

// The bulk connection replayed with one fix.
bool replayLab(const std::filesystem::path& file, const std::string& fix, ReplayReport& report, std::string& error)
{
    pipeline::CapturePipeline p(file.string());
    DerivationInput in;
    if (!bulkInput(p, in, error))
        return false;
    ReplayOptions options;
    options.fixes = {fix};
    report = replayCapture(in, options);
    return true;
}

} // namespace

// D's 16 KiB run delivered 0.67 Mb/s over 190 ms; its router link runs at 60 Mb/s
// (1,502 B frames on the wire). At the server, the ACKs of its initial window (sent
// back to back) read 51 Mb/s with headers: the 802.11 uplink spaces the receiver's ACKs
// by its own channel access, which only widens the train. At the station, the pairs one
// ACK released arrive spaced by the router link and then by the AP's channel access per
// frame (AIFS and backoff, no aggregate for two frames), which widens them more: 42 Mb/s.
// Both far above the 1.9 Mb/s the delivered rate read, and below the link.
TEST(LabPathRate, WindowLimitedCaptureReadsThePathFromItsTrains)
{
    const auto dir = test::labDir("ns3/D-wan-cubic-16k");
    for (const auto& [file, low] : {std::pair{"wired-server.pcap", 0.80}, std::pair{"wifi-sta.pcap", 0.65}}) {
        WINDSCOPE_REQUIRE_FILE(dir / file);
        Derived d;
        std::string error;
        ASSERT_TRUE(deriveLab(dir / file, d, error)) << error;
        EXPECT_TRUE(d.context.rateFromDispersion) << file;
        // The sender's flight, its 16 KiB window: at the station as its ACK clock shows
        // it (the data a receiver's ACK released, less that ACK), not the one or two
        // segments between an arrival and its ACK there.
        EXPECT_GE(d.context.maxFlight, 0.9 * 16384) << file;
        EXPECT_LE(d.context.maxFlight, 16384u) << file;
        EXPECT_TRUE(d.scenario.pathRateUnseen.empty()) << file << ": " << d.scenario.pathRateUnseen;
        EXPECT_GE(d.scenario.scenario.path.bottleneckMbps, low * 60) << file;
        EXPECT_LE(d.scenario.scenario.path.bottleneckMbps, 1.05 * 60) << file;
        // The queue the sender never filled is one BDP at that rate.
        EXPECT_NEAR(static_cast<double>(d.scenario.scenario.path.queueBytes),
                    d.scenario.scenario.path.bottleneckMbps * 1e6 / 8 * d.context.rttMin / 1000, 1.0)
            << file;
    }
}

// D's Reno behind a 55.31 Mb/s router link with a 38-packet queue, 290 ms (MANIFEST.md):
// its window sent at once overflowed the queue, and the ACKs of that window came back
// over two round trips as the losses were resent, each delivering a segment sent with
// the window. As a train (data sent back to back, acknowledged slower) they read
// 4.9 Mb/s and outweighed the initial window's and slow start's trains; the path was
// run at that rate. An ACK that passed a resent segment delivered data that waited for
// the resend: its timing is the recovery's, as a resend's is, and it is in no train.
TEST(LabPathRate, AnAckThatWaitedForAResendIsInNoTrain)
{
    Derived d;
    std::string error;
    ASSERT_TRUE(deriveFixture("lab-d-recovery-train-server.pcap.gz", d, error)) << error;
    const double payloadMbps = 55.31 * 1448 / 1502;
    std::printf("dispersion %.3f Mb/s payload over %zu trains (the link's %.3f); bottleneck %.3f Mb/s\n",
                d.context.dispersion.mbps, d.context.dispersion.trains, payloadMbps,
                d.scenario.scenario.path.bottleneckMbps);
    EXPECT_TRUE(d.context.dispersion.read());
    EXPECT_NEAR(d.context.dispersion.mbps, payloadMbps, (kDispersionBand - 1) * payloadMbps);
    EXPECT_FALSE(d.context.rateFromDispersion);
    EXPECT_NEAR(d.scenario.scenario.path.bottleneckMbps, 55.31, 0.05 * 55.31);
}

// CUBIC over a 9 Mb/s wire with a 100-packet queue (150 kB) and 270 ms, seen at the
// station (MANIFEST.md): slow start overflowed the queue (217 segments missing first
// time). The delivered percentile runs faster than the trains' spacing (ACKs bunched
// behind the scan), so the rate is the trains'; the queue the capture saw overflow is
// its fullest reading, not the one BDP of a window-limited sender that never filled
// it, which the derivation took any rate from the trains for (305 kB).
TEST(LabPathRate, ATrainsRateOnBunchedAcksKeepsTheQueueThatOverflowed)
{
    Derived d;
    std::string error;
    ASSERT_TRUE(deriveFixture("lab-a-bunched-acks-overflow-sta.pcap.gz", d, error)) << error;
    const Scenario& s = d.scenario.scenario;
    const double labQueueBytes = 100 * 1502;
    const double bdpBytes = s.path.bottleneckMbps * 1e6 / 8 * d.context.rttMin / 1000;
    std::printf("bottleneck %.3f Mb/s, queue %llu B (the lab's %.0f, one BDP %.0f)\n", s.path.bottleneckMbps,
                static_cast<unsigned long long>(s.path.queueBytes), labQueueBytes, bdpBytes);
    EXPECT_TRUE(d.context.rateFromDispersion);
    EXPECT_NEAR(s.path.bottleneckMbps, 9.0, 0.05 * 9.0);
    EXPECT_LT(std::abs(static_cast<double>(s.path.queueBytes) - labQueueBytes), std::abs(bdpBytes - labQueueBytes));
    for (const std::string& n : d.scenario.notes)
        EXPECT_EQ(n.find("never filled the queue"), std::string::npos) << n;
}

// Lifting the 16 KiB window: the replay now runs into the path the trains read, not the
// 1.9 Mb/s lower bound (the 2 MiB run made 16.8 Mb/s, 25 times the 0.67): the predicted
// gain is over 5 times, where the bound held it to 2.6, and no warning calls it a bound.
// What the larger flight meets at the router, the capture cannot say: the 16 KiB window
// never queued there (the lab's FIFO holds 250 packets, 376 kB, which D's 2 MiB run
// filled). The replay runs the fix at both ends of what the queue can be, one BDP and
// its fullest reading, and the lab's 25 times lies between; the warning says so.
TEST(LabPathRate, LiftingTheWindowRunsIntoThePathsRate)
{
    const auto file = test::labDir("ns3/D-wan-cubic-16k") / "wired-server.pcap";
    WINDSCOPE_REQUIRE_FILE(file);
    ReplayReport report;
    std::string error;
    ASSERT_TRUE(replayLab(file, "max-window=2097152", report, error)) << error;
    ASSERT_TRUE(report.fixed.has_value());
    EXPECT_GT(report.fixed->goodputBps, 5 * report.baseline.goodputBps);
    ASSERT_TRUE(report.fixEffect.has_value());
    ASSERT_TRUE(report.atQueueFloor.has_value());
    EXPECT_LT(report.atQueueFloor->queueBytes, 376000u / 10);
    const double labEffect = 16.8 / 0.669;
    EXPECT_LT(report.atQueueFloor->effect.goodputRatio, labEffect);
    EXPECT_GT(report.fixEffect->goodputRatio, labEffect);
    ASSERT_EQ(report.warnings.size(), 1u);
    EXPECT_NE(report.warnings.front().find("a queue the capture never saw full"), std::string::npos)
        << report.warnings.front();
    EXPECT_EQ(report.warnings.front().find("bounds from below"), std::string::npos) << report.warnings.front();
}

// Where the capture filled the queue (D's 2 MiB run: the RTT rose 51 ms at the router's
// 60 Mb/s, its 250 packets), the queue is measured and a fix runs on it alone.
TEST(LabPathRate, AQueueTheCaptureFilledIsNotRunAtAFloor)
{
    const auto file = test::labDir("ns3/D-wan-newreno-2m") / "wired-server.pcap";
    WINDSCOPE_REQUIRE_FILE(file);
    ReplayReport report;
    std::string error;
    ASSERT_TRUE(replayLab(file, "max-window=4194304", report, error)) << error;
    ASSERT_TRUE(report.fixEffect.has_value());
    EXPECT_FALSE(report.atQueueFloor.has_value());
    EXPECT_NEAR(static_cast<double>(report.scenario.path.queueBytes), 250 * 1502.0, 0.1 * 250 * 1502);
}

// Every Linux capture (tbf 20 Mb/s, 1,500 B frames) reads its trains. At the sender the
// ACKs' spacing, at the AP and the receiver the data's arrivals; within 15 % of the tbf
// rate with headers, where the mode of the trains is read at all.
TEST(LabPathRate, LinuxCapturesReadTheTbfRate)
{
    int read = 0;
    for (const char* run : {"bbr-scan200", "cubic-scan100hold", "cubic-scan200", "cubic-wifi", "reno-clean",
                            "reno-handoff", "reno-loss05", "reno-scan100"}) {
        for (const char* file : {"sender.pcap", "ap-wlan.pcap", "receiver.pcap"}) {
            const auto path = test::labDir("linux/" + std::string(run)) / file;
            if (!std::filesystem::exists(path))
                continue;
            Derived d;
            std::string error;
            ASSERT_TRUE(deriveLab(path, d, error)) << run << "/" << file << ": " << error;
            const DispersionCapacity& c = d.context.dispersion;
            const double wire = c.mbps * (d.scenario.scenario.sender.mss + 52) / d.scenario.scenario.sender.mss;
            std::printf("%s/%s: %.2f Mb/s with headers, %.0f trains, %.0f segments agreeing\n", run, file, wire,
                        static_cast<double>(c.trains), c.agreeing);
            if (c.agreeing < 2.0 * kTrainSegments)
                continue;
            ++read;
            EXPECT_NEAR(wire, 20.0, 3.0) << run << "/" << file;
        }
    }
    EXPECT_GE(read, 12);
}
