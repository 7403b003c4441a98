// SPDX-License-Identifier: GPL-3.0-or-later
// Capture reading and the wired link layers, checked against tshark's view of the same
// files (counts noted next to each expectation were taken with tshark 4.0.17).
#include "dissector_test_kit.h"

#include "dissectors/capture_reader.h"
#include "dissectors/dissector_set.h"
#include "dissectors/ingest.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <unistd.h>

using namespace windscope;
using windscope::test::ingestOrFail;
using windscope::test::publicCapture;
using windscope::test::testData;

namespace {

std::size_t conversationsWithRows(const dissect::CaptureTables& t)
{
    std::vector<std::uint32_t> seen(t.tcp.conversation.begin(), t.tcp.conversation.end());
    std::sort(seen.begin(), seen.end());
    return static_cast<std::size_t>(std::unique(seen.begin(), seen.end()) - seen.begin());
}

struct LinkCase
{
    const char* file;
    int linkType;
    std::uint64_t packets;
    std::uint64_t tcpSegments; // tshark -Y tcp | wc -l
};

class PublicLinkTypes : public ::testing::TestWithParam<LinkCase>
{
};

} // namespace

TEST_P(PublicLinkTypes, CountsMatchTshark)
{
    const LinkCase& c = GetParam();
    const auto path = publicCapture(c.file);
    WINDSCOPE_REQUIRE_FILE(path);
    const dissect::CaptureTables t = ingestOrFail(path);
    EXPECT_EQ(t.summary.packets, c.packets);
    EXPECT_EQ(t.summary.tcpSegments, c.tcpSegments);
    ASSERT_FALSE(t.summary.linkTypes.empty());
    EXPECT_EQ(t.summary.linkTypes.front(), c.linkType);
    EXPECT_EQ(t.summary.malformedPackets, 0u);
    EXPECT_FALSE(t.summary.truncated);
}

INSTANTIATE_TEST_SUITE_P(
    Wired, PublicLinkTypes,
    ::testing::Values(LinkCase{"lwerdna__simple_http_sll2.pcap", dissect::linktype::kSll2, 24, 24},
                      LinkCase{"pcapplusplus__sll.pcap", dissect::linktype::kSll, 518, 483},
                      LinkCase{"pcapplusplus__raw_ip.pcap", dissect::linktype::kRaw, 100, 92},
                      LinkCase{"tcptrace__dlt_null.dmp.gz", dissect::linktype::kNull, 470, 470},
                      LinkCase{"tcptrace__discard.solaris.dmp.gz", dissect::linktype::kEthernet,
                               2550, 2550},
                      LinkCase{"kurose-moranzcw__tcp-ethereal-trace-1",
                               dissect::linktype::kEthernet, 213, 202},
                      LinkCase{"zeek__echo-connections.pcap.gz", dissect::linktype::kEthernet,
                               82582, 82582}));

TEST(CaptureReader, BigEndianGzipTimestamps)
{
    const auto path = publicCapture("tcptrace__discard.solaris.dmp.gz");
    WINDSCOPE_REQUIRE_FILE(path);
    const dissect::CaptureTables t = ingestOrFail(path);
    // tshark: frame.time_epoch of frame 1 = 776033277.261947000
    EXPECT_EQ(t.summary.firstEpochNs, 776033277261947000LL);
    EXPECT_EQ(conversationsWithRows(t), 5u); // tshark: 5 tcp.stream values
}

TEST(CaptureReader, PcapngWithInterfacesOfDifferentLinkTypes)
{
    // Interface 0 is Ethernet, interface 10 BSD loopback; libpcap refuses such files,
    // the native block reader takes over where it stopped.
    const auto path = publicCapture("pcapplusplus__many_interfaces-1.pcapng");
    WINDSCOPE_REQUIRE_FILE(path);
    const dissect::CaptureTables t = ingestOrFail(path);
    EXPECT_EQ(t.summary.packets, 64u);
    EXPECT_EQ(t.summary.tcpSegments, 32u);
    EXPECT_FALSE(t.summary.truncated) << (t.summary.warnings.empty() ? "" : t.summary.warnings[0]);
    EXPECT_NE(std::find(t.summary.linkTypes.begin(), t.summary.linkTypes.end(),
                        dissect::linktype::kNull),
              t.summary.linkTypes.end());
    EXPECT_EQ(t.summary.firstEpochNs, 1439753725701607000LL);
    ASSERT_GE(t.tcp.size(), 1u);
    EXPECT_EQ(t.tcp.frame.front(), 24u); // tshark -Y tcp: first TCP frame is 24
    EXPECT_EQ(conversationsWithRows(t), 2u);
}

TEST(CaptureReader, VlanTaggedEthernet)
{
    const dissect::CaptureTables t = ingestOrFail(testData("vlan-tcp.pcap"));
    EXPECT_EQ(t.summary.packets, 12u);
    EXPECT_EQ(t.summary.tcpSegments, 12u);
    ASSERT_EQ(t.tcpSideOptions.size(), 2u); // the two SYNs carry MSS/WS/SACK-permitted
    EXPECT_EQ(t.tcpSideOptions[0].mss, 1460);
    EXPECT_EQ(t.tcpSideOptions[0].windowScale, 7);
    EXPECT_TRUE(t.tcpSideOptions[0].sackPermitted);
    EXPECT_EQ(t.tcp.payloadLength[3], 100u);
    EXPECT_EQ(t.tcp.tsVal[0], 1u);
    EXPECT_TRUE(t.tcp.flags[0] & dissect::TcpColumns::kHasTimestamps);
    EXPECT_EQ(t.summary.firstEpochNs, 1600000000000000000LL);
    EXPECT_EQ(t.tcp.timeNs[1], 10'000'000); // SYN-ACK 10 ms later
}

TEST(CaptureReader, GzipGivesTheSameTablesAsPlain)
{
    const dissect::CaptureTables plain = ingestOrFail(testData("vlan-tcp.pcap"));
    const dissect::CaptureTables gz = ingestOrFail(testData("vlan-tcp.pcap.gz"));
    EXPECT_EQ(plain.tcp.seq, gz.tcp.seq);
    EXPECT_EQ(plain.tcp.timeNs, gz.tcp.timeNs);
    EXPECT_EQ(plain.summary.bytesCaptured, gz.summary.bytesCaptured);
}

TEST(CaptureReader, Ipv6ExtensionHeadersBigEndianNanosecondPcap)
{
    const dissect::CaptureTables t = ingestOrFail(testData("ipv6-ext-tcp-be-ns.pcap"));
    EXPECT_EQ(t.summary.tcpSegments, 12u);
    ASSERT_EQ(t.conversations.size(), 1u);
    EXPECT_EQ(t.ipAddresses.at(t.conversations[0].addrA).toString(), "2001:db8::1");
    EXPECT_EQ(t.tcp.timeNs[4], 11'010'000); // nanosecond resolution kept
    EXPECT_EQ(t.tcp.payloadLength[4], 100u);
}

TEST(CaptureReader, TruncatedFileKeepsPacketsBeforeTheCut)
{
    dissect::CaptureTables t;
    std::string error;
    const auto path = testData("truncated.pcap");
    ASSERT_TRUE(dissect::ingestCapture(path.string(), {}, t, error)) << error;
    EXPECT_TRUE(t.summary.truncated);
    EXPECT_EQ(t.summary.packets, 6u); // tshark shows 6 packets, then "cut short"
    ASSERT_EQ(t.summary.warnings.size(), 1u);
    const std::string& w = t.summary.warnings[0];
    EXPECT_NE(w.find("truncated.pcap"), std::string::npos) << w;
    EXPECT_NE(w.find("cut short in packet 7"), std::string::npos) << w;
    EXPECT_NE(w.find("packets 1-6"), std::string::npos) << w;
}

TEST(CaptureReader, NotACaptureIsRefusedWithTheFileNamed)
{
    dissect::CaptureTables t;
    std::string error;
    EXPECT_FALSE(dissect::ingestCapture(testData("not-a-capture.txt").string(), {}, t, error));
    EXPECT_NE(error.find("not-a-capture.txt"), std::string::npos) << error;
    EXPECT_NE(error.find("not a pcap or pcapng capture file"), std::string::npos) << error;
}

TEST(CaptureReader, MissingFileAndDirectoryAreErrors)
{
    dissect::CaptureTables t;
    std::string error;
    EXPECT_FALSE(dissect::ingestCapture("no/such/file.pcap", {}, t, error));
    EXPECT_NE(error.find("no/such/file.pcap: cannot open"), std::string::npos) << error;
    EXPECT_FALSE(dissect::ingestCapture(testData("").string(), {}, t, error));
    EXPECT_NE(error.find("is a directory"), std::string::npos) << error;
}

TEST(CaptureReader, EmptyCaptureIsNotAnError)
{
    const dissect::CaptureTables t = ingestOrFail(testData("empty.pcap"));
    EXPECT_EQ(t.summary.packets, 0u);
    ASSERT_EQ(t.summary.warnings.size(), 1u);
    EXPECT_NE(t.summary.warnings[0].find("no packets"), std::string::npos);
}

TEST(CaptureReader, MalformedPacketsAreCountedNamedAndSkipped)
{
    const dissect::CaptureTables t = ingestOrFail(testData("malformed-mix.pcap"));
    EXPECT_EQ(t.summary.packets, 15u);
    EXPECT_EQ(t.summary.malformedPackets, 3u);
    ASSERT_EQ(t.summary.malformed.size(), 3u);
    EXPECT_EQ(t.summary.malformed[0].frame, 4u);
    EXPECT_STREQ(t.summary.malformed[0].annotation.field, "ip.len");
    EXPECT_EQ(t.summary.malformed[1].frame, 5u);
    EXPECT_STREQ(t.summary.malformed[1].annotation.field, "tcp.hdr_len");
    EXPECT_EQ(t.summary.malformed[2].frame, 6u);
    EXPECT_STREQ(t.summary.malformed[2].annotation.field, "eth");
    EXPECT_EQ(t.summary.tcpSegments, 12u); // the 12 good segments all reach analysis
}

namespace {
class CountingObserver final : public dissect::IngestObserver
{
public:
    void progress(const dissect::IngestProgress& p) override
    {
        ++reports;
        last = p;
    }
    bool cancelRequested() override { return cancelAfter && reports >= cancelAfter; }
    int reports = 0;
    int cancelAfter = 0;
    dissect::IngestProgress last;
};
} // namespace

TEST(Ingest, ProgressAndCancellation)
{
    const auto path = publicCapture("zeek__echo-connections.pcap.gz");
    WINDSCOPE_REQUIRE_FILE(path);
    CountingObserver observer;
    dissect::IngestOptions options;
    options.observer = &observer;
    options.progressInterval = 10000;
    dissect::CaptureTables t;
    std::string error;
    ASSERT_TRUE(dissect::ingestCapture(path.string(), options, t, error));
    EXPECT_EQ(observer.reports, 9); // every 10,000 of 82,582 packets, plus the final report
    EXPECT_EQ(observer.last.packets, 82582u);
    EXPECT_EQ(observer.last.bytesConsumed, observer.last.fileSize);

    CountingObserver canceller;
    canceller.cancelAfter = 2;
    options.observer = &canceller;
    ASSERT_TRUE(dissect::ingestCapture(path.string(), options, t, error));
    EXPECT_TRUE(t.summary.cancelled);
    EXPECT_EQ(t.summary.packets, 20000u);
}

// An uncompressed capture is read through a memory map of the size it had when it was
// opened; packets appended after that are still read, as read(2) would read them, and
// the bytes consumed end at the file's new size.
TEST(CaptureReader, PacketsAppendedAfterOpeningAreRead)
{
    std::ifstream in(testData("vlan-tcp.pcap"), std::ios::binary);
    const std::vector<char> original((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    ASSERT_GT(original.size(), 24u);
    const auto path = std::filesystem::temp_directory_path() /
                      ("windscope-growing-" + std::to_string(::getpid()) + ".pcap");
    {
        std::ofstream out(path, std::ios::binary);
        out.write(original.data(), static_cast<std::streamsize>(original.size()));
    }
    std::string error;
    std::unique_ptr<dissect::CaptureReader> reader = dissect::CaptureReader::open(path.string(), error);
    ASSERT_TRUE(reader) << error;
    {
        // The same 12 records again, after the 24-byte file header.
        std::ofstream out(path, std::ios::binary | std::ios::app);
        out.write(original.data() + 24, static_cast<std::streamsize>(original.size() - 24));
    }
    dissect::RawPacket packet;
    std::uint64_t packets = 0;
    dissect::CaptureReader::Status status;
    while ((status = reader->next(packet)) == dissect::CaptureReader::Status::Packet)
        ++packets;
    EXPECT_EQ(status, dissect::CaptureReader::Status::End) << reader->problem();
    EXPECT_EQ(packets, 24u);
    EXPECT_EQ(reader->bytesConsumed(), 2 * original.size() - 24);
    reader.reset();
    std::filesystem::remove(path);
}

TEST(Ingest, ProgressEndsAtTheFileSizeOfAPlainCapture)
{
    CountingObserver observer;
    dissect::IngestOptions options;
    options.observer = &observer;
    options.progressInterval = 5;
    dissect::CaptureTables t;
    std::string error;
    const auto path = testData("vlan-tcp.pcap");
    ASSERT_TRUE(dissect::ingestCapture(path.string(), options, t, error)) << error;
    EXPECT_EQ(observer.reports, 3); // after packets 5 and 10, and the final report
    EXPECT_EQ(observer.last.packets, 12u);
    EXPECT_EQ(observer.last.fileSize, std::filesystem::file_size(path));
    EXPECT_EQ(observer.last.bytesConsumed, observer.last.fileSize);
}
