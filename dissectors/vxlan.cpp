// SPDX-License-Identifier: GPL-3.0-or-later
// VXLAN (RFC 7348): an 8-byte header (flags with the I bit, 24-bit VNI) in UDP to port
// 4789, then the tunnelled Ethernet frame (Wireshark: vxlan). Overlay networks put a
// whole site's traffic, wireless clients' included, inside it.

#include "dissector_set.h"

namespace windscope::dissect {

namespace {

constexpr std::uint16_t kVxlanPort = 4789; // IANA, RFC 7348 section 5

void decodeVxlan(const DissectorSet& set, ByteView bytes, Frame& frame)
{
    // The I flag (0x08) says the VNI is valid; RFC 7348 requires it set.
    if (!bytes.has(0, 8) || !(bytes.u8(0) & 0x08))
        return;
    if (DecodeFn eth = set.linkTypes.find(linktype::kEthernet))
        eth(set, bytes.from(8), frame);
}

} // namespace

void registerVxlan(DissectorSet& set)
{
    set.udpPorts.add(kVxlanPort, decodeVxlan);
}

} // namespace windscope::dissect
