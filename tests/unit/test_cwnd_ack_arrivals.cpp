// SPDX-License-Identifier: GPL-3.0-or-later
// When the receiver's ACKs reached the sender, seen at the receiver's end of an 802.11
// relay chain. The ACKs share each hop's channel with the data coming the other way and
// wait behind it: at the four-hop fixture's far end the first data segment that echoes
// an ACK's TSval left the sender 3 to 18 ms after the ACK passed the capture (5th and
// 95th percentiles, median 10 ms), at the two-hop one a median 12 ms, against one-way
// shifts of 1.6 and 2.6 ms read from the least round trips. Placed at the shift, every ACK reached the sender early, the sender's
// flight looked a few segments deep where it filled the chain's queues, and the models
// that take ssthresh from the flight (ns-3's NewReno, Veno and Westwood+'s estimate of
// the rate) cut far below the sender's window at every loss; Linux's models, which halve
// their own window, were named instead. The fixtures are ns-3 lab runs
// (tests/data/MANIFEST.md).

#include "cwnd_fixture.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

using namespace windscope;
using namespace windscope::analysis;

namespace {

double costOf(const cwnd::CwndInference& inf, std::string_view model)
{
    for (const cwnd::ModelFit& f : inf.fits)
        if (f.model == model)
            return f.cost();
    return -1;
}

} // namespace

// Westwood+ over four hops (HT MCS 1, A-MPDUs of up to 4), a 47 kB window, at the
// receiver, the first 6 s. At the shift the capture named Linux Reno.
TEST(CwndAckArrivals, WestwoodPlusAtTheEndOfFourHops)
{
    test::InferredFixture f;
    ASSERT_NO_FATAL_FAILURE(test::inferFixture("lab-c-westwood-4hops-n4.pcap.gz", f));
    const cwnd::CwndInference& inf = f.inference;
    EXPECT_EQ(cwnd::modelLabel(inf), "westwood-plus");
    const double westwood = costOf(inf, "westwood-plus"), reno = costOf(inf, "reno");
    ASSERT_GE(westwood, 0);
    ASSERT_GE(reno, 0);
    EXPECT_LT(westwood, reno);
}

// ns-3's TcpLinuxReno over two hops (HT MCS 2, A-MPDUs of up to 8), a 237 kB window, at
// the receiver, the first 3 s. At the shift the fits of Reno, CUBIC and NewReno tied.
TEST(CwndAckArrivals, LinuxRenoAtTheEndOfTwoHops)
{
    test::InferredFixture f;
    ASSERT_NO_FATAL_FAILURE(test::inferFixture("lab-c-reno-2hops-n2.pcap.gz", f));
    const cwnd::CwndInference& inf = f.inference;
    EXPECT_EQ(cwnd::modelLabel(inf), "reno");
    EXPECT_TRUE(cwnd::tiedModels(inf).empty());
}
