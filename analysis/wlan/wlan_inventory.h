// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Who is on the air: access points (from Beacons and Probe Responses, or only from
// the addressing of their frames), stations with the BSSIDs they used over time, and
// which station and AP each TCP connection went through. The IP <-> MAC bindings
// come from the capture itself: the IP source of an uplink (To DS) data frame and the
// IP destination of a downlink (From DS) frame belong to the non-AP station.

#include "dissectors/capture_tables.h"
#include "analysis/tcp/tcp_analysis.h"

#include <cstdint>
#include <string>
#include <vector>

namespace windscope::analysis {

struct AccessPoint
{
    std::uint32_t bssid = 0;               // id in CaptureTables::macAddresses
    std::uint32_t ssid = dissect::WlanManagementRecord::kNoSsid; // id in CaptureTables::ssids
    std::uint8_t channel = 0;              // DS Parameter Set, 0 = unknown
    std::uint16_t channelFreqMhz = 0;      // radio header of its frames, 0 = unknown
    std::uint16_t beaconIntervalTu = 0;    // 0 = unknown (no Beacon/Probe Response seen)
    std::uint64_t beacons = 0, probeResponses = 0, dataFrames = 0;
    std::int64_t firstTimeNs = 0, lastTimeNs = 0;
};

// A run of a station's data frames through one BSSID.
struct AssociationSpan
{
    std::uint32_t bssid = 0;
    std::int64_t startNs = 0, endNs = 0;
    std::uint64_t firstFrame = 0, lastFrame = 0;
    std::uint64_t dataFrames = 0;
};

// Authentication, (re)association, deauthentication and disassociation frames of a
// station (802.11-2020 11.3: the state machine they drive).
struct AssociationFrame
{
    std::int64_t timeNs = 0;
    std::uint64_t frame = 0;
    std::uint64_t row = 0;                 // row in WlanColumns
    std::uint32_t bssid = 0;
    std::uint8_t subtype = 0;              // wlan.fc.subtype (management)
    std::uint16_t statusCode = 0xffff;     // responses and authentication; 0 = success
    std::uint16_t reasonCode = 0;          // deauthentication / disassociation
    bool fromStation = false;
};

struct Station
{
    std::uint32_t mac = 0;                 // id in CaptureTables::macAddresses
    std::vector<AssociationSpan> timeline; // in time order
    std::vector<AssociationFrame> management;
    std::vector<std::uint32_t> ipAddresses; // ids in CaptureTables::ipAddresses
    // Every frame whose transmitter address (wlan.ta) / receiver address (wlan.ra) is
    // the station, of every type (Acks and Block Acks included), bad-FCS frames left out.
    std::uint64_t framesSent = 0, framesReceived = 0, probeRequests = 0;
    std::int64_t firstTimeNs = 0, lastTimeNs = 0;
};

struct ConnectionPlacement
{
    std::uint32_t connection = 0;          // index in TcpAnalysis::connections
    std::int32_t station = -1;             // index in WlanInventory::stations, -1 unknown
    std::int8_t stationEndpoint = -1;      // which endpoint (0/1) of the connection it is
    std::vector<AssociationSpan> aps;      // the station's spans overlapping the connection
};

struct WlanInventory
{
    std::vector<AccessPoint> accessPoints;
    std::vector<Station> stations;
    std::vector<ConnectionPlacement> connections; // one per TcpAnalysis connection
    std::vector<std::string> notes;        // what could not be determined, and why
    // Frames whose addressing contradicts the roles decided by consensus (wlan_roles.h):
    // counted, the first WlanRoles::kMaxListed listed; the inventory does not use them.
    std::uint64_t roleConflicts = 0, roleConflictsWithoutFcs = 0;
    std::vector<std::uint64_t> roleConflictFrames;
    // Lookups by MAC id: index into accessPoints / stations, -1 when not one.
    std::vector<std::int32_t> apByMac, stationByMac;

    std::int32_t stationIndex(std::uint32_t mac) const
    {
        return mac < stationByMac.size() ? stationByMac[mac] : -1;
    }
    std::int32_t apIndex(std::uint32_t mac) const
    {
        return mac < apByMac.size() ? apByMac[mac] : -1;
    }
    // The BSSID a station used at a time (the span containing it, else the last span
    // before it), wlan::kNoMac when unknown.
    std::uint32_t bssidAt(std::int32_t station, std::int64_t timeNs) const;
};

// An SSID as text: any 0-32 octets (802.11-2020 9.4.2.2); printable ASCII as is,
// anything else as hex, so JSON, CSV and the fleet's keys stay valid and nothing is lost.
std::string ssidText(const std::string& raw);

WlanInventory buildWlanInventory(const dissect::CaptureTables& tables, const TcpAnalysis& tcp);

} // namespace windscope::analysis
