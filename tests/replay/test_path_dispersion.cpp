// SPDX-License-Identifier: GPL-3.0-or-later
// The path's capacity from packet-train dispersion (path_dispersion.h) on hand-made
// trains whose rate is known: a window-limited sender's flights with delayed ACKs,
// flights whose ACKs came back compressed, arrivals bunched by 802.11 aggregation, and
// a sender that paced its own data.
#include "analysis/replay/derive/path_dispersion.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

using namespace windscope::analysis::replay;

namespace {

constexpr std::uint32_t kMss = 1448;

double packetNs(double mbps)
{
    return kMss * 8 / mbps * 1e3;
}

// A sender held by a window of `window` segments on a path of `mbps` (payload) and
// `rttMs`: the first flight leaves back to back, the bottleneck spaces it, and every
// later segment leaves as the ACK that releases it arrives (self-clocked), so each
// flight keeps the bottleneck's spacing. The receiver ACKs every second segment (RFC
// 1122 4.2.3.2). burst: every flight leaves back to back (a sender whose application
// writes a window's worth each round trip). compressEvery: every so many flights, the
// flight's ACKs arrive together (queued behind each other on the way back, released at
// once).
std::vector<DispersionPoint> windowLimitedAcks(double mbps, double rttMs, int window, int flights,
                                               bool burst = false, int compressEvery = 0)
{
    std::vector<DispersionPoint> out;
    const double pkt = packetNs(mbps);
    std::int64_t bytes = 0;
    double sendBase = 0;
    for (int f = 0; f < flights; ++f) {
        const bool compressed = compressEvery > 0 && f % compressEvery == compressEvery - 1;
        const double ackBase = sendBase + rttMs * 1e6;
        for (int k = 1; k < window; k += 2) {
            // Segment k (0-based) of the flight, the second of its delayed-ACK pair.
            const double sent = f == 0 || burst ? sendBase + k * 12'000.0 : sendBase + (k - 1) * pkt;
            const double acked = compressed ? ackBase + window * pkt + k * 5'000.0 : ackBase + (k + 1) * pkt;
            bytes += 2 * static_cast<std::int64_t>(kMss);
            out.push_back({static_cast<std::int64_t>(acked), bytes, static_cast<std::int64_t>(sent), f > 0 && !burst});
        }
        sendBase += rttMs * 1e6 + pkt; // the next flight leaves as this one's ACKs return
    }
    return out;
}

} // namespace

TEST(PathDispersion, WindowLimitedFlightsWithDelayedAcksReadTheBottleneck)
{
    // 12 segments per 120 ms round trip deliver 1.2 Mb/s on a 20 Mb/s path.
    const auto points = windowLimitedAcks(20, 120, 12, 40);
    const DispersionCapacity c = dispersionCapacity(points, kMss, true);
    EXPECT_NEAR(c.mbps, 20.0, 0.5);
    EXPECT_GE(c.agreeing, 40u);
    EXPECT_GE(c.backToBack, 1u); // the first flight left back to back
    // Delivered per round trip, what a window-limited capture's ACKs show overall.
    const double delivered = static_cast<double>(points.back().bytes) * 8 /
                             static_cast<double>(points.back().atNs - points.front().atNs) * 1e3;
    EXPECT_LT(delivered, 2.0);
}

TEST(PathDispersion, CompressedAcksDoNotMakeTheRate)
{
    // Flights sent back to back; every third one's ACKs arrive 5 us apart: those trains
    // read over 1 Gb/s.
    const auto points = windowLimitedAcks(8, 60, 16, 60, true, 3);
    const DispersionCapacity c = dispersionCapacity(points, kMss, true);
    EXPECT_NEAR(c.mbps, 8.0, 0.3);
    // The compressed trains qualified (their data left back to back) but do not agree.
    EXPECT_EQ(c.backToBack, c.trains);
    EXPECT_LE(c.agreeing, c.trains * 3 / 4);
}

TEST(PathDispersion, AggregatedArrivalsDownstreamDoNotMakeTheRate)
{
    // Downstream of a 30 Mb/s bottleneck: flights of 20 segments arriving at its
    // spacing, except every fourth flight, held at an 802.11 hop and delivered as one
    // A-MPDU (its MPDUs 40 us apart).
    const double pkt = packetNs(30);
    std::vector<DispersionPoint> points;
    std::int64_t bytes = 0;
    double t = 0;
    for (int f = 0; f < 40; ++f) {
        const bool aggregated = f % 4 == 3;
        for (int k = 0; k < 20; ++k) {
            bytes += kMss;
            points.push_back({static_cast<std::int64_t>(t + (aggregated ? k * 40'000.0 : k * pkt)), bytes});
        }
        t += 50e6;
    }
    const DispersionCapacity c = dispersionCapacity(points, kMss, false);
    EXPECT_NEAR(c.mbps, 30.0, 1.0);
    EXPECT_EQ(c.backToBack, 0u); // downstream the sender's times are not known
}

TEST(PathDispersion, AHoleOrResendCutsTheTrain)
{
    // Arrivals at 10 Mb/s where every fifth point delivers nothing new (past a hole):
    // no train of 4 segments is whole, so nothing is read.
    const double pkt = packetNs(10);
    std::vector<DispersionPoint> points;
    std::int64_t bytes = 0;
    for (int k = 0; k < 200; ++k) {
        if (k % 4 != 0)
            bytes += kMss;
        points.push_back({static_cast<std::int64_t>(k * pkt), bytes});
    }
    EXPECT_EQ(dispersionCapacity(points, kMss, false).trains, 0u);
}

TEST(PathDispersion, ASenderPacingItsOwnDataIsNotReadAsThePath)
{
    // A sender pacing one segment every 2 ms on a 50 Mb/s path: its ACKs come back 2 ms
    // apart, the spacing the sender made (not on an ACK's arrival, not back to back).
    std::vector<DispersionPoint> points;
    std::int64_t bytes = 0;
    for (int k = 0; k < 300; ++k) {
        bytes += kMss;
        const std::int64_t sent = k * 2'000'000;
        points.push_back({sent + 40'000'000 + static_cast<std::int64_t>(packetNs(50)), bytes, sent, false});
    }
    const DispersionCapacity c = dispersionCapacity(points, kMss, true);
    EXPECT_EQ(c.trains, 0u);
    EXPECT_EQ(c.mbps, 0.0);
}
