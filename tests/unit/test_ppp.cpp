// SPDX-License-Identifier: GPL-3.0-or-later
// PPP link type 9 (RFC 1661/1662) as ns-3's point-to-point devices write it.
#include "test_support.h"

#include "dissectors/dissector_set.h"
#include "dissectors/ingest.h"

#include <cstring>
#include <vector>

using namespace windscope::dissect;

namespace {

using Bytes = std::vector<std::uint8_t>;

std::uint32_t g_key = 0;
std::uint8_t g_first = 0;

template <std::uint32_t Key>
void record(const DissectorSet&, ByteView b, Frame&)
{
    g_key = Key;
    g_first = b.u8(0);
}

DissectorSet testSet()
{
    DissectorSet set;
    registerPpp(set);
    set.etherTypes.add(0x0800, record<0x0800>);
    set.etherTypes.add(0x86dd, record<0x86dd>);
    return set;
}

Frame decode(const Bytes& b)
{
    static const DissectorSet set = testSet();
    g_key = 0;
    g_first = 0;
    Frame f;
    f.reset(1, 0, static_cast<std::uint32_t>(b.size()), static_cast<std::uint32_t>(b.size()),
            linktype::kPpp);
    EXPECT_TRUE(set.decodeLinkLayer(ByteView(b.data(), b.size()), f));
    return f;
}

} // namespace

TEST(Ppp, ProtocolFieldOnlyAsNs3WritesIt)
{
    decode({0x00, 0x21, 0x45, 0x00});
    EXPECT_EQ(g_key, 0x0800u);
    EXPECT_EQ(g_first, 0x45);
}

TEST(Ppp, AddressAndControlBytesAreSkipped)
{
    decode({0xff, 0x03, 0x00, 0x57, 0x60});
    EXPECT_EQ(g_key, 0x86ddu);
    EXPECT_EQ(g_first, 0x60);
}

TEST(Ppp, CompressedProtocolField)
{
    decode({0x21, 0x45});
    EXPECT_EQ(g_key, 0x0800u);
    EXPECT_EQ(g_first, 0x45);
}

TEST(Ppp, TruncatedHeaderIsAnnotated)
{
    const Frame f = decode({0x00});
    EXPECT_EQ(g_key, 0u);
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
