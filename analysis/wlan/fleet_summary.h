// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What one capture's Wi-Fi events cost TCP, kept by names that hold across captures
// (MAC and SSID text, not a capture's dictionary ids): the part of a capture that the
// fleet view of a project reads, summed from the capture's event correlation, and the
// fleet view itself, those summaries grouped over many captures.

#include "analysis/tcp/tcp_analysis.h"
#include "analysis/wlan/wlan_correlation.h"
#include "analysis/wlan/wlan_events.h"
#include "analysis/wlan/wlan_inventory.h"
#include "dissectors/capture_tables.h"

#include <cstdint>
#include <string>
#include <vector>

namespace windscope::analysis {

// The costs charged to the events of one kind at one (station, AP, SSID) of a capture:
// sums of the correlation's ConnectionImpact values, so a fleet total equals the sum of
// the captures' correlations.
struct FleetCost
{
    std::string station, ap, ssid;         // "" when unknown (an outage seen from the wire)
    WlanEventKind kind = WlanEventKind::Scan;
    std::uint64_t events = 0, eventsWithConnections = 0;
    std::int64_t durationNs = 0, stalledNs = 0, goodputLostBytes = 0;
    std::uint64_t retransmissions = 0, rtoTimeouts = 0;
    std::uint64_t lostUnknown = 0;         // impacts without an event-free rate to compare with
    // The event of these that stalled TCP longest (the first of the kind when none did):
    // where the desktop application opens the capture.
    std::uint64_t worstEvent = 0;
    std::int64_t worstStartNs = 0, worstEndNs = 0, worstStalledNs = 0;
};

// A station of the capture with its periodic-scan pattern and what its connections carried.
struct FleetStation
{
    std::string station, ap, ssid;         // ap, ssid: the BSS it sent most data through
    std::uint64_t connections = 0, deliveredBytes = 0;
    std::uint32_t scans = 0;               // scans of its scan pattern, 0 without one
    double scanIntervalMs = 0, scanDwellMs = 0;
};

struct FleetSummary
{
    std::int64_t firstEpochNs = 0, lastEpochNs = 0;
    std::vector<FleetCost> costs;          // by station, AP, SSID, kind
    std::vector<FleetStation> stations;
};

FleetSummary summarizeForFleet(const dissect::CaptureTables& tables, const TcpAnalysis& tcp,
                               const WlanInventory& inventory, const WlanEvents& events,
                               const Correlation& correlation);

// ---- the fleet view: summaries of many captures grouped ----

enum class FleetGrouping : std::uint8_t { Station, Ap, Ssid, Capture, Day };
const char* fleetGroupingName(FleetGrouping by); // "station", "ap", "ssid", "capture", "day"
bool parseFleetGrouping(const std::string& text, FleetGrouping& out);

struct FleetCapture
{
    std::int64_t id = 0;                   // capture id in the project
    std::string path;
    FleetSummary summary;
};

struct FleetKindCost
{
    WlanEventKind kind = WlanEventKind::Scan;
    std::uint64_t events = 0, eventsWithConnections = 0;
    std::int64_t durationNs = 0, stalledNs = 0, goodputLostBytes = 0;
    std::uint64_t retransmissions = 0, rtoTimeouts = 0, lostUnknown = 0;
    void add(const FleetCost& c);
};

struct FleetWorstEvent
{
    std::int64_t captureId = 0;
    std::string path;
    std::uint64_t event = 0;
    WlanEventKind kind = WlanEventKind::Scan;
    std::int64_t startNs = 0, endNs = 0, stalledNs = -1; // capture-relative; -1: none yet
};

struct FleetRow
{
    std::string key;                       // station / BSSID / SSID / capture path / UTC day
    std::uint64_t captures = 0, stations = 0;
    FleetKindCost total;                   // over every kind (total.kind is meaningless)
    std::vector<FleetKindCost> kinds;      // kinds that occurred, in kind order
    std::uint64_t roams = 0, failedRoams = 0;
    // Periodic scanning of the group's stations: scans, and the interval and dwell
    // averaged over them (weighted by scans); 0 when none scanned on a period.
    std::uint64_t scans = 0;
    double scanIntervalMs = 0, scanDwellMs = 0;
    std::uint64_t deliveredBytes = 0;
    FleetWorstEvent worst;
};

// Groups ranked by what events cost TCP: stalled time, then goodput lost, then
// retransmissions, then key.
std::vector<FleetRow> groupFleet(const std::vector<FleetCapture>& captures, FleetGrouping by);
// The UTC calendar day of an epoch time, "YYYY-MM-DD".
std::string utcDay(std::int64_t epochNs);

} // namespace windscope::analysis
