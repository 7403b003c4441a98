// SPDX-License-Identifier: GPL-3.0-or-later
// The cwnd replay's scoreboard: SACKed, lost and re-sent bytes and the pipe from them
// (RFC 6675), worked by hand over ten segments.
#include "analysis/cwnd/scoreboard.h"

#include <gtest/gtest.h>

using namespace windscope::analysis::cwnd;

namespace {
constexpr std::int64_t mss = 1448;
constexpr std::int64_t sndNxt = 10 * mss;

// Segments 3, 5 and 7 of 0..9 SACKed.
Scoreboard threeSacked()
{
    Scoreboard board;
    board.reset(0);
    for (std::int64_t segment : {7, 5, 3}) {
        bool dsack = false;
        EXPECT_EQ(board.sack(segment * mss, (segment + 1) * mss, sndNxt, dsack), std::uint64_t(mss));
        EXPECT_FALSE(dsack);
    }
    return board;
}
} // namespace

TEST(CwndScoreboard, PipeCountsHolesBelowTheHighestSackAsLost)
{
    const Scoreboard board = threeSacked();
    EXPECT_EQ(board.sackedBytes(), std::uint64_t(3 * mss));
    // Out: 10; SACKed: 3; lost: the 5 holes below segment 8.
    EXPECT_EQ(board.pipe(sndNxt), std::uint64_t(2 * mss));
    // Below the SACKed blocks' top the same rule holds for a smaller SND.NXT.
    EXPECT_EQ(board.pipe(6 * mss), std::uint64_t(0));
}

TEST(CwndScoreboard, Rfc6675PipeLeavesHolesWithTwoSackedSegmentsAboveInFlight)
{
    Scoreboard board = threeSacked();
    // Holes 0-2 have three SACKed segments above them, hole 4 two, hole 6 one: only
    // 0-2 are lost (IsLost(): more than (DupThresh - 1) * SMSS SACKed above).
    EXPECT_EQ(board.pipeRfc6675(sndNxt, mss), std::uint64_t(4 * mss));
    // A re-sent lost segment is back in flight under either rule.
    board.retransmitted(0, mss);
    EXPECT_EQ(board.pipeRfc6675(sndNxt, mss), std::uint64_t(5 * mss));
    EXPECT_EQ(board.pipe(sndNxt), std::uint64_t(3 * mss));
}

TEST(CwndScoreboard, Rfc6675PipeWithTheHeadMarkedLost)
{
    // ns-3's EnterRecovery() marks the head lost whatever lies above it. Segments 1 and
    // 2 of 0..9 SACKed: no hole has more than two SACKed segments above it, so the
    // plain rule keeps all 8 un-SACKed in flight, the head-lost one 7.
    Scoreboard board;
    board.reset(0);
    bool dsack = false;
    board.sack(mss, 3 * mss, sndNxt, dsack);
    EXPECT_EQ(board.pipeRfc6675(sndNxt, mss), std::uint64_t(8 * mss));
    EXPECT_EQ(board.pipeRfc6675(sndNxt, mss, true), std::uint64_t(7 * mss));
    // Where the head is lost by the rule already, marking it changes nothing.
    const Scoreboard three = threeSacked();
    EXPECT_EQ(three.pipeRfc6675(sndNxt, mss, true), three.pipeRfc6675(sndNxt, mss));
}

TEST(CwndScoreboard, Ns3KeepsASackedResendInFlightUntilItIsAcked)
{
    // Segments 3, 5, 7 SACKed, 0-2 lost and 0 re-sent, then the re-send SACKed: Linux
    // takes it out of flight, ns-3's TcpTxBuffer keeps its retransmission mark (in
    // flight) until the cumulative ACK or a timeout.
    Scoreboard board = threeSacked();
    board.retransmitted(0, mss);
    EXPECT_EQ(board.pipeNs3(sndNxt, mss), std::uint64_t(5 * mss));
    bool dsack = false;
    board.sack(0, mss, sndNxt, dsack);
    EXPECT_EQ(board.pipeRfc6675(sndNxt, mss), std::uint64_t(4 * mss));
    EXPECT_EQ(board.pipeNs3(sndNxt, mss), std::uint64_t(5 * mss));
    // Acknowledged, it leaves both counts.
    board.advance(mss);
    EXPECT_EQ(board.pipeNs3(sndNxt, mss), board.pipeRfc6675(sndNxt, mss));
    // A timeout clears every retransmission mark (TcpTxBuffer::SetSentListLost()).
    board.retransmitted(mss, 2 * mss);
    board.sack(mss, 2 * mss, sndNxt, dsack);
    board.markAllLost(sndNxt);
    EXPECT_EQ(board.pipeNs3(sndNxt, mss), board.pipeRfc6675(sndNxt, mss));
}

TEST(CwndScoreboard, CumulativeAckReturnsWhatWasNotSackedAndDropsResends)
{
    Scoreboard board = threeSacked();
    board.retransmitted(0, mss);
    EXPECT_EQ(board.advance(4 * mss), std::uint64_t(3 * mss)); // segment 3 was SACKed
    EXPECT_EQ(board.sackedBytes(), std::uint64_t(2 * mss));
    // Out: 4-9; SACKed 5 and 7; lost 4 and 6; the re-send is acknowledged.
    EXPECT_EQ(board.pipe(sndNxt), std::uint64_t(2 * mss));
    bool dsack = false;
    EXPECT_EQ(board.sack(5 * mss, 6 * mss, sndNxt, dsack), 0u);
    EXPECT_TRUE(dsack);
    dsack = false;
    EXPECT_EQ(board.sack(2 * mss, 3 * mss, sndNxt, dsack), 0u);
    EXPECT_TRUE(dsack); // below SND.UNA
}

TEST(CwndScoreboard, SackedResendLeavesTheFlight)
{
    Scoreboard board = threeSacked();
    board.retransmitted(4 * mss, 5 * mss);
    EXPECT_EQ(board.pipe(sndNxt), std::uint64_t(3 * mss));
    bool dsack = false;
    // Segment 4 SACKed joins 3 and 5 into one block; its re-send is no longer out.
    EXPECT_EQ(board.sack(4 * mss, 5 * mss, sndNxt, dsack), std::uint64_t(mss));
    EXPECT_FALSE(dsack);
    EXPECT_FALSE(board.wasRetransmitted(4 * mss, 5 * mss));
    EXPECT_EQ(board.pipe(sndNxt), std::uint64_t(2 * mss));
}
