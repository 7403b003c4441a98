// SPDX-License-Identifier: GPL-3.0-or-later
// Prism monitor header (link type 119) and the AVS "wlancap" header (link type 163),
// both from the linux-wlan-ng driver family, each followed by an 802.11 frame.
//
// Prism: { u32 msgcode, u32 msglen, char devname[16] } then items of
// { u32 did, u16 status, u16 len, u32 data } up to msglen, in host byte order of the
// capturing machine. AVS (wlancap, big-endian): { u32 version, u32 length,
// u64 mactime, u64 hosttime, u32 phytype, u32 channel, u32 datarate, u32 antenna,
// u32 priority, u32 ssi_type, s32 ssi_signal, s32 ssi_noise, u32 preamble,
// u32 encoding } (v1, 64 bytes; v2 appends sequence, drops and receiver address).
// Some DLT 119 captures actually carry the AVS header; its magic tells them apart.

#include "dissector_set.h"

#include <cstddef>
#include <cstdint>

namespace windscope::dissect {

// Channel number to centre frequency (IEEE 802.11-2020 15.4.4.3 and 19.3.15.2:
// 2.4 GHz channels 1-13 are 2407 + 5n, channel 14 is 2484; 5 GHz channels 5000 + 5n).
std::uint16_t channelToMhz(std::uint32_t channel)
{
    if (channel == 14)
        return 2484;
    if (channel >= 1 && channel <= 13)
        return static_cast<std::uint16_t>(2407 + 5 * channel);
    if (channel >= 15 && channel <= 200)
        return static_cast<std::uint16_t>(5000 + 5 * channel);
    return 0;
}

namespace {

constexpr std::uint32_t kAvsMagicV1 = 0x80211001, kAvsMagicV2 = 0x80211002;
constexpr std::size_t kAvsV1Length = 64;

// Prism message codes: DIDmsg_lnxind_wlansniffrm in its two driver generations.
constexpr std::uint32_t kPrismType1MsgCode = 0x00000044, kPrismType2MsgCode = 0x00000041;
constexpr std::size_t kPrismFixedLength = 24, kPrismItemLength = 12;

// Item number n of the sniff message: the DID is n << 16 | 0x44 in type 1 and
// n << 12 | 0x41 in type 2 (linux-wlan-ng p80211metadef.h).
enum PrismItem : std::uint32_t {
    kHostTime = 1, kMacTime = 2, kChannel = 3, kRssi = 4, kSq = 5, kSignal = 6, kNoise = 7,
    kRate = 8, kIsTx = 9, kFrameLength = 10,
};

std::uint32_t prismItemNumber(std::uint32_t did)
{
    if ((did & 0xffff) == kPrismType1MsgCode)
        return did >> 16;
    if ((did & 0xfff) == kPrismType2MsgCode)
        return did >> 12;
    return 0;
}

struct Reader
{
    ByteView bytes;
    bool bigEndian;
    std::uint32_t u32(std::size_t o) const { return bigEndian ? bytes.be32(o) : bytes.le32(o); }
    std::uint16_t u16(std::size_t o) const { return bigEndian ? bytes.be16(o) : bytes.le16(o); }
};

void decodeAvs(const DissectorSet& set, ByteView bytes, Frame& frame)
{
    if (!bytes.has(0, 8)) {
        frame.annotate(Severity::Error, "wlancap.length", "AVS header truncated");
        return;
    }
    const std::size_t length = bytes.be32(4);
    if (length < kAvsV1Length || length > bytes.size()) {
        frame.annotate(Severity::Error, "wlancap.length", "AVS length outside the captured bytes");
        return;
    }
    RadioInfo& r = frame.radio;
    r = RadioInfo{};
    frame.hasRadio = true;
    r.hasTsft = true;
    r.tsft = bytes.be64(8);
    r.channelFreqMhz = channelToMhz(bytes.be32(28));
    r.dataRateKbps = bytes.be32(32) * 100u; // 100 kbps units
    r.hasAntenna = true;
    r.antenna = static_cast<std::uint8_t>(bytes.be32(36));
    // ssi_type 2 is dBm; 1 (normalised RSSI) and 3 (raw RSSI) are not comparable.
    if (bytes.be32(44) == 2) {
        r.hasSignal = true;
        r.signalDbm = static_cast<std::int8_t>(static_cast<std::int32_t>(bytes.be32(48)));
        r.hasNoise = true;
        r.noiseDbm = static_cast<std::int8_t>(static_cast<std::int32_t>(bytes.be32(52)));
    }
    decodeWlan(set, bytes.from(length), frame);
}

void decodePrism(const DissectorSet& set, ByteView bytes, Frame& frame)
{
    if (!bytes.has(0, 8)) {
        frame.annotate(Severity::Error, "prism.msglen", "Prism header truncated");
        return;
    }
    const std::uint32_t magic = bytes.be32(0);
    if (magic == kAvsMagicV1 || magic == kAvsMagicV2) {
        decodeAvs(set, bytes, frame);
        return;
    }

    // The header is in the capturing host's byte order. The message code says which
    // (as Wireshark's packet-prism.c decides); failing that, the order in which
    // msglen is a plausible header length.
    auto isMsgCode = [](std::uint32_t c) {
        return c == kPrismType1MsgCode || c == kPrismType2MsgCode;
    };
    auto plausible = [&](std::size_t len) {
        return len >= kPrismFixedLength && len <= bytes.size();
    };
    bool bigEndian;
    if (isMsgCode(bytes.le32(0))) {
        bigEndian = false;
    } else if (isMsgCode(bytes.be32(0))) {
        bigEndian = true;
    } else if (plausible(bytes.le32(4))) {
        bigEndian = false;
        frame.annotate(Severity::Note, "prism.msgcode", "unknown Prism message code");
    } else if (plausible(bytes.be32(4))) {
        bigEndian = true;
        frame.annotate(Severity::Note, "prism.msgcode", "unknown Prism message code");
    } else {
        frame.annotate(Severity::Error, "prism.msglen", "Prism msglen outside the captured bytes");
        return;
    }
    const Reader in{bytes, bigEndian};
    const std::size_t msglen = in.u32(4);
    if (!plausible(msglen)) {
        frame.annotate(Severity::Error, "prism.msglen", "Prism msglen outside the captured bytes");
        return;
    }

    RadioInfo& r = frame.radio;
    r = RadioInfo{};
    frame.hasRadio = true;
    for (std::size_t o = kPrismFixedLength; o + kPrismItemLength <= msglen; o += kPrismItemLength) {
        // status 0 means "supplied" (linux-wlan-ng p80211msg.h P80211ENUM_msgitem_status).
        if (in.u16(o + 4) != 0)
            continue;
        const std::uint32_t value = in.u32(o + 8);
        switch (prismItemNumber(in.u32(o))) {
        case kMacTime:
            r.hasTsft = true;
            r.tsft = value;
            break;
        case kChannel:
            r.channelFreqMhz = channelToMhz(value);
            break;
        case kRssi:
            r.hasSignal = true;
            r.signalDbm = static_cast<std::int8_t>(static_cast<std::int32_t>(value));
            break;
        case kNoise:
            r.hasNoise = true;
            r.noiseDbm = static_cast<std::int8_t>(static_cast<std::int32_t>(value));
            break;
        case kRate:
            r.dataRateKbps = value * 500u; // 500 kbps units
            break;
        default:
            break; // host time, signal quality, raw signal, tx flag, frame length
        }
    }
    decodeWlan(set, bytes.from(msglen), frame);
}

} // namespace

void registerPrism(DissectorSet& set)
{
    set.linkTypes.add(linktype::kPrism, decodePrism);
    set.linkTypes.add(linktype::kAvs, decodeAvs);
}

} // namespace windscope::dissect
