// SPDX-License-Identifier: GPL-3.0-or-later
// The TCP analysis' public face: the classification names, the analyzer that follows
// ingest, and the one-call forms. The work itself: tcp_measure.cpp (the pass over the
// rows as they come), tcp_finish.cpp (the passes that need every row),
// tcp_segment_decode.cpp (the derived columns).
#include "tcp_analysis.h"

#include "tcp_analyzer.h"

#include <memory>

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

bool readAndAnalyzeTcp(const std::string& path, const dissect::IngestOptions& ingest,
                       dissect::CaptureTables& tables, TcpAnalysis& tcp, std::string& error,
                       const TcpAnalysisOptions& options)
{
    tcp = {};
    TcpAnalyzer analyzer(tables, options);
    if (!dissect::ingestCapture(path, analyzer.following(ingest), tables, error))
        return false;
    tcp = analyzer.finish();
    return true;
}

} // namespace windscope::analysis
