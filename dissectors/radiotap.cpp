// SPDX-License-Identifier: GPL-3.0-or-later
// Radiotap capture header (link type 127), as defined at radiotap.org.
//
// The header is { u8 it_version, u8 it_pad, le16 it_len, le32 it_present[...] } followed
// by the fields announced in the presence bitmaps, each aligned to its natural size
// relative to the start of the radiotap header. The 802.11 frame starts at it_len.

#include "dissector_set.h"

#include <array>
#include <cstddef>
#include <cstdint>

namespace windscope::dissect {

namespace {

// Presence bit numbers (radiotap.org "Defined fields").
enum RadiotapField : unsigned {
    kTsft = 0, kFlags = 1, kRate = 2, kChannel = 3, kFhss = 4, kDbmAntSignal = 5,
    kDbmAntNoise = 6, kLockQuality = 7, kTxAttenuation = 8, kDbTxAttenuation = 9,
    kDbmTxPower = 10, kAntenna = 11, kDbAntSignal = 12, kDbAntNoise = 13, kRxFlags = 14,
    kTxFlags = 15, kRtsRetries = 16, kDataRetries = 17, kXChannel = 18, kMcs = 19,
    kAmpduStatus = 20, kVht = 21, kTimestamp = 22, kHe = 23, kHeMu = 24, kHeMuOtherUser = 25,
    kZeroLengthPsdu = 26, kLSig = 27, kTlv = 28, kRadiotapNamespace = 29, kVendorNamespace = 30,
    kExt = 31,
};

struct FieldLayout
{
    std::uint8_t align;
    std::uint8_t size;
};

// Alignment and size of every field defined in the radiotap namespace, indexed by
// presence bit. TLVs (bit 28) have no fixed size: they fill the rest of the header.
constexpr std::array<FieldLayout, kTlv> kLayout = {{
    {8, 8},  // 0 TSFT: u64 mactime
    {1, 1},  // 1 Flags
    {1, 1},  // 2 Rate, 500 kbps units
    {2, 4},  // 3 Channel: u16 frequency, u16 flags
    {2, 2},  // 4 FHSS: u8 hop set, u8 hop pattern
    {1, 1},  // 5 dBm antenna signal
    {1, 1},  // 6 dBm antenna noise
    {2, 2},  // 7 Lock quality
    {2, 2},  // 8 TX attenuation
    {2, 2},  // 9 dB TX attenuation
    {1, 1},  // 10 dBm TX power
    {1, 1},  // 11 Antenna
    {1, 1},  // 12 dB antenna signal
    {1, 1},  // 13 dB antenna noise
    {2, 2},  // 14 RX flags
    {2, 2},  // 15 TX flags
    {1, 1},  // 16 RTS retries
    {1, 1},  // 17 data retries
    {4, 8},  // 18 XChannel: u32 flags, u16 frequency, u8 channel, u8 max power
    {1, 3},  // 19 MCS: u8 known, u8 flags, u8 mcs
    {4, 8},  // 20 A-MPDU status: u32 reference, u16 flags, u8 delimiter CRC, u8 reserved
    {2, 12}, // 21 VHT
    {8, 12}, // 22 timestamp: u64, u16 accuracy, u8 unit/position, u8 flags
    {2, 12}, // 23 HE: six u16 data words
    {2, 12}, // 24 HE-MU: u16 flags1, u16 flags2, u8 RU channel1[4], u8 RU channel2[4]
    {2, 6},  // 25 HE-MU-other-user
    {1, 1},  // 26 0-length PSDU
    {2, 4},  // 27 L-SIG: u16 data1, u16 data2
}};

// Every radiotap alignment is a power of two; a mask, not a division, on the hot path.
constexpr std::size_t alignUp(std::size_t offset, std::size_t align)
{
    return (offset + align - 1) & ~(align - 1);
}

// Data subcarriers per bandwidth (20, 40, 80, 160 MHz): 802.11-2020 Table 19-6 and
// Table 21-5.
constexpr std::array<std::uint32_t, 4> kDataSubcarriers = {52, 108, 234, 468};

// Coded bits per subcarrier (N_BPSCS) and coding rate (numerator / denominator)
// for MCS 0-9, 802.11-2020 Table 21-29 onwards.
struct Modulation
{
    std::uint32_t bitsPerSubcarrier, rateNum, rateDen;
};
constexpr std::array<Modulation, 10> kModulation = {{
    {1, 1, 2}, {2, 1, 2}, {2, 3, 4}, {4, 1, 2}, {4, 3, 4},
    {6, 2, 3}, {6, 3, 4}, {6, 5, 6}, {8, 3, 4}, {8, 5, 6},
}};

// Data rate in kbps of an HT or VHT PPDU: N_DBPS / T_SYM with T_SYM 4 us (long GI)
// or 3.6 us (short GI). Returns 0 when N_DBPS is not an integer, which is exactly the
// set of MCS/bandwidth/NSS combinations 802.11-2020 21.5 excludes (for example VHT
// MCS 9 at 20 MHz with one stream).
std::uint32_t ofdmRateKbps(unsigned mcs, unsigned bandwidthIndex, unsigned nss, bool shortGi)
{
    if (mcs >= kModulation.size() || bandwidthIndex >= kDataSubcarriers.size() || nss == 0)
        return 0;
    const Modulation m = kModulation[mcs];
    const std::uint32_t codedBits = kDataSubcarriers[bandwidthIndex] * m.bitsPerSubcarrier * nss;
    if (codedBits * m.rateNum % m.rateDen != 0)
        return 0;
    const std::uint32_t ndbps = codedBits * m.rateNum / m.rateDen;
    // The excluded VHT combinations whose N_DBPS is integral but whose per-encoder
    // share is not (802.11-2020 Table 21-38/21-46/21-54).
    if (mcs == 6 && bandwidthIndex == 2 && (nss == 3 || nss == 7))
        return 0;
    if (mcs == 9 && ((bandwidthIndex == 2 && nss == 6) || (bandwidthIndex == 3 && nss == 3)))
        return 0;
    return shortGi ? ndbps * 10000 / 36 : ndbps * 250;
}

// Radiotap VHT bandwidth code (0-25) to the bandwidth actually occupied by the PPDU,
// as an index into kDataSubcarriers: code 2 is "20 MHz in the lower half of a
// 40 MHz channel", so it is 20 MHz wide (radiotap.org VHT field).
constexpr std::array<std::uint8_t, 26> kVhtBandwidthIndex = {
    0, 1, 0, 0, 2, 1, 1, 0, 0, 0, 0, 3, 2, 2, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0};

// Records which fields were already taken: later presence words (one per receive
// chain on Linux) repeat fields such as the antenna signal, and the first one, in
// the primary word, is the combined value that Wireshark's wlan_radio reports.
struct Seen
{
    std::uint32_t bits = 0;
    bool first(unsigned field)
    {
        const std::uint32_t bit = 1u << field;
        const bool isFirst = !(bits & bit);
        bits |= bit;
        return isFirst;
    }
};

struct Decoded
{
    RadioInfo& radio;
    Seen seen;
    bool hasLegacyRate = false;
    bool vhtShortGi = false;
    unsigned vhtBandwidthIndex = 0;
};

// The bytes of fields whose whole extent both walks checked against it_len before
// storing them, read without a second check (little-endian, as radiotap is).
class CheckedFields
{
public:
    explicit CheckedFields(ByteView header) : m_data(header.data()) {}
    std::uint8_t u8(std::size_t o) const { return m_data[o]; }
    std::uint16_t le16(std::size_t o) const { return static_cast<std::uint16_t>(m_data[o + 1] << 8 | m_data[o]); }
    std::uint32_t le32(std::size_t o) const { return std::uint32_t(le16(o + 2)) << 16 | le16(o); }
    std::uint64_t le64(std::size_t o) const { return std::uint64_t(le32(o + 4)) << 32 | le32(o); }

private:
    const std::uint8_t* m_data;
};

// Stores one field that is known to lie within the header. Inlined into both walks:
// the call cost as much as the store on the common path.
[[gnu::always_inline]] inline void storeField(unsigned field, CheckedFields h, std::size_t o, Decoded& d)
{
    RadioInfo& r = d.radio;
    switch (field) {
    case kTsft:
        r.hasTsft = true;
        r.tsft = h.le64(o);
        break;
    case kFlags:
        r.hasFlags = true;
        r.flags = h.u8(o);
        break;
    case kRate:
        // 500 kbps units. Some old drivers set bit 7 to mean an MCS index
        // (Wireshark's radiotap.interpret_high_rates_as_mcs, off by default); we do not.
        d.hasLegacyRate = h.u8(o) != 0;
        r.dataRateKbps = h.u8(o) * 500u;
        break;
    case kChannel:
        r.channelFreqMhz = h.le16(o);
        r.channelFlags = h.le16(o + 2);
        break;
    case kDbmAntSignal:
        r.hasSignal = true;
        r.signalDbm = static_cast<std::int8_t>(h.u8(o));
        break;
    case kDbmAntNoise:
        r.hasNoise = true;
        r.noiseDbm = static_cast<std::int8_t>(h.u8(o));
        break;
    case kAntenna:
        r.hasAntenna = true;
        r.antenna = h.u8(o);
        break;
    case kXChannel:
        // Only when the plain Channel field is absent: that is what radiotap.channel.freq
        // shows, and both carry the same frequency when both are present.
        if (!(d.seen.bits & (1u << kChannel))) {
            r.channelFreqMhz = h.le16(o + 4);
            r.channelFlags = static_cast<std::uint16_t>(h.le32(o) & 0xffff);
        }
        break;
    case kMcs: {
        // radiotap MCS: known (0x01 bandwidth, 0x02 index, 0x04 guard interval), flags
        // (bits 0-1 bandwidth, bit 2 short GI), MCS index.
        const std::uint8_t known = h.u8(o), flags = h.u8(o + 1);
        if (!(known & 0x02))
            break;
        r.hasMcs = true;
        r.mcsIndex = h.u8(o + 2);
        r.mcsBandwidth = (known & 0x01) ? static_cast<std::uint8_t>(flags & 0x03) : 0;
        r.mcsShortGi = (known & 0x04) && (flags & 0x04);
        break;
    }
    case kAmpduStatus:
        r.hasAmpdu = true;
        r.ampduReference = h.le32(o);
        r.ampduFlags = h.le16(o + 4);
        break;
    case kVht: {
        // known u16 (0x0004 GI known, 0x0040 bandwidth known), flags u8 (0x04 short
        // GI), bandwidth u8, mcs_nss[4] (high nibble MCS, low nibble NSS; NSS 0 means
        // the user is absent), coding, group id, partial AID.
        const std::uint16_t known = h.le16(o);
        const std::uint8_t flags = h.u8(o + 2);
        const std::uint8_t bandwidth = h.u8(o + 3) & 0x1f;
        const std::uint8_t mcsNss = h.u8(o + 4);
        if ((mcsNss & 0x0f) == 0)
            break;
        r.hasVht = true;
        r.vhtMcs = static_cast<std::uint8_t>(mcsNss >> 4);
        r.vhtNss = static_cast<std::uint8_t>(mcsNss & 0x0f);
        d.vhtBandwidthIndex = (known & 0x0040) && bandwidth < kVhtBandwidthIndex.size()
                                  ? kVhtBandwidthIndex[bandwidth]
                                  : 0;
        r.vhtBandwidthMhz = static_cast<std::uint8_t>(20u << d.vhtBandwidthIndex);
        d.vhtShortGi = (known & 0x0004) && (flags & 0x04);
        break;
    }
    case kHe: {
        // data1 bit 5: data MCS known; data3 bits 8-11: data MCS (radiotap.org HE).
        const std::uint16_t data1 = h.le16(o), data3 = h.le16(o + 4);
        if (data1 & 0x0020) {
            r.hasHe = true;
            r.heMcs = static_cast<std::uint8_t>((data3 >> 8) & 0x0f);
        }
        break;
    }
    default:
        // Walked for its size only: nothing Windscope analyses.
        break;
    }
}

void readField(unsigned field, ByteView h, std::size_t o, Decoded& d)
{
    if (d.seen.first(field))
        storeField(field, CheckedFields(h), o, d);
}

// Where the fields of a header with a single presence word lie, so that the walk with
// its alignment and bounds arithmetic runs once per layout rather than once per frame:
// a capture repeats a handful of layouts (data frames and acks from one driver, say).
struct SingleWordLayout
{
    std::uint32_t present = ~0u; // no header has every bit set, so this matches none
    std::size_t end = 0;         // just past the last field
    std::array<std::uint8_t, kTlv> offset{};
};

// A single word without Ext, TLV or namespace bits announces only fixed-layout fields.
bool singleWordOfFixedFields(std::uint32_t present)
{
    return (present >> kTlv) == 0;
}

const SingleWordLayout& singleWordLayout(std::uint32_t present)
{
    // Per thread, since decoders run on several; a few entries hold the usual mix.
    thread_local std::array<SingleWordLayout, 8> cache;
    SingleWordLayout& layout = cache[(present * 0x9e3779b1u) >> 29];
    if (layout.present != present) {
        layout.present = present;
        std::size_t offset = 8;
        for (std::uint32_t announced = present; announced != 0; announced &= announced - 1) {
            const unsigned field = static_cast<unsigned>(__builtin_ctz(announced));
            offset = alignUp(offset, kLayout[field].align);
            layout.offset[field] = static_cast<std::uint8_t>(offset);
            offset += kLayout[field].size;
        }
        layout.end = offset;
    }
    return layout;
}

void finishRate(Decoded& d)
{
    RadioInfo& r = d.radio;
    if (d.hasLegacyRate)
        return;
    if (r.hasMcs && r.mcsIndex < 32) {
        // HT MCS 0-31: equal modulation on 1-4 streams (802.11-2020 Table 19-27..19-34).
        // Bandwidth 20L/20U (2, 3) are 20 MHz PPDUs.
        r.dataRateKbps = ofdmRateKbps(r.mcsIndex % 8u, r.mcsBandwidth == 1 ? 1u : 0u,
                                      r.mcsIndex / 8u + 1u, r.mcsShortGi);
    } else if (r.hasVht) {
        r.dataRateKbps = r.vhtNss <= 8 ? ofdmRateKbps(r.vhtMcs, d.vhtBandwidthIndex, r.vhtNss,
                                                      d.vhtShortGi)
                                       : 0;
    }
}

// Walks the presence bitmaps and the fields they announce. Problems stop the walk
// but not the frame: the 802.11 frame is still found at it_len.
void walkFields(ByteView header, Frame& frame, Decoded& d)
{
    const std::uint32_t first = header.le32(4);
    if (singleWordOfFixedFields(first)) {
        const SingleWordLayout& layout = singleWordLayout(first);
        if (layout.end <= header.size()) {
            // Each field appears once: all are first, and Channel (bit 3) is known
            // before XChannel (bit 18) as in the walk below.
            d.seen.bits = first;
            const CheckedFields fields(header);
            for (std::uint32_t announced = first; announced != 0; announced &= announced - 1) {
                const unsigned field = static_cast<unsigned>(__builtin_ctz(announced));
                storeField(field, fields, layout.offset[field], d);
            }
            return;
        }
        // Fields run past it_len: the walk below stops where they do and says so.
    }

    // Presence words chain while bit 31 (Ext) is set.
    std::size_t wordsEnd = 4;
    for (;;) {
        if (!header.has(wordsEnd, 4)) {
            frame.annotate(Severity::Error, "radiotap.present",
                           "presence bitmaps run past it_len");
            return;
        }
        const bool more = header.le32(wordsEnd) & (1u << kExt);
        wordsEnd += 4;
        if (!more)
            break;
    }

    // Walk the fields. Bits 29 (radiotap namespace) and 30 (vendor namespace) in a word
    // say which namespace the next word belongs to; each namespace restarts its bit
    // numbering at 0, while a plain Ext continuation numbers on from 32. A vendor
    // namespace starts with { OUI[3], u8 sub_namespace, le16 skip_length } (align 2)
    // and its data is skipped as a whole: we know no vendor fields.
    std::size_t offset = wordsEnd;
    bool inVendor = false;
    unsigned bitBase = 0;
    bool walking = true;
    for (std::size_t word = 4; word < wordsEnd && walking; word += 4) {
        const std::uint32_t present = header.le32(word);
        // Only the announced fields, lowest bit first: a frame announces a handful of
        // the 29 field bits, and visiting each bit was the hot spot of the decoder.
        std::uint32_t announced = inVendor ? 0 : present & ((1u << kRadiotapNamespace) - 1);
        for (; announced != 0; announced &= announced - 1) {
            const unsigned bit = static_cast<unsigned>(__builtin_ctz(announced));
            const unsigned field = bitBase + bit;
            if (field == kTlv) {
                // The rest of the header is a TLV list (radiotap.org TLV field); no
                // fixed-layout field can follow it.
                walking = false;
                break;
            }
            if (field >= kLayout.size()) {
                frame.annotate(Severity::Warning, "radiotap.present",
                               "unknown radiotap field; later fields not decoded");
                walking = false;
                break;
            }
            offset = alignUp(offset, kLayout[field].align);
            if (!header.has(offset, kLayout[field].size)) {
                frame.annotate(Severity::Error, "radiotap.present",
                               "radiotap fields run past it_len");
                walking = false;
                break;
            }
            readField(field, header, offset, d);
            offset += kLayout[field].size;
        }
        if (!walking)
            break;
        if (present & (1u << kRadiotapNamespace)) {
            inVendor = false;
            bitBase = 0;
        }
        if (present & (1u << kVendorNamespace)) {
            offset = alignUp(offset, 2);
            if (!header.has(offset, 6) || !header.has(offset + 6, header.le16(offset + 4))) {
                frame.annotate(Severity::Error, "radiotap.vendor_data_len",
                               "vendor namespace runs past it_len");
                break;
            }
            offset += 6 + header.le16(offset + 4);
            inVendor = true;
            bitBase = 0;
        } else if (!(present & (1u << kRadiotapNamespace)) && !inVendor) {
            bitBase += 32;
        }
    }
}

// How many bytes of a trailing FCS were captured: a snap length shorter than the
// frame cuts the FCS first.
std::size_t capturedFcsBytes(const Frame& frame)
{
    const std::uint32_t cut = frame.originalLength > frame.capturedLength
                                  ? frame.originalLength - frame.capturedLength
                                  : 0;
    return cut >= 4 ? 0 : 4 - cut;
}

void decodeRadiotap(const DissectorSet& set, ByteView bytes, Frame& frame)
{
    if (!bytes.has(0, 8)) {
        frame.annotate(Severity::Error, "radiotap.length", "radiotap header shorter than 8 bytes");
        return;
    }
    if (bytes.u8(0) != 0) {
        // Only version 0 exists; another version may lay its header out differently.
        frame.annotate(Severity::Error, "radiotap.version", "unknown radiotap version");
        return;
    }
    const std::size_t itLen = bytes.le16(2);
    if (itLen < 8) {
        frame.annotate(Severity::Error, "radiotap.length", "it_len shorter than 8 bytes");
        return;
    }
    if (itLen > bytes.size()) {
        frame.annotate(Severity::Error, "radiotap.length", "it_len beyond the captured bytes");
        return;
    }
    frame.hasRadio = true;
    frame.radio = RadioInfo{};
    Decoded d{frame.radio, {}};
    walkFields(bytes.sub(0, itLen), frame, d);
    finishRate(d);

    // The 802.11 frame sits at it_len whatever happened to the fields.
    ByteView wlan = bytes.from(itLen);
    if (frame.radio.fcsAtEnd()) {
        // Flags 0x10: the frame includes its 4-byte FCS, which is not 802.11 payload.
        const std::size_t fcs = capturedFcsBytes(frame);
        if (wlan.size() >= fcs)
            wlan = wlan.sub(0, wlan.size() - fcs);
    }
    decodeWlan(set, wlan, frame);
}

} // namespace

void registerRadiotap(DissectorSet& set)
{
    set.linkTypes.add(linktype::kRadiotap, decodeRadiotap);
}

} // namespace windscope::dissect
