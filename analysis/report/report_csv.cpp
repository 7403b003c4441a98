// SPDX-License-Identifier: GPL-3.0-or-later
#include "report_csv.h"

#include "report_json.h"

#include <cstdio>

namespace windscope::analysis {

void writeCsvField(std::ostream& out, const std::string& text)
{
    if (text.find_first_of(",\"\n\r") == std::string::npos) {
        out << text;
        return;
    }
    out << '"';
    for (char c : text) {
        if (c == '"')
            out << '"';
        out << c;
    }
    out << '"';
}

namespace {

// Unwraps 32-bit sequence numbers to 64 bits relative to a base: each value is taken
// as the 64-bit number closest to the previous one (RFC 9293 3.4 modular comparison).
class SequenceUnwrapper
{
public:
    bool started() const { return m_started; }
    void start(std::uint32_t base)
    {
        m_started = true;
        m_base = base;
        m_last = 0;
    }
    std::int64_t relative(std::uint32_t value)
    {
        const auto delta = static_cast<std::int32_t>(value - static_cast<std::uint32_t>(m_base + m_last));
        m_last += delta;
        return m_last;
    }

private:
    bool m_started = false;
    std::uint32_t m_base = 0;
    std::int64_t m_last = 0;
};

} // namespace

std::string classificationText(std::uint32_t flags)
{
    std::string text;
    for (std::uint32_t bit = 1; bit && bit <= flags; bit <<= 1) {
        if (!(flags & bit))
            continue;
        if (!text.empty())
            text += ';';
        text += segmentFlagName(bit);
    }
    return text;
}

void writeConnectionsCsv(std::ostream& out, const dissect::CaptureTables& tables,
                         const TcpAnalysis& analysis)
{
    out << "id,from,to,first_epoch_s,last_epoch_s,packets,data_packets,data_bytes,unique_bytes,"
           "retransmitted_bytes,retransmissions,fast_retransmissions,spurious_retransmissions,"
           "rto_timeouts,out_of_order,lost_segments,dup_acks,zero_windows,window_updates,"
           "window_full,low_windows,keep_alives,mac_retries_excluded,rtt_samples,rtt_min_ms,"
           "rtt_avg_ms,rtt_max_ms,rtt_stddev_ms,throughput_bps,goodput_bps,mss,window_scale,"
           "handshake_rtt_ms\n";
    for (const Connection& c : analysis.connections) {
        for (int d = 0; d < 2; ++d) {
            const DirectionStats& s = c.direction[d];
            out << c.id << ',';
            writeCsvField(out, endpointText(tables, c.address[d], c.port[d]));
            out << ',';
            writeCsvField(out, endpointText(tables, c.address[1 - d], c.port[1 - d]));
            out << ',' << epochText(tables, c.firstTimeNs) << ','
                << epochText(tables, c.lastTimeNs) << ',' << s.packets << ','
                << s.dataPackets << ',' << s.dataBytes << ',' << s.uniqueBytes << ','
                << s.retransmittedBytes << ',' << s.retransmissions << ','
                << s.fastRetransmissions << ',' << s.spuriousRetransmissions << ','
                << s.rtoTimeouts << ',' << s.outOfOrder << ',' << s.lostSegments << ','
                << s.dupAcks << ',' << s.zeroWindows << ',' << s.windowUpdates << ','
                << s.windowFull << ',' << s.lowWindows << ',' << s.keepAlives << ','
                << s.macRetriesExcluded << ',' << s.rttSamples << ',';
            if (s.rttSamples)
                out << fixedText(s.rttMinMs, 3) << ',' << fixedText(s.rttAvgMs, 3) << ','
                    << fixedText(s.rttMaxMs, 3) << ',' << fixedText(s.rttStddevMs, 3);
            else
                out << ",,,";
            // Empty where the rates are unknown (less than a round trip of data).
            if (ratesMeasurable(c, d))
                out << ',' << fixedText(s.throughputBps, 0) << ',' << fixedText(s.goodputBps, 0);
            else
                out << ",,";
            out << ',' << c.mss[d] << ',';
            if (c.windowScaleKnown)
                out << static_cast<int>(c.windowScale[d]);
            out << ',';
            if (c.handshakeRttNs >= 0)
                out << fixedText(static_cast<double>(c.handshakeRttNs) / 1e6, 3);
            out << '\n';
        }
    }
}

void writeSegmentsCsv(std::ostream& out, const dissect::CaptureTables& tables,
                      const TcpAnalysis& analysis)
{
    const dissect::TcpColumns& tcp = tables.tcp;
    const SegmentColumns& seg = analysis.segments;
    std::vector<SequenceUnwrapper> seqBase(analysis.connections.size() * 2);
    out << "frame,epoch_s,connection,direction,src,dst,tcp.seq,tcp.ack,tcp.len,"
           "tcp.window_size,tcp.window_size_value,tcp.flags,bytes_in_flight,classification\n";
    for (std::size_t row = 0; row < tcp.size(); ++row) {
        const std::uint32_t ci = seg.connection[row];
        const Connection& c = analysis.connections[ci];
        const int d = analysis.directionOf(tables, row);
        const std::uint16_t flags = tcp.tcpFlags(row);
        SequenceUnwrapper& own = seqBase[ci * 2 + d];
        SequenceUnwrapper& other = seqBase[ci * 2 + 1 - d];
        if (!own.started())
            own.start(tcp.seq[row]);
        const bool hasAck = flags & dissect::TcpInfo::kAck;
        if (hasAck && !other.started())
            other.start(tcp.ack[row]);
        std::uint64_t window = tcp.window[row];
        // RFC 7323 2.2: the window in a SYN is never scaled.
        if (c.windowScaleKnown && !(flags & dissect::TcpInfo::kSyn) && c.windowScale[d] > 0)
            window <<= c.windowScale[d];
        char hexFlags[8];
        std::snprintf(hexFlags, sizeof hexFlags, "0x%03x", flags);
        out << tcp.frame[row] << ',' << epochText(tables, tcp.timeNs[row]) << ','
            << c.id << ',' << d << ',';
        writeCsvField(out, endpointText(tables, c.address[d], c.port[d]));
        out << ',';
        writeCsvField(out, endpointText(tables, c.address[1 - d], c.port[1 - d]));
        out << ',' << own.relative(tcp.seq[row]) << ',';
        if (hasAck)
            out << other.relative(tcp.ack[row]);
        out << ',' << tcp.payloadLength[row] << ',' << window << ',' << tcp.window[row] << ','
            << hexFlags << ',' << seg.bytesInFlight[row] << ',' << classificationText(seg.flags[row])
            << '\n';
    }
}

} // namespace windscope::analysis
