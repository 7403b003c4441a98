// SPDX-License-Identifier: GPL-3.0-or-later
// A receiver's radio on an A-MPDU link: a subframe the capture missed comes again in
// the next aggregate, behind segments above it, with its own TSval. It is the
// original, late, not a re-send (the sender re-sends a round trip later at the
// earliest, with a newer TSval). The fixture is the station of an ns-3 lab run
// (tests/data/MANIFEST.md): NewReno over a 38 Mb/s, 44 ms path to 802.11n with 1 %
// frame errors, one fast recovery in the sender's own trace.

#include "cwnd_fixture.h"

#include <gtest/gtest.h>

using namespace windscope;
using namespace windscope::analysis;

TEST(CwndDelayedOriginals, LateSubframesAreNotResends)
{
    test::InferredFixture f;
    ASSERT_NO_FATAL_FAILURE(test::inferFixture("lab-d-ampdu-sta.pcap.gz", f));
    const cwnd::CwndInference& inf = f.inference;
    EXPECT_EQ(inf.vantage.point, cwnd::VantagePoint::Path);
    // The run's trace: one fast recovery, CA_RECOVERY at 0.579 s with ssthresh 76,020
    // bytes, back to CA_OPEN at 0.665 s. Taken for a re-send, a late subframe had
    // started the recovery 24 ms early from a smaller flight (ssthresh 66,608), and
    // NewReno's replay then exceeded its window on 1,287 sends (Linux Reno was named).
    EXPECT_EQ(inf.model, "newreno");
    ASSERT_FALSE(inf.fits.empty());
    EXPECT_EQ(inf.fits.front().model, "newreno");
    EXPECT_EQ(inf.fits.front().lossEpisodes, 1u);
    // One send in the recovery lies 91 bytes beyond the blur of ns-3's PRR window (its
    // catch-up bounded by what each ACK delivered, read away from the sender).
    EXPECT_LE(inf.fits.front().violations, 1u);
    std::uint64_t ssthresh = 0;
    for (const cwnd::CwndSample& s : inf.series)
        if (s.phase == cwnd::SenderPhase::FastRecovery) {
            ssthresh = s.ssthreshBytes;
            break;
        }
    EXPECT_EQ(ssthresh, 76'020u);
}
