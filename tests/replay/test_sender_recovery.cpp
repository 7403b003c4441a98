// SPDX-License-Identifier: GPL-3.0-or-later
// The simulated sender on small hand-made paths where what must happen can be worked
// out by hand: its loss recovery options, Proportional Rate Reduction (RFC 6937) and
// RACK-TLP (RFC 8985) against the classic RFC 6675 / RFC 6298 recovery, and the
// rate-based BBR model against a loss-based one.
#include "analysis/replay/sim/simulator.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <cstdio>
#include <vector>

using namespace windscope::analysis::replay;

namespace {

// 20 Mb/s relay path (no 802.11 MAC), 20 ms each way (a 100 KB pipe), a 60 KB queue,
// a receiver that keeps up: Reno's first slow start overflows the queue, then its
// sawtooth takes about 3 s from half to full.
Scenario relayPath()
{
    Scenario s;
    s.durationS = 5;
    s.path.bottleneckMbps = 20;
    s.path.queueBytes = 60'000;
    s.path.wiredDelayMs = 20;
    s.sender.cc = "reno";
    s.sender.sack = true;
    s.receiver.bufferBytes = 1 << 22;
    return s;
}

struct Recovery
{
    double startS = -1, endS = -1;
};

// The first fast recovery the sender went through from time from on, from its samples.
Recovery firstRecovery(const SimResult& r, double from)
{
    Recovery out;
    for (const SenderSample& x : r.samples) {
        const double t = static_cast<double>(x.timeNs) / 1e9;
        if (t < from)
            continue;
        if (x.state == windscope::analysis::cwnd::CaState::Recovery) {
            if (out.startS < 0)
                out.startS = t;
            out.endS = t;
        } else if (out.startS >= 0) {
            break;
        }
    }
    return out;
}

// The longest silence of the sender between its sends in [from, to).
double longestSilenceS(const SimResult& r, double from, double to)
{
    double last = -1, longest = 0;
    for (const TraceRecord& x : r.trace) {
        const double t = static_cast<double>(x.timeNs) / 1e9;
        if (!x.fromSender || t < from || t >= to)
            continue;
        if (last >= 0)
            longest = std::max(longest, t - last);
        last = t;
    }
    return longest;
}

} // namespace

// A 2 ms drop at the radio at 1.5 s, while the transfer streams at the bottleneck
// rate: a burst of a few segments lost, found by SACK. Reno halves: without PRR the window
// drops to ssthresh at once, and the sender is silent until half its flight has been
// acknowledged (half an RTT at the bottleneck's pace); with PRR it keeps sending one
// segment for every two delivered, so no silence is longer than a few segment times
// (0.6 ms each at 20 Mb/s).
TEST(SenderRecovery, PrrSpreadsTheWindowReductionOverTheRoundTrip)
{
    double silenceWith = 0, silenceWithout = 0;
    for (const bool prr : {false, true}) {
        Scenario s = relayPath();
        s.sender.prr = prr;
        s.outageList = {{OutageKind::Scan, OutageMode::Drop, 1.5, 0.002}};
        const SimResult r = simulate(s);
        ASSERT_TRUE(r.ok()) << r.error;
        EXPECT_EQ(r.sender.rtoTimeouts, 0u) << "prr " << prr;
        const Recovery rec = firstRecovery(r, 1.5);
        ASSERT_GE(rec.startS, 1.5) << "prr " << prr;
        ASSERT_LT(rec.startS, 1.7) << "prr " << prr;
        const double silence = longestSilenceS(r, rec.startS, rec.endS);
        std::printf("prr %s: recovery %.4f-%.4f s, longest silence in it %.1f ms\n", prr ? "on " : "off", rec.startS,
                    rec.endS, silence * 1000);
        (prr ? silenceWith : silenceWithout) = silence;
        // Either way the recovery ends at ssthresh (Linux tcp_end_cwnd_reduction()).
        std::uint64_t afterCwnd = 0, ssthresh = 0;
        for (const SenderSample& x : r.samples)
            if (static_cast<double>(x.timeNs) / 1e9 > rec.endS) {
                afterCwnd = x.cwndBytes;
                ssthresh = x.ssthreshBytes;
                break;
            }
        EXPECT_GT(ssthresh, 0u);
        EXPECT_NEAR(static_cast<double>(afterCwnd), static_cast<double>(ssthresh), 2.0 * s.sender.mss)
            << "prr " << prr;
    }
    const double segmentS = 1500 * 8 / 20e6;
    EXPECT_LT(silenceWith, 4 * segmentS);
    EXPECT_GT(silenceWithout, 4 * silenceWith);
}

// The tail of the first flight is lost and nothing follows it: no duplicate ACK can
// start a recovery. Classic recovery waits for the retransmission timer (1 s before
// any RTT sample, RFC 6298 2.1; here the first ACKs give one, so 200 ms plus); a tail
// loss probe 2 SRTT after the last send draws a SACK that shows the loss, and a fast
// recovery repairs it without a timeout.
TEST(SenderRecovery, TailLossProbeRepairsALostTailWithoutATimeout)
{
    for (const bool rackTlp : {false, true}) {
        Scenario s = relayPath();
        s.bytes = 10ull * s.sender.mss; // the initial window: one flight
        s.sender.rackTlp = rackTlp;
        // An ACK for every segment: the minimum RTT is then one segment's, as the
        // probe's is. (With an ACK every two segments the minimum includes a second
        // segment's serialisation; the probe's RTT falls below it, and RACK, like
        // Linux's tcp_rack_advance(), cannot tell the probe's SACK from the
        // original's and leaves the repair to the timer.)
        s.receiver.delayedAckSegments = 1;
        // Segment i (1500 bytes on the wire) leaves the bottleneck at (i + 1) * 0.6 ms
        // and meets the radio 20 ms later: 24.5 to 26.5 ms drops the last three of ten.
        s.outageList = {{OutageKind::Scan, OutageMode::Drop, 0.0245, 0.002}};
        const SimResult r = simulate(s);
        ASSERT_TRUE(r.ok()) << r.error;
        EXPECT_TRUE(r.completed) << "rack_tlp " << rackTlp;


        EXPECT_EQ(r.path.outageDrops, 3u) << "rack_tlp " << rackTlp;
        if (rackTlp) {
            EXPECT_EQ(r.sender.lossProbes, 1u);
            EXPECT_EQ(r.sender.rtoTimeouts, 0u);
            EXPECT_LT(static_cast<double>(r.endNs) / 1e9, 0.25) << "completion, s";
        } else {
            EXPECT_EQ(r.sender.lossProbes, 0u);
            EXPECT_EQ(r.sender.rtoTimeouts, 1u);
            EXPECT_GT(static_cast<double>(r.endNs) / 1e9, 0.25) << "completion, s";
        }
    }
}

// The fast retransmission is itself lost. Linux's RACK (RFC 8985 6.2) marks it lost
// once a segment sent after it is SACKed, and resends it without a timeout; ns-3.37's
// NextSeg() never resends what it retransmitted (TcpTxBuffer's m_retrans), so only the
// retransmission timer finds that loss.
TEST(SenderRecovery, ALostRetransmissionWaitsForTheTimerOnNs3Only)
{
    const auto scenario = [](const char* stack) {
        Scenario s = relayPath();
        s.durationS = 3;
        s.sender.stack = stack;
        s.sender.prr = true;
        s.sender.rtoRfc6298 = std::string(stack) == "ns-3";
        s.sender.rackTlp = std::string(stack) == "linux";
        // Paced at a segment a millisecond (11.6 Mb/s on a 20 Mb/s path): no queue, an
        // RTT of 40 ms throughout, new data all along; one segment lost.
        s.sender.paceMs = 1;
        s.path.lostSegments = {400};
        return s;
    };
    // Where the resend of segment 400 met the radio: the first run sends it, the
    // second drops whatever meets the radio in the 1 ms around that instant.
    const auto resendOf = [](const SimResult& r, std::int64_t segment) {
        std::vector<double> sends;
        for (const TraceRecord& x : r.trace)
            if (x.fromSender && x.packet.kind == Packet::Kind::Data && x.packet.segment == segment)
                sends.push_back(static_cast<double>(x.timeNs) / 1e9);
        return sends;
    };
    for (const char* stack : {"linux", "ns-3"}) {
        const SimResult first = simulate(scenario(stack));
        ASSERT_TRUE(first.ok()) << first.error;
        const std::vector<double> sends = resendOf(first, 400);
        ASSERT_EQ(sends.size(), 2u) << stack;
        EXPECT_EQ(first.sender.rtoTimeouts, 0u) << stack;
        // When the resend met the radio: the ACK it drew (a hole filled is ACKed at
        // once, RFC 5681 4.2) came back one wired delay later.
        double resendAtRadio = -1;
        for (const TraceRecord& x : first.trace)
            if (!x.fromSender && x.packet.ackSegment > 400) {
                resendAtRadio = static_cast<double>(x.timeNs) / 1e9 - first.scenario.path.wiredDelayMs / 1000;
                break;
            }
        ASSERT_GT(resendAtRadio, sends[1]) << stack;
        Scenario s = scenario(stack);
        s.outageList = {{OutageKind::Scan, OutageMode::Drop, resendAtRadio - 0.001, 0.002}};
        const SimResult r = simulate(s);
        ASSERT_TRUE(r.ok()) << r.error;
        const bool resendLost = std::any_of(r.drops.begin(), r.drops.end(), [](const DropRecord& d) {
            return d.data && d.packet.segment == 400 && d.packet.retransmission;
        });
        ASSERT_TRUE(resendLost) << stack;
        const std::vector<double> again = resendOf(r, 400);
        ASSERT_GE(again.size(), 3u) << stack;
        std::printf("%s: segment 400 sent at %.4f, %.4f and %.4f s; %llu timeouts\n", stack, again[0], again[1],
                    again[2], static_cast<unsigned long long>(r.sender.rtoTimeouts));
        // When the sender entered Loss (the timer), if it did.
        double timerS = -1;
        for (const SenderSample& x : r.samples)
            if (x.state == windscope::analysis::cwnd::CaState::Loss) {
                timerS = static_cast<double>(x.timeNs) / 1e9;
                break;
            }
        if (std::string(stack) == "ns-3") {
            EXPECT_EQ(r.sender.rtoTimeouts, 1u);
            EXPECT_DOUBLE_EQ(again[2], timerS); // the timer's resend of the head
            EXPECT_GT(again[2] - again[1], 0.15); // min_rto 200 ms from before the resend
        } else {
            EXPECT_EQ(r.sender.rtoTimeouts, 0u);
            EXPECT_LT(timerS, 0);
            // About an RTT (45 ms) after the resend: RACK, well before any timer.
            EXPECT_LT(again[2] - again[1], 0.1);
        }
    }
}

namespace {

// Median RTT the sender saw over [from, to): from its data and the ACKs that first
// covered them (the trace's records, no analysis).
double medianRttS(const SimResult& r, double from, double to)
{
    std::vector<double> rtts;
    std::vector<std::int64_t> sentNs;
    for (const TraceRecord& x : r.trace) {
        if (x.fromSender && x.packet.kind == Packet::Kind::Data && !x.packet.retransmission) {
            const auto seg = static_cast<std::size_t>(x.packet.segment);
            if (sentNs.size() <= seg)
                sentNs.resize(seg + 1, -1);
            sentNs[seg] = x.timeNs;
        } else if (!x.fromSender && x.packet.ackSegment > 0) {
            const auto seg = static_cast<std::size_t>(x.packet.ackSegment - 1);
            const double t = static_cast<double>(x.timeNs) / 1e9;
            if (seg < sentNs.size() && sentNs[seg] >= 0 && t >= from && t < to) {
                rtts.push_back(static_cast<double>(x.timeNs - sentNs[seg]) / 1e9);
                sentNs[seg] = -1;
            }
        }
    }
    if (rtts.empty())
        return 0;
    std::nth_element(rtts.begin(), rtts.begin() + static_cast<std::ptrdiff_t>(rtts.size() / 2), rtts.end());
    return rtts[rtts.size() / 2];
}

} // namespace

// BBR's two signatures against a loss-based sender on the same 20 Mb/s, 40 ms path
// with a 200 KB queue (80 ms at the bottleneck rate): it fills the pipe without
// filling the queue (CUBIC fills the queue until it overflows), and random loss does
// not make it back off (1% loss costs CUBIC most of its rate).
TEST(SenderModels, BbrFillsThePipeWithoutTheQueueAndShrugsOffRandomLoss)
{
    const auto run = [](const char* cc, double loss) {
        Scenario s = relayPath();
        s.durationS = 10;
        s.path.queueBytes = 200'000;
        s.path.lossFwd = loss;
        s.sender.cc = cc;
        s.sender.rackTlp = true;
        const SimResult r = simulate(s);
        EXPECT_TRUE(r.ok()) << r.error;
        return r;
    };
    const double bottleneckPayloadBps = 20e6 * 1448 / 1500;
    const SimResult bbr = run("bbr", 0), cubic = run("cubic", 0);
    const auto goodput = [](const SimResult& r) {
        return static_cast<double>(r.segments) * r.mss * 8 / (static_cast<double>(r.endNs) / 1e9);
    };
    const double bbrRtt = medianRttS(bbr, 2, 10), cubicRtt = medianRttS(cubic, 2, 10);
    std::printf("clean: bbr %.2f Mb/s, median RTT %.1f ms; cubic %.2f Mb/s, median RTT %.1f ms\n", goodput(bbr) / 1e6,
                bbrRtt * 1000, goodput(cubic) / 1e6, cubicRtt * 1000);
    EXPECT_GT(goodput(bbr), 0.85 * bottleneckPayloadBps);
    // Base RTT 40.6 ms; BBR keeps at most about one BDP queued in ProbeBW's up phase,
    // CUBIC fills the 80 ms queue.
    EXPECT_LT(bbrRtt, 0.060);
    EXPECT_GT(cubicRtt, bbrRtt + 0.020);

    const SimResult bbrLossy = run("bbr", 0.01), cubicLossy = run("cubic", 0.01);
    std::printf("1%% loss: bbr %.2f Mb/s, cubic %.2f Mb/s\n", goodput(bbrLossy) / 1e6, goodput(cubicLossy) / 1e6);
    EXPECT_GT(goodput(bbrLossy), 0.75 * bottleneckPayloadBps);
    EXPECT_GT(goodput(bbrLossy), 2 * goodput(cubicLossy));
}
