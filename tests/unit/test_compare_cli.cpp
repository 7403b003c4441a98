// SPDX-License-Identifier: GPL-3.0-or-later
// windscope-cli compare: two captures named apart, and every difference equal to what
// analyze and cwnd give for each side on its own.
#include "analysis/report/report_compare.h"
#include "test_support.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

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
