// SPDX-License-Identifier: GPL-3.0-or-later
// windscope-cli output against committed expected files, and its error behaviour.
// Regenerate the expected files after an intended change with
//   WINDSCOPE_REGENERATE_GOLDEN=1 ctest --preset dev -L golden
// and review the diff before committing it.
#include "test_support.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>

using windscope::test::cliPath;
using windscope::test::runCommand;
using windscope::test::testData;

namespace {

// From the configured source tree, not __FILE__: a compiler launcher may pass relative
// source paths, and the tests run from the build tree.
const std::filesystem::path kTestsDir = std::filesystem::path(WINDSCOPE_TEST_DATA_DIR).parent_path();
const std::filesystem::path kExpectedDir = kTestsDir / "golden" / "expected";
const std::filesystem::path kRepoRoot = kTestsDir.parent_path();

std::string readFile(const std::filesystem::path& path)
{
    std::ifstream in(path, std::ios::binary);
    std::stringstream buffer;
    buffer << in.rdbuf();
    return buffer.str();
}

// Paths in the output depend on where the checkout lives; make them repo-relative.
std::string normalise(std::string text)
{
    const std::string root = kRepoRoot.string() + "/";
    for (std::size_t at; (at = text.find(root)) != std::string::npos;)
        text.erase(at, root.size());
    return text;
}

void compareWithGolden(const std::string& args, const std::string& expectedName)
{
    int code = 0;
    const std::string output =
        normalise(runCommand(cliPath() + " " + args + " 2>/dev/null", &code));
    ASSERT_EQ(code, 0) << args;
    const auto expectedPath = kExpectedDir / expectedName;
    if (std::getenv("WINDSCOPE_REGENERATE_GOLDEN")) {
        std::filesystem::create_directories(kExpectedDir);
        std::ofstream(expectedPath, std::ios::binary) << output;
        GTEST_SKIP() << "regenerated " << expectedPath;
    }
    ASSERT_TRUE(std::filesystem::exists(expectedPath)) << expectedPath;
    const std::string expected = readFile(expectedPath);
    if (expectedName.ends_with(".json"))
        EXPECT_EQ(nlohmann::json::parse(output), nlohmann::json::parse(expected))
            << "windscope-cli " << args << " differs from " << expectedName;
    else
        EXPECT_EQ(output, expected) << "windscope-cli " << args << " differs from " << expectedName;
}

std::string fixture(const std::string& name) { return (kRepoRoot / "tests/data" / name).string(); }
std::string sample() { return (kRepoRoot / "resources/samples/wifi-handoff-scan.pcap").string(); }

} // namespace

TEST(CliGolden, VlanFixtureJson) { compareWithGolden("analyze " + fixture("vlan-tcp.pcap") + " --json", "vlan-tcp.json"); }
TEST(CliGolden, VlanFixtureSegmentsCsv)
{
    compareWithGolden("analyze " + fixture("vlan-tcp.pcap") + " --csv --segments", "vlan-tcp.segments.csv");
}
TEST(CliGolden, MalformedFixtureJson)
{
    compareWithGolden("analyze " + fixture("malformed-mix.pcap") + " --json", "malformed-mix.json");
}
TEST(CliGolden, TruncatedFixtureJson)
{
    compareWithGolden("analyze " + fixture("truncated.pcap") + " --json", "truncated.json");
}
TEST(CliGolden, SampleCaptureJson) { compareWithGolden("analyze " + sample() + " --json", "sample.json"); }
TEST(CliGolden, SampleCaptureConnectionsCsv)
{
    compareWithGolden("analyze " + sample() + " --csv", "sample.connections.csv");
}

TEST(CliErrors, NotACaptureFails)
{
    int code = 0;
    const std::string err = runCommand(cliPath() + " analyze " + fixture("not-a-capture.txt") + " 2>&1 >/dev/null", &code);
    EXPECT_NE(code, 0);
    EXPECT_NE(err.find("not-a-capture.txt: not a pcap or pcapng capture file"), std::string::npos) << err;
    EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << "one-line reason expected: " << err;
}

TEST(CliErrors, MissingFileFails)
{
    int code = 0;
    const std::string err = runCommand(cliPath() + " analyze does-not-exist.pcap 2>&1 >/dev/null", &code);
    EXPECT_NE(code, 0);
    EXPECT_NE(err.find("does-not-exist.pcap: cannot open"), std::string::npos) << err;
}

TEST(CliErrors, UnknownCommandAndOptionFail)
{
    int code = 0;
    runCommand(cliPath() + " frobnicate 2>/dev/null", &code);
    EXPECT_EQ(code, 2);
    const std::string err = runCommand(cliPath() + " analyze " + fixture("vlan-tcp.pcap") + " --bogus 2>&1 >/dev/null", &code);
    EXPECT_EQ(code, 2);
    EXPECT_NE(err.find("unknown option --bogus"), std::string::npos) << err;
}

TEST(CliErrors, TruncatedFileWarnsButSucceeds)
{
    int code = 0;
    const std::string err = runCommand(cliPath() + " analyze " + fixture("truncated.pcap") + " --json 2>&1 >/dev/null", &code);
    EXPECT_EQ(code, 0);
    EXPECT_NE(err.find("cut short in packet 7"), std::string::npos) << err;
}

TEST(CliVersion, NamesTheLibraries)
{
    int code = 0;
    const std::string out = runCommand(cliPath() + " --version", &code);
    EXPECT_EQ(code, 0);
    EXPECT_NE(out.find("windscope-cli 0."), std::string::npos) << out;
    EXPECT_NE(out.find("libpcap version"), std::string::npos) << out;
    EXPECT_NE(out.find("zlib"), std::string::npos) << out;
}
