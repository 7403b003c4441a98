// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli_analyze.h"

#include "cli_flow.h"

#include "analysis/report/report_csv.h"
#include "analysis/report/report_json.h"
#include "analysis/tcp/tcp_analysis.h"
#include "dissectors/dissector_set.h"
#include "analysis/pipeline/capture_pipeline.h"
#ifdef WINDSCOPE_HAVE_WIRESHARK
#include "cli_packet.h"
#endif

#include <cstdio>
#include <ctime>
#include <iostream>
#include <unistd.h>

namespace windscope::cli {

namespace {

// Progress on stderr, only for a person at a terminal and only for long reads.
class TerminalProgress final : public dissect::IngestObserver
{
public:
    void progress(const dissect::IngestProgress& p) override
    {
        if (!m_enabled || p.fileSize == 0)
            return;
        const int percent = static_cast<int>(100.0 * static_cast<double>(p.bytesConsumed) /
                                             static_cast<double>(p.fileSize));
        std::fprintf(stderr, "\rreading: %3d%%  %llu packets", percent,
                     static_cast<unsigned long long>(p.packets));
        m_shown = true;
    }
    ~TerminalProgress() override
    {
        if (m_shown)
            std::fprintf(stderr, "\r%*s\r", 40, "");
    }

private:
    bool m_enabled = isatty(STDERR_FILENO);
    bool m_shown = false;
};

std::string timeText(std::int64_t epochNs)
{
    const std::time_t seconds = static_cast<std::time_t>(epochNs / 1000000000);
    std::tm utc{};
    gmtime_r(&seconds, &utc);
    char text[64];
    std::strftime(text, sizeof text, "%Y-%m-%d %H:%M:%S", &utc);
    char full[96];
    std::snprintf(full, sizeof full, "%s.%06lld UTC", text,
                  static_cast<long long>(epochNs % 1000000000 / 1000));
    return full;
}

std::string rateText(double bitsPerSecond)
{
    char text[32];
    if (bitsPerSecond >= 1e6)
        std::snprintf(text, sizeof text, "%.2f Mb/s", bitsPerSecond / 1e6);
    else
        std::snprintf(text, sizeof text, "%.1f kb/s", bitsPerSecond / 1e3);
    return text;
}

// The BSSIDs of a connection's station over the connection, in order ("-" unknown).
std::string bssidText(const dissect::CaptureTables& tables, const analysis::WlanInventory* inventory,
                      std::size_t connection)
{
    if (!inventory || connection >= inventory->connections.size())
        return "-";
    std::vector<std::uint32_t> seen;
    for (const analysis::AssociationSpan& span : inventory->connections[connection].aps)
        if (seen.empty() || seen.back() != span.bssid)
            seen.push_back(span.bssid);
    if (seen.empty())
        return "-";
    std::string text = tables.macAddresses.at(seen.front()).toString();
    if (seen.size() > 1)
        text += " +" + std::to_string(seen.size() - 1);
    return text;
}

} // namespace

void printAnalyzeSummary(const dissect::CaptureTables& tables, const analysis::TcpAnalysis& result,
                         const analysis::WlanInventory* inventory)
{
    const dissect::CaptureSummary& s = tables.summary;
    std::printf("Capture %s\n", s.path.c_str());
    std::string links;
    for (int type : s.linkTypes)
        links += (links.empty() ? "" : ", ") + dissect::linkTypeName(type);
    std::printf("  link types      %s\n", links.c_str());
    std::printf("  packets         %llu (%llu bytes captured)\n",
                static_cast<unsigned long long>(s.packets),
                static_cast<unsigned long long>(s.bytesCaptured));
    if (s.packets) {
        std::printf("  first packet    %s\n", timeText(s.firstEpochNs).c_str());
        std::printf("  duration        %.3f s\n",
                    static_cast<double>(s.lastEpochNs - s.firstEpochNs) / 1e9);
    }
    std::printf("  TCP segments    %llu in %zu connections\n",
                static_cast<unsigned long long>(s.tcpSegments), result.connections.size());
    if (s.wlanFrames)
        std::printf("  802.11 frames   %llu (bad FCS %llu, MAC retry duplicates %llu: kept out "
                    "of TCP analysis)\n",
                    static_cast<unsigned long long>(s.wlanFrames),
                    static_cast<unsigned long long>(s.badFcsFrames),
                    static_cast<unsigned long long>(s.macDuplicateFrames));
    if (s.malformedPackets) {
        std::printf("  malformed       %llu packets, counted and skipped\n",
                    static_cast<unsigned long long>(s.malformedPackets));
        const std::size_t shown = std::min<std::size_t>(s.malformed.size(), 5);
        for (std::size_t i = 0; i < shown; ++i)
            std::printf("    packet %llu: %s: %s\n",
                        static_cast<unsigned long long>(s.malformed[i].frame),
                        s.malformed[i].annotation.field, s.malformed[i].annotation.message);
    }
    // The warnings go to stderr (printCaptureWarnings), as in every command and mode.

    if (result.connections.empty())
        return;
    std::printf("\n%4s %9s %-17s  %-47s %7s %11s %5s %4s %4s %6s %5s %5s %5s %9s %13s\n", "id",
                "start s", "bssid", "connection (direction)", "packets", "data bytes", "retx", "fast",
                "rto", "dupack", "zwin", "wupd", "lowin", "rtt avg", "goodput");
    for (const analysis::Connection& c : result.connections) {
        for (int d = 0; d < 2; ++d) {
            const analysis::DirectionStats& ds = c.direction[d];
            const std::string name = analysis::endpointText(tables, c.address[d], c.port[d]) +
                                     " > " +
                                     analysis::endpointText(tables, c.address[1 - d], c.port[1 - d]);
            char rtt[16] = "-";
            if (ds.rttSamples)
                std::snprintf(rtt, sizeof rtt, "%.2f ms", ds.rttAvgMs);
            char start[24] = "";
            if (d == 0)
                std::snprintf(start, sizeof start, "%.3f", static_cast<double>(c.firstTimeNs) / 1e9);
            const std::string bssid = d == 0 ? bssidText(tables, inventory, c.id) : "";
            std::printf("%4s %9s %-17s  %-47s %7llu %11llu %5llu %4llu %4llu %6llu %5llu %5llu %5llu %9s %13s\n",
                        d == 0 ? std::to_string(c.id).c_str() : "", start, bssid.c_str(), name.c_str(),
                        static_cast<unsigned long long>(ds.packets),
                        static_cast<unsigned long long>(ds.dataBytes),
                        static_cast<unsigned long long>(ds.retransmissions),
                        static_cast<unsigned long long>(ds.fastRetransmissions),
                        static_cast<unsigned long long>(ds.rtoTimeouts),
                        static_cast<unsigned long long>(ds.dupAcks),
                        static_cast<unsigned long long>(ds.zeroWindows),
                        static_cast<unsigned long long>(ds.windowUpdates),
                        static_cast<unsigned long long>(ds.lowWindows), rtt,
                        analysis::ratesMeasurable(c, d) ? rateText(ds.goodputBps).c_str() : "-");
        }
    }
}

int runAnalyze(const std::vector<std::string>& args)
{
    std::string path;
    std::vector<std::string> keys;
    bool json = false, csv = false, segments = false;
    analysis::TcpAnalysisOptions options;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (a == "--json")
            json = true;
        else if (a == "--csv")
            csv = true;
        else if (a == "--segments")
            segments = true;
        else if (a == "--key" && i + 1 < args.size())
            keys.push_back(args[++i]);
        else if (a == "--low-window" && i + 1 < args.size()) {
            try {
                options.lowWindowThresholdBytes = std::stoull(args[++i]);
            } catch (const std::exception&) {
                std::fprintf(stderr, "windscope-cli analyze: --low-window takes a byte count\n");
                return 2;
            }
        } else if (a.size() > 1 && a[0] == '-') { // "-" alone is standard input
            std::fprintf(stderr, "windscope-cli analyze: unknown option %s\n", a.c_str());
            return 2;
        } else if (path.empty())
            path = a;
        else {
            std::fprintf(stderr, "windscope-cli analyze: one capture file at a time (%s)\n",
                         a.c_str());
            return 2;
        }
    }
    if (path.empty()) {
        std::fprintf(stderr, "usage: windscope-cli analyze FILE [--json | --csv [--segments]] "
                             "[--low-window BYTES] [--key PASSPHRASE:SSID|PSK]...\n");
        return 2;
    }
    if (json && csv) {
        std::fprintf(stderr, "windscope-cli analyze: choose --json or --csv, not both\n");
        return 2;
    }
    if (segments && !csv) {
        std::fprintf(stderr, "windscope-cli analyze: --segments goes with --csv\n");
        return 2;
    }

    std::string error;
    // With keys, the TCP analysis reads the capture as `decrypt` writes it: protected
    // 802.11 data frames that epan decrypted, in the clear.
    std::string readPath = path;
    std::string decryptionNote;
#ifdef WINDSCOPE_HAVE_WIRESHARK
    DecryptedCapture decrypted;
    if (!keys.empty()) {
        if (!decrypted.create(path, keys, error)) {
            std::fprintf(stderr, "windscope-cli: %s\n", error.c_str());
            return decrypted.refused() ? kExitEpanRefused : 1;
        }
        readPath = decrypted.path();
        if (!decrypted.damage().empty())
            std::fprintf(stderr, "windscope-cli: warning: %s\n", decrypted.damage().c_str());
        decryptionNote =
            std::to_string(decrypted.decryptedFrames()) + " of " +
            std::to_string(decrypted.protectedFrames()) +
            " protected 802.11 data frames decrypted through Wireshark" +
            (decrypted.encryptedReason().empty() ? "" : "; " + decrypted.encryptedReason());
    }
#else
    if (!keys.empty()) {
        std::fprintf(stderr, "windscope-cli: analyze --key needs libwireshark, which this build "
                             "lacks\n");
        return 1;
    }
#endif
    TerminalProgress progress;
    analysis::pipeline::PipelineOptions pipelineOptions;
    pipelineOptions.ingest.observer = &progress;
    pipelineOptions.tcp = options;
    pipelineOptions.reportedPath = path; // not the temporary decrypted copy
    // Only the TCP stage: the report needs neither 802.11 events nor cwnd.
    analysis::pipeline::CapturePipeline pipeline(readPath, pipelineOptions);
    if (!pipeline.run(analysis::pipeline::AnalysisStage::Tcp, error)) {
        std::fprintf(stderr, "windscope-cli: %s\n", error.c_str());
        return 1;
    }
    const dissect::CaptureTables& tables = pipeline.tables();
    const analysis::TcpAnalysis& result = pipeline.tcp();

    if (json)
        analysis::writeAnalyzeJson(std::cout, tables, result);
    else if (csv && segments)
        analysis::writeSegmentsCsv(std::cout, tables, result);
    else if (csv)
        analysis::writeConnectionsCsv(std::cout, tables, result);
    else if (tables.summary.wlanFrames == 0)
        printAnalyzeSummary(tables, result);
    else if (pipeline.run(analysis::pipeline::AnalysisStage::Inventory, error))
        printAnalyzeSummary(tables, result, &pipeline.inventory());
    else
        printAnalyzeSummary(tables, result);
    if (!decryptionNote.empty() && !json && !csv)
        std::printf("\n  decryption      %s\n", decryptionNote.c_str());
    std::cout.flush();
    if (!decryptionNote.empty() && (json || csv))
        std::fprintf(stderr, "windscope-cli: note: %s\n", decryptionNote.c_str());
    // Results up to the damage were printed; the damage itself is still reported.
    printCaptureWarnings(tables);
    return 0;
}

} // namespace windscope::cli
