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

#include <string>

namespace windscope::analysis::replay {
namespace {

bool hasNoteWith(const DerivedScenario& d, const std::string& text)
{
    for (const std::string& n : d.notes)
        if (n.find(text) != std::string::npos)
            return true;
    return false;
}

} // namespace

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
    EXPECT_TRUE(hasNoteWith(d, "faster than the path serialises: bunched ACKs"));

    // With the link's rate the baseline matches the capture; the delivered percentile
    // (2.4 Mb/s) had put it 31 % above.
    const ReplayReport report = replayCapture(lab.input(), ReplayOptions{});
    ASSERT_TRUE(report.error.empty()) << report.error;
    ASSERT_TRUE(report.calibration);
    EXPECT_LT(report.calibration->goodput, 0.10);
}

} // namespace windscope::analysis::replay
