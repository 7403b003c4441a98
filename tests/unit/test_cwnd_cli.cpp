// SPDX-License-Identifier: GPL-3.0-or-later
// windscope-cli cwnd: the CLI contract's columns, flow selection and the refusal to
// print a plausible line for a sender it cannot follow.
#include "test_support.h"

#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <unistd.h>
#include <vector>

using windscope::test::cliPath;
using windscope::test::labDir;
using windscope::test::runCommand;

TEST(CwndCli, CsvHasTheContractColumnsAndOneRowPerDataSegment)
{
    const auto capture = labDir("linux/reno-loss05/sender.pcap");
    WINDSCOPE_REQUIRE_FILE(capture);
    int status = -1;
    const std::string out = runCommand(cliPath() + " cwnd " + capture.string() +
                                           " --flow 10.77.0.1:47001-10.77.0.2:47002 --csv",
                                       &status);
    ASSERT_EQ(status, 0);
    std::istringstream lines(out);
    std::string header, first;
    std::getline(lines, header);
    EXPECT_EQ(header, "epoch_s,cwnd_bytes,ssthresh_bytes,bytes_in_flight,rwnd_bytes,state,model");
    std::getline(lines, first);
    // IW10 with a 1448-byte MSS, infinite ssthresh printed empty, Linux Reno chosen.
    EXPECT_EQ(first, "1795297491.477075000,14480,,1448,64512,slow_start,reno");
    std::size_t rows = 1;
    for (std::string line; std::getline(lines, line);)
        ++rows;
    const std::string analyze = runCommand(cliPath() + " analyze " + capture.string() + " --json");
    EXPECT_NE(analyze.find("\"data_bytes\""), std::string::npos);
    EXPECT_GT(rows, 10000u);
}

TEST(CwndCli, ConnectionIdSelectsTheDataSender)
{
    const auto capture = labDir("linux/reno-loss05/sender.pcap");
    WINDSCOPE_REQUIRE_FILE(capture);
    const std::string byId = runCommand(cliPath() + " cwnd " + capture.string() + " --flow 0 --csv");
    const std::string byName = runCommand(cliPath() + " cwnd " + capture.string() +
                                          " --flow 10.77.0.1:47001-10.77.0.2:47002 --csv");
    EXPECT_EQ(byId, byName);
}

TEST(CwndCli, ModelOverrideAndUnknownModel)
{
    const auto capture = labDir("linux/reno-loss05/sender.pcap");
    WINDSCOPE_REQUIRE_FILE(capture);
    const std::string json = runCommand(cliPath() + " cwnd " + capture.string() + " --flow 0 --json --model cubic");
    EXPECT_NE(json.find("\"model\":\"cubic\",\"model_overridden\":true"), std::string::npos);
    int status = 0;
    runCommand(cliPath() + " cwnd " + capture.string() + " --flow 0 --model vegas 2>/dev/null", &status);
    EXPECT_EQ(status, 2);
    runCommand(cliPath() + " cwnd " + capture.string() + " --flow 7 2>/dev/null", &status);
    EXPECT_EQ(status, 1);
}

namespace {

// A copy of a little-endian microsecond pcap without the records that keep(index)
// rejects, written under the test's temporary directory.
std::filesystem::path filteredCopy(const std::filesystem::path& from, const std::string& name,
                                   const std::function<bool(std::size_t)>& keep)
{
    std::ifstream in(from, std::ios::binary);
    std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::vector<char> out(bytes.begin(), bytes.begin() + 24);
    std::size_t offset = 24;
    for (std::size_t index = 0; offset + 16 <= bytes.size(); ++index) {
        std::uint32_t included = 0;
        std::memcpy(&included, bytes.data() + offset + 8, 4);
        const std::size_t end = offset + 16 + included;
        if (keep(index))
            out.insert(out.end(), bytes.begin() + static_cast<std::ptrdiff_t>(offset),
                       bytes.begin() + static_cast<std::ptrdiff_t>(end));
        offset = end;
    }
    const auto path = std::filesystem::temp_directory_path() /
                      ("windscope-cwnd-" + std::to_string(::getpid()) + "-" + name + ".pcap");
    std::ofstream(path, std::ios::binary).write(out.data(), static_cast<std::streamsize>(out.size()));
    return path;
}

} // namespace

// Without the handshake (window scale, MSS and initial window unknown) and with heavy
// capture loss, every row says why instead of carrying an estimate, and the CLI says
// it on stderr.
TEST(CwndCli, SaysWhyItCannotFollow)
{
    const auto capture = labDir("linux/reno-loss05/sender.pcap");
    WINDSCOPE_REQUIRE_FILE(capture);
    const auto noHandshake = filteredCopy(capture, "no-handshake", [](std::size_t i) { return i >= 3; });
    // Every 20th packet after the handshake missing: the ACKs then cover data the
    // capture never saw, far beyond the 2% the inference tolerates.
    const auto lossy = filteredCopy(capture, "lossy", [](std::size_t i) { return i < 3 || i % 20 != 0; });
    for (const auto& [path, reason] : {std::pair{noHandshake, std::string("missing_handshake")},
                                       std::pair{lossy, std::string("capture_loss")}}) {
        SCOPED_TRACE(reason);
        int status = -1;
        const std::string csv = runCommand(cliPath() + " cwnd " + path.string() + " --flow 0 --csv 2>&1", &status);
        EXPECT_EQ(status, 0);
        std::istringstream lines(csv);
        std::string line;
        std::size_t rows = 0, said = 0;
        bool stderrLine = false;
        while (std::getline(lines, line)) {
            if (line.rfind("windscope-cli cwnd: connection 0: cwnd not followed:", 0) == 0) {
                stderrLine = true;
                continue;
            }
            if (line.rfind("epoch_s,", 0) == 0)
                continue;
            ++rows;
            // cwnd and ssthresh empty, the reason in the state column, no model.
            said += line.find(",,,") != std::string::npos &&
                    line.find(",not_followed:" + reason + ",none") != std::string::npos;
        }
        EXPECT_TRUE(stderrLine);
        EXPECT_GT(rows, 1000u);
        EXPECT_EQ(said, rows);
        std::filesystem::remove(path);
    }
}
