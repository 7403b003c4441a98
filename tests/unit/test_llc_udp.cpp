// SPDX-License-Identifier: GPL-3.0-or-later
// LLC/SNAP below 802.11, and UDP with the CAPWAP data channel (RFC 5415/5416) that
// tunnels 802.11 frames from access points to a controller.
#include "dissector_test_kit.h"
#include "wlan_digest.h"

using namespace windscope::dissect;
using namespace windscope::test;

namespace {

const DissectorSet& dissectors()
{
    static const DissectorSet set = recordingSet({registerWlan, registerLlc, registerUdp});
    return set;
}

Frame llc(const Bytes& b)
{
    Frame f = freshFrame(b.size(), linktype::kEthernet);
    decodeLlc(dissectors(), b.view(), f);
    return f;
}

Frame udp(const Bytes& b)
{
    Frame f = freshFrame(b.size(), linktype::kEthernet);
    dissectors().decodeIpProtocol(17, b.view(), f);
    return f;
}

Bytes udpHeader(unsigned src, unsigned dst, std::size_t payload)
{
    const std::size_t length = 8 + payload;
    return Bytes{src >> 8, src & 0xff, dst >> 8, dst & 0xff, unsigned(length >> 8),
                 unsigned(length & 0xff), 0, 0};
}

// CAPWAP header, 16 bytes (HLEN 4): preamble 0, then HLEN/RID/WBID/T/F/L/W/M/K,
// fragment id and offset, then (as in the nDPI sample) wireless-specific information
// of length 4 and 3 bytes of padding to a 4-byte boundary.
Bytes capwapHeader(unsigned wbid, bool native, unsigned fragmentFlags = 0,
                   unsigned fragmentOffset = 0)
{
    const std::uint32_t word = 4u << 19 | wbid << 9 | (native ? 1u << 8 : 0) | fragmentFlags;
    Bytes b;
    b.raw({word >> 24, word >> 16 & 0xff, word >> 8 & 0xff, word & 0xff});
    b.raw({0x00, 0x00, fragmentOffset >> 5 & 0xff, (fragmentOffset << 3) & 0xff});
    b.raw({0x04, 0xbf, 0x23, 0x00, 0x00, 0x00, 0x00, 0x00});
    return b;
}

// Data frame, ToDS + PwrMgt, 3 addresses (24 bytes), then LLC/SNAP/IPv4 stand-in.
// Sequence Control octets 76 30 as in the nDPI sample: wlan.seq 775, wlan.frag 6.
Bytes dataFrame(bool swapFrameControl)
{
    Bytes b;
    if (swapFrameControl)
        b.raw({0x11, 0x08, 0x2c, 0x00});
    else
        b.raw({0x08, 0x11, 0x2c, 0x00});
    for (unsigned i = 0; i < 18; ++i)
        b.u8(0x20 + i);
    b.raw({0x76, 0x30});
    b.raw({0xaa, 0xaa, 0x03, 0x00, 0x00, 0x00, 0x08, 0x00, 0x45}).zeros(19);
    return b;
}

Bytes capwapPacket(const Bytes& capwap, const Bytes& payload, unsigned port = 5247)
{
    Bytes b = udpHeader(0xa130, port, capwap.size() + payload.size());
    return b.append(capwap).append(payload);
}

} // namespace

TEST(Llc, SnapDispatchesByEtherType)
{
    Bytes b = {0xaa, 0xaa, 0x03, 0x00, 0x00, 0x00, 0x86, 0xdd, 0x60, 0x01};
    const Frame f = llc(b);
    EXPECT_EQ(f.annotationCount, 0);
    EXPECT_EQ(g_delivered.calls, 1);
    EXPECT_EQ(g_delivered.key, 0x86ddu);
    EXPECT_EQ(g_delivered.size, 2u);
    EXPECT_EQ(g_delivered.first, 0x60);
}

TEST(Llc, BridgeTunnelOuiCarriesAnEtherType)
{
    // IEEE 802.1H: OUI 00-00-F8, used for AppleTalk AARP (0x80f3) among others.
    llc({0xaa, 0xaa, 0x03, 0x00, 0x00, 0xf8, 0x80, 0xf3, 0x00});
    EXPECT_EQ(g_delivered.key, 0x80f3u);
}

TEST(Llc, OtherOuisAndPlainLlcStopQuietly)
{
    // Apple's OUI carries a vendor protocol ID, not an EtherType.
    Frame f = llc({0xaa, 0xaa, 0x03, 0x00, 0x17, 0xf2, 0x08, 0x00, 0x45});
    EXPECT_EQ(g_delivered.calls, 0);
    EXPECT_EQ(f.annotationCount, 0);
    // Spanning tree: DSAP/SSAP 0x42.
    f = llc({0x42, 0x42, 0x03, 0x00, 0x00, 0x00});
    EXPECT_EQ(g_delivered.calls, 0);
    EXPECT_EQ(f.annotationCount, 0);
}

TEST(Llc, TruncatedHeadersAreMalformed)
{
    Frame f = llc({0xaa, 0xaa});
    EXPECT_TRUE(annotated(f, Severity::Error, "llc"));
    f = llc({0xaa, 0xaa, 0x03, 0x00, 0x00, 0x00, 0x08});
    EXPECT_TRUE(annotated(f, Severity::Error, "llc.type"));
    EXPECT_EQ(g_delivered.calls, 0);
}

TEST(Udp, RegisteredAsIpProtocol17)
{
    DissectorSet set;
    registerUdp(set);
    EXPECT_NE(set.ipProtocols.find(17), nullptr);
}

TEST(Udp, MalformedHeaders)
{
    Frame f = udp({0x00, 0x35, 0x00});
    EXPECT_TRUE(annotated(f, Severity::Error, "udp"));
    f = udp({0x00, 0x35, 0x14, 0x7f, 0x00, 0x04, 0x00, 0x00});
    EXPECT_TRUE(annotated(f, Severity::Error, "udp.length"));
    Bytes longer = udpHeader(53, 53, 100);
    f = udp(longer);
    EXPECT_TRUE(annotated(f, Severity::Error, "udp.length"));
}

TEST(Udp, OrdinaryDatagramLeavesTheFrameAlone)
{
    Bytes b = udpHeader(53, 40000, 4);
    b.raw({1, 2, 3, 4});
    const Frame f = udp(b);
    EXPECT_EQ(f.annotationCount, 0);
    EXPECT_FALSE(f.hasWlan);
    EXPECT_EQ(g_delivered.calls, 0);
}

TEST(Capwap, SwappedFrameControlIsDetected)
{
    // As in nDPI's capwap_data sample: the AP sends octets "11 08" for FC 0x1108
    // (data, ToDS + PwrMgt). As sent, the version bits would be 1.
    const Frame f = udp(capwapPacket(capwapHeader(1, true), dataFrame(true)));
    ASSERT_TRUE(f.hasWlan);
    EXPECT_EQ(f.wlan.fc, 0x1108);
    EXPECT_EQ(f.wlan.type, 2);
    EXPECT_TRUE(f.wlan.toDs());
    EXPECT_TRUE(f.wlan.powerManagement());
    EXPECT_EQ(f.wlan.sequence, 775);
    EXPECT_EQ(f.wlan.fragment, 6);
    EXPECT_FALSE(f.hasRadio);
    EXPECT_EQ(g_delivered.key, 0x0800u);
    EXPECT_EQ(g_delivered.size, 20u);
}

TEST(Capwap, FrameControlInStandardOrder)
{
    const Frame f = udp(capwapPacket(capwapHeader(1, true), dataFrame(false)));
    ASSERT_TRUE(f.hasWlan);
    EXPECT_EQ(f.wlan.fc, 0x1108);
    EXPECT_EQ(g_delivered.key, 0x0800u);
}

TEST(Capwap, SourcePortAlsoCounts)
{
    Bytes b = udpHeader(5247, 0xa130, 16 + dataFrame(false).size());
    const Bytes capwap = capwapHeader(1, true), frame = dataFrame(false);
    b.append(capwap).append(frame);
    EXPECT_TRUE(udp(b).hasWlan);
}

TEST(Capwap, Ieee8023PayloadGoesToEthernet)
{
    const Bytes eth = Bytes().fill(20, 0xee);
    udp(capwapPacket(capwapHeader(1, false), eth));
    EXPECT_EQ(g_delivered.key, linkTypeKey(linktype::kEthernet));
    EXPECT_EQ(g_delivered.size, 20u);
}

TEST(Capwap, PayloadsWeCannotRead)
{
    // Control port, another binding, a later fragment, a keep-alive, DTLS.
    EXPECT_FALSE(udp(capwapPacket(capwapHeader(1, true), dataFrame(false), 5246)).hasWlan);
    EXPECT_FALSE(udp(capwapPacket(capwapHeader(3, true), dataFrame(false))).hasWlan);
    EXPECT_FALSE(
        udp(capwapPacket(capwapHeader(1, true, 1u << 7, 100), dataFrame(false))).hasWlan);
    EXPECT_TRUE(udp(capwapPacket(capwapHeader(1, true, 1u << 7, 0), dataFrame(false))).hasWlan);
    EXPECT_FALSE(udp(capwapPacket(capwapHeader(1, true, 1u << 3), dataFrame(false))).hasWlan);
    Bytes dtls = capwapHeader(1, true);
    dtls.v[0] = 0x01;
    const Frame f = udp(capwapPacket(dtls, dataFrame(false)));
    EXPECT_FALSE(f.hasWlan);
    EXPECT_EQ(f.annotationCount, 0);
}

TEST(Capwap, BadHeaderLengths)
{
    Bytes small = capwapHeader(1, true);
    small.v[1] = static_cast<std::uint8_t>(small.v[1] & 0x07); // HLEN 0
    Frame f = udp(capwapPacket(small, dataFrame(false)));
    EXPECT_TRUE(annotated(f, Severity::Error, "capwap.header.length"));
    EXPECT_FALSE(f.hasWlan);

    Bytes huge = capwapHeader(1, true);
    huge.v[1] = static_cast<std::uint8_t>(huge.v[1] | 0xf8); // HLEN 31: 124 bytes
    f = udp(capwapPacket(huge, {}));
    EXPECT_TRUE(annotated(f, Severity::Error, "capwap.header.length"));

    Bytes version = capwapHeader(1, true);
    version.v[0] = 0x10;
    f = udp(capwapPacket(version, dataFrame(false)));
    EXPECT_TRUE(annotated(f, Severity::Error, "capwap.preamble.version"));
}

TEST(Capwap, EveryPrefixIsSafe)
{
    const Bytes whole = capwapPacket(capwapHeader(1, true), dataFrame(true));
    for (std::size_t n = 0; n <= whole.size(); ++n)
        udp(whole.prefix(n));
    SUCCEED();
}

TEST(CapwapCaptures, NdpiCapwapDataInnerFlowIsAnalysed)
{
    // Ethernet / 2 x 802.1Q / IPv4 / UDP 5247 / CAPWAP / 802.11 data / LLC / IPv4 / TCP:
    // tshark shows 14 wlan frames, all Data (0x0020), and tcp in all 14.
    const auto path = publicCapture("ndpi__capwap_data.pcapng");
    WINDSCOPE_REQUIRE_FILE(path);
    CaptureTables t;
    std::string error;
    ASSERT_TRUE(ingestCapture(path.string(), {}, t, error)) << error;
    EXPECT_EQ(t.summary.wlanFrames, 14u);
    EXPECT_EQ(t.summary.malformedPackets, 0u);
    WlanDigest want;
    want.rows = 14;
    want.withSequence = 14;
    want.sequenceSum = 9279;
    want.channels = {{0, 14}};
    want.typeSubtypes = {{0x20, 14}};
    EXPECT_EQ(digestOf(t.wlan), want);
    // Every frame reached TCP: kept as a segment or set aside as a MAC duplicate.
    EXPECT_EQ(t.summary.tcpSegments + t.macDuplicateTcp.size(), 14u);
    ASSERT_EQ(t.conversations.size(), 1u);
    const auto& key = t.conversations[0];
    EXPECT_EQ(t.ipAddresses.at(key.addrA).toString(), "10.1.3.68");
    EXPECT_EQ(t.ipAddresses.at(key.addrB).toString(), "74.125.130.188");
}
