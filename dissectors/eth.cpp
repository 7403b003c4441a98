// SPDX-License-Identifier: GPL-3.0-or-later
// Ethernet II and IEEE 802.3 with LLC, 802.1Q / 802.1ad VLAN tags (Wireshark: eth, vlan).
#include "dissector_set.h"

namespace windscope::dissect {

namespace {

constexpr std::uint16_t kVlan = 0x8100, kQinQ = 0x88a8, kQinQLegacy = 0x9100;
constexpr int kMaxVlanTags = 8; // a loop of tags is malformed, not an endless walk

// Below an EtherType (or a VLAN tag) the next two bytes are either an EtherType
// (>= 0x0600) or an IEEE 802.3 length followed by LLC (IEEE 802.3-2018 3.2.6).
void decodeTypeOrLength(const DissectorSet& set, std::uint16_t value, ByteView rest, Frame& frame)
{
    if (value >= 0x0600) {
        set.decodeEtherType(value, rest, frame);
    } else if (value <= 1500) {
        decodeLlc(set, rest.sub(0, value), frame);
    }
}

void decodeVlan(const DissectorSet& set, ByteView bytes, Frame& frame)
{
    // Walk stacked tags iteratively: TCI (2) + inner type (2) each.
    for (int depth = 0; depth < kMaxVlanTags; ++depth) {
        if (!bytes.has(0, 4)) {
            frame.annotate(Severity::Error, "vlan", "802.1Q tag is truncated");
            return;
        }
        const std::uint16_t inner = bytes.be16(2);
        bytes = bytes.from(4);
        if (inner != kVlan && inner != kQinQ && inner != kQinQLegacy) {
            decodeTypeOrLength(set, inner, bytes, frame);
            return;
        }
    }
    frame.annotate(Severity::Error, "vlan", "too many stacked VLAN tags");
}

void decodeEthernet(const DissectorSet& set, ByteView bytes, Frame& frame)
{
    if (!bytes.has(0, 14)) {
        frame.annotate(Severity::Error, "eth", "Ethernet header is truncated");
        return;
    }
    decodeTypeOrLength(set, bytes.be16(12), bytes.from(14), frame);
}

} // namespace

void registerEth(DissectorSet& set)
{
    set.linkTypes.add(linktype::kEthernet, decodeEthernet);
    set.etherTypes.add(kVlan, decodeVlan);
    set.etherTypes.add(kQinQ, decodeVlan);
    set.etherTypes.add(kQinQLegacy, decodeVlan);
}

} // namespace windscope::dissect
