// SPDX-License-Identifier: GPL-3.0-or-later
// IEEE 802.2 LLC with SNAP, as carried in 802.11 data frames: 802.11 has no type
// field, so an MSDU starts with an LLC header, and IP is encapsulated with SNAP
// as RFC 1042 (or IEEE 802.1H) describes.

#include "dissector_set.h"

#include <cstdint>

namespace windscope::dissect {

namespace {

// SNAP: DSAP 0xAA, SSAP 0xAA (0xAB with the C/R bit), Control 0x03 (UI), then a
// 3-octet OUI and a 2-octet protocol identifier (IEEE 802-2014 clause 10.3).
constexpr std::uint8_t kSnapSap = 0xaa, kUnnumberedInformation = 0x03;

// OUIs whose protocol identifier is an EtherType: 00-00-00 (RFC 1042) and 00-00-F8
// (IEEE 802.1H bridge tunnel, used for AppleTalk/IPX translation). Other OUIs carry
// vendor-defined protocol IDs.
bool ouiCarriesEtherType(std::uint32_t oui)
{
    return oui == 0x000000 || oui == 0x0000f8;
}

} // namespace

void decodeLlc(const DissectorSet& set, ByteView bytes, Frame& frame)
{
    if (!bytes.has(0, 3)) {
        const bool snapped = frame.capturedLength < frame.originalLength;
        frame.annotate(snapped ? Severity::Note : Severity::Error, "llc", "LLC header truncated");
        return;
    }
    const std::uint8_t dsap = bytes.u8(0), ssap = bytes.u8(1), control = bytes.u8(2);
    if (dsap != kSnapSap || (ssap & 0xfe) != kSnapSap || control != kUnnumberedInformation)
        return; // plain 802.2 LLC (STP, NetBIOS, ...): nothing Windscope analyses
    if (!bytes.has(3, 5)) {
        const bool snapped = frame.capturedLength < frame.originalLength;
        frame.annotate(snapped ? Severity::Note : Severity::Error, "llc.type",
                       "SNAP header truncated");
        return;
    }
    const std::uint32_t oui =
        std::uint32_t(bytes.u8(3)) << 16 | std::uint32_t(bytes.u8(4)) << 8 | bytes.u8(5);
    if (ouiCarriesEtherType(oui))
        set.decodeEtherType(bytes.be16(6), bytes.from(8), frame);
}

void registerLlc(DissectorSet&)
{
    // LLC has no dispatch-table entry: 802.11 (and 802.3 length-framed Ethernet) call
    // decodeLlc directly because the LLC header is not announced by a type field.
}

} // namespace windscope::dissect
