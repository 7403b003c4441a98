// SPDX-License-Identifier: GPL-3.0-or-later
// The path's capacity from packet-train dispersion (path_dispersion.h) on hand-made
// trains whose rate is known: a window-limited sender's flights with delayed ACKs,
// flights whose ACKs came back compressed, arrivals bunched by 802.11 aggregation, a
// sender that paced its own data, and downstream trains told apart by their echo.
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
            const double acked = compressed ? ackBase + window * pkt + k * 25'000.0 : ackBase + (k + 1) * pkt;
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
    // 12 segments per 120 ms round trip deliver 1.2 Mb/s on a 20 Mb/s path. The initial
    // window left back to back: its ACKs, one per two segments, read the path. The ACK
    // clock's later flights left as their ACKs came back, at the spacing the ACKs had,
    // which on a real path is also the ACK path's (an 802.11 uplink): not read.
    const auto points = windowLimitedAcks(20, 120, 12, 40);
    const DispersionCapacity c = dispersionCapacity(points, kMss, true);
    EXPECT_NEAR(c.mbps, 20.0, 0.5);
    EXPECT_EQ(c.trains, 1u);
    EXPECT_EQ(c.backToBack, 1u);
    EXPECT_NEAR(c.agreeing, 10.0, 1e-9); // the first ACK's two segments start the train
    // Delivered per round trip, what a window-limited capture's ACKs show overall.
    const double delivered = static_cast<double>(points.back().bytes) * 8 /
                             static_cast<double>(points.back().atNs - points.front().atNs) * 1e3;
    EXPECT_LT(delivered, 2.0);
}

TEST(PathDispersion, CompressedAcksDoNotMakeTheRate)
{
    // Flights sent back to back (12 us a segment); every third one's ACKs arrive 50 us
    // apart, one per two segments: those trains read 460 Mb/s.
    const auto points = windowLimitedAcks(8, 60, 16, 60, true, 3);
    const DispersionCapacity c = dispersionCapacity(points, kMss, true);
    EXPECT_NEAR(c.mbps, 8.0, 0.3);
    // Each flight is one train; the compressed ones qualified (their data left back to
    // back) but only the 40 others agree, 14 segments each.
    EXPECT_EQ(c.trains, 60u);
    EXPECT_EQ(c.backToBack, c.trains);
    EXPECT_NEAR(c.agreeing, 40.0 * 14, 1e-9);
}

TEST(PathDispersion, AggregatedArrivalsDownstreamDoNotMakeTheRate)
{
    // Downstream of a 30 Mb/s bottleneck: flights of 20 segments, each released at once
    // by one ACK (a window opening), arriving at its spacing, except every fourth flight,
    // held at an 802.11 hop and delivered in a burst (frames 40 us apart).
    const double pkt = packetNs(30);
    std::vector<DispersionPoint> points;
    std::int64_t bytes = 0;
    double t = 0;
    for (int f = 0; f < 40; ++f) {
        const bool aggregated = f % 4 == 3;
        for (int k = 0; k < 20; ++k) {
            bytes += kMss;
            points.push_back({static_cast<std::int64_t>(t + (aggregated ? k * 40'000.0 : k * pkt)), bytes, -1, f});
        }
        t += 50e6;
    }
    const DispersionCapacity c = dispersionCapacity(points, kMss, false);
    EXPECT_NEAR(c.mbps, 30.0, 1.0);
    EXPECT_EQ(c.backToBack, 0u); // downstream the sender's times are not known
}

TEST(PathDispersion, AHoleOrResendCutsTheTrain)
{
    // Arrivals one ACK released, at 10 Mb/s, where every fourth delivers nothing new (a
    // resend, or a segment past a hole): the trains are the runs between them.
    const double pkt = packetNs(10);
    std::vector<DispersionPoint> points;
    std::int64_t bytes = 0;
    for (int k = 0; k < 200; ++k) {
        if (k % 4 != 0)
            bytes += kMss;
        points.push_back({static_cast<std::int64_t>(k * pkt), bytes, -1, 0});
    }
    const DispersionCapacity c = dispersionCapacity(points, kMss, false);
    EXPECT_EQ(c.trains, 50u);
    EXPECT_NEAR(c.mbps, 10.0, 0.1);
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

TEST(PathDispersion, DownstreamTheEchoTellsWhichAckReleasedATrain)
{
    // A cwnd-limited sender behind a receiver window far ahead of its flight: the first
    // ACK's right edge already covers every segment, so the edges tell no release apart.
    // Each ACK of the clock (the receiver's TSval, one tick a delayed-ACK pair) releases
    // two segments that cross a 4.8 Mb/s radio back to back; the flight of 16 segments
    // takes 19 ms and the next comes a 60 ms round trip later.
    const double pkt = packetNs(4.8);
    std::vector<DispersionPoint> points;
    std::int64_t bytes = 0;
    std::int64_t echo = 1000;
    for (int f = 0; f < 30; ++f) {
        const double flightStart = f * 60e6;
        for (int pair = 0; pair < 8; ++pair) {
            ++echo;
            for (int k = 0; k < 2; ++k) {
                bytes += kMss;
                // The pairs leave the sender as their ACKs come back, 0.5 ms apart, so they
                // queue at the radio: arrivals keep its spacing across pairs too.
                const double at = flightStart + (2 * pair + k) * pkt;
                points.push_back({static_cast<std::int64_t>(at), bytes, -1, 0, echo});
            }
        }
    }
    const DispersionCapacity c = dispersionCapacity(points, kMss, false, 1.0);
    EXPECT_NEAR(c.mbps, 4.8, 0.05);
    EXPECT_EQ(c.trains, 240u);
    // Without the echo the whole run is one train, read at the flights' mean rate (the
    // round trips' gaps inside it), which is all the edges can say.
    for (DispersionPoint& p : points)
        p.echo = -1;
    const DispersionCapacity byEdges = dispersionCapacity(points, kMss, false, 1.0);
    EXPECT_EQ(byEdges.trains, 1u);
    EXPECT_NEAR(byEdges.mbps, 3.13, 0.05);
}
