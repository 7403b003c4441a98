// SPDX-License-Identifier: GPL-3.0-or-later
// Linux cooked capture v1 (LINKTYPE_LINUX_SLL, 113) and v2 (LINKTYPE_LINUX_SLL2, 276).
#include "dissector_set.h"

namespace windscope::dissect {

namespace {

// Protocol values below 0x0600 are not EtherTypes (tcpdump.org linktypes/LINKTYPE_LINUX_SLL).
constexpr std::uint16_t kSllLlc = 0x0004;

void dispatch(const DissectorSet& set, std::uint16_t protocol, ByteView rest, Frame& frame)
{
    if (protocol >= 0x0600)
        set.decodeEtherType(protocol, rest, frame);
    else if (protocol == kSllLlc)
        decodeLlc(set, rest, frame);
}

void decodeSll(const DissectorSet& set, ByteView bytes, Frame& frame)
{
    // packet type 2, ARPHRD 2, address length 2, address 8, protocol 2.
    if (!bytes.has(0, 16)) {
        frame.annotate(Severity::Error, "sll", "Linux cooked header is truncated");
        return;
    }
    dispatch(set, bytes.be16(14), bytes.from(16), frame);
}

void decodeSll2(const DissectorSet& set, ByteView bytes, Frame& frame)
{
    // protocol 2, reserved 2, interface index 4, ARPHRD 2, packet type 1, address length 1,
    // address 8.
    if (!bytes.has(0, 20)) {
        frame.annotate(Severity::Error, "sll", "Linux cooked v2 header is truncated");
        return;
    }
    dispatch(set, bytes.be16(0), bytes.from(20), frame);
}

} // namespace

void registerSll(DissectorSet& set)
{
    set.linkTypes.add(linktype::kSll, decodeSll);
    set.linkTypes.add(linktype::kSll2, decodeSll2);
}

} // namespace windscope::dissect
