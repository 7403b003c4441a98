// SPDX-License-Identifier: GPL-3.0-or-later
// 802.11 in the tunnels real deployments use (Aruba's GRE, TZSP, PEEKREMOTE), and the
// tunnels Windscope does not open, counted and named. The tunnelled captures are built
// here from a public monitor-mode capture (each 802.11 frame taken from behind its
// radiotap header and put inside the tunnel, with the same timestamp) and must analyse
// to the same TCP results as the bare capture.
#include "dissector_test_kit.h"
#include "tunnel_capture_writer.h"

#include "analysis/report/report_json.h"
#include "analysis/tcp/tcp_analysis.h"
#include "dissectors/capture_reader.h"

#include <algorithm>
#include <string>
#include <vector>

using namespace windscope;
using namespace windscope::test;

namespace {

struct Analysed
{
    dissect::CaptureTables tables;
    analysis::TcpAnalysis tcp;
};

Analysed analyse(const std::filesystem::path& path)
{
    Analysed a;
    std::string error;
    EXPECT_TRUE(analysis::readAndAnalyzeTcp(path.string(), {}, a.tables, a.tcp, error)) << error;
    return a;
}

bool hasWarning(const dissect::CaptureSummary& s, const std::string& text)
{
    return std::any_of(s.warnings.begin(), s.warnings.end(),
                       [&](const std::string& w) { return w.find(text) != std::string::npos; });
}

// Every TCP result a user reads per connection direction.
void expectSameTcp(const Analysed& bare, const Analysed& tunnelled)
{
    EXPECT_EQ(bare.tables.summary.tcpSegments, tunnelled.tables.summary.tcpSegments);
    EXPECT_EQ(bare.tables.summary.macDuplicateFrames, tunnelled.tables.summary.macDuplicateFrames);
    ASSERT_EQ(bare.tcp.connections.size(), tunnelled.tcp.connections.size());
    for (std::size_t i = 0; i < bare.tcp.connections.size(); ++i) {
        const analysis::Connection& a = bare.tcp.connections[i];
        const analysis::Connection& b = tunnelled.tcp.connections[i];
        EXPECT_EQ(analysis::endpointText(bare.tables, a.address[0], a.port[0]),
                  analysis::endpointText(tunnelled.tables, b.address[0], b.port[0]));
        EXPECT_EQ(a.handshakeSeen, b.handshakeSeen);
        for (int d = 0; d < 2; ++d) {
            const analysis::DirectionStats& x = a.direction[d];
            const analysis::DirectionStats& y = b.direction[d];
            SCOPED_TRACE("connection " + std::to_string(i) + " direction " + std::to_string(d));
            EXPECT_EQ(x.packets, y.packets);
            EXPECT_EQ(x.dataBytes, y.dataBytes);
            EXPECT_EQ(x.uniqueBytes, y.uniqueBytes);
            EXPECT_EQ(x.retransmissions, y.retransmissions);
            EXPECT_EQ(x.fastRetransmissions, y.fastRetransmissions);
            EXPECT_EQ(x.rtoTimeouts, y.rtoTimeouts);
            EXPECT_EQ(x.dupAcks, y.dupAcks);
            EXPECT_EQ(x.zeroWindows, y.zeroWindows);
            EXPECT_EQ(x.windowUpdates, y.windowUpdates);
            EXPECT_EQ(x.macRetriesExcluded, y.macRetriesExcluded);
            EXPECT_EQ(x.rttSamples, y.rttSamples);
            EXPECT_DOUBLE_EQ(x.rttAvgMs, y.rttAvgMs);
            EXPECT_DOUBLE_EQ(x.goodputBps, y.goodputBps);
        }
    }
}

std::filesystem::path scratch(const std::string& name)
{
    const auto dir = std::filesystem::temp_directory_path() / "windscope-tunnel-tests";
    std::filesystem::create_directories(dir);
    return dir / name;
}

// The capture with TCP, MAC retries and bad-FCS frames: every path the 802.11 layer
// takes before TCP.
const char* const kSource = "networks744__idleon1.pcap";

} // namespace

TEST(Tunnels, ArubaGreCarriesTheSameTcpAsTheBareCapture)
{
    const auto source = publicCapture(kSource);
    WINDSCOPE_REQUIRE_FILE(source);
    const auto out = scratch("aruba-gre.pcap");
    // A controller forwards only frames received whole: the bad-FCS ones stay behind.
    const TunnelWriteResult written = writeTunnelled(source, out, Tunnel::ArubaGre);
    ASSERT_GT(written.frames, 100u);
    ASSERT_GT(written.badFcsLeftOut, 0u);
    const Analysed bare = analyse(source), tunnelled = analyse(out);
    ASSERT_FALSE(bare.tcp.connections.empty());
    expectSameTcp(bare, tunnelled);
    EXPECT_EQ(tunnelled.tables.summary.wlanFrames, written.frames);
    EXPECT_EQ(tunnelled.tables.summary.linkTypes, std::vector<int>{dissect::linktype::kEthernet});
}

TEST(Tunnels, TzspCarriesTheSameTcpAndTheFcsVerdict)
{
    const auto source = publicCapture(kSource);
    WINDSCOPE_REQUIRE_FILE(source);
    const auto out = scratch("tzsp.pcap");
    const TunnelWriteResult written = writeTunnelled(source, out, Tunnel::Tzsp);
    const Analysed bare = analyse(source), tunnelled = analyse(out);
    expectSameTcp(bare, tunnelled);
    EXPECT_EQ(tunnelled.tables.summary.wlanFrames, bare.tables.summary.wlanFrames);
    EXPECT_EQ(tunnelled.tables.summary.badFcsFrames, bare.tables.summary.badFcsFrames);
    EXPECT_EQ(written.badFcsLeftOut, 0u);
}

TEST(Tunnels, PeekremoteCarriesTheSameTcpAndTheFcsVerdict)
{
    const auto source = publicCapture(kSource);
    WINDSCOPE_REQUIRE_FILE(source);
    const auto out = scratch("peekremote.pcap");
    writeTunnelled(source, out, Tunnel::PeekremoteLegacy);
    const Analysed bare = analyse(source), tunnelled = analyse(out);
    expectSameTcp(bare, tunnelled);
    EXPECT_EQ(tunnelled.tables.summary.badFcsFrames, bare.tables.summary.badFcsFrames);
    // The radio header's signal travels through the tunnel.
    EXPECT_EQ(tunnelled.tables.wlan.signalDbm, bare.tables.wlan.signalDbm);
}

TEST(Tunnels, PeekremoteNewHeaderAndArubaErmCarryTheSameTcp)
{
    const auto source = publicCapture(kSource);
    WINDSCOPE_REQUIRE_FILE(source);
    const Analysed bare = analyse(source);
    const auto peek = scratch("peekremote-new.pcap");
    writeTunnelled(source, peek, Tunnel::PeekremoteNew);
    const Analysed viaPeek = analyse(peek);
    expectSameTcp(bare, viaPeek);
    EXPECT_EQ(viaPeek.tables.summary.badFcsFrames, bare.tables.summary.badFcsFrames);
    const auto erm = scratch("aruba-erm.pcap");
    const TunnelWriteResult written = writeTunnelled(source, erm, Tunnel::ArubaErmPcap);
    const Analysed viaErm = analyse(erm);
    expectSameTcp(bare, viaErm);
    EXPECT_EQ(viaErm.tables.summary.wlanFrames, written.frames);
}

TEST(Tunnels, UndecodedTunnelsAreCountedAndNamed)
{
    const auto out = scratch("undecoded.pcap");
    {
        PcapWriter w(out, dissect::linktype::kEthernet);
        const Bytes payload = Bytes{}.fill(40, 0xab);
        // GRE version 1 (PPTP's enhanced GRE), twice; TZSP with encapsulation 99 once;
        // CAPWAP data with DTLS once; ESP once.
        Bytes pptp{0x30, 0x01, 0x88, 0x0b};
        pptp.append(payload);
        w.write(1'000'000'000, ethernetIpv4(47, pptp).v);
        w.write(1'000'100'000, ethernetIpv4(47, pptp).v);
        Bytes tzsp{0x01, 0x00, 0x00, 99, 0x01};
        tzsp.append(payload);
        w.write(1'000'200'000, ethernetIpv4(17, udp(40000, 37008, tzsp)).v);
        Bytes dtls{0x01, 0, 0, 0};
        dtls.append(payload);
        w.write(1'000'300'000, ethernetIpv4(17, udp(40000, 5247, dtls)).v);
        w.write(1'000'400'000, ethernetIpv4(50, payload).v);
        // LWAPP data (RFC 5412): the 6-byte header, then what would be an 802.11 frame.
        Bytes lwapp{0x00, 0x00, 0x00, 40, 0x00, 0x00};
        lwapp.append(payload);
        w.write(1'000'500'000, ethernetIpv4(17, udp(40000, 12222, lwapp)).v);
    }
    const dissect::CaptureTables t = ingestOrFail(out);
    using dissect::Undecoded;
    EXPECT_EQ(t.summary.undecodedPackets[static_cast<std::size_t>(Undecoded::GreVersion)], 2u);
    EXPECT_EQ(t.summary.undecodedPackets[static_cast<std::size_t>(Undecoded::TzspEncapsulation)], 1u);
    EXPECT_EQ(t.summary.undecodedPackets[static_cast<std::size_t>(Undecoded::CapwapDtls)], 1u);
    EXPECT_EQ(t.summary.undecodedPackets[static_cast<std::size_t>(Undecoded::Esp)], 1u);
    EXPECT_TRUE(hasWarning(t.summary, "2 packets of GRE version 1"));
    EXPECT_TRUE(hasWarning(t.summary, "1 packets of TZSP"));
    EXPECT_TRUE(hasWarning(t.summary, "CAPWAP data with DTLS"));
    EXPECT_TRUE(hasWarning(t.summary, "IPsec ESP"));
    EXPECT_EQ(t.summary.undecodedPackets[static_cast<std::size_t>(Undecoded::LwappData)], 1u);
    EXPECT_TRUE(hasWarning(t.summary, "1 packets of LWAPP data"));
}

TEST(CaptureLimits, ProtectedDataFramesAreCountedWithTheKeyRoute)
{
    const auto path = publicCapture("aircrack__n-02.cap");
    WINDSCOPE_REQUIRE_FILE(path);
    // Counted independently from the raw frames (link type 105: frame control first).
    std::uint64_t expected = 0;
    forEachPacket(path, [&](const dissect::RawPacket& p) {
        if (p.capturedLength >= 2 && ((p.data[0] >> 2) & 0x3) == 2 && (p.data[1] & 0x40))
            ++expected;
    });
    ASSERT_GT(expected, 0u);
    const dissect::CaptureTables t = ingestOrFail(path);
    EXPECT_EQ(t.summary.protectedDataFrames, expected);
    EXPECT_TRUE(hasWarning(t.summary, std::to_string(expected) + " 802.11 data frames are protected"));
    EXPECT_TRUE(hasWarning(t.summary, "--key"));
}

TEST(CaptureLimits, OneDirectionCaptureIsSaid)
{
    const auto source = publicCapture("kurose-moranzcw__tcp-ethereal-trace-1");
    WINDSCOPE_REQUIRE_FILE(source);
    const Analysed both = analyse(source);
    EXPECT_FALSE(hasWarning(both.tables.summary, "one direction only"));
    // Only what the client (192.168.1.102) sent, as a tap on its transmit side sees it.
    const auto out = scratch("one-direction.pcap");
    {
        PcapWriter w(out, dissect::linktype::kEthernet);
        forEachPacket(source, [&](const dissect::RawPacket& p) {
            const bool ipv4 = p.capturedLength >= 34 && p.data[12] == 0x08 && p.data[13] == 0x00;
            if (ipv4 && p.data[26] == 192 && p.data[27] == 168 && p.data[28] == 1 && p.data[29] == 102)
                w.write(p.epochNs, std::vector<std::uint8_t>(p.data, p.data + p.capturedLength), p.originalLength);
        });
    }
    const Analysed oneWay = analyse(out);
    ASSERT_FALSE(oneWay.tcp.connections.empty());
    EXPECT_TRUE(hasWarning(oneWay.tables.summary, "captured in one direction only"));
    std::size_t flagged = 0;
    for (const analysis::Connection& c : oneWay.tcp.connections)
        flagged += analysis::capturedOneWay(c);
    EXPECT_GE(flagged, 1u);
}

TEST(CaptureLimits, CaptureHoldingItselfTwiceIsAnalysedOnce)
{
    const auto source = publicCapture("kurose-moranzcw__tcp-ethereal-trace-1");
    WINDSCOPE_REQUIRE_FILE(source);
    const auto out = scratch("twice.pcap");
    std::uint64_t packets = 0;
    {
        PcapWriter w(out, dissect::linktype::kEthernet);
        for (int copy = 0; copy < 2; ++copy)
            forEachPacket(source, [&](const dissect::RawPacket& p) {
                w.write(p.epochNs, std::vector<std::uint8_t>(p.data, p.data + p.capturedLength), p.originalLength);
                packets += copy == 0;
            });
    }
    const Analysed once = analyse(source), twice = analyse(out);
    EXPECT_EQ(twice.tables.summary.packets, 2 * packets);
    EXPECT_EQ(twice.tables.summary.repeatedPackets, packets);
    EXPECT_TRUE(hasWarning(twice.tables.summary, "holds " + std::to_string(packets) + " packets twice"));
    EXPECT_EQ(once.tables.summary.repeatedPackets, 0u);
    ASSERT_EQ(once.tcp.connections.size(), twice.tcp.connections.size());
    for (std::size_t i = 0; i < once.tcp.connections.size(); ++i)
        for (int d = 0; d < 2; ++d) {
            EXPECT_EQ(once.tcp.connections[i].direction[d].packets, twice.tcp.connections[i].direction[d].packets);
            EXPECT_EQ(once.tcp.connections[i].direction[d].retransmissions,
                      twice.tcp.connections[i].direction[d].retransmissions);
            EXPECT_EQ(once.tcp.connections[i].direction[d].dupAcks, twice.tcp.connections[i].direction[d].dupAcks);
        }
}

TEST(CaptureLimits, SnifferGapsAreCountedFromSequenceNumbers)
{
    const auto source = publicCapture("ns3pygenp__AccessPoint-0-0.pcap");
    WINDSCOPE_REQUIRE_FILE(source);
    const auto out = scratch("gaps.pcap");
    const std::uint64_t dropped = writeWithSequenceHoles(source, out, 97);
    ASSERT_GT(dropped, 10u);
    const dissect::CaptureTables before = ingestOrFail(source), after = ingestOrFail(out);
    auto missing = [](const dissect::CaptureTables& t) {
        std::uint64_t n = 0;
        for (const auto& g : t.summary.sequenceGaps)
            n += g.missing;
        return n;
    };
    EXPECT_EQ(missing(after), missing(before) + dropped);
    EXPECT_TRUE(hasWarning(after.summary, "sniffer gaps: " + std::to_string(missing(after))));
}
