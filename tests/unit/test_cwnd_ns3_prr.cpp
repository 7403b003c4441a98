// SPDX-License-Identifier: GPL-3.0-or-later
// ns-3's proportional rate reduction in a recovery that lost more than half a window.
// Below ssthresh, ns-3.37's TcpPrrRecovery::DoRecovery() (its default SSRB bound) lets
// an ACK send no more than it delivered, unless it is a partial ACK over a re-sent
// segment not SACKed (m_isRetransDataAcked): the window climbs back towards ssthresh
// slowly. Linux's bound catches up with everything delivered and not yet sent. The
// fixture is the server of an ns-3 lab run (tests/data/MANIFEST.md): ns-3's
// TcpLinuxReno, whose ssthresh at a timeout is half its cwnd then. The sender's trace:
// a fast recovery at 1.636 s (ssthresh 347,520 bytes), cwnd 222,992 when the timer ran
// out in it at 1.879 s, so ssthresh 111,496. With Linux's bound the window stood at
// ssthresh when the timer ran out, and the timeout's ssthresh read 173,760.

#include "cwnd_fixture.h"

#include <gtest/gtest.h>

#include <cstdint>

using namespace windscope;
using namespace windscope::analysis;

TEST(CwndNs3Prr, RecoveryWindowClimbsByWhatEachAckDelivered)
{
    test::InferredFixture f;
    ASSERT_NO_FATAL_FAILURE(test::inferFixture("lab-a-prr-timeout-in-recovery-server.pcap.gz", f));
    const cwnd::CwndInference& inf = f.inference;
    EXPECT_EQ(inf.model, "reno");
    ASSERT_FALSE(inf.fits.empty());
    EXPECT_EQ(inf.fits.front().stack, cwnd::ModelStack::Ns3);
    EXPECT_EQ(inf.fits.front().violations, 0u);
    std::uint64_t recoverySsthresh = 0, lossSsthresh = 0, lastRecoveryCwnd = 0, firstOpenCwnd = 0;
    for (const cwnd::CwndSample& s : inf.series) {
        if (s.phase == cwnd::SenderPhase::FastRecovery) {
            recoverySsthresh = s.ssthreshBytes;
            lastRecoveryCwnd = s.cwndBytes;
        } else if (s.phase == cwnd::SenderPhase::Loss && lossSsthresh == 0) {
            lossSsthresh = s.ssthreshBytes;
        } else if (lossSsthresh != 0 && s.phase == cwnd::SenderPhase::CongestionAvoidance && firstOpenCwnd == 0) {
            firstOpenCwnd = s.cwndBytes;
        }
    }
    EXPECT_EQ(recoverySsthresh, 347'520u);
    // The trace's cwnd fell from 225,888 to 222,992 bytes in the recovery's last 3 ms.
    EXPECT_NEAR(static_cast<double>(lastRecoveryCwnd), 222'992, 2 * 1448);
    EXPECT_EQ(lossSsthresh, 111'496u);
    // Slow start from one segment to ssthresh, then one more: 118,736 bytes at 2.345 s.
    EXPECT_EQ(firstOpenCwnd, 118'736u);
}
