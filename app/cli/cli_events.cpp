// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli_events.h"

#include "cli_flow.h"

#include "analysis/report/report_events.h"
#include "analysis/report/report_json.h"
#include "analysis/pipeline/capture_pipeline.h"

#include <cstdio>
#include <iostream>

namespace windscope::cli {

namespace {

struct EventsArgs
{
    std::string path;
    bool json = false, csv = false;
    analysis::WlanEventOptions events;
    analysis::CorrelationOptions correlation;
};

bool parseMs(const std::string& text, std::int64_t& ns)
{
    try {
        std::size_t used = 0;
        const double ms = std::stod(text, &used);
        if (used != text.size() || ms < 0)
            return false;
        ns = static_cast<std::int64_t>(ms * 1e6);
        return true;
    } catch (const std::exception&) {
        return false;
    }
}

// Returns 0 when parsed, else the exit status to return.
int parse(const char* command, bool correlate, const std::vector<std::string>& args, EventsArgs& out)
{
    const std::string usage = std::string("usage: windscope-cli ") + command +
                              " FILE [--json | --csv] [--max-scan MS]" +
                              (correlate ? " [--pre MS] [--post MS]" : "");
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        std::int64_t* target = nullptr;
        if (a == "--json")
            out.json = true;
        else if (a == "--csv")
            out.csv = true;
        else if (a == "--max-scan")
            target = &out.events.maxScanNs;
        else if (correlate && a == "--pre")
            target = &out.correlation.preNs;
        else if (correlate && a == "--post")
            target = &out.correlation.postNs;
        else if (a.size() > 1 && a[0] == '-') { // "-" alone is standard input
            std::fprintf(stderr, "windscope-cli %s: unknown option %s\n%s\n", command, a.c_str(),
                         usage.c_str());
            return 2;
        } else if (out.path.empty())
            out.path = a;
        else {
            std::fprintf(stderr, "windscope-cli %s: one capture file at a time (%s)\n", command,
                         a.c_str());
            return 2;
        }
        if (target && (i + 1 >= args.size() || !parseMs(args[++i], *target))) {
            std::fprintf(stderr, "windscope-cli %s: %s takes a time in milliseconds\n", command,
                         a.c_str());
            return 2;
        }
    }
    if (out.path.empty()) {
        std::fprintf(stderr, "%s\n", usage.c_str());
        return 2;
    }
    if (out.json && out.csv) {
        std::fprintf(stderr, "windscope-cli %s: choose --json or --csv, not both\n", command);
        return 2;
    }
    return 0;
}

void printEvents(const analysis::EventsReport& r, const analysis::Correlation* c)
{
    const dissect::CaptureTables& tables = r.tables;
    std::printf("Capture %s: %zu access point(s), %zu station(s), %zu event(s)\n",
                tables.summary.path.c_str(), r.inventory.accessPoints.size(),
                r.inventory.stations.size(), r.events.size());
    // One time base with the plots and analyze: seconds since the first packet (JSON and
    // CSV keep epoch seconds, the CLI contract's).
    std::printf("times in seconds since the capture's first packet\n");
    const auto mac = [&](std::uint32_t m) {
        return m < tables.macAddresses.size() ? tables.macAddresses.at(m).toString() : std::string("-");
    };
    for (std::size_t id = 0; id < r.events.size(); ++id) {
        const analysis::WlanEvent& e = r.events.at(id);
        // An event the capture ended inside has no end, and an absence shows only part of
        // itself: their durations are lower bounds.
        std::printf("%5llu  %-19s %-17s %12.6f s  %s%9.3f ms  %s%s\n", static_cast<unsigned long long>(e.id),
                    analysis::eventKindName(e.kind), mac(e.station).c_str(),
                    static_cast<double>(e.startNs) / 1e9, e.lowerBound() ? ">=" : e.upperBound() ? "<=" : "  ",
                    static_cast<double>(e.endNs - e.startNs) / 1e6, e.basis,
                    e.departed() ? (e.openEnded ? "  (open-ended: the station left this AP's channel, unanswered "
                                                  "retries to the end of the capture)"
                                                : "  (lower bound: unanswered retries longer than any scan, the "
                                                  "station left this AP's channel)")
                    : e.openEnded ? "  (open-ended: the capture ended first)"
                    : e.upperBound() ? "  (upper bound: the station's radio heard nothing, then missed frames)"
                    : e.kind == analysis::WlanEventKind::Absence
                        ? "  (lower bound: unanswered retries, too short to show a scan)"
                        : "");
        std::string detail;
        if (analysis::isLifecycleKind(e.kind) || e.kind == analysis::WlanEventKind::Handoff) {
            detail = "bssid " + mac(e.bssid);
            if (e.newBssid != analysis::WlanEvent{}.newBssid)
                detail += " -> " + mac(e.newBssid);
            if (e.ssid != dissect::WlanManagementRecord::kNoSsid)
                detail += ", ssid \"" + tables.ssids.at(e.ssid) + "\"";
            if (e.initiator != analysis::EventInitiator::Unknown)
                detail += std::string(", by ") + analysis::initiatorName(e.initiator);
            if (e.statusCode >= 0)
                detail += ", status " + std::to_string(e.statusCode);
            if (e.reasonCode >= 0)
                detail += ", reason " + std::to_string(e.reasonCode);
            if (e.kind == analysis::WlanEventKind::BeaconLoss)
                detail += ", " + std::to_string(e.attempts) + " beacons missed";
            else if (e.attempts > 1)
                detail += ", " + std::to_string(e.attempts) + " frames";
            if (*e.outcome)
                detail += std::string(", ") + e.outcome;
            for (std::size_t i = 0; i < e.triedBssids.size(); ++i)
                detail += (i ? ", " : "; tried ") + mac(e.triedBssids[i]);
            if (e.kind == analysis::WlanEventKind::Handoff && e.resumedNs >= 0)
                detail += ", data gap " + std::to_string((e.resumedNs - e.startNs) / 1'000'000) + " ms";
        }
        for (std::size_t i = 0; i < e.channelsMhz.size(); ++i)
            detail += (i ? ", " : "channels ") + std::to_string(e.channelsMhz[i]) + " MHz";
        if (!detail.empty())
            std::printf("         %s\n", detail.c_str());
        if (c)
            for (const analysis::ConnectionImpact& m : c->impacts[e.id].connections)
                std::printf("         connection %llu: retx %u, rto %u (charged to this event; %u, %u "
                            "in its window), dup-ACK bursts %u, "
                            "throughput %.2f -> %.2f -> %.2f Mb/s, recovery %s; stalled %.1f ms, "
                            "goodput lost %s\n",
                            static_cast<unsigned long long>(r.tcp.connections[m.connection].id),
                            m.retransmissions, m.rtoTimeouts, m.retransmissionsInWindow,
                            m.rtoTimeoutsInWindow, m.dupAckBursts,
                            m.throughputBeforeBps / 1e6, m.throughputDuringBps / 1e6,
                            m.throughputAfterBps / 1e6,
                            analysis::recoveryText(m).c_str(), static_cast<double>(m.stalledNs) / 1e6,
                            m.goodputLostBytes >= 0
                                ? (std::to_string(m.goodputLostBytes / 1000) + " kB").c_str()
                                : "unknown (under 500 ms without events to compare with)");
    }
    for (const analysis::ScanPattern& p : r.events.scanPatterns)
        std::printf("scans of %s: %u, every %.1f ms, dwell %.1f ms%s\n",
                    tables.macAddresses.at(p.station).toString().c_str(), p.scans, p.intervalMs,
                    p.dwellMs, p.periodic ? " (periodic)" : "");
    if (c)
        for (const analysis::ScanIntervalAggregate& a : c->scanIntervals)
            std::printf("while scanning: %.2f Mb/s, scan-free %s; %.2f losses and %.2f timeouts "
                        "per scan\n",
                        a.throughputScanningBps / 1e6,
                        a.throughputScanFreeBps >= 0
                            ? (std::to_string(a.throughputScanFreeBps / 1e6) + " Mb/s").c_str()
                            : "unknown",
                        a.lossesPerScan, a.timeoutsPerScan);
    for (const auto* notes : {&r.inventory.notes, &r.events.notes})
        for (const std::string& note : *notes)
            std::printf("note: %s\n", note.c_str());
    if (c)
        for (const std::string& note : c->notes)
            std::printf("note: %s\n", note.c_str());
}

int run(const char* command, bool correlate, const std::vector<std::string>& args)
{
    EventsArgs a;
    if (int status = parse(command, correlate, args, a))
        return status;
    std::string error;
    analysis::pipeline::PipelineOptions options;
    options.events = a.events;
    options.correlation = a.correlation;
    analysis::pipeline::CapturePipeline pipeline(a.path, options);
    if (!pipeline.run(analysis::pipeline::AnalysisStage::Tcp, error)) {
        std::fprintf(stderr, "windscope-cli: %s\n", error.c_str());
        return 1;
    }
    const dissect::CaptureTables& tables = pipeline.tables();
    const analysis::EventsReport report{tables, pipeline.tcp(), pipeline.inventory(), pipeline.events()};
    if (correlate) {
        const analysis::Correlation& c = pipeline.correlation();
        if (a.json)
            analysis::writeCorrelationJson(std::cout, report, c);
        else if (a.csv)
            analysis::writeCorrelationCsv(std::cout, report, c);
        else
            printEvents(report, &c);
    } else if (a.json) {
        analysis::writeEventsJson(std::cout, report);
    } else if (a.csv) {
        analysis::writeEventsCsv(std::cout, report);
    } else {
        printEvents(report, nullptr);
    }
    std::cout.flush();
    printCaptureWarnings(tables);
    return 0;
}

} // namespace

int runEvents(const std::vector<std::string>& args)
{
    return run("events", false, args);
}

int runCorrelate(const std::vector<std::string>& args)
{
    return run("correlate", true, args);
}

} // namespace windscope::cli
