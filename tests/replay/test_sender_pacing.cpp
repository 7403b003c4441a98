// SPDX-License-Identifier: GPL-3.0-or-later
// The sender's own pacing (deriveSenderPacing()), read from the segments it sent with no
// newer ACK between them, against ns-3 lab runs of scenario E (tests/data/MANIFEST.md):
// one whose server spaces its segments 3 ms apart, two that do not pace.

#include "analysis/replay/derive/derive_scenario.h"
#include "analysis/replay/session/replay_session.h"
#include "lab_connection.h"
#include "test_support.h"

#include <gtest/gtest.h>

#include <string>

namespace windscope::analysis {
namespace {

replay::DerivedScenario deriveFixture(const char* name)
{
    test::LabConnection lab;
    std::string error;
    EXPECT_TRUE(test::openLab(test::testData(name), lab, error)) << error;
    return lab.pipeline ? replay::deriveScenario(lab.input()) : replay::DerivedScenario{};
}

} // namespace

// The lab's server sends a segment every 3 ms at most (--pace=3); the capture's
// segments sent with no ACK between them are 3 ticks of the sender's TSval clock apart.
TEST(SenderPacing, ThePaceIsReadFromTheSendersClock)
{
    const replay::DerivedScenario d = deriveFixture("lab-e-paced-3ms-server.pcap.gz");
    EXPECT_NEAR(d.scenario.sender.paceMs, 3.0, 0.06);
}

// Neither unpaced run reads a pace: what its sender sent unclocked went out within one
// tick, back to back.
TEST(SenderPacing, AnUnpacedSenderHasNoPace)
{
    for (const char* name : {"lab-e-reader-rhythm-server.pcap.gz", "lab-e-slow-reader-big-buffer-server.pcap.gz"}) {
        const replay::DerivedScenario d = deriveFixture(name);
        EXPECT_EQ(d.scenario.sender.paceMs, 0.0) << name;
    }
}

// The paced sender behind a reader that holds its 257 kB buffer (28317 B reads at
// 1.98 Mb/s): the lab's run with a 1 MB window made 3.763 Mb/s against the capture's
// 2.421 (1.55x), held by the 3 ms pace (3.86 Mb/s). Without the pace the replay's
// larger window ran into the path taken above the reader (3.7x).
TEST(SenderPacing, ALargerWindowRunsIntoThePace)
{
    test::LabConnection lab;
    std::string error;
    ASSERT_TRUE(test::openLab(test::testData("lab-e-paced-3ms-server.pcap.gz"), lab, error)) << error;
    replay::ReplayOptions options;
    options.fixes = {"max-window=1029544"};
    const replay::ReplayReport report = replay::replayCapture(lab.input(), options);
    ASSERT_TRUE(report.fixEffect.has_value()) << report.error;
    const double lab155 = 3.763 / 2.421;
    EXPECT_NEAR(report.fixEffect->goodputRatio, lab155, 0.10 * lab155);
}

} // namespace windscope::analysis
