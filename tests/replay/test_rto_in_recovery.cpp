// SPDX-License-Identifier: GPL-3.0-or-later
// A retransmission timer that runs out in fast recovery, seen at an ns-3 sender. An ACK
// that advances SND.UNA and SACKs new data keeps ns-3 in CA_DISORDER, where its
// TcpSocketBase neither restarts the timer nor grows the window; the fast retransmit
// then waits behind a deep queue and the timer, running since the ACK before, fires
// 200 ms after that one: the head goes out a second time and the sender is in CA_LOSS.
// The fixture is the server of an ns-3 lab run (tests/data/MANIFEST.md), cut at 2.3 s.

#include "analysis/replay/derive/derive_scenario.h"
#include "analysis/replay/session/replay_session.h"
#include "lab_connection.h"
#include "test_support.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>

namespace windscope::analysis {
namespace {

// The run's trace: CA_RECOVERY at 1.498465 s, CA_LOSS at 1.682421 s (183.956 ms later)
// with 133,216 bytes in flight, so ssthresh max(2 MSS, flight / 2).
constexpr double kTimeoutAfterFastRetransmitNs = 183'956'000;
constexpr std::uint64_t kSsthreshAfterTimeout = 66'608;

} // namespace

TEST(RtoInRecovery, Ns3TimerRunsFromTheAckBeforeTheDisorder)
{
    test::LabConnection lab;
    std::string error;
    ASSERT_TRUE(test::openLab(test::testData("lab-a-rto-in-recovery-server.pcap.gz"), lab, error)) << error;
    cwnd::CwndOptions options;
    options.model = "newreno";
    cwnd::CwndInference inf;
    ASSERT_TRUE(cwnd::inferCwnd(lab.pipeline->tables(), lab.pipeline->tcp(), lab.connection, lab.sender, options,
                                inf, error))
        << error;
    EXPECT_EQ(inf.vantage.point, cwnd::VantagePoint::Sender);
    ASSERT_FALSE(inf.fits.empty());
    // The fast recovery and the timeout inside it; the timer restarted at the ACK that
    // moved the sender into CA_DISORDER had run 186 ms only.
    EXPECT_EQ(inf.fits.front().lossEpisodes, 2u);
    const cwnd::CwndSample *firstRecovery = nullptr, *firstLoss = nullptr;
    for (const cwnd::CwndSample& s : inf.series) {
        if (!firstRecovery && s.phase == cwnd::SenderPhase::FastRecovery)
            firstRecovery = &s;
        if (!firstLoss && s.phase == cwnd::SenderPhase::Loss)
            firstLoss = &s;
    }
    ASSERT_NE(firstRecovery, nullptr);
    ASSERT_NE(firstLoss, nullptr);
    const auto& timeNs = lab.pipeline->tables().tcp.timeNs;
    // The capture's clock ticks in microseconds.
    EXPECT_NEAR(static_cast<double>(timeNs[firstLoss->row] - timeNs[firstRecovery->row]),
                kTimeoutAfterFastRetransmitNs, 1e3);
    EXPECT_EQ(firstLoss->ssthreshBytes, kSsthreshAfterTimeout);

    // The derivation reads the timeout from the inference: 184 ms after the timer's
    // start as the capture times it, under Linux's bound (SRTT + 200 ms), so RFC 6298's.
    const replay::DerivedScenario d = replay::deriveScenario(lab.input());
    EXPECT_TRUE(d.scenario.sender.rtoRfc6298);
    EXPECT_LE(d.scenario.sender.minRtoMs, 200.0);
}

// A timer at RFC 6298's minimum on a short path: the server of an ns-3 handoff run
// (tests/data/MANIFEST.md, cut at 5.3 s) whose SRTT is 22 ms, so its 200 ms timer runs
// out only 22 ms under Linux's bound (SRTT + 200 ms), where a timer runs out late, never
// early. The station was away 2.039 s from 2.007 s (ns-3 time, the capture's clock); the
// head went out again at 2.216, 2.616 and 3.416 s, lost, and at 5.016 s, through.
TEST(RtoRule, TimerAtTheMinimumOnAShortPathIsRfc6298s)
{
    test::LabConnection lab;
    std::string error;
    ASSERT_TRUE(test::openLab(test::testData("lab-b-rto-short-srtt-server.pcap.gz"), lab, error)) << error;
    const replay::DerivedScenario d = replay::deriveScenario(lab.input());
    EXPECT_TRUE(d.scenario.sender.rtoRfc6298);
    EXPECT_EQ(d.scenario.sender.minRtoMs, 200.0);
    // The outage ends between the last lost resend of the head and the one that got
    // through (their midpoint), not at the latter: a replay whose timer runs a little
    // earlier would otherwise lose that resend too and wait a doubled timer more. The
    // outage is the radio's: each resend reached it one wired delay after the sender.
    constexpr double kLastLostS = 3.416, kThroughS = 5.016, kBackS = 2.007 + 2.039;
    ASSERT_EQ(d.scenario.outageList.size(), 1u);
    const replay::Outage& o = d.scenario.outageList.front();
    const double firstDataS =
        static_cast<double>(d.firstDataNs + lab.pipeline->tables().summary.firstEpochNs) / 1e9;
    const double endS = o.endS() + firstDataS;
    const double toRadioS = d.scenario.path.wiredDelayMs / 1000;
    EXPECT_GT(endS, kLastLostS + toRadioS);
    EXPECT_NEAR(endS, (kLastLostS + kThroughS) / 2 + toRadioS, 0.01);
    // And it began at the radio where the station left, not where the sender's ACKs
    // stopped one wired delay later.
    EXPECT_NEAR(o.startS + firstDataS, 2.007, 0.01);
    EXPECT_LT(std::abs(endS - kBackS), 0.2) << "the station was back at " << kBackS << " s";
    // The replay with that rule and that outage: within 10 % of the capture's goodput
    // (Linux's bound and the late end made it 11 % slow).
    const replay::ReplayReport r = replay::replayCapture(lab.input(), {});
    ASSERT_TRUE(r.capture && r.calibration) << (r.notes.empty() ? "" : r.notes.back());
    EXPECT_LT(r.calibration->goodput, 0.10) << r.baseline.goodputBps << " vs " << r.capture->goodputBps;
    // Every loss of the capture is the outage's: the queue holds the largest flight the
    // sender had before it (its host's queue ahead of the capture counted), as the
    // lab's did; sized to the round trips' rise alone, the replay's slow start lost 46.
    EXPECT_EQ(r.baselineRun.path.queueDrops, 0u);
}

// A 2 Mb/s slow start's overflow, seen at the sender (tests/data/MANIFEST.md, the
// server of an ns-3 scan run cut at 5 s): the queue dropped every other segment of one
// flight, a packet time or two apart, and the sender's one timeout ran 852 ms. Neither
// is what the capture's own reading had made of it: a resend 45.5 ms after the timer's
// apparent start at an SRTT of 101 ms, taken for an RFC 6298 timer with a 46 ms
// minimum, and the 26 lost sends, folded as 26 independent events, a 156 ms "scan" in
// drop mode every 507 ms. The replay then lost a flight a window and ran 19 % slow.
TEST(RtoRule, OneOverflowIsNeitherAShortTimerNorAScan)
{
    test::LabConnection lab;
    std::string error;
    ASSERT_TRUE(test::openLab(test::testData("lab-a-overflow-2mbps-server.pcap.gz"), lab, error)) << error;
    const replay::DerivedScenario d = replay::deriveScenario(lab.input());
    // Both RTO rules keep the timer above the SRTT: a resend sooner is not read, and
    // the minimum stays 200 ms. The rule is RFC 6298's for the stack the inference
    // chose, ns-3's (the lab's), not for that resend.
    EXPECT_EQ(d.scenario.sender.minRtoMs, 200.0);
    EXPECT_EQ(d.scenario.sender.rtoRfc6298, d.scenario.sender.stack == "ns-3");
    // Its windows would hold 2 loss episodes, too few for the test's independence.
    EXPECT_FALSE(d.scenario.periodicScan.intervalMs > 0 && d.scenario.periodicScan.mode == replay::OutageMode::Drop);
    const replay::ReplayReport r = replay::replayCapture(lab.input(), {});
    ASSERT_TRUE(r.capture && r.calibration);
    EXPECT_LT(r.calibration->goodput, 0.10) << r.baseline.goodputBps << " vs " << r.capture->goodputBps;
}

} // namespace windscope::analysis
