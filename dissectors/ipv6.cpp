// SPDX-License-Identifier: GPL-3.0-or-later
// IPv6 (RFC 8200) with extension headers walked to the upper-layer protocol.
#include "dissector_set.h"

#include <cstring>

namespace windscope::dissect {

namespace {

constexpr std::uint8_t kHopByHop = 0, kRouting = 43, kFragment = 44, kDestination = 60,
                       kAuthentication = 51, kMobility = 135, kHip = 139, kShim6 = 140,
                       kNoNextHeader = 59;
constexpr std::uint8_t kMaxIpDepth = 4;
constexpr int kMaxExtensionHeaders = 16;

void decodeIpv6(const DissectorSet& set, ByteView bytes, Frame& frame)
{
    if (!bytes.has(0, 40)) {
        frame.annotate(Severity::Error, "ipv6", "IPv6 header is truncated");
        return;
    }
    if (bytes.u8(0) >> 4 != 6) {
        frame.annotate(Severity::Error, "ipv6.version", "IPv6 header with another version");
        return;
    }
    std::uint32_t payloadLength = bytes.be16(4);
    const bool snapped = frame.capturedLength < frame.originalLength;
    if (payloadLength == 0) {
        // Jumbogram (RFC 2675) or segmentation offload: take what the frame holds.
        payloadLength = static_cast<std::uint32_t>(bytes.size() - 40);
    } else if (payloadLength > bytes.size() - 40 && !snapped) {
        frame.annotate(Severity::Error, "ipv6.plen",
                       "IPv6 payload length exceeds the bytes in the frame");
        return;
    }
    if (frame.ipDepth++ >= kMaxIpDepth) {
        frame.annotate(Severity::Error, "ipv6", "too many nested IP headers");
        return;
    }
    IpInfo& ip = frame.ip;
    ip = IpInfo{};
    ip.version = 6;
    ip.src.family = ip.dst.family = 6;
    std::memcpy(ip.src.bytes.data(), bytes.data() + 8, 16);
    std::memcpy(ip.dst.bytes.data(), bytes.data() + 24, 16);
    ip.ttl = bytes.u8(7);
    frame.hasIp = true;
    frame.hasTcp = false;

    std::uint8_t next = bytes.u8(6);
    ByteView rest = bytes.sub(40, payloadLength);
    std::uint32_t remaining = payloadLength;
    for (int i = 0; i < kMaxExtensionHeaders; ++i) {
        std::uint32_t length = 0;
        switch (next) {
        case kHopByHop:
        case kRouting:
        case kDestination:
        case kMobility:
        case kHip:
        case kShim6:
            if (!rest.has(0, 2))
                break;
            length = (rest.u8(1) + 1u) * 8;
            break;
        case kAuthentication:
            if (!rest.has(0, 2))
                break;
            length = (rest.u8(1) + 2u) * 4;
            break;
        case kFragment:
            if (!rest.has(0, 8))
                break;
            ip.fragmentOffset = static_cast<std::uint16_t>(rest.be16(2) & 0xfff8);
            ip.moreFragments = rest.be16(2) & 1;
            ip.id = static_cast<std::uint16_t>(rest.be32(4));
            length = 8;
            break;
        case kNoNextHeader:
            ip.protocol = next;
            ip.payloadLength = 0;
            return;
        default:
            ip.protocol = next;
            ip.payloadLength = remaining;
            if (ip.fragmentOffset == 0)
                set.decodeIpProtocol(next, rest, frame);
            return;
        }
        if (length == 0 || length > remaining || !rest.has(0, length)) {
            frame.annotate(snapped ? Severity::Note : Severity::Error, "ipv6.nxt",
                           "IPv6 extension header runs past the payload");
            return;
        }
        next = rest.u8(0);
        rest = rest.from(length);
        remaining -= length;
    }
    frame.annotate(Severity::Error, "ipv6.nxt", "too many IPv6 extension headers");
}

void decodeIpv6InIp(const DissectorSet& set, ByteView bytes, Frame& frame)
{
    set.decodeEtherType(0x86dd, bytes, frame);
}

} // namespace

void registerIpv6(DissectorSet& set)
{
    set.etherTypes.add(0x86dd, decodeIpv6);
    set.ipProtocols.add(41, decodeIpv6InIp); // IPv6 encapsulated in IP (RFC 2473)
}

} // namespace windscope::dissect
