// SPDX-License-Identifier: GPL-3.0-or-later
// TCP analysis on small hand-made situations (each expectation follows the condition
// in Wireshark 4.0's tcp_analyze_sequence_number() that it exercises), on the small
// chrissanders captures (flags as tshark 4.0.17 shows them), on the kurose trace
// (statistics cross-checked with `tshark -z conv,tcp` and tcp.len sums) and on the
// lab's Linux runs, whose timeouts.csv is the kernel's own record of every RTO.
#include "dissector_test_kit.h"

#include "analysis/tcp/tcp_analysis.h"
#include "analysis/tcp/unacked_segments.h"
#include "dissectors/ingest.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <random>
#include <sstream>

using namespace windscope;
using namespace windscope::analysis;
namespace sf = windscope::analysis::segment_flag;
using windscope::test::ingestOrFail;

namespace {

// Capture times (epoch seconds) of the segments the analysis flags as RTO timeouts.
std::vector<double> rtoTimeoutEpochs(const windscope::dissect::CaptureTables& t, const windscope::analysis::TcpAnalysis& a)
{
    std::vector<double> out;
    for (std::size_t row = 0; row < t.tcp.size(); ++row)
        if (a.segments.flags[row] & windscope::analysis::segment_flag::kRtoTimeout)
            out.push_back(static_cast<double>(t.summary.firstEpochNs + t.tcp.timeNs[row]) / 1e9);
    return out;
}

constexpr std::uint16_t kFin = 0x01, kSyn = 0x02, kPsh = 0x08, kAck = 0x10;
constexpr std::int64_t kMs = 1'000'000;

// One hand-made segment. Endpoint a (10.0.0.1:80) is the lower endpoint of the
// conversation key, b (10.0.0.2:51000 + conversation) the higher.
struct Seg
{
    bool fromB = false;
    std::uint32_t seq = 0, ack = 0;
    std::uint16_t flags = kAck;
    std::uint16_t window = 1000;
    std::uint32_t len = 0;
    double ms = 0; // since the first packet
    std::int8_t wscale = -1;
    std::uint16_t mss = 0;
    bool sackPermitted = false;
    std::vector<std::uint32_t> sack = {}; // left/right pairs
    bool ts = false;
    std::uint32_t tsVal = 0, tsEcr = 0;
    std::uint32_t conversation = 0;
};

class Script
{
public:
    explicit Script(std::uint32_t conversations = 1)
    {
        dissect::IpAddress a, b;
        a.family = b.family = 4;
        a.bytes[0] = b.bytes[0] = 10;
        a.bytes[3] = 1;
        b.bytes[3] = 2;
        const std::uint32_t ia = m_tables.ipAddresses.intern(a);
        const std::uint32_t ib = m_tables.ipAddresses.intern(b);
        for (std::uint32_t c = 0; c < conversations; ++c)
            m_tables.conversations.push_back({ia, ib, 80, static_cast<std::uint16_t>(51000 + c)});
        // Absolute times far from zero, as in real captures.
        m_tables.summary.firstEpochNs = 1'700'000'000LL * 1'000'000'000LL;
    }

    std::size_t add(const Seg& s)
    {
        dissect::TcpColumns& t = m_tables.tcp;
        std::uint32_t side = dissect::TcpColumns::kNoSideOptions;
        if (s.mss || s.wscale >= 0 || s.sackPermitted || !s.sack.empty()) {
            dissect::TcpSideOptions o;
            o.mss = s.mss;
            o.windowScale = s.wscale;
            o.sackPermitted = s.sackPermitted;
            o.sackBlockCount = static_cast<std::uint8_t>(s.sack.size() / 2);
            std::copy(s.sack.begin(), s.sack.end(), o.sackBlocks.begin());
            side = static_cast<std::uint32_t>(m_tables.tcpSideOptions.size());
            m_tables.tcpSideOptions.push_back(o);
        }
        std::uint16_t flags = s.flags;
        if (s.fromB)
            flags |= dissect::TcpColumns::kDirectionBit;
        if (s.ts)
            flags |= dissect::TcpColumns::kHasTimestamps;
        t.append({++m_frame, static_cast<std::int64_t>(std::llround(s.ms * 1e6)), s.conversation,
                  s.seq, s.ack, s.window, flags, s.len, s.tsVal, s.tsEcr, side});
        return t.size() - 1;
    }

    // A segment that ingest left out as an 802.11 retry (it takes a frame number).
    void addMacRetry(bool fromB, double ms, std::uint32_t conversation = 0)
    {
        m_tables.macDuplicateTcp.push_back(
            {++m_frame, static_cast<std::int64_t>(std::llround(ms * 1e6)), conversation, fromB});
    }

    const dissect::CaptureTables& tables() const { return m_tables; }
    TcpAnalysis analyze(const TcpAnalysisOptions& options = {}) const
    {
        return analyzeTcp(m_tables, options);
    }

private:
    dissect::CaptureTables m_tables;
    std::uint64_t m_frame = 0;
};

std::uint32_t wireshark(std::uint32_t flags)
{
    return flags & sf::kWiresharkMask;
}

std::uint32_t dupAckNumber(const TcpAnalysis& a, std::size_t row)
{
    for (const auto& [r, n] : a.segments.dupAckNumber)
        if (r == row)
            return n;
    return 0;
}

std::size_t rowOfFrame(const dissect::CaptureTables& t, std::uint64_t frame)
{
    const auto it = std::find(t.tcp.frame.begin(), t.tcp.frame.end(), frame);
    return static_cast<std::size_t>(it - t.tcp.frame.begin());
}

} // namespace

TEST(TcpAnalysis, HandshakeFactsWindowScalingAndRtt)
{
    Script s;
    // Client b opens with wscale 7, server a answers with wscale 8; both use timestamps.
    s.add({.fromB = true,
           .seq = 1000,
           .flags = kSyn,
           .window = 64240,
           .ms = 0,
           .wscale = 7,
           .mss = 1460,
           .sackPermitted = true,
           .ts = true,
           .tsVal = 100});
    s.add({.seq = 5000,
           .ack = 1001,
           .flags = kSyn | kAck,
           .window = 65160,
           .ms = 20,
           .wscale = 8,
           .mss = 1400,
           .sackPermitted = true,
           .ts = true,
           .tsVal = 7000,
           .tsEcr = 100});
    s.add({.fromB = true,
           .seq = 1001,
           .ack = 5001,
           .window = 502,
           .ms = 40,
           .ts = true,
           .tsVal = 101,
           .tsEcr = 7000});
    const std::size_t data = s.add({.fromB = true,
                                    .seq = 1001,
                                    .ack = 5001,
                                    .flags = kAck | kPsh,
                                    .window = 502,
                                    .len = 100,
                                    .ms = 41,
                                    .ts = true,
                                    .tsVal = 102,
                                    .tsEcr = 7000});
    const std::size_t ack = s.add({.seq = 5001,
                                   .ack = 1101,
                                   .window = 509,
                                   .ms = 61,
                                   .ts = true,
                                   .tsVal = 7020,
                                   .tsEcr = 102});
    const TcpAnalysis a = s.analyze();
    const dissect::CaptureTables& t = s.tables();

    ASSERT_EQ(a.connections.size(), 1u);
    const Connection& c = a.connections[0];
    // Endpoint 0 is the client (b), although a is the conversation's first endpoint.
    EXPECT_EQ(c.address[0], t.conversations[0].addrB);
    EXPECT_EQ(c.port[0], 51000);
    EXPECT_EQ(c.port[1], 80);
    EXPECT_TRUE(c.handshakeSeen);
    EXPECT_TRUE(c.windowScaleKnown);
    EXPECT_EQ(c.windowScale[0], 7);
    EXPECT_EQ(c.windowScale[1], 8);
    EXPECT_EQ(c.mss[0], 1460);
    EXPECT_EQ(c.mss[1], 1400);
    EXPECT_TRUE(c.sackPermitted);
    EXPECT_TRUE(c.timestamps);
    EXPECT_EQ(c.handshakeRttNs, 40 * kMs);
    EXPECT_EQ(c.segments, 5u);
    EXPECT_EQ(a.directionOf(t, data), 0);
    EXPECT_EQ(a.directionOf(t, ack), 1);

    // SYNs are never scaled; afterwards each side's own shift applies (tcp.window_size).
    EXPECT_EQ(a.windowBytes(t.tcp, 0), 64240u);
    EXPECT_EQ(a.windowBytes(t.tcp, 1), 65160u);
    EXPECT_EQ(a.windowBytes(t.tcp, 2), 502u << 7);
    EXPECT_EQ(a.windowBytes(t.tcp, ack), 509u << 8);
    // Relative numbers as tcp.seq / tcp.ack.
    EXPECT_EQ(a.relativeSeq(t.tcp, 0), 0);
    EXPECT_EQ(a.relativeSeq(t.tcp, data), 1);
    EXPECT_EQ(a.relativeAck(t.tcp, data), 1);
    EXPECT_EQ(a.relativeAck(t.tcp, ack), 101);
    EXPECT_EQ(a.segments.bytesInFlight[data], 100u);
    for (std::size_t row = 0; row < t.tcp.size(); ++row)
        EXPECT_EQ(wireshark(a.segments.flags[row]), 0u) << "row " << row;

    // RTT: SYN and data of the client, SYN-ACK of the server, each 20 ms, by seq/ack
    // and by timestamps alike; the statistics use the seq/ack samples.
    EXPECT_EQ(a.rtt.size(), 6u);
    for (const RttSample& r : a.rtt)
        EXPECT_EQ(r.rttNs(t.tcp), 20 * kMs);
    const DirectionStats& client = c.direction[0];
    EXPECT_EQ(client.rttAckSamples, 2u);
    EXPECT_EQ(client.rttTimestampSamples, 2u);
    EXPECT_EQ(client.rttSamples, 2u);
    EXPECT_FALSE(client.rttFromTimestamps);
    EXPECT_DOUBLE_EQ(client.rttMinMs, 20.0);
    EXPECT_DOUBLE_EQ(client.rttAvgMs, 20.0);
    EXPECT_DOUBLE_EQ(client.rttMaxMs, 20.0);
    EXPECT_NEAR(client.rttStddevMs, 0.0, 1e-9);
    EXPECT_EQ(c.direction[1].rttAckSamples, 1u);
    EXPECT_EQ(client.dataBytes, 100u);
    EXPECT_EQ(client.uniqueBytes, 100u);
    EXPECT_EQ(client.synCount, 1u);
    EXPECT_EQ(client.packets, 3u);
    EXPECT_EQ(c.direction[1].packets, 2u);
    EXPECT_EQ(client.maxWindowBytes, 64256u);
}

TEST(TcpAnalysis, MissingHandshakeLeavesWindowsUnscaled)
{
    Script s;
    s.add({.seq = 100, .ack = 1, .window = 50, .len = 10, .ms = 0});
    s.add({.fromB = true, .seq = 1, .ack = 110, .window = 60, .ms = 5});
    const TcpAnalysis a = s.analyze();
    ASSERT_EQ(a.connections.size(), 1u);
    const Connection& c = a.connections[0];
    EXPECT_FALSE(c.handshakeSeen);
    EXPECT_FALSE(c.windowScaleKnown);
    EXPECT_EQ(c.windowScale[0], -1);
    EXPECT_EQ(c.handshakeRttNs, -1);
    // Without a SYN the first sender is endpoint 0.
    EXPECT_EQ(c.address[0], s.tables().conversations[0].addrA);
    EXPECT_EQ(a.windowBytes(s.tables().tcp, 0), 50u);
    EXPECT_EQ(a.windowBytes(s.tables().tcp, 1), 60u);
    EXPECT_EQ(a.relativeSeq(s.tables().tcp, 0), 1); // base_seq = seq - 1 (Wireshark bug 1542)
    EXPECT_EQ(a.relativeAck(s.tables().tcp, 1), 11);
}

TEST(TcpAnalysis, DuplicateAcksThenFastRetransmission)
{
    Script s;
    s.add({.seq = 1000, .ack = 1, .len = 100, .ms = 0});
    // 1100 is never captured.
    const std::size_t afterHole = s.add({.seq = 1200, .ack = 1, .len = 100, .ms = 1});
    s.add({.seq = 1300, .ack = 1, .len = 100, .ms = 2});
    s.add({.fromB = true, .seq = 1, .ack = 1100, .ms = 10});
    const std::vector<std::uint32_t> sack = {1200, 1400};
    const std::size_t dup1 = s.add({.fromB = true, .seq = 1, .ack = 1100, .ms = 11, .sack = sack});
    const std::size_t dup2 = s.add({.fromB = true, .seq = 1, .ack = 1100, .ms = 12, .sack = sack});
    const std::size_t dup3 = s.add({.fromB = true, .seq = 1, .ack = 1100, .ms = 13, .sack = sack});
    const std::size_t fast = s.add({.seq = 1100, .ack = 1, .len = 100, .ms = 14});
    s.add({.fromB = true, .seq = 1, .ack = 1400, .ms = 24});
    const TcpAnalysis a = s.analyze();

    EXPECT_EQ(wireshark(a.segments.flags[afterHole]), sf::kLostSegment);
    // No bytes in flight until the other side ACKs again after a hole.
    EXPECT_EQ(a.segments.bytesInFlight[afterHole], 0u);
    for (std::size_t row : {dup1, dup2, dup3})
        EXPECT_EQ(wireshark(a.segments.flags[row]), sf::kDuplicateAck) << "row " << row;
    EXPECT_EQ(dupAckNumber(a, dup1), 1u);
    EXPECT_EQ(dupAckNumber(a, dup2), 2u);
    EXPECT_EQ(dupAckNumber(a, dup3), 3u);
    EXPECT_EQ(a.segments.flags[fast], sf::kFastRetransmission | sf::kRetransmission);
    // 1100..1400 outstanding minus the SACKed 1200..1400.
    EXPECT_EQ(a.segments.bytesInFlight[fast], 100u);
    const Connection& c = a.connections[0];
    EXPECT_EQ(c.direction[0].fastRetransmissions, 1u);
    EXPECT_EQ(c.direction[0].retransmissions, 1u);
    EXPECT_EQ(c.direction[0].retransmittedBytes, 100u);
    EXPECT_EQ(c.direction[0].rtoTimeouts, 0u);
    EXPECT_EQ(c.direction[0].lostSegments, 1u);
    EXPECT_EQ(c.direction[1].dupAcks, 3u);
    EXPECT_EQ(c.direction[1].sackPackets, 3u);
    EXPECT_TRUE(c.sackPermitted); // SACK blocks seen
}

TEST(TcpAnalysis, RetransmissionAfterSilenceIsRtoTimeout)
{
    Script s;
    s.add({.seq = 1000, .ack = 1, .len = 100, .ms = 0});
    s.add({.seq = 1100, .ack = 1, .len = 100, .ms = 1});
    const std::size_t timeout = s.add({.seq = 1000, .ack = 1, .len = 100, .ms = 301});
    const std::size_t ack = s.add({.fromB = true, .seq = 1, .ack = 1100, .ms = 302});
    const std::size_t next = s.add({.seq = 1100, .ack = 1, .len = 100, .ms = 310});
    const TcpAnalysis a = s.analyze();
    EXPECT_EQ(a.segments.flags[timeout], sf::kRetransmission | sf::kRtoTimeout);
    // 9 ms after the previous transmission: a retransmission, not a timeout.
    EXPECT_EQ(a.segments.flags[next], sf::kRetransmission);
    const DirectionStats& d = a.connections[0].direction[0];
    EXPECT_EQ(d.retransmissions, 2u);
    EXPECT_EQ(d.rtoTimeouts, 1u);
    EXPECT_EQ(d.dataBytes, 400u);
    EXPECT_EQ(d.uniqueBytes, 200u);
    // Karn: the ACK covers re-sent data, so it gives no sample.
    for (const RttSample& r : a.rtt)
        EXPECT_NE(r.ackRow(), ack);
}

TEST(TcpAnalysis, RtoThresholdFollowsSmoothedRtt)
{
    // With SRTT = 400 ms the timer cannot fire after 300 ms of silence.
    Script s;
    s.add({.seq = 1000, .ack = 1, .len = 100, .ms = 0});
    s.add({.fromB = true, .seq = 1, .ack = 1100, .ms = 400});
    s.add({.seq = 1100, .ack = 1, .len = 100, .ms = 401});
    s.add({.seq = 1200, .ack = 1, .len = 100, .ms = 402});
    const std::size_t retransmission = s.add({.seq = 1100, .ack = 1, .len = 100, .ms = 702});
    const TcpAnalysis a = s.analyze();
    EXPECT_EQ(a.segments.flags[retransmission], sf::kRetransmission);
    TcpAnalysisOptions low;
    low.rtoSrttFactor = 0.5;
    const TcpAnalysis b = s.analyze(low);
    // SRTT + 4 * RTTVAR = 400 + 4 * 200 ms still exceeds 300 ms.
    EXPECT_EQ(b.segments.flags[retransmission], sf::kRetransmission);
}

// A timeout inside a loss recovery: the sender keeps resending while duplicate ACKs
// arrive, so it never falls silent, but the head's fast retransmission goes unanswered
// for the minimum RTO and is sent again; after it the sender answers no duplicate ACK
// (one segment of window) until the head is acknowledged.
TEST(TcpAnalysis, HeadResentAfterTheMinimumRtoInRecoveryIsRtoTimeout)
{
    const auto script = [](bool answersDupAck) {
        Script s;
        for (std::uint32_t i = 0; i < 5; ++i)
            s.add({.seq = 1000 + 100 * i, .ack = 1, .len = 100, .ms = static_cast<double>(i)});
        for (int i = 0; i < 3; ++i)
            s.add({.fromB = true, .seq = 1, .ack = 1000, .ms = 50.0 + i});
        s.add({.seq = 1000, .ack = 1, .len = 100, .ms = 52.5}); // fast retransmission
        s.add({.fromB = true, .seq = 1, .ack = 1000, .ms = 53});
        s.add({.seq = 1500, .ack = 1, .len = 100, .ms = 53.1});
        s.add({.fromB = true, .seq = 1, .ack = 1000, .ms = 150});
        s.add({.seq = 1100, .ack = 1, .len = 100, .ms = 150.1}); // still busy resending
        const std::size_t again = s.add({.seq = 1000, .ack = 1, .len = 100, .ms = 262.5});
        s.add({.fromB = true, .seq = 1, .ack = 1000, .ms = 263});
        if (answersDupAck)
            s.add({.seq = 1600, .ack = 1, .len = 100, .ms = 263.1});
        s.add({.fromB = true, .seq = 1, .ack = 1600, .ms = 320});
        return std::make_pair(s.analyze(), again);
    };
    const auto [timeout, again] = script(false);
    EXPECT_TRUE(timeout.segments.flags[again] & sf::kRtoTimeout);
    EXPECT_EQ(timeout.connections[0].direction[0].rtoTimeouts, 1u);
    // A sender that answers the next duplicate ACK still has a window: a recovery
    // resending a lost retransmission (RACK), not a timeout.
    const auto [recovery, resent] = script(true);
    EXPECT_FALSE(recovery.segments.flags[resent] & sf::kRtoTimeout);
    EXPECT_EQ(recovery.connections[0].direction[0].rtoTimeouts, 0u);
}

TEST(TcpAnalysis, PortReuseOpensNewConnection)
{
    Script s;
    s.add({.fromB = true, .seq = 1000, .flags = kSyn, .ms = 0});
    s.add({.seq = 5000, .ack = 1001, .flags = kSyn | kAck, .ms = 1});
    s.add({.fromB = true, .seq = 1001, .ack = 5001, .ms = 2});
    s.add({.fromB = true, .seq = 1001, .ack = 5001, .flags = kFin | kAck, .ms = 3});
    s.add({.seq = 5001, .ack = 1002, .flags = kFin | kAck, .ms = 4});
    s.add({.fromB = true, .seq = 1002, .ack = 5002, .ms = 5});
    s.addMacRetry(true, 5.5);
    const std::size_t reuse = s.add({.fromB = true, .seq = 9000, .flags = kSyn, .ms = 1000});
    s.add({.seq = 7000, .ack = 9001, .flags = kSyn | kAck, .ms = 1001});
    s.add({.fromB = true, .seq = 9001, .ack = 7001, .ms = 1002});
    s.addMacRetry(false, 1003);
    const TcpAnalysis a = s.analyze();
    ASSERT_EQ(a.connections.size(), 2u);
    for (std::size_t row = 0; row < s.tables().tcp.size(); ++row)
        EXPECT_EQ(a.segments.connection[row], row < reuse ? 0u : 1u) << "row " << row;
    EXPECT_EQ(a.segments.flags[reuse], sf::kPortReuse);
    EXPECT_EQ(a.connections[0].id, 0u);
    EXPECT_EQ(a.connections[1].id, 1u);
    EXPECT_EQ(a.connections[1].firstFrame, 8u);
    EXPECT_EQ(a.connections[0].direction[0].finCount, 1u);
    EXPECT_EQ(a.connections[0].direction[1].finCount, 1u);
    // The retries go to the connection active at their time, in their direction.
    EXPECT_EQ(a.connections[0].direction[0].macRetriesExcluded, 1u);
    EXPECT_EQ(a.connections[1].direction[1].macRetriesExcluded, 1u);
    EXPECT_EQ(a.connections[1].direction[0].macRetriesExcluded, 0u);
}

TEST(TcpAnalysis, RepeatedSynIsRetransmissionNotReuse)
{
    Script s;
    s.add({.fromB = true, .seq = 1000, .flags = kSyn, .ms = 0});
    const std::size_t again = s.add({.fromB = true, .seq = 1000, .flags = kSyn, .ms = 1000});
    const TcpAnalysis a = s.analyze();
    ASSERT_EQ(a.connections.size(), 1u);
    EXPECT_EQ(a.segments.flags[again], sf::kRetransmission | sf::kRtoTimeout);
    EXPECT_FALSE(a.connections[0].handshakeSeen);
    EXPECT_EQ(a.connections[0].direction[0].synCount, 2u);
}

TEST(TcpAnalysis, ZeroWindowProbeAckAndWindowUpdate)
{
    Script s;
    s.add({.seq = 1000, .ack = 1, .len = 100, .ms = 0});
    const std::size_t zero = s.add({.fromB = true, .seq = 1, .ack = 1100, .window = 0, .ms = 10});
    const std::size_t probe = s.add({.seq = 1100, .ack = 1, .len = 1, .ms = 500});
    const std::size_t probeAck =
        s.add({.fromB = true, .seq = 1, .ack = 1100, .window = 0, .ms = 510});
    const std::size_t update =
        s.add({.fromB = true, .seq = 1, .ack = 1100, .window = 2000, .ms = 900});
    const std::size_t resume = s.add({.seq = 1100, .ack = 1, .len = 100, .ms = 901});
    const TcpAnalysis a = s.analyze();
    EXPECT_EQ(wireshark(a.segments.flags[zero]), sf::kZeroWindow);
    EXPECT_EQ(a.segments.flags[probe], sf::kZeroWindowProbe);
    // The zero window check comes before the probe-ACK check, which ends the checks.
    EXPECT_EQ(wireshark(a.segments.flags[probeAck]), sf::kZeroWindow | sf::kZeroWindowProbeAck);
    EXPECT_EQ(wireshark(a.segments.flags[update]), sf::kWindowUpdate);
    // The probe did not advance nextseq, so the data after it is not a retransmission.
    EXPECT_EQ(wireshark(a.segments.flags[resume]), 0u);
    const Connection& c = a.connections[0];
    EXPECT_EQ(c.direction[1].zeroWindows, 2u);
    EXPECT_EQ(c.direction[0].zeroWindowProbes, 1u);
    EXPECT_EQ(c.direction[1].windowUpdates, 1u);
}

TEST(TcpAnalysis, KeepAliveAndItsAck)
{
    Script s;
    s.add({.seq = 1000, .ack = 1, .len = 100, .ms = 0});
    s.add({.fromB = true, .seq = 1, .ack = 1100, .ms = 10});
    const std::size_t keepAlive = s.add({.seq = 1099, .ack = 1, .ms = 60000});
    const std::size_t keepAliveAck = s.add({.fromB = true, .seq = 1, .ack = 1100, .ms = 60010});
    const TcpAnalysis a = s.analyze();
    EXPECT_EQ(wireshark(a.segments.flags[keepAlive]), sf::kKeepAlive);
    EXPECT_EQ(wireshark(a.segments.flags[keepAliveAck]), sf::kKeepAliveAck);
    EXPECT_EQ(a.connections[0].direction[0].keepAlives, 1u);
}

TEST(TcpAnalysis, WindowFullAtTheReceiversRightEdge)
{
    Script s;
    // No window scale option in the SYN: neither side scales (-2), so the check runs.
    s.add({.fromB = true, .seq = 1000, .flags = kSyn, .window = 1000, .ms = 0});
    s.add({.seq = 5000, .ack = 1001, .flags = kSyn | kAck, .window = 300, .ms = 1});
    s.add({.fromB = true, .seq = 1001, .ack = 5001, .window = 1000, .ms = 2});
    const std::size_t part = s.add({.seq = 5001, .ack = 1001, .window = 300, .len = 600, .ms = 3});
    const std::size_t full = s.add({.seq = 5601, .ack = 1001, .window = 300, .len = 400, .ms = 4});
    const TcpAnalysis a = s.analyze();
    EXPECT_TRUE(a.connections[0].windowScaleKnown);
    EXPECT_EQ(wireshark(a.segments.flags[part]), 0u);
    EXPECT_EQ(wireshark(a.segments.flags[full]), sf::kWindowFull);
    EXPECT_EQ(a.segments.bytesInFlight[full], 1000u);
}

TEST(TcpAnalysis, SpuriousRetransmissionOfAcknowledgedData)
{
    Script s;
    s.add({.seq = 1000, .ack = 1, .len = 100, .ms = 0});
    s.add({.fromB = true, .seq = 1, .ack = 1100, .ms = 10});
    const std::size_t spurious = s.add({.seq = 1000, .ack = 1, .len = 100, .ms = 500});
    const TcpAnalysis a = s.analyze();
    // tshark shows tcp.analysis.retransmission on spurious ones too.
    EXPECT_EQ(a.segments.flags[spurious],
              sf::kSpuriousRetransmission | sf::kRetransmission | sf::kRtoTimeout);
    const DirectionStats& d = a.connections[0].direction[0];
    EXPECT_EQ(d.spuriousRetransmissions, 1u);
    EXPECT_EQ(d.rtoTimeouts, 1u);
    EXPECT_EQ(d.rttSamples, 1u);
    EXPECT_DOUBLE_EQ(d.rttAvgMs, 10.0);
}

TEST(TcpAnalysis, AckedUnseenSegmentAndOutOfOrder)
{
    Script s;
    s.add({.seq = 1000, .ack = 1, .len = 100, .ms = 0});
    const std::size_t lost = s.add({.seq = 1200, .ack = 1, .len = 100, .ms = 1});
    const std::size_t late = s.add({.seq = 1100, .ack = 1, .len = 100, .ms = 2});
    const std::size_t beyond = s.add({.fromB = true, .seq = 1, .ack = 1500, .ms = 10});
    const TcpAnalysis a = s.analyze();
    EXPECT_EQ(wireshark(a.segments.flags[lost]), sf::kLostSegment);
    // Within 3 ms (no handshake RTT) of the highest segment and not filling it exactly.
    EXPECT_EQ(a.segments.flags[late], sf::kOutOfOrder);
    EXPECT_EQ(wireshark(a.segments.flags[beyond]), sf::kAckLostSegment);
    const Connection& c = a.connections[0];
    EXPECT_EQ(c.direction[0].outOfOrder, 1u);
    EXPECT_EQ(c.direction[1].ackLostSegments, 1u);
}

TEST(TcpAnalysis, LowWindowEventsCountEntries)
{
    Script s;
    s.add({.seq = 1000, .ack = 1, .len = 100, .ms = 0});
    const std::uint16_t windows[] = {1000, 400, 300, 1000, 0, 200, 600, 100};
    std::vector<std::size_t> rows;
    for (std::size_t i = 0; i < std::size(windows); ++i)
        rows.push_back(s.add({.fromB = true,
                              .seq = 1,
                              .ack = 1100,
                              .window = windows[i],
                              .ms = 10.0 + static_cast<double>(i)}));
    TcpAnalysisOptions options;
    options.lowWindowThresholdBytes = 500;
    const TcpAnalysis a = s.analyze(options);
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const bool low = windows[i] > 0 && windows[i] < 500;
        EXPECT_EQ((a.segments.flags[rows[i]] & sf::kLowWindow) != 0, low)
            << "window " << windows[i];
    }
    // normal -> low (1), low, normal, zero -> low (2), normal -> low (3)
    EXPECT_EQ(a.connections[0].direction[1].lowWindows, 3u);
    EXPECT_EQ(a.connections[0].direction[0].lowWindows, 0u);
    EXPECT_EQ(a.connections[0].lowWindowThresholdBytes, 500u);
}

TEST(TcpAnalysis, DefaultLowWindowThreshold)
{
    Script s;
    s.add({.fromB = true, .seq = 1000, .flags = kSyn, .window = 64000, .ms = 0, .mss = 1000});
    s.add({.seq = 5000, .ack = 1001, .flags = kSyn | kAck, .window = 6000, .ms = 1, .mss = 1200});
    s.add({.fromB = true, .seq = 1001, .ack = 5001, .window = 64000, .ms = 2});
    const std::size_t small =
        s.add({.fromB = true, .seq = 1001, .ack = 5001, .window = 7000, .ms = 3});
    const TcpAnalysis a = s.analyze();
    // max(2 * min MSS, largest window / 8) = max(2000, 8000).
    EXPECT_EQ(a.connections[0].lowWindowThresholdBytes, 8000u);
    EXPECT_TRUE(a.segments.flags[small] & sf::kLowWindow);
    // SYNs do not take part (their window is not scaled and not a receiver state).
    EXPECT_FALSE(a.segments.flags[1] & sf::kLowWindow);
}

TEST(TcpAnalysis, SequenceNumbersUnwrapTo64Bits)
{
    Script s;
    s.add({.seq = 0xffffff00u, .flags = kSyn, .ms = 0});
    s.add({.fromB = true, .seq = 77, .ack = 0xffffff01u, .flags = kSyn | kAck, .ms = 1});
    std::uint32_t seq = 0xffffff01u;
    std::vector<std::size_t> rows;
    constexpr std::uint32_t kChunk = 0x30000000u; // six of them exceed 2^32
    // The receiver acknowledges every chunk: without that, data 2^31 beyond its last
    // ACK would compare as below it (RFC 9293 3.4 modular order) and look spurious.
    std::vector<std::size_t> acks;
    for (int i = 0; i < 6; ++i) {
        rows.push_back(s.add({.seq = seq, .ack = 78, .len = kChunk, .ms = 2.0 + i}));
        seq += kChunk;
        acks.push_back(s.add({.fromB = true, .seq = 78, .ack = seq, .ms = 2.5 + i}));
    }
    const TcpAnalysis a = s.analyze();
    const dissect::TcpColumns& t = s.tables().tcp;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        EXPECT_EQ(a.relativeSeq(t, rows[i]), 1 + static_cast<std::int64_t>(i) * kChunk);
        EXPECT_EQ(a.relativeAck(t, acks[i]), 1 + static_cast<std::int64_t>(i + 1) * kChunk);
        EXPECT_EQ(a.relativeSeq(t, acks[i]), 1);
        EXPECT_EQ(wireshark(a.segments.flags[rows[i]]), 0u);
    }
    // The values are not stored per row: beyond 2 GiB of sequence space a checkpoint
    // takes over from the side's base, once per 2 GiB or so, for seq and ack alike.
    ASSERT_FALSE(a.segments.checkpoints.empty());
    EXPECT_LE(a.segments.checkpoints.size(), 6u);
    EXPECT_TRUE(a.segments.decode[0].hasCheckpoints);
    EXPECT_EQ(a.connections[0].direction[0].uniqueBytes, 6ull * kChunk);
}

TEST(TcpAnalysis, SegmentFlagNames)
{
    EXPECT_STREQ(segmentFlagName(sf::kRetransmission), "tcp.analysis.retransmission");
    EXPECT_STREQ(segmentFlagName(sf::kDuplicateAck), "tcp.analysis.duplicate_ack");
    EXPECT_STREQ(segmentFlagName(sf::kPortReuse), "tcp.analysis.reused_ports");
    EXPECT_STREQ(segmentFlagName(sf::kLowWindow), "low_window");
    EXPECT_STREQ(segmentFlagName(sf::kRtoTimeout), "rto_timeout");
    EXPECT_STREQ(segmentFlagName(sf::kRetransmission | sf::kLowWindow), "");
}

// The queue's fast paths against a literal transcription of Wireshark's list walk.
TEST(TcpAnalysis, UnackedSegmentsMatchWiresharksListWalk)
{
    struct Entry
    {
        std::uint32_t seq, nextSeq;
    };
    const auto gt = [](std::uint32_t x, std::uint32_t y) {
        return static_cast<std::int32_t>(y - x) < 0;
    };
    const auto le = [](std::uint32_t x, std::uint32_t y) {
        return static_cast<std::int32_t>(x - y) <= 0;
    };
    std::mt19937 engine(20240601u);
    const auto random = [&engine] { return static_cast<std::uint32_t>(engine()); };
    for (int trial = 0; trial < 200; ++trial) {
        analysis::detail::UnackedSegments fast;
        std::vector<Entry> model;
        const std::uint32_t base = static_cast<std::uint32_t>(random());
        std::uint32_t next = base + 1;
        for (int step = 0; step < 400; ++step) {
            const std::uint32_t op = random() % 10;
            if (op < 5) { // new data, sometimes a retransmission of older data
                std::uint32_t seq = next;
                const std::uint32_t len = 1 + random() % 1500;
                if (random() % 8 == 0)
                    seq = next - static_cast<std::uint32_t>(random() % 6000);
                if (model.size() < analysis::detail::UnackedSegments::kMaxSegments) {
                    fast.add(seq, seq + len);
                    model.push_back({seq, seq + len});
                }
                if (gt(seq + len, next))
                    next = seq + len;
            } else { // an acknowledgment: mostly sane, sometimes wild
                std::uint32_t ack = next - static_cast<std::uint32_t>(random() % 8000);
                if (random() % 20 == 0)
                    ack = static_cast<std::uint32_t>(random());
                if (random() % 40 == 0)
                    ack = 0;
                fast.acknowledge(ack);
                std::vector<Entry> kept;
                for (Entry e : model) {
                    if (ack == e.nextSeq)
                        continue;
                    if (gt(ack, e.seq) && le(ack, e.nextSeq)) {
                        e.seq = ack;
                        kept.push_back(e);
                    } else if (gt(e.nextSeq, ack)) {
                        kept.push_back(e);
                    }
                }
                model = kept;
            }
            ASSERT_EQ(fast.size(), model.size()) << "trial " << trial << " step " << step;
            std::uint32_t first = 0, last = 0;
            const bool any = fast.relativeSpan(base, first, last);
            ASSERT_EQ(any, !model.empty());
            if (any) {
                std::uint32_t f = model[0].seq - base, l = model[0].nextSeq - base;
                for (const Entry& e : model) {
                    f = std::min(f, e.seq - base);
                    l = std::max(l, e.nextSeq - base);
                }
                ASSERT_EQ(first, f) << "trial " << trial << " step " << step;
                ASSERT_EQ(last, l) << "trial " << trial << " step " << step;
            }
        }
    }
}

// --- Small public captures (flags as tshark 4.0.17 shows them) -------------------

TEST(TcpAnalysisCaptures, DupAckThenFastRetransmission)
{
    const auto path = test::publicCapture("chrissanders__tcp_dupack.pcapng");
    WINDSCOPE_REQUIRE_FILE(path);
    const dissect::CaptureTables t = ingestOrFail(path);
    const TcpAnalysis a = analyzeTcp(t);
    ASSERT_EQ(t.tcp.size(), 9u);
    ASSERT_EQ(a.connections.size(), 1u);
    for (std::uint64_t frame : {3u, 5u, 7u})
        EXPECT_EQ(wireshark(a.segments.flags[rowOfFrame(t, frame)]), sf::kDuplicateAck) << frame;
    EXPECT_EQ(dupAckNumber(a, rowOfFrame(t, 3)), 1u);
    EXPECT_EQ(dupAckNumber(a, rowOfFrame(t, 5)), 2u);
    EXPECT_EQ(dupAckNumber(a, rowOfFrame(t, 7)), 3u);
    EXPECT_EQ(a.segments.flags[rowOfFrame(t, 8)], sf::kFastRetransmission | sf::kRetransmission);
    EXPECT_EQ(a.segments.bytesInFlight[rowOfFrame(t, 8)], 5472u);
    const Connection& c = a.connections[0];
    EXPECT_EQ(c.direction[0].dupAcks, 3u); // 172.31.136.85:38760 sent first
    EXPECT_EQ(c.direction[1].fastRetransmissions, 1u);
    EXPECT_EQ(c.direction[1].rtoTimeouts, 0u);
}

TEST(TcpAnalysisCaptures, FiveRtoRetransmissionsWithBackoff)
{
    const auto path = test::publicCapture("chrissanders__tcp_retransmissions.pcapng");
    WINDSCOPE_REQUIRE_FILE(path);
    const dissect::CaptureTables t = ingestOrFail(path);
    const TcpAnalysis a = analyzeTcp(t);
    ASSERT_EQ(t.tcp.size(), 6u);
    EXPECT_EQ(a.segments.flags[0], 0u);
    // Gaps of 0.206, 0.6, 1.2, 2.4 and 4.8 s: every one is a timer firing.
    for (std::size_t row = 1; row < 6; ++row)
        EXPECT_EQ(a.segments.flags[row], sf::kRetransmission | sf::kRtoTimeout) << "row " << row;
    EXPECT_EQ(a.connections[0].direction[0].retransmissions, 5u);
    EXPECT_EQ(a.connections[0].direction[0].rtoTimeouts, 5u);
    EXPECT_EQ(a.connections[0].direction[0].retransmittedBytes, 5u * 648);
}

TEST(TcpAnalysisCaptures, ZeroWindowRecovery)
{
    const auto path = test::publicCapture("chrissanders__tcp_zerowindowrecovery.pcapng");
    WINDSCOPE_REQUIRE_FILE(path);
    const dissect::CaptureTables t = ingestOrFail(path);
    const TcpAnalysis a = analyzeTcp(t);
    ASSERT_EQ(t.tcp.size(), 7u);
    EXPECT_EQ(wireshark(a.segments.flags[rowOfFrame(t, 4)]), sf::kZeroWindow);
    EXPECT_EQ(wireshark(a.segments.flags[rowOfFrame(t, 5)]), sf::kWindowUpdate);
    const Connection& c = a.connections[0];
    EXPECT_EQ(c.direction[0].zeroWindows, 1u);
    EXPECT_EQ(c.direction[0].windowUpdates, 1u);
    // The receiver's window closes 8760 -> 5840 -> 2920 -> 0 before reopening: the two
    // non-zero steps are below max(0, 64512 / 8) and make one low-window episode.
    EXPECT_EQ(c.lowWindowThresholdBytes, 64512u / 8);
    EXPECT_FALSE(a.segments.flags[rowOfFrame(t, 1)] & sf::kLowWindow);
    EXPECT_TRUE(a.segments.flags[rowOfFrame(t, 2)] & sf::kLowWindow);
    EXPECT_TRUE(a.segments.flags[rowOfFrame(t, 3)] & sf::kLowWindow);
    EXPECT_FALSE(a.segments.flags[rowOfFrame(t, 4)] & sf::kLowWindow);
    EXPECT_EQ(c.direction[0].lowWindows, 1u);
}

TEST(TcpAnalysisCaptures, ZeroWindowDeadKeepsProbingWithKeepAlives)
{
    const auto path = test::publicCapture("chrissanders__tcp_zerowindowdead.pcapng");
    WINDSCOPE_REQUIRE_FILE(path);
    const dissect::CaptureTables t = ingestOrFail(path);
    const TcpAnalysis a = analyzeTcp(t);
    ASSERT_EQ(t.tcp.size(), 8u);
    for (std::uint64_t frame : {2u, 4u, 6u, 8u})
        EXPECT_EQ(wireshark(a.segments.flags[rowOfFrame(t, frame)]), sf::kZeroWindow) << frame;
    // Zero-length probes one byte below nextseq are keep-alives to Wireshark.
    for (std::uint64_t frame : {3u, 5u, 7u})
        EXPECT_EQ(wireshark(a.segments.flags[rowOfFrame(t, frame)]), sf::kKeepAlive) << frame;
    const Connection& c = a.connections[0];
    EXPECT_EQ(c.direction[0].keepAlives, 3u); // 195.81.202.68:80 sent first
    EXPECT_EQ(c.direction[1].zeroWindows, 4u);
    EXPECT_EQ(c.direction[1].lowWindows, 0u);
}

TEST(TcpAnalysisCaptures, KuroseTraceStatistics)
{
    const auto path = test::publicCapture("kurose-moranzcw__tcp-ethereal-trace-1");
    WINDSCOPE_REQUIRE_FILE(path);
    const dissect::CaptureTables t = ingestOrFail(path);
    const TcpAnalysis a = analyzeTcp(t);
    // tshark -z conv,tcp: 192.168.1.102:1161 <-> 128.119.245.12:80, 125 frames -> and
    // 76 <-; 192.168.1.102:1162 <-> 199.2.53.206:631, one SYN.
    ASSERT_EQ(a.connections.size(), 2u);
    const Connection& c = a.connections[0];
    EXPECT_EQ(c.port[0], 1161);
    EXPECT_EQ(c.port[1], 80);
    EXPECT_TRUE(c.handshakeSeen);
    EXPECT_TRUE(c.windowScaleKnown); // no window scale option: neither side scales
    EXPECT_EQ(c.windowScale[0], -1);
    EXPECT_EQ(c.mss[0], 1460);
    EXPECT_EQ(c.mss[1], 1460);
    EXPECT_TRUE(c.sackPermitted);
    EXPECT_FALSE(c.timestamps);
    EXPECT_EQ(c.handshakeRttNs, 23'265'000); // SYN at 0, ACK of the SYN-ACK at 23.265 ms
    const DirectionStats& up = c.direction[0];
    const DirectionStats& down = c.direction[1];
    EXPECT_EQ(up.packets, 125u);
    EXPECT_EQ(down.packets, 76u);
    // Sum of tcp.len: 164090 up (122 data segments), 730 down (one).
    EXPECT_EQ(up.dataBytes, 164090u);
    EXPECT_EQ(up.dataPackets, 122u);
    EXPECT_EQ(up.uniqueBytes, 164090u);
    EXPECT_EQ(down.dataBytes, 730u);
    EXPECT_EQ(down.dataPackets, 1u);
    EXPECT_EQ(up.synCount, 1u);
    EXPECT_EQ(down.synCount, 1u);
    EXPECT_EQ(up.retransmissions, 0u);
    EXPECT_EQ(up.maxWindowBytes, 17520u);
    EXPECT_EQ(down.maxWindowBytes, 62780u);
    // Data from 26.477 ms to 5297.341 ms.
    EXPECT_NEAR(up.throughputBps, 164090 * 8 / (5.297341 - 0.026477), 1.0);
    EXPECT_NEAR(up.goodputBps, up.throughputBps, 1e-6);
    EXPECT_EQ(down.throughputBps, 0.0); // a single data segment has no active time
    // tcp.analysis.ack_rtt of the first data segment is 27.460 ms.
    EXPECT_GT(up.rttSamples, 10u);
    EXPECT_LE(up.rttMinMs, 27.460);
    EXPECT_GE(up.rttMaxMs, 27.460);
    const Connection& lone = a.connections[1];
    EXPECT_EQ(lone.port[1], 631);
    EXPECT_EQ(lone.direction[0].packets, 1u);
    EXPECT_FALSE(lone.handshakeSeen);
}

// --- Lab ground truth: the kernel's own record of every RTO ----------------------

TEST(TcpAnalysisLab, RtoTimeoutsMatchLinuxTimeouts)
{
    const std::filesystem::path linux = test::labDir("linux");
    WINDSCOPE_REQUIRE_FILE(linux);
    std::size_t runs = 0;
    for (const auto& entry : std::filesystem::directory_iterator(linux)) {
        const auto sender = entry.path() / "sender.pcap";
        const auto timeouts = entry.path() / "timeouts.csv";
        if (!std::filesystem::exists(sender) || !std::filesystem::exists(timeouts))
            continue;
        ++runs;
        std::vector<double> truth;
        std::ifstream in(timeouts);
        std::string line;
        std::getline(in, line); // header
        while (std::getline(in, line))
            if (!line.empty())
                truth.push_back(std::stod(line.substr(0, line.find(','))));
        const dissect::CaptureTables t = ingestOrFail(sender);
        const TcpAnalysis a = analyzeTcp(t);
        const std::vector<double> ours = rtoTimeoutEpochs(t, a);
        const std::string run = entry.path().filename().string();
        ASSERT_EQ(ours.size(), truth.size()) << run;
        for (std::size_t i = 0; i < truth.size(); ++i)
            EXPECT_NEAR(ours[i], truth[i], 0.001)
                << run << " RTO " << i; // tracepoint vs pcap clock
    }
    EXPECT_GT(runs, 0u);
}

// ns-3's own record of its RTOs (tcp_events.csv, rto_timeout) on the server-link
// captures: A's and D's single timeout inside a loss recovery (RFC 6298's RTO, a few
// milliseconds above the RTT, expired while the sender was still resending), B's
// handoff timeouts (the first fires exactly 200 ms after the last ACK, with segments
// sent after that ACK: a silence of 129 ms).
TEST(TcpAnalysisLab, RtoTimeoutsMatchNs3Timeouts)
{
    std::size_t runs = 0;
    for (const char* run : {"A-scan-none", "A-scan-T200", "A-scan-T200-fix", "B-handoff-baseline",
                            "B-handoff-zwa-hold", "D-wan-newreno-2m", "D-wan-cubic-16k", "E-slowrx-r512"}) {
        const auto dir = test::labDir("ns3/" + std::string(run));
        const auto sender = dir / "wired-server.pcap";
        if (!std::filesystem::exists(sender))
            continue;
        ++runs;
        std::vector<double> truth;
        std::ifstream in(dir / "tcp_events.csv");
        for (std::string line; std::getline(in, line);)
            if (line.find(",rto_timeout,") != std::string::npos)
                truth.push_back(std::stod(line.substr(0, line.find(','))));
        const dissect::CaptureTables t = ingestOrFail(sender);
        const TcpAnalysis a = analyzeTcp(t);
        const std::vector<double> ours = rtoTimeoutEpochs(t, a);
        ASSERT_EQ(ours.size(), truth.size()) << run;
        for (std::size_t i = 0; i < truth.size(); ++i)
            EXPECT_NEAR(ours[i], truth[i], 0.001) << run << " RTO " << i;
    }
    WINDSCOPE_REQUIRE_FILE(test::labDir("ns3/D-wan-newreno-2m") / "wired-server.pcap");
    EXPECT_GT(runs, 0u);
}

// RFC 6298 (5.1) starts the retransmission timer only when it is not running, so a
// fast retransmit does not restart it (ns-3 runs it so; Linux restarts it on the
// head's re-send): in this CUBIC run the ACK to 1,520,401 at 1.935239 s starts it,
// the fast retransmit of 1,520,401 leaves at 1.938174 s (the trace's CA_RECOVERY),
// and the timer fires at 2.135239 s (CA_LOSS, 200 ms after that ACK) and re-sends the
// head, which Wireshark flags as another fast retransmission. Counted from the
// fast retransmit, as Linux would, the timer had run 197 ms: under the minimum.
TEST(TcpAnalysisLab, TimerRunningThroughAFastRetransmitFiresOnItsOwnStart)
{
    const dissect::CaptureTables t =
        ingestOrFail(test::testData("lab-a-timer-after-fast-retransmit-server.pcap.gz"));
    const TcpAnalysis a = analyzeTcp(t);
    const std::vector<double> ours = rtoTimeoutEpochs(t, a);
    ASSERT_EQ(ours.size(), 1u);
    EXPECT_NEAR(ours[0], 2.135239, 0.001);
    std::size_t fastRetransmits = 0;
    for (std::size_t row = 0; row < t.tcp.size(); ++row)
        fastRetransmits += (a.segments.flags[row] & sf::kFastRetransmission) != 0;
    EXPECT_EQ(fastRetransmits,
              2u); // Wireshark's flags: the fast retransmit and the timer's re-send
}

// Persist mode is not a timeout: in the ns-3 handoff run with zero-window ACK control
// the base station closes the window for each handoff, the sender probes on its
// persist timer (3 probes in tcp_events.csv) and never times out (no rto_timeout row).
TEST(TcpAnalysis, PersistProbesAreNotRtoTimeouts)
{
    const auto path = test::labDir("ns3/B-handoff-zwa-hold") / "wired-server.pcap";
    WINDSCOPE_REQUIRE_FILE(path);
    dissect::CaptureTables tables;
    std::string error;
    ASSERT_TRUE(dissect::ingestCapture(path.string(), {}, tables, error)) << error;
    const TcpAnalysis a = analyzeTcp(tables);
    ASSERT_EQ(a.connections.size(), 1u);
    const Connection& c = a.connections[0];
    // Endpoint 0 is the station (client), 1 the server sending the data.
    EXPECT_EQ(c.direction[0].zeroWindows, 2u);
    EXPECT_GT(c.direction[1].retransmissions, 0u);
    EXPECT_EQ(c.direction[1].rtoTimeouts, 0u);
    EXPECT_EQ(c.direction[0].rtoTimeouts, 0u);
}

// Seen from the access point's radio, behind its queue, a fast retransmit arrives as late
// as the retransmission timer would have fired (ns-3's A runs queue about 200 ms there):
// it is the head's first retransmission after duplicate ACKs, never a timeout. What the
// radio flags as a timeout was sent no earlier than the sender's own (tcp_events.csv).
TEST(TcpAnalysisLab, FastRetransmitSeenLateBehindTheApQueueIsNoTimeout)
{
    std::size_t runs = 0;
    for (const char* run : {"A-scan-none", "A-scan-T200", "A-scan-T200-fix"}) {
        const auto dir = test::labDir("ns3/" + std::string(run));
        const auto radio = dir / "wifi-ap.pcap";
        if (!std::filesystem::exists(radio))
            continue;
        ++runs;
        double firstTimeout = 0;
        std::ifstream in(dir / "tcp_events.csv");
        for (std::string line; std::getline(in, line);)
            if (line.find(",rto_timeout,") != std::string::npos && firstTimeout == 0)
                firstTimeout = std::stod(line.substr(0, line.find(',')));
        ASSERT_GT(firstTimeout, 0) << run;
        const dissect::CaptureTables t = ingestOrFail(radio);
        const TcpAnalysis a = analyzeTcp(t);
        for (const double at : rtoTimeoutEpochs(t, a))
            EXPECT_GE(at, firstTimeout) << run << ": a timeout before the sender's first";
        std::size_t fastRetransmits = 0;
        for (std::size_t row = 0; row < t.tcp.size(); ++row)
            fastRetransmits += (a.segments.flags[row] & sf::kFastRetransmission) != 0;
        EXPECT_GT(fastRetransmits, 0u) << run;
    }
    WINDSCOPE_REQUIRE_FILE(test::labDir("ns3/A-scan-none") / "wifi-ap.pcap");
    EXPECT_GT(runs, 0u);
}
