// SPDX-License-Identifier: GPL-3.0-or-later
// Congestion-control models, ns-3 style: set a state, call one method, check the next
// window. Expected values are worked by hand from the Linux function or RFC clause
// each model method mirrors.
#include "analysis/sender/congestion_model.h"
#include "analysis/sender/cubic.h"
#include "analysis/sender/linux_window.h"
#include "analysis/sender/loss_recovery.h"
#include "analysis/sender/newreno.h"
#include "analysis/sender/reno.h"

#include <gtest/gtest.h>

using namespace windscope::analysis::cwnd;

namespace {
constexpr std::uint32_t mss = 1448;
}

TEST(CwndRegistry, NamesResolveToTheirModels)
{
    for (std::string_view name : congestionModelNames()) {
        auto model = makeCongestionModel(name);
        ASSERT_NE(model, nullptr) << name;
        EXPECT_EQ(model->name(), name);
    }
    EXPECT_EQ(makeCongestionModel("vegas"), nullptr);
    EXPECT_EQ(congestionModelNames().size(), 5u);
}

TEST(LinuxWindow, SlowStartStopsAtSsthreshAndReturnsTheRest)
{
    SenderState s{.mss = mss, .cwnd = 19 * mss, .ssthresh = 20 * mss};
    EXPECT_EQ(linuxSlowStart(s, 3), 2u);
    EXPECT_EQ(s.cwnd, 20 * mss);
}

TEST(LinuxWindow, CongAvoidAiCountsSegmentsInSndCwndCnt)
{
    SenderState s{.mss = mss, .cwnd = 10 * mss, .cwndCount = 8};
    linuxCongAvoidAi(s, 10, 2);
    EXPECT_EQ(s.cwnd, 11 * mss);
    EXPECT_EQ(s.cwndCount, 0u);
    linuxCongAvoidAi(s, 11, 25); // two increments, 3 left over
    EXPECT_EQ(s.cwnd, 13 * mss);
    EXPECT_EQ(s.cwndCount, 3u);
}

TEST(Reno, SlowStartGrowsByTheSegmentsAcked)
{
    RenoModel reno;
    SenderState s{.mss = mss, .cwnd = 10 * mss};
    reno.increaseWindow(s, {.ackedSegments = 2});
    EXPECT_EQ(s.cwnd, 12 * mss);
}

TEST(Reno, CongestionAvoidanceAddsOneSegmentPerWindowAcked)
{
    RenoModel reno;
    SenderState s{.mss = mss, .cwnd = 19 * mss, .ssthresh = 10 * mss, .cwndCount = 17};
    reno.increaseWindow(s, {.ackedSegments = 2}); // tcp_cong_avoid_ai(tp, 19, 2)
    EXPECT_EQ(s.cwnd, 20 * mss);
    EXPECT_EQ(s.cwndCount, 0u);
}

TEST(Reno, NoGrowthWhenNotCwndLimited)
{
    RenoModel reno;
    SenderState s{.mss = mss, .cwnd = 19 * mss, .cwndLimited = false};
    reno.increaseWindow(s, {.ackedSegments = 4});
    EXPECT_EQ(s.cwnd, 19 * mss);
}

TEST(Reno, SsthreshIsHalfTheWindowNotTheFlight)
{
    RenoModel reno;
    SenderState s{.mss = mss, .cwnd = 19 * mss};
    EXPECT_EQ(reno.ssthresh(s, 30 * mss), 9u * mss);
    s.cwnd = 3 * mss;
    EXPECT_EQ(reno.ssthresh(s, 0), 2u * mss);
}

TEST(NewReno, CongestionAvoidanceAddsSmssSquaredOverCwndPerAck)
{
    NewRenoModel newreno;
    SenderState s{.mss = mss, .cwnd = 19 * mss, .ssthresh = 10 * mss, .cwndLimited = false};
    newreno.increaseWindow(s, {.ackedSegments = 2}); // RFC 5681 (3), per ACK, not per segment
    EXPECT_EQ(s.cwnd, 19 * mss + mss / 19);
}

TEST(NewReno, SlowStartAddsOneSegmentPerAckEvenForADelayedAck)
{
    NewRenoModel newreno;
    SenderState s{.mss = mss, .cwnd = 10 * mss};
    newreno.increaseWindow(s, {.ackedSegments = 2});
    EXPECT_EQ(s.cwnd, 11 * mss);
}

TEST(NewReno, SlowStartReachingSsthreshHandsTheRestToCongestionAvoidance)
{
    NewRenoModel newreno;
    SenderState s{.mss = mss, .cwnd = 9 * mss, .ssthresh = 10 * mss};
    newreno.increaseWindow(s, {.ackedSegments = 2});
    EXPECT_EQ(s.cwnd, 10 * mss + mss / 10);
}

TEST(NewReno, SsthreshIsHalfTheFlightSize)
{
    NewRenoModel newreno;
    SenderState s{.mss = mss, .cwnd = 40 * mss};
    EXPECT_EQ(newreno.ssthresh(s, 30 * mss), 15u * mss);
    EXPECT_EQ(newreno.ssthresh(s, mss), 2u * mss);
}

TEST(Cubic, SsthreshIsBetaTimesCwndAndRecordsWmax)
{
    CubicModel cubic;
    SenderState s{.mss = mss, .cwnd = 100 * mss};
    EXPECT_EQ(cubic.ssthresh(s, 0), 70u * mss); // 100 * 717 / 1024
    EXPECT_EQ(cubic.bic().lastMaxCwnd, 100u);
    s.cwnd = 80 * mss; // below W_max: fast convergence, W_max = 80 * (1024+717)/2048
    cubic.ssthresh(s, 0);
    EXPECT_EQ(cubic.bic().lastMaxCwnd, 68u);
}

TEST(Cubic, GrowthBelowWmaxIsConcaveAndBoundedByOneInTwo)
{
    CubicModel cubic;
    cubic.bic().lastMaxCwnd = 100;
    SenderState s{.mss = mss, .cwnd = 70 * mss, .ssthresh = 70 * mss, .nowNs = 5'000'000'000};
    cubic.increaseWindow(s, {.nowNs = s.nowNs, .ackedSegments = 1});
    // Epoch starts now: K = cbrt((100-70) * 2^40 / 410) = 4316 / 1024 s, RFC 9438's
    // cbrt(W_max (1 - beta) / C) = cbrt(30 / 0.4) = 4.2 s; the target at t = 0 is 70,
    // so cnt is large and cwnd does not move yet.
    EXPECT_EQ(cubic.bic().k, 4316u);
    EXPECT_EQ(cubic.bic().originPoint, 100u);
    EXPECT_GT(cubic.bic().cnt, 2u);
    EXPECT_EQ(s.cwnd, 70 * mss);
    // Near K the target is W_max, far above cwnd.
    s.nowNs += 4'100'000'000;
    cubic.increaseWindow(s, {.nowNs = s.nowNs, .ackedSegments = 1});
    EXPECT_EQ(cubic.bic().cnt, 2u); // target 100 >> 70: capped at one per two acked
}

// ns-3.37's TcpSocketBase::ReTxTimeout() takes GetSsThresh() and then calls
// CongestionStateSet(CA_LOSS) at every timeout, backed off or not, and TcpCubic's
// CubicReset() clears W_max each time. With W_max 0, TcpCubic::Update() clamps cnt to
// CntClamp (20): one segment per 20 acked. Without the second reset, W_max is the one
// segment the backed-off timeout's GetSsThresh() recorded, and cnt is 100 * cwnd.
TEST(Cubic, Ns3BackedOffTimeoutResetsWmaxAgain)
{
    CubicModel cubic(ModelStack::Ns3);
    LossRecovery recovery(cubic, {});
    SenderState s{.mss = mss, .cwnd = 40 * mss, .nowNs = 1'000'000'000, .sndUna = 0, .sndNxt = 40 * mss};
    cubic.init(s);
    s.ssthresh = 20 * mss;
    recovery.enterLoss(s, {.flightBytes = 40 * mss, .recoveryPoint = s.sndNxt});
    EXPECT_EQ(s.ssthresh, 28u * mss); // 40 * 0.7
    EXPECT_EQ(s.cwnd, mss);
    // The timer backed off and fired again: a fresh ssthresh from the one segment.
    s.nowNs += 400'000'000;
    recovery.enterLoss(s, {.flightBytes = mss, .recoveryPoint = s.sndNxt});
    EXPECT_EQ(s.ssthresh, 2u * mss);
    EXPECT_EQ(cubic.bic().lastMaxCwnd, 0u);
    // Slow start to ssthresh, then congestion avoidance one segment per 20 acked.
    s.nowNs += 100'000'000;
    cubic.increaseWindow(s, {.nowNs = s.nowNs, .ackedSegments = 1});
    EXPECT_EQ(s.cwnd, 2u * mss);
    for (int i = 0; i < 20; ++i)
        cubic.increaseWindow(s, {.nowNs = s.nowNs, .ackedSegments = 1});
    EXPECT_EQ(s.cwnd, 3u * mss);
}

TEST(Cubic, HystartDelayIncreaseEndsSlowStart)
{
    CubicModel cubic;
    SenderState s{.mss = mss, .cwnd = 10 * mss, .nowNs = 1'000'000'000, .sndUna = 0, .sndNxt = 100 * mss};
    cubic.init(s);
    // Below hystart_low_window (16) a sample only sets delay_min.
    cubic.pktsAcked(s, {.nowNs = s.nowNs, .ackedSegments = 1, .rttNs = 40'000'000});
    EXPECT_EQ(cubic.bic().delayMinUs, 40000u);
    s.cwnd = 32 * mss;
    // Eight samples 10 ms above delay_min (threshold clamp(40/8, 4, 16) = 5 ms), spaced
    // more than 2 ms apart so the ack train does not fire first.
    for (int i = 0; i < 9; ++i) {
        s.nowNs += 3'000'000;
        cubic.pktsAcked(s, {.nowNs = s.nowNs, .ackedSegments = 1, .rttNs = 50'000'000});
    }
    EXPECT_TRUE(cubic.bic().found);
    EXPECT_EQ(s.ssthresh, 32u * mss);
}

TEST(Cubic, HystartAckTrainEndsSlowStartAfterHalfTheMinimumRtt)
{
    CubicModel cubic;
    SenderState s{.mss = mss, .cwnd = 40 * mss, .nowNs = 1'000'000'000, .sndNxt = 1000 * mss};
    cubic.init(s);
    // ACKs 1 ms apart with an unchanged 40 ms RTT: found once the train is longer than
    // (40 ms + 1 ms) / 2.
    for (int i = 0; i < 25; ++i) {
        s.nowNs += 1'000'000;
        cubic.pktsAcked(s, {.nowNs = s.nowNs, .ackedSegments = 2, .rttNs = 40'000'000});
        EXPECT_EQ(cubic.bic().found, i >= 20) << i;
    }
    EXPECT_EQ(s.ssthresh, 40u * mss);
}

TEST(Cubic, LossStateResetsTheEpoch)
{
    CubicModel cubic;
    SenderState s{.mss = mss, .cwnd = 50 * mss};
    cubic.bic().lastMaxCwnd = 80;
    cubic.bic().epochStart = 7;
    cubic.congestionStateSet(s, CaState::Loss);
    EXPECT_EQ(cubic.bic().lastMaxCwnd, 0u);
    EXPECT_EQ(cubic.bic().epochStart, 0u);
}

// ns-3's TcpCubic leaves slow start only when the RTT has grown by delay_min itself
// (clamped to 4 ms..1 s); Linux when by an eighth of it (clamped to 4..16 ms). The same
// samples end Linux's slow start and not ns-3's.
TEST(CubicNs3, HystartWaitsForTheRttToGrowByDelayMin)
{
    for (const ModelStack stack : {ModelStack::Linux, ModelStack::Ns3}) {
        SCOPED_TRACE(stack == ModelStack::Linux ? "linux" : "ns-3");
        CubicModel cubic(stack);
        SenderState s{.mss = mss, .cwnd = 32 * mss, .nowNs = 1'000'000'000, .sndUna = 0, .sndNxt = 0};
        cubic.init(s);
        cubic.pktsAcked(s, {.nowNs = s.nowNs, .ackedSegments = 1, .rttNs = 80'000'000}); // delay_min 80 ms
        const auto round = [&](std::int64_t rttNs) {
            // A new round: everything sent at the last reset is acked.
            s.sndUna = s.sndNxt + 1;
            s.sndNxt += 100 * mss;
            cubic.increaseWindow(s, {.nowNs = s.nowNs, .ackedSegments = 0});
            for (int i = 0; i < 9; ++i) {
                s.nowNs += 10'000'000; // 10 ms apart: no ack train
                cubic.pktsAcked(s, {.nowNs = s.nowNs, .ackedSegments = 1, .rttNs = rttNs});
            }
        };
        round(95'000'000); // 15 ms above delay_min
        EXPECT_EQ(cubic.bic().found, stack == ModelStack::Linux);
        round(170'000'000); // 90 ms above: ns-3's threshold of 80 ms passed too
        EXPECT_TRUE(cubic.bic().found);
        EXPECT_EQ(s.ssthresh, 32u * mss);
    }
}

// ns-3's TcpCubic adds at most one segment per ACK, and has no TCP-friendly region: an
// ACK for ten segments where the cubic target is far above cwnd adds one segment, where
// Linux adds acked / cnt.
TEST(CubicNs3, OneSegmentPerAckWhateverItCovered)
{
    CubicModel ns3(ModelStack::Ns3), linux;
    ns3.bic().lastMaxCwnd = linux.bic().lastMaxCwnd = 100;
    SenderState a{.mss = mss, .cwnd = 70 * mss, .ssthresh = 70 * mss, .nowNs = 5'000'000'000};
    SenderState b = a;
    ns3.increaseWindow(a, {.nowNs = a.nowNs, .ackedSegments = 1}); // starts the epoch
    linux.increaseWindow(b, {.nowNs = b.nowNs, .ackedSegments = 1});
    a.nowNs = b.nowNs = a.nowNs + 4'100'000'000; // near K: the target is W_max, cnt 2
    const std::uint64_t before = a.cwnd;
    ns3.increaseWindow(a, {.nowNs = a.nowNs, .ackedSegments = 10});
    EXPECT_EQ(a.cwnd, before + mss);
    linux.increaseWindow(b, {.nowNs = b.nowNs, .ackedSegments = 10});
    EXPECT_GT(b.cwnd, before + mss);
    EXPECT_EQ(ns3.traits().cwndLimited, CwndLimitedRule::EveryAck);
    EXPECT_EQ(modelStackOf(ns3), ModelStack::Ns3);
}

// ns-3's GetSsThresh: 0.7 of the window in floating point, fast convergence as Linux.
TEST(CubicNs3, SsthreshIsSevenTenthsAndRecordsWmax)
{
    CubicModel cubic(ModelStack::Ns3);
    SenderState s{.mss = mss, .cwnd = 100 * mss};
    EXPECT_EQ(cubic.ssthresh(s, 0), 70u * mss);
    EXPECT_EQ(cubic.bic().lastMaxCwnd, 100u);
    s.cwnd = 80 * mss; // below W_max: 80 * 1.7 / 2 = 68
    EXPECT_EQ(cubic.ssthresh(s, 0), 56u * mss);
    EXPECT_EQ(cubic.bic().lastMaxCwnd, 68u);
}

// ns-3's TcpLinuxReno: slow start stops at ssthresh and drops the rest of the ACK;
// congestion avoidance adds a segment per window of segments acked, on every ACK.
TEST(RenoNs3, SlowStartCapsAtSsthreshAndAvoidanceCountsAWindow)
{
    RenoModel reno(ModelStack::Ns3);
    SenderState s{.mss = mss, .cwnd = 9 * mss, .ssthresh = 10 * mss, .cwndLimited = false};
    reno.increaseWindow(s, {.ackedSegments = 3});
    EXPECT_EQ(s.cwnd, 10 * mss); // not 12, and nothing carried into avoidance
    for (int i = 0; i < 4; ++i)
        reno.increaseWindow(s, {.ackedSegments = 2}); // 8 of the 10 needed
    EXPECT_EQ(s.cwnd, 10 * mss);
    reno.increaseWindow(s, {.ackedSegments = 2}); // 10: one segment more
    EXPECT_EQ(s.cwnd, 11 * mss);
    EXPECT_EQ(reno.ssthresh(SenderState{.mss = mss, .cwnd = 15 * mss + 700}, 0), (15 * mss + 700) / 2);
    EXPECT_TRUE(reno.traits().rtoResetsSsthresh);
    EXPECT_FALSE(reno.traits().rackTlpByDefault);
}

TEST(CongestionModel, UndoRestoresThePriorWindow)
{
    RenoModel reno;
    SenderState s{.mss = mss, .cwnd = 10 * mss, .priorCwnd = 20 * mss};
    EXPECT_EQ(reno.undoCwnd(s), 20u * mss);
}

TEST(CongestionRtt, LinuxHandsTheSampleNs3ItsSmoothedEstimate)
{
    // Samples 40, 20, 60 ms. Linux: each sample, minimum 20 ms. ns-3: RttMeanDeviation's
    // estimate, 40 then 40 + (20 - 40) / 8 = 37.5 then 37.5 + (60 - 37.5) / 8 = 40.3125,
    // on an ACK without a sample too; m_minRtt the least estimate, 37.5 ms.
    constexpr std::int64_t ms = 1'000'000;
    SenderState linuxState, ns3State;
    CongestionRtt linuxRtt(ModelStack::Linux), ns3Rtt(ModelStack::Ns3);
    EXPECT_EQ(ns3Rtt.onAck(ns3State, -1), -1); // no estimate before the first sample
    EXPECT_EQ(linuxRtt.onAck(linuxState, 40 * ms), 40 * ms);
    EXPECT_EQ(ns3Rtt.onAck(ns3State, 40 * ms), 40 * ms);
    EXPECT_EQ(linuxRtt.onAck(linuxState, 20 * ms), 20 * ms);
    EXPECT_EQ(ns3Rtt.onAck(ns3State, 20 * ms), 37'500'000);
    EXPECT_EQ(linuxRtt.onAck(linuxState, 60 * ms), 60 * ms);
    EXPECT_EQ(ns3Rtt.onAck(ns3State, 60 * ms), 40'312'500);
    EXPECT_EQ(linuxRtt.onAck(linuxState, -1), -1);
    EXPECT_EQ(ns3Rtt.onAck(ns3State, -1), 40'312'500);
    EXPECT_EQ(linuxState.minRttNs, 20 * ms);
    EXPECT_EQ(ns3State.minRttNs, 37'500'000);
}

// ns-3.37 TcpSocketBase::ProcessAck(): what it hands PktsAcked() (Westwood+'s bandwidth
// estimate sums it), by hand from its branches: a duplicate ACK 1; in CA_OPEN the whole
// segments SND.UNA moved over; in CA_DISORDER those less the duplicates already counted;
// a partial ACK in fast recovery 1; the ACK that ends a fast recovery every segment it
// covers, SACKed and counted as duplicates before or not; in CA_LOSS the segments below
// the recovery point as they come, at its end those above it.
TEST(StackAckRuleNs3, PktsAckedCountsAsProcessAckHandsThem)
{
    EXPECT_EQ(StackAckRule::kNs3PktsAckedOnDuplicate, 1u);
    const auto count = [](CaState state, std::int64_t oldUna, std::int64_t ack, std::uint32_t duplicates,
                          bool& called) {
        StackAckRule rule(ModelStack::Ns3);
        const SenderState s{.mss = mss, .state = state, .recoveryPoint = 100 * mss};
        const StackAckRule::Outcome out = rule.onUnaAdvance(s, oldUna, ack, false, true, duplicates);
        called = out.ns3CountsAcked;
        return out.ns3PktsAcked;
    };
    bool called = false;
    EXPECT_EQ(count(CaState::Open, 10 * mss, 12 * mss, 0, called), 2u);
    EXPECT_TRUE(called);
    EXPECT_EQ(count(CaState::Disorder, 10 * mss, 13 * mss, 2, called), 1u);
    EXPECT_TRUE(called);
    count(CaState::Disorder, 10 * mss, 11 * mss, 2, called);
    EXPECT_FALSE(called);
    EXPECT_EQ(count(CaState::Recovery, 10 * mss, 40 * mss, 25, called), 1u);
    EXPECT_EQ(count(CaState::Recovery, 40 * mss, 120 * mss, 60, called), 80u);
    EXPECT_EQ(count(CaState::Loss, 10 * mss, 14 * mss, 0, called), 4u);
    EXPECT_EQ(count(CaState::Loss, 90 * mss, 106 * mss, 0, called), 6u);
}
