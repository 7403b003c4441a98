// SPDX-License-Identifier: GPL-3.0-or-later
// A slow reader behind a large buffer, seen at the sender (tests/data/MANIFEST.md, the
// server of an ns-3 lab run): the application reads 5175 B per call and is then busy
// 1 ms + 4 us per byte, 1.9078 Mb/s; its 249 kB buffer fills first, so the sender's
// goodput (2.18 Mb/s over its sending time) runs 14 % above what the application
// drains. The reader's rate is the right edge's pace while it held the window.

#include "analysis/replay/derive/derive_scenario.h"
#include "analysis/replay/session/replay_session.h"
#include "lab_connection.h"
#include "test_support.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

namespace windscope::analysis {
namespace {

constexpr double kLabReadBytes = 5175, kLabReadPeriodUs = 1000 + kLabReadBytes * 4;

} // namespace

TEST(SlowReader, DrainRateIsTheRightEdgesPaceNotTheSendersGoodput)
{
    test::LabConnection lab;
    std::string error;
    ASSERT_TRUE(
        test::openLab(test::testData("lab-e-slow-reader-big-buffer-server.pcap.gz"), lab, error))
        << error;
    const replay::DerivedScenario d = replay::deriveScenario(lab.input());
    const replay::ReceiverParams& r = d.scenario.receiver;
    EXPECT_NEAR(static_cast<double>(r.appReadBytes), kLabReadBytes, 0.02 * kLabReadBytes);
    const double periodUs = r.readFixedUs + r.readPerByteUs * static_cast<double>(r.appReadBytes);
    EXPECT_NEAR(periodUs, kLabReadPeriodUs, 0.02 * kLabReadPeriodUs);

    // The replay drains as the lab's reader did: the capture's goodput within 3 %
    // (14 % above it with the goodput taken for the drain rate).
    const replay::ReplayReport report = replay::replayCapture(lab.input(), {});
    ASSERT_TRUE(report.capture && report.calibration)
        << (report.notes.empty() ? "" : report.notes.back());
    EXPECT_LT(report.calibration->goodput, 0.03)
        << report.baseline.goodputBps << " vs " << report.capture->goodputBps;
}

// A reader that catches up between flights (tests/data/MANIFEST.md, the server of an
// ns-3 lab run): it reads up to 18268 B a call, busy 1 ms + 4 us per byte (1.97 Mb/s
// while data waits), behind an 18 kB buffer on a 105 ms path; the window holds the
// sender to 1.07 Mb/s and the reader idles between flights, so the window never stays
// low and its edge's pace is the flow's, not the reader's. The backlogs the ACKs show
// read its pace; with a 72 kB window the lab's pair made 1.95 against 1.06 Mb/s
// (1.83x): the reader, not the 4x window, caps it.
TEST(SlowReader, AReaderThatCatchesUpBetweenFlightsIsReadFromItsBacklogs)
{
    constexpr double kLabDrainBps = 1.973e6, kLabFixRatio = 1.9484 / 1.0633;
    test::LabConnection lab;
    std::string error;
    ASSERT_TRUE(test::openLab(test::testData("lab-e-reader-catches-up-server.pcap.gz"), lab, error)) << error;
    const replay::DerivedScenario d = replay::deriveScenario(lab.input());
    const replay::ReceiverParams& r = d.scenario.receiver;
    ASSERT_GT(r.appReadBytes, 0u) << "no slow reader derived";
    const auto readBytes = static_cast<double>(std::min(r.appReadBytes, r.bufferBytes));
    const double drainBps = readBytes * 8 / (r.readFixedUs + readBytes * r.readPerByteUs) * 1e6;
    EXPECT_NEAR(drainBps, kLabDrainBps, 0.15 * kLabDrainBps);

    replay::ReplayOptions options;
    options.fixes = {"max-window=72380"};
    const replay::ReplayReport report = replay::replayCapture(lab.input(), options);
    ASSERT_TRUE(report.capture && report.calibration && report.fixEffect)
        << (report.notes.empty() ? "" : report.notes.back());
    EXPECT_LT(report.calibration->goodput, 0.10) << report.baseline.goodputBps << " vs " << report.capture->goodputBps;
    // Without the reader's pace the larger window ran to its own bound: 3.9x.
    EXPECT_LT(std::abs(report.fixEffect->goodputRatio / kLabFixRatio - 1), 0.15)
        << "predicted " << report.fixEffect->goodputRatio << ", lab " << kLabFixRatio;
}

} // namespace windscope::analysis

namespace windscope::analysis {

// A reader that holds the window always finds a whole read waiting, so the right edge
// steps by whole numbers of reads between two ACKs (tests/data/MANIFEST.md, two ns-3 lab
// runs whose ACKs carry no window update of their own). Behind a 3 ms paced sender the
// ACKs come more often than the 28317 B reads, one read a step; behind bursts on a 258 ms
// path the 973 B reads come 1 to 10 between two ACKs (most often 8, 7,784 B). Read as one
// MSS a call, the first predicted a 1.10x gain from reads of 3386 B where the lab lost
// 6 %, the second 1.12x from reads of 37362 B where the lab made 1.215x.
TEST(SlowReader, TheReadSizeIsWhatTheRightEdgesStepsAreWholeNumbersOf)
{
    struct Case
    {
        const char* file;
        double readBytes;
        const char* fix;
        double labRatio;
    };
    for (const Case& c : {Case{"lab-e-paced-3ms-server.pcap.gz", 28317, "rx-app-buffer=3386", 1.8343 / 1.9513},
                          Case{"lab-e-small-reads-server.pcap.gz", 973, "rx-app-buffer=37362", 1.8061 / 1.4868}}) {
        test::LabConnection lab;
        std::string error;
        ASSERT_TRUE(test::openLab(test::testData(c.file), lab, error)) << error;
        const replay::DerivedScenario d = replay::deriveScenario(lab.input());
        // Within the window scale's unit (4 B in both runs) of the lab's read size.
        EXPECT_NEAR(static_cast<double>(d.scenario.receiver.appReadBytes), c.readBytes, 4) << c.file;
        replay::ReplayOptions options;
        options.fixes = {c.fix};
        const replay::ReplayReport report = replay::replayCapture(lab.input(), options);
        ASSERT_TRUE(report.fixEffect.has_value()) << c.file << ": " << report.error;
        EXPECT_NEAR(report.fixEffect->goodputRatio, c.labRatio, 0.05 * c.labRatio) << c.file;
    }
}

} // namespace windscope::analysis
