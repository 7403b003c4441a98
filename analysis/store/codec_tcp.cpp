// SPDX-License-Identifier: GPL-3.0-or-later
// The TCP analysis parts: connections, and the per-segment columns with RTT samples.
#include "codec_parts.h"

namespace windscope::analysis::store::codec {

namespace {

// ---- TcpAnalysis -----------------------------------------------------------------------

template <typename Io, typename D> void directionFields(Io& io, D& s)
{
    io(s.packets);
    io(s.bytes);
    io(s.dataPackets);
    io(s.dataBytes);
    io(s.uniqueBytes);
    io(s.retransmittedBytes);
    io(s.retransmissions);
    io(s.fastRetransmissions);
    io(s.spuriousRetransmissions);
    io(s.rtoTimeouts);
    io(s.outOfOrder);
    io(s.lostSegments);
    io(s.ackLostSegments);
    io(s.dupAcks);
    io(s.zeroWindows);
    io(s.zeroWindowProbes);
    io(s.windowUpdates);
    io(s.windowFull);
    io(s.keepAlives);
    io(s.lowWindows);
    io(s.macRetriesExcluded);
    io(s.synCount);
    io(s.finCount);
    io(s.rstCount);
    io(s.sackPackets);
    io(s.maxWindowBytes);
    io(s.rttSamples);
    io(s.rttMinMs);
    io(s.rttAvgMs);
    io(s.rttMaxMs);
    io(s.rttStddevMs);
    io(s.rttFromTimestamps);
    io(s.rttAckSamples);
    io(s.rttTimestampSamples);
    io(s.firstDataTimeNs);
    io(s.lastDataTimeNs);
    io(s.throughputBps);
    io(s.goodputBps);
    io(s.firstTimeNs);
    io(s.lastTimeNs);
}

template <typename Io, typename C> void connectionFields(Io& io, C& c)
{
    io(c.id);
    io(c.conversation);
    for (int i = 0; i < 2; ++i) {
        io(c.address[i]);
        io(c.port[i]);
        io(c.windowScale[i]);
        io(c.mss[i]);
    }
    io(c.handshakeSeen);
    io(c.windowScaleKnown);
    io(c.sackPermitted);
    io(c.timestamps);
    io(c.handshakeRttNs);
    io(c.firstTimeNs);
    io(c.lastTimeNs);
    io(c.firstFrame);
    io(c.lastFrame);
    io(c.segments);
    io(c.lowWindowThresholdBytes);
    directionFields(io, c.direction[0]);
    directionFields(io, c.direction[1]);
}

// The per-segment columns of TcpAnalysis. Relative seq/ack and the scaled window are
// derived from the frame columns through SegmentColumns::decode and checkpoints.
template <typename F, typename T> void segmentColumns(F&& f, T& s)
{
    f(s.connection);
    f(s.flags);
    f(s.bytesInFlight);
}

template <typename Io, typename D> void decodeSideFields(Io& io, D& d)
{
    io(d.seqBase);
    io(d.ackBase);
    io(d.windowShift);
    io(d.hasCheckpoints);
}

template <typename Io, typename C> void checkpointFields(Io& io, C& c)
{
    io(c.stream);
    io(c.row);
    io(c.value);
    io(c.raw);
}


} // namespace

void encodeConnections(Writer& w, const TcpAnalysis& tcp)
{
    auto put = [&](const auto& v) { w.put(v); };
    w.list(tcp.connections, [&](const Connection& c) { connectionFields(put, c); });
}

bool decodeConnections(Reader& r, TcpAnalysis& tcp, std::string& error)
{
    r.list(tcp.connections, 100, [&](Connection& c) {
        auto get = [&](auto& v) { r.get(v); };
        connectionFields(get, c);
    });
    return r.finish(error);
}

void encodeSegments(Writer& w, const TcpAnalysis& tcp)
{
    auto column = [&](const auto& v) { w.column(v); };
    segmentColumns(column, tcp.segments);
    w.list(tcp.segments.dupAckNumber, [&](const std::pair<std::uint64_t, std::uint32_t>& p) {
        w.put(p.first);
        w.put(p.second);
    });
    auto put = [&](const auto& v) { w.put(v); };
    w.list(tcp.segments.decode, [&](const SegmentDecodeSide& d) { decodeSideFields(put, d); });
    w.list(tcp.segments.checkpoints, [&](const SegmentDecodeCheckpoint& c) { checkpointFields(put, c); });
    w.column(tcp.rtt.ackRowColumn());
    w.column(tcp.rtt.backColumn());
}

bool decodeSegments(Reader& r, TcpAnalysis& tcp, std::string& error)
{
    auto column = [&](auto& v) { r.column(v); };
    segmentColumns(column, tcp.segments);
    r.list(tcp.segments.dupAckNumber, 12, [&](std::pair<std::uint64_t, std::uint32_t>& p) {
        r.get(p.first);
        r.get(p.second);
    });
    auto get = [&](auto& v) { r.get(v); };
    r.list(tcp.segments.decode, 10, [&](SegmentDecodeSide& d) { decodeSideFields(get, d); });
    r.list(tcp.segments.checkpoints, 28, [&](SegmentDecodeCheckpoint& c) { checkpointFields(get, c); });
    dissect::RisingNumberColumn ackRows;
    std::vector<std::uint32_t> back;
    r.column(ackRows);
    r.column(back);
    if (!r.finish(error))
        return false;
    if (!tcp.rtt.assign(std::move(ackRows), std::move(back)))
        return error = "damaged cached segments: RTT columns of different lengths", false;
    return true;
}

} // namespace windscope::analysis::store::codec
