// SPDX-License-Identifier: GPL-3.0-or-later
// Send times rebuilt at the sender's own link. The fixture is the server of an ns-3 lab
// run that paces its segments one per 3 ms (tests/data/MANIFEST.md): consecutive
// segments lie one or more ticks apart on the sender's TSval clock. Undoing the link's
// serialization moves a segment that follows its predecessor at line rate back to the
// predecessor's send time (one burst released at one ACK); with the send times taken
// from the TSvals the smallest gap between them is a tick, and every segment of the
// paced run followed its predecessor "at line rate": the whole run went back to its
// first send, and 334 of the best model's sends lay beyond its window.

#include "cwnd_fixture.h"

#include <gtest/gtest.h>

using namespace windscope;
using namespace windscope::analysis;

TEST(CwndPacedSender, ALaterTickOfTheSendersClockIsNotTheSameBurst)
{
    test::InferredFixture f;
    ASSERT_NO_FATAL_FAILURE(test::inferFixture("lab-e-paced-3ms-server.pcap.gz", f));
    const cwnd::CwndInference& inf = f.inference;
    EXPECT_TRUE(inf.vantage.queueingFromTimestamps);
    ASSERT_FALSE(inf.fits.empty());
    // No loss and a receive window that limits the sender: the models tie, the best
    // exceeded by no flight the sender had (ns-3's NewReno, its slow start a segment
    // per ACK, by 13 of 889 early on).
    EXPECT_EQ(inf.undetermined, cwnd::ModelUndetermined::FitsTie);
    EXPECT_EQ(inf.fits.front().violations, 0u);
    for (const cwnd::ModelFit& fit : inf.fits)
        EXPECT_LE(fit.violations, fit.sends / 50) << fit.model;
}
