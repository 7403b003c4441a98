// SPDX-License-Identifier: GPL-3.0-or-later
// UDP (RFC 768), registered as IP protocol 17, and the CAPWAP data channel it can
// carry (RFC 5415 section 4.3, with the IEEE 802.11 binding of RFC 5416).
//
// CAPWAP lives here rather than in its own file because it matters to Windscope only
// as a tunnel: a wireless controller's data channel carries the 802.11 frames, and
// with them the TCP flows, of its access points. UDP writes nothing into the Frame;
// a tunnelled 802.11 frame fills frame.wlan, and its IP/TCP overwrite the outer IP
// header's values: the inner flow is the one analysed.

#include "dissector_set.h"

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

namespace windscope::dissect {

namespace {

constexpr std::uint16_t kCapwapDataPort = 5247; // RFC 5415 section 3.1
constexpr std::uint8_t kCapwapWbidIeee80211 = 1; // RFC 5415 4.3, RFC 5416

void truncated(Frame& frame, const char* field, const char* message)
{
    const bool snapped = frame.capturedLength < frame.originalLength;
    frame.annotate(snapped ? Severity::Note : Severity::Error, field, message);
}

bool versionZero(std::uint8_t fcFirstOctet)
{
    return (fcFirstOctet & 0x3) == 0;
}

// Some access points (Cisco's, and the Huawei one in nDPI's capwap_data sample) send
// the 802.11 Frame Control octets swapped; Wireshark handles them with its
// capwap.swap_fc preference, on by default. Rather than a global switch we look at
// the frame: a protocol version other than 0 is impossible, so when only one order
// yields version 0 that order is right. Data frames through a controller nearly
// always have ToDS or FromDS set, which makes the swapped order's version non-zero,
// so the test decides. When both orders look valid we follow Wireshark's default and
// swap; so the rule reduces to "swap when the second octet reads as version 0".
bool frameControlSwapped(ByteView frame80211)
{
    return frame80211.has(0, 2) && versionZero(frame80211.u8(1));
}

void decodeCapwapData(const DissectorSet& set, ByteView bytes, Frame& frame)
{
    // Preamble (4.1): version (4 bits, must be 0) and type (0: CAPWAP header,
    // 1: DTLS-encrypted, which we cannot read).
    if (!bytes.has(0, 8)) {
        truncated(frame, "capwap.header", "CAPWAP header truncated");
        return;
    }
    const std::uint8_t preamble = bytes.u8(0);
    if (preamble >> 4 != 0) {
        frame.annotate(Severity::Error, "capwap.preamble.version", "unknown CAPWAP version");
        return;
    }
    if ((preamble & 0x0f) != 0) {
        frame.undecoded = Undecoded::CapwapDtls; // DTLS: encrypted
        return;
    }
    // Header (4.3): HLEN(5) RID(5) WBID(5) T F L W M K Flags(3) after the preamble,
    // then Fragment ID (16) and Fragment Offset (13) + reserved (3).
    const std::uint32_t word = bytes.be32(0);
    const std::size_t headerLength = ((word >> 19) & 0x1f) * 4u;
    const std::uint8_t wbid = static_cast<std::uint8_t>((word >> 9) & 0x1f);
    const bool nativeFrame = word & (1u << 8);
    const bool fragmented = word & (1u << 7);
    const bool keepAlive = word & (1u << 3);
    const std::uint16_t fragmentOffset = static_cast<std::uint16_t>(bytes.be16(6) >> 3);
    if (headerLength < 8) {
        frame.annotate(Severity::Error, "capwap.header.length", "CAPWAP HLEN below 8 bytes");
        return;
    }
    if (!bytes.has(0, headerLength)) {
        truncated(frame, "capwap.header.length", "CAPWAP header longer than the packet");
        return;
    }
    // Keep-alives have no payload. Of a fragmented frame only the first fragment
    // holds the headers we read; the rest would need reassembly (4.4.2).
    if (keepAlive)
        return;
    if (fragmented && fragmentOffset != 0) {
        frame.undecoded = Undecoded::CapwapFragment;
        return;
    }
    const ByteView payload = bytes.from(headerLength);
    if (payload.empty())
        return;

    if (!nativeFrame) {
        // T=0: the payload is an IEEE 802.3 frame (4.4.2).
        if (DecodeFn eth = set.linkTypes.find(linktype::kEthernet))
            eth(set, payload, frame);
        return;
    }
    if (wbid != kCapwapWbidIeee80211) {
        frame.undecoded = Undecoded::CapwapBinding;
        return;
    }
    // Native IEEE 802.11 frame without FCS (RFC 5416 section 3).
    if (!frameControlSwapped(payload)) {
        decodeWlan(set, payload, frame);
        return;
    }
    std::vector<std::uint8_t> copy(payload.data(), payload.data() + payload.size());
    std::swap(copy[0], copy[1]);
    decodeWlan(set, ByteView(copy.data(), copy.size()), frame);
}

void decodeUdp(const DissectorSet& set, ByteView bytes, Frame& frame)
{
    if (!bytes.has(0, 8)) {
        truncated(frame, "udp", "UDP header truncated");
        return;
    }
    const std::uint16_t srcPort = bytes.be16(0), dstPort = bytes.be16(2);
    const std::size_t length = bytes.be16(4);
    // Length 0 is legal only in IPv6 jumbograms (RFC 2675 section 4), where the
    // datagram runs to the end of the IP payload.
    if (length != 0 && length < 8) {
        frame.annotate(Severity::Error, "udp.length", "UDP length shorter than its header");
        return;
    }
    if (length > bytes.size())
        truncated(frame, "udp.length", "UDP length beyond the captured bytes");
    const ByteView payload = length == 0 ? bytes.from(8) : bytes.sub(8, length - 8);
    // The lower port first, as Wireshark's "try lower port first" does: a service's
    // well-known port is usually the lower one. Decoders that check their format
    // (PEEKREMOTE, Aruba ERM) leave the frame untouched when it is not theirs, and then
    // the other port is tried.
    const std::uint16_t ports[2] = {std::min(srcPort, dstPort), std::max(srcPort, dstPort)};
    for (int i = 0; i < (ports[0] == ports[1] ? 1 : 2); ++i) {
        DecodeFn fn = set.udpPorts.find(ports[i]);
        if (!fn)
            continue;
        const bool wlanBefore = frame.hasWlan;
        const std::uint8_t depthBefore = frame.ipDepth, annotationsBefore = frame.annotationCount;
        fn(set, payload, frame);
        if (frame.hasWlan != wlanBefore || frame.ipDepth != depthBefore ||
            frame.annotationCount != annotationsBefore || frame.undecoded != Undecoded::None)
            return;
    }
}

// L2TP (RFC 2661 on UDP 1701, RFC 3931): PPP or pseudowires inside; not decoded, counted.
void decodeL2tp(const DissectorSet&, ByteView bytes, Frame& frame)
{
    if (!bytes.empty())
        frame.undecoded = Undecoded::L2tp;
}

// LWAPP data channel (RFC 5412 section 3, UDP 12222): 802.11 frames of lightweight
// access points before CAPWAP; not decoded, counted so that a tunnel full of 802.11
// never reads as an empty capture.
void decodeLwappData(const DissectorSet&, ByteView bytes, Frame& frame)
{
    if (!bytes.empty())
        frame.undecoded = Undecoded::LwappData;
}

// UDP 4500 (RFC 3948): ESP behind NAT, unless the first four bytes are zero (IKE) or the
// datagram is the one-byte NAT keepalive.
void decodeNatTraversal(const DissectorSet&, ByteView bytes, Frame& frame)
{
    if (bytes.has(0, 8) && bytes.be32(0) != 0)
        frame.undecoded = Undecoded::Esp;
}

} // namespace

void registerUdp(DissectorSet& set)
{
    set.ipProtocols.add(17, decodeUdp);
    set.udpPorts.add(kCapwapDataPort, decodeCapwapData);
    set.udpPorts.add(1701, decodeL2tp);
    set.udpPorts.add(12222, decodeLwappData); // RFC 5412 section 3.1
    set.udpPorts.add(4500, decodeNatTraversal);
}

} // namespace windscope::dissect
