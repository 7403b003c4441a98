// SPDX-License-Identifier: GPL-3.0-or-later
// windscope-cli compare: two captures named apart, and every difference equal to what
// analyze and cwnd give for each side on its own.
#include "analysis/report/report_compare.h"
#include "test_support.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

using windscope::test::cliPath;
using windscope::test::labDir;
using windscope::test::runCommand;

namespace {

// Seconds per sender state from `cwnd --csv`: each row's state holds until the next row.
std::map<std::string, double> secondsPerState(const std::string& csv)
{
    std::map<std::string, double> out;
    std::istringstream lines(csv);
    std::string line;
    std::getline(lines, line); // header
    double lastTime = -1;
    std::string lastState;
    while (std::getline(lines, line)) {
        std::vector<std::string> cells;
        std::istringstream row(line);
        for (std::string cell; std::getline(row, cell, ',');)
            cells.push_back(cell);
        const double t = std::stod(cells.at(0));
        if (lastTime >= 0)
            out[lastState] += t - lastTime;
        lastTime = t;
        lastState = cells.at(5);
    }
    return out;
}

const nlohmann::json& rowOf(const nlohmann::json& rows, const std::string& metric)
{
    for (const auto& r : rows)
        if (r["metric"] == metric)
            return r;
    static const nlohmann::json none;
    ADD_FAILURE() << "no row " << metric;
    return none;
}

} // namespace

TEST(CompareCli, BeforeAndAfterNamedApartAndEqualToAnalyzeAndCwnd)
{
    // The zero-window ACK fix pair: both captures are called wired-server.pcap.
    const auto before = labDir("ns3/B-handoff-baseline/wired-server.pcap");
    const auto after = labDir("ns3/B-handoff-zwa-hold/wired-server.pcap");
    WINDSCOPE_REQUIRE_FILE(before);
    WINDSCOPE_REQUIRE_FILE(after);
    int status = -1;
    const auto compared =
        nlohmann::json::parse(runCommand(cliPath() + " compare " + before.string() + " " + after.string() + " --json",
                                         &status));
    ASSERT_EQ(status, 0);
    EXPECT_EQ(compared["a"]["name"], "B-handoff-baseline/wired-server.pcap");
    EXPECT_EQ(compared["b"]["name"], "B-handoff-zwa-hold/wired-server.pcap");
    const nlohmann::json& rows = compared["rows"];

    const std::pair<std::string, std::filesystem::path> sides[] = {{"a", before}, {"b", after}};
    for (const auto& [side, file] : sides) {
        SCOPED_TRACE(side);
        const auto analyzed = nlohmann::json::parse(runCommand(cliPath() + " analyze " + file.string() + " --json"));
        const std::size_t id = compared[side]["connection"];
        const auto& connection = analyzed["connections"].at(id);
        const auto& data = connection["directions"][0]["from"] == compared[side]["from"]
                               ? connection["directions"][0]
                               : connection["directions"][1];
        EXPECT_NEAR(rowOf(rows, "completion time")[side].get<double>(), connection["duration_s"].get<double>(), 1e-6);
        EXPECT_NEAR(rowOf(rows, "goodput")[side].get<double>(), data["goodput_bps"].get<double>(), 1e-3);
        EXPECT_EQ(rowOf(rows, "retransmissions")[side], data["retransmissions"]);
        EXPECT_EQ(rowOf(rows, "fast retransmissions")[side], data["fast_retransmissions"]);
        EXPECT_EQ(rowOf(rows, "spurious retransmissions")[side], data["spurious_retransmissions"]);
        EXPECT_EQ(rowOf(rows, "RTO timeouts")[side], data["rto_timeouts"]);

        const auto states = secondsPerState(
            runCommand(cliPath() + " cwnd " + file.string() + " --flow " + std::to_string(id) + " --csv"));
        EXPECT_GE(states.size(), 3u); // slow start, congestion avoidance, a window limit or a loss
        for (const auto& [state, seconds] : states)
            EXPECT_NEAR(rowOf(rows, "time in " + state)[side].get<double>(), seconds, 1e-6) << state;
    }
    // The fix's story in the differences: the baseline's six timeouts are gone.
    EXPECT_EQ(rowOf(rows, "RTO timeouts")["a"], 6);
    EXPECT_EQ(rowOf(rows, "RTO timeouts")["difference"], -6);
    EXPECT_GT(rowOf(rows, "goodput")["difference"].get<double>(), 0);
}

TEST(CompareCli, CsvMatchesJsonAndBadArgumentsAreRefused)
{
    const auto before = labDir("ns3/B-handoff-baseline/wired-server.pcap");
    const auto after = labDir("ns3/B-handoff-zwa-hold/wired-server.pcap");
    WINDSCOPE_REQUIRE_FILE(before);
    const std::string csv = runCommand(cliPath() + " compare " + before.string() + ":0 " + after.string() + " --csv");
    EXPECT_EQ(csv.substr(0, csv.find('\n')), "metric,unit,a,b,b_minus_a");
    EXPECT_NE(csv.find("\nRTO timeouts,,6,0,-6\n"), std::string::npos);

    int status = 0;
    runCommand(cliPath() + " compare " + before.string() + " 2>/dev/null", &status);
    EXPECT_EQ(status, 2);
    const std::string noFlow =
        runCommand(cliPath() + " compare " + before.string() + ":7 " + after.string() + " 2>&1", &status);
    EXPECT_EQ(status, 1);
    EXPECT_NE(noFlow.find("no connection '7' in " + before.string()), std::string::npos);
}

TEST(CompareNames, FoldersTellApartWhatFileNamesDoNot)
{
    using windscope::analysis::comparisonSideNames;
    EXPECT_EQ(comparisonSideNames("runs/before.pcap", 0, "runs/after.pcap", 0),
              std::make_pair(std::string("before.pcap"), std::string("after.pcap")));
    EXPECT_EQ(comparisonSideNames("lab/a/x/wired.pcap", 0, "lab/b/x/wired.pcap", 0),
              std::make_pair(std::string("a/x/wired.pcap"), std::string("b/x/wired.pcap")));
    EXPECT_EQ(comparisonSideNames("x.pcap", 0, "./x.pcap", 3),
              std::make_pair(std::string("x.pcap #0"), std::string("x.pcap #3")));
}

TEST(CompareCli, AlignedAtTheSameHandoffOfEachRunWithAFigure)
{
    // The second handoff of each run: 6.999430 s before the fix, 6.997986 s after it
    // (events of each capture on its own).
    const auto before = labDir("ns3/B-handoff-baseline/wifi-sta.pcap");
    const auto after = labDir("ns3/B-handoff-zwa-hold/wifi-sta.pcap");
    WINDSCOPE_REQUIRE_FILE(before);
    WINDSCOPE_REQUIRE_FILE(after);
    auto handoffStart = [](const std::filesystem::path& capture, std::size_t nth) {
        const auto events = nlohmann::json::parse(runCommand(cliPath() + " events " + capture.string() + " --json 2>/dev/null"));
        std::size_t seen = 0;
        for (const auto& e : events["events"])
            if (e["kind"] == "handoff" && seen++ == nth)
                return std::make_pair(e["id"].get<long long>(), e["start_epoch_s"].get<double>() -
                                                                    events["capture"]["first_epoch_s"].get<double>());
        ADD_FAILURE() << "no handoff " << nth << " in " << capture;
        return std::make_pair(-1LL, 0.0);
    };
    const auto [idA, startA] = handoffStart(before, 1);
    const auto [idB, startB] = handoffStart(after, 1);
    const std::filesystem::path figure = std::filesystem::temp_directory_path() / "windscope-compare-aligned.svg";
    std::filesystem::remove(figure);
    int code = -1;
    const auto compared = nlohmann::json::parse(runCommand(cliPath() + " compare " + before.string() + " " +
                                                               after.string() + " --align event:" + std::to_string(idA) +
                                                               " --json -o " + figure.string() + " 2>/dev/null",
                                                           &code));
    ASSERT_EQ(code, 0);
    EXPECT_EQ(compared["a"]["aligned_event"], idA);
    EXPECT_EQ(compared["b"]["aligned_event"], idB);
    EXPECT_NEAR(compared["a"]["aligned_at_s"].get<double>(), startA, 1e-6);
    EXPECT_NEAR(compared["b"]["aligned_at_s"].get<double>(), startB, 1e-6);
    EXPECT_NE(startA, startB);
    // The figure: both names in its legends, the time axis named after the alignment.
    std::ifstream svg(figure);
    const std::string text((std::istreambuf_iterator<char>(svg)), std::istreambuf_iterator<char>());
    EXPECT_NE(text.find("B-handoff-baseline/wifi-sta.pcap"), std::string::npos);
    EXPECT_NE(text.find("B-handoff-zwa-hold/wifi-sta.pcap"), std::string::npos);
    EXPECT_NE(text.find("time since the aligned event (s)"), std::string::npos);
    std::filesystem::remove(figure);
    // At their starts by default; a bad event is named with its file.
    const auto atStart = nlohmann::json::parse(runCommand(cliPath() + " compare " + before.string() + " " +
                                                          after.string() + " --json 2>/dev/null"));
    EXPECT_TRUE(atStart["a"]["aligned_event"].is_null());
    const std::string err = runCommand(cliPath() + " compare " + before.string() + " " + after.string() +
                                           " --align event:0:999 2>&1 >/dev/null",
                                       &code);
    EXPECT_EQ(code, 2);
    EXPECT_NE(err.find("wifi-sta.pcap has no event 999"), std::string::npos) << err;
}
