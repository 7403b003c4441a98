// SPDX-License-Identifier: GPL-3.0-or-later
// windscope-cli: the headless front-end. Every number the GUI shows can be printed here.
#include "cli_analyze.h"
#include "cli_compare.h"
#include "cli_cwnd.h"
#include "cli_events.h"
#include "cli_replay.h"
#include "cli_series.h"
#ifdef WINDSCOPE_HAVE_RENDER
#include "cli_export.h"
#endif
#ifdef WINDSCOPE_HAVE_STORE
#include "cli_batch.h"
#include "cli_fleet.h"
#include "cli_project.h"
#endif
#ifdef WINDSCOPE_HAVE_WIRESHARK
#include "cli_packet.h"
#include "analysis/sender/congestion_model.h"
#include "dissectors/wireshark/epan_session.h"
#endif

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
                 "          [--key PASSPHRASE:SSID|PSK]...\n"
                 "      capture summary and TCP connection table; --json follows the CLI\n"
                 "      contract, --csv gives one row per connection direction, --csv\n"
                 "      --segments one row per TCP segment with its classifications;\n"
                 "      --key analyses WPA/WPA2-PSK frames decrypted by Wireshark\n"
                 "  events FILE [--json | --csv] [--max-scan MS]\n"
                 "      802.11 inventory and events (scan, power_save, handoff,\n"
                 "      outage_inferred) with the frames that evidence them\n"
                 "  correlate FILE [--json | --csv] [--max-scan MS] [--pre MS] [--post MS]\n"
                 "      what each event did to its station's TCP connections\n"
                 "  cwnd FILE --flow ID|ADDR:PORT-ADDR:PORT [--csv | --json] [--model NAME]\n"
                 "      reconstructed congestion window of the flow's sender, one row per\n"
                 "      data segment; --model %s overrides the model choice\n"
                 "  compare A[:FLOW] B[:FLOW] [--name-a TEXT] [--name-b TEXT] [--json | --csv]\n"
                 "      two connections side by side: completion, bytes, rates,\n"
                 "      retransmissions by kind, timeouts, RTT and time in each sender state\n"
                 "  series FILE --flow ID|ADDR:PORT-ADDR:PORT [--bin MS]\n"
                 "      the series the desktop plots of the flow are drawn from, as CSV:\n"
                 "      segments, ACKs, windows, throughput, RTT, 802.11 lane\n"
                 "  replay FILE --flow F [--fix NAME[=VALUE]]... [--json]\n"
                 "  replay --scenario FILE.json | --preset NAME [--fix ...] [--json]\n"
                 "      re-simulate the flow (or a scenario) as captured and with fixes;\n"
                 "      --sweep PARAM=from:to:step, --dump-scenario PATH|-, --list-presets,\n"
                 "      --list-fixes\n"
                 "  export figure FILE --flow F|--event ID [--plot NAME]... [--preset ID]\n"
                 "         [--range FROM:TO] -o OUT.png|.pdf|.svg\n"
                 "  export series FILE --flow F [-o OUT.csv]\n"
                 "  export report FILE [--flow F]... [--plot NAME]... -o OUT.html|.pdf\n"
                 "      the desktop application's figures with publication presets, the\n"
                 "      plotted series, and a report (summary, connection, event and\n"
                 "      correlation tables, figures); `windscope-cli export --help`\n"
                 "  project create|add|list|show|events|annotate|notes|remove P.wsproj ...\n"
                 "      a project file: captures with their analysis cached, annotations;\n"
                 "      `windscope-cli project` lists the subcommands\n"
                 "  batch PATH... --project OUT.wsproj [--jobs N] [--json]\n"
                 "      every capture under the paths (recursive) into one project, in\n"
                 "      parallel; captures the project holds already are skipped\n"
                 "  fleet P.wsproj [--json | --csv] [--by station|ap|ssid|capture|day]\n"
                 "      what Wi-Fi events cost TCP over the project's captures (stalled\n"
                 "      time, goodput lost, retransmissions, timeouts), grouped and ranked\n"
                 "  packet FILE N [--json] [--key PASSPHRASE:SSID|PSK]... [-o PREF:VALUE]...\n"
                 "      the full Wireshark dissection tree of frame N (1-based), like\n"
                 "      tshark -V; --key decrypts WPA/WPA2-PSK 802.11 frames\n"
                 "  decrypt FILE OUT.pcap --key PASSPHRASE:SSID|PSK [--json]\n"
                 "      writes the capture with WPA/WPA2 data frames decrypted by Wireshark,\n"
                 "      and says which frames stayed encrypted and why\n"
                 "  --version   version and the libraries this build uses\n"
                 "  --help      this text\n",
                 windscope::analysis::cwnd::congestionModelNameList("|", true).c_str());
}

void printVersion()
{
    std::printf("windscope-cli %s\n", WINDSCOPE_VERSION);
    std::printf("  compiler  %s\n", WINDSCOPE_CXX_COMPILER);
    std::printf("  libpcap   %s (built with %s)\n", pcap_lib_version(), WINDSCOPE_PCAP_VERSION);
    std::printf("  zlib      %s (built with %s)\n", zlibVersion(), ZLIB_VERSION);
#ifdef WINDSCOPE_HAVE_WIRESHARK
    std::printf("  wireshark %s (built with %s)\n",
                windscope::dissect::wireshark::EpanSession::runtimeVersion().c_str(),
                windscope::dissect::wireshark::EpanSession::builtVersion().c_str());
#else
    std::printf("  wireshark not built in (packet details and decryption unavailable)\n");
#endif
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
    if (command == "compare")
        return windscope::cli::runCompare(args);
    if (command == "events")
        return windscope::cli::runEvents(args);
    if (command == "correlate")
        return windscope::cli::runCorrelate(args);
    if (command == "series")
        return windscope::cli::runSeries(args);
    if (command == "replay")
        return windscope::cli::runReplay(args);
    if (command == "export") {
#ifdef WINDSCOPE_HAVE_RENDER
        return windscope::cli::runExport(args);
#else
        std::fprintf(stderr, "windscope-cli: export needs Qt 6 GUI, which this build lacks\n");
        return 1;
#endif
    }
    if (command == "project" || command == "batch" || command == "fleet") {
#ifdef WINDSCOPE_HAVE_STORE
        if (command == "fleet")
            return windscope::cli::runFleet(args);
        return command == "batch" ? windscope::cli::runBatch(args) : windscope::cli::runProject(args);
#else
        std::fprintf(stderr, "windscope-cli: %s needs SQLite and OpenSSL, which this build lacks\n",
                     command.c_str());
        return 1;
#endif
    }
    if (command == "packet" || command == "decrypt") {
#ifdef WINDSCOPE_HAVE_WIRESHARK
        return command == "packet" ? windscope::cli::runPacket(args)
                                   : windscope::cli::runDecrypt(args);
#else
        std::fprintf(stderr, "windscope-cli: %s needs libwireshark, which this build lacks\n",
                     command.c_str());
        return 1;
#endif
    }
    std::fprintf(stderr, "windscope-cli: unknown command '%s' (try --help)\n", command.c_str());
    return 2;
}
