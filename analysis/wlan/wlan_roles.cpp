// SPDX-License-Identifier: GPL-3.0-or-later
#include "wlan_roles.h"

#include "wlan_frames.h"

#include <algorithm>

namespace windscope::analysis {

RoleClaim roleClaim(const dissect::CaptureTables& tables, std::size_t row)
{
    const dissect::WlanColumns& w = tables.wlan;
    const std::uint16_t fc = w.frameControl[row];
    const std::uint8_t sub = wlan::frameSubtype(fc);
    RoleClaim c;
    const auto unicast = [&](std::uint32_t mac) { return wlan::isGroup(tables, mac) ? wlan::kNoMac : mac; };
    switch (wlan::frameType(fc)) {
    case wlan::kManagement:
        switch (sub) {
        case wlan::subtype::kBeacon:
        case wlan::subtype::kProbeResponse:
            // Sent by the AP itself: Address 3 is its BSSID (9.3.3.3, 9.3.3.10).
            c.ap = unicast(w.addr3(row));
            break;
        case wlan::subtype::kProbeRequest:
            c.station = unicast(w.addr2(row));
            break;
        case wlan::subtype::kAssocRequest:
        case wlan::subtype::kReassocRequest:
            c.station = unicast(w.addr2(row));
            c.ap = unicast(w.addr3(row));
            break;
        case wlan::subtype::kAssocResponse:
        case wlan::subtype::kReassocResponse:
            c.station = unicast(w.addr1(row));
            c.ap = unicast(w.addr3(row));
            break;
        case wlan::subtype::kAuth:
        case wlan::subtype::kDeauth:
        case wlan::subtype::kDisassoc:
            // Either direction: the AP is the BSSID, the station the other end.
            c.ap = unicast(w.addr3(row));
            c.station = unicast(w.addr2(row) == w.addr3(row) ? w.addr1(row) : w.addr2(row));
            break;
        default:
            break;
        }
        break;
    case wlan::kData:
        if (wlan::toDs(fc) && wlan::fromDs(fc))
            break; // four-address (WDS/mesh): both ends relay, neither is a plain station
        if (wlan::toDs(fc)) {
            c.station = unicast(w.addr2(row));
            c.ap = unicast(w.addr1(row));
        } else if (wlan::fromDs(fc)) {
            c.station = unicast(w.addr1(row));
            c.ap = unicast(w.addr2(row));
        } else {
            // IBSS: both ends are stations of the BSS named by Address 3.
            c.station = unicast(w.addr2(row));
            c.otherStation = unicast(w.addr1(row));
        }
        break;
    case wlan::kControl:
        if (sub == wlan::subtype::kPsPoll) {
            // PS-Poll (9.3.1.5): Address 1 is the BSSID, Address 2 the station.
            c.ap = unicast(w.addr1(row));
            c.station = unicast(w.addr2(row));
        }
        break;
    default:
        break;
    }
    if (c.ap == c.station)
        c.station = wlan::kNoMac; // a frame naming one MAC for both says nothing
    return c;
}

bool claimAgrees(const WlanRoles& roles, const RoleClaim& claim)
{
    return (claim.ap == wlan::kNoMac || roles.of(claim.ap) == MacRole::AccessPoint) &&
           (claim.station == wlan::kNoMac || roles.of(claim.station) == MacRole::Station) &&
           (claim.otherStation == wlan::kNoMac || roles.of(claim.otherStation) == MacRole::Station);
}

WlanRoles decideRoles(const dissect::CaptureTables& tables)
{
    const dissect::WlanColumns& w = tables.wlan;
    const std::size_t macs = tables.macAddresses.size();
    WlanRoles roles;
    roles.role.assign(macs, MacRole::Unknown);
    roles.apVotes.assign(macs, 0);
    roles.stationVotes.assign(macs, 0);
    std::vector<RoleClaim> claims(w.size());
    for (std::size_t row = 0; row < w.size(); ++row) {
        if (wlan::badFcs(w, row))
            continue;
        const RoleClaim c = roleClaim(tables, row);
        claims[row] = c;
        if (c.ap < macs)
            ++roles.apVotes[c.ap];
        if (c.station < macs)
            ++roles.stationVotes[c.station];
        if (c.otherStation < macs)
            ++roles.stationVotes[c.otherStation];
    }
    for (std::size_t mac = 0; mac < macs; ++mac) {
        if (roles.apVotes[mac] > roles.stationVotes[mac])
            roles.role[mac] = MacRole::AccessPoint;
        else if (roles.stationVotes[mac] > 0)
            roles.role[mac] = MacRole::Station;
    }
    // radiotap.flags bit 0x10: the frame ends with its FCS, so the capture could tell
    // a corrupted one (and left it out above); without it a garbled frame looks valid.
    constexpr std::uint8_t kFcsPresent = 0x10;
    for (std::size_t row = 0; row < w.size(); ++row) {
        if (wlan::badFcs(w, row) || claimAgrees(roles, claims[row]))
            continue;
        ++roles.conflicts;
        if (!(w.radioFlags[row] & kFcsPresent))
            ++roles.conflictsWithoutFcs;
        roles.conflictRows.push_back(row);
        if (roles.conflictFrames.size() < WlanRoles::kMaxListed)
            roles.conflictFrames.push_back(w.frame[row]);
    }
    return roles;
}

} // namespace windscope::analysis
