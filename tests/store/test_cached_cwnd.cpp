// SPDX-License-Identifier: GPL-3.0-or-later
// The cwnd inference is a stage product the project caches: reopening a project and
// showing a connection's cwnd (plot series, packet index, correlation) runs no
// inference at all; the count of inferences (cwnd::inferenceCount) says so.
#include "analysis/pipeline/capture_pipeline.h"
#include "analysis/series/plot_series.h"
#include "analysis/store/packet_index.h"
#include "analysis/store/project_store.h"
#include "store_test_kit.h"
#include "test_support.h"

#include <atomic>

using namespace windscope;
using namespace windscope::test;
namespace store = windscope::analysis::store;
namespace pl = windscope::analysis::pipeline;

namespace {

class CountingObserver final : public pl::PipelineObserver
{
public:
    void cwndInferred(std::size_t, int) override { ++inferred; }
    std::atomic<int> inferred{0};
};

// Every connection's series with its cwnd, as the plots ask for it.
std::size_t showEveryCwnd(const pl::CapturePipeline& pipeline)
{
    std::size_t points = 0;
    for (std::size_t c = 0; c < pipeline.tcp().connections.size(); ++c) {
        const analysis::ConnectionSeries series = analysis::buildConnectionSeries(
            {pipeline.tables(), pipeline.tcp(), &pipeline, &pipeline.inventory(), &pipeline.events()}, c);
        points += series.window.cwnd.t.size();
    }
    return points;
}

TEST(CachedCwnd, OpeningAProjectInfersNoCwnd)
{
    const std::filesystem::path capture = test::labDir("linux/reno-scan100") / "sender.pcap";
    WINDSCOPE_REQUIRE_FILE(capture);
    ScratchDir dir;
    std::string error;
    store::FileIdentity file;
    ASSERT_TRUE(store::identifyFile(capture.string(), true, file, error)) << error;

    // A fresh analysis infers: the counter sees it.
    std::size_t freshPoints = 0;
    {
        pl::CapturePipeline fresh(file.path);
        ASSERT_TRUE(fresh.run(pl::AnalysisStage::Tcp, error)) << error;
        const std::uint64_t before = analysis::cwnd::inferenceCount();
        freshPoints = showEveryCwnd(fresh);
        EXPECT_GT(analysis::cwnd::inferenceCount(), before);
        auto project = store::ProjectStore::create((dir / "p.wsproj").string(), error);
        ASSERT_TRUE(project) << error;
        ASSERT_NE(project->saveCapture(file, fresh.cacheProducts(), error), 0) << error;
    }
    ASSERT_GT(freshPoints, 0u) << "a capture without a followed cwnd tests nothing";

    auto project = store::ProjectStore::open((dir / "p.wsproj").string(), error);
    ASSERT_TRUE(project) << error;
    store::CaptureRecord record;
    ASSERT_TRUE(project->findCapture(file.path, record, error)) << error;
    ASSERT_TRUE(record.cached);
    pl::AnalysisBundle cached;
    ASSERT_TRUE(project->loadResults(record.id, cached, error)) << error;
    ASSERT_EQ(cached.cwnd.size(), cached.tcp.connections.size());

    const std::uint64_t before = analysis::cwnd::inferenceCount();
    CountingObserver observer;
    pl::CapturePipeline reopened(std::move(cached));
    reopened.setObserver(&observer);
    EXPECT_EQ(showEveryCwnd(reopened), freshPoints);
    const store::PacketIndex index(reopened);
    EXPECT_GT(index.cwndSamples(), 0u);
    reopened.correlation();
    EXPECT_EQ(analysis::cwnd::inferenceCount(), before);
    EXPECT_EQ(observer.inferred.load(), 0);

    // The control: the same products without the cwnd part infer again.
    pl::AnalysisBundle withoutCwnd;
    const store::CachePart parts[] = {store::CachePart::Capture,   store::CachePart::FrameColumns,
                                      store::CachePart::Connections, store::CachePart::Segments,
                                      store::CachePart::Events,    store::CachePart::Inventory,
                                      store::CachePart::Correlation};
    ASSERT_TRUE(project->loadResults(record.id, parts, withoutCwnd, error)) << error;
    const pl::CapturePipeline uncached(std::move(withoutCwnd));
    EXPECT_EQ(showEveryCwnd(uncached), freshPoints);
    EXPECT_GT(analysis::cwnd::inferenceCount(), before);
}

} // namespace
