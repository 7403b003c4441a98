// SPDX-License-Identifier: GPL-3.0-or-later
// The steps of deriveScenario() one at a time, on small hand-made inputs: a connection
// whose statistics are set by hand, and a context holding what the earlier steps would
// have read from the rows (ACK progress, window updates, the RTT floor...). Each input
// is small enough that the expected scenario fields can be worked out by hand.
#include "analysis/replay/derive/derivation_steps.h"
#include "analysis/replay/derive/periodic_outages.h"
#include "test_support.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

using namespace windscope;
using namespace windscope::analysis;
using namespace windscope::analysis::replay;
using namespace windscope::analysis::replay::derive;

namespace {

constexpr std::uint32_t kMss = 1448;

// One connection, endpoint 1 sending the data; its statistics set by each test.
struct Synthetic
{
    dissect::CaptureTables tables;
    TcpAnalysis tcp;
    cwnd::CwndInference inference;
    bool withInference = false;

    Synthetic() { tcp.connections.resize(1); }
    Connection& connection() { return tcp.connections[0]; }
    DirectionStats& data() { return connection().direction[1]; }
    DirectionStats& acks() { return connection().direction[0]; }
    DerivationInput input() const
    {
        return {&tables, &tcp, 0, 1, nullptr, withInference ? &inference : nullptr};
    }
};

// ACK progress of a path delivering at rateMbps (payload): an ACK per MSS, for busy
// periods of busyMs separated by idleMs, each busy period opening with burstBytes
// delivered at once (what a token bucket lets through after a pause).
std::vector<std::pair<std::int64_t, std::int64_t>> ackProgress(double rateMbps, int periods, double busyMs,
                                                                double idleMs, std::int64_t burstBytes)
{
    std::vector<std::pair<std::int64_t, std::int64_t>> out;
    const double nsPerMss = kMss * 8 / rateMbps * 1e3;
    std::int64_t delivered = 0;
    double now = 0;
    out.emplace_back(0, 0);
    for (int p = 0; p < periods; ++p) {
        now += idleMs * 1e6;
        delivered += burstBytes;
        out.emplace_back(static_cast<std::int64_t>(now), delivered);
        for (double t = nsPerMss; t <= busyMs * 1e6; t += nsPerMss) {
            delivered += kMss;
            out.emplace_back(static_cast<std::int64_t>(now + t), delivered);
        }
        now += busyMs * 1e6;
    }
    return out;
}

} // namespace

// The table runs every step once, in the order the notes come: the rows first, the
// lone losses (which need the whole outage timeline) last.
// The period tests' p-value (Zar's approximation), worked by hand: ten events at one
// phase (R = 1) give 21 - sqrt(41) = 14.597, which the large-sample n R^2 (10) puts below
// a search over a hundred periods or more (ln(100 / 0.01) = 9.2 passes, 200 periods'
// 9.9 does not); with many events it is n R^2 (1000 events at R 0.1: 2001 -
// sqrt(3964001) = 10.02 against 10); scattered phases are no evidence.
TEST(DerivationSteps, RayleighSurpriseIsZarsSmallSampleValue)
{
    EXPECT_NEAR(rayleighSurprise(10, 1.0), 21 - std::sqrt(41.0), 1e-9);
    EXPECT_NEAR(rayleighSurprise(10, 1.0), 14.597, 1e-3);
    EXPECT_NEAR(rayleighSurprise(1000, 0.1), 10.02, 0.01);
    EXPECT_NEAR(rayleighSurprise(100, 0.3), 201 - std::sqrt(36801.0), 1e-9);
    EXPECT_LT(rayleighSurprise(25, 0.0), 0.1);
    EXPECT_GT(rayleighSurprise(10, 1.0), std::log(200 / 0.01));
}

TEST(DerivationSteps, TableRunsTheStepsInNoteOrder)
{
    const auto steps = derivationSteps();
    ASSERT_GE(steps.size(), 10u);
    EXPECT_STREQ(steps.front().name, "connection rows");
    EXPECT_STREQ(steps.back().name, "lone losses");
    std::vector<std::string> names;
    for (const DerivationStep& s : steps) {
        ASSERT_NE(s.run, nullptr) << s.name;
        names.emplace_back(s.name);
    }
    const auto at = [&](const char* name) { return std::find(names.begin(), names.end(), name) - names.begin(); };
    EXPECT_LT(at("segment size"), at("bottleneck rate"));   // the rate counts headers per MSS
    EXPECT_LT(at("congestion control"), at("rto rule"));    // the RTO reads the model's minimum
    EXPECT_LT(at("outage timeline"), at("periodic outages")); // takes explained silences out again
}

// The MSS is the largest payload sent; without data, the peer's MSS option.
TEST(DerivationSteps, SegmentSizeFromLargestPayloadElsePeerOption)
{
    Synthetic in;
    in.connection().mss[0] = 1360; // the receiver's SYN
    in.connection().sackPermitted = true;
    in.data().uniqueBytes = 5'000'000;
    DerivationContext ctx;
    ctx.maxPayload = 1200;
    ctx.lastDataNs = 4'500'000'000;
    DerivedScenario out;
    out.firstDataNs = 500'000'000;
    deriveSegmentSize(in.input(), ctx, out);
    EXPECT_EQ(out.scenario.sender.mss, 1200u);
    EXPECT_TRUE(out.scenario.sender.sack);
    EXPECT_EQ(out.scenario.bytes, 5'000'000u);
    EXPECT_DOUBLE_EQ(out.scenario.durationS, 4.0);
    ASSERT_EQ(out.notes.size(), 2u);
    EXPECT_EQ(out.notes[0], "sender.mss 1200: largest data segment");

    DerivationContext noData;
    DerivedScenario none;
    deriveSegmentSize(in.input(), noData, none);
    EXPECT_EQ(none.scenario.sender.mss, 1360u);
    EXPECT_DOUBLE_EQ(none.scenario.durationS, 1.0); // at least a second
}

// ACKs at a steady 10 Mb/s: both window percentiles read 10 Mb/s of payload, and the
// bottleneck serialises the headers too (52 B per 1448 B segment).
TEST(DerivationSteps, BottleneckFromSteadyAckProgress)
{
    Synthetic in;
    in.data().goodputBps = 9e6;
    DerivationContext ctx;
    ctx.ackProgress = ackProgress(10, 1, 2000, 0, 0);
    ctx.rttMin = ctx.rttSustainedMax = 20;
    DerivedScenario out;
    out.scenario.sender.mss = kMss;
    deriveBottleneck(in.input(), ctx, out);
    EXPECT_NEAR(ctx.rateMbps, 10, 0.1);
    EXPECT_NEAR(out.scenario.path.bottleneckMbps, ctx.rateMbps * 1500 / 1448, 1e-9);
    EXPECT_TRUE(test::anyNote(out.notes, "path.bottleneck_mbps "));
}

// After each pause a token bucket lets five segments through at once: the ACKs run that
// far ahead of the rate, and the burst is those bytes with their headers. A serialising
// link runs two segments ahead (a delayed ACK's pair): no bucket.
TEST(DerivationSteps, PathTimingTellsTokenBucketFromSerialisingLink)
{
    Synthetic in;
    for (const std::int64_t segments : {5, 2}) {
        DerivationContext ctx;
        ctx.ackProgress = ackProgress(10, 30, 20, 10, segments * kMss);
        ctx.rateMbps = 10;
        ctx.rttMin = 20;
        DerivedScenario out;
        out.scenario.sender.mss = kMss;
        derivePathTiming(in.input(), ctx, out);
        ASSERT_FALSE(out.notes.empty());
        if (segments == 5) {
            EXPECT_EQ(out.scenario.path.burstBytes, 7500u); // 5 x 1500 B
            EXPECT_TRUE(test::anyNote(out.notes, "path.burst_bytes 7500: a token bucket")) << out.notes[0];
        } else {
            EXPECT_EQ(out.scenario.path.burstBytes, 0u);
            EXPECT_TRUE(test::anyNote(out.notes, "path.burst_bytes 0: a link serialising")) << out.notes[0];
        }
    }
    // Not a relay: the 802.11 model times the air instead.
    DerivationContext ctx;
    ctx.ackProgress = ackProgress(10, 30, 20, 10, 5 * kMss);
    ctx.rateMbps = 10;
    DerivedScenario wlan;
    wlan.scenario.sender.mss = kMss;
    wlan.scenario.mac.enabled = true;
    derivePathTiming(in.input(), ctx, wlan);
    EXPECT_TRUE(wlan.notes.empty());
    EXPECT_EQ(wlan.scenario.path.burstBytes, 0u);
}

// A reader that keeps the window low, opening it by 4,096 B every 4 ms: one read per
// window update, at the goodput of 1 B/us; the path is taken well above the reader.
TEST(DerivationSteps, ReceiverSlowReaderFromWindowUpdateRhythm)
{
    Synthetic in;
    in.acks().maxWindowBytes = 65'535;
    in.acks().lowWindows = 40;
    in.data().goodputBps = 8e6; // 1 B/us
    DerivationContext ctx;
    ctx.lastDataNs = 10'000'000'000;
    for (int i = 0; i < 50; ++i)
        ctx.windowUpdates.emplace_back(std::int64_t(i) * 4'000'000, 4096);
    DerivedScenario out;
    out.scenario.sender.mss = kMss;
    deriveReceiver(in.input(), ctx, out);
    const ReceiverParams& r = out.scenario.receiver;
    EXPECT_EQ(r.bufferBytes, 65'535u);
    EXPECT_EQ(r.appReadBytes, 4096u);
    EXPECT_DOUBLE_EQ(r.readFixedUs, 1000);
    EXPECT_NEAR(r.readPerByteUs, (4096.0 - 1000) / 4096, 1e-12);
    EXPECT_DOUBLE_EQ(out.scenario.path.bottleneckMbps, 160); // 20x the goodput
    EXPECT_TRUE(test::anyNote(out.notes, "receiver: slow reader reading 4096 B every 4096 us"));

    // Few low windows over the run: the application keeps up, nothing else changes.
    in.acks().lowWindows = 3;
    DerivedScenario keepsUp;
    keepsUp.scenario.sender.mss = kMss;
    deriveReceiver(in.input(), ctx, keepsUp);
    EXPECT_EQ(keepsUp.scenario.receiver.appReadBytes, 0u);
    EXPECT_EQ(keepsUp.notes.back(), "receiver: the application keeps up (few zero or low windows)");
}

// A reader that falls behind without closing the window: it holds the window at about
// 7 segments of a 200 kB buffer (the fidelity harness's run of a 935 B reader) and no
// window ever counts as low. Autotuning, which only raises the window, is no reader.
TEST(DerivationSteps, ReceiverSlowReaderFromAWindowHeldBelowHalf)
{
    Synthetic in;
    in.acks().maxWindowBytes = 201'180;
    in.acks().lowWindows = 1;
    in.data().goodputBps = 1.6e6;
    DerivationContext ctx;
    ctx.lastDataNs = 10'000'000'000;
    ctx.advertisedWindows.emplace_back(0, 201'180);
    for (std::int64_t t = 200'000'000; t <= ctx.lastDataNs; t += 5'000'000)
        ctx.advertisedWindows.emplace_back(t, 10'136);
    DerivedScenario out;
    out.scenario.sender.mss = kMss;
    deriveReceiver(in.input(), ctx, out);
    EXPECT_EQ(out.scenario.receiver.appReadBytes, kMss); // no rhythm: reads of one MSS at the goodput
    EXPECT_TRUE(test::anyNote(out.notes, "receiver: the window stayed below half the largest offered before it for 98 %"));

    // The same windows offered in rising order (receive-buffer autotuning): kept up.
    DerivationContext growing = ctx;
    std::uint64_t window = 10'136;
    for (auto& w : growing.advertisedWindows)
        w.second = window += 1000;
    DerivedScenario keepsUp;
    keepsUp.scenario.sender.mss = kMss;
    deriveReceiver(in.input(), growing, keepsUp);
    EXPECT_EQ(keepsUp.scenario.receiver.appReadBytes, 0u);
    EXPECT_EQ(keepsUp.notes.back(), "receiver: the application keeps up (few zero or low windows)");
}

// A reader that lags without holding the window below half: the window hovers 4
// segments under a 46 kB buffer (the harness's run of a 5.9 kB reader, whose sender
// lost nothing). Lossless, the window was the only limit, and what stayed unread is the
// reader's. With losses, or less than a delayed ACK's two segments unread, it kept up.
TEST(DerivationSteps, ReceiverSlowReaderFromAWindowBelowItsLargest)
{
    Synthetic in;
    in.acks().maxWindowBytes = 46'039;
    in.data().goodputBps = 1.9e6;
    DerivationContext ctx;
    ctx.lastDataNs = 8'000'000'000;
    const auto windowsBelow = [&](std::uint64_t unread) {
        std::vector<std::pair<std::int64_t, std::uint64_t>> windows{{0, 46'039}};
        for (std::int64_t t = 100'000'000; t <= ctx.lastDataNs; t += 5'000'000)
            windows.emplace_back(t, 46'039 - unread);
        return windows;
    };
    ctx.advertisedWindows = windowsBelow(4 * kMss); // 5792 B unread over 7.9 of the 8 s: 5720 B on average
    DerivedScenario out;
    out.scenario.sender.mss = kMss;
    deriveReceiver(in.input(), ctx, out);
    EXPECT_EQ(out.scenario.receiver.appReadBytes, kMss);
    EXPECT_TRUE(test::anyNote(out.notes, "receiver: with no loss, the window stayed 5720 B below the largest offered"))
        << out.notes.back();

    in.data().retransmissions = 3;
    DerivedScenario lossy;
    lossy.scenario.sender.mss = kMss;
    deriveReceiver(in.input(), ctx, lossy);
    EXPECT_EQ(lossy.scenario.receiver.appReadBytes, 0u);

    in.data().retransmissions = 0;
    ctx.advertisedWindows = windowsBelow(kMss);
    DerivedScenario keepsUp;
    keepsUp.scenario.sender.mss = kMss;
    deriveReceiver(in.input(), ctx, keepsUp);
    EXPECT_EQ(keepsUp.scenario.receiver.appReadBytes, 0u);
    EXPECT_EQ(keepsUp.notes.back(), "receiver: the application keeps up (few zero or low windows)");
}

// The congestion-control model: the inference's when the simulator has it, BBR for a
// rate-based sender, CUBIC (Linux's default) without an inference; RACK-TLP and PRR
// go with the Linux models when SACK is on.
TEST(DerivationSteps, CongestionControlFollowsTheInference)
{
    Synthetic in;
    DerivationContext ctx;
    {
        DerivedScenario out;
        out.scenario.sender.sack = true;
        deriveCongestionControl(in.input(), ctx, out);
        EXPECT_EQ(out.scenario.sender.cc, "cubic");
        EXPECT_TRUE(out.scenario.sender.rackTlp);
        EXPECT_TRUE(out.scenario.sender.prr);
        EXPECT_EQ(out.notes.back(), "sender.cc cubic: no cwnd inference, Linux's default");
    }
    in.withInference = true;
    in.inference.model = "westwood-plus";
    {
        DerivedScenario out;
        out.scenario.sender.sack = true;
        deriveCongestionControl(in.input(), ctx, out);
        EXPECT_EQ(out.scenario.sender.cc, "westwood-plus");
        EXPECT_FALSE(out.scenario.sender.rackTlp); // written after its paper and ns-3
        EXPECT_EQ(out.notes.back(), "sender.cc westwood-plus: model the cwnd inference chose");
    }
    // Reno fitted best as ns-3 implements it: the replay runs ns-3's Reno, which recovers
    // with PRR and without RACK-TLP (ns-3.37's default recovery).
    in.inference.model = "reno";
    cwnd::ModelFit renoFit;
    renoFit.model = "reno";
    renoFit.stack = cwnd::ModelStack::Ns3;
    in.inference.fits.push_back(renoFit);
    {
        DerivedScenario out;
        out.scenario.sender.sack = true;
        deriveCongestionControl(in.input(), ctx, out);
        EXPECT_EQ(out.scenario.sender.cc, "reno");
        EXPECT_EQ(out.scenario.sender.stack, "ns-3");
        EXPECT_FALSE(out.scenario.sender.rackTlp);
        EXPECT_TRUE(out.scenario.sender.prr);
        EXPECT_TRUE(test::anyNote(out.notes, "sender.stack ns-3: "));
    }
    // As Linux has it: Linux's recovery.
    in.inference.fits.back().stack = cwnd::ModelStack::Linux;
    {
        DerivedScenario out;
        out.scenario.sender.sack = true;
        deriveCongestionControl(in.input(), ctx, out);
        EXPECT_EQ(out.scenario.sender.stack, "linux");
        EXPECT_TRUE(out.scenario.sender.rackTlp);
        EXPECT_TRUE(out.scenario.sender.prr);
    }
    // NewReno is ns-3's alone, whatever stack its fit names; without SACK there is no PRR.
    in.inference.model = "newreno";
    in.inference.fits.back() = cwnd::ModelFit{};
    in.inference.fits.back().model = "newreno";
    {
        DerivedScenario out;
        out.scenario.sender.sack = false;
        deriveCongestionControl(in.input(), ctx, out);
        EXPECT_EQ(out.scenario.sender.stack, "ns-3");
        EXPECT_FALSE(out.scenario.sender.prr);
    }
    in.inference.fits.clear();
    in.inference.rateEvidence.rateBased = true;
    in.inference.rateEvidence.unclockedSends = 0.8;
    {
        DerivedScenario out;
        out.scenario.sender.sack = false;
        deriveCongestionControl(in.input(), ctx, out);
        EXPECT_EQ(out.scenario.sender.cc, "bbr");
        EXPECT_FALSE(out.scenario.sender.rackTlp); // no SACK
        EXPECT_TRUE(test::anyNote(out.notes, "sender.cc bbr: the sender is rate-based (80% of its sends"));
    }
    in.inference.rateEvidence.rateBased = false;
    in.inference.model = "hybla";
    {
        DerivedScenario out;
        deriveCongestionControl(in.input(), ctx, out);
        EXPECT_EQ(out.scenario.sender.cc, "cubic");
        EXPECT_EQ(out.senderNotModelled, "the inference saw hybla, which the simulator does not model");
    }
}

// With no timeout in the capture the RTO keeps Linux's rule, and the recovery note
// names the model RACK-TLP goes with.
TEST(DerivationSteps, RtoRuleAndRecoveryWithoutTimeouts)
{
    Synthetic in;
    DerivationContext ctx;
    DerivedScenario out;
    out.scenario.sender.cc = "reno";
    out.scenario.sender.rackTlp = true;
    deriveRtoRule(in.input(), ctx, out);
    noteLossRecovery(in.input(), ctx, out);
    EXPECT_FALSE(out.scenario.sender.rtoRfc6298);
    ASSERT_EQ(out.notes.size(), 2u);
    EXPECT_EQ(out.notes[0], "sender.rto: Linux's bound, srtt + max(4 rttvar, min_rto) (no timeout in the capture to "
                            "read it from)");
    EXPECT_EQ(out.notes[1], "sender.rack_tlp on: Linux's loss recovery (RFC 8985) with its reno model");
}

// A segment or two lost first time alone is placed where the capture lost it; an
// outage timeline, or more lone losses, leave them to the outages and the loss fit.
TEST(DerivationSteps, LoneLossesPlacedOnlyWithoutOutages)
{
    Synthetic in;
    DerivationContext ctx;
    ctx.sackReadings.firstTransmissionLosses = 4;
    ctx.sackReadings.loneLosses.push_back({.segment = 17, .queueBeforeMs = 1.5, .sequence = 17 * 1448});
    DerivedScenario out;
    placeLoneLosses(in.input(), ctx, out);
    ASSERT_EQ(out.scenario.path.lostSegments.size(), 1u);
    EXPECT_EQ(out.scenario.path.lostSegments[0], 17);
    EXPECT_EQ(out.notes.back(), "path.lost_segments: segment 17 lost first time alone (of 4 lost first time), the "
                                "queue 1.5 ms, under half the fullest a loss met");

    DerivedScenario withOutage;
    withOutage.scenario.outageList.push_back(Outage{});
    placeLoneLosses(in.input(), ctx, withOutage);
    EXPECT_TRUE(withOutage.scenario.path.lostSegments.empty());

    for (int i = 0; i < 2; ++i)
        ctx.sackReadings.loneLosses.push_back({.segment = 30 + i, .queueBeforeMs = 1, .sequence = 0});
    DerivedScenario many;
    placeLoneLosses(in.input(), ctx, many);
    EXPECT_TRUE(many.scenario.path.lostSegments.empty());
}

// Arrivals downstream of a 1 Mb/s bottleneck (one MSS every 11.584 ms) for 10 s. With
// holdMs > 0, a station away for holdMs every 200 ms from 0.3 s: the data due inside
// an absence comes out when it ends, 0.3 ms apart (802.11a at 48 Mb/s); with
// heldReleased false the data is instead late as a whole (a sender that paused), still
// at the bottleneck's pace.
std::vector<TransmissionTime> arrivalsWithAbsences(double holdMs, bool heldReleased)
{
    const double spacingS = kMss * 8 / 1e6;
    std::vector<TransmissionTime> out;
    double shiftS = 0;
    int releasedSoFar = 0;
    for (double t = 0; t < 10; t += spacingS) {
        double at = t + shiftS;
        const double sinceScanS = std::fmod(at - 0.3, 0.2);
        if (holdMs > 0 && at >= 0.3 && sinceScanS < holdMs / 1000) {
            const double endS = at - sinceScanS + holdMs / 1000;
            if (heldReleased)
                at = endS + 0.0003 * releasedSoFar++;
            else
                shiftS += endS - at, at = endS;
        } else {
            releasedSoFar = 0;
        }
        out.push_back({at, false});
    }
    std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.timeS < b.timeS; });
    return out;
}

// The receiver's answer to each arrival, 0.1 ms later (capture ns, bytes delivered):
// the station is there; none after untilS.
std::vector<std::pair<std::int64_t, std::int64_t>> receiverAcks(const std::vector<TransmissionTime>& arrivals,
                                                                 double untilS = 1e9)
{
    std::vector<std::pair<std::int64_t, std::int64_t>> acks;
    std::int64_t delivered = 0;
    for (const TransmissionTime& a : arrivals)
        if (a.timeS < untilS)
            acks.emplace_back(static_cast<std::int64_t>((a.timeS + 1e-4) * 1e9), delivered += kMss);
    return acks;
}

// Data released faster than the bottleneck after silences that repeat: a periodic scan
// the AP held frames through, read in power-save-announced mode: every 200 ms, the
// dwell from the silences less half a delivery interval, the first one moved by the
// wired delay to the radio.
TEST(DerivationSteps, HeldReleasesReadAPeriodicScanFromTheDataArrivals)
{
    Synthetic in;
    DerivationContext ctx;
    ctx.rateMbps = 1;
    ctx.downstream.downstream = true;
    ctx.downstream.arrivals = arrivalsWithAbsences(50, true);
    ctx.ackProgress = receiverAcks(ctx.downstream.arrivals);
    DerivedScenario out;
    out.scenario.sender.mss = kMss;
    out.scenario.path.wiredDelayMs = 20;
    deriveHeldReleases(in.input(), ctx, out);
    const PeriodicScan& scan = out.scenario.periodicScan;
    EXPECT_NEAR(scan.intervalMs, 200, 0.5);
    EXPECT_NEAR(scan.dwellMs, 50, 3);
    EXPECT_NEAR(scan.firstS, 0.3 + 0.020, 0.006);
    EXPECT_EQ(scan.mode, OutageMode::PsAnnounced);
    EXPECT_TRUE(test::anyNote(out.notes, "periodic_scan: ")) << (out.notes.empty() ? "" : out.notes.back());

    // The rate read before the holds were known counted the releases' windows (here as
    // if it had read 1.5 Mb/s): read again without them, it is the path's 1 Mb/s, and
    // the queue it sized shrinks with it.
    DerivedScenario inflated;
    inflated.scenario.sender.mss = kMss;
    inflated.scenario.path.bottleneckMbps = 1.5 * (kMss + 52) / kMss;
    inflated.scenario.path.queueBytes = 150000;
    DerivationContext inflatedCtx = ctx;
    inflatedCtx.rateMbps = 1.5;
    deriveHeldReleases(in.input(), inflatedCtx, inflated);
    EXPECT_NEAR(inflatedCtx.rateMbps, 1.0, 0.02);
    EXPECT_NEAR(inflated.scenario.path.bottleneckMbps, 1.0 * (kMss + 52) / kMss, 0.02);
    EXPECT_NEAR(static_cast<double>(inflated.scenario.path.queueBytes), 100000, 2000);
    EXPECT_NEAR(inflated.scenario.periodicScan.intervalMs, 200, 0.5);

    // A rate read low (0.5 Mb/s against the path's 1): the data outside the silences
    // beats it too, so it bounds nothing and no scan is read.
    DerivedScenario slow;
    slow.scenario.sender.mss = kMss;
    DerivationContext slowCtx = ctx;
    slowCtx.rateMbps = 0.5;
    deriveHeldReleases(in.input(), slowCtx, slow);
    EXPECT_EQ(slow.scenario.periodicScan.intervalMs, 0);
    EXPECT_TRUE(test::anyNote(slow.notes, "held releases: ")) << (slow.notes.empty() ? "" : slow.notes.back());

    // The same silences ended at the bottleneck's pace (the sender paused): no hold.
    ctx.downstream.arrivals = arrivalsWithAbsences(50, false);
    ctx.ackProgress = receiverAcks(ctx.downstream.arrivals);
    DerivedScenario paused;
    paused.scenario.sender.mss = kMss;
    deriveHeldReleases(in.input(), ctx, paused);
    EXPECT_EQ(paused.scenario.periodicScan.intervalMs, 0);

    // Absences of 8 ms: shorter than two of the longest 802.11n PPDUs, not told from
    // an aggregate's airtime.
    ctx.downstream.arrivals = arrivalsWithAbsences(8, true);
    ctx.ackProgress = receiverAcks(ctx.downstream.arrivals);
    DerivedScenario shortHolds;
    shortHolds.scenario.sender.mss = kMss;
    deriveHeldReleases(in.input(), ctx, shortHolds);
    EXPECT_EQ(shortHolds.scenario.periodicScan.intervalMs, 0);

    // The station gone before the first silence (a handoff away from this AP): nothing
    // the AP sends after it is answered, and its silences are no holds.
    ctx.downstream.arrivals = arrivalsWithAbsences(50, true);
    ctx.ackProgress = receiverAcks(ctx.downstream.arrivals, 0.3);
    DerivedScenario gone;
    gone.scenario.sender.mss = kMss;
    deriveHeldReleases(in.input(), ctx, gone);
    EXPECT_EQ(gone.scenario.periodicScan.intervalMs, 0);

    // Upstream of the radio the ACKs cross the 802.11 uplink: without round trips that
    // show the data waiting, nothing is read from their silences.
    ctx.ackProgress = receiverAcks(ctx.downstream.arrivals);
    ctx.downstream.downstream = false;
    DerivedScenario upstream;
    upstream.scenario.sender.mss = kMss;
    deriveHeldReleases(in.input(), ctx, upstream);
    EXPECT_EQ(upstream.scenario.periodicScan.intervalMs, 0);
}

namespace {

// An 802.11 capture of a data exchange: data frames at dataMbps, each answered by an
// ACK at ackMbps (0: the radio header gives no rate), 1 ms apart.
void addExchanges(dissect::WlanColumns& w, double dataMbps, double ackMbps, int count, bool qos = false)
{
    const std::uint32_t set = w.addressSets.intern({{{1, 2, 3}}});
    for (int i = 0; i < 2 * count; ++i) {
        const bool data = i % 2 == 0;
        w.frame.push_back(static_cast<std::uint64_t>(w.frame.size() + 1));
        w.timeNs.push_back(static_cast<std::int64_t>(i) * 500'000);
        w.frameControl.push_back(data ? (qos ? 0x0288 : 0x0208) : 0x00d4); // from DS (QoS) data; ACK
        w.sequenceControl.push_back(data ? static_cast<std::uint16_t>(i << 3) : 0xffff);
        w.duration.push_back(0);
        w.addresses.push_back(set);
        w.signalDbm.push_back(-40);
        w.radioFlags.push_back(0);
        w.mcs.push_back(0xff);
        w.dataRateKbps.push_back(static_cast<std::uint32_t>((data ? dataMbps : ackMbps) * 1000));
        w.channelFreqMhz.push_back(data && dataMbps <= 11 ? 2412 : 5180);
        w.ampduReference.push_back(0);
        w.status.push_back(0);
    }
}

} // namespace

// The air's timing follows the PHY the frames show: 6 and 9 Mb/s are OFDM rates
// (802.11a/g: 20 us preamble, 9 us slots, CWmin 15), not DSSS ones; control frames go
// at the rate the capture shows them at, else at the highest mandatory rate of the
// modulation at or below the data's. A rate the air nearly reaches makes the air the
// bottleneck, so the MAC model runs.
TEST(DerivationSteps, RadioTimingFollowsThePhyTheFramesShow)
{
    struct Case
    {
        double dataMbps, ackMbps;
        double preambleUs, slotUs, basicMbps;
        std::uint32_t cwMin;
    };
    const Case cases[] = {
        {6, 6, 20, 9, 6, 15},    // 802.11a at its lowest rate: OFDM
        {9, 0, 20, 9, 6, 15},    // no ACK rate shown: 6, the mandatory rate below 9
        {24, 0, 20, 9, 24, 15},  // 24 is itself mandatory
        {36, 12, 20, 9, 12, 15}, // the ACKs' own rate
        {11, 2, 192, 20, 2, 31}, // 802.11b: DSSS, long preamble
    };
    for (const Case& c : cases) {
        Synthetic in;
        in.tables.conversations.emplace_back(); // the connection's, with no relayed copies
        addExchanges(in.tables.wlan, c.dataMbps, c.ackMbps, 20);
        DerivationContext ctx;
        // A delivered rate above 80 % of what the air carries for TCP at that rate (0.6 to
        // 0.8 of it) names the air the bottleneck.
        ctx.rateMbps = 0.7 * c.dataMbps;
        DerivedScenario out;
        out.scenario.sender.mss = kMss;
        deriveMac(in.input(), ctx, out);
        const MacParams& mac = out.scenario.mac;
        ASSERT_TRUE(mac.enabled) << c.dataMbps << (out.notes.empty() ? "" : ": " + out.notes.back());
        EXPECT_EQ(mac.phyRateMbps, c.dataMbps);
        EXPECT_EQ(mac.preambleUs, c.preambleUs) << c.dataMbps;
        EXPECT_EQ(mac.slotUs, c.slotUs) << c.dataMbps;
        EXPECT_EQ(mac.cwMin, c.cwMin) << c.dataMbps;
        EXPECT_EQ(mac.basicRateMbps, c.basicMbps) << c.dataMbps;
        EXPECT_EQ(mac.symbolUs, c.preambleUs == 20 ? 4 : 0) << c.dataMbps;
        // Data frames without QoS: DCF's DIFS (SIFS + 2 slots) and a 24-byte header.
        EXPECT_EQ(mac.aifsSlots, 2u) << c.dataMbps;
        EXPECT_EQ(mac.macOverheadBytes, 36u) << c.dataMbps;
    }
}

// QoS Data frames: the stations contend with EDCA, best effort's AIFSN of 3 slots, and
// carry the 2-byte QoS Control field.
TEST(DerivationSteps, QosDataFramesContendWithEdcaBestEffort)
{
    Synthetic in;
    in.tables.conversations.emplace_back();
    addExchanges(in.tables.wlan, 24, 24, 20, true);
    DerivationContext ctx;
    ctx.rateMbps = 0.7 * 24;
    DerivedScenario out;
    out.scenario.sender.mss = kMss;
    deriveMac(in.input(), ctx, out);
    ASSERT_TRUE(out.scenario.mac.enabled);
    EXPECT_EQ(out.scenario.mac.aifsSlots, 3u);
    EXPECT_EQ(out.scenario.mac.macOverheadBytes, 38u);
    EXPECT_TRUE(test::anyNote(out.notes, "mac: 802.11 model at 24.0 Mb/s (median data-frame rate), A-MPDU of 1, EDCA"));
}
