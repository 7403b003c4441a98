// SPDX-License-Identifier: GPL-3.0-or-later
// correlate's effective window: the smaller of the inferred cwnd and the receive window
// the sender knew, at the moments of the cwnd figures. On the lab's handoff baseline ns-3
// grows the cwnd to 194 kB before the first handoff (cwnd.csv) while the 16 kB buffers
// (meta.json) hold the sender.
#include "test_support.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

using windscope::test::cliPath;
using windscope::test::labDir;
using windscope::test::runCommand;

TEST(CorrelateWindow, EffectiveWindowIsTheSmallerOfCwndAndTheReceiveWindow)
{
    const auto dir = labDir("ns3/B-handoff-baseline");
    const auto capture = dir / "wifi-sta.pcap";
    WINDSCOPE_REQUIRE_FILE(capture);
    std::ifstream metaFile(dir / "meta.json");
    const std::uint64_t maxWindow = nlohmann::json::parse(metaFile)["tcp"]["max_window_bytes"];
    const auto correlated =
        nlohmann::json::parse(runCommand(cliPath() + " correlate " + capture.string() + " --json 2>/dev/null"));
    // The cwnd rows: epoch, cwnd, rwnd.
    struct Row
    {
        double t;
        std::uint64_t cwnd, rwnd;
    };
    std::vector<Row> rows;
    std::istringstream csv(runCommand(cliPath() + " cwnd " + capture.string() + " --flow 0 --csv 2>/dev/null"));
    std::string line;
    std::getline(csv, line);
    while (std::getline(csv, line)) {
        std::vector<std::string> c;
        std::istringstream cells(line);
        for (std::string cell; std::getline(cells, cell, ',');)
            c.push_back(cell);
        rows.push_back({std::stod(c.at(0)), std::stoull(c.at(1)), std::stoull(c.at(4))});
    }
    ASSERT_FALSE(rows.empty());
    std::size_t handoffs = 0;
    for (const auto& e : correlated["events"]) {
        if (e["kind"] != "handoff")
            continue;
        for (const auto& c : e["connections"]) {
            if (c["cwnd_before_bytes"].is_null())
                continue;
            ++handoffs;
            // The last cwnd row before the event, as the correlation takes it.
            const double start = e["start_epoch_s"];
            const auto it = std::partition_point(rows.begin(), rows.end(), [&](const Row& r) { return r.t < start; });
            ASSERT_NE(it, rows.begin());
            const Row& before = *std::prev(it);
            EXPECT_EQ(c["cwnd_before_bytes"].get<std::uint64_t>(), before.cwnd);
            EXPECT_EQ(c["window_before_bytes"].get<std::uint64_t>(), std::min(before.cwnd, before.rwnd));
            EXPECT_LE(c["window_before_bytes"].get<std::uint64_t>(), maxWindow);
            EXPECT_LE(c["window_min_bytes"].get<std::uint64_t>(), c["cwnd_min_bytes"].get<std::uint64_t>());
            EXPECT_LE(c["window_after_bytes"].get<std::uint64_t>(), maxWindow);
        }
    }
    EXPECT_EQ(handoffs, 2u);
    // The first handoff: a cwnd of ten windows and more that said nothing, within 10 %
    // of the sender's own at the handoff (cwnd.csv); the window was the buffers'.
    const auto& first = correlated["events"][0]["connections"][0];
    std::uint64_t labCwnd = 0;
    {
        std::ifstream truth(dir / "cwnd.csv");
        std::string row;
        std::getline(truth, row);
        const double handoffS = 2.5; // events.csv: the first handoff
        while (std::getline(truth, row)) {
            const auto comma = row.find(',');
            if (std::stod(row.substr(0, comma)) >= handoffS)
                break;
            labCwnd = std::stoull(row.substr(comma + 1));
        }
    }
    ASSERT_GT(labCwnd, 10 * maxWindow);
    EXPECT_NEAR(static_cast<double>(first["cwnd_before_bytes"].get<std::uint64_t>()), static_cast<double>(labCwnd),
                0.1 * static_cast<double>(labCwnd));
    EXPECT_EQ(first["window_before_bytes"].get<std::uint64_t>(), maxWindow);
}
