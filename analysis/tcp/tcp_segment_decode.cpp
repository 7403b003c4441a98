// SPDX-License-Identifier: GPL-3.0-or-later
// The read side of the derived per-row columns (SegmentDecodeSide and its
// checkpoints): relative sequence and acknowledgment numbers and the scaled window of
// a row, recovered from its raw fields; and which endpoint sent a row.
#include "tcp_analyzer.h"

#include <algorithm>
#include <utility>

namespace windscope::analysis {

using namespace detail;

bool TcpAnalysis::sendsFromB(const dissect::CaptureTables& tables, std::size_t connection, int endpoint) const
{
    const Connection& c = connections[connection];
    const dissect::ConversationKey& key = tables.conversations[c.conversation];
    const bool endpoint0IsA = c.address[0] == key.addrA && c.port[0] == key.portA;
    return endpoint0IsA == (endpoint != 0);
}

std::uint8_t TcpAnalysis::directionOf(const dissect::CaptureTables& tables, std::size_t row) const
{
    return tables.tcp.fromB(row) == sendsFromB(tables, segments.connection[row], 0) ? 0 : 1;
}

const SegmentDecodeCheckpoint* TcpAnalysis::checkpoint(std::uint64_t stream, std::size_t row) const
{
    const std::vector<SegmentDecodeCheckpoint>& all = segments.checkpoints;
    auto after = std::upper_bound(all.begin(), all.end(), std::pair<std::uint64_t, std::uint64_t>(stream, row),
                                  [](const std::pair<std::uint64_t, std::uint64_t>& key,
                                     const SegmentDecodeCheckpoint& c) {
                                      return key < std::pair<std::uint64_t, std::uint64_t>(c.stream, c.row);
                                  });
    if (after == all.begin())
        return nullptr;
    --after;
    return after->stream == stream ? &*after : nullptr;
}

std::int64_t TcpAnalysis::relativeSeq(const dissect::TcpColumns& tcp, std::size_t row) const
{
    const std::uint32_t connection = segments.connection[row];
    const bool fromB = tcp.fromB(row);
    const SegmentDecodeSide& d = segments.decode[2 * std::size_t(connection) + fromB];
    if (d.hasCheckpoints)
        if (const SegmentDecodeCheckpoint* c = checkpoint(
                SegmentDecodeCheckpoint::streamOf(connection, fromB, SegmentDecodeCheckpoint::kSeq), row))
            return decodeRelative(c->value, c->raw, tcp.seq[row]);
    return decodeRelative(0, d.seqBase, tcp.seq[row]);
}

std::int64_t TcpAnalysis::relativeAck(const dissect::TcpColumns& tcp, std::size_t row) const
{
    if (!(tcp.tcpFlags(row) & th::kAck))
        return 0;
    const std::uint32_t connection = segments.connection[row];
    const bool fromB = tcp.fromB(row);
    const SegmentDecodeSide& d = segments.decode[2 * std::size_t(connection) + fromB];
    if (d.hasCheckpoints)
        if (const SegmentDecodeCheckpoint* c = checkpoint(
                SegmentDecodeCheckpoint::streamOf(connection, fromB, SegmentDecodeCheckpoint::kAck), row))
            return decodeRelative(c->value, c->raw, tcp.ack[row]);
    return decodeRelative(0, d.ackBase, tcp.ack[row]);
}

std::uint32_t TcpAnalysis::windowBytes(const dissect::TcpColumns& tcp, std::size_t row) const
{
    const std::uint32_t connection = segments.connection[row];
    const bool fromB = tcp.fromB(row);
    const SegmentDecodeSide& d = segments.decode[2 * std::size_t(connection) + fromB];
    int shift = d.windowShift;
    if (d.hasCheckpoints)
        if (const SegmentDecodeCheckpoint* c = checkpoint(
                SegmentDecodeCheckpoint::streamOf(connection, fromB, SegmentDecodeCheckpoint::kWindowShift),
                row))
            shift = static_cast<int>(c->value);
    return decodeWindow(tcp.window[row], tcp.tcpFlags(row) & th::kSyn, shift);
}

} // namespace windscope::analysis
