// SPDX-License-Identifier: GPL-3.0-or-later
// IPv4 (RFC 791), with options skipped and fragments marked (Wireshark: ip).
#include "dissector_set.h"

#include <cstring>

namespace windscope::dissect {

namespace {

constexpr std::uint8_t kMaxIpDepth = 4;

// Length of an IP payload when the header's length field cannot be used (0 with TCP
// segmentation offload, or a snaplen shorter than the header claims).
bool lengthUnknown(std::uint32_t fromHeader) { return fromHeader == 0; }

void decodeIpv4(const DissectorSet& set, ByteView bytes, Frame& frame)
{
    if (!bytes.has(0, 20)) {
        frame.annotate(Severity::Error, "ip", "IPv4 header is truncated");
        return;
    }
    const std::uint8_t versionIhl = bytes.u8(0);
    if (versionIhl >> 4 != 4) {
        frame.annotate(Severity::Error, "ip.version", "IPv4 header with another version");
        return;
    }
    const std::uint32_t headerLength = (versionIhl & 0x0fu) * 4;
    if (headerLength < 20) {
        frame.annotate(Severity::Error, "ip.hdr_len", "IPv4 header length below 20 bytes");
        return;
    }
    if (!bytes.has(0, headerLength)) {
        frame.annotate(frame.capturedLength < frame.originalLength ? Severity::Note
                                                                   : Severity::Error,
                       "ip.hdr_len", "IPv4 options run past the captured bytes");
        return;
    }
    std::uint32_t totalLength = bytes.be16(2);
    if (lengthUnknown(totalLength)) {
        // Wireshark assumes TSO and takes the frame's length.
        totalLength = static_cast<std::uint32_t>(bytes.size());
    } else if (totalLength < headerLength) {
        frame.annotate(Severity::Error, "ip.len", "IPv4 total length is less than its header");
        return;
    } else if (totalLength > bytes.size() && frame.capturedLength >= frame.originalLength) {
        frame.annotate(Severity::Error, "ip.len",
                       "IPv4 total length exceeds the bytes in the frame");
        return;
    }

    if (frame.ipDepth++ >= kMaxIpDepth) {
        frame.annotate(Severity::Error, "ip", "too many nested IP headers");
        return;
    }
    IpInfo& ip = frame.ip;
    ip = IpInfo{};
    ip.version = 4;
    ip.src.family = ip.dst.family = 4;
    std::memcpy(ip.src.bytes.data(), bytes.data() + 12, 4);
    std::memcpy(ip.dst.bytes.data(), bytes.data() + 16, 4);
    ip.protocol = bytes.u8(9);
    ip.ttl = bytes.u8(8);
    ip.id = bytes.be16(4);
    const std::uint16_t fragment = bytes.be16(6);
    ip.moreFragments = fragment & 0x2000;
    ip.fragmentOffset = static_cast<std::uint16_t>((fragment & 0x1fff) * 8);
    ip.payloadLength = totalLength - headerLength;
    frame.hasIp = true;
    frame.hasTcp = false; // an inner IP header replaces what an outer one carried

    if (ip.fragmentOffset != 0)
        return; // a later fragment carries no transport header
    // Ethernet padding lies beyond the total length; a snaplen may cut before it.
    set.decodeIpProtocol(ip.protocol, bytes.sub(headerLength, ip.payloadLength), frame);
}

void decodeIpInIp(const DissectorSet& set, ByteView bytes, Frame& frame)
{
    set.decodeEtherType(0x0800, bytes, frame);
}

// IPsec ESP (RFC 4303): the payload is encrypted; counted so the capture says so.
void decodeEsp(const DissectorSet&, ByteView, Frame& frame)
{
    frame.undecoded = Undecoded::Esp;
}

} // namespace

void registerIp(DissectorSet& set)
{
    set.ipProtocols.add(50, decodeEsp);
    set.etherTypes.add(0x0800, decodeIpv4);
    set.ipProtocols.add(4, decodeIpInIp); // IPv4 encapsulated in IP (RFC 2003)
}

} // namespace windscope::dissect
