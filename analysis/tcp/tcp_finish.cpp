// SPDX-License-Identifier: GPL-3.0-or-later
// The passes of the TCP analysis that need every row: the derived columns' checkpoints
// grouped by stream, low windows once each connection's largest window is known, MAC
// retries per connection, and each direction's statistics (RTT, rates).
#include "tcp_analyzer.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace windscope::analysis::detail {

namespace {

void finishRtt(SideWork& s)
{
    DirectionStats& st = s.stats;
    st.rttAckSamples = s.rtt.ackSamples.count;
    st.rttTimestampSamples = s.rtt.tsSamples.count;
    const bool useTimestamps = s.rtt.ackSamples.count == 0 && s.rtt.tsSamples.count > 0;
    const RunningStats& r = useTimestamps ? s.rtt.tsSamples : s.rtt.ackSamples;
    st.rttFromTimestamps = useTimestamps;
    st.rttSamples = r.count;
    if (r.count == 0)
        return;
    constexpr double kNsPerMs = 1e6;
    const double n = static_cast<double>(r.count);
    const double mean = r.sum / n;
    st.rttMinMs = static_cast<double>(r.min) / kNsPerMs;
    st.rttMaxMs = static_cast<double>(r.max) / kNsPerMs;
    st.rttAvgMs = mean / kNsPerMs;
    st.rttStddevMs = std::sqrt(std::max(0.0, r.sumSquares / n - mean * mean)) / kNsPerMs;
}

void finishRates(SideWork& s)
{
    DirectionStats& st = s.stats;
    // Unique bytes: highest data sequence reached minus the first data byte (relative 1).
    st.uniqueBytes = s.sequence.highestDataEnd > 1 ? static_cast<std::uint64_t>(s.sequence.highestDataEnd - 1) : 0;
    const std::int64_t active = st.lastDataTimeNs - st.firstDataTimeNs;
    if (st.dataPackets >= 2 && active > 0) {
        const double seconds = static_cast<double>(active) / 1e9;
        st.throughputBps = static_cast<double>(st.dataBytes) * 8 / seconds;
        // Only the bytes the capture shows were delivered as far as it can tell: holes
        // it never filled (SeenBytes) are not goodput, so goodput <= throughput.
        st.goodputBps = static_cast<double>(s.seen.total()) * 8 / seconds;
    }
}

} // namespace

void Analyzer::finishDecode()
{
    m_result.segments.decode.resize(2 * m_work.size());
    for (std::size_t i = 0; i < m_work.size(); ++i)
        for (int side = 0; side < 2; ++side)
            m_result.segments.decode[2 * i + side] = m_work[i].side[side].decoder.decode;
    // Appended in row order; grouped by stream, each stream stays in row order.
    std::stable_sort(m_result.segments.checkpoints.begin(), m_result.segments.checkpoints.end(),
                     [](const SegmentDecodeCheckpoint& a, const SegmentDecodeCheckpoint& b) {
                         return a.stream < b.stream;
                     });
}
void Analyzer::flagLowWindows()
{
    for (ConnectionWork& c : m_work) {
        std::uint64_t threshold = m_options.lowWindowThresholdBytes;
        if (threshold == 0) {
            std::uint64_t mss = 0;
            for (const SideWork& s : c.side)
                if (s.handshake.mss && (mss == 0 || s.handshake.mss < mss))
                    mss = s.handshake.mss;
            threshold = std::max<std::uint64_t>(2 * mss, c.maxWindow / 8);
        }
        c.lowWindowThreshold = threshold;
    }
    const dissect::TcpColumns& t = m_tables.tcp;
    SegmentColumns& out = m_result.segments;
    // The window shift of each side, followed through its checkpoints in row order
    // (what TcpAnalysis::windowBytes looks up per row, without the search).
    struct ShiftCursor
    {
        int shift = -1;
        std::size_t next = 0, end = 0; // its window-shift checkpoints still ahead
    };
    std::vector<ShiftCursor> cursors(out.decode.size());
    for (std::size_t i = 0; i < cursors.size(); ++i)
        cursors[i].shift = out.decode[i].windowShift;
    const std::vector<SegmentDecodeCheckpoint>& checkpoints = out.checkpoints;
    for (std::size_t i = 0; i < checkpoints.size();) {
        std::size_t end = i;
        while (end < checkpoints.size() && checkpoints[end].stream == checkpoints[i].stream)
            ++end;
        if (checkpoints[i].stream % 3 == SegmentDecodeCheckpoint::kWindowShift)
            cursors[checkpoints[i].stream / 3] = {cursors[checkpoints[i].stream / 3].shift, i, end};
        i = end;
    }
    for (std::size_t row = 0; row < t.size(); ++row) {
        const std::uint16_t tcpFlags = t.tcpFlags(row);
        // Only segments whose window field is meaningful advertise a window.
        if (!(tcpFlags & th::kAck) || (tcpFlags & (th::kSyn | th::kRst)))
            continue;
        const std::uint32_t connection = out.connection[row];
        const int fromB = t.fromB(row) ? 1 : 0;
        ConnectionWork& c = m_work[connection];
        SideWork& s = c.side[fromB];
        ShiftCursor& cursor = cursors[2 * std::size_t(connection) + std::size_t(fromB)];
        for (; cursor.next < cursor.end && checkpoints[cursor.next].row <= row; ++cursor.next)
            cursor.shift = static_cast<int>(checkpoints[cursor.next].value);
        const std::uint32_t window = decodeWindow(t.window[row], false, cursor.shift);
        const bool low = window > 0 && window < c.lowWindowThreshold;
        if (low) {
            out.flags[row] |= segment_flag::kLowWindow;
            if (!s.low)
                ++s.stats.lowWindows; // an entry into the low state
        }
        s.low = low;
    }
}


void Analyzer::attributeMacRetries()
{
    for (const dissect::ExcludedTcpSegment& e : m_tables.macDuplicateTcp) {
        if (e.conversation >= m_firstOfConversation.size())
            continue;
        // The latest connection of the conversation begun before the retry; a retry
        // older than all of them goes to the first.
        std::uint32_t index = m_firstOfConversation[e.conversation];
        if (index == kNoConnection)
            continue; // every segment of the conversation was a MAC retry
        for (std::uint32_t next = m_work[index].nextInConversation;
             next != kNoConnection && m_work[next].firstFrame <= e.frame;
             next = m_work[next].nextInConversation)
            index = next;
        ++m_work[index].side[e.fromB ? 1 : 0].stats.macRetriesExcluded;
    }
}

void Analyzer::finishConnections()
{
    m_result.connections.resize(m_work.size());
    for (std::size_t i = 0; i < m_work.size(); ++i) {
        ConnectionWork& c = m_work[i];
        Connection& out = m_result.connections[i];
        const dissect::ConversationKey& key = m_tables.conversations[c.conversation];
        int client = c.clientSide >= 0 ? c.clientSide : c.firstSide;
        // Identical endpoints: ingest marks every row as sent by b; keep a as endpoint 0.
        if (key.addrA == key.addrB && key.portA == key.portB)
            client = 0;
        const std::uint32_t address[2] = {key.addrA, key.addrB};
        const std::uint16_t port[2] = {key.portA, key.portB};
        for (int e = 0; e < 2; ++e) {
            const int side = e == 0 ? client : 1 - client;
            SideWork& s = c.side[side];
            finishRtt(s);
            finishRates(s);
            out.address[e] = address[side];
            out.port[e] = port[side];
            out.windowScale[e] = s.handshake.sentSyn ? s.handshake.windowScale : -1;
            out.mss[e] = s.handshake.sentSyn ? s.handshake.mss : 0;
            out.direction[e] = s.stats;
        }
        out.id = i;
        out.conversation = c.conversation;
        out.handshakeSeen = c.clientFromSyn && c.sawSynAck;
        out.windowScaleKnown =
            c.sequence.flow[0].winScale != -1 && c.sequence.flow[1].winScale != -1;
        const SideWork& a = c.side[0];
        const SideWork& b = c.side[1];
        out.sackPermitted = (a.handshake.sackPermitted && b.handshake.sackPermitted) || a.anySack || b.anySack;
        out.timestamps = (a.handshake.sentSyn && b.handshake.sentSyn)
                             ? (a.handshake.timestamps && b.handshake.timestamps)
                             : (a.anyTimestamps && b.anyTimestamps);
        out.handshakeRttNs = c.handshakeRttNs;
        out.firstTimeNs = c.firstTimeNs;
        out.lastTimeNs = c.lastTimeNs;
        out.firstFrame = c.firstFrame;
        out.lastFrame = c.lastFrame;
        out.segments = c.segments;
        out.lowWindowThresholdBytes = c.lowWindowThreshold;
    }
}

TcpAnalysis Analyzer::finish()
{
    analyzeNewRows();
    m_finished = true;
    finishDecode();
    flagLowWindows();
    attributeMacRetries();
    finishConnections();
    m_work = {};
    return std::move(m_result);
}

} // namespace windscope::analysis::detail
