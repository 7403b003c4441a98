// SPDX-License-Identifier: GPL-3.0-or-later
// Honest accounting: goodput counts only the bytes the capture shows, and rates are
// given only over at least a round trip.
#include "analysis/tcp/seen_bytes.h"
#include "analysis/tcp/tcp_analysis.h"

#include <gtest/gtest.h>

using namespace windscope::analysis;

TEST(SeenBytes, HolesAreNotCountedUntilFilled)
{
    SeenBytes s;
    s.add(1, 100);   // 1-100
    s.add(201, 100); // 201-300: a hole of 100 bytes the capture does not show
    EXPECT_EQ(s.total(), 200u);
    s.add(151, 20);  // part of the hole
    EXPECT_EQ(s.total(), 220u);
    s.add(101, 100); // the rest of it (a retransmission): 101-150 and 171-200
    EXPECT_EQ(s.total(), 300u);
    s.add(50, 100);  // all seen before
    EXPECT_EQ(s.total(), 300u);
    s.add(250, 100); // overlaps the end
    EXPECT_EQ(s.total(), 349u);
}

namespace {

Connection twoSegments(std::int64_t spanNs, double rttMinMs, std::int64_t handshakeRttNs)
{
    Connection c;
    c.handshakeRttNs = handshakeRttNs;
    DirectionStats& d = c.direction[1];
    d.dataPackets = 2;
    d.dataBytes = 796;
    d.firstDataTimeNs = 1'000'000;
    d.lastDataTimeNs = 1'000'000 + spanNs;
    d.rttSamples = rttMinMs > 0 ? 1 : 0;
    d.rttMinMs = rttMinMs;
    return c;
}

} // namespace

TEST(RatesMeasurable, OnlyOverAtLeastOneRoundTrip)
{
    // 796 bytes in two segments 4 us apart with a 20 ms path: a burst, not a rate.
    EXPECT_FALSE(ratesMeasurable(twoSegments(4'000, 20.0, -1), 1));
    EXPECT_TRUE(ratesMeasurable(twoSegments(25'000'000, 20.0, -1), 1));
    // No sample in this direction: the handshake's RTT.
    EXPECT_FALSE(ratesMeasurable(twoSegments(5'000'000, 0, 10'000'000), 1));
    EXPECT_TRUE(ratesMeasurable(twoSegments(12'000'000, 0, 10'000'000), 1));
    // No RTT at all: RFC 6298's initial RTO, 1 s.
    EXPECT_FALSE(ratesMeasurable(twoSegments(500'000'000, 0, -1), 1));
    EXPECT_TRUE(ratesMeasurable(twoSegments(1'500'000'000, 0, -1), 1));
    // One data segment has no interval.
    Connection one = twoSegments(25'000'000, 20.0, -1);
    one.direction[1].dataPackets = 1;
    EXPECT_FALSE(ratesMeasurable(one, 1));
}
