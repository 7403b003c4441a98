// SPDX-License-Identifier: GPL-3.0-or-later
// windscope-cli output against committed expected files, and its error behaviour.
// Regenerate the expected files after an intended change with
//   WINDSCOPE_REGENERATE_GOLDEN=1 ctest --preset dev -L golden
// and review the diff before committing it.
#include "test_support.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <unistd.h>

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

// ---- input edges: standard input, directories, damaged record headers, where warnings go

namespace {

std::string cli(const std::string& args, int* code) { return runCommand(cliPath() + " " + args, code); }

// A private directory for generated inputs, removed with the test.
struct Scratch
{
    std::filesystem::path dir;
    Scratch()
    {
        std::string pattern = (std::filesystem::temp_directory_path() / "windscope-cli-XXXXXX").string();
        dir = mkdtemp(pattern.data());
    }
    ~Scratch()
    {
        std::error_code ignored;
        std::filesystem::remove_all(dir, ignored);
    }
};

// A pcap (LINKTYPE_ETHERNET, snaplen 65535) of vlan-tcp.pcap's first `good` records, then
// one whose captured length says `caplen` (a damaged record header), then its 60 bytes.
std::string pcapWithRecordLength(const std::filesystem::path& path, int good, std::uint32_t caplen)
{
    const std::string source = readFile(fixture("vlan-tcp.pcap"));
    std::string out = source.substr(0, 24);
    out[16] = '\xff', out[17] = '\xff', out[18] = 0, out[19] = 0; // snaplen 65535, little-endian
    std::size_t at = 24;
    for (int i = 0; i < good; ++i) {
        const std::uint32_t incl = static_cast<unsigned char>(source[at + 8]) |
                                   static_cast<unsigned char>(source[at + 9]) << 8;
        out += source.substr(at, 16 + incl);
        at += 16 + incl;
    }
    std::string record(16 + 60, '\0');
    for (int b = 0; b < 4; ++b) {
        record[8 + b] = static_cast<char>(caplen >> (8 * b));
        record[12 + b] = static_cast<char>(60 >> (8 * b));
    }
    out += record;
    std::ofstream(path, std::ios::binary) << out;
    return path.string();
}

} // namespace

TEST(CliInput, StandardInputAsDashAndAsAPipeGivesTheFilesReport)
{
    int code = -1;
    const std::string reference = cli("analyze " + fixture("vlan-tcp.pcap") + " --json 2>/dev/null", &code);
    ASSERT_EQ(code, 0);
    const auto withoutPath = [](const std::string& text) {
        nlohmann::json j = nlohmann::json::parse(text);
        j["capture"].erase("path");
        return j;
    };
    // "-" reads standard input; /dev/stdin on a pipe cannot be rewound; gzip on a pipe too.
    for (const std::string& command :
         {cliPath() + " analyze - --json < " + fixture("vlan-tcp.pcap"),
          "cat " + fixture("vlan-tcp.pcap") + " | " + cliPath() + " analyze /dev/stdin --json",
          "cat " + fixture("vlan-tcp.pcap") + " | " + cliPath() + " analyze - --json",
          "cat " + fixture("vlan-tcp.pcap.gz") + " | " + cliPath() + " analyze - --json"}) {
        const std::string out = runCommand(command + " 2>/dev/null", &code);
        ASSERT_EQ(code, 0) << command;
        EXPECT_EQ(withoutPath(out), withoutPath(reference)) << command;
    }
    // The other commands that read a capture once take it as well.
    const std::string events = cli("events " + fixture("vlan-tcp.pcap") + " --json 2>/dev/null", &code);
    const std::string piped =
        runCommand("cat " + fixture("vlan-tcp.pcap") + " | " + cliPath() + " events - --json 2>/dev/null", &code);
    EXPECT_EQ(code, 0);
    EXPECT_EQ(withoutPath(piped), withoutPath(events));
    const std::string cwnd = cli("cwnd " + fixture("vlan-tcp.pcap") + " --flow 0 --csv 2>/dev/null", &code);
    ASSERT_EQ(code, 0);
    EXPECT_EQ(runCommand("cat " + fixture("vlan-tcp.pcap") + " | " + cliPath() + " cwnd - --flow 0 --csv 2>/dev/null",
                         &code),
              cwnd);
    EXPECT_EQ(code, 0);
    // A pipe that is not a capture is refused, not read as an empty one.
    const std::string err =
        runCommand("cat " + fixture("not-a-capture.txt") + " | " + cliPath() + " analyze - 2>&1 >/dev/null", &code);
    EXPECT_EQ(code, 1);
    EXPECT_NE(err.find("-: not a pcap or pcapng capture file"), std::string::npos) << err;
}

TEST(CliInput, PcapngOfSeveralLinkTypesOnAPipe)
{
    // Interfaces of two link types, which libpcap refuses at the second interface: the
    // native reader starts again from the content kept until then.
    const std::string capture = windscope::test::publicCapture("pcapplusplus__many_interfaces-1.pcapng").string();
    WINDSCOPE_REQUIRE_FILE(capture);
    int code = -1;
    nlohmann::json file = nlohmann::json::parse(cli("analyze " + capture + " --json 2>/dev/null", &code));
    ASSERT_EQ(code, 0);
    for (const std::string& feed : {"cat " + capture, "gzip -c " + capture}) {
        nlohmann::json piped =
            nlohmann::json::parse(runCommand(feed + " | " + cliPath() + " analyze - --json 2>/dev/null", &code));
        EXPECT_EQ(code, 0) << feed;
        EXPECT_EQ(piped["capture"]["packets"], 64) << feed;
        piped["capture"].erase("path");
        nlohmann::json expected = file;
        expected["capture"].erase("path");
        EXPECT_EQ(piped, expected) << feed;
    }
}

TEST(CliInput, DirectoryAndMissingFileHaveTheirOwnMessages)
{
    Scratch scratch;
    int code = -1;
    for (const char* command : {"analyze", "events", "correlate"}) {
        const std::string err = cli(std::string(command) + " " + scratch.dir.string() + " 2>&1 >/dev/null", &code);
        EXPECT_EQ(code, 1) << command;
        EXPECT_NE(err.find(scratch.dir.string() + ": is a directory"), std::string::npos) << command << ": " << err;
    }
    const std::string err = cli("cwnd " + (scratch.dir / "missing.pcap").string() + " --flow 0 2>&1 >/dev/null", &code);
    EXPECT_EQ(code, 1);
    EXPECT_NE(err.find("missing.pcap: cannot open: No such file or directory"), std::string::npos) << err;
    // Without read permission (not testable as root, who reads anything).
    if (::geteuid() != 0) {
        const auto locked = scratch.dir / "locked.pcap";
        std::filesystem::copy_file(fixture("vlan-tcp.pcap"), locked);
        std::filesystem::permissions(locked, std::filesystem::perms::none);
        const std::string denied = cli("analyze " + locked.string() + " 2>&1 >/dev/null", &code);
        EXPECT_EQ(code, 1);
        EXPECT_NE(denied.find("locked.pcap: cannot open: Permission denied"), std::string::npos) << denied;
    }
}

TEST(CliInput, AbsurdRecordLengthIsDamageWithThePacketNumber)
{
    Scratch scratch;
    int code = -1;
    // The first record claims 0x7fffffff bytes: nothing can be read, so it is an error,
    // never an empty capture with exit status 0.
    const std::string first = pcapWithRecordLength(scratch.dir / "first.pcap", 0, 0x7fffffffu);
    std::string err = cli("analyze " + first + " 2>&1 >/dev/null", &code);
    EXPECT_EQ(code, 1);
    EXPECT_NE(err.find("first.pcap: packet 1: record length 2147483647 exceeds the file's snapshot "
                       "length of 65535 bytes"),
              std::string::npos)
        << err;
    EXPECT_NE(err.find("no packet could be read"), std::string::npos) << err;
    EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << err;
    // After 5 good records: their results, and the damage named on stderr in every mode.
    const std::string later = pcapWithRecordLength(scratch.dir / "later.pcap", 5, 300000);
    for (const char* mode : {"", " --json", " --csv"}) {
        const std::string out = cli("analyze " + later + mode + " 2>/dev/null", &code);
        EXPECT_EQ(code, 0) << mode;
        // The JSON names it in "warnings" (the result); no message line on stdout.
        EXPECT_EQ(out.find("warning: "), std::string::npos) << "stdout holds only the result" << mode;
        if (std::string(mode) == " --csv") {
            EXPECT_EQ(out.find("record length"), std::string::npos) << out;
        }
        err = cli("analyze " + later + mode + " 2>&1 >/dev/null", &code);
        EXPECT_NE(err.find("later.pcap: packet 6: record length 300000 exceeds the file's snapshot length "
                           "of 65535 bytes (a damaged record header); results cover packets 1-5"),
                  std::string::npos)
            << mode << ": " << err;
    }
    const nlohmann::json j = nlohmann::json::parse(cli("analyze " + later + " --json 2>/dev/null", &code));
    EXPECT_EQ(j["capture"]["packets"], 5);
    EXPECT_EQ(j["capture"]["truncated"], true);
}

TEST(CliInput, EveryCommandWarnsOnStderrOnly)
{
    int code = -1;
    const std::string cut = fixture("truncated.pcap");
    for (const std::string& command :
         {"analyze " + cut, "analyze " + cut + " --json", "analyze " + cut + " --csv", "analyze " + cut + " --csv --segments",
          "events " + cut, "events " + cut + " --json", "events " + cut + " --csv", "correlate " + cut,
          "correlate " + cut + " --json", "cwnd " + cut + " --flow 0", "cwnd " + cut + " --flow 0 --json",
          "series " + cut + " --flow 0", "replay " + cut + " --flow 0 --seed-runs 1"}) {
        const std::string out = cli(command + " 2>/dev/null", &code);
        EXPECT_EQ(code, 0) << command;
        // "warnings" in the JSON are the result's; a "warning: " line is a message.
        EXPECT_EQ(out.find("warning: "), std::string::npos) << command << " printed a warning on stdout:\n" << out;
        const std::string err = cli(command + " 2>&1 >/dev/null", &code);
        EXPECT_NE(err.find("truncated.pcap: file is cut short in packet 7"), std::string::npos)
            << command << ": " << err;
    }
}

TEST(CliInput, PacketNamesTheDamage)
{
    int code = -1;
    const std::string cut = fixture("truncated.pcap");
    const std::string version = cli("--version", &code);
    if (version.find("wireshark not built in") != std::string::npos)
        GTEST_SKIP() << "packet needs libwireshark, which this build lacks";
    // A frame before the cut is shown, and the cut is named on stderr.
    std::string out = cli("packet " + cut + " 3 2>/dev/null", &code);
    EXPECT_EQ(code, 0);
    EXPECT_NE(out.find("Frame 3:"), std::string::npos) << out;
    std::string err = cli("packet " + cut + " 3 2>&1 >/dev/null", &code);
    EXPECT_NE(err.find("truncated.pcap: file is cut short in frame 7"), std::string::npos) << err;
    EXPECT_NE(err.find("frames 1-6 are readable"), std::string::npos) << err;
    // A frame past the cut: the capture ends there because of the damage.
    err = cli("packet " + cut + " 9 2>&1 >/dev/null", &code);
    EXPECT_EQ(code, 1);
    EXPECT_NE(err.find("no frame 9: the capture ends at frame 6: file is cut short in frame 7"),
              std::string::npos)
        << err;
    // Standard input is copied to a private file first (Wireshark re-reads frames by offset).
    out = runCommand("cat " + fixture("vlan-tcp.pcap") + " | " + cliPath() + " packet - 2 2>&1", &code);
    EXPECT_EQ(code, 0) << out;
    EXPECT_EQ(out, cli("packet " + fixture("vlan-tcp.pcap") + " 2 2>&1", &code));
    Scratch scratch;
    err = cli("packet " + scratch.dir.string() + " 1 2>&1 >/dev/null", &code);
    EXPECT_EQ(code, 1);
    EXPECT_NE(err.find(": is a directory"), std::string::npos) << err;
}
