// SPDX-License-Identifier: GPL-3.0-or-later
// The bottleneck of a path whose ACKs arrive bunched: a station that leaves its channel
// for background scans holds its ACKs and sends them together, so windows of ACK
// progress run faster than any link of the path. The fixture is the AP radio of an
// ns-3 lab run (tests/data/MANIFEST.md): a 2 Mb/s wired link behind 18 Mb/s 802.11a,
// 18 ms scans every 237 ms.

#include "analysis/replay/derive/derive_scenario.h"
#include "analysis/replay/session/replay_session.h"
#include "lab_connection.h"
#include "test_support.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

namespace windscope::analysis::replay {
TEST(BunchedAcks, TrainSpacingGivesTheWiredRateBehindScans)
{
    const auto file = test::testData("lab-a-scan-2mbps-ap.pcap.gz");
    test::LabConnection lab;
    std::string error;
    ASSERT_TRUE(test::openLab(file, lab, error)) << error;
    const DerivedScenario d = deriveScenario(lab.input());
    // The lab's link: 2 Mb/s on the wire, headers included, as the scenario counts it.
    constexpr double kLabRateMbps = 2.0;
    EXPECT_NEAR(d.scenario.path.bottleneckMbps, kLabRateMbps, 0.05 * kLabRateMbps);
    EXPECT_TRUE(test::anyNote(d.notes, "", "faster than the path serialises: bunched ACKs"));

    // With the link's rate the baseline matches the capture; the delivered percentile
    // (2.4 Mb/s) had put it 31 % above.
    const ReplayReport report = replayCapture(lab.input(), ReplayOptions{});
    ASSERT_TRUE(report.error.empty()) << report.error;
    ASSERT_TRUE(report.calibration);
    EXPECT_LT(report.calibration->goodput, 0.10);
}

// A longer dwell on a slower air (tests/data/MANIFEST.md: 44 ms every 451 ms, 12 Mb/s
// 802.11a, 2 Mb/s wired with a queue 0.6 s deep): the AP's releases fill most windows
// of 20 ms, and the trains the capture sees are the releases, at the air's rate. Over
// the stretches the queue stood, what reached the station is the wired link's rate,
// and against it the releases show the scans.
TEST(BunchedAcks, StandingStretchesGiveTheWiredRateAndTheScansBehindLongDwells)
{
    const auto file = test::testData("lab-a-scan44-2mbps-ap.pcap.gz");
    test::LabConnection lab;
    std::string error;
    ASSERT_TRUE(test::openLab(file, lab, error)) << error;
    const DerivedScenario d = deriveScenario(lab.input());
    constexpr double kLabRateMbps = 2.0, kLabIntervalMs = 451, kLabDwellMs = 44;
    EXPECT_NEAR(d.scenario.path.bottleneckMbps, kLabRateMbps, 0.05 * kLabRateMbps);
    EXPECT_FALSE(d.scenario.mac.enabled);
    EXPECT_NEAR(d.scenario.periodicScan.intervalMs, kLabIntervalMs, 0.02 * kLabIntervalMs);
    EXPECT_NEAR(d.scenario.periodicScan.dwellMs, kLabDwellMs, 0.10 * kLabDwellMs);
    EXPECT_TRUE(test::anyNote(d.notes, "", "silences in the data's arrivals ended by more data than the bottleneck carries"));

    // The delivered percentile (4.4 Mb/s) had put the baseline 147 % above the capture.
    const ReplayReport report = replayCapture(lab.input(), ReplayOptions{});
    ASSERT_TRUE(report.error.empty()) << report.error;
    ASSERT_TRUE(report.calibration);
    EXPECT_LT(std::abs(report.calibration->goodput), 0.10);
}

// A radio that is itself the bottleneck (tests/data/MANIFEST.md: 18 ms scans every 56 ms,
// 6 Mb/s 802.11a, the station's capture): the AP holds what arrives while the station is
// away and sends it at the air's own pace when it is back, no faster than the path, and
// retries nothing (the hold is announced). What tells the scans is the data after each
// silence: on the sender's clock (its TSvals) it waited through the silence, where data
// after a sender's own pause did not.
TEST(BunchedAcks, SilencesTheDataWaitedThroughAtARadioThatIsTheBottleneck)
{
    const auto file = test::testData("lab-a-scan56-6mbps-sta.pcap.gz");
    test::LabConnection lab;
    std::string error;
    ASSERT_TRUE(test::openLab(file, lab, error)) << error;
    const DerivedScenario d = deriveScenario(lab.input());
    constexpr double kLabIntervalMs = 56, kLabDwellMs = 18;
    EXPECT_NEAR(d.scenario.periodicScan.intervalMs, kLabIntervalMs, 0.02 * kLabIntervalMs);
    EXPECT_NEAR(d.scenario.periodicScan.dwellMs, kLabDwellMs, 0.10 * kLabDwellMs);
    EXPECT_EQ(d.scenario.periodicScan.mode, OutageMode::PsAnnounced);
    EXPECT_TRUE(test::anyNote(d.notes, "", "or by data that waited through them fold at that period"));
}

} // namespace windscope::analysis::replay
