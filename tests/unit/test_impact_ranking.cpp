// SPDX-License-Identifier: GPL-3.0-or-later
// The rules that rank events and connections and sum an event's impact (what the event
// table and the report show first), on hand-made correlations with hand-computed values.
#include "analysis/wlan/impact_ranking.h"

#include <gtest/gtest.h>

using namespace windscope::analysis;

namespace {

ConnectionImpact impact(std::uint32_t connection, std::uint32_t retx, std::uint32_t rto, double beforeBps,
                        double duringBps, std::int64_t recoveryNs = -1)
{
    ConnectionImpact m;
    m.connection = connection;
    m.retransmissions = retx;
    m.rtoTimeouts = rto;
    m.throughputBeforeBps = beforeBps;
    m.throughputDuringBps = duringBps;
    m.recoveryNs = recoveryNs;
    return m;
}

TcpAnalysis connectionsWithBytes(std::initializer_list<std::uint64_t> bytes)
{
    TcpAnalysis tcp;
    for (const std::uint64_t b : bytes) {
        tcp.connections.emplace_back();
        tcp.connections.back().direction[1].dataBytes = b;
    }
    return tcp;
}

WlanEvents eventsOf(std::size_t count)
{
    WlanEvents events;
    events.events.resize(count);
    for (std::size_t i = 0; i < count; ++i)
        events.events[i].id = i;
    return events;
}

} // namespace

TEST(ImpactRanking, ScoreCountsTimeoutsThreeTimesAndAddsTheThroughputLost)
{
    // 4 + 3 * 2 + (1 - 0.25 / 1) = 10.75
    EXPECT_DOUBLE_EQ(impactScore(impact(0, 4, 2, 1e6, 2.5e5)), 10.75);
    // Faster during than before: nothing lost, the score is the counts alone.
    EXPECT_DOUBLE_EQ(impactScore(impact(0, 1, 1, 1e6, 2e6)), 4.0);
    // No level before the event: no fraction to lose.
    EXPECT_DOUBLE_EQ(impactScore(impact(0, 0, 0, 0, 0)), 0.0);
    // Stalled completely: the whole throughput lost, 1.
    EXPECT_DOUBLE_EQ(impactScore(impact(0, 0, 0, 5e5, 0)), 1.0);
}

TEST(ImpactRanking, EventTotalsSumTheConnectionsAndKeepTheSlowestRecovery)
{
    Correlation c;
    c.impacts.push_back({0, {impact(3, 1, 0, 1e6, 5e5, 100'000'000), impact(5, 2, 1, 2e6, 0, -1)}});
    c.impacts.push_back({1, {}});
    c.impacts.push_back({2, {impact(3, 0, 0, 4e6, 4e6, 20'000'000), impact(4, 0, 2, 1e6, 1e5, 350'000'000)}});
    c.impacts.push_back({7, {impact(1, 9, 9, 1, 1)}}); // no such event: left out
    const std::vector<EventTotals> t = eventTotals(c, 3);
    ASSERT_EQ(t.size(), 3u);
    EXPECT_EQ(t[0].connections, 2u);
    EXPECT_EQ(t[0].retransmissions, 3u);
    EXPECT_EQ(t[0].rtoTimeouts, 1u);
    EXPECT_DOUBLE_EQ(t[0].throughputBeforeBps, 3e6);
    EXPECT_DOUBLE_EQ(t[0].throughputDuringBps, 5e5);
    EXPECT_EQ(t[0].recoveryNs, 100'000'000); // the one that did not recover does not count
    EXPECT_EQ(t[1].connections, 0u);
    EXPECT_EQ(t[1].recoveryNs, -1);
    EXPECT_EQ(t[2].connections, 2u);
    EXPECT_EQ(t[2].rtoTimeouts, 2u);
    EXPECT_DOUBLE_EQ(t[2].throughputBeforeBps, 5e6);
    EXPECT_DOUBLE_EQ(t[2].throughputDuringBps, 4.1e6);
    EXPECT_EQ(t[2].recoveryNs, 350'000'000);
}

TEST(ImpactRanking, MostAffectedIsTheHighestScoreThenTheBusiestConnection)
{
    const TcpAnalysis tcp = connectionsWithBytes({100, 9000, 500});
    const WlanEvents events = eventsOf(3);
    Correlation c;
    // Scores: event 0 / connection 2: 2 + 0.5 = 2.5; event 1 / connection 0: 3 * 1 = 3
    // (ties with event 2 / connection 1: 3, and the first one found stays).
    c.impacts.push_back({0, {impact(2, 2, 0, 1e6, 5e5)}});
    c.impacts.push_back({1, {impact(0, 0, 1, 0, 0)}});
    c.impacts.push_back({2, {impact(1, 3, 0, 0, 0)}});
    ImpactSelection s = mostAffected(tcp, events, c);
    EXPECT_EQ(s.event, 1);
    EXPECT_EQ(s.connection, 0);

    // No impact at all: the connection that carried the most data, and the first event.
    s = mostAffected(tcp, events, Correlation{});
    EXPECT_EQ(s.connection, 1);
    EXPECT_EQ(s.event, 0);
    s = mostAffected(tcp, WlanEvents{}, Correlation{});
    EXPECT_EQ(s.connection, 1);
    EXPECT_EQ(s.event, -1);
    s = mostAffected(TcpAnalysis{}, WlanEvents{}, Correlation{});
    EXPECT_EQ(s.connection, -1);
    EXPECT_EQ(s.event, -1);
}

TEST(ImpactRanking, ConnectionForEventPrefersTheOneShownThenTheWorstHit)
{
    WlanEvents events = eventsOf(3);
    events.events[2].connection = 6; // an inferred outage knows its connection
    Correlation c;
    c.impacts.push_back({0, {impact(1, 1, 0, 0, 0), impact(4, 2, 1, 0, 0), impact(5, 3, 0, 0, 0)}});
    c.impacts.push_back({1, {}});
    c.impacts.push_back({2, {}});
    EXPECT_EQ(connectionForEvent(events, c, 0, 1), 1);  // touched: stays
    EXPECT_EQ(connectionForEvent(events, c, 0, 9), 4);  // not touched: 2 + 1 ties 3 + 0, the first stays
    EXPECT_EQ(connectionForEvent(events, c, 0), 4);
    EXPECT_EQ(connectionForEvent(events, c, 1), -1);    // nobody touched, no connection of its own
    EXPECT_EQ(connectionForEvent(events, c, 2), 6);
    EXPECT_EQ(connectionForEvent(events, c, 2, 6), 6);
    EXPECT_EQ(connectionForEvent(events, c, 3), -1);    // no such event
}
