// SPDX-License-Identifier: GPL-3.0-or-later
// PEEKREMOTE, the AiroPeek/OmniPeek remote capture stream (Wireshark: peekremote):
// Cisco and Aruba access points send the 802.11 frames they hear, each behind a radio
// header, to an analyser on UDP port 5000 (Aruba's default; Cisco's is configurable).
//
// Two headers exist. The legacy one is 20 bytes: signal and noise (dBm, 1 each),
// packet length and slice length (2 each, big-endian), flags (1: 0x02 CRC error),
// status (1), TSF timestamp (8), data rate (1, in 500 kb/s), channel (1), signal and
// noise in percent (1 each). The newer one starts with the magic 00 ff ab cd, a header
// version (1) and the header's size (4, big-endian, 55 for version 2), then for
// version 2: type (4), MCS index (2), channel (2), frequency in MHz (4), band (4),
// extended flags (4), signal and noise in percent, signal and noise in dBm, four more
// signal and four noise octets, packet and slice length (2 each), flags, status and
// the TSF timestamp (8). Either way the 802.11 frame that follows ends in its FCS,
// except, in Aruba's ERM, a frame the access point sent itself, which it marks with a
// signal of 100 % (Wireshark's reading).

#include "dissector_set.h"

#include <cstdint>

namespace windscope::dissect {

namespace {

constexpr std::uint16_t kPeekremotePort = 5000;
constexpr std::size_t kLegacyHeader = 20, kMinimumNewHeader = 9, kVersion2Header = 55;
constexpr std::uint8_t kFlagCrcError = 0x02, kFlagsReserved = 0xf8;

bool newHeader(ByteView bytes)
{
    return bytes.has(0, 4) && bytes.be32(0) == 0x00ffabcdu;
}

bool wlanVersionZero(ByteView frame80211)
{
    return frame80211.has(0, 2) && (frame80211.u8(0) & 0x3) == 0;
}

void finish(const DissectorSet& set, ByteView wlan, Frame& frame, RadioInfo radio, std::uint8_t flags,
            bool fcsAtEnd)
{
    radio.hasFlags = true;
    if (fcsAtEnd)
        radio.flags |= RadioInfo::kFlagFcsAtEnd;
    if (flags & kFlagCrcError)
        radio.flags |= RadioInfo::kFlagBadFcs;
    frame.hasRadio = true;
    frame.radio = radio;
    decodeWlanFrame(set, wlan, frame, fcsAtEnd);
}

void decodeNew(const DissectorSet& set, ByteView bytes, Frame& frame, bool aruba)
{
    if (!bytes.has(0, kMinimumNewHeader)) {
        frame.annotate(Severity::Error, "peekremote.header_size", "PEEKREMOTE header truncated");
        return;
    }
    const std::uint8_t version = bytes.u8(4);
    const std::size_t size = bytes.be32(5);
    if (size < kMinimumNewHeader || !bytes.has(0, size)) {
        frame.undecoded = Undecoded::PeekremoteVersion;
        return;
    }
    RadioInfo radio;
    std::uint8_t flags = 0;
    if (version == 2 && size == kVersion2Header) {
        radio.channelFreqMhz = static_cast<std::uint16_t>(bytes.be32(17));
        if (radio.channelFreqMhz == 0)
            radio.channelFreqMhz = channelToMhz(bytes.be16(15));
        radio.hasSignal = true;
        radio.signalDbm = static_cast<std::int8_t>(bytes.u8(31));
        radio.hasNoise = true;
        radio.noiseDbm = static_cast<std::int8_t>(bytes.u8(32));
        flags = bytes.u8(45);
        radio.hasTsft = true;
        radio.tsft = bytes.be64(47);
    } else if (version != 2) {
        // Another version: its header is skipped by its stated size, as Wireshark does,
        // and its radio fields are not read.
    }
    const bool fcs = !(aruba && bytes.u8(29) == 100);
    finish(set, bytes.from(size), frame, radio, flags, fcs);
}

// The legacy header; fcsAtEnd as the caller knows it.
void decodeLegacy(const DissectorSet& set, ByteView bytes, Frame& frame, bool fcsAtEnd)
{
    RadioInfo radio;
    radio.hasSignal = true;
    radio.signalDbm = static_cast<std::int8_t>(bytes.u8(0));
    radio.hasNoise = true;
    radio.noiseDbm = static_cast<std::int8_t>(bytes.u8(1));
    radio.hasTsft = true;
    radio.tsft = bytes.be64(8);
    radio.dataRateKbps = 500u * bytes.u8(16);
    radio.channelFreqMhz = channelToMhz(bytes.u8(17));
    finish(set, bytes.from(kLegacyHeader), frame, radio, bytes.u8(6), fcsAtEnd);
}

// Whether a legacy header proves itself: its packet or slice length names the bytes
// that follow, its reserved flag bits are zero, and an 802.11 frame of protocol version
// 0 follows. UDP 5000 is used by other services too.
bool plausibleLegacy(ByteView bytes)
{
    if (!bytes.has(0, kLegacyHeader + 10))
        return false;
    const std::size_t rest = bytes.size() - kLegacyHeader;
    const bool lengthsAgree = bytes.be16(2) == rest || bytes.be16(4) == rest;
    return lengthsAgree && !(bytes.u8(6) & kFlagsReserved) && wlanVersionZero(bytes.from(kLegacyHeader));
}

void decodePeekremoteOnPort(const DissectorSet& set, ByteView bytes, Frame& frame)
{
    if (newHeader(bytes))
        decodeNew(set, bytes, frame, false);
    else if (plausibleLegacy(bytes))
        decodeLegacy(set, bytes, frame, true);
}

} // namespace

bool decodePeekremote(const DissectorSet& set, ByteView bytes, Frame& frame)
{
    // Aruba ERM's types 1 and 5 carry the same stream.
    if (newHeader(bytes)) {
        decodeNew(set, bytes, frame, true);
        return true;
    }
    if (!plausibleLegacy(bytes))
        return false;
    decodeLegacy(set, bytes, frame, bytes.u8(18) != 100);
    return true;
}

void registerPeekremote(DissectorSet& set)
{
    set.udpPorts.add(kPeekremotePort, decodePeekremoteOnPort);
}

} // namespace windscope::dissect
