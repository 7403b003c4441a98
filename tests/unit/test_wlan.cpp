// SPDX-License-Identifier: GPL-3.0-or-later
// IEEE 802.11 MAC header decoding (IEEE 802.11-2020 clause 9): hand-built frames of
// every type, and plain 802.11 captures (link type 105) compared with tshark 4.0.17.
#include "dissector_test_kit.h"
#include "wlan_digest.h"

#include <string>

using namespace windscope::dissect;
using namespace windscope::test;

namespace {

Frame decode(const Bytes& b)
{
    static const DissectorSet set = recordingSet({registerWlan, registerLlc});
    return decodeFrame(set, linktype::kIeee80211, b);
}

void address(Bytes& b, unsigned last)
{
    b.raw({0x02, 0x00, 0x00, 0x00, 0x00, last});
}

// Frame control octets: type/subtype octet then flags octet (9.2.4.1).
Bytes start(unsigned type, unsigned subtype, unsigned flags)
{
    return Bytes{subtype << 4 | type << 2, flags, 0x3a, 0x01}; // duration 314
}

// Frame control, duration, then A1 A2 A3 ending in :01, :02 and :03.
Bytes startWithThreeAddresses(unsigned type, unsigned subtype, unsigned flags)
{
    Bytes b = start(type, subtype, flags);
    address(b, 1);
    address(b, 2);
    address(b, 3);
    return b;
}

void llcIp(Bytes& b)
{
    b.raw({0xaa, 0xaa, 0x03, 0x00, 0x00, 0x00, 0x08, 0x00, 0x45}).zeros(19);
}

constexpr unsigned kToDs = 0x01, kFromDs = 0x02, kMoreFrag = 0x04, kRetry = 0x08,
                   kProtected = 0x40, kOrder = 0x80;

} // namespace

TEST(Wlan, ManagementFrame)
{
    Bytes b = start(0, 8, kRetry); // beacon
    address(b, 0xff);
    address(b, 0x01);
    address(b, 0x01);
    b.raw({0x52, 0x07}); // SC 0x0752: seq 117, frag 2
    b.zeros(12);
    const Frame f = decode(b);
    ASSERT_TRUE(f.hasWlan);
    EXPECT_EQ(f.annotationCount, 0);
    EXPECT_EQ(f.wlan.type, 0);
    EXPECT_EQ(f.wlan.subtype, 8);
    EXPECT_EQ(f.wlan.typeSubtype(), 0x08);
    EXPECT_EQ(f.wlan.fc, 0x0880);
    EXPECT_TRUE(f.wlan.retry());
    EXPECT_EQ(f.wlan.duration, 314);
    EXPECT_EQ(f.wlan.addressCount, 3);
    EXPECT_EQ(f.wlan.addr1.bytes[5], 0xff);
    EXPECT_TRUE(f.wlan.hasSequence);
    EXPECT_EQ(f.wlan.sequence, 117);
    EXPECT_EQ(f.wlan.fragment, 2);
    EXPECT_FALSE(f.wlan.hasHtControl);
    EXPECT_EQ(f.wlan.headerLength, 24u);
    EXPECT_EQ(g_delivered.calls, 0);
}

TEST(Wlan, ManagementFrameWithOrderBitCarriesHtControl)
{
    Bytes b = startWithThreeAddresses(0, 13, kOrder); // action frame, +HTC
    b.raw({0x10, 0x00, 0x01, 0x02, 0x03, 0x04, 0x7f});
    const Frame f = decode(b);
    EXPECT_TRUE(f.wlan.hasHtControl);
    EXPECT_EQ(f.wlan.headerLength, 28u);
    EXPECT_EQ(f.annotationCount, 0);

    // The same frame cut inside the HT Control field is malformed.
    b.v.resize(26);
    const Frame g = decode(b);
    EXPECT_TRUE(annotated(g, Severity::Error, "wlan.htc"));
}

struct ControlCase
{
    unsigned subtype;
    std::uint8_t addresses;
    std::uint32_t headerLength;
    bool htControl;
};

class WlanControl : public ::testing::TestWithParam<ControlCase>
{
};

TEST_P(WlanControl, CarriesOnlyItsAddresses)
{
    const ControlCase c = GetParam();
    Bytes b = start(1, c.subtype, 0);
    for (unsigned i = 0; i < 3; ++i)
        address(b, 0x10 + i); // more than any control frame has
    const Frame f = decode(b);
    ASSERT_TRUE(f.hasWlan);
    EXPECT_EQ(f.wlan.type, 1);
    EXPECT_EQ(f.wlan.subtype, c.subtype);
    EXPECT_EQ(f.wlan.addressCount, c.addresses);
    EXPECT_EQ(f.wlan.addr1.bytes[5], 0x10);
    if (c.addresses >= 2) {
        EXPECT_EQ(f.wlan.addr2.bytes[5], 0x11);
    }
    EXPECT_FALSE(f.wlan.hasSequence);
    EXPECT_EQ(f.wlan.hasHtControl, c.htControl);
    EXPECT_EQ(f.wlan.headerLength, c.headerLength);
    EXPECT_EQ(f.annotationCount, 0);
}

INSTANTIATE_TEST_SUITE_P(
    AllControlSubtypes, WlanControl,
    ::testing::Values(ControlCase{2, 2, 16, false},  // Trigger
                      ControlCase{4, 2, 16, false},  // Beamforming Report Poll
                      ControlCase{5, 2, 16, false},  // VHT/HE NDP Announcement
                      ControlCase{7, 1, 16, true},   // Control Wrapper: A1, CFC, HTC
                      ControlCase{8, 2, 16, false},  // Block Ack Request
                      ControlCase{9, 2, 16, false},  // Block Ack
                      ControlCase{10, 2, 16, false}, // PS-Poll: BSSID, TA
                      ControlCase{11, 2, 16, false}, // RTS
                      ControlCase{12, 1, 10, false}, // CTS
                      ControlCase{13, 1, 10, false}, // Ack
                      ControlCase{14, 2, 16, false}, // CF-End
                      ControlCase{15, 2, 16, false}),
    [](const ::testing::TestParamInfo<ControlCase>& caseInfo) {
        return "subtype" + std::to_string(caseInfo.param.subtype);
    });

TEST(Wlan, CtsShorterThanItsHeaderIsMalformed)
{
    Bytes b = start(1, 12, 0);
    b.raw({1, 2, 3});
    const Frame f = decode(b);
    EXPECT_TRUE(f.hasWlan);
    EXPECT_EQ(f.wlan.addressCount, 0);
    EXPECT_TRUE(annotated(f, Severity::Error, "wlan.ra"));
}

TEST(Wlan, DataFrameThreeAddressesDecodesLlc)
{
    Bytes b = startWithThreeAddresses(2, 0, kFromDs);
    b.raw({0x00, 0x10}); // seq 256
    llcIp(b);
    const Frame f = decode(b);
    EXPECT_EQ(f.wlan.addressCount, 3);
    EXPECT_FALSE(f.wlan.hasQos);
    EXPECT_EQ(f.wlan.sequence, 256);
    EXPECT_EQ(f.wlan.headerLength, 24u);
    EXPECT_EQ(g_delivered.calls, 1);
    EXPECT_EQ(g_delivered.size, 20u);
    EXPECT_EQ(g_delivered.first, 0x45);
}

TEST(Wlan, QosDataWithFourAddresses)
{
    // ToDS+FromDS: A1 A2 A3 SC A4 QoS = 32 bytes (9.3.2.1).
    Bytes b = startWithThreeAddresses(2, 8, kToDs | kFromDs);
    b.raw({0x20, 0x00});
    address(b, 4);
    b.raw({0x05, 0x00}); // TID 5
    llcIp(b);
    const Frame f = decode(b);
    EXPECT_EQ(f.wlan.addressCount, 4);
    EXPECT_EQ(f.wlan.addr4.bytes[5], 4);
    EXPECT_TRUE(f.wlan.hasQos);
    EXPECT_EQ(f.wlan.tid(), 5);
    EXPECT_EQ(f.wlan.sequence, 2);
    EXPECT_EQ(f.wlan.headerLength, 32u);
    EXPECT_EQ(g_delivered.calls, 1);
    EXPECT_EQ(g_delivered.size, 20u);
}

TEST(Wlan, QosDataWithHtControl)
{
    Bytes b = startWithThreeAddresses(2, 8, kToDs | kOrder);
    b.raw({0x00, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff});
    llcIp(b);
    const Frame f = decode(b);
    EXPECT_TRUE(f.wlan.hasHtControl);
    EXPECT_EQ(f.wlan.headerLength, 30u);
    EXPECT_EQ(g_delivered.calls, 1);

    // In a non-QoS data frame the Order bit is not +HTC: no HT Control field.
    Bytes n = startWithThreeAddresses(2, 0, kToDs | kOrder);
    n.raw({0x00, 0x00});
    llcIp(n);
    const Frame g = decode(n);
    EXPECT_FALSE(g.wlan.hasHtControl);
    EXPECT_EQ(g.wlan.headerLength, 24u);
    EXPECT_EQ(g_delivered.calls, 1);
}

TEST(Wlan, FramesWithoutAClearWholeMsduAreNotDecoded)
{
    auto frame = [](unsigned subtype, unsigned flags, unsigned sequenceControl) {
        Bytes b = startWithThreeAddresses(2, subtype, flags);
        b.raw({sequenceControl & 0xff, sequenceControl >> 8});
        if (subtype & 0x8)
            b.raw({0, 0});
        llcIp(b);
        return b;
    };
    decode(frame(4, kToDs, 0)); // Null
    EXPECT_EQ(g_delivered.calls, 0);
    decode(frame(12, kToDs, 0)); // QoS Null
    EXPECT_EQ(g_delivered.calls, 0);
    const Frame p = decode(frame(8, kToDs | kProtected, 0)); // encrypted body
    EXPECT_TRUE(p.wlan.isProtected());
    EXPECT_EQ(g_delivered.calls, 0);
    decode(frame(8, kToDs | kMoreFrag, 0)); // first fragment of several
    EXPECT_EQ(g_delivered.calls, 0);
    decode(frame(8, kToDs | kMoreFrag, 0x0011)); // middle fragment
    EXPECT_EQ(g_delivered.calls, 0);
    // Fragment number 6 with More Fragments clear: decoded, as Wireshark does for a
    // "last fragment" with no earlier fragment (seen on every frame of nDPI's CAPWAP
    // sample).
    const Frame last = decode(frame(8, kToDs, 0x3076));
    EXPECT_EQ(last.wlan.fragment, 6);
    EXPECT_EQ(g_delivered.calls, 1);
}

TEST(Wlan, AmsduFirstSubframeIsAnalysed)
{
    Bytes b = startWithThreeAddresses(2, 8, kToDs);
    b.raw({0x00, 0x00, 0x80, 0x00}); // SC, QoS with A-MSDU present (bit 7)
    // Subframe 1: DA SA length 28 (LLC 8 + 20), padded 42 -> 44.
    address(b, 0xd1);
    address(b, 0x51);
    b.raw({0x00, 28});
    llcIp(b);
    b.raw({0, 0});
    // Subframe 2, last, unpadded: a 30-byte MSDU that would be another IP packet.
    address(b, 0xd2);
    address(b, 0x52);
    b.raw({0x00, 30});
    b.raw({0xaa, 0xaa, 0x03, 0x00, 0x00, 0x00, 0x08, 0x00, 0x46});
    b.zeros(21);
    const Frame f = decode(b);
    EXPECT_TRUE(f.wlan.amsdu);
    EXPECT_EQ(g_delivered.calls, 1);
    EXPECT_EQ(g_delivered.size, 20u);
    EXPECT_EQ(g_delivered.first, 0x45);
    EXPECT_TRUE(annotated(f, Severity::Note, "wlan.qos.amsdupresent"));
    EXPECT_FALSE(f.malformed());

    // A subframe claiming more bytes than the frame holds is malformed; the first
    // MSDU, whole, is still analysed.
    b.v[b.size() - 32] = 0x01; // second subframe's length becomes 0x011e
    const Frame g = decode(b);
    EXPECT_TRUE(annotated(g, Severity::Error, "wlan_aggregate.a_mdsu.subframe"));
    EXPECT_EQ(g_delivered.calls, 1);
}

TEST(Wlan, DataPadOnlyWithTheRadiotapFlag)
{
    // Without a radio header the QoS body starts straight after the 26-byte header.
    Bytes b = startWithThreeAddresses(2, 8, kToDs);
    b.raw({0, 0, 0, 0});
    llcIp(b);
    decode(b);
    EXPECT_EQ(g_delivered.calls, 1);
}

TEST(Wlan, ProtocolVersions)
{
    Bytes pv1 = {0x01, 0x00, 0, 0, 0, 0, 0, 0, 0, 0};
    Frame f = decode(pv1);
    EXPECT_FALSE(f.hasWlan);
    EXPECT_TRUE(annotated(f, Severity::Note, "wlan.fc.version"));
    EXPECT_FALSE(f.malformed());

    Bytes pv2 = {0x0a, 0x00, 0, 0, 0, 0, 0, 0, 0, 0};
    f = decode(pv2);
    EXPECT_FALSE(f.hasWlan);
    EXPECT_TRUE(annotated(f, Severity::Error, "wlan.fc.version"));
}

TEST(Wlan, ExtensionFrameHasNoAddresses)
{
    Bytes b = start(3, 0, 0);
    b.fill(20, 0x11);
    const Frame f = decode(b);
    ASSERT_TRUE(f.hasWlan);
    EXPECT_EQ(f.wlan.type, 3);
    EXPECT_EQ(f.wlan.addressCount, 0);
    EXPECT_EQ(f.wlan.headerLength, 4u);
}

TEST(Wlan, EveryPrefixIsSafe)
{
    // 4-address QoS data with +HTC: A1 A2 A3 SC A4 QoS HTC = 36 bytes, then LLC/SNAP.
    Bytes b = start(2, 8, kToDs | kFromDs | kOrder);
    for (unsigned i = 0; i < 3; ++i)
        address(b, i);
    b.raw({0x40, 0x00});
    address(b, 3);
    b.raw({0, 0, 0, 0, 0, 0}); // QoS, HTC
    llcIp(b);
    for (std::size_t n = 0; n < b.size(); ++n) {
        const Frame f = decode(b.prefix(n));
        // A cut header, LLC header or SNAP header is malformed; a cut exactly at the
        // end of the MAC header leaves an empty body, which is not.
        if (n < 36 || (n > 36 && n < 44))
            EXPECT_TRUE(f.malformed()) << n;
        else
            EXPECT_FALSE(f.malformed()) << n;
    }
    const Frame whole = decode(b);
    EXPECT_EQ(whole.wlan.headerLength, 36u);
    EXPECT_EQ(whole.wlan.sequence, 4);
    EXPECT_EQ(whole.wlan.addr4.bytes[5], 3);
    EXPECT_EQ(g_delivered.calls, 1);
}

TEST(WlanCaptures, AircrackN02MatchesTshark)
{
    const auto path = publicCapture("aircrack__n-02.cap");
    WINDSCOPE_REQUIRE_FILE(path);
    const auto t = ingestOrFail(path);
    EXPECT_EQ(t.summary.wlanFrames, 218u);
    EXPECT_EQ(t.summary.malformedPackets, 0u);
    WlanDigest want;
    want.rows = 218;
    want.withSequence = 154;
    want.sequenceSum = 162300;
    want.retries = 12;
    want.protectedFrames = 103;
    want.channels = {{0, 218}};
    want.typeSubtypes = {{0x00, 1},  {0x01, 1},  {0x02, 1},  {0x03, 1}, {0x04, 9},
                         {0x05, 9},  {0x08, 1},  {0x0b, 4},  {0x0d, 25}, {0x0e, 1},
                         {0x15, 8},  {0x18, 1},  {0x19, 3},  {0x1c, 3}, {0x1d, 49},
                         {0x20, 81}, {0x24, 16}, {0x28, 4}};
    EXPECT_EQ(digestOf(t.wlan), want);
}

TEST(WlanCaptures, AircrackWpa2LinksysMatchesTshark)
{
    const auto path = publicCapture("aircrack__wpa2-psk-linksys.cap");
    WINDSCOPE_REQUIRE_FILE(path);
    const auto t = ingestOrFail(path);
    WlanDigest want;
    want.rows = 499;
    want.withSequence = 336;
    want.sequenceSum = 185212;
    want.retries = 23;
    want.protectedFrames = 32;
    want.channels = {{0, 499}};
    want.typeSubtypes = {{0x00, 4}, {0x01, 4},   {0x04, 18}, {0x05, 6},  {0x08, 85},
                         {0x0b, 8}, {0x0c, 3},   {0x1d, 163}, {0x20, 44}, {0x24, 164}};
    EXPECT_EQ(digestOf(t.wlan), want);
}
