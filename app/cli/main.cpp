// SPDX-License-Identifier: GPL-3.0-or-later
// windscope-cli: the headless front-end. Every number the GUI shows can be printed here.
#include "cli_analyze.h"
#include "cli_cwnd.h"
#include "cli_events.h"

#include "windscope/version.h"

#include <pcap/pcap.h>
#include <zlib.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace {

void printUsage(FILE* out)
{
    std::fprintf(out,
                 "usage: windscope-cli COMMAND [ARGS]\n"
                 "\n"
                 "commands:\n"
                 "  analyze FILE [--json | --csv [--segments]] [--low-window BYTES]\n"
                 "      capture summary and TCP connection table; --json follows the CLI\n"
                 "      contract, --csv gives one row per connection direction, --csv\n"
                 "      --segments one row per TCP segment with its classifications\n"
                 "  events FILE [--json | --csv] [--max-scan MS]\n"
                 "      802.11 inventory and events (scan, power_save, handoff,\n"
                 "      outage_inferred) with the frames that evidence them\n"
                 "  correlate FILE [--json | --csv] [--max-scan MS] [--pre MS] [--post MS]\n"
                 "      what each event did to its station's TCP connections\n"
                 "  cwnd FILE --flow ID|ADDR:PORT-ADDR:PORT [--csv | --json] [--model NAME]\n"
                 "      reconstructed congestion window of the flow's sender, one row per\n"
                 "      data segment; --model reno|newreno|cubic overrides the model choice\n"
                 "  --version   version and the libraries this build uses\n"
                 "  --help      this text\n");
}

void printVersion()
{
    std::printf("windscope-cli %s\n", WINDSCOPE_VERSION);
    std::printf("  compiler  %s\n", WINDSCOPE_CXX_COMPILER);
    std::printf("  libpcap   %s (built with %s)\n", pcap_lib_version(), WINDSCOPE_PCAP_VERSION);
    std::printf("  zlib      %s (built with %s)\n", zlibVersion(), ZLIB_VERSION);
}

} // namespace

int main(int argc, char** argv)
{
    std::vector<std::string> args(argv + 1, argv + argc);
    if (args.empty()) {
        printUsage(stderr);
        return 2;
    }
    const std::string command = args.front();
    args.erase(args.begin());
    if (command == "--version" || command == "version") {
        printVersion();
        return 0;
    }
    if (command == "--help" || command == "-h" || command == "help") {
        printUsage(stdout);
        return 0;
    }
    if (command == "analyze")
        return windscope::cli::runAnalyze(args);
    if (command == "cwnd")
        return windscope::cli::runCwnd(args);
    if (command == "events")
        return windscope::cli::runEvents(args);
    if (command == "correlate")
        return windscope::cli::runCorrelate(args);
    std::fprintf(stderr, "windscope-cli: unknown command '%s' (try --help)\n", command.c_str());
    return 2;
}
