// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Who is an access point and who a station, decided by consensus over the whole
// capture, never by one frame. Every frame that names roles casts votes: a Beacon or
// Probe Response for its BSSID, a (Re)Association Request for its station and AP, a
// To-DS data frame for its transmitter (station) and receiver (AP), and so on
// (802.11-2020 Table 9-30 and 9.3.3). A MAC is an AP when more of its frames say so
// than say it is a station. A frame that contradicts the consensus (a garbled frame
// whose Address 3 happens to be a station's MAC, in a capture that cannot tell a bad
// FCS) is counted and listed, and the inventory does not use it.

#include "dissectors/capture_tables.h"

#include <cstdint>
#include <vector>

namespace windscope::analysis {

enum class MacRole : std::uint8_t { Unknown, AccessPoint, Station };

struct WlanRoles
{
    static constexpr std::size_t kMaxListed = 64;
    std::vector<MacRole> role;             // by MAC id
    std::vector<std::uint32_t> apVotes, stationVotes; // by MAC id
    // Frames whose addressing contradicts the roles decided (bad-FCS frames are not
    // read at all): all of them counted, the first kMaxListed listed.
    std::uint64_t conflicts = 0;
    std::uint64_t conflictsWithoutFcs = 0; // ... of which carried no FCS information
    std::vector<std::uint64_t> conflictFrames;
    std::vector<std::uint64_t> conflictRows; // rows in WlanColumns, all of them, in order

    MacRole of(std::uint32_t mac) const { return mac < role.size() ? role[mac] : MacRole::Unknown; }
};

// The roles one row claims: an AP and up to two stations (kNoMac where none).
struct RoleClaim
{
    std::uint32_t ap = 0xffffffffu;
    std::uint32_t station = 0xffffffffu;
    std::uint32_t otherStation = 0xffffffffu; // IBSS data: the receiver
};

RoleClaim roleClaim(const dissect::CaptureTables& tables, std::size_t row);

WlanRoles decideRoles(const dissect::CaptureTables& tables);

// Whether a row's claims agree with the decided roles.
bool claimAgrees(const WlanRoles& roles, const RoleClaim& claim);

} // namespace windscope::analysis
