// SPDX-License-Identifier: GPL-3.0-or-later
// windscope-cli batch: a tree of captures into one project equals `project add` of each,
// a batch killed inside a save and run again holds every capture once, and a capture
// that cannot be read is recorded with its error and not tried again while unchanged.

#include "store_test_kit.h"
#include "test_support.h"

#include <nlohmann/json.hpp>

#include <set>

namespace windscope::test {
namespace {

std::string quoted(const std::filesystem::path& p) { return "'" + p.string() + "'"; }

std::string cli(const std::string& args, int* status = nullptr)
{
    return runCommand(cliPath() + " " + args + " 2>/dev/null", status);
}

// Small lab and public captures in two folders (links, so nothing is copied), and a file
// that is not a capture among them.
struct CaptureTree
{
    ScratchDir dir;
    std::vector<std::filesystem::path> captures; // canonical paths of the good ones
    bool complete = true;

    CaptureTree()
    {
        const std::vector<std::pair<std::filesystem::path, std::string>> sources = {
            {labDir("ns3/B-handoff-baseline") / "wifi-sta.pcap", "run-a/sta.pcap"},
            {labDir("ns3/B-handoff-baseline") / "wired-server.pcap", "run-a/server.pcap"},
            {labDir("ns3/E-slowrx-r512") / "wired-server.pcap", "run-b/server.pcap"},
            {publicCapture("arkime__80211http.pcap"), "run-b/deeper/http.pcap"},
        };
        for (const auto& [source, name] : sources) {
            if (!std::filesystem::exists(source)) {
                complete = false;
                continue;
            }
            std::filesystem::create_directories((dir / name).parent_path());
            std::filesystem::create_symlink(std::filesystem::canonical(source), dir / name);
            captures.push_back(std::filesystem::canonical(source));
        }
        writeBytes(dir / "run-b" / "notes.txt", {'n', 'o'}); // not a capture name: not taken
    }
    std::filesystem::path root() const { return dir.path(); }
};

nlohmann::json list(const std::filesystem::path& project)
{
    int status = -1;
    const std::string out = cli("project list " + quoted(project) + " --json", &status);
    EXPECT_EQ(status, 0) << out;
    return nlohmann::json::parse(out);
}

} // namespace

TEST(BatchCli, TreeEqualsProjectAddOfEachRowForRow)
{
    CaptureTree tree;
    if (!tree.complete)
        GTEST_SKIP() << "needs the lab and public captures in ../shared (shared test material is absent)";
    ScratchDir out;
    int status = -1;
    const auto summary = nlohmann::json::parse(
        cli("batch " + quoted(tree.root()) + " --project " + quoted(out / "batch.wsproj") + " --jobs 2 --json", &status));
    ASSERT_EQ(status, 0);
    EXPECT_EQ(summary["captures"], tree.captures.size());
    EXPECT_EQ(summary["analysed"], tree.captures.size());
    cli("project create " + quoted(out / "added.wsproj"), &status);
    for (const auto& capture : tree.captures) {
        cli("project add " + quoted(out / "added.wsproj") + " " + quoted(capture), &status);
        ASSERT_EQ(status, 0) << capture;
    }
    for (const auto& capture : tree.captures)
        for (const char* what : {"show", "events"}) {
            const std::string batched = cli(std::string("project ") + what + " " + quoted(out / "batch.wsproj") + " " +
                                            quoted(capture) + " --json");
            const std::string added = cli(std::string("project ") + what + " " + quoted(out / "added.wsproj") + " " +
                                          quoted(capture) + " --json");
            EXPECT_FALSE(batched.empty());
            EXPECT_EQ(batched, added) << what << " " << capture;
        }
    const auto a = list(out / "batch.wsproj"), b = list(out / "added.wsproj");
    ASSERT_EQ(a["captures"].size(), b["captures"].size());
    for (const char* field : {"path", "sha256", "packets", "tcp_segments", "connections", "events", "cache_bytes"}) {
        std::multiset<std::string> fromBatch, fromAdd;
        for (const auto& c : a["captures"])
            fromBatch.insert(c[field].dump());
        for (const auto& c : b["captures"])
            fromAdd.insert(c[field].dump());
        EXPECT_EQ(fromBatch, fromAdd) << field;
    }
}

TEST(BatchCli, KilledInsideASaveAndRunAgainHoldsEveryCaptureOnce)
{
    CaptureTree tree;
    if (!tree.complete)
        GTEST_SKIP() << "needs the lab and public captures in ../shared (shared test material is absent)";
    ScratchDir out;
    const auto project = out / "p.wsproj";
    // Two captures commit, the third is killed inside its transaction.
    killCliInsideSave({"batch", tree.root().string(), "--project", project.string(), "--jobs", "1"}, out / "paused",
                      {"WINDSCOPE_STORE_PAUSE_AFTER_SAVES=2"});
    EXPECT_EQ(list(project)["captures"].size(), 2u);
    int status = -1;
    const auto rerun = nlohmann::json::parse(
        cli("batch " + quoted(tree.root()) + " --project " + quoted(project) + " --json", &status));
    ASSERT_EQ(status, 0);
    EXPECT_EQ(rerun["unchanged"], 2);
    EXPECT_EQ(rerun["analysed"], tree.captures.size() - 2);
    const auto listing = list(project);
    ASSERT_EQ(listing["captures"].size(), tree.captures.size());
    std::set<std::string> paths, hashes;
    for (const auto& c : listing["captures"]) {
        paths.insert(c["path"]);
        hashes.insert(c["sha256"]);
        EXPECT_EQ(c["status"], "ok");
        EXPECT_TRUE(c["cached"].get<bool>());
    }
    EXPECT_EQ(paths.size(), tree.captures.size());
    EXPECT_EQ(hashes.size(), tree.captures.size());
    // A third run finds nothing to do.
    const auto third = nlohmann::json::parse(
        cli("batch " + quoted(tree.root()) + " --project " + quoted(project) + " --json", &status));
    EXPECT_EQ(third["analysed"], 0);
    EXPECT_EQ(third["unchanged"], tree.captures.size());
}

TEST(BatchCli, AFailedCaptureIsRecordedWithItsErrorAndTheBatchGoesOn)
{
    ScratchDir dir;
    const auto sample = std::filesystem::path(WINDSCOPE_TEST_DATA_DIR) / "vlan-tcp.pcap";
    std::filesystem::copy_file(sample, dir / "good.pcap");
    writeBytes(dir / "broken.pcap", std::vector<char>(64, 'x'));
    const auto project = dir / "p.wsproj";
    int status = -1;
    std::string err = runCommand(cliPath() + " batch " + quoted(dir.path()) + " --project " + quoted(project) +
                                     " 2>&1 >/dev/null",
                                 &status);
    EXPECT_EQ(status, 3) << err; // some capture failed
    EXPECT_NE(err.find("broken.pcap: FAILED: "), std::string::npos) << err;
    EXPECT_NE(err.find("1 analysed, 0 unchanged, 1 failed"), std::string::npos) << err;
    auto listing = list(project);
    ASSERT_EQ(listing["captures"].size(), 1u);
    ASSERT_EQ(listing["failures"].size(), 1u);
    EXPECT_EQ(listing["failures"][0]["path"], std::filesystem::canonical(dir / "broken.pcap").string());
    EXPECT_NE(listing["failures"][0]["error"].get<std::string>().find("not a pcap or pcapng capture file"),
              std::string::npos);
    // Unchanged, it is not tried again; once it is a capture, it is analysed and cleared.
    const auto again = nlohmann::json::parse(cli("batch " + quoted(dir.path()) + " --project " + quoted(project) + " --json", &status));
    EXPECT_EQ(status, 0);
    EXPECT_EQ(again["failed_before"], 1);
    std::filesystem::remove(dir / "broken.pcap");
    std::filesystem::copy_file(std::filesystem::path(WINDSCOPE_TEST_DATA_DIR) / "truncated.pcap", dir / "broken.pcap");
    const auto mended = nlohmann::json::parse(cli("batch " + quoted(dir.path()) + " --project " + quoted(project) + " --json", &status));
    EXPECT_EQ(status, 0);
    EXPECT_EQ(mended["analysed"], 1);
    listing = list(project);
    EXPECT_EQ(listing["captures"].size(), 2u);
    EXPECT_TRUE(listing["failures"].empty());
    // Bad arguments.
    err = runCommand(cliPath() + " batch " + quoted(dir / "nowhere") + " --project " + quoted(project) + " 2>&1",
                     &status);
    EXPECT_EQ(status, 1);
    EXPECT_NE(err.find("nowhere: no such file or folder"), std::string::npos) << err;
    runCommand(cliPath() + " batch " + quoted(dir.path()) + " --project " + quoted(project) + " --jobs 0 2>&1", &status);
    EXPECT_EQ(status, 2);
}

} // namespace windscope::test

namespace windscope::test {

TEST(BatchCli, LocalDaskClusterEqualsTheLocalBatch)
{
    int status = -1;
    runCommand("/usr/bin/python3 -c 'import dask.distributed' 2>/dev/null", &status);
    if (status != 0)
        GTEST_SKIP() << "needs Dask (Debian's python3-distributed, which scripts/setup.sh installs)";
    CaptureTree tree;
    if (!tree.complete)
        GTEST_SKIP() << "needs the lab and public captures in ../shared (shared test material is absent)";
    writeBytes(tree.root() / "run-b" / "broken.pcap", std::vector<char>(64, 'x'));
    ScratchDir out;
    const auto script = std::filesystem::path(WINDSCOPE_TEST_DATA_DIR).parent_path().parent_path() / "scripts" /
                        "windscope-dask";
    // Two worker processes, started (and stopped) by the driver.
    const auto dask = nlohmann::json::parse(runCommand(script.string() + " --local 2 " + quoted(tree.root()) +
                                                           " --project " + quoted(out / "dask.wsproj") + " --cli " +
                                                           quoted(std::filesystem::path(cliPath())) + " --json 2>/dev/null",
                                                       &status));
    EXPECT_EQ(status, 3); // a capture failed
    EXPECT_EQ(dask["analysed"], tree.captures.size());
    EXPECT_EQ(dask["failed"], 1);
    cli("batch " + quoted(tree.root()) + " --project " + quoted(out / "local.wsproj"), &status);
    for (const auto& capture : tree.captures)
        for (const char* what : {"show", "events"}) {
            const std::string distributed = cli(std::string("project ") + what + " " + quoted(out / "dask.wsproj") +
                                                " " + quoted(capture) + " --json");
            const std::string local = cli(std::string("project ") + what + " " + quoted(out / "local.wsproj") + " " +
                                          quoted(capture) + " --json");
            EXPECT_FALSE(distributed.empty());
            EXPECT_EQ(distributed, local) << what << " " << capture;
        }
    const auto listing = list(out / "dask.wsproj");
    EXPECT_EQ(listing["captures"].size(), tree.captures.size());
    ASSERT_EQ(listing["failures"].size(), 1u);
    EXPECT_NE(listing["failures"][0]["error"].get<std::string>().find("not a pcap or pcapng capture file"),
              std::string::npos);
    EXPECT_TRUE(std::filesystem::is_empty(out / "dask.wsproj.parts")); // every part merged and removed
    // Run again: nothing analysed twice.
    const auto again = nlohmann::json::parse(runCommand(script.string() + " --local 2 " + quoted(tree.root()) +
                                                            " --project " + quoted(out / "dask.wsproj") + " --cli " +
                                                            quoted(std::filesystem::path(cliPath())) + " --json 2>/dev/null",
                                                        &status));
    EXPECT_EQ(again["analysed"], 0);
    EXPECT_EQ(again["unchanged"], tree.captures.size() + 1);
}

} // namespace windscope::test
