// SPDX-License-Identifier: GPL-3.0-or-later
// Aruba ERM, "encapsulated remote mirroring" (Wireshark: aruba_erm): an Aruba access
// point in remote packet-capture mode streams the 802.11 frames it hears over UDP, by
// default to port 5555. ERM has no header of its own, and its format is a setting of
// the access point (Wireshark asks the user through Decode As); the formats carry enough
// self-description to be told apart, so they are recognised here by their content:
//
//   type 0  a pcap record header (ts_sec, ts_usec, incl_len, orig_len; big-endian), then
//           the 802.11 frame with its FCS: incl_len equals the bytes after the header;
//   type 3  the same with a 4-byte radio header in between (rate in 500 kb/s (2),
//           channel, signal in percent; 100 % marks a frame the AP sent, without FCS):
//           incl_len equals the bytes after both headers;
//   type 1  and 5: PEEKREMOTE, legacy and new header (peekremote.cpp);
//   type 4  PPI (link type 192) with DLT 105 inside;
//   type 6  radiotap.
// AirMagnet's type 2 and anything else is counted as not decoded.

#include "dissector_set.h"

#include <cstdint>

namespace windscope::dissect {

namespace {

constexpr std::uint16_t kArubaErmPort = 5555;
constexpr std::size_t kPcapRecordHeader = 16, kRadioHeader = 4;
constexpr std::uint32_t kMicrosecondsPerSecond = 1000000;
constexpr std::uint32_t kPpiDltIeee80211 = 105;

bool pcapRecordFits(ByteView bytes, std::size_t headers)
{
    if (!bytes.has(0, headers + 2))
        return false;
    const std::uint32_t included = bytes.be32(8), original = bytes.be32(12);
    return bytes.be32(4) < kMicrosecondsPerSecond && included == bytes.size() - headers &&
           original >= included && (bytes.u8(headers) & 0x3) == 0;
}

void decodeArubaErm(const DissectorSet& set, ByteView bytes, Frame& frame)
{
    if (pcapRecordFits(bytes, kPcapRecordHeader)) {
        // Type 0 cannot tell a received frame (with FCS) from one the AP sent (without);
        // Wireshark assumes the FCS, and so do we.
        frame.hasRadio = true;
        frame.radio = RadioInfo{};
        frame.radio.hasFlags = true;
        frame.radio.flags = RadioInfo::kFlagFcsAtEnd;
        decodeWlanFrame(set, bytes.from(kPcapRecordHeader), frame, true);
        return;
    }
    if (pcapRecordFits(bytes, kPcapRecordHeader + kRadioHeader)) {
        const std::size_t at = kPcapRecordHeader;
        const bool fcs = bytes.u8(at + 3) != 100;
        frame.hasRadio = true;
        frame.radio = RadioInfo{};
        frame.radio.dataRateKbps = 500u * bytes.be16(at);
        frame.radio.channelFreqMhz = channelToMhz(bytes.u8(at + 2));
        frame.radio.hasFlags = true;
        frame.radio.flags = fcs ? RadioInfo::kFlagFcsAtEnd : 0;
        decodeWlanFrame(set, bytes.from(at + kRadioHeader), frame, fcs);
        return;
    }
    if (decodePeekremote(set, bytes, frame))
        return;
    if (bytes.has(0, 8) && bytes.u8(0) == 0 && bytes.le32(4) == kPpiDltIeee80211 && bytes.le16(2) >= 8 &&
        bytes.le16(2) < bytes.size()) {
        if (DecodeFn ppi = set.linkTypes.find(linktype::kPpi))
            ppi(set, bytes, frame);
        return;
    }
    if (bytes.has(0, 8) && bytes.u8(0) == 0 && bytes.u8(1) == 0 && bytes.le16(2) >= 8 &&
        bytes.le16(2) < bytes.size()) {
        if (DecodeFn radiotap = set.linkTypes.find(linktype::kRadiotap))
            radiotap(set, bytes, frame);
        return;
    }
    if (!bytes.empty())
        frame.undecoded = Undecoded::ArubaErmFormat;
}

} // namespace

void registerArubaErm(DissectorSet& set)
{
    set.udpPorts.add(kArubaErmPort, decodeArubaErm);
}

} // namespace windscope::dissect
