// SPDX-License-Identifier: GPL-3.0-or-later
// A handoff replayed with the base station's zero-window ACK control, against the lab's
// own run of that fix. The fixture is the server of an ns-3 lab run (tests/data/
// MANIFEST.md): CUBIC behind a 4.34 Mb/s server link with a 100-packet queue, a 256 ms
// round trip, a 134 kB window, and one 0.565 s handoff at 8.753 s. The lab's baseline
// delivered 2.2861 Mb/s over its 14.54 s (its second timeout left ssthresh at 2 MSS);
// the same run with zwa-hold 3.6614 Mb/s, nothing lost: 1.60 times.

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

constexpr double kLabFixRatio = 3.6614 / 2.2861;
constexpr double kStationLeftS = 8.753; // ns-3 time, the capture's clock

} // namespace

TEST(HandoffReplay, ZeroWindowAckOnALongPathPredictsTheLabsGain)
{
    test::LabConnection lab;
    std::string error;
    ASSERT_TRUE(test::openLab(test::testData("lab-b-zwa-long-path-server.pcap.gz"), lab, error))
        << error;
    const replay::DerivedScenario d = replay::deriveScenario(lab.input());
    // The queue never overflowed before the handoff: the rise read is a floor, and the
    // replay's slow start, which peaks where the lab's did, needs more.
    EXPECT_GE(static_cast<double>(d.scenario.path.queueBytes),
              d.scenario.path.bottleneckMbps * 1e6 / 8 * 2 * d.scenario.path.wiredDelayMs / 1000 *
                  0.95);
    // The silence the sender saw, dated where the station left: at the radio.
    ASSERT_EQ(d.scenario.outageList.size(), 1u);
    const double firstDataS =
        static_cast<double>(d.firstDataNs + lab.pipeline->tables().summary.firstEpochNs) / 1e9;
    EXPECT_NEAR(d.scenario.outageList.front().startS + firstDataS, kStationLeftS, 0.02);
    // ns-3's stack: one RTO rule, and a fresh ssthresh at every timeout.
    EXPECT_EQ(d.scenario.sender.stack, "ns-3");
    EXPECT_TRUE(d.scenario.sender.rtoRfc6298);

    replay::ReplayOptions options;
    options.fixes = {"ap-zero-window-ack"};
    const replay::ReplayReport r = replay::replayCapture(lab.input(), options);
    ASSERT_TRUE(r.capture && r.calibration && r.fixEffect)
        << (r.notes.empty() ? "" : r.notes.back());
    EXPECT_LT(r.calibration->goodput, 0.10)
        << r.baseline.goodputBps << " vs " << r.capture->goodputBps;
    // The baseline loses the flight and times out twice, as the lab's sender did.
    EXPECT_EQ(r.baseline.rtoTimeouts, 2u);
    // The fix: nothing lost, no timeout (ns-3 stops its timer under the zero window,
    // and the held backlog reaches the station at the radio's pace).
    ASSERT_TRUE(r.fixed);
    EXPECT_EQ(r.fixed->retransmissions, 0u);
    EXPECT_EQ(r.fixed->rtoTimeouts, 0u);
    EXPECT_LT(std::abs(r.fixEffect->goodputRatio / kLabFixRatio - 1), 0.15)
        << "predicted " << r.fixEffect->goodputRatio << ", lab " << kLabFixRatio;
}

// A capture cut mid-transfer is compared over its time (the fixtures: the server side of
// an ns-3 lab pair, tests/data/MANIFEST.md). Linux Reno at 6.2 Mb/s on a 220 ms path, a
// 1.9 s handoff at 2.1 s: the timer backs off four times, the last retransmission gets
// through with ssthresh at two segments, and the window crawls back one segment a
// round trip for the rest of the 11.6 s. With the base station's zero-window ACKs the
// run goes on at its window's pace. The same bytes sooner made the fix 2.1x; in the
// capture's time the pair measured 3.5x.
TEST(HandoffReplay, AFixOnACutCaptureIsWhatItDeliversInTheSameTime)
{
    test::LabConnection base, fixed;
    std::string error;
    ASSERT_TRUE(test::openLab(test::testData("lab-b-rto-crawl-server.pcap.gz"), base, error))
        << error;
    ASSERT_TRUE(test::openLab(test::testData("lab-b-zwa-fixed-server.pcap.gz"), fixed, error))
        << error;
    const replay::DerivedScenario d = replay::deriveScenario(base.input());
    EXPECT_TRUE(d.endedMidTransfer);
    EXPECT_GT(d.scenario.bytes, 0u); // the baseline still sends the capture's bytes

    replay::ReplayOptions options;
    options.fixes = {"ap-zero-window-ack"};
    const replay::ReplayReport r = replay::replayCapture(base.input(), options);
    ASSERT_TRUE(r.capture && r.calibration && r.fixEffect && r.fixBaseline)
        << (r.notes.empty() ? "" : r.notes.back());
    EXPECT_LT(r.calibration->goodput, 0.10)
        << r.baseline.goodputBps << " vs " << r.capture->goodputBps;
    // The baseline over the capture's time is the one the fix is measured against.
    EXPECT_NEAR(r.fixEffect->goodputRatio, r.fixed->goodputBps / r.fixBaseline->goodputBps, 1e-9);
    const double measured = fixed.goodputBps() / r.capture->goodputBps;
    std::printf("handoff 1.9 s, zero-window ACKs: measured %.3fx, predicted %.3fx\n", measured,
                r.fixEffect->goodputRatio);
    EXPECT_GT(measured, 3.0);
    EXPECT_LT(std::abs(r.fixEffect->goodputRatio / measured - 1), 0.15);
}

// A handoff's resends are one outage, not a period. The fixture is the server side of
// an ns-3 lab run (tests/data/MANIFEST.md): CUBIC at 2.3 Mb/s, one 0.52 s handoff at
// 7.531 s, two timeouts, and 26 segments re-sent over 13 round trips as the window
// grew back. Folded at 503 ms those 26 bursts concentrate far past chance (Rayleigh Z
// 18.6 against 9.8), and each round trip's re-sends counted as a loss episode of its
// own; but every one of them repeats data lost in the one window over the handoff.
// Taken for a 236 ms scan every 503 ms from 7.29 s, the replay's sender spent ten
// minutes on the last 5 % of the transfer (98 % slow).
TEST(HandoffReplay, ATimeoutsResendsAreNotAPeriodicScan)
{
    test::LabConnection lab;
    std::string error;
    ASSERT_TRUE(test::openLab(test::testData("lab-b-handoff-2mbps-server.pcap.gz"), lab, error)) << error;
    const replay::ReplayReport r = replay::replayCapture(lab.input(), {});
    ASSERT_TRUE(r.capture && r.calibration) << (r.notes.empty() ? "" : r.notes.back());
    EXPECT_EQ(r.scenario.periodicScan.intervalMs, 0.0);
    const auto note = std::find_if(r.notes.begin(), r.notes.end(), [](const std::string& n) {
        return n.starts_with("periodic outages: none");
    });
    ASSERT_NE(note, r.notes.end());
    EXPECT_NE(note->find("in 1 windows"), std::string::npos) << *note;
    // The handoff stays an outage of its own.
    EXPECT_EQ(r.scenario.outageList.size(), 1u);
    EXPECT_LT(r.calibration->goodput, 0.10);
}

} // namespace windscope::analysis
