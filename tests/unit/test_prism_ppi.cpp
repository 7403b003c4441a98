// SPDX-License-Identifier: GPL-3.0-or-later
// PPI (link type 192), Prism (119) and AVS (163) radio headers: hand-built headers,
// and the two public captures compared with tshark 4.0.17.
#include "dissector_test_kit.h"
#include "wlan_digest.h"

#include <random>
#include <utility>
#include <vector>

using namespace windscope::dissect;
using namespace windscope::test;

namespace {

Frame decode(int linkType, const Bytes& b)
{
    static const DissectorSet set =
        recordingSet({registerPpi, registerPrism, registerWlan, registerLlc});
    return decodeFrame(set, linkType, b);
}

// Data frame FromDS with LLC/SNAP/IPv4 stand-in (24 + 8 + 20 bytes).
Bytes dataFrame()
{
    Bytes b;
    b.raw({0x08, 0x02, 0x00, 0x00});
    for (unsigned i = 0; i < 18; ++i)
        b.u8(i);
    b.raw({0x50, 0x01}); // seq 21
    b.raw({0xaa, 0xaa, 0x03, 0x00, 0x00, 0x00, 0x08, 0x00, 0x45}).zeros(19);
    return b;
}

// PPI header with one 802.11-Common field (4 + 20 bytes): length 32.
Bytes ppiCommon(std::uint16_t flags, unsigned rate, int signal, int noise, std::uint64_t tsft,
                std::uint32_t dlt = 105)
{
    Bytes b;
    b.u8(0).u8(0).u16(32).u32(dlt);
    b.u16(2).u16(20);
    b.u64(tsft).u16(flags).u16(rate).u16(2437).u16(0x00a0).u8(0).u8(0);
    b.u8(static_cast<std::uint8_t>(signal)).u8(static_cast<std::uint8_t>(noise));
    return b;
}

// A Prism header in either byte order, type-2 DIDs (n << 12 | 0x41), 144 bytes.
Bytes prism(bool bigEndian, bool type1 = false)
{
    Bytes b;
    b.bigEndian = bigEndian;
    b.u32(type1 ? 0x44 : 0x41).u32(144);
    b.raw({'w', 'l', 'a', 'n', '0'}).zeros(11);
    auto item = [&](std::uint32_t n, std::uint16_t status, std::uint32_t value) {
        b.u32(type1 ? (n << 16 | 0x44) : (n << 12 | 0x41)).u16(status).u16(4).u32(value);
    };
    item(1, 0, 16872381);                      // host time
    item(2, 0, 75520589);                      // MAC time
    item(3, 0, 11);                            // channel 11: 2462 MHz
    item(4, 0, static_cast<std::uint32_t>(-67)); // RSSI
    item(5, 0, 55);                            // signal quality
    item(6, 0, 1);                             // signal
    item(7, 1, static_cast<std::uint32_t>(-95)); // noise, "not supplied"
    item(8, 0, 108);                           // rate 54 Mb/s in 500 kbps units
    item(9, 1, 0);                             // is tx
    item(10, 0, 56);                           // frame length
    return b;
}

// AVS (wlancap) v1 header, 64 bytes, big-endian.
Bytes avs(std::uint32_t ssiType)
{
    Bytes b;
    b.bigEndian = true;
    b.u32(0x80211001).u32(64).u64(123456789).u64(42);
    b.u32(4).u32(6).u32(540).u32(1).u32(0).u32(ssiType);
    b.u32(static_cast<std::uint32_t>(-50)).u32(static_cast<std::uint32_t>(-95));
    b.u32(1).u32(2);
    return b;
}

} // namespace

TEST(Ppi, Common80211Field)
{
    // FCS present (0x0001) and FCS invalid (0x0004); rate 4 = 2 Mb/s.
    Bytes b = ppiCommon(0x0005, 4, -84, -100, 1000);
    b.append(dataFrame()).raw({0xde, 0xad, 0xbe, 0xef});
    const Frame f = decode(linktype::kPpi, b);
    EXPECT_EQ(f.annotationCount, 0);
    ASSERT_TRUE(f.hasRadio);
    EXPECT_EQ(f.radio.tsft, 1000u);
    EXPECT_EQ(f.radio.dataRateKbps, 2000u);
    EXPECT_EQ(f.radio.channelFreqMhz, 2437);
    EXPECT_EQ(f.radio.channelFlags, 0x00a0);
    EXPECT_EQ(f.radio.signalDbm, -84);
    EXPECT_EQ(f.radio.noiseDbm, -100);
    EXPECT_TRUE(f.radio.fcsAtEnd());
    EXPECT_TRUE(f.radio.badFcs());
    ASSERT_TRUE(f.hasWlan);
    EXPECT_EQ(f.wlan.sequence, 21);
    EXPECT_EQ(g_delivered.calls, 1);
    EXPECT_EQ(g_delivered.size, 20u); // FCS removed
}

TEST(Ppi, AbsentValuesAndMillisecondTsft)
{
    // Signal -128 and noise 0 mean "not supplied"; TSFT flag 0x0002: milliseconds.
    Bytes b = ppiCommon(0x0002, 0, -128, 0, 7);
    b.append(dataFrame());
    const Frame f = decode(linktype::kPpi, b);
    EXPECT_FALSE(f.radio.hasSignal);
    EXPECT_FALSE(f.radio.hasNoise);
    EXPECT_EQ(f.radio.tsft, 7000u);
    EXPECT_FALSE(f.radio.fcsAtEnd());
    EXPECT_EQ(g_delivered.size, 20u);
}

TEST(Ppi, Ieee80211nMacPhyField)
{
    // 802.11n MAC+PHY (type 4, 48 bytes): flags HT40 | short GI | aggregate,
    // A-MPDU ID 77, 3 delimiters, MCS 13, 2 streams.
    Bytes b;
    b.u8(0).u8(0).u16(8 + 52).u32(105);
    b.u16(4).u16(48).u32(0x02 | 0x04 | 0x10).u32(77).u8(3).u8(13).u8(2).zeros(48 - 11);
    ASSERT_EQ(b.size(), 60u);
    b.append(dataFrame());
    const Frame f = decode(linktype::kPpi, b);
    EXPECT_EQ(f.annotationCount, 0);
    ASSERT_TRUE(f.radio.hasAmpdu);
    EXPECT_EQ(f.radio.ampduReference, 77u);
    ASSERT_TRUE(f.radio.hasMcs);
    EXPECT_EQ(f.radio.mcsIndex, 13);
    EXPECT_EQ(f.radio.mcsBandwidth, 1);
    EXPECT_TRUE(f.radio.mcsShortGi);
    EXPECT_TRUE(f.hasWlan);
}

TEST(Ppi, AlignedFieldsAndUnknownFields)
{
    // Flag 0x01: fields padded to 4 bytes. An unknown 3-byte field (type 30000) then
    // 802.11-Common at 8 + 4 + 3 + 1 pad = 16; length 40.
    Bytes b;
    b.u8(0).u8(1).u16(40).u32(105);
    b.u16(30000).u16(3).raw({1, 2, 3}).u8(0);
    b.u16(2).u16(20).u64(0).u16(0).u16(12).u16(5180).u16(0x0140).u8(0).u8(0);
    b.u8(static_cast<std::uint8_t>(-60)).u8(static_cast<std::uint8_t>(-90));
    ASSERT_EQ(b.size(), 40u);
    b.append(dataFrame());
    const Frame f = decode(linktype::kPpi, b);
    EXPECT_EQ(f.annotationCount, 0);
    EXPECT_EQ(f.radio.channelFreqMhz, 5180);
    EXPECT_EQ(f.radio.signalDbm, -60);
    EXPECT_FALSE(f.radio.hasTsft); // zero TSFT is "not supplied"
    EXPECT_TRUE(f.hasWlan);
}

TEST(Ppi, OtherLinkTypesAndRecursion)
{
    Bytes eth = ppiCommon(0, 0, 0, 0, 0, linktype::kEthernet);
    eth.zeros(20);
    decode(linktype::kPpi, eth);
    EXPECT_EQ(g_delivered.calls, 1);
    EXPECT_EQ(g_delivered.key, linkTypeKey(linktype::kEthernet));

    // PPI announcing PPI is refused rather than followed.
    Bytes nested = ppiCommon(0, 0, 0, 0, 0, linktype::kPpi);
    nested.append(ppiCommon(0, 0, 0, 0, 0, linktype::kPpi));
    const Frame f = decode(linktype::kPpi, nested);
    EXPECT_FALSE(f.hasWlan);
}

TEST(Ppi, MalformedHeaders)
{
    Bytes tiny;
    tiny.raw({0, 0, 8, 0});
    EXPECT_TRUE(annotated(decode(linktype::kPpi, tiny), Severity::Error, "ppi.length"));

    Bytes version = ppiCommon(0, 0, 0, 0, 0);
    version.v[0] = 1;
    EXPECT_TRUE(annotated(decode(linktype::kPpi, version), Severity::Error, "ppi.version"));

    Bytes tooLong = ppiCommon(0, 0, 0, 0, 0);
    tooLong.v[2] = 0xff;
    Frame f = decode(linktype::kPpi, tooLong);
    EXPECT_TRUE(annotated(f, Severity::Error, "ppi.length"));
    EXPECT_FALSE(f.hasWlan);

    Bytes fieldPast = ppiCommon(0, 0, 0, 0, 0);
    fieldPast.v[10] = 40; // field length 40 in a 32-byte header
    fieldPast.append(dataFrame());
    f = decode(linktype::kPpi, fieldPast);
    EXPECT_TRUE(annotated(f, Severity::Error, "ppi.field_len"));
    EXPECT_TRUE(f.hasWlan); // the payload still starts at the header length

    Bytes wrongSize;
    wrongSize.u8(0).u8(0).u16(8 + 4 + 12).u32(105).u16(2).u16(12).zeros(12);
    f = decode(linktype::kPpi, wrongSize.append(dataFrame()));
    EXPECT_TRUE(annotated(f, Severity::Error, "ppi.invalid_length"));
}

TEST(Prism, LittleEndianType2Header)
{
    Bytes b = prism(false);
    ASSERT_EQ(b.size(), 144u);
    b.append(dataFrame());
    const Frame f = decode(linktype::kPrism, b);
    EXPECT_EQ(f.annotationCount, 0);
    ASSERT_TRUE(f.hasRadio);
    EXPECT_EQ(f.radio.tsft, 75520589u);
    EXPECT_EQ(f.radio.channelFreqMhz, 2462);
    EXPECT_EQ(f.radio.signalDbm, -67);
    EXPECT_FALSE(f.radio.hasNoise); // status 1: not supplied
    EXPECT_EQ(f.radio.dataRateKbps, 54000u);
    EXPECT_TRUE(f.hasWlan);
    EXPECT_EQ(g_delivered.calls, 1);
}

TEST(Prism, BigEndianType1Header)
{
    Bytes b = prism(true, true);
    b.append(dataFrame());
    const Frame f = decode(linktype::kPrism, b);
    EXPECT_EQ(f.annotationCount, 0);
    EXPECT_EQ(f.radio.tsft, 75520589u);
    EXPECT_EQ(f.radio.signalDbm, -67);
    EXPECT_EQ(f.radio.dataRateKbps, 54000u);
    EXPECT_TRUE(f.hasWlan);
}

TEST(Prism, UnknownMessageCodeFallsBackOnMsglen)
{
    Bytes b = prism(true);
    b.v[3] = 0x99; // message code 0x99
    b.append(dataFrame());
    const Frame f = decode(linktype::kPrism, b);
    EXPECT_TRUE(annotated(f, Severity::Note, "prism.msgcode"));
    EXPECT_EQ(f.radio.signalDbm, -67);
    EXPECT_TRUE(f.hasWlan);

    Bytes bad = prism(false);
    bad.v[0] = 0x99;
    bad.v[4] = 0xff;
    bad.v[5] = 0xff;
    const Frame g = decode(linktype::kPrism, bad);
    EXPECT_TRUE(annotated(g, Severity::Error, "prism.msglen"));
    EXPECT_FALSE(g.hasWlan);
}

TEST(Avs, HeaderOnItsOwnLinkTypeAndUnderPrism)
{
    for (int linkType : {linktype::kAvs, linktype::kPrism}) {
        Bytes b = avs(2);
        b.append(dataFrame());
        const Frame f = decode(linkType, b);
        EXPECT_EQ(f.annotationCount, 0) << linkType;
        EXPECT_EQ(f.radio.tsft, 123456789u);
        EXPECT_EQ(f.radio.channelFreqMhz, 2437); // channel 6
        EXPECT_EQ(f.radio.dataRateKbps, 54000u); // 540 x 100 kbps
        EXPECT_EQ(f.radio.antenna, 1);
        ASSERT_TRUE(f.radio.hasSignal);
        EXPECT_EQ(f.radio.signalDbm, -50);
        EXPECT_EQ(f.radio.noiseDbm, -95);
        EXPECT_TRUE(f.hasWlan);
        EXPECT_EQ(g_delivered.calls, 1);
    }
    // SSI type 1 (normalised RSSI) is not a dBm value.
    Bytes n = avs(1);
    n.append(dataFrame());
    EXPECT_FALSE(decode(linktype::kAvs, n).radio.hasSignal);

    Bytes shortAvs = avs(2);
    shortAvs.v[7] = 200; // length 200 beyond the packet
    const Frame f = decode(linktype::kAvs, shortAvs);
    EXPECT_TRUE(annotated(f, Severity::Error, "wlancap.length"));
    EXPECT_FALSE(f.hasWlan);
}

TEST(RadioHeaders, PrefixesAndNoiseNeverCrash)
{
    std::vector<std::pair<int, Bytes>> samples;
    Bytes p = ppiCommon(1, 4, -50, -90, 9);
    samples.emplace_back(linktype::kPpi, p.append(dataFrame()));
    Bytes q = prism(false);
    samples.emplace_back(linktype::kPrism, q.append(dataFrame()));
    Bytes a = avs(2);
    samples.emplace_back(linktype::kAvs, a.append(dataFrame()));
    for (const auto& [linkType, whole] : samples)
        for (std::size_t n = 0; n <= whole.size(); ++n)
            decode(linkType, whole.prefix(n));
    std::mt19937 rng(7);
    for (int i = 0; i < 10000; ++i) {
        const auto& [linkType, whole] = samples[static_cast<std::size_t>(i) % samples.size()];
        Bytes mutated = whole;
        for (int k = 0; k < 4; ++k)
            mutated.v[rng() % mutated.size()] = static_cast<std::uint8_t>(rng());
        decode(linkType, mutated);
    }
    SUCCEED();
}

TEST(PpiCaptures, PacketnetPerPacketInformationMatchesTshark)
{
    const auto path = publicCapture("packetnet__80211_per_packet_information.pcap");
    WINDSCOPE_REQUIRE_FILE(path);
    const auto t = ingestOrFail(path);
    EXPECT_EQ(t.summary.wlanFrames, 4u);
    EXPECT_EQ(t.summary.malformedPackets, 0u);
    WlanDigest want;
    want.rows = 4;
    want.withSequence = 1;
    want.sequenceSum = 1406;
    want.withSignal = 4;
    want.signalSum = -330; // wlan_radio.signal_dbm
    want.channels = {{2437, 4}};
    want.typeSubtypes = {{0x08, 1}, {0x1c, 2}, {0x1e, 1}};
    EXPECT_EQ(digestOf(t.wlan), want);
    // Frame 1: CTS at 2.0 Mb/s, -84 dBm.
    EXPECT_EQ(t.wlan.dataRateKbps[0], 2000u);
    EXPECT_EQ(t.wlan.signalDbm[0], -84);
}

TEST(PrismCaptures, PypackerPrismMatchesTshark)
{
    const auto path = publicCapture("pypacker__packets_prism.pcap");
    WINDSCOPE_REQUIRE_FILE(path);
    const auto t = ingestOrFail(path);
    EXPECT_EQ(t.summary.wlanFrames, 80u);
    EXPECT_EQ(t.summary.malformedPackets, 0u);
    WlanDigest want;
    want.rows = 80;
    want.withSequence = 65;
    want.sequenceSum = 171661;
    want.retries = 9;
    want.withSignal = 80;
    want.signalSum = -6465; // prism.did.rssi
    want.protectedFrames = 11;
    want.channels = {{0, 80}}; // channel item "not supplied" in every frame
    want.typeSubtypes = {{0x04, 2}, {0x05, 22}, {0x08, 30}, {0x1c, 9}, {0x1d, 6}, {0x20, 11}};
    EXPECT_EQ(digestOf(t.wlan), want);
    // Frame 1: CTS, rate item 22 (11 Mb/s), RSSI -89.
    EXPECT_EQ(t.wlan.dataRateKbps[0], 11000u);
    EXPECT_EQ(t.wlan.signalDbm[0], -89);
}
