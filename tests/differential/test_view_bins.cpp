// SPDX-License-Identifier: GPL-3.0-or-later
// The series re-computed for a view (analysis/series/view_bins.h) on the bundled sample:
// throughput bins and the 802.11 lane's counts over a zoomed range against tshark's sums
// of the same frames, bins that stay put under panning, and the frame-level lane of one
// scan naming the frames that announce it.
#include "test_support.h"

#include "analysis/pipeline/capture_pipeline.h"
#include "analysis/series/view_bins.h"

#include <cmath>
#include <numeric>
#include <sstream>

using namespace windscope;
using namespace windscope::analysis;

namespace {

std::filesystem::path samplePath()
{
    return std::filesystem::path(WINDSCOPE_TEST_DATA_DIR).parent_path().parent_path() / "resources" / "samples" /
           "wifi-handoff-scan.pcap";
}

struct Sample
{
    pipeline::CapturePipeline pipeline{samplePath().string()};
    ConnectionSeries series;
    Sample()
    {
        std::string error;
        EXPECT_TRUE(pipeline.run(pipeline::AnalysisStage::Events, error)) << error;
        series = buildConnectionSeries({pipeline.tables(), pipeline.tcp(), nullptr, &pipeline.inventory(),
                                        &pipeline.events()},
                                       0, SeriesOptions{.inferCwnd = false});
    }
};

const Sample& sample()
{
    static const Sample s;
    return s;
}

// tshark's sum of one field (or count of frames with fields empty) over a display filter.
double tsharkSum(const std::string& filter, const std::string& field)
{
    int status = 0;
    const std::string out = test::runCommand(test::tsharkPath() + " -n -r '" + samplePath().string() + "' -Y '" +
                                                 filter + "' -T fields -e frame.number" +
                                                 (field.empty() ? "" : " -e " + field) + " 2>/dev/null",
                                             &status);
    EXPECT_EQ(status, 0);
    double sum = 0;
    std::istringstream in(out);
    for (std::string line; std::getline(in, line);) {
        if (line.empty())
            continue;
        const auto tab = line.find('\t');
        sum += field.empty() ? 1.0 : std::stod(line.substr(tab + 1));
    }
    return sum;
}

std::string timeFilter(double from, double to)
{
    std::ostringstream f;
    f.precision(9);
    f << std::fixed << "frame.time_relative >= " << from << " && frame.time_relative < " << to;
    return f.str();
}

} // namespace

TEST(ViewBins, BinWidthIsRoundAndHoldsTheLongestPpdu)
{
    EXPECT_DOUBLE_EQ(viewBinSeconds(0, 10, 1000), 0.05);   // 40 ms raw -> 50 ms
    EXPECT_DOUBLE_EQ(viewBinSeconds(0, 5, 1000), 0.02);    // exactly 20 ms
    EXPECT_DOUBLE_EQ(viewBinSeconds(3, 33, 1000), 0.2);    // 120 ms -> 200 ms
    EXPECT_DOUBLE_EQ(viewBinSeconds(0, 1, 800), kMinBinSeconds);
    EXPECT_DOUBLE_EQ(kMinBinSeconds, 0.01);                 // twice 802.11n's 5.484 ms aPPDUMaxTime, rounded
    EXPECT_DOUBLE_EQ(viewBinSeconds(0, 0.6, 10), 0.5);     // 240 ms -> 500 ms
}

TEST(ViewBins, ZoomedThroughputAddsUpToTsharksBytes)
{
    WINDSCOPE_REQUIRE_TSHARK();
    const ConnectionSeries& s = sample().series;
    const double bin = 0.005;
    const RateSeries rate = binRates(s, 4.0, 4.5, bin);
    ASSERT_GT(rate.throughput.size(), 90u);
    EXPECT_DOUBLE_EQ(rate.binSeconds, bin);
    // The bins cover [first bin start, last bin end); tshark sums the sender's payload there.
    const double from = rate.throughput.t.front(), to = rate.throughput.t.back() + bin;
    EXPECT_LE(from, 4.0);
    EXPECT_GT(to, 4.5);
    const double bytes = std::accumulate(rate.throughput.v.begin(), rate.throughput.v.end(), 0.0) * bin / 8;
    const double reference = tsharkSum(timeFilter(from, to) + " && tcp.srcport == 47001 && tcp.len > 0", "tcp.len");
    ASSERT_GT(reference, 30000);
    EXPECT_NEAR(bytes, reference, 1e-6 * reference);
}

TEST(ViewBins, PanningKeepsEveryBinInPlace)
{
    const ConnectionSeries& s = sample().series;
    const RateSeries a = binRates(s, 4.0, 4.5, 0.005);
    const RateSeries b = binRates(s, 4.0123, 4.5123, 0.005);
    std::size_t common = 0;
    for (std::size_t i = 0; i < a.throughput.size(); ++i) {
        const std::size_t j = nearestIndex(b.throughput.t, a.throughput.t[i]);
        if (j < b.throughput.size() && std::fabs(b.throughput.t[j] - a.throughput.t[i]) < 1e-12) {
            ++common;
            EXPECT_EQ(a.throughput.v[i], b.throughput.v[j]) << a.throughput.t[i];
            EXPECT_EQ(a.goodput.v[i], b.goodput.v[j]) << a.throughput.t[i];
        }
    }
    EXPECT_EQ(common, a.throughput.size() - 2); // 12.3 ms of pan: two 5 ms bins leave the view
}

TEST(ViewBins, ZoomedLaneCountsEqualTsharksFrames)
{
    WINDSCOPE_REQUIRE_TSHARK();
    ASSERT_EQ(sample().series.lane.stationMac, "02:00:00:00:02:01");
    const LaneBins lane = binLane(sample().series.lane, sample().series.startSeconds, 2.0, 2.4, 0.002);
    ASSERT_EQ(lane.framesReceived.size(), 201u);
    const double from = lane.framesReceived.t.front(), to = lane.framesReceived.t.back() + 0.002;
    const double received = std::accumulate(lane.framesReceived.v.begin(), lane.framesReceived.v.end(), 0.0);
    // Frames to the station that are not control frames (data and management).
    EXPECT_EQ(received, tsharkSum(timeFilter(from, to) + " && wlan.ra == 02:00:00:00:02:01 && wlan.fc.type != 1", ""));
    ASSERT_GT(received, 30);
    // Empty bins are there as zeros (a scan leaves a gap, not the count before it held on).
    EXPECT_GT(std::count(lane.framesReceived.v.begin(), lane.framesReceived.v.end(), 0.0), 0);
}

TEST(ViewBins, OneScanZoomedShowsItsFramesAndTheirNames)
{
    const ConnectionSeries& s = sample().series;
    const LaneEvent& scan = s.lane.events.front();
    ASSERT_EQ(scan.kind, WlanEventKind::Scan);
    EXPECT_NEAR(scan.start, 0.912467, 1e-6);
    const double lower = scan.start - 0.005, upper = scan.end + 0.005;
    EXPECT_TRUE(frameLevelView(s.lane, lower, upper, 1000));
    EXPECT_FALSE(frameLevelView(s.lane, s.startSeconds, s.endSeconds, 1000));
    const auto [first, last] = laneFramesBetween(s.lane, lower, upper);
    std::vector<std::string> labelled;
    for (std::size_t i = first; i < last; ++i)
        if (laneFrameLabelled(s.lane.frames[i]))
            labelled.push_back(laneFrameLabel(s.lane.frames[i]));
    // The station dozes with a Null PM=1 (frame 2978) and wakes with PM=0 (2987).
    EXPECT_EQ(labelled, (std::vector<std::string>{"Null PM=1", "Null PM=0"}));
    std::size_t uplink = 0, acks = 0;
    for (std::size_t i = first; i < last; ++i) {
        uplink += laneFrameClass(s.lane.frames[i]) == LaneFrameClass::DataFromStation;
        acks += laneFrameLabel(s.lane.frames[i]) == "ACK";
    }
    EXPECT_GT(uplink, 0u);
    EXPECT_GT(acks, 0u);
}

TEST(ViewBins, SeriesCsvOfAViewListsItsFrames)
{
    const ConnectionSeries& s = sample().series;
    std::ostringstream out;
    writeLaneFramesCsv(out, s.lane, 0.9124, 0.9126);
    // Frame 2978 (Null: type 2, subtype 4, To DS and PM set: frame control 0x1148) and its ACK.
    EXPECT_EQ(out.str(), "mac_frame_power_save,0.912467000,24.000,4424,2978\n"
                         "mac_frame_control,0.912511000,24.000,212,2979\n");
}

TEST(ViewBins, CliSeriesOfARangeListsTsharksFramesOfTheStation)
{
    WINDSCOPE_REQUIRE_TSHARK();
    int code = 0;
    const std::string out = test::runCommand(test::cliPath() + " series '" + samplePath().string() +
                                                 "' --flow 0 --from 0.9 --to 0.93 2>/dev/null",
                                             &code);
    ASSERT_EQ(code, 0);
    std::istringstream in(out);
    std::size_t frames = 0, throughputBins = 0, beyond = 0;
    for (std::string line; std::getline(in, line);) {
        frames += line.starts_with("mac_frame_");
        throughputBins += line.starts_with("throughput_bps,");
        if (!line.starts_with("series,") && !line.starts_with("event_") && !line.starts_with("limit_")) {
            const double t = std::stod(line.substr(line.find(',') + 1));
            beyond += t < 0.9 || t > 0.93;
        }
    }
    EXPECT_EQ(beyond, 0u) << out;
    // 10 ms bins (the smallest) on the connection's grid, every one meeting [0.9, 0.93].
    const double anchor = sample().series.startSeconds;
    EXPECT_EQ(throughputBins, static_cast<std::size_t>(std::floor((0.93 - anchor) / 0.01) -
                                                       std::floor((0.9 - anchor) / 0.01) + 1));
    EXPECT_EQ(static_cast<double>(frames),
              tsharkSum("frame.time_relative >= 0.9 && frame.time_relative <= 0.93 && "
                        "(wlan.ta == 02:00:00:00:02:01 || wlan.ra == 02:00:00:00:02:01)",
                        ""));
    EXPECT_GT(frames, 40u);
    const std::string err = test::runCommand(test::cliPath() + " series '" + samplePath().string() +
                                                 "' --flow 0 --from 2 --to 1 2>&1 >/dev/null",
                                             &code);
    EXPECT_EQ(code, 2);
    EXPECT_NE(err.find("--from 2 is not before --to 1"), std::string::npos) << err;
    test::runCommand(test::cliPath() + " series '" + samplePath().string() + "' --flow 0 --from soon 2>/dev/null",
                     &code);
    EXPECT_EQ(code, 2);
}
