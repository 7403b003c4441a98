// SPDX-License-Identifier: GPL-3.0-or-later
// ACKs that reached the sender in one A-MPDU, seen at the sender's own radio. The
// capture stamps every MPDU of a received PPDU with one time, its end; the sender's TCP
// took each ACK as its MPDU went by and sent the data it released at once, so that data
// (its TSval) is older than the stamp of the ACKs that released it. The fixture is the
// first radio of a 2-hop ns-3 lab string (tests/data/MANIFEST.md): ns-3's TcpLinuxReno
// behind the sender's own queue, A-MPDUs of up to 52 ACKs at 19.5 Mb/s (2 ms of air).
// With the ACKs at the stamp, the data they released counted in flight before them, a
// window above the sender's own: no ns-3 window explained the sends, and Linux's Reno,
// undoing its second timeout as spurious (cwnd back to 491,008 bytes), stood for it.

#include "cwnd_fixture.h"

#include <gtest/gtest.h>

#include <cstdint>

using namespace windscope;
using namespace windscope::analysis;

TEST(CwndAggregatedAcks, AcksOfOneAmpduReachTheSenderAsTheirMpdusGoBy)
{
    test::InferredFixture f;
    ASSERT_NO_FATAL_FAILURE(test::inferFixture("lab-c-reno-aggregated-acks-2hops-n0.pcap.gz", f));
    const cwnd::CwndInference& inf = f.inference;
    EXPECT_EQ(inf.model, "reno");
    ASSERT_FALSE(inf.fits.empty());
    EXPECT_EQ(inf.fits.front().model, "reno");
    EXPECT_EQ(inf.fits.front().stack, cwnd::ModelStack::Ns3);
    EXPECT_EQ(inf.undetermined, cwnd::ModelUndetermined::None);
    EXPECT_LT(inf.fits.front().violations, inf.fits.front().sends / 100);
    // The run's ssthresh.csv: 281,088 bytes at the first timeout (1.042 s), 118,528 at
    // the second (1.368 s); its cwnd.csv 122,624 bytes at 2.997 s (congestion avoidance
    // from that ssthresh, one SMSS a round trip).
    std::uint64_t firstLossSsthresh = 0, lastSsthresh = 0, lastCwnd = 0;
    for (const cwnd::CwndSample& s : inf.series) {
        if (firstLossSsthresh == 0 && s.phase == cwnd::SenderPhase::Loss)
            firstLossSsthresh = s.ssthreshBytes;
        lastSsthresh = s.ssthreshBytes;
        lastCwnd = s.cwndBytes;
    }
    EXPECT_EQ(firstLossSsthresh, 281'088u);
    EXPECT_EQ(lastSsthresh, 118'528u);
    EXPECT_NEAR(static_cast<double>(lastCwnd), 122'624, 1'024);
}
