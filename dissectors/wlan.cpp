// SPDX-License-Identifier: GPL-3.0-or-later
// IEEE 802.11 MAC header (link type 105, and the frame below radiotap, PPI, Prism,
// AVS and CAPWAP). Field layout from IEEE 802.11-2020 clause 9.2 (general frame
// format) and 9.3 (format of individual frame types).

#include "dissector_set.h"

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace windscope::dissect {

namespace {

// wlan.fc.type values (802.11-2020 9.2.4.1.3, Table 9-1).
constexpr std::uint8_t kManagement = 0, kControl = 1, kData = 2, kExtension = 3;

// Control subtypes (802.11-2020 Table 9-1).
enum ControlSubtype : std::uint8_t {
    kTrigger = 2, kTack = 3, kBeamformingReportPoll = 4, kNdpAnnouncement = 5,
    kControlFrameExtension = 6, kControlWrapper = 7, kBlockAckReq = 8, kBlockAck = 9,
    kPsPoll = 10, kRts = 11, kCts = 12, kAck = 13, kCfEnd = 14, kCfEndCfAck = 15,
};

// QoS Control (802.11-2020 9.2.4.5): bit 7 is "A-MSDU present" in QoS data frames.
constexpr std::uint16_t kQosAmsduPresent = 0x0080;

// Control frames carry only the addresses their format defines (802.11-2020 9.3.1):
// CTS and Ack have just the RA; the Control Wrapper has Address 1 followed by the
// carried frame's control field; every other defined format has RA and TA
// (BSSID for PS-Poll and CF-End). Reserved subtypes 0-1 are read as RA only.
std::uint8_t controlAddresses(std::uint8_t subtype)
{
    switch (subtype) {
    case kCts:
    case kAck:
    case kControlWrapper:
    case 0:
    case 1:
        return 1;
    default:
        return 2;
    }
}

// The caller has checked that the six bytes were captured; a byte-wise read checked
// each one again and was the hot spot of the 802.11 decoder.
void readMac(ByteView b, std::size_t o, MacAddress& m)
{
    std::memcpy(m.bytes.data(), b.data() + o, m.bytes.size());
}

// A header that stops short is malformed unless the capture's snap length cut it.
void truncated(Frame& frame, const char* field, const char* message)
{
    const bool snapped = frame.capturedLength < frame.originalLength;
    frame.annotate(snapped ? Severity::Note : Severity::Error, field, message);
}

// A-MSDU (802.11-2020 9.3.2.2.2): subframes of { DA[6], SA[6], be16 length, MSDU },
// each padded to a multiple of 4 octets except the last. Only the first subframe's
// MSDU is passed on: a Frame holds one IP/TCP result, so the others would overwrite
// it, and dropping the later ones visibly (a Note) is better than reporting only the
// last. The subframes are still walked so a damaged aggregate is reported.
void decodeAmsdu(const DissectorSet& set, ByteView body, Frame& frame)
{
    std::size_t offset = 0;
    unsigned count = 0;
    ByteView first;
    bool haveFirst = false;
    while (offset < body.size()) {
        if (!body.has(offset, 14)) {
            truncated(frame, "wlan_aggregate.a_mdsu.subframe", "A-MSDU subframe header truncated");
            break;
        }
        const std::size_t length = body.be16(offset + 12);
        if (!body.has(offset + 14, length)) {
            truncated(frame, "wlan_aggregate.a_mdsu.subframe",
                      "A-MSDU subframe longer than the frame");
            if (count == 0) {
                // The first MSDU may still hold complete IP and TCP headers.
                first = body.from(offset + 14);
                haveFirst = true;
            }
            ++count;
            break;
        }
        if (count == 0) {
            first = body.sub(offset + 14, length);
            haveFirst = true;
        }
        ++count;
        offset += 14 + length;
        offset = (offset + 3) & ~std::size_t{3};
    }
    if (count > 1)
        frame.annotate(Severity::Note, "wlan.qos.amsdupresent",
                       "A-MSDU with several subframes; only the first is analysed");
    if (haveFirst)
        decodeLlc(set, first, frame);
}

// Management subtypes (802.11-2020 Table 9-1).
enum ManagementSubtype : std::uint8_t {
    kAssociationRequest = 0, kAssociationResponse = 1, kReassociationRequest = 2,
    kReassociationResponse = 3, kProbeRequest = 4, kProbeResponse = 5, kBeacon = 8,
    kDisassociation = 10, kAuthentication = 11, kDeauthentication = 12, kAction = 13,
    kActionNoAck = 14,
};

// Elements (802.11-2020 9.4.2.1): Element ID, Length, then Length octets. Only SSID
// (ID 0, 9.4.2.2) and DS Parameter Set (ID 3, 9.4.2.4: the current channel) are kept;
// the walk stops at the first element that was not captured whole.
void readElements(ByteView elements, ManagementInfo& m)
{
    std::size_t offset = 0;
    while (elements.has(offset, 2)) {
        const std::uint8_t id = elements.u8(offset);
        const std::uint8_t length = elements.u8(offset + 1);
        if (!elements.has(offset + 2, length))
            return;
        if (id == 0 && length <= m.ssid.size() && !m.hasSsid) {
            m.hasSsid = true;
            m.ssidLength = length;
            for (std::uint8_t i = 0; i < length; ++i)
                m.ssid[i] = elements.u8(offset + 2 + i);
        } else if (id == 3 && length >= 1 && m.dsChannel == 0) {
            m.dsChannel = elements.u8(offset + 2);
        }
        offset += 2u + length;
    }
}

// Fixed fields by subtype (802.11-2020 9.3.3.2 to 9.3.3.14). A body too short for its
// fixed fields leaves them absent; that is a cut capture or a malformed frame, and the
// frame stays what its header says it is.
void decodeManagementBody(ByteView body, Frame& frame)
{
    ManagementInfo& m = frame.management;
    m = ManagementInfo{};
    std::size_t elements = 0;
    switch (frame.wlan.subtype) {
    case kBeacon:
    case kProbeResponse:
        // Timestamp (8), Beacon Interval (2), Capability Information (2).
        if (!body.has(0, 12))
            return;
        m.beaconIntervalTu = body.le16(8);
        m.capability = body.le16(10);
        elements = 12;
        break;
    case kProbeRequest:
        elements = 0;
        break;
    case kAssociationRequest:
        // Capability (2), Listen Interval (2).
        if (!body.has(0, 4))
            return;
        m.capability = body.le16(0);
        elements = 4;
        break;
    case kReassociationRequest:
        // Capability (2), Listen Interval (2), Current AP Address (6).
        if (!body.has(0, 10))
            return;
        m.capability = body.le16(0);
        elements = 10;
        break;
    case kAssociationResponse:
    case kReassociationResponse:
        // Capability (2), Status Code (2), AID (2).
        if (!body.has(0, 6))
            return;
        m.capability = body.le16(0);
        m.statusCode = body.le16(2);
        elements = 6;
        break;
    case kDisassociation:
    case kDeauthentication:
        if (!body.has(0, 2))
            return;
        m.reasonCode = body.le16(0);
        frame.hasManagement = true;
        return;
    case kAuthentication:
        // Algorithm (2), Transaction Sequence (2), Status Code (2).
        if (!body.has(0, 6))
            return;
        m.authAlgorithm = body.le16(0);
        m.authSequence = body.le16(2);
        m.statusCode = body.le16(4);
        frame.hasManagement = true;
        return;
    case kAction:
    case kActionNoAck:
        // Category (1), Action (1) (9.6.1); Block Ack is category 3 (9.6.3).
        if (!body.has(0, 2))
            return;
        m.actionCategory = body.u8(0);
        m.actionCode = body.u8(1);
        frame.hasManagement = true;
        return;
    default:
        return;
    }
    frame.hasManagement = true;
    readElements(body.from(elements), m);
}

} // namespace

void decodeWlan(const DissectorSet& set, ByteView bytes, Frame& frame)
{
    if (!bytes.has(0, 2)) {
        truncated(frame, "wlan.fc", "802.11 frame shorter than its frame control");
        return;
    }
    const std::uint16_t fc = bytes.le16(0);
    switch (fc & 0x3) {
    case 0:
        break;
    case 1:
        // PV1 (802.11-2020 9.8) is a different, compressed header used by S1G
        // (802.11ah); a valid frame, but not one we decode.
        frame.annotate(Severity::Note, "wlan.fc.version", "802.11 PV1 frame not decoded");
        return;
    default:
        frame.annotate(Severity::Error, "wlan.fc.version", "unknown 802.11 protocol version");
        return;
    }

    WlanInfo& w = frame.wlan;
    w = WlanInfo{};
    w.fc = fc;
    w.type = static_cast<std::uint8_t>((fc >> 2) & 0x3);
    w.subtype = static_cast<std::uint8_t>((fc >> 4) & 0xf);
    w.flags = static_cast<std::uint8_t>(fc >> 8);
    frame.hasWlan = true;

    if (!bytes.has(2, 2)) {
        truncated(frame, "wlan.duration", "802.11 header truncated");
        return;
    }
    w.duration = bytes.le16(2);
    if (w.type == kExtension) {
        // DMG and S1G beacons: formats outside what Windscope analyses.
        w.headerLength = 4;
        return;
    }

    // Layout (802.11-2020 Figure 9-1): Address 1 at 4, Address 2 at 10, Address 3 at
    // 16, Sequence Control at 22, Address 4 at 24 (data frames with ToDS and FromDS),
    // then QoS Control and HT Control where present.
    std::uint8_t addresses = 3;
    bool hasSequence = true;
    bool hasQos = false;
    bool hasHtControl = false;
    if (w.type == kControl) {
        addresses = controlAddresses(w.subtype);
        hasSequence = false;
    } else if (w.type == kData) {
        addresses = w.toDs() && w.fromDs() ? 4 : 3;
        hasQos = w.subtype & 0x8;
        // +HTC (9.2.4.1.10): in QoS data frames the Order bit means an HT Control
        // field is present; in non-QoS data frames it keeps its StrictlyOrdered meaning.
        hasHtControl = hasQos && w.order();
    } else {
        // Management frames carry HT Control when the Order bit is set (9.2.4.1.10).
        hasHtControl = w.order();
    }

    static constexpr std::size_t kAddressOffset[4] = {4, 10, 16, 24};
    MacAddress* const slot[4] = {&w.addr1, &w.addr2, &w.addr3, &w.addr4};
    for (std::uint8_t i = 0; i < addresses; ++i) {
        const std::size_t at = kAddressOffset[i];
        if (!bytes.has(at, 6)) {
            truncated(frame, i == 0 ? "wlan.ra" : "wlan.addr", "802.11 header truncated");
            return;
        }
        readMac(bytes, at, *slot[i]);
        w.addressCount = static_cast<std::uint8_t>(i + 1);
    }

    std::size_t offset = 4 + 6u * (addresses < 3 ? addresses : 3);
    if (w.type == kControl && w.subtype == kControlWrapper) {
        // Control Wrapper (9.3.1.9): Address 1, Carried Frame Control, HT Control,
        // then the carried control frame's remaining fields.
        if (!bytes.has(offset, 6)) {
            truncated(frame, "wlan.htc", "802.11 header truncated");
            return;
        }
        w.hasHtControl = true;
        w.headerLength = static_cast<std::uint32_t>(offset + 6);
        return;
    }
    if (hasSequence) {
        if (!bytes.has(offset, 2)) {
            truncated(frame, "wlan.seq", "802.11 header truncated");
            return;
        }
        const std::uint16_t sc = bytes.le16(offset);
        w.hasSequence = true;
        w.fragment = static_cast<std::uint8_t>(sc & 0xf);
        w.sequence = static_cast<std::uint16_t>(sc >> 4);
        offset += 2;
        if (addresses == 4)
            offset += 6; // Address 4, read above
    }
    if (hasQos) {
        if (!bytes.has(offset, 2)) {
            truncated(frame, "wlan.qos", "802.11 header truncated");
            return;
        }
        w.hasQos = true;
        w.qosControl = bytes.le16(offset);
        w.amsdu = w.qosControl & kQosAmsduPresent;
        offset += 2;
    }
    if (hasHtControl) {
        if (!bytes.has(offset, 4)) {
            truncated(frame, "wlan.htc", "802.11 header truncated");
            return;
        }
        w.hasHtControl = true;
        offset += 4;
    }
    w.headerLength = static_cast<std::uint32_t>(offset);

    // Management bodies in clear: fixed fields and the SSID/channel elements. A
    // Protected management frame (802.11w) keeps its body to itself.
    if (w.type == kManagement && !w.isProtected()) {
        ByteView body = bytes.from(offset);
        const bool complete = frame.capturedLength >= frame.originalLength;
        if (frame.hasRadio && frame.radio.fcsAtEnd() && complete && body.size() >= 4)
            body = body.sub(0, body.size() - 4);
        decodeManagementBody(body, frame);
        return;
    }

    // Only data frames carry an MSDU; and only when the subtype has a body (bit 2 of
    // the subtype marks Null, QoS Null and the CF-Poll/Ack-only frames), the body is
    // in clear (a Protected frame's body is encrypted), and it is a whole MSDU.
    // A frame with More Fragments set is the first or a middle fragment and would need
    // reassembly (10.6). A frame with More Fragments clear but a non-zero fragment
    // number is, per 10.6, a last fragment; but some senders put non-zero fragment
    // numbers on unfragmented frames (the access point in nDPI's capwap_data sample
    // does, on every frame), and Wireshark decodes such a frame as complete when it
    // has seen no earlier fragment (the "802.11 hack" in epan/reassemble.c). We keep
    // no state between frames, so we decode every frame with More Fragments clear; a
    // genuine last fragment then fails the LLC/SNAP check and stops there.
    if (w.type != kData || (w.subtype & 0x4) || w.isProtected() || w.moreFragments())
        return;
    // Radiotap flag 0x20 (data pad): the driver padded the 802.11 header to a 32-bit
    // boundary, so the body starts at the next multiple of 4.
    if (frame.hasRadio && frame.radio.hasFlags && (frame.radio.flags & RadioInfo::kFlagDataPad))
        offset = (offset + 3) & ~std::size_t{3};
    const ByteView body = bytes.from(offset);
    if (body.empty())
        return;
    if (w.amsdu)
        decodeAmsdu(set, body, frame);
    else
        decodeLlc(set, body, frame);
}

void decodeWlanFrame(const DissectorSet& set, ByteView bytes, Frame& frame, bool fcsAtEnd)
{
    if (fcsAtEnd) {
        // The FCS ends the frame; a snap length may have cut it, and then only what is
        // left of it is taken off (as radiotap's flag 0x10 is handled).
        const std::uint32_t cut =
            frame.originalLength > frame.capturedLength ? frame.originalLength - frame.capturedLength : 0;
        const std::size_t fcs = cut >= 4 ? 0 : 4 - cut;
        if (bytes.size() >= fcs)
            bytes = bytes.sub(0, bytes.size() - fcs);
    }
    decodeWlan(set, bytes, frame);
}

void registerWlan(DissectorSet& set)
{
    // LINKTYPE_IEEE802_11 does not say whether frames end in an FCS; like Wireshark's
    // default ("Assume packets have FCS" off) we assume they do not.
    set.linkTypes.add(linktype::kIeee80211, decodeWlan);
}

} // namespace windscope::dissect
