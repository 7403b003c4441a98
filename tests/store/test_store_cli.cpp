// SPDX-License-Identifier: GPL-3.0-or-later
// windscope-cli project ...: the cached report equals analyze's, a process killed in
// the middle of a save leaves the project at its last commit, refusals are reported.

#include "analysis/store/project_store.h"
#include "store_test_kit.h"
#include "test_support.h"


namespace windscope::test {
namespace {

namespace store = analysis::store;

std::string quoted(const std::filesystem::path& p)
{
    return "'" + p.string() + "'";
}

std::string cli(const std::string& args, int* status = nullptr)
{
    return runCommand(cliPath() + " " + args, status);
}

TEST(ProjectCli, ShowJsonEqualsAnalyzeJson)
{
    const std::vector<std::filesystem::path> captures = {
        publicCapture("arkime__80211http.pcap"), publicCapture("zeek__206_example_b.pcap"),
        labDir("linux/reno-loss05") / "ap-wlan.pcap",
        labDir("ns3/E-slowrx-r512") / "wifi-sta.pcap"};
    ScratchDir dir;
    const auto project = dir / "p.wsproj";
    int status = -1;
    cli("project create " + quoted(project), &status);
    ASSERT_EQ(status, 0);
    for (const auto& given : captures) {
        if (!std::filesystem::exists(given))
            continue;
        // The project records absolute, canonical paths, and the report names the file.
        const std::filesystem::path capture = std::filesystem::canonical(given);
        cli("project add " + quoted(project) + " " + quoted(capture), &status);
        ASSERT_EQ(status, 0) << capture;
        const std::string fresh = cli("analyze " + quoted(capture) + " --json", &status);
        ASSERT_EQ(status, 0);
        const std::string cached =
            cli("project show " + quoted(project) + " " + quoted(capture) + " --json", &status);
        ASSERT_EQ(status, 0);
        EXPECT_EQ(cached, fresh) << capture;
        const std::string freshEvents = cli("events " + quoted(capture) + " --json", &status);
        const std::string cachedEvents =
            cli("project events " + quoted(project) + " " + quoted(capture) + " --json", &status);
        EXPECT_EQ(cachedEvents, freshEvents) << capture;
    }
    const std::string listing = cli("project list " + quoted(project) + " --json", &status);
    ASSERT_EQ(status, 0);
    EXPECT_NE(listing.find("\"status\":\"ok\""), std::string::npos) << listing;
    EXPECT_EQ(listing.find("\"status\":\"changed\""), std::string::npos) << listing;
}

TEST(ProjectCli, RefusalsAreOneLineWithTheFileName)
{
    ScratchDir dir;
    writeBytes(dir / "junk.wsproj", std::vector<char>(5000, 'x'));
    int status = 0;
    const std::string out =
        runCommand(cliPath() + " project list " + quoted(dir / "junk.wsproj") + " 2>&1", &status);
    EXPECT_EQ(status, 1);
    EXPECT_NE(out.find((dir / "junk.wsproj").string()), std::string::npos) << out;
    EXPECT_NE(out.find("not an SQLite database"), std::string::npos) << out;
    EXPECT_EQ(fileBytes(dir / "junk.wsproj"), std::vector<char>(5000, 'x'));
}

void killInsideSave(const std::filesystem::path& project, const std::filesystem::path& capture,
                    const std::filesystem::path& marker)
{
    killCliInsideSave({"project", "add", project.string(), capture.string()}, marker);
}

TEST(ProjectCli, KilledMidSaveReopensAtLastCommit)
{
    const auto first = publicCapture("arkime__80211http.pcap");
    const auto second = labDir("linux/reno-clean") / "ap-wlan.pcap";
    WINDSCOPE_REQUIRE_FILE(first);
    WINDSCOPE_REQUIRE_FILE(second);
    ScratchDir dir;
    const auto project = dir / "p.wsproj";
    int status = -1;
    cli("project create " + quoted(project), &status);
    ASSERT_EQ(status, 0);
    cli("project add " + quoted(project) + " " + quoted(first), &status);
    ASSERT_EQ(status, 0);
    const std::string before = cli("project show " + quoted(project) + " 1 --json", &status);
    ASSERT_EQ(status, 0);

    // Killed while adding a second capture (its rows written, not committed).
    killInsideSave(project, second, dir / "paused-1");
    {
        std::string error;
        auto reopened = store::ProjectStore::open(project.string(), error);
        ASSERT_TRUE(reopened) << error;
        std::vector<store::CaptureRecord> captures;
        ASSERT_TRUE(reopened->listCaptures(captures, error)) << error;
        ASSERT_EQ(captures.size(), 1u);
        EXPECT_EQ(captures[0].file.path, std::filesystem::canonical(first).string());
    }
    EXPECT_EQ(cli("project show " + quoted(project) + " 1 --json", &status), before);
    EXPECT_EQ(status, 0);

    // Killed while replacing the cached results of the first capture: the old ones stay.
    killInsideSave(project, first, dir / "paused-2");
    EXPECT_EQ(cli("project show " + quoted(project) + " 1 --json", &status), before);
    EXPECT_EQ(status, 0);

    // And the project still takes new saves.
    cli("project add " + quoted(project) + " " + quoted(second), &status);
    EXPECT_EQ(status, 0);
    const std::string listing = cli("project list " + quoted(project) + " --json", &status);
    EXPECT_NE(listing.find("reno-clean"), std::string::npos) << listing;
}

TEST(ProjectCli, AddRefusesWhatItCannotKeep)
{
    ScratchDir dir;
    const auto project = dir / "p.wsproj";
    int status = -1;
    cli("project create " + quoted(project), &status);
    ASSERT_EQ(status, 0);
    const std::filesystem::path capture = testData("vlan-tcp.pcap");
    // Standard input: no path and no content to hash again.
    std::string err = runCommand(cliPath() + " project add " + quoted(project) + " - < " + quoted(capture) +
                                     " 2>&1 >/dev/null",
                                 &status);
    EXPECT_EQ(status, 1);
    EXPECT_NE(err.find("standard input cannot be added"), std::string::npos) << err;
    err = runCommand("cat " + quoted(capture) + " | " + cliPath() + " project add " + quoted(project) +
                         " /dev/stdin 2>&1 >/dev/null",
                     &status);
    EXPECT_EQ(status, 1);
    EXPECT_NE(err.find("/dev/stdin: not a regular file"), std::string::npos) << err;
    // A directory is named as one (not "read error").
    err = cli("project add " + quoted(project) + " " + quoted(dir.path()) + " 2>&1 >/dev/null", &status);
    EXPECT_EQ(status, 1);
    EXPECT_NE(err.find(dir.path().string() + ": is a directory"), std::string::npos) << err;
    // A capture whose first record header is damaged (captured length 0x7fffffff) has
    // nothing to keep: refused, never stored as a valid empty capture.
    std::vector<char> bytes = fileBytes(testData("vlan-tcp.pcap"));
    bytes.resize(24 + 16 + 60);
    for (int b = 0; b < 4; ++b)
        bytes[24 + 8 + b] = static_cast<char>(0x7fffffffu >> (8 * b));
    writeBytes(dir / "damaged.pcap", bytes);
    err = cli("project add " + quoted(project) + " " + quoted(dir / "damaged.pcap") + " 2>&1 >/dev/null", &status);
    EXPECT_EQ(status, 1);
    EXPECT_NE(err.find("damaged.pcap: packet 1: record length 2147483647 exceeds"), std::string::npos) << err;
    const std::string listing = cli("project list " + quoted(project) + " --json", &status);
    EXPECT_EQ(status, 0);
    EXPECT_EQ(listing.find("damaged.pcap"), std::string::npos) << listing;
    // A capture cut mid-way is kept with its damage, which show repeats on stderr only.
    const std::filesystem::path cut = testData("truncated.pcap");
    err = cli("project add " + quoted(project) + " " + quoted(cut) + " 2>&1 >/dev/null", &status);
    EXPECT_EQ(status, 0);
    EXPECT_NE(err.find("file is cut short in packet 7"), std::string::npos) << err;
    const std::string shown = cli("project show " + quoted(project) + " " + quoted(cut) + " 2>/dev/null", &status);
    EXPECT_EQ(status, 0);
    EXPECT_NE(shown.find("packets         6"), std::string::npos) << shown;
    EXPECT_EQ(shown.find("warning"), std::string::npos) << shown;
    err = cli("project show " + quoted(project) + " " + quoted(cut) + " 2>&1 >/dev/null", &status);
    EXPECT_NE(err.find("file is cut short in packet 7"), std::string::npos) << err;
}

TEST(ProjectCli, AnnotateAndListNotes)
{
    const auto capture = publicCapture("arkime__80211http.pcap");
    WINDSCOPE_REQUIRE_FILE(capture);
    ScratchDir dir;
    const auto project = dir / "p.wsproj";
    int status = -1;
    cli("project create " + quoted(project), &status);
    cli("project add " + quoted(project) + " " + quoted(capture), &status);
    ASSERT_EQ(status, 0);
    cli("project annotate " + quoted(project) + " 1 --time 1.25 'retransmission burst'", &status);
    EXPECT_EQ(status, 0);
    cli("project annotate " + quoted(project) + " 1 --event 0 --bookmark 'first scan'", &status);
    EXPECT_EQ(status, 0);
    const std::string notes = cli("project notes " + quoted(project) + " 1 --json", &status);
    EXPECT_EQ(status, 0);
    EXPECT_NE(notes.find("\"time_s\":1.25"), std::string::npos) << notes;
    EXPECT_NE(notes.find("\"kind\":\"bookmark\""), std::string::npos) << notes;
    EXPECT_NE(notes.find("first scan"), std::string::npos) << notes;
}

} // namespace
} // namespace windscope::test
