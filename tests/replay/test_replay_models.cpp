// SPDX-License-Identifier: GPL-3.0-or-later
// The congestion-control models the replay sender adds to the shared registry,
// ns-3 style: set a state, call one method, check the next window. Expected values are
// worked by hand from the Linux function each method mirrors.
#include "analysis/sender/congestion_model.h"
#include "analysis/sender/veno.h"
#include "analysis/sender/westwood_plus.h"

#include <gtest/gtest.h>

#include <algorithm>

using namespace windscope::analysis::cwnd;

namespace {
constexpr std::uint32_t mss = 1448;
constexpr std::int64_t ms = 1'000'000;
} // namespace

TEST(ReplayModels, RegistryHasAllSixAndInferenceTriesTheFiveWindowBasedOnes)
{
    EXPECT_EQ(congestionModelNames().size(), 5u);
    ASSERT_EQ(allCongestionModelNames().size(), 6u);
    for (std::string_view name : allCongestionModelNames()) {
        auto model = makeCongestionModel(name);
        ASSERT_NE(model, nullptr) << name;
        EXPECT_EQ(model->name(), name);
        EXPECT_EQ(model->clone()->name(), name);
    }
}

TEST(WestwoodPlus, GrowsLikeRenoInSlowStart)
{
    WestwoodPlusModel w;
    SenderState s{.mss = mss, .cwnd = 10 * mss};
    w.increaseWindow(s, {.ackedSegments = 2});
    EXPECT_EQ(s.cwnd, 12 * mss);
}

TEST(WestwoodPlus, SsthreshWithoutABandwidthSampleIsRenos)
{
    WestwoodPlusModel w;
    const SenderState s{.mss = mss, .cwnd = 40 * mss};
    EXPECT_EQ(w.ssthresh(s, 40 * mss), 20 * mss); // tcp_reno_ssthresh()
}

TEST(WestwoodPlus, SsthreshIsBandwidthTimesMinRtt)
{
    WestwoodPlusModel w;
    SenderState s{.mss = mss, .cwnd = 80 * mss, .minRttNs = 100 * ms};
    // First ACK opens the sample window; 100 segments acked over the next 101 ms
    // (> RTT 100 ms) give the first sample, which seeds both filters.
    w.pktsAcked(s, {.nowNs = 0, .ackedSegments = 1, .ackedBytes = mss, .rttNs = 100 * ms});
    w.pktsAcked(s, {.nowNs = 101 * ms, .ackedSegments = 100, .ackedBytes = 100ull * mss, .rttNs = 100 * ms});
    const double bw = 100.0 * mss / 0.101; // bytes per second
    EXPECT_NEAR(w.bandwidthBytesPerSecond(), bw, 1);
    // tcp_westwood_bw_rttmin(): bw * rtt_min / mss = 99 segments (floor).
    EXPECT_EQ(w.ssthresh(s, 80 * mss), 99u * mss);
    // A random loss on a path that is not full does not halve the window.
    EXPECT_GT(w.ssthresh(s, 80 * mss), s.cwnd / 2);
}

TEST(Veno, FewRttSamplesGrowLikeReno)
{
    VenoModel v;
    SenderState s{.mss = mss, .cwnd = 19 * mss, .ssthresh = 10 * mss, .cwndCount = 17};
    v.increaseWindow(s, {.ackedSegments = 2}); // cntrtt <= 2: tcp_reno_cong_avoid()
    EXPECT_EQ(s.cwnd, 20 * mss);
}

TEST(Veno, SmallBacklogMeansRandomLossCutToFourFifths)
{
    VenoModel v;
    SenderState s{.mss = mss, .cwnd = 50 * mss, .ssthresh = 10 * mss};
    // baseRTT 100 ms, this RTT's minimum 101 ms: diff = 50 * (1 - 100/101) << 1 = 0 < beta.
    v.setSamples(100'000, 101'000, 10);
    v.increaseWindow(s, {.ackedSegments = 1});
    EXPECT_LT(v.diff(), 6u);
    EXPECT_EQ(v.ssthresh(s, 50 * mss), 40u * mss); // 50 * 4 / 5
}

TEST(Veno, LargeBacklogMeansCongestionHalve)
{
    VenoModel v;
    SenderState s{.mss = mss, .cwnd = 50 * mss, .ssthresh = 10 * mss};
    // RTT 150 ms over base 100 ms: target 50 * 100 / 150 = 33.3 segments, diff about
    // (50 - 33.3) << 1 = 33 >= beta (3 << 1).
    v.setSamples(100'000, 150'000, 10);
    v.increaseWindow(s, {.ackedSegments = 1});
    EXPECT_GE(v.diff(), 6u);
    EXPECT_EQ(v.ssthresh(s, 50 * mss), 25u * mss);
}

TEST(Veno, BacklogSlowsGrowthToEveryOtherRtt)
{
    VenoModel v;
    // Past beta: snd_cwnd_cnt counts to cwnd, then cwnd grows only if inc was set.
    SenderState s{.mss = mss, .cwnd = 10 * mss, .ssthresh = 5 * mss, .cwndCount = 10};
    v.setSamples(100'000, 200'000, 10);
    v.increaseWindow(s, {.ackedSegments = 1});
    EXPECT_EQ(s.cwnd, 11 * mss); // inc starts true: this RTT grows
    EXPECT_EQ(s.cwndCount, 0u);
    s.cwndCount = 11;
    v.setSamples(100'000, 200'000, 10);
    v.increaseWindow(s, {.ackedSegments = 1});
    EXPECT_EQ(s.cwnd, 11 * mss); // the next does not
}

TEST(ReplayModels, EveryModelButNewRenoComesInBothStacks)
{
    for (std::string_view name : {"reno", "cubic", "westwood-plus", "veno"}) {
        EXPECT_EQ(modelStackOf(*makeCongestionModel(name)), ModelStack::Linux) << name;
        auto ns3 = makeCongestionModel(name, ModelStack::Ns3);
        ASSERT_NE(ns3, nullptr);
        EXPECT_EQ(ns3->name(), name);
        EXPECT_EQ(modelStackOf(*ns3), ModelStack::Ns3) << name;
        EXPECT_EQ(modelStackOf(*ns3->clone()), ModelStack::Ns3) << name;
        EXPECT_FALSE(ns3->traits().undoesSpuriousReductions);
        EXPECT_TRUE(ns3->traits().rtoResetsSsthresh);
    }
    // A one-stack model is what it is, whatever stack is asked for.
    EXPECT_EQ(modelStackOf(*makeCongestionModel("newreno", ModelStack::Linux)), ModelStack::Ns3);
    // Only the models that grow as Reno have slow starts that tell their stacks apart.
    for (std::string_view name : {"westwood-plus", "veno"})
        EXPECT_TRUE(makeCongestionModel(name, ModelStack::Ns3)->traits().slowStartOneSmssPerAck) << name;
    for (std::string_view name : {"reno", "cubic"})
        EXPECT_FALSE(makeCongestionModel(name, ModelStack::Ns3)->traits().slowStartOneSmssPerAck) << name;
}

TEST(WestwoodPlusNs3, GrowsOneSegmentPerAckInSlowStartAsTcpNewReno)
{
    WestwoodPlusModel w(ModelStack::Ns3);
    SenderState s{.mss = mss, .cwnd = 10 * mss, .cwndLimited = false};
    w.increaseWindow(s, {.ackedSegments = 2});
    EXPECT_EQ(s.cwnd, 11 * mss); // EveryAck: grows unused, one SMSS per ACK
}

TEST(WestwoodPlusNs3, SsthreshIsTwoSegmentsBeforeTheFirstEstimate)
{
    WestwoodPlusModel w(ModelStack::Ns3);
    SenderState s{.mss = mss, .cwnd = 100 * mss, .minRttNs = 100 * ms};
    EXPECT_EQ(w.ssthresh(s, 100 * mss), 2u * mss);
}

TEST(WestwoodPlusNs3, SsthreshIsTustinFilteredBandwidthTimesMinRtt)
{
    WestwoodPlusModel w(ModelStack::Ns3);
    SenderState s{.mss = mss, .cwnd = 100 * mss, .minRttNs = 100 * ms};
    // First ACK at 0 with a 100 ms RTT opens a period ending at 100 ms; 100 segments
    // acked in it: a 1000 segments/s sample.
    for (int i = 0; i < 50; ++i)
        w.pktsAcked(s, {.nowNs = i * ms, .ackedSegments = 2, .rttNs = 100 * ms});
    s.nowNs = 100 * ms;
    // Tustin from zero: 0.9 * 0 + 0.1 * (sample + 0) / 2 = 0.05 * sample.
    const double bw = 0.05 * 100 * mss / 0.1;
    EXPECT_NEAR(static_cast<double>(w.ssthresh(s, 100 * mss)), std::max(2.0 * mss, bw * 0.1), 2);
    EXPECT_NEAR(w.bandwidthBytesPerSecond(), bw, 1);
}

TEST(VenoNs3, GrowsAsTcpNewRenoAndCutsTheFlight)
{
    VenoModel v(ModelStack::Ns3);
    SenderState s{.mss = mss, .cwnd = 40 * mss, .ssthresh = 20 * mss, .cwndLimited = false};
    // One RTT sample per ACK: base 100 ms, this ACK's 100 ms: no backlog.
    v.pktsAcked(s, {.ackedSegments = 1, .rttNs = 100 * ms});
    v.increaseWindow(s, {.ackedSegments = 1, .rttNs = 100 * ms});
    EXPECT_EQ(s.cwnd, 40 * mss + mss / 40); // TcpNewReno::CongestionAvoidance(), unused window too
    EXPECT_EQ(v.ssthresh(s, 30 * mss), 24u * mss); // random loss: 4/5 of the flight
    // 200 ms now: target 20, backlog 20 segments >= beta: congestion, half the flight.
    v.pktsAcked(s, {.ackedSegments = 1, .rttNs = 200 * ms});
    v.increaseWindow(s, {.ackedSegments = 1, .rttNs = 200 * ms});
    EXPECT_EQ(v.ssthresh(s, 30 * mss), 15u * mss);
}
