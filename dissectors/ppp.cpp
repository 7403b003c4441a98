// SPDX-License-Identifier: GPL-3.0-or-later
// PPP (LINKTYPE_PPP 9, RFC 1661), as ns-3's point-to-point devices write it: the
// protocol field, optionally behind the HDLC-like address/control bytes 0xff 0x03
// (RFC 1662 section 3.1), and compressed to one byte when odd (RFC 1661 section 6.5).
#include "dissector_set.h"

namespace windscope::dissect {

namespace {

constexpr std::uint16_t kPppIpv4 = 0x0021, kPppIpv6 = 0x0057;
constexpr std::uint16_t kEtherIpv4 = 0x0800, kEtherIpv6 = 0x86dd;

void decodePpp(const DissectorSet& set, ByteView bytes, Frame& frame)
{
    std::size_t offset = 0;
    if (bytes.has(0, 2) && bytes.u8(0) == 0xff && bytes.u8(1) == 0x03)
        offset = 2;
    if (!bytes.has(offset, 1)) {
        frame.annotate(Severity::Error, "ppp.protocol", "PPP header is truncated");
        return;
    }
    std::uint16_t protocol = bytes.u8(offset);
    if (protocol & 1) {
        offset += 1; // protocol-field compression: a one-byte protocol is odd
    } else {
        if (!bytes.has(offset, 2)) {
            frame.annotate(Severity::Error, "ppp.protocol", "PPP header is truncated");
            return;
        }
        protocol = bytes.be16(offset);
        offset += 2;
    }
    if (protocol == kPppIpv4)
        set.decodeEtherType(kEtherIpv4, bytes.from(offset), frame);
    else if (protocol == kPppIpv6)
        set.decodeEtherType(kEtherIpv6, bytes.from(offset), frame);
}

} // namespace

void registerPpp(DissectorSet& set)
{
    set.linkTypes.add(linktype::kPpp, decodePpp);
}

} // namespace windscope::dissect
