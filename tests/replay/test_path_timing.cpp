// SPDX-License-Identifier: GPL-3.0-or-later
// When each packet meets the radio: the bottleneck as a serialising link or as a token
// bucket (Linux tbf), and the timestamps the receiver echoes (RFC 7323 4.3). Small
// hand-made paths whose timing can be worked out by hand.
#include "analysis/replay/session/metrics.h"
#include "analysis/replay/sim/simulator.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <vector>

using namespace windscope::analysis::replay;

namespace {

// 20 Mb/s relay path, 20 ms each way: a 1500-byte packet (1448 B of payload and 52 of
// headers) takes 0.6 ms at the bottleneck.
Scenario relayPath(std::uint64_t burstBytes)
{
    Scenario s;
    s.durationS = 2;
    s.path.bottleneckMbps = 20;
    s.path.queueBytes = 60'000;
    s.path.burstBytes = burstBytes;
    s.path.wiredDelayMs = 20;
    s.sender.cc = "reno";
    s.receiver.bufferBytes = 1 << 22;
    return s;
}

constexpr double kPacketMs = 1500 * 8 / 20e6 * 1e3; // 0.6 ms

// The RTT the first ACK shows: the initial window leaves at once, and the receiver
// ACKs the first two segments when the second arrives.
double firstAckMs(const SimResult& r)
{
    for (const TraceRecord& x : r.trace)
        if (!x.fromSender)
            return static_cast<double>(x.timeNs) / 1e6;
    return -1;
}

} // namespace

// A serialising link delivers the second segment of the initial window one packet
// time after the first, and the delayed ACK waits for it: the first ACK comes 40 ms
// plus two packet times after the burst left (each segment ends its serialisation
// before it enters the delay). A token bucket of 5,000 B passes three packets at once
// (Linux tbf with the lab's burst), so the ACK for the first two comes after 40 ms.
TEST(PathTiming, TokenBucketPassesAPairAtOnce)
{
    const SimResult link = simulate(relayPath(0));
    const SimResult bucket = simulate(relayPath(5000));
    ASSERT_TRUE(link.ok()) << link.error;
    ASSERT_TRUE(bucket.ok()) << bucket.error;
    EXPECT_NEAR(firstAckMs(link), 40 + 2 * kPacketMs, 0.01);
    EXPECT_NEAR(firstAckMs(bucket), 40, 0.01);
}

// Over a busy period the bucket forwards at its rate, never faster: Reno keeps the
// queue busy through its sawtooth, so the goodput is close to the rate's payload share
// (1448 of 1500 bytes) through both, and never above it.
TEST(PathTiming, TokenBucketKeepsTheRate)
{
    Scenario a = relayPath(0), b = relayPath(5000);
    a.durationS = b.durationS = 10;
    const SimResult link = simulate(a), bucket = simulate(b);
    ASSERT_TRUE(link.ok() && bucket.ok());
    const double payloadRate = 20e6 * 1448 / 1500;
    for (const SimResult* r : {&link, &bucket}) {
        const double goodput = static_cast<double>(r->segments) * 1448 * 8 / (static_cast<double>(r->endNs) / 1e9);
        EXPECT_LE(goodput, payloadRate);
        EXPECT_GT(goodput, 0.9 * payloadRate);
    }
    // And both overflow the queue in slow start: drops are logged as queue drops.
    std::uint64_t queueDrops = 0;
    for (const DropRecord& d : bucket.drops)
        queueDrops += d.reason == DropRecord::Reason::Queue && d.data ? 1 : 0;
    EXPECT_EQ(queueDrops, bucket.path.queueDrops);
    EXPECT_GT(queueDrops, 0u);
}

// The drop log holds what an outage discarded, at the radio, in time order.
TEST(PathTiming, OutageDropsAreLogged)
{
    Scenario s = relayPath(5000);
    s.periodicScan.intervalMs = 200;
    s.periodicScan.dwellMs = 10;
    s.periodicScan.firstS = 1.0;
    s.periodicScan.mode = OutageMode::Drop;
    const SimResult r = simulate(s);
    ASSERT_TRUE(r.ok()) << r.error;
    std::uint64_t outage = 0;
    std::int64_t last = 0;
    for (const DropRecord& d : r.drops) {
        EXPECT_GE(d.timeNs, last);
        last = d.timeNs;
        if (d.reason != DropRecord::Reason::Outage)
            continue;
        ++outage;
        // Inside one of the scans (radio time).
        const double t = static_cast<double>(d.timeNs) / 1e9 - 1.0;
        const double into = t - 0.2 * static_cast<double>(static_cast<long>(t / 0.2));
        EXPECT_GE(t, 0);
        EXPECT_LE(into, 0.010 + 1e-9);
    }
    EXPECT_EQ(outage, r.path.outageDrops);
    EXPECT_GT(outage, 0u);
}

// RFC 7323 4.3, as Linux's receiver does (tcp_store_ts_recent() only for a segment at
// or below the last ACK sent): a delayed ACK echoes the timestamp of the first of the
// two segments it acknowledges, so the sender's RTT sample runs from the first. With
// the sender pacing one segment a millisecond, the two are sent a millisecond apart.
TEST(PathTiming, DelayedAckEchoesTheEarlierSegment)
{
    Scenario s = relayPath(0);
    s.sender.paceMs = 1;
    const SimResult r = simulate(s);
    ASSERT_TRUE(r.ok()) << r.error;
    std::vector<std::int64_t> sentAt;
    for (const TraceRecord& x : r.trace)
        if (x.fromSender && x.packet.kind == Packet::Kind::Data && !x.packet.retransmission) {
            const auto seg = static_cast<std::size_t>(x.packet.segment);
            if (sentAt.size() <= seg)
                sentAt.resize(seg + 1, -1);
            sentAt[seg] = x.timeNs;
        }
    std::int64_t previousAck = 0;
    int checked = 0;
    for (const TraceRecord& x : r.trace) {
        if (x.fromSender)
            continue;
        const Packet& a = x.packet;
        if (a.ackSegment == previousAck + 2 && a.sackCount == 0) {
            const auto first = static_cast<std::size_t>(previousAck);
            ASSERT_LT(first + 1, sentAt.size());
            EXPECT_EQ(a.echoNs, sentAt[first]) << "ACK " << a.ackSegment;
            EXPECT_LT(sentAt[first], sentAt[first + 1]);
            ++checked;
        }
        previousAck = a.ackSegment;
    }
    EXPECT_GT(checked, 100);
}

// Outages that overlap are one absence: a scan inside a handoff must not bring the
// station back when the scan ends. A 2 s handoff with a scan in its first second drops
// everything for the whole 2 s, and a longer handoff costs more, never the same.
TEST(PathTiming, OverlappingOutagesAreOneAbsence)
{
    Scenario s = relayPath(0);
    s.durationS = 8;
    s.outageList = {{OutageKind::Handoff, OutageMode::Drop, 2.0, 2.0}, {OutageKind::Scan, OutageMode::Drop, 2.5, 0.01}};
    const std::vector<Outage> away = s.outages();
    ASSERT_EQ(away.size(), 1u);
    EXPECT_EQ(away[0].kind, OutageKind::Handoff);
    EXPECT_DOUBLE_EQ(away[0].startS, 2.0);
    EXPECT_DOUBLE_EQ(away[0].endS(), 4.0);

    // A scan reaching past the handoff's end lengthens the absence to its end.
    s.outageList = {{OutageKind::Handoff, OutageMode::Drop, 2.0, 1.0}, {OutageKind::Scan, OutageMode::Drop, 2.995, 0.01}};
    ASSERT_EQ(s.outages().size(), 1u);
    EXPECT_NEAR(s.outages()[0].endS(), 3.005, 1e-12);

    // Simulated: nothing reaches the receiver between 2.0 s and 4.0 s.
    s.outageList = {{OutageKind::Handoff, OutageMode::Drop, 2.0, 2.0}, {OutageKind::Scan, OutageMode::Drop, 2.5, 0.01}};
    const SimResult r = simulate(s);
    ASSERT_TRUE(r.ok()) << r.error;
    for (const DropRecord& d : r.drops)
        EXPECT_TRUE(d.reason != DropRecord::Reason::Outage || (d.timeNs >= 2'000'000'000 && d.timeNs < 4'000'000'000));
    std::size_t droppedAfterTheScan = 0;
    for (const DropRecord& d : r.drops)
        droppedAfterTheScan += d.reason == DropRecord::Reason::Outage && d.timeNs > 2'600'000'000;
    EXPECT_GT(droppedAfterTheScan, 0u) << "the scan's end brought the station back";

    // A longer handoff, with scans before and after it, delays a transfer of a fixed
    // size further (how much, the retransmission timer's backoff rounds: the sender
    // resumes with the first retransmission after the handoff).
    auto completion = [](double handoff) {
        Scenario f = relayPath(0);
        f.durationS = 30;
        f.bytes = 20'000'000;
        f.outageList = {{OutageKind::Handoff, OutageMode::Drop, 2.0, handoff}};
        for (double t = 1.0; t < 12; t += 0.2)
            if (t < 2.0 - 0.05 || t > 2.0 + 0.5 + 0.05)
                f.outageList.push_back({OutageKind::Scan, OutageMode::Hold, t, 0.01});
        const SimResult run = simulate(f);
        EXPECT_TRUE(run.ok()) << run.error;
        return run.trace.empty() ? 0.0 : static_cast<double>(run.trace.back().timeNs) / 1e9;
    };
    const double oneSecond = completion(1.0), threeSeconds = completion(3.0);
    EXPECT_GT(threeSeconds, oneSecond + 1.0) << "a scan inside the handoff ended it";
}

// A capture past the bottleneck's queue (on the sender's own host, whose link is the
// bottleneck) sees each segment when the link begins to send it: the initial window
// of ten segments, sent at once, appears one packet time apart. In front of the queue
// all ten appear at the instant they were sent. What was dropped at the full queue
// never appears past it; the drops are still logged.
TEST(PathTiming, TracePastTheQueueTakesTheLinksDepartures)
{
    Scenario atSender = relayPath(0), pastQueue = relayPath(0);
    pastQueue.path.tracedPastQueue = true;
    const SimResult before = simulate(atSender), after = simulate(pastQueue);
    ASSERT_TRUE(before.ok() && after.ok());
    std::vector<double> sentMs, departedMs;
    for (const TraceRecord& x : before.trace)
        if (x.fromSender && x.packet.kind == Packet::Kind::Data && sentMs.size() < 10)
            sentMs.push_back(static_cast<double>(x.timeNs) / 1e6);
    for (const TraceRecord& x : after.trace)
        if (x.fromSender && x.packet.kind == Packet::Kind::Data && departedMs.size() < 10)
            departedMs.push_back(static_cast<double>(x.timeNs) / 1e6);
    ASSERT_EQ(sentMs.size(), 10u);
    ASSERT_EQ(departedMs.size(), 10u);
    for (std::size_t i = 0; i < 10; ++i) {
        EXPECT_NEAR(sentMs[i], sentMs[0], 1e-6) << i;
        EXPECT_NEAR(departedMs[i], departedMs[0] + static_cast<double>(i) * kPacketMs, 1e-3) << i;
    }
    // The same run either way: only where its trace looks from differs.
    EXPECT_EQ(before.segments, after.segments);
    EXPECT_EQ(before.path.queueDrops, after.path.queueDrops);
    // Every data packet the queue took is in the trace past it; those it dropped are not.
    std::uint64_t inFront = 0, past = 0;
    for (const TraceRecord& x : before.trace)
        inFront += x.fromSender && x.packet.kind == Packet::Kind::Data ? 1 : 0;
    for (const TraceRecord& x : after.trace)
        past += x.fromSender && x.packet.kind == Packet::Kind::Data ? 1 : 0;
    std::uint64_t dataDrops = 0;
    for (const DropRecord& d : after.drops)
        dataDrops += d.reason == DropRecord::Reason::Queue && d.data ? 1 : 0;
    EXPECT_GT(dataDrops, 0u);
    EXPECT_LE(past + dataDrops, inFront);
    EXPECT_GE(past + dataDrops + 64, inFront); // the last flight may still be queued at the end
}

// A capture past the bottleneck, at the last radio (an AP's or the station's), sees the
// data as that radio sends it: the initial window of ten segments a packet time apart,
// one wired delay after the sender sent them, and the ACKs one wired delay before the
// sender hears them. A transfer of a fixed size ends there as late as the queue was
// deep behind its last segment: read in front of the queue its rate is above the link's.
TEST(PathTiming, TraceAtTheRadioTakesTheDataAsItLeavesEveryQueue)
{
    Scenario atSender = relayPath(0), atRadio = relayPath(0);
    atSender.bytes = atRadio.bytes = 2'000'000;
    atRadio.path.tracedAtRadio = true;
    const SimResult before = simulate(atSender), after = simulate(atRadio);
    ASSERT_TRUE(before.ok() && after.ok());
    std::vector<double> sentMs, radioMs;
    for (const TraceRecord& x : before.trace)
        if (x.fromSender && x.packet.kind == Packet::Kind::Data && sentMs.size() < 10)
            sentMs.push_back(static_cast<double>(x.timeNs) / 1e6);
    for (const TraceRecord& x : after.trace)
        if (x.fromSender && x.packet.kind == Packet::Kind::Data && radioMs.size() < 10)
            radioMs.push_back(static_cast<double>(x.timeNs) / 1e6);
    ASSERT_EQ(sentMs.size(), 10u);
    ASSERT_EQ(radioMs.size(), 10u);
    for (std::size_t i = 0; i < 10; ++i)
        EXPECT_NEAR(radioMs[i], sentMs[0] + 20 + static_cast<double>(i + 1) * kPacketMs, 1e-3) << i;
    // The first ACK, sent as the second segment arrived: at the radio at once.
    EXPECT_NEAR(firstAckMs(after), radioMs[1], 1e-3);
    EXPECT_NEAR(firstAckMs(before), radioMs[1] + 20, 1e-3);
    // The same run either way: only where its trace looks from differs.
    EXPECT_EQ(before.segments, after.segments);
    EXPECT_EQ(before.path.queueDrops, after.path.queueDrops);
    // Where the capture looked the rate is at most the link's (20 Mb/s of 1500-byte
    // packets, 1448 B of payload each; a packet time of slack for the span's ends).
    const Metrics front = metricsOf(before), radio = metricsOf(after);
    constexpr double kLinkPayloadBps = 20e6 * 1448 / 1500;
    std::printf("2 MB over a 20 Mb/s link: %.0f b/s in front of its queue, %.0f b/s at the radio\n",
                front.goodputBps, radio.goodputBps);
    EXPECT_LE(radio.goodputBps, kLinkPayloadBps * (1 + 1.0 / 1000));
    EXPECT_GT(front.goodputBps, radio.goodputBps);
}
