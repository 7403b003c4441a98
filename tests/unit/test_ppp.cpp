// SPDX-License-Identifier: GPL-3.0-or-later
// PPP link type 9 (RFC 1661/1662) as ns-3's point-to-point devices write it.
#include "dissector_test_kit.h"

using namespace windscope::dissect;
using namespace windscope::test;

namespace {

Frame decode(const Bytes& b)
{
    static const DissectorSet set = recordingSet({registerPpp});
    return decodeFrame(set, linktype::kPpp, b);
}

} // namespace

TEST(Ppp, ProtocolFieldOnlyAsNs3WritesIt)
{
    decode({0x00, 0x21, 0x45, 0x00});
    EXPECT_EQ(g_delivered.key, 0x0800u);
    EXPECT_EQ(g_delivered.first, 0x45);
}

TEST(Ppp, AddressAndControlBytesAreSkipped)
{
    decode({0xff, 0x03, 0x00, 0x57, 0x60});
    EXPECT_EQ(g_delivered.key, 0x86ddu);
    EXPECT_EQ(g_delivered.first, 0x60);
}

TEST(Ppp, CompressedProtocolField)
{
    decode({0x21, 0x45});
    EXPECT_EQ(g_delivered.key, 0x0800u);
    EXPECT_EQ(g_delivered.first, 0x45);
}

TEST(Ppp, TruncatedHeaderIsAnnotated)
{
    const Frame f = decode({0x00});
    EXPECT_EQ(g_delivered.key, 0u);
    ASSERT_GE(f.annotationCount, 1);
    EXPECT_STREQ(f.annotations[0].field, "ppp.protocol");
}

TEST(Ppp, Ns3WiredCaptureYieldsTheConnection)
{
    const auto path = windscope::test::labDir("ns3/A-scan-none/wired-server.pcap");
    WINDSCOPE_REQUIRE_FILE(path);
    CaptureTables tables;
    std::string error;
    ASSERT_TRUE(ingestCapture(path.string(), {}, tables, error)) << error;
    EXPECT_EQ(tables.summary.malformedPackets, 0u);
    EXPECT_EQ(tables.summary.tcpSegments, tables.summary.packets);
}
