// SPDX-License-Identifier: GPL-3.0-or-later
// windscope-cli replay as a process: a run saved into a project (--project) is the
// scenario and the very JSON the command printed; Ctrl-C in a sweep stops the workers
// and still writes the points that finished.
#include "analysis/replay/scenario/scenario_json.h"
#include "test_support.h"

#ifdef WINDSCOPE_HAVE_STORE
#include "analysis/store/project_store.h"
#endif

#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <spawn.h>
#include <sstream>
#include <sys/wait.h>
#include <thread>

extern char** environ;

namespace windscope::test {
namespace {

// A scratch directory removed with the fixture.
class Scratch
{
public:
    Scratch()
    {
        std::string pattern = (std::filesystem::temp_directory_path() / "windscope-replay-XXXXXX").string();
        m_path = mkdtemp(pattern.data());
    }
    ~Scratch()
    {
        std::error_code ignored;
        std::filesystem::remove_all(m_path, ignored);
    }
    std::filesystem::path operator/(const std::string& name) const { return m_path / name; }

private:
    std::filesystem::path m_path;
};

std::string quoted(const std::filesystem::path& p)
{
    return "'" + p.string() + "'";
}

std::string readText(const std::filesystem::path& p)
{
    std::ifstream in(p);
    std::ostringstream out;
    out << in.rdbuf();
    return out.str();
}

} // namespace

#ifdef WINDSCOPE_HAVE_STORE
TEST(ReplayCli, RunIsSavedInTheProject)
{
    const auto capture = labDir("linux/reno-loss05") / "sender.pcap";
    WINDSCOPE_REQUIRE_FILE(capture);
    Scratch dir;
    const auto project = dir / "p.wsproj";
    int status = -1;
    runCommand(cliPath() + " project create " + quoted(project), &status);
    ASSERT_EQ(status, 0);
    runCommand(cliPath() + " project add " + quoted(project) + " " + quoted(capture), &status);
    ASSERT_EQ(status, 0);
    const std::string printed = runCommand(cliPath() + " replay " + quoted(capture) +
                                               " --flow 0 --fix cc=newreno --json --project " + quoted(project),
                                           &status);
    ASSERT_EQ(status, 0);

    std::string error;
    auto store = analysis::store::ProjectStore::open(project.string(), error);
    ASSERT_TRUE(store) << error;
    analysis::store::CaptureRecord record;
    ASSERT_TRUE(store->findCapture(capture.string(), record, error)) << error;
    std::vector<analysis::store::JsonRecord> scenarios, runs;
    ASSERT_TRUE(store->listScenarios(record.id, scenarios, error)) << error;
    ASSERT_EQ(scenarios.size(), 1u);
    analysis::replay::Scenario saved;
    ASSERT_TRUE(analysis::replay::scenarioFromJson(scenarios[0].json, saved, error)) << error;
    EXPECT_EQ(saved.sender.mss, 1448u); // the capture's segments
    EXPECT_GT(saved.path.lossFwd, 0.0); // the fitted random loss is part of the baseline
    ASSERT_TRUE(store->listRuns(scenarios[0].id, runs, error)) << error;
    ASSERT_EQ(runs.size(), 1u);
    EXPECT_EQ(runs[0].json + "\n", printed);
    EXPECT_NE(runs[0].json.find("\"fixed\":{"), std::string::npos);

    // A project that is not one is refused by name, and nothing is printed as done.
    const auto bogus = dir / "not-a-project.wsproj";
    std::ofstream(bogus) << "text";
    runCommand(cliPath() + " replay --preset handoff-001 --project " + quoted(bogus) + " 2>&1", &status);
    EXPECT_NE(status, 0);
}
#endif

// The text form says where the kept baseline lost what it lost. On the lab's 200 ms scan
// run the AP's radio lost no frame to the absent station (mac_drops.csv: none; the scan
// is announced and the AP holds) and its queue dropped 83 (queue_drops.csv): the replay
// loses nothing to the absence either, and at the AP's queue within a factor of two of
// the lab's count.
TEST(ReplayCli, TheTextSaysWhereTheKeptRunLost)
{
    const auto capture = labDir("ns3/A-scan-T200") / "wifi-ap.pcap";
    WINDSCOPE_REQUIRE_FILE(capture);
    int status = -1;
    const std::string printed =
        runCommand(cliPath() + " replay " + quoted(capture) + " --flow 0", &status);
    ASSERT_EQ(status, 0);
    const std::size_t at = printed.find("baseline run's losses: ");
    ASSERT_NE(at, std::string::npos) << printed;
    unsigned long long queue = 0, away = 0, radio = 0, acks = 0, exchanges = 0, failed = 0,
                       collisions = 0, absent = 0, refused = 0;
    ASSERT_EQ(
        std::sscanf(
            printed.c_str() + at,
            "baseline run's losses: data %llu at the bottleneck queue, %llu while the station was "
            "away, %llu to the radio (retry limit, random loss or its full queue), ACKs %llu; "
            "802.11: "
            "%llu exchanges, %llu failed (%llu collisions, %llu to an absent station), %llu frames "
            "refused by a full radio queue",
            &queue, &away, &radio, &acks, &exchanges, &failed, &collisions, &absent, &refused),
        9)
        << printed.substr(at);
    EXPECT_EQ(away, 0u);
    EXPECT_EQ(queue, 0u); // the wired link in front of the AP is not the bottleneck
    EXPECT_GE(refused, 83u / 2);
    EXPECT_LE(refused, 2u * 83u);
    EXPECT_EQ(radio, refused); // data frames all: the station's ACKs never met a full queue
    EXPECT_EQ(failed, collisions + absent);
}

TEST(ReplayCli, InterruptStopsTheSweepAndPrintsThePointsFinished)
{
    Scratch dir;
    const std::string cli = cliPath();
    const std::string out = (dir / "out.csv").string(), err = (dir / "err.txt").string();
    std::vector<std::string> args = {cli,        "replay", "--preset", "scan-004-none", "--sweep",
                                     "seed=1:64:1", "--threads", "2"};
    std::vector<char*> argv;
    for (std::string& a : args)
        argv.push_back(a.data());
    argv.push_back(nullptr);
    posix_spawn_file_actions_t files;
    posix_spawn_file_actions_init(&files);
    posix_spawn_file_actions_addopen(&files, 1, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_addopen(&files, 2, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    pid_t child = 0;
    ASSERT_EQ(posix_spawn(&child, cli.c_str(), &files, nullptr, argv.data(), environ), 0);
    posix_spawn_file_actions_destroy(&files);
    // Interrupt once the first point is done: the sweep is then well under way.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
    while (readText(err).find("sweep: 1/64") == std::string::npos && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    kill(child, SIGINT);
    int status = 0;
    waitpid(child, &status, 0);
    ASSERT_TRUE(WIFEXITED(status)) << "the interrupt killed the process instead of stopping the sweep";
    EXPECT_EQ(WEXITSTATUS(status), 130);

    std::istringstream rows(readText(out));
    std::string line;
    ASSERT_TRUE(std::getline(rows, line));
    EXPECT_EQ(line, "seed,goodput_bps,completion_s,retransmissions,rto_timeouts");
    std::size_t finished = 0;
    while (std::getline(rows, line)) {
        ++finished;
        EXPECT_GT(std::stod(line.substr(line.find(',') + 1)), 1e6) << line; // a real run's goodput
    }
    EXPECT_GE(finished, 1u);
    EXPECT_LT(finished, 64u);
    EXPECT_NE(readText(err).find("sweep cancelled: " + std::to_string(finished) + " of 64 points finished"),
              std::string::npos)
        << readText(err);
}

} // namespace windscope::test
