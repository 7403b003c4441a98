// SPDX-License-Identifier: GPL-3.0-or-later
// Re-sends only the retransmission timer can have sent, seen away from the sender. The
// fixture is the radio of the AP a station left without notice (an ns-3 lab run,
// tests/data/MANIFEST.md): CUBIC over a 2.3 Mb/s path, the station gone at 7.531 s for
// 0.55 s. The sender's trace has two timeouts, at 7.734 s (cwnd 1 MSS) and 8.134 s
// (ssthresh 2 MSS, ns-3 setting it at every timeout from the one segment in flight).
// The AP's radio was still retrying the data it held for the departed station, so the
// first re-send reached the capture 13 ms behind the data it repeats (Wireshark calls
// it out of order) and 179 ms before the second: no silence the timer could be read
// from. No duplicate ACK or SACK came before either (the station was away), and
// nothing but the timer re-sends the head then.

#include "cwnd_fixture.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string_view>
#include <vector>

using namespace windscope;
using namespace windscope::analysis;

TEST(CwndTimerResends, HeadResentWithoutDuplicateAcksIsTheTimers)
{
    test::InferredFixture f;
    ASSERT_NO_FATAL_FAILURE(test::inferFixture("lab-b-handoff-2mbps-ap1.pcap.gz", f));
    const cwnd::CwndInference& inf = f.inference;
    // Taken for a fast retransmit, the first re-send kept a flight's ssthresh, and the
    // models' windows after it (slow start to it) parted from the sender's 2 MSS: none
    // was named (NewReno, Reno and CUBIC tied, "no window explains").
    EXPECT_EQ(inf.model, "cubic");
    constexpr std::uint64_t kMss = 1448;
    std::uint64_t firstLossCwnd = 0, largestLossCwnd = 0;
    std::int64_t firstLossNs = -1;
    for (const cwnd::CwndSample& s : inf.series) {
        if (s.phase != cwnd::SenderPhase::Loss)
            continue;
        const std::int64_t t = f.tables.tcp.timeNs[s.row];
        if (firstLossNs < 0) {
            firstLossNs = t;
            firstLossCwnd = s.cwndBytes;
        }
        // Up to 8.47 s the trace's cwnd stays at 2 MSS (congestion avoidance from the
        // second timeout's ssthresh); the slow start that followed a fast retransmit
        // had it at 10 MSS by then.
        if (t < 8'470'000'000)
            largestLossCwnd = std::max(largestLossCwnd, s.cwndBytes);
    }
    EXPECT_NEAR(static_cast<double>(firstLossNs) / 1e9, 7.9687, 0.001);
    EXPECT_EQ(firstLossCwnd, kMss);
    EXPECT_EQ(largestLossCwnd, 2 * kMss);
}

// ns-3 enters recovery on the third duplicate ACK and takes ssthresh from its
// BytesInFlight() then (TcpSocketBase::DupAck(), EnterRecovery()); the capture sees
// the re-send a few ACKs later, whose SACKs have by then made more holes lost. The
// fixture is the server side of an ns-3 lab run (tests/data/MANIFEST.md): Veno behind
// periodic scans, four fast recoveries before 7.2 s. Read at the re-send, the fourth
// ssthresh came out 27,801 bytes.
TEST(CwndTimerResends, Ns3RecoveryTakesTheFlightAtTheThirdDuplicateAck)
{
    test::InferredFixture f;
    ASSERT_NO_FATAL_FAILURE(test::inferFixture("lab-a-veno-recoveries-server.pcap.gz", f));
    const cwnd::CwndInference& inf = f.inference;
    EXPECT_EQ(inf.model, "veno");
    std::vector<std::uint64_t> ssthresh;
    for (const cwnd::CwndSample& s : inf.series)
        if (s.phase == cwnd::SenderPhase::FastRecovery &&
            (ssthresh.empty() || ssthresh.back() != s.ssthreshBytes))
            ssthresh.push_back(s.ssthreshBytes);
    // The run's trace (ssthresh.csv): 146,972, 78,916, 38,372, 28,960 bytes.
    EXPECT_EQ(ssthresh, (std::vector<std::uint64_t>{146'972, 78'916, 38'372, 28'960}));
}

// At the sender's own radio, ACKs that came in one A-MPDU reach its TCP microseconds
// apart, and each releases data that the radio sends only after the last of them. ns-3
// enters recovery on the third duplicate ACK of such a bunch with the data the earlier
// ACKs released already in flight, and re-sends the head behind it. The fixture is the
// first radio of a 5-hop ns-3 lab string (tests/data/MANIFEST.md): Veno, 512-byte
// segments, A-MPDUs of 16 both ways. Read with the data sent up to the third duplicate
// ACK in the capture's order, the first ssthresh came out 36,882 bytes and the one at
// 2.704 s 2,048, and the Linux stack's Reno was named for an ns-3 sender.
TEST(CwndTimerResends, Ns3FlightAtRecoveryHoldsWhatABunchOfAcksReleased)
{
    test::InferredFixture f;
    ASSERT_NO_FATAL_FAILURE(test::inferFixture("lab-c-veno-bunched-acks-5hops-n0.pcap.gz", f));
    const cwnd::CwndInference& inf = f.inference;
    // Without random loss NewReno halves as Veno does behind a queue: the two tie.
    const std::vector<std::string_view> tied = cwnd::tiedModels(inf);
    EXPECT_NE(std::find(tied.begin(), tied.end(), "veno"), tied.end());
    EXPECT_EQ(std::find(tied.begin(), tied.end(), "reno"), tied.end());
    std::vector<std::uint64_t> ssthresh; // each recovery's, where it changed
    for (const cwnd::CwndSample& s : inf.series)
        if (s.phase == cwnd::SenderPhase::FastRecovery && (ssthresh.empty() || ssthresh.back() != s.ssthreshBytes))
            ssthresh.push_back(s.ssthreshBytes);
    // The run's ssthresh.csv has ten recoveries: 58,386, 29,184, 14,080, 8,448, 7,372,
    // 4,608, 4,864, 5,120, 4,608 and 3,840 bytes. The series changes eight times: the
    // fifth is Veno's cut by a fifth, where NewReno (the tie's stand-in) halves to 4,608
    // as the sixth then does, and the eighth comes out a segment's half short, 4,864,
    // the seventh's again; the second to the fourth are as short.
    ASSERT_EQ(ssthresh.size(), 8u);
    EXPECT_EQ(ssthresh[0], 58'386u);
    EXPECT_NEAR(static_cast<double>(ssthresh[1]), 29'184, 256);
    EXPECT_NEAR(static_cast<double>(ssthresh[2]), 14'080, 256);
    EXPECT_NEAR(static_cast<double>(ssthresh[3]), 8'448, 256);
    EXPECT_EQ(ssthresh[4], 4'608u);
    EXPECT_EQ(ssthresh[5], 4'864u);
    EXPECT_EQ(ssthresh[6], 4'608u);
    EXPECT_EQ(ssthresh[7], 3'840u);
}
