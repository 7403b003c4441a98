// SPDX-License-Identifier: GPL-3.0-or-later
// windscope-cli cwnd: the CLI contract's columns, flow selection and the refusal to
// print a plausible line for a sender it cannot follow.
#include "test_support.h"

#include <sstream>

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
