// SPDX-License-Identifier: GPL-3.0-or-later
// BSD loopback (LINKTYPE_NULL 0, LINKTYPE_LOOP 108) and raw IP (101, 228, 229).
#include "dissector_set.h"

namespace windscope::dissect {

namespace {

constexpr std::uint16_t kEtherIpv4 = 0x0800, kEtherIpv6 = 0x86dd;

void decodeRawIp(const DissectorSet& set, ByteView bytes, Frame& frame)
{
    if (bytes.empty()) {
        frame.annotate(Severity::Error, "raw", "no IP header");
        return;
    }
    const int version = bytes.u8(0) >> 4;
    if (version == 4)
        set.decodeEtherType(kEtherIpv4, bytes, frame);
    else if (version == 6)
        set.decodeEtherType(kEtherIpv6, bytes, frame);
    else
        frame.annotate(Severity::Error, "ip.version", "raw IP packet with unknown IP version");
}

void decodeIpv4Only(const DissectorSet& set, ByteView bytes, Frame& frame)
{
    set.decodeEtherType(kEtherIpv4, bytes, frame);
}

void decodeIpv6Only(const DissectorSet& set, ByteView bytes, Frame& frame)
{
    set.decodeEtherType(kEtherIpv6, bytes, frame);
}

// The 4-byte family is in the writer's byte order for NULL and big-endian for LOOP;
// AF_INET6 differs between BSDs (24, 28, 30), so the IP version nibble decides.
void decodeNull(const DissectorSet& set, ByteView bytes, Frame& frame)
{
    if (!bytes.has(0, 4)) {
        frame.annotate(Severity::Error, "null", "loopback header is truncated");
        return;
    }
    decodeRawIp(set, bytes.from(4), frame);
}

} // namespace

void registerNull(DissectorSet& set)
{
    set.linkTypes.add(linktype::kNull, decodeNull);
    set.linkTypes.add(linktype::kLoop, decodeNull);
    set.linkTypes.add(linktype::kRaw, decodeRawIp);
    set.linkTypes.add(linktype::kIpv4, decodeIpv4Only);
    set.linkTypes.add(linktype::kIpv6, decodeIpv6Only);
}

} // namespace windscope::dissect
