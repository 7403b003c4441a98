// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The detectors behind detectWlanEvents(), one per kind of evidence; each appends to
// the event list and the notes. Internal to the analysis library.

#include "wlan_events.h"

namespace windscope::analysis::detail {

struct DetectorContext
{
    const dissect::CaptureTables& tables;
    const WlanInventory& inventory;
    const TcpAnalysis& tcp;
    const WlanEventOptions& options;
};

void addEvidence(WlanEvent& event, std::uint64_t frame);

// scan_detector.cpp: announced absences (PM bit; scans and power save) and unannounced
// ones (retry chains to a silent station); MAC statistics ride along the same pass.
// Retry runs too short to be told from a collision on their own go to shortRuns.
void detectAbsences(const DetectorContext& context, std::vector<WlanEvent>& events,
                    std::vector<WlanEvent>& shortRuns, std::vector<StationMacStats>& macStats,
                    std::vector<std::string>& notes);

// probe_scan_detector.cpp: active scans seen only through the station's probe
// requests, outside every event already found for it.
void detectProbeBursts(const DetectorContext& context, std::vector<WlanEvent>& events,
                       std::vector<std::string>& notes);

// handoff_detector.cpp
void detectHandoffs(const DetectorContext& context, std::vector<WlanEvent>& events,
                    std::vector<std::string>& notes);

// lifecycle_detector.cpp: authentication, association, the EAPOL handshake,
// deauthentication, disassociation, refusals, unanswered attempts, failed roams and
// disconnections, per station, from its management frames (802.11-2020 11.3). Reads
// the handoffs in events to give each its SSID.
void detectLifecycle(const DetectorContext& context, std::vector<WlanEvent>& events,
                     std::vector<WlanEvent>& lifecycle, std::vector<std::string>& notes);

// beacon_loss_detector.cpp: an AP's beacons missing for mac80211's beacon-loss count of
// intervals while the monitor heard its channel, one event per station in that BSS.
void detectBeaconLoss(const DetectorContext& context, std::vector<WlanEvent>& lifecycle,
                      std::vector<std::string>& notes);

// outage_inference.cpp: connections that no 802.11 frame carried.
void inferOutages(const DetectorContext& context, std::vector<WlanEvent>& events,
                  std::vector<std::string>& notes);

} // namespace windscope::analysis::detail
