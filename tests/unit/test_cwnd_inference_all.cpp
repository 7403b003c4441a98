// SPDX-License-Identifier: GPL-3.0-or-later
// inferCwndAll: the per-connection inference over every connection, spread over
// threads, gives what one inferCwnd call per connection gives, whatever the threads.
#include "test_support.h"

#include "analysis/cwnd/cwnd_inference.h"
#include "dissectors/ingest.h"

using namespace windscope;
using namespace windscope::analysis;

namespace {

void expectSame(const cwnd::CwndInference& a, const cwnd::CwndInference& b)
{
    EXPECT_EQ(a.connection, b.connection);
    EXPECT_EQ(a.sender, b.sender);
    EXPECT_EQ(a.notFollowed, b.notFollowed);
    EXPECT_EQ(a.model, b.model);
    EXPECT_EQ(a.confidence, b.confidence);
    ASSERT_EQ(a.series.size(), b.series.size());
    for (std::size_t i = 0; i < a.series.size(); ++i) {
        EXPECT_EQ(a.series[i].row, b.series[i].row);
        EXPECT_EQ(a.series[i].cwndBytes, b.series[i].cwndBytes);
        EXPECT_EQ(a.series[i].ssthreshBytes, b.series[i].ssthreshBytes);
        EXPECT_EQ(a.series[i].phase, b.series[i].phase);
    }
}

} // namespace

TEST(CwndInferenceAll, SameAsOneConnectionAtATimeOnAnyNumberOfThreads)
{
    // 66 connections, 49 of them with data, of very different lengths.
    const auto path = test::publicCapture("pcapplusplus__example.pcap");
    WINDSCOPE_REQUIRE_FILE(path);
    dissect::CaptureTables tables;
    std::string error;
    ASSERT_TRUE(dissect::ingestCapture(path.string(), {}, tables, error)) << error;
    const TcpAnalysis tcp = analyzeTcp(tables);
    ASSERT_EQ(tcp.connections.size(), 66u);

    std::vector<cwnd::CwndInference> one, three;
    ASSERT_TRUE(cwnd::inferCwndAll(tables, tcp, {}, 1, one, error)) << error;
    ASSERT_TRUE(cwnd::inferCwndAll(tables, tcp, {}, 3, three, error)) << error;
    ASSERT_EQ(one.size(), tcp.connections.size());
    ASSERT_EQ(three.size(), tcp.connections.size());
    std::size_t withData = 0;
    for (std::size_t c = 0; c < tcp.connections.size(); ++c) {
        SCOPED_TRACE(c);
        expectSame(one[c], three[c]);
        const Connection& connection = tcp.connections[c];
        if (connection.direction[0].dataBytes + connection.direction[1].dataBytes == 0) {
            EXPECT_EQ(one[c].notFollowed, cwnd::NotFollowedReason::NoData);
            continue;
        }
        ++withData;
        cwnd::CwndInference single;
        ASSERT_TRUE(cwnd::inferCwnd(tables, tcp, c, cwnd::dataSenderOf(connection), {}, single, error));
        expectSame(one[c], single);
    }
    EXPECT_EQ(withData, 49u);

    cwnd::CwndOptions unknown;
    unknown.model = "vegas";
    EXPECT_FALSE(cwnd::inferCwndAll(tables, tcp, unknown, 2, one, error));
    EXPECT_NE(error.find("vegas"), std::string::npos);
}
