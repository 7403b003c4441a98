// SPDX-License-Identifier: GPL-3.0-or-later
// The TCP analysis that follows the reading (TcpAnalyzer fed batch by batch while a
// second thread reads and decodes ahead), on a thread of its own or on the table
// thread, gives exactly what the analysis of the
// finished tables gives, on every public capture and on lab runs with port reuse,
// window-scale checkpoints, MAC retries, truncation and malformed packets.
#include "store_test_kit.h"
#include "test_support.h"

#include "analysis/tcp/tcp_analysis.h"
#include "dissectors/ingest.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <set>
#include <thread>

#ifdef __linux__
#include <sched.h>
#endif

namespace windscope {
namespace {

std::vector<std::filesystem::path> capturesToCompare()
{
    std::vector<std::filesystem::path> files;
    if (std::filesystem::is_directory(test::sharedDir() / "captures/public"))
        for (const auto& entry : std::filesystem::directory_iterator(test::sharedDir() / "captures/public"))
            if (entry.is_regular_file() && entry.path().extension() != ".md")
                files.push_back(entry.path());
    for (const char* run : {"linux/reno-handoff/sender.pcap", "linux/cubic-scan100hold/ap-wlan.pcap",
                            "ns3/B-handoff-zwa-hold/wired-server.pcap", "ns3/C-agg-h1-a4/wifi-n0.pcap"})
        if (std::filesystem::exists(test::sharedDir() / "captures/lab" / run))
            files.push_back(test::sharedDir() / "captures/lab" / run);
    for (const char* name : {"truncated.pcap", "malformed-mix.pcap", "vlan-tcp.pcap.gz", "radiotap-bogus.pcap"})
        files.push_back(test::testData(name));
    std::sort(files.begin(), files.end());
    return files;
}

using TcpRowsThread = dissect::IngestOptions::TcpRowsThread;

// Both places the analysis can follow the reading from: its own thread (three CPUs or
// more) and the table thread between batches (fewer).
class StreamingTcpAnalysis : public ::testing::TestWithParam<TcpRowsThread>
{
protected:
    dissect::IngestOptions ingestOptions() const
    {
        dissect::IngestOptions ingest;
        ingest.tcpRowsThread = GetParam();
        return ingest;
    }
};

INSTANTIATE_TEST_SUITE_P(TcpRowsThread, StreamingTcpAnalysis,
                         ::testing::Values(TcpRowsThread::Separate, TcpRowsThread::Shared),
                         [](const ::testing::TestParamInfo<TcpRowsThread>& param) {
                             return param.param == TcpRowsThread::Separate ? "OwnThread" : "TableThread";
                         });

TEST_P(StreamingTcpAnalysis, EqualsTheAnalysisOfFinishedTables)
{
    const auto files = capturesToCompare();
    ASSERT_GE(files.size(), 4u);
    std::size_t withTcp = 0;
    for (const auto& file : files) {
        SCOPED_TRACE(file.filename().string());
        dissect::CaptureTables whole;
        std::string error;
        ASSERT_TRUE(dissect::ingestCapture(file.string(), {}, whole, error)) << error;
        const analysis::TcpAnalysis afterwards = analysis::analyzeTcp(whole);
        // The capture's warning about its TCP, as readAndAnalyzeTcp and the pipeline add it.
        if (std::string warning = analysis::oneDirectionWarning(whole, afterwards); !warning.empty())
            whole.summary.warnings.push_back(std::move(warning));

        dissect::CaptureTables followed;
        analysis::TcpAnalysis streamed;
        ASSERT_TRUE(analysis::readAndAnalyzeTcp(file.string(), ingestOptions(), followed, streamed, error))
            << error;
        test::expectSameTables(whole, followed);
        test::expectSameTcp(afterwards, streamed);
        withTcp += whole.tcp.size() > 0;
    }
    EXPECT_GE(withTcp, 4u);
}

// The analysis really follows the reading: it is handed the rows in several batches,
// each a prefix of the next, before the file ends.
TEST_P(StreamingTcpAnalysis, RowsArriveInBatchesWhileReading)
{
    const auto file = test::labDir("linux/reno-clean") / "sender.pcap";
    WINDSCOPE_REQUIRE_FILE(file);
    std::vector<std::size_t> rowsSeen;
    dissect::IngestOptions ingest = ingestOptions();
    ingest.rowsAppended = [&](const dissect::CaptureTables& t) { rowsSeen.push_back(t.tcp.size()); };
    dissect::CaptureTables tables;
    analysis::TcpAnalysis tcp;
    std::string error;
    ASSERT_TRUE(analysis::readAndAnalyzeTcp(file.string(), ingest, tables, tcp, error)) << error;
    ASSERT_GT(tables.tcp.size(), 10000u);
    ASSERT_FALSE(rowsSeen.empty());
    EXPECT_TRUE(std::is_sorted(rowsSeen.begin(), rowsSeen.end()));
    EXPECT_EQ(rowsSeen.back(), tables.tcp.size());
    EXPECT_GT(std::set<std::size_t>(rowsSeen.begin(), rowsSeen.end()).size(), tables.tcp.size() / 1024);
    EXPECT_EQ(tcp.segments.flags.size(), tables.tcp.size());
}

// Where the analysis runs follows the CPUs this process may use, not the machine's.
TEST(IngestThreads, UsableCpusFollowTheAffinityMask)
{
    const unsigned usable = dissect::usableCpuCount();
    EXPECT_GE(usable, 1u);
#ifdef __linux__
    cpu_set_t saved;
    ASSERT_EQ(sched_getaffinity(0, sizeof saved, &saved), 0);
    EXPECT_EQ(usable, static_cast<unsigned>(CPU_COUNT(&saved)));
    int first = 0;
    while (!CPU_ISSET(first, &saved))
        ++first;
    // Narrowed on a thread of its own so the test process keeps its CPUs.
    unsigned narrowed = 0;
    std::thread([&] {
        cpu_set_t one;
        CPU_ZERO(&one);
        CPU_SET(first, &one);
        if (sched_setaffinity(0, sizeof one, &one) == 0)
            narrowed = dissect::usableCpuCount();
    }).join();
    EXPECT_EQ(narrowed, 1u);
#endif
}

TEST(StreamingTcpAnalyzer, RowsAfterFinishAreRefused)
{
    dissect::CaptureTables tables;
    std::string error;
    ASSERT_TRUE(dissect::ingestCapture(test::testData("vlan-tcp.pcap").string(), {}, tables, error)) << error;
    analysis::TcpAnalyzer analyzer(tables);
    const analysis::TcpAnalysis done = analyzer.finish();
    EXPECT_EQ(done.segments.flags.size(), tables.tcp.size());
    EXPECT_THROW(analyzer.analyzeNewRows(), std::logic_error);
}

} // namespace
} // namespace windscope
