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

} // namespace windscope::analysis
