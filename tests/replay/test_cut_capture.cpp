// SPDX-License-Identifier: GPL-3.0-or-later
// A capture cut mid-transfer. Its goodput is the sender's unique bytes over the span it
// recorded, and that counts what was still in the path when it ended: segments queued
// and segments a full queue had dropped, not yet resent. A replay that sends the same
// bytes runs on past the cut to deliver them all; its figures are read over the same
// span (Scenario::measuredOverS), the only reading the two share.
#include "analysis/replay/derive/derive_scenario.h"
#include "analysis/replay/session/metrics.h"
#include "analysis/replay/session/replay_session.h"
#include "analysis/replay/sim/simulator.h"
#include "lab_connection.h"
#include "test_support.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>

using namespace windscope;
using namespace windscope::analysis::replay;

// The server of an ns-3 run (tests/data/MANIFEST.md): NewReno through a 1.52 Mb/s
// router with a 389-packet FIFO on a 4 ms path, the simulation stopped at 10 s. The
// slow start filled the FIFO (2.9 s of queue at that rate); from 6.266 s to 9.349 s it
// dropped 196 segments (the lab's queue_drops.csv), and the sender, a queue's worth of
// round trip behind, began its recovery at 9.38 s: the capture holds 3 resends. By 10 s
// the receiver had read 1,672,440 bytes of the 2,525,312 the sender sent.
TEST(CutCapture, ReplayIsReadOverTheSpanTheCaptureRecorded)
{
    constexpr double kBottleneckBps = 1.52e6;
    test::LabConnection lab;
    std::string error;
    ASSERT_TRUE(test::openLab(test::testData("lab-d-queue-at-cut-server.pcap.gz"), lab, error)) << error;
    const DerivedScenario d = deriveScenario(lab.input());
    ASSERT_TRUE(d.endedMidTransfer);
    EXPECT_EQ(d.scenario.measuredOverS, d.scenario.durationS);
    EXPECT_NEAR(d.scenario.durationS, 9.209, 0.001) << "the capture's first to last data segment";
    EXPECT_EQ(d.scenario.bytes, 2525312u);

    const ReplayReport r = replayCapture(lab.input(), ReplayOptions{});
    ASSERT_TRUE(r.capture && r.calibration) << (r.notes.empty() ? "" : r.notes.back());
    // The capture's own reading runs above the bottleneck: it counts the queue and the
    // drops still in the path at the cut.
    EXPECT_GT(r.capture->goodputBps, 1.3 * kBottleneckBps);
    // Read over the same span, the replay's agrees within the calibration threshold.
    EXPECT_LT(r.calibration->goodput, 0.10) << r.baseline.goodputBps << " vs " << r.capture->goodputBps;

    // Over the whole transfer (the drops resent and every byte delivered), the same run
    // reads a quarter under the capture's.
    Scenario whole = r.scenario;
    whole.measuredOverS = 0;
    const SimResult run = simulate(whole);
    ASSERT_TRUE(run.ok()) << run.error;
    const Metrics all = metricsOf(run);
    std::printf("capture %.0f b/s; replay over its span %.0f b/s, over the whole transfer %.0f b/s\n",
                r.capture->goodputBps, r.baseline.goodputBps, all.goodputBps);
    EXPECT_LT(all.goodputBps, 0.8 * r.capture->goodputBps);
    EXPECT_GT(run.path.queueDrops, 100u) << "the replay's FIFO overflows as the lab's did";
}
