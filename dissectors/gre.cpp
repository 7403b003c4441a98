// SPDX-License-Identifier: GPL-3.0-or-later
// Generic Routing Encapsulation (RFC 2784 with the key and sequence number fields of
// RFC 2890, and RFC 1701's routing field), registered as IP protocol 47 (Wireshark: gre).
//
// GRE matters to Windscope as the tunnel that carries 802.11 from access points to
// their controller: Aruba's access points send each station's frames, 802.11 header
// and all, in GRE with protocol type 0x0000 or one of 0x8200-0x83ff, without FCS (the
// types Wireshark's gre.proto table gives its "ARUBA WLAN" entries). Its payloads
// otherwise are EtherTypes (IPv4, IPv6, VLAN-tagged frames), transparent Ethernet
// bridging (0x6558), and the mirrored Ethernet frames of ERSPAN. The inner IP and TCP
// replace the outer IP header's values, as with every tunnel here: the inner flow is
// the one analysed.

#include "dissector_set.h"

#include <cstdint>

namespace windscope::dissect {

namespace {

constexpr std::uint16_t kArubaKeepaliveOr80211 = 0x0000;
constexpr std::uint16_t kTransparentEthernet = 0x6558; // RFC 1701 protocol types
constexpr std::uint16_t kErspanII = 0x88be, kErspanIII = 0x22eb;
constexpr std::uint16_t kArp = 0x0806;
constexpr int kMaxSourceRouteEntries = 16; // a loop of entries is malformed, not an endless walk

bool arubaWlanType(std::uint16_t protocol)
{
    return protocol == kArubaKeepaliveOr80211 || (protocol >= 0x8200 && protocol <= 0x83ff);
}

void decodeEthernetPayload(const DissectorSet& set, ByteView bytes, Frame& frame)
{
    if (DecodeFn eth = set.linkTypes.find(linktype::kEthernet))
        eth(set, bytes, frame);
}

// ERSPAN (draft-foschiano-erspan-03): type I has no header of its own (GRE without a
// sequence number), type II an 8-byte header, type III a 12-byte header and, with its
// O bit, an 8-byte platform subheader; the mirrored Ethernet frame follows.
void decodeErspan(const DissectorSet& set, ByteView bytes, Frame& frame, std::uint16_t protocol,
                  bool hasSequence)
{
    std::size_t header = 0;
    if (protocol == kErspanII && hasSequence)
        header = 8;
    else if (protocol == kErspanIII)
        header = bytes.has(0, 12) && (bytes.u8(11) & 0x01) ? 20 : 12;
    if (!bytes.has(0, header)) {
        frame.annotate(frame.capturedLength < frame.originalLength ? Severity::Note : Severity::Error,
                       "erspan", "ERSPAN header truncated");
        return;
    }
    decodeEthernetPayload(set, bytes.from(header), frame);
}

void decodeGre(const DissectorSet& set, ByteView bytes, Frame& frame)
{
    if (!bytes.has(0, 4)) {
        frame.annotate(frame.capturedLength < frame.originalLength ? Severity::Note : Severity::Error,
                       "gre", "GRE header truncated");
        return;
    }
    const std::uint8_t flags = bytes.u8(0);
    const std::uint8_t version = bytes.u8(1) & 0x07;
    const std::uint16_t protocol = bytes.be16(2);
    if (version != 0) {
        frame.undecoded = Undecoded::GreVersion;
        return;
    }
    const bool checksum = flags & 0x80, routing = flags & 0x40, key = flags & 0x20,
               sequence = flags & 0x10;
    std::size_t offset = 4;
    if (checksum || routing)
        offset += 4; // checksum and offset (RFC 1701: both present when either bit is)
    if (key)
        offset += 4;
    if (sequence)
        offset += 4;
    if (routing) {
        // Source route entries (RFC 1701 section 2.1.1): address family (2), SRE offset
        // (1), SRE length (1), routing information; a length of 0 ends the list.
        int entries = 0;
        for (;; ++entries) {
            if (entries == kMaxSourceRouteEntries || !bytes.has(offset, 4)) {
                frame.annotate(Severity::Error, "gre.routing", "GRE source route entries malformed");
                return;
            }
            const std::uint8_t length = bytes.u8(offset + 3);
            offset += 4u + length;
            if (length == 0)
                break;
        }
    }
    if (!bytes.has(0, offset)) {
        frame.annotate(frame.capturedLength < frame.originalLength ? Severity::Note : Severity::Error,
                       "gre", "GRE header truncated");
        return;
    }
    const ByteView payload = bytes.from(offset);

    if (arubaWlanType(protocol)) {
        // Type 0 with nothing behind it is a keepalive (Cisco's GRE keepalives use it).
        if (!payload.empty())
            decodeWlanFrame(set, payload, frame, false);
        return;
    }
    if (protocol == kTransparentEthernet) {
        decodeEthernetPayload(set, payload, frame);
        return;
    }
    if (protocol == kErspanII || protocol == kErspanIII) {
        decodeErspan(set, payload, frame, protocol, sequence);
        return;
    }
    if (DecodeFn fn = set.etherTypes.find(protocol)) {
        fn(set, payload, frame);
        return;
    }
    if (protocol != kArp) // address resolution across a tunnel carries no traffic to miss
        frame.undecoded = Undecoded::GreProtocol;
}

} // namespace

void registerGre(DissectorSet& set)
{
    set.ipProtocols.add(47, decodeGre);
}

} // namespace windscope::dissect
