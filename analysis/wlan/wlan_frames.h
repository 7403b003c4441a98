// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Reading one WlanColumns row the way 802.11 defines it: frame type and subtype, the
// flag bits of the Frame Control field, and which address is the BSSID, the
// transmitter or the station. Shared by the inventory and the event detectors so
// both read the addresses the same way.

#include "dissectors/capture_tables.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>

namespace windscope::analysis::wlan {

inline constexpr std::uint32_t kNoMac = 0xffffffffu;

// wlan.fc.type / wlan.fc.subtype (802.11-2020 9.2.4.1.3, Table 9-1).
inline constexpr std::uint8_t kManagement = 0, kControl = 1, kData = 2;
namespace subtype {
inline constexpr std::uint8_t kAssocRequest = 0, kAssocResponse = 1, kReassocRequest = 2,
                              kReassocResponse = 3, kProbeRequest = 4, kProbeResponse = 5,
                              kBeacon = 8, kDisassoc = 10, kAuth = 11, kDeauth = 12, kAction = 13;
inline constexpr std::uint8_t kBlockAckRequest = 8, kBlockAck = 9, kPsPoll = 10, kRts = 11, kAck = 13;
inline constexpr std::uint8_t kNull = 4, kQosNull = 12;
} // namespace subtype

inline std::uint8_t frameType(std::uint16_t fc) { return static_cast<std::uint8_t>((fc >> 2) & 3); }
inline std::uint8_t frameSubtype(std::uint16_t fc) { return static_cast<std::uint8_t>((fc >> 4) & 15); }
inline bool toDs(std::uint16_t fc) { return fc & 0x0100; }
inline bool fromDs(std::uint16_t fc) { return fc & 0x0200; }
inline bool retry(std::uint16_t fc) { return fc & 0x0800; }
// Power Management (9.2.4.1.7): the mode the transmitting STA will be in after the
// current frame exchange; 1 = power save (doze), 0 = active.
inline bool powerManagement(std::uint16_t fc) { return fc & 0x1000; }
inline bool moreData(std::uint16_t fc) { return fc & 0x2000; }
inline bool isNullData(std::uint16_t fc)
{
    // Null and QoS Null (Table 9-1): no frame body; used to signal PM changes.
    const std::uint8_t s = frameSubtype(fc);
    return frameType(fc) == kData && (s == subtype::kNull || s == subtype::kQosNull);
}
// QoS Data and its kin, subtypes 8-15 (Table 9-1): sent with EDCA, a QoS Control field.
inline bool isQosData(std::uint16_t fc) { return frameType(fc) == kData && (frameSubtype(fc) & 8); }
inline bool isManagement(std::uint16_t fc, std::uint8_t sub)
{
    return frameType(fc) == kManagement && frameSubtype(fc) == sub;
}
inline bool isControl(std::uint16_t fc, std::uint8_t sub)
{
    return frameType(fc) == kControl && frameSubtype(fc) == sub;
}

// Whether Address 2 is the transmitter: every frame but the control frames that name
// only their receiver (ACK, CTS; 9.3.1); PS-Poll and Block Ack (Request) name both.
inline bool namesTransmitter(std::uint16_t fc)
{
    const std::uint8_t sub = frameSubtype(fc);
    return frameType(fc) != kControl || sub == subtype::kPsPoll || sub == subtype::kBlockAck ||
           sub == subtype::kBlockAckRequest;
}

inline bool isGroup(const dissect::CaptureTables& t, std::uint32_t mac)
{
    // Individual/Group bit: least significant bit of the first octet (IEEE 802-2014 8.2).
    return mac == kNoMac || (t.macAddresses.at(mac).bytes[0] & 1);
}

// The BSSID of a row (802.11-2020 Table 9-30 for data frames; Address 3 of management
// frames; Address 1 of PS-Poll), kNoMac when the frame does not name one (other
// control frames, four-address WDS frames).
inline std::uint32_t bssidOf(const dissect::WlanColumns& w, std::size_t row)
{
    const std::uint16_t fc = w.frameControl[row];
    switch (frameType(fc)) {
    case kManagement:
        return w.addr3(row);
    case kData:
        if (toDs(fc) && fromDs(fc))
            return kNoMac;
        if (toDs(fc))
            return w.addr1(row);
        if (fromDs(fc))
            return w.addr2(row);
        return w.addr3(row);
    case kControl:
        return frameSubtype(fc) == subtype::kPsPoll ? w.addr1(row) : kNoMac;
    default:
        return kNoMac;
    }
}

// The non-AP station of an infrastructure data frame: the transmitter of an uplink
// (To DS) frame, the receiver of a downlink (From DS) frame; kNoMac otherwise.
inline std::uint32_t dataStationOf(const dissect::WlanColumns& w, std::size_t row)
{
    const std::uint16_t fc = w.frameControl[row];
    if (frameType(fc) != kData || (toDs(fc) && fromDs(fc)))
        return kNoMac;
    if (toDs(fc))
        return w.addr2(row);
    if (fromDs(fc))
        return w.addr1(row);
    return kNoMac;
}

// The rates of DSSS and HR/DSSS (802.11-2020 Clauses 15 and 16: 1, 2, 5.5, 11 Mb/s), whose
// PPDUs carry the 192 us long preamble; every other rate is OFDM, ERP-OFDM or HT.
inline bool isDsssRateKbps(std::uint32_t kbps) { return kbps == 1000 || kbps == 2000 || kbps == 5500 || kbps == 11000; }

inline bool badFcs(const dissect::WlanColumns& w, std::size_t row)
{
    return w.status[row] & dissect::WlanColumns::kBadFcs;
}

// Whether row holds an intact ACK to `to` (its only address): the answer to to's frame
// in the row before, a SIFS after it (10.3.2.11).
inline bool isAckTo(const dissect::WlanColumns& w, std::size_t row, std::uint32_t to)
{
    return !badFcs(w, row) && isControl(w.frameControl[row], subtype::kAck) && w.addr1(row) == to;
}

// An A-MPDU subframe's length: the 4-octet delimiter, the MPDU and padding to a 4-octet
// boundary (802.11-2020 9.7.1).
inline std::uint64_t ampduSubframeBytes(std::uint64_t mpduBytes) { return (mpduBytes + 4 + 3) / 4 * 4; }

// The row of the capture's frame number `frame` in w, w.size() if it carries no 802.11
// frame; rows rise with frame numbers, so a caller walking forward passes the last row
// found as `from`.
inline std::size_t rowOfFrame(const dissect::WlanColumns& w, std::uint64_t frame, std::size_t from = 0)
{
    const auto it = std::lower_bound(w.frame.begin() + static_cast<std::ptrdiff_t>(from), w.frame.end(), frame);
    return it != w.frame.end() && *it == frame ? static_cast<std::size_t>(it - w.frame.begin()) : w.size();
}

} // namespace windscope::analysis::wlan
