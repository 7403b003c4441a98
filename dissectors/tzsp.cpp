// SPDX-License-Identifier: GPL-3.0-or-later
// TZSP, the TaZmen Sniffer Protocol (Wireshark: tzsp), on UDP port 37008: remote
// sensors (MikroTik's packet sniffer among them) stream what they capture to an
// analyser, each packet behind a 4-byte header and a list of tagged fields.
//
// Header: version (1, value 1), type (1: 0 received tag list, 1 packet for transmit,
// 4 keepalive, 5 port opener), encapsulation (2, big-endian: 1 Ethernet, 18 IEEE
// 802.11, 119 Prism, 127 AVS). Tags: 0 padding (one octet), 1 end of list, every other
// tag is followed by a length octet and that many octets. The 802.11 radio tags kept:
// 10 signal (dBm, signed), 17 FCS error, 18 channel. The 802.11 frame carries no FCS,
// as Wireshark assumes by default for this encapsulation.

#include "dissector_set.h"

#include <cstdint>

namespace windscope::dissect {

namespace {

constexpr std::uint16_t kTzspPort = 37008;
constexpr std::uint16_t kEncapEthernet = 1, kEncapIeee80211 = 18, kEncapPrism = 119, kEncapAvs = 127;
constexpr std::uint8_t kTagPadding = 0, kTagEnd = 1, kTagSignal = 10, kTagFcsError = 17,
                       kTagChannel = 18;

void decodeTzsp(const DissectorSet& set, ByteView bytes, Frame& frame)
{
    if (!bytes.has(0, 4) || bytes.u8(0) != 1)
        return; // not TZSP version 1: leave the datagram to the other port
    const std::uint8_t type = bytes.u8(1);
    if (type != 0 && type != 1)
        return; // keepalives, port openers and configuration carry no packet
    const std::uint16_t encapsulation = bytes.be16(2);

    RadioInfo radio;
    bool anyRadio = false;
    std::size_t offset = 4;
    for (;;) {
        if (!bytes.has(offset, 1)) {
            frame.annotate(frame.capturedLength < frame.originalLength ? Severity::Note : Severity::Error,
                           "tzsp", "TZSP tag list not terminated");
            return;
        }
        const std::uint8_t tag = bytes.u8(offset++);
        if (tag == kTagEnd)
            break;
        if (tag == kTagPadding)
            continue;
        if (!bytes.has(offset, 1)) {
            frame.annotate(Severity::Error, "tzsp", "TZSP tag without its length");
            return;
        }
        const std::uint8_t length = bytes.u8(offset++);
        if (!bytes.has(offset, length)) {
            frame.annotate(Severity::Error, "tzsp", "TZSP tag longer than the datagram");
            return;
        }
        if (tag == kTagSignal && length >= 1) {
            radio.hasSignal = true;
            radio.signalDbm = static_cast<std::int8_t>(bytes.u8(offset));
            anyRadio = true;
        } else if (tag == kTagFcsError && length >= 1) {
            radio.hasFlags = true;
            if (bytes.u8(offset) != 0)
                radio.flags |= RadioInfo::kFlagBadFcs;
            anyRadio = true;
        } else if (tag == kTagChannel && length >= 1) {
            radio.channelFreqMhz = channelToMhz(bytes.u8(offset));
            anyRadio = true;
        }
        offset += length;
    }
    const ByteView packet = bytes.from(offset);
    switch (encapsulation) {
    case kEncapIeee80211:
        if (anyRadio) {
            frame.hasRadio = true;
            frame.radio = radio;
        }
        decodeWlanFrame(set, packet, frame, false);
        return;
    case kEncapEthernet:
    case kEncapPrism:
    case kEncapAvs: {
        const int link = encapsulation == kEncapEthernet ? linktype::kEthernet
                         : encapsulation == kEncapPrism  ? linktype::kPrism
                                                         : linktype::kAvs;
        if (DecodeFn fn = set.linkTypes.find(static_cast<std::uint32_t>(link)))
            fn(set, packet, frame);
        return;
    }
    default:
        frame.undecoded = Undecoded::TzspEncapsulation;
        return;
    }
}

} // namespace

void registerTzsp(DissectorSet& set)
{
    set.udpPorts.add(kTzspPort, decodeTzsp);
}

} // namespace windscope::dissect
