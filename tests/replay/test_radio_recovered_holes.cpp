// SPDX-License-Identifier: GPL-3.0-or-later
// Holes at the receiver's radio that the radio filled itself. A capture next to the
// receiver reads the sender's losses as holes in the sequence; on an 802.11 hop with
// Block Ack a subframe the receiver missed comes again in a later A-MPDU (its MAC
// retry), after the data behind it: a hole in the capture's order that no resend of the
// sender's filled, since none can arrive sooner than a round trip after the hole showed.
// Counted as losses, they made up loss episodes the random-loss fit then reproduced.
#include "analysis/replay/derive/derive_scenario.h"
#include "analysis/replay/derive/downstream_view.h"
#include "analysis/replay/session/replay_session.h"
#include "lab_connection.h"
#include "test_support.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <numeric>
#include <string>

using namespace windscope;
using namespace windscope::analysis::replay;

// A 1.98 MB window over a 57 Mb/s, 200 ms path: the slow start overflows the router's
// 206-packet FIFO, which drops 327 segments (the lab's queue_drops.csv: 96 runs from
// segment 1,044 to 2,303, their indices summing to 538,263), and the station's radio,
// with 1.3 % of its frames in error, misses A-MPDU subframes that its AP sends again.
TEST(RadioRecoveredHoles, HolesTheRadioFilledAreNotTheSendersLosses)
{
    constexpr std::size_t kLabQueueDrops = 327;
    constexpr std::int64_t kLabFirstDrop = 1044, kLabLastDrop = 2303, kLabDropIndexSum = 538263;
    test::LabConnection lab;
    std::string error;
    ASSERT_TRUE(test::openLab(test::testData("lab-d-overshoot-mac-retries-sta.pcap.gz"), lab, error)) << error;
    const DerivedScenario d = deriveScenario(lab.input());
    ASSERT_TRUE(d.downstream);
    const DownstreamView view = readDownstreamView(lab.input(), d.firstDataNs);
    ASSERT_TRUE(view.downstream) << view.basis;

    std::vector<std::int64_t> lost, byRadio;
    for (const MissingSegment& m : view.missing)
        (m.recoveredBelowTcp ? byRadio : lost).push_back(m.segment);
    std::sort(lost.begin(), lost.end());
    std::printf("holes %zu: %zu the sender's, %zu filled by the radio\n", view.missing.size(), lost.size(),
                byRadio.size());
    // Exactly the segments the router dropped (count, ends and the sum of their indices).
    ASSERT_EQ(lost.size(), kLabQueueDrops);
    EXPECT_EQ(lost.front(), kLabFirstDrop);
    EXPECT_EQ(lost.back(), kLabLastDrop);
    EXPECT_EQ(std::accumulate(lost.begin(), lost.end(), std::int64_t{0}), kLabDropIndexSum);
    EXPECT_GE(byRadio.size(), 10u) << "the radio's retries were read as the sender's losses";

    // One overflow, on the queue: the segment ahead of each drop waited behind all it held,
    // though the one after a drop at a flight's tail came a round trip later, the queue gone.
    const HoleEpisodes episodes = holeEpisodes(view);
    EXPECT_GE(episodes.episodes, 1u);
    EXPECT_LE(episodes.episodes, 3u);
    EXPECT_EQ(episodes.offQueue, 0u);
    EXPECT_EQ(d.holeEpisodes, episodes.episodes);

    // The baseline needs no random loss to make up episodes the radio's retries invented.
    const ReplayReport report = replayCapture(lab.input(), ReplayOptions{});
    ASSERT_TRUE(report.capture) << (report.notes.empty() ? "" : report.notes.back());
    EXPECT_EQ(report.scenario.path.lossFwd, 0.0);
}
