// SPDX-License-Identifier: GPL-3.0-or-later
// Radiotap decoding: hand-built headers with hand-computed field offsets (alignment is
// relative to the start of the radiotap header, radiotap.org), and real captures
// summarised and compared with tshark 4.0.17.
#include "dissector_test_kit.h"
#include "wlan_digest.h"

#include <initializer_list>
#include <random>

using namespace windscope::dissect;
using namespace windscope::test;

namespace {

const DissectorSet& radioSet()
{
    static const DissectorSet set = recordingSet({registerRadiotap, registerWlan, registerLlc});
    return set;
}

// QoS Data, ToDS, seq 1: FC 88 01, duration, A1 A2 A3, SC, QoS (26 bytes), then
// LLC/SNAP for IPv4 and a 20-byte stand-in for the IP header.
Bytes qosData()
{
    Bytes b;
    b.raw({0x88, 0x01, 0x2c, 0x00});
    b.raw({0x00, 0x11, 0x22, 0x33, 0x44, 0x55}); // A1 BSSID
    b.raw({0x02, 0xaa, 0xbb, 0xcc, 0xdd, 0xee}); // A2 SA
    b.raw({0x00, 0x66, 0x77, 0x88, 0x99, 0xaa}); // A3 DA
    b.le16(1 << 4).le16(0x0000);
    b.raw({0xaa, 0xaa, 0x03, 0x00, 0x00, 0x00, 0x08, 0x00});
    b.u8(0x45).zeros(19);
    return b;
}

Frame decode(const DissectorSet& set, const Bytes& b, std::uint32_t originalLength = 0)
{
    return decodeFrame(set, linktype::kRadiotap, b, originalLength);
}

Bytes header(std::initializer_list<std::uint32_t> present, std::size_t itLen)
{
    Bytes b;
    b.u8(0).u8(0).le16(static_cast<unsigned>(itLen));
    for (std::uint32_t word : present)
        b.le32(word);
    return b;
}

} // namespace

TEST(Radiotap, CommonFieldsAndAlignment)
{
    // TSFT(0) Flags(1) Rate(2) Channel(3) dBm signal(5) dBm noise(6) Antenna(11):
    // TSFT at 8 (already 8-aligned), flags 16, rate 17, channel 18-21, signal 22,
    // noise 23, antenna 24; it_len 25.
    Bytes b = header({0x0000086f}, 25);
    b.le64(0x0123456789abcdefULL).u8(0x02).u8(12).le16(2437).le16(0x00c0);
    b.u8(static_cast<std::uint8_t>(-61)).u8(static_cast<std::uint8_t>(-95)).u8(1);
    ASSERT_EQ(b.size(), 25u);
    b.append(qosData());
    const Frame f = decode(radioSet(), b);
    ASSERT_TRUE(f.hasRadio);
    EXPECT_EQ(f.annotationCount, 0);
    EXPECT_TRUE(f.radio.hasTsft);
    EXPECT_EQ(f.radio.tsft, 0x0123456789abcdefULL);
    EXPECT_EQ(f.radio.flags, 0x02);
    EXPECT_EQ(f.radio.dataRateKbps, 6000u); // 12 x 500 kbps
    EXPECT_EQ(f.radio.channelFreqMhz, 2437);
    EXPECT_EQ(f.radio.channelFlags, 0x00c0);
    EXPECT_EQ(f.radio.signalDbm, -61);
    EXPECT_EQ(f.radio.noiseDbm, -95);
    EXPECT_TRUE(f.radio.hasAntenna);
    EXPECT_EQ(f.radio.antenna, 1);
    ASSERT_TRUE(f.hasWlan);
    EXPECT_EQ(f.wlan.sequence, 1);
    EXPECT_EQ(g_delivered.calls, 1);
    EXPECT_EQ(g_delivered.size, 20u);
    EXPECT_EQ(g_delivered.first, 0x45);
}

TEST(Radiotap, PaddingBeforeTwoAndFourByteFields)
{
    // Flags(1) at 8; Channel(3) aligned to 2 -> 10..13; dBm signal(5) 14; MCS(19)
    // 15..17; A-MPDU status(20) aligned to 4 -> 20..27; it_len 28.
    Bytes b = header({(1u << 1) | (1u << 3) | (1u << 5) | (1u << 19) | (1u << 20)}, 28);
    b.u8(0x00).u8(0xee).le16(5180).le16(0x0140).u8(static_cast<std::uint8_t>(-47));
    b.raw({0x07, 0x04, 7}); // MCS known: bw, index, GI; short GI; MCS 7
    b.zeros(2).le32(0xdeadbeef).le16(0x0003).u8(0).u8(0);
    ASSERT_EQ(b.size(), 28u);
    b.append(qosData());
    const Frame f = decode(radioSet(), b);
    EXPECT_EQ(f.annotationCount, 0);
    EXPECT_EQ(f.radio.channelFreqMhz, 5180);
    EXPECT_EQ(f.radio.signalDbm, -47);
    ASSERT_TRUE(f.radio.hasMcs);
    EXPECT_EQ(f.radio.mcsIndex, 7);
    EXPECT_EQ(f.radio.mcsBandwidth, 0);
    EXPECT_TRUE(f.radio.mcsShortGi);
    // MCS 7, 20 MHz, one stream, 400 ns GI: 260 bits / 3.6 us = 72.2 Mb/s.
    EXPECT_EQ(f.radio.dataRateKbps, 72222u);
    ASSERT_TRUE(f.radio.hasAmpdu);
    EXPECT_EQ(f.radio.ampduReference, 0xdeadbeefu);
    EXPECT_EQ(f.radio.ampduFlags, 0x0003);
    EXPECT_TRUE(f.hasWlan);
}

TEST(Radiotap, ExtendedBitmapWithPerChainWords)
{
    // Linux mac80211 layout: word 0 (Flags, signal, radiotap NS next, Ext), word 1 and
    // word 2 per receive chain (signal, antenna). Fields start after the three words
    // at 16: flags 16, signal 17, chain 0 signal 18, antenna 19, chain 1 signal 20,
    // antenna 21. The first signal, the combined one, is the one kept.
    const std::uint32_t ns = 1u << 29, ext = 1u << 31;
    Bytes b = header({(1u << 1) | (1u << 5) | ns | ext, (1u << 5) | (1u << 11) | ns | ext,
                      (1u << 5) | (1u << 11)},
                     22);
    b.u8(0x10).u8(static_cast<std::uint8_t>(-40));
    b.u8(static_cast<std::uint8_t>(-42)).u8(0);
    b.u8(static_cast<std::uint8_t>(-44)).u8(1);
    ASSERT_EQ(b.size(), 22u);
    b.append(qosData()).raw({1, 2, 3, 4}); // FCS
    const Frame f = decode(radioSet(), b);
    EXPECT_EQ(f.annotationCount, 0);
    EXPECT_EQ(f.radio.signalDbm, -40);
    EXPECT_EQ(f.radio.antenna, 0);
    EXPECT_TRUE(f.radio.fcsAtEnd());
    EXPECT_EQ(g_delivered.size, 20u); // FCS stripped
}

TEST(Radiotap, TsftAlignedAfterTwoPresenceWords)
{
    // Two words end at 12; TSFT needs 8-byte alignment from the header start, so it
    // sits at 16 after 4 pad bytes. The second word (fields 32-63) is empty.
    Bytes b = header({1u | (1u << 31), 0}, 24);
    b.zeros(4).le64(1234567);
    ASSERT_EQ(b.size(), 24u);
    b.append(qosData());
    const Frame f = decode(radioSet(), b);
    EXPECT_EQ(f.annotationCount, 0);
    EXPECT_EQ(f.radio.tsft, 1234567u);
    EXPECT_TRUE(f.hasWlan);
}

TEST(Radiotap, VendorNamespaceIsSkipped)
{
    // Word 0: Flags, vendor NS next, Ext. Word 1 (vendor namespace): two vendor
    // fields, radiotap NS next, Ext. Word 2 (radiotap, numbering restarts): signal.
    // Data from 16: flags 16; vendor header aligned to 2 at 18 {OUI 00:11:22,
    // sub-ns 0, skip_length 3}, vendor data 24..26; signal 27; it_len 28.
    const std::uint32_t ns = 1u << 29, vns = 1u << 30, ext = 1u << 31;
    Bytes b = header({(1u << 1) | vns | ext, 0x3u | ns | ext, 1u << 5}, 28);
    b.u8(0x00).u8(0xff);                              // flags, pad
    b.raw({0x00, 0x11, 0x22, 0x00}).le16(3);          // vendor namespace header
    b.raw({0x99, 0x99, 0x99});                        // vendor data
    b.u8(static_cast<std::uint8_t>(-70));
    ASSERT_EQ(b.size(), 28u);
    b.append(qosData());
    const Frame f = decode(radioSet(), b);
    EXPECT_EQ(f.annotationCount, 0);
    ASSERT_TRUE(f.radio.hasSignal);
    EXPECT_EQ(f.radio.signalDbm, -70);
    EXPECT_TRUE(f.hasWlan);
}

TEST(Radiotap, BadFcsFlagAndFcsStripping)
{
    Bytes b = header({1u << 1}, 9);
    b.u8(RadioInfo::kFlagFcsAtEnd | RadioInfo::kFlagBadFcs);
    b.append(qosData()).raw({0xde, 0xad, 0xbe, 0xef});
    const Frame f = decode(radioSet(), b);
    EXPECT_TRUE(f.radio.badFcs());
    EXPECT_TRUE(f.radio.fcsAtEnd());
    EXPECT_FALSE(f.malformed());
    EXPECT_EQ(g_delivered.size, 20u);

    // Cut by a snap length 10 bytes short of the frame: no FCS byte was captured, so
    // nothing is stripped.
    Bytes cut = header({1u << 1}, 9);
    cut.u8(RadioInfo::kFlagFcsAtEnd).append(qosData());
    decode(radioSet(), cut, static_cast<std::uint32_t>(cut.size() + 10));
    EXPECT_EQ(g_delivered.size, 20u);
}

TEST(Radiotap, DataPadAlignsTheBody)
{
    // QoS data header is 26 bytes; with data pad (flags 0x20) two pad bytes follow.
    Bytes b = header({1u << 1}, 9);
    b.u8(RadioInfo::kFlagDataPad);
    Bytes frame = qosData();
    frame.v.insert(frame.v.begin() + 26, {0xff, 0xff});
    b.append(frame);
    const Frame f = decode(radioSet(), b);
    EXPECT_EQ(f.wlan.headerLength, 26u);
    EXPECT_EQ(g_delivered.calls, 1);
    EXPECT_EQ(g_delivered.first, 0x45);
}

TEST(Radiotap, HtVhtAndHeRates)
{
    // MCS 15 (two streams), 40 MHz, 800 ns GI: 2 x 540 bits / 4 us = 270 Mb/s.
    Bytes ht = header({1u << 19}, 11);
    ht.raw({0x07, 0x01, 15}).append(qosData());
    Frame f = decode(radioSet(), ht);
    EXPECT_EQ(f.radio.mcsBandwidth, 1);
    EXPECT_EQ(f.radio.dataRateKbps, 270000u);

    // VHT at 8 (align 2): known GI + bandwidth, short GI, 80 MHz, user 0 MCS 9 NSS 2:
    // 2 x 1560 bits / 3.6 us = 866.6 Mb/s.
    Bytes vht = header({1u << 21}, 20);
    vht.le16(0x0044).u8(0x04).u8(4).raw({0x92, 0, 0, 0}).u8(0).u8(0).le16(0);
    vht.append(qosData());
    f = decode(radioSet(), vht);
    ASSERT_TRUE(f.radio.hasVht);
    EXPECT_EQ(f.radio.vhtMcs, 9);
    EXPECT_EQ(f.radio.vhtNss, 2);
    EXPECT_EQ(f.radio.vhtBandwidthMhz, 80);
    EXPECT_EQ(f.radio.dataRateKbps, 866666u);

    // VHT MCS 9 at 20 MHz with one stream is not a valid combination: no rate.
    Bytes bad = header({1u << 21}, 20);
    bad.le16(0x0044).u8(0).u8(0).raw({0x91, 0, 0, 0}).u8(0).u8(0).le16(0).append(qosData());
    f = decode(radioSet(), bad);
    EXPECT_EQ(f.radio.vhtBandwidthMhz, 20);
    EXPECT_EQ(f.radio.dataRateKbps, 0u);

    // HE (bit 23) at 8: data1 says "data MCS known", data3 bits 8-11 hold MCS 11.
    Bytes he = header({1u << 23}, 20);
    he.le16(0x0020).le16(0).le16(0x0b00).le16(0).le16(0).le16(0).append(qosData());
    f = decode(radioSet(), he);
    ASSERT_TRUE(f.radio.hasHe);
    EXPECT_EQ(f.radio.heMcs, 11);
}

TEST(Radiotap, EveryDefinedFieldIsWalked)
{
    // Fields 0-27 all present; the signal sits behind all of them only if every size
    // and alignment is right. Offsets (from 8): TSFT 8-15, flags 16, rate 17, channel
    // 18-21, FHSS 22-23, signal 24, noise 25, lock 26-27, tx att 28-29, dB tx att
    // 30-31, tx power 32, antenna 33, dB signal 34, dB noise 35, rx flags 36-37, tx
    // flags 38-39, rts 40, data retries 41, xchannel 44-51, MCS 52-54, A-MPDU 56-63,
    // VHT 64-75, timestamp 80-91, HE 92-103, HE-MU 104-115, HE-MU-user 116-121,
    // 0-length PSDU 122, L-SIG 124-127; it_len 128.
    Bytes b = header({0x0fffffff}, 128);
    b.v.resize(128, 0);
    b.v[16] = RadioInfo::kFlagShortPreamble;
    b.v[24] = static_cast<std::uint8_t>(-33);
    b.v[56] = 0x2a; // A-MPDU reference 42
    b.v[122] = 0xff;
    b.append(qosData());
    const Frame f = decode(radioSet(), b);
    EXPECT_EQ(f.annotationCount, 0);
    EXPECT_EQ(f.radio.flags, RadioInfo::kFlagShortPreamble);
    EXPECT_EQ(f.radio.signalDbm, -33);
    EXPECT_EQ(f.radio.ampduReference, 42u);
    EXPECT_TRUE(f.hasWlan);
}

TEST(Radiotap, TlvsEndTheFixedFields)
{
    // Flags then TLVs (bit 28) from 12 to it_len: a TLV of type 32, length 4.
    Bytes b = header({(1u << 1) | (1u << 28)}, 20);
    b.u8(0).zeros(3).le16(32).le16(4).le32(0);
    b.append(qosData());
    const Frame f = decode(radioSet(), b);
    EXPECT_EQ(f.annotationCount, 0);
    EXPECT_TRUE(f.hasWlan);
}

TEST(Radiotap, UnknownFieldStopsTheWalkButNotTheFrame)
{
    // Word 1 without a namespace switch numbers fields 32-63, none of them defined.
    Bytes b = header({(1u << 1) | (1u << 31), 1u}, 13);
    b.u8(0).append(qosData());
    const Frame f = decode(radioSet(), b);
    EXPECT_TRUE(annotated(f, Severity::Warning, "radiotap.present"));
    EXPECT_FALSE(f.malformed());
    EXPECT_TRUE(f.hasWlan);
    EXPECT_EQ(g_delivered.calls, 1);
}

TEST(Radiotap, BogusPresenceBitsAreMalformedYetThe80211FrameIsFound)
{
    // TSFT announced but it_len leaves no room for it.
    Bytes b = header({1u}, 12);
    b.zeros(4).append(qosData());
    const Frame f = decode(radioSet(), b);
    EXPECT_TRUE(annotated(f, Severity::Error, "radiotap.present"));
    EXPECT_TRUE(f.malformed());
    EXPECT_TRUE(f.hasWlan);

    // Presence words chaining past it_len.
    Bytes chain = header({1u << 31, 1u << 31}, 12);
    chain.append(qosData());
    const Frame g = decode(radioSet(), chain);
    EXPECT_TRUE(annotated(g, Severity::Error, "radiotap.present"));
}

TEST(Radiotap, BadLengths)
{
    Bytes shortHeader;
    shortHeader.raw({0, 0, 8, 0, 0});
    Frame f = decode(radioSet(), shortHeader);
    EXPECT_TRUE(annotated(f, Severity::Error, "radiotap.length"));
    EXPECT_FALSE(f.hasWlan);

    Bytes tooSmall = header({0}, 6);
    tooSmall.append(qosData());
    f = decode(radioSet(), tooSmall);
    EXPECT_TRUE(annotated(f, Severity::Error, "radiotap.length"));
    EXPECT_FALSE(f.hasWlan);

    Bytes tooLong = header({0}, 4000);
    tooLong.append(qosData());
    f = decode(radioSet(), tooLong);
    EXPECT_TRUE(annotated(f, Severity::Error, "radiotap.length"));
    EXPECT_FALSE(f.hasRadio);
    EXPECT_FALSE(f.hasWlan);
}

TEST(Radiotap, TruncationsAndNoiseNeverCrash)
{
    // Every prefix of a rich frame, then random bytes behind a plausible header.
    Bytes b = header({0x0fffffff}, 128);
    b.v.resize(128, 0);
    b.append(qosData());
    const DissectorSet& set = radioSet();
    for (std::size_t n = 0; n <= b.size(); ++n)
        decode(set, b.prefix(n));
    std::mt19937 rng(20240601);
    for (int i = 0; i < 20000; ++i) {
        Bytes r;
        const std::size_t len = rng() % 96;
        for (std::size_t k = 0; k < len; ++k)
            r.u8(rng() & 0xff);
        if (len >= 4) {
            r.v[0] = 0;
            r.v[2] = static_cast<std::uint8_t>(rng() % (len + 1));
            r.v[3] = 0;
        }
        decode(set, r);
    }
    SUCCEED();
}

TEST(RadiotapCaptures, Networks744Active1MatchesTshark)
{
    const auto path = publicCapture("networks744__active1.pcap");
    WINDSCOPE_REQUIRE_FILE(path);
    const auto t = ingestOrFail(path);
    EXPECT_EQ(t.summary.wlanFrames, 379u);
    EXPECT_EQ(t.summary.badFcsFrames, 59u); // radiotap.flags.badfcs == 1
    WlanDigest want;
    want.rows = 379;
    want.withSequence = 379;
    want.sequenceSum = 75217;
    want.retries = 69;
    want.withSignal = 369;
    want.signalSum = -19467;
    want.badFcs = 59;
    want.channels = {{2412, 379}};
    want.typeSubtypes = {{0x28, 379}};
    EXPECT_EQ(digestOf(t.wlan), want);
    // Frame 1 per tshark: QoS data, seq 81, -55 dBm, MCS 6 at 20 MHz with 800 ns GI
    // (58.5 Mb/s), A-MPDU reference 81.
    ASSERT_GT(t.wlan.size(), 0u);
    EXPECT_EQ(t.wlan.sequenceControl[0] >> 4, 81);
    EXPECT_EQ(t.wlan.signalDbm[0], -55);
    EXPECT_EQ(t.wlan.mcs[0], 6);
    EXPECT_EQ(t.wlan.dataRateKbps[0], 58500u);
    EXPECT_EQ(t.wlan.ampduReference[0], 81u + 1u); // the column stores reference + 1
}

TEST(RadiotapCaptures, Ns3AccessPointMatchesTshark)
{
    const auto path = publicCapture("ns3pygenp__AccessPoint-0-0.pcap");
    WINDSCOPE_REQUIRE_FILE(path);
    const auto t = ingestOrFail(path);
    WlanDigest want;
    want.rows = 17023;
    want.withSequence = 15015;
    want.sequenceSum = 27186264;
    want.withSignal = 10999;
    want.signalSum = -362967;
    want.channels = {{5180, 17023}};
    want.typeSubtypes = {{0x00, 1}, {0x01, 1}, {0x08, 17}, {0x0d, 4},
                         {0x19, 1997}, {0x1d, 11}, {0x28, 14992}};
    EXPECT_EQ(digestOf(t.wlan), want);
    EXPECT_EQ(t.summary.malformedPackets, 0u);
}

TEST(RadiotapCaptures, VendorNamespaceCaptureMatchesTshark)
{
    // Presence words 0x4000086f and 0xc000086f,0x40000000: vendor namespaces.
    const auto path = publicCapture("wifidoctor-stavros__home_network2.PM.pcapng");
    WINDSCOPE_REQUIRE_FILE(path);
    const auto t = ingestOrFail(path);
    WlanDigest want;
    want.rows = 3487;
    want.withSequence = 1304;
    want.sequenceSum = 2788727;
    want.retries = 146;
    want.withSignal = 3487;
    want.signalSum = -237924;
    want.protectedFrames = 59;
    want.channels = {{2432, 3487}};
    want.typeSubtypes = {{0x04, 63},  {0x05, 378}, {0x08, 726}, {0x18, 34}, {0x19, 612},
                         {0x1b, 72},  {0x1c, 824}, {0x1d, 342}, {0x1e, 299}, {0x20, 48},
                         {0x24, 2},   {0x28, 11},  {0x2c, 76}};
    EXPECT_EQ(digestOf(t.wlan), want);
    EXPECT_EQ(t.summary.malformedPackets, 0u);
}

TEST(RadiotapCaptures, ExtendedBitmapCaptureMatchesTshark)
{
    // Three presence words with radiotap-namespace switches (0xa040402f,...).
    const auto path = publicCapture("arkime__80211http.pcap");
    WINDSCOPE_REQUIRE_FILE(path);
    const auto t = ingestOrFail(path);
    WlanDigest want;
    want.rows = 26;
    want.withSequence = 26;
    want.sequenceSum = 59833;
    want.retries = 2;
    want.withSignal = 26;
    want.signalSum = -1405;
    want.channels = {{2462, 26}};
    want.typeSubtypes = {{0x20, 26}};
    EXPECT_EQ(digestOf(t.wlan), want);
}

TEST(RadiotapCaptures, PacketnetRadiotapSkipsBadProtocolVersions)
{
    // 225 frames, 5 of which have 802.11 protocol version 2 or 3 (damaged frames):
    // tshark shows wlan.fc.type_subtype for 220.
    const auto path = publicCapture("packetnet__80211_plus_radiotap_header.pcap");
    WINDSCOPE_REQUIRE_FILE(path);
    const auto t = ingestOrFail(path);
    EXPECT_EQ(t.summary.packets, 225u);
    EXPECT_EQ(t.summary.wlanFrames, 220u);
    EXPECT_EQ(t.summary.malformedPackets, 5u);
    WlanDigest want;
    want.rows = 220;
    want.withSequence = 72;
    want.sequenceSum = 140670;
    want.retries = 1;
    want.withSignal = 220;
    want.signalSum = -17897;
    want.channels = {{2437, 220}};
    want.typeSubtypes = {{0x04, 4}, {0x05, 2}, {0x08, 66}, {0x1c, 81},
                         {0x1d, 2}, {0x1e, 63}, {0x36, 1}, {0x38, 1}};
    EXPECT_EQ(digestOf(t.wlan), want);
}

TEST(RadiotapCaptures, ChannelCaptureWithPv1AndDamagedFrames)
{
    // 1210 frames: 28 PV1 frames (noted, not decoded), 46 with version 2 or 3
    // (damaged), 1136 decoded. radiotap.flags.badfcs == 1 on 191 frames in all, 117
    // of them among the decoded ones.
    const auto path = publicCapture("networks744__testing_active1.pcap");
    WINDSCOPE_REQUIRE_FILE(path);
    const auto t = ingestOrFail(path);
    EXPECT_EQ(t.summary.packets, 1210u);
    EXPECT_EQ(t.summary.wlanFrames, 1136u);
    EXPECT_EQ(t.summary.badFcsFrames, 191u);
    const WlanDigest d = digestOf(t.wlan);
    EXPECT_EQ(d.badFcs, 117u);
    EXPECT_EQ(d.sequenceSum, 2450393u);
    EXPECT_EQ(d.retries, 24u);
    EXPECT_EQ(d.signalSum, -85418);
    EXPECT_EQ(d.protectedFrames, 21u);
}
