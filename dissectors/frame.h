// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The per-frame decode scratch filled by the protocol decoders during the single
// streaming pass. It lives on the stack of the ingest loop and is reset for every
// frame; only the columns that analysis needs are copied into the tables.

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

namespace windscope::dissect {

struct MacAddress
{
    std::array<std::uint8_t, 6> bytes{};
    bool operator==(const MacAddress&) const = default;
    std::string toString() const;
};

// An IPv4 or IPv6 address. IPv4 is kept in the first four bytes.
struct IpAddress
{
    std::array<std::uint8_t, 16> bytes{};
    std::uint8_t family = 0; // 4 or 6; 0 = none
    bool operator==(const IpAddress&) const = default;
    std::string toString() const;
};

enum class Severity : std::uint8_t { Note, Warning, Error };

// Traffic a decoder recognised but could not open: a tunnel whose payload is encrypted,
// fragmented or of a kind Windscope does not decode. Counted per kind and named in the
// capture's warnings, so a capture of such traffic never reads as empty.
enum class Undecoded : std::uint8_t {
    None,
    CapwapDtls,         // CAPWAP data channel with DTLS (RFC 5415 4.1, type 1)
    CapwapFragment,     // a later CAPWAP fragment (RFC 5415 4.4.2): needs reassembly
    CapwapBinding,      // a CAPWAP native frame of another wireless binding than 802.11
    GreVersion,         // GRE version 1 (PPTP, RFC 2637) or an unknown version
    GreProtocol,        // GRE protocol type that no decoder takes
    L2tp,               // L2TP (RFC 2661 / 3931)
    Esp,                // IPsec ESP (RFC 4303): encrypted
    TzspEncapsulation,  // TZSP encapsulation other than Ethernet, 802.11, Prism, AVS
    ArubaErmFormat,     // Aruba ERM payload of no recognisable format (AirMagnet, type 2)
    PeekremoteVersion,  // PEEKREMOTE new header whose size is unusable
    LwappData,          // LWAPP data (RFC 5412, UDP 12222): 802.11 frames in Cisco's pre-CAPWAP tunnel
    Count
};
inline constexpr std::size_t kUndecodedKinds = static_cast<std::size_t>(Undecoded::Count);
// What a warning calls the kind ("GRE version 1 (PPTP)").
const char* undecodedName(Undecoded kind);

// What went wrong in a frame, Wireshark expert-info style: the field named is a
// public field name ("radiotap.present", "ip.len", "tcp.hdr_len").
struct Annotation
{
    Severity severity = Severity::Error;
    const char* field = "";
    const char* message = "";
};

// IEEE 802.11 radio information from radiotap, PPI, Prism or AVS headers.
struct RadioInfo
{
    // Wireshark's radiotap.flags bits (radiotap field 1).
    static constexpr std::uint8_t kFlagCfp = 0x01, kFlagShortPreamble = 0x02, kFlagWep = 0x04,
                                  kFlagFragmented = 0x08, kFlagFcsAtEnd = 0x10,
                                  kFlagDataPad = 0x20, kFlagBadFcs = 0x40,
                                  kFlagShortGi = 0x80;
    bool hasTsft = false;
    std::uint64_t tsft = 0;           // radiotap.mactime, microseconds
    bool hasFlags = false;
    std::uint8_t flags = 0;           // radiotap.flags
    std::uint32_t dataRateKbps = 0;   // legacy rate, MCS/VHT/HE rate when computable; 0 unknown
    std::uint16_t channelFreqMhz = 0; // radiotap.channel.freq
    std::uint16_t channelFlags = 0;
    bool hasSignal = false;
    std::int8_t signalDbm = 0;        // radiotap.dbm_antsignal
    bool hasNoise = false;
    std::int8_t noiseDbm = 0;         // radiotap.dbm_antnoise
    bool hasAntenna = false;
    std::uint8_t antenna = 0;
    bool hasMcs = false;
    std::uint8_t mcsIndex = 0;
    std::uint8_t mcsBandwidth = 0;    // 0: 20, 1: 40, 2: 20L, 3: 20U
    bool mcsShortGi = false;
    bool hasAmpdu = false;
    std::uint32_t ampduReference = 0; // radiotap.ampdu.reference
    std::uint16_t ampduFlags = 0;
    bool hasVht = false;
    std::uint8_t vhtMcs = 0, vhtNss = 0, vhtBandwidthMhz = 0;
    bool hasHe = false;
    std::uint8_t heMcs = 0;
    bool fcsAtEnd() const { return hasFlags && (flags & kFlagFcsAtEnd); }
    bool badFcs() const { return hasFlags && (flags & kFlagBadFcs); }
};

struct WlanInfo
{
    std::uint16_t fc = 0;             // frame control as on air (little-endian value)
    std::uint8_t type = 0;            // wlan.fc.type: 0 mgmt, 1 ctrl, 2 data, 3 ext
    std::uint8_t subtype = 0;         // wlan.fc.subtype
    std::uint8_t flags = 0;           // wlan.flags byte (second octet of frame control)
    std::uint16_t duration = 0;       // wlan.duration
    std::uint8_t addressCount = 0;    // how many of addr1..addr4 are present
    MacAddress addr1, addr2, addr3, addr4;
    bool hasSequence = false;
    std::uint16_t sequence = 0;       // wlan.seq
    std::uint8_t fragment = 0;        // wlan.frag
    bool hasQos = false;
    std::uint16_t qosControl = 0;     // wlan.qos
    bool hasHtControl = false;
    bool amsdu = false;               // wlan.qos.amsdupresent
    std::uint32_t headerLength = 0;

    bool toDs() const { return flags & 0x01; }
    bool fromDs() const { return flags & 0x02; }
    bool moreFragments() const { return flags & 0x04; }
    bool retry() const { return flags & 0x08; }
    bool powerManagement() const { return flags & 0x10; }
    bool moreData() const { return flags & 0x20; }
    bool isProtected() const { return flags & 0x40; }
    bool order() const { return flags & 0x80; }
    std::uint8_t tid() const { return static_cast<std::uint8_t>(qosControl & 0x0f); }
    // Wireshark's wlan.fc.type_subtype: type << 4 | subtype; control frame extensions
    // (type 1, subtype 6) carry a further nibble in bits 8-11 (802.11-2020 9.2.4.1.3).
    std::uint16_t typeSubtype() const
    {
        if (type == 1 && subtype == 6)
            return static_cast<std::uint16_t>(0x160 | (flags & 0x0f));
        return static_cast<std::uint16_t>(type << 4 | subtype);
    }
};

// What Windscope keeps of a management frame body (IEEE 802.11-2020 9.3.3): the fixed
// fields that say who joins or leaves a BSS and why, and the two elements an
// inventory needs, SSID (9.4.2.2) and DS Parameter Set (9.4.2.4). Elements are walked
// only as far as they were captured; a short body leaves fields absent, never wrong.
struct ManagementInfo
{
    std::uint16_t beaconIntervalTu = 0;    // wlan.fixed.beacon, 0 = absent
    std::uint16_t capability = 0;          // wlan.fixed.capabilities
    std::uint16_t statusCode = 0xffff;     // wlan.fixed.status_code, 0xffff = absent
    std::uint16_t reasonCode = 0;          // wlan.fixed.reason_code, 0 = absent (reserved value)
    std::uint16_t authAlgorithm = 0xffff;  // wlan.fixed.auth.alg, 0xffff = absent
    std::uint16_t authSequence = 0;        // wlan.fixed.auth_seq
    std::uint8_t actionCategory = 0xff;    // wlan.fixed.category_code, 0xff = absent
    std::uint8_t actionCode = 0xff;        // wlan.fixed.action_code (per category)
    bool hasSsid = false;
    std::uint8_t ssidLength = 0;
    std::array<std::uint8_t, 32> ssid{};   // wlan.ssid
    std::uint8_t dsChannel = 0;            // wlan.ds.current_channel, 0 = absent
};

struct IpInfo
{
    std::uint8_t version = 0;
    IpAddress src, dst;
    std::uint8_t protocol = 0;        // ip.proto / ipv6.nxt after extension headers
    std::uint8_t ttl = 0;
    std::uint16_t id = 0;
    bool moreFragments = false;
    std::uint16_t fragmentOffset = 0; // in bytes
    std::uint32_t payloadLength = 0;  // from the header's length fields
};

struct TcpInfo
{
    // tcp.flags bits
    static constexpr std::uint16_t kFin = 0x001, kSyn = 0x002, kRst = 0x004, kPsh = 0x008,
                                   kAck = 0x010, kUrg = 0x020, kEce = 0x040, kCwr = 0x080,
                                   kNs = 0x100;
    std::uint16_t srcPort = 0, dstPort = 0;
    std::uint32_t seq = 0, ack = 0;
    std::uint16_t flags = 0;
    std::uint16_t window = 0;         // tcp.window_size_value, unscaled
    std::uint8_t headerLength = 0;
    std::uint32_t payloadLength = 0;  // tcp.len (from the IP length, not the captured length)
    std::uint16_t mss = 0;            // tcp.options.mss_val, 0 = absent
    std::int8_t windowScale = -1;     // tcp.options.wscale.shift, -1 = absent
    bool sackPermitted = false;
    bool hasTimestamps = false;
    std::uint32_t tsVal = 0, tsEcr = 0;
    std::uint8_t sackBlockCount = 0;
    std::array<std::uint32_t, 8> sackBlocks{}; // left/right edge pairs
};

// One frame being decoded. Layers set their has* flag when their header was read.
struct Frame
{
    std::uint64_t number = 0;     // 1-based, as Wireshark's frame.number
    std::int64_t epochNs = 0;     // absolute capture time
    std::uint32_t capturedLength = 0;
    std::uint32_t originalLength = 0;
    int linkType = 0;
    // What reset() clears sits in the first cache line with the above, and the layers
    // follow in the order a frame fills them, the rare ones last: frames pass between
    // threads in a ring larger than a core's cache, and each line written is a miss
    // (an 802.11 ACK now writes three lines, a TCP segment over 802.11 five; seven
    // before).
    bool hasRadio = false;
    bool hasWlan = false;
    bool hasManagement = false; // a management frame body was read
    bool hasIp = false;
    std::uint8_t ipDepth = 0; // IP-in-IP nesting, bounded so hostile tunnels stay shallow
    bool hasTcp = false;
    std::uint8_t annotationCount = 0;
    Undecoded undecoded = Undecoded::None; // the innermost tunnel that could not be opened

    RadioInfo radio;
    WlanInfo wlan;
    IpInfo ip;
    TcpInfo tcp;
    ManagementInfo management;

    static constexpr std::size_t kMaxAnnotations = 4;
    std::array<Annotation, kMaxAnnotations> annotations{};
    bool malformed() const;

    void annotate(Severity severity, const char* field, const char* message)
    {
        if (annotationCount < kMaxAnnotations)
            annotations[annotationCount++] = {severity, field, message};
    }
    void reset(std::uint64_t frameNumber, std::int64_t epoch, std::uint32_t capLen,
               std::uint32_t origLen, int link)
    {
        // Each decoder re-initialises its own layer struct before it fills it, so only
        // the presence flags need clearing here (a full reset is hot: ~300 bytes per frame).
        hasRadio = hasWlan = hasManagement = hasIp = hasTcp = false;
        ipDepth = 0;
        undecoded = Undecoded::None;
        annotationCount = 0;
        number = frameNumber;
        epochNs = epoch;
        capturedLength = capLen;
        originalLength = origLen;
        linkType = link;
    }
};

} // namespace windscope::dissect
