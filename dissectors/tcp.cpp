// SPDX-License-Identifier: GPL-3.0-or-later
// TCP header and options (RFC 9293 3.1; MSS RFC 9293 3.7.1, window scale and timestamps
// RFC 7323, SACK RFC 2018). Unknown options are skipped by their length.
#include "dissector_set.h"

#include <algorithm>

namespace windscope::dissect {

namespace {

enum Option : std::uint8_t {
    kEnd = 0,
    kNop = 1,
    kMss = 2,
    kWindowScale = 3,
    kSackPermitted = 4,
    kSack = 5,
    kTimestamps = 8,
};

// cut: the capture's snaplen ended inside the options, so running out is not damage.
void decodeOptions(ByteView options, bool cut, TcpInfo& tcp, Frame& frame)
{
    // What most stacks put on every segment once timestamps are agreed (RFC 7323
    // Appendix A): NOP, NOP, Timestamps. Read at once; the walk below gives the same.
    if (options.size() == 12 && options.be32(0) == 0x0101080a) {
        tcp.hasTimestamps = true;
        tcp.tsVal = options.be32(4);
        tcp.tsEcr = options.be32(8);
        return;
    }
    const Severity severity = cut ? Severity::Note : Severity::Error;
    std::size_t o = 0;
    while (o < options.size()) {
        const std::uint8_t kind = options.u8(o);
        if (kind == kEnd)
            return;
        if (kind == kNop) {
            ++o;
            continue;
        }
        if (!options.has(o, 2)) {
            frame.annotate(severity, "tcp.option_len", "TCP option length is missing");
            return;
        }
        const std::uint8_t length = options.u8(o + 1);
        if (length < 2 || !options.has(o, length)) {
            frame.annotate(severity, "tcp.option_len", "TCP option length runs past the header");
            return;
        }
        switch (kind) {
        case kMss:
            if (length == 4)
                tcp.mss = options.be16(o + 2);
            break;
        case kWindowScale:
            if (length == 3)
                // RFC 7323 2.3: shifts above 14 are treated as 14.
                tcp.windowScale = static_cast<std::int8_t>(std::min<int>(options.u8(o + 2), 14));
            break;
        case kSackPermitted:
            tcp.sackPermitted = length == 2;
            break;
        case kSack: {
            const std::size_t blocks = (length - 2u) / 8;
            for (std::size_t b = 0; b < blocks && tcp.sackBlockCount < 4; ++b) {
                tcp.sackBlocks[tcp.sackBlockCount * 2] = options.be32(o + 2 + b * 8);
                tcp.sackBlocks[tcp.sackBlockCount * 2 + 1] = options.be32(o + 6 + b * 8);
                ++tcp.sackBlockCount;
            }
            break;
        }
        case kTimestamps:
            if (length == 10) {
                tcp.hasTimestamps = true;
                tcp.tsVal = options.be32(o + 2);
                tcp.tsEcr = options.be32(o + 6);
            }
            break;
        default:
            break;
        }
        o += length;
    }
}

void decodeTcp(const DissectorSet&, ByteView bytes, Frame& frame)
{
    if (!bytes.has(0, 20)) {
        frame.annotate(frame.capturedLength < frame.originalLength ? Severity::Note
                                                                   : Severity::Error,
                       "tcp", "TCP header is truncated");
        return;
    }
    TcpInfo& tcp = frame.tcp;
    tcp = TcpInfo{};
    tcp.srcPort = bytes.be16(0);
    tcp.dstPort = bytes.be16(2);
    tcp.seq = bytes.be32(4);
    tcp.ack = bytes.be32(8);
    const std::uint16_t offsetFlags = bytes.be16(12);
    tcp.headerLength = static_cast<std::uint8_t>((offsetFlags >> 12) * 4);
    tcp.flags = offsetFlags & 0x01ff;
    tcp.window = bytes.be16(14);
    if (tcp.headerLength < 20) {
        frame.annotate(Severity::Error, "tcp.hdr_len", "TCP header length below 20 bytes");
        return;
    }
    const std::uint32_t segmentLength = frame.ip.payloadLength;
    if (tcp.headerLength > segmentLength) {
        frame.annotate(Severity::Error, "tcp.hdr_len",
                       "TCP header length exceeds the IP payload");
        return;
    }
    tcp.payloadLength = segmentLength - tcp.headerLength;
    // Options cut by a snaplen are decoded as far as they were captured.
    const ByteView options = bytes.sub(20, tcp.headerLength - 20u);
    decodeOptions(options, options.size() < tcp.headerLength - 20u, tcp, frame);
    frame.hasTcp = true;
}

} // namespace

void registerTcp(DissectorSet& set)
{
    set.ipProtocols.add(6, decodeTcp);
}

} // namespace windscope::dissect
