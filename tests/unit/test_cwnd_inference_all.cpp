// SPDX-License-Identifier: GPL-3.0-or-later
// inferCwndAll: the per-connection inference over every connection, spread over
// threads, gives what one inferCwnd call per connection gives, whatever the threads.
#include "test_support.h"

#include "analysis/cwnd/cwnd_inference.h"
#include "analysis/sender/congestion_model.h"
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

TEST(CwndInferenceAll, IdleWorkersShareOneConnectionsCandidatesWithTheSameResult)
{
    // One connection carries data: on more threads than connections the other workers
    // replay its candidate models, and every fit, the choice and the series stay those
    // of one thread -- with the model chosen and with one the user names (a model of
    // both stacks, whose Linux and ns-3 replays may then run on different threads).
    const auto path = test::labDir("linux") / "cubic-wifi" / "sender.pcap";
    WINDSCOPE_REQUIRE_FILE(path);
    dissect::CaptureTables tables;
    std::string error;
    ASSERT_TRUE(dissect::ingestCapture(path.string(), {}, tables, error)) << error;
    const TcpAnalysis tcp = analyzeTcp(tables);
    std::size_t withData = 0;
    for (const Connection& c : tcp.connections)
        withData += c.direction[0].dataBytes + c.direction[1].dataBytes > 0;
    ASSERT_EQ(withData, 1u);

    for (const std::string& model : {std::string(), std::string("westwood-plus")}) {
        SCOPED_TRACE(model);
        cwnd::CwndOptions options;
        options.model = model;
        std::vector<cwnd::CwndInference> one, four;
        ASSERT_TRUE(cwnd::inferCwndAll(tables, tcp, options, 1, one, error)) << error;
        ASSERT_TRUE(cwnd::inferCwndAll(tables, tcp, options, 4, four, error)) << error;
        ASSERT_EQ(one.size(), four.size());
        for (std::size_t c = 0; c < one.size(); ++c) {
            SCOPED_TRACE(c);
            expectSame(one[c], four[c]);
            EXPECT_EQ(one[c].modelOverridden, four[c].modelOverridden);
            EXPECT_EQ(one[c].undetermined, four[c].undetermined);
            ASSERT_EQ(one[c].fits.size(), four[c].fits.size());
            for (std::size_t i = 0; i < one[c].fits.size(); ++i) {
                EXPECT_EQ(one[c].fits[i].model, four[c].fits[i].model);
                EXPECT_EQ(one[c].fits[i].sends, four[c].fits[i].sends);
                EXPECT_EQ(one[c].fits[i].violations, four[c].fits[i].violations);
                EXPECT_EQ(one[c].fits[i].meanGap, four[c].fits[i].meanGap);
                EXPECT_EQ(one[c].fits[i].lossEpisodes, four[c].fits[i].lossEpisodes);
            }
            if (!one[c].series.empty() && one[c].notFollowed == cwnd::NotFollowedReason::None) {
                // Every candidate model was replayed, and the series is the chosen one's.
                EXPECT_GE(one[c].fits.size(), cwnd::congestionModelNames().size());
                if (!model.empty()) {
                    EXPECT_EQ(four[c].model, model);
                }
            }
        }
    }
}
