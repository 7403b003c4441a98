// SPDX-License-Identifier: GPL-3.0-or-later
// The TCP analysis' public face: the classification names, the analyzer that follows
// ingest, and the one-call forms. The work itself: tcp_measure.cpp (the pass over the
// rows as they come), tcp_finish.cpp (the passes that need every row),
// tcp_segment_decode.cpp (the derived columns).
#include "tcp_analysis.h"

#include "tcp_analyzer.h"

#include <memory>
#include <string>
#include <utility>

namespace windscope::analysis {

using namespace detail;

const char* segmentFlagName(std::uint32_t singleBit)
{
    switch (singleBit) {
    case segment_flag::kRetransmission:
        return "tcp.analysis.retransmission";
    case segment_flag::kFastRetransmission:
        return "tcp.analysis.fast_retransmission";
    case segment_flag::kSpuriousRetransmission:
        return "tcp.analysis.spurious_retransmission";
    case segment_flag::kOutOfOrder:
        return "tcp.analysis.out_of_order";
    case segment_flag::kLostSegment:
        return "tcp.analysis.lost_segment";
    case segment_flag::kAckLostSegment:
        return "tcp.analysis.ack_lost_segment";
    case segment_flag::kDuplicateAck:
        return "tcp.analysis.duplicate_ack";
    case segment_flag::kZeroWindow:
        return "tcp.analysis.zero_window";
    case segment_flag::kZeroWindowProbe:
        return "tcp.analysis.zero_window_probe";
    case segment_flag::kZeroWindowProbeAck:
        return "tcp.analysis.zero_window_probe_ack";
    case segment_flag::kWindowFull:
        return "tcp.analysis.window_full";
    case segment_flag::kWindowUpdate:
        return "tcp.analysis.window_update";
    case segment_flag::kKeepAlive:
        return "tcp.analysis.keep_alive";
    case segment_flag::kKeepAliveAck:
        return "tcp.analysis.keep_alive_ack";
    case segment_flag::kLowWindow:
        return "low_window";
    case segment_flag::kRtoTimeout:
        return "rto_timeout";
    case segment_flag::kPortReuse:
        return "tcp.analysis.reused_ports";
    case segment_flag::kMacRetryExcluded:
        return "mac_retry_excluded";
    default:
        return "";
    }
}
struct TcpAnalyzer::Impl
{
    Analyzer analyzer;
};

TcpAnalyzer::TcpAnalyzer(const dissect::CaptureTables& tables, const TcpAnalysisOptions& options)
    : m_impl(std::make_unique<Impl>(Impl{Analyzer(tables, options)}))
{
}

TcpAnalyzer::~TcpAnalyzer() = default;

void TcpAnalyzer::analyzeNewRows()
{
    m_impl->analyzer.analyzeNewRows();
}

TcpAnalysis TcpAnalyzer::finish()
{
    return m_impl->analyzer.finish();
}

dissect::IngestOptions TcpAnalyzer::following(const dissect::IngestOptions& ingest)
{
    dissect::IngestOptions out = ingest;
    out.rowsAppended = [this, before = ingest.rowsAppended](const dissect::CaptureTables& rows) {
        if (before)
            before(rows);
        analyzeNewRows();
    };
    return out;
}

TcpAnalysis analyzeTcp(const dissect::CaptureTables& tables, const TcpAnalysisOptions& options)
{
    return TcpAnalyzer(tables, options).finish();
}

bool ratesMeasurable(const Connection& c, int direction)
{
    constexpr std::int64_t kUnmeasuredRttNs = 1'000'000'000; // RFC 6298 2.1: initial RTO
    const DirectionStats& d = c.direction[direction];
    const std::int64_t active = d.lastDataTimeNs - d.firstDataTimeNs;
    if (d.dataPackets < 2 || active <= 0)
        return false;
    const std::int64_t rttNs = d.rttSamples && d.rttMinMs > 0 ? static_cast<std::int64_t>(d.rttMinMs * 1e6)
                               : c.handshakeRttNs > 0          ? c.handshakeRttNs
                                                               : kUnmeasuredRttNs;
    return active >= rttNs;
}

bool bulkDirection(const TcpAnalysis& tcp, std::size_t& connection, int& sender)
{
    std::uint64_t most = 0;
    for (const Connection& c : tcp.connections)
        for (int d = 0; d < 2; ++d)
            if (c.direction[d].uniqueBytes > most) {
                most = c.direction[d].uniqueBytes;
                connection = c.id;
                sender = d;
            }
    return most > 0;
}

bool capturedOneWay(const Connection& c)
{
    for (int d = 0; d < 2; ++d) {
        const DirectionStats& seen = c.direction[d];
        // A lone SYN (or its retries) or a reset is a whole conversation of its own.
        if (c.direction[1 - d].packets == 0 && seen.packets >= 2 &&
            seen.packets > seen.synCount + seen.rstCount)
            return true;
    }
    return false;
}

std::string oneDirectionWarning(const dissect::CaptureTables& tables, const TcpAnalysis& tcp)
{
    constexpr std::size_t kIdsNamed = 5;
    std::size_t count = 0;
    std::string ids;
    for (const Connection& c : tcp.connections)
        if (capturedOneWay(c)) {
            if (count < kIdsNamed)
                ids += (count ? ", " : "") + std::to_string(c.id);
            ++count;
        }
    if (count == 0)
        return {};
    if (count > kIdsNamed)
        ids += ", ...";
    const std::string which = count == tcp.connections.size()
                                  ? "every connection (" + std::to_string(count) + ") was"
                                  : std::to_string(count) + " of " + std::to_string(tcp.connections.size()) +
                                        " connections were";
    return tables.summary.path + ": " + which + " captured in one direction only (id " + ids +
           "): no segment of the other side is in the capture (it was not captured: a one-way tap, "
           "asymmetric routing, a sniffer that hears one end; or it never answered); for them RTT, "
           "ACK-based losses and windows are unknown";
}

bool readAndAnalyzeTcp(const std::string& path, const dissect::IngestOptions& ingest,
                       dissect::CaptureTables& tables, TcpAnalysis& tcp, std::string& error,
                       const TcpAnalysisOptions& options)
{
    tcp = {};
    TcpAnalyzer analyzer(tables, options);
    if (!dissect::ingestCapture(path, analyzer.following(ingest), tables, error))
        return false;
    tcp = analyzer.finish();
    if (std::string warning = oneDirectionWarning(tables, tcp); !warning.empty())
        tables.summary.warnings.push_back(std::move(warning));
    return true;
}

} // namespace windscope::analysis
