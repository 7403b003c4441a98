// SPDX-License-Identifier: GPL-3.0-or-later
// Per-Packet Information header (link type 192), from CACE Technologies' "PPI Header
// Format Specification" 1.0.10: a little-endian header { u8 version, u8 flags,
// le16 length, le32 dlt } followed by { le16 type, le16 length, data } fields up to
// `length`, then a frame of link type `dlt` (almost always 105, 802.11).

#include "dissector_set.h"

#include <cstddef>
#include <cstdint>

namespace windscope::dissect {

namespace {

constexpr std::size_t kHeaderLength = 8, kFieldHeaderLength = 4;
constexpr std::uint8_t kFlagAligned = 0x01; // fields padded to 32-bit boundaries

// Field types (specification section 4).
constexpr std::uint16_t kField80211Common = 2, kField80211nMac = 3, kField80211nMacPhy = 4;
constexpr std::size_t k80211CommonLength = 20, k80211nMacLength = 12,
                      k80211nMacPhyLength = 48;

// 802.11-Common flags (section 4.1.2).
constexpr std::uint16_t kCommonFcsPresent = 0x0001, kCommonTsftInMs = 0x0002,
                        kCommonFcsInvalid = 0x0004;

// 802.11n MAC extension flags (section 4.1.3): bit 1 HT40, bit 2 short GI, bit 4
// "aggregate" (part of an A-MPDU).
constexpr std::uint32_t kMacHt40 = 0x02, kMacShortGi = 0x04, kMacAggregate = 0x10;

// 802.11-Common: le64 TSFT, le16 flags, le16 rate (500 kbps), le16 channel frequency,
// le16 channel flags, u8 FHSS hop set, u8 FHSS pattern, s8 dBm signal, s8 dBm noise.
// Zero TSFT, rate and frequency mean "not supplied"; so do -128 and, in practice, 0
// for the dBm values (Wireshark's packet-ppi.c makes the same allowance).
void read80211Common(ByteView f, RadioInfo& r)
{
    const std::uint64_t tsft = f.le64(0);
    const std::uint16_t flags = f.le16(8);
    if (tsft != 0) {
        r.hasTsft = true;
        r.tsft = (flags & kCommonTsftInMs) ? tsft * 1000 : tsft;
    }
    // Map the FCS facts onto the radiotap flags that the rest of Windscope reads.
    r.hasFlags = true;
    if (flags & kCommonFcsPresent)
        r.flags |= RadioInfo::kFlagFcsAtEnd;
    if (flags & kCommonFcsInvalid)
        r.flags |= RadioInfo::kFlagBadFcs;
    r.dataRateKbps = f.le16(10) * 500u;
    r.channelFreqMhz = f.le16(12);
    r.channelFlags = f.le16(14);
    const auto signal = static_cast<std::int8_t>(f.u8(18));
    const auto noise = static_cast<std::int8_t>(f.u8(19));
    if (signal != -128 && signal != 0) {
        r.hasSignal = true;
        r.signalDbm = signal;
    }
    if (noise != -128 && noise != 0) {
        r.hasNoise = true;
        r.noiseDbm = noise;
    }
}

// 802.11n MAC (and the first 12 octets of MAC+PHY): le32 flags, le32 A-MPDU ID,
// u8 delimiter count, 3 reserved. MAC+PHY continues with u8 MCS, u8 stream count.
void read80211nMac(ByteView f, bool withPhy, RadioInfo& r)
{
    const std::uint32_t flags = f.le32(0);
    if (flags & kMacAggregate) {
        r.hasAmpdu = true;
        r.ampduReference = f.le32(4);
    }
    if (withPhy) {
        r.hasMcs = true;
        r.mcsIndex = f.u8(9);
        r.mcsBandwidth = (flags & kMacHt40) ? 1 : 0;
        r.mcsShortGi = flags & kMacShortGi;
    }
}

std::size_t capturedFcsBytes(const Frame& frame)
{
    const std::uint32_t cut = frame.originalLength > frame.capturedLength
                                  ? frame.originalLength - frame.capturedLength
                                  : 0;
    return cut >= 4 ? 0 : 4 - cut;
}

void decodePpi(const DissectorSet& set, ByteView bytes, Frame& frame)
{
    if (!bytes.has(0, kHeaderLength)) {
        frame.annotate(Severity::Error, "ppi.length", "PPI header shorter than 8 bytes");
        return;
    }
    if (bytes.u8(0) != 0) {
        frame.annotate(Severity::Error, "ppi.version", "unknown PPI version");
        return;
    }
    const std::uint8_t headerFlags = bytes.u8(1);
    const std::size_t length = bytes.le16(2);
    const std::uint32_t dlt = bytes.le32(4);
    if (length < kHeaderLength || length > bytes.size()) {
        frame.annotate(Severity::Error, "ppi.length", "PPI length outside the captured bytes");
        return;
    }

    RadioInfo radio;
    bool haveRadio = false;
    std::size_t offset = kHeaderLength;
    while (offset + kFieldHeaderLength <= length) {
        const std::uint16_t type = bytes.le16(offset);
        const std::size_t fieldLength = bytes.le16(offset + 2);
        const std::size_t data = offset + kFieldHeaderLength;
        if (data + fieldLength > length) {
            frame.annotate(Severity::Error, "ppi.field_len", "PPI field runs past the header");
            break;
        }
        const ByteView f = bytes.sub(data, fieldLength);
        if (type == kField80211Common && fieldLength == k80211CommonLength) {
            read80211Common(f, radio);
            haveRadio = true;
        } else if (type == kField80211nMac && fieldLength == k80211nMacLength) {
            read80211nMac(f, false, radio);
            haveRadio = true;
        } else if (type == kField80211nMacPhy && fieldLength == k80211nMacPhyLength) {
            read80211nMac(f, true, radio);
            haveRadio = true;
        } else if (type == kField80211Common || type == kField80211nMac ||
                   type == kField80211nMacPhy) {
            frame.annotate(Severity::Error, "ppi.invalid_length", "PPI 802.11 field length wrong");
        }
        offset = data + fieldLength;
        if (headerFlags & kFlagAligned)
            offset = (offset + 3) & ~std::size_t{3};
    }
    if (haveRadio) {
        frame.hasRadio = true;
        frame.radio = radio;
    }

    ByteView payload = bytes.from(length);
    if (dlt == static_cast<std::uint32_t>(linktype::kIeee80211)) {
        if (haveRadio && radio.fcsAtEnd()) {
            const std::size_t fcs = capturedFcsBytes(frame);
            if (payload.size() >= fcs)
                payload = payload.sub(0, payload.size() - fcs);
        }
        decodeWlan(set, payload, frame);
        return;
    }
    // Other link types (Ethernet, for instance) go to their own decoder; PPI inside
    // PPI is refused so a crafted packet cannot recurse without bound.
    if (dlt == static_cast<std::uint32_t>(linktype::kPpi))
        return;
    if (DecodeFn fn = set.linkTypes.find(dlt))
        fn(set, payload, frame);
}

} // namespace

void registerPpi(DissectorSet& set)
{
    set.linkTypes.add(linktype::kPpi, decodePpi);
}

} // namespace windscope::dissect
