// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// 802.11 events that explain TCP stalls, found in one pass over the 802.11 rows (and,
// for captures without an 802.11 layer, over the TCP rows):
// - scan: a station announces power save (PM=1, 802.11-2020 11.2.3.1), is away for a
//   short time, returns (PM=0), possibly probing other channels meanwhile; or, with no
//   announcement on air, frames its AP sends it are retried unacknowledged for a short
//   while (the station is off channel);
// - power_save: an announced doze distinguished from a scan by its length, PS-Polls
//   (11.2.3.6) and the absence of probe requests;
// - handoff: the station's traffic moves to another BSSID, with or without the
//   deauthentication / authentication / (re)association frames of 11.3 on air; the
//   outage runs from the last frame delivered through the old AP to the first frame
//   through the new one: the successful (re)association response when it is on air,
//   else the first data frame;
// - outage_inferred: from TCP alone, the receiver's ACKs stop while the sender has data
//   outstanding and retransmits.
// Per-station MAC statistics over time come from the same pass.

#include "analysis/tcp/tcp_analysis.h"
#include "wlan_inventory.h"

#include <cstdint>
#include <string>
#include <vector>

namespace windscope::analysis {

enum class WlanEventKind : std::uint8_t { Scan, PowerSave, Handoff, OutageInferred };

// "scan", "power_save", "handoff", "outage_inferred" (the CLI contract's kind names).
const char* eventKindName(WlanEventKind kind);

struct WlanEvent
{
    static constexpr std::size_t kMaxEvidence = 64;
    std::uint64_t id = 0;                  // 0-based, in order of start time
    WlanEventKind kind = WlanEventKind::Scan;
    std::uint32_t station = 0xffffffffu;   // MAC id; none for outage_inferred
    std::uint32_t bssid = 0xffffffffu;     // BSS at the start (the old one for a handoff)
    std::uint32_t newBssid = 0xffffffffu;  // handoff: the BSS after it
    std::int64_t startNs = 0, endNs = 0;   // capture-relative
    // Handoff: the first data frame through the new AP (traffic resumed), which can
    // trail the (re)association that ends the outage by a TCP backoff; -1 = none seen.
    std::int64_t resumedNs = -1;
    // How the event was found: "pm-null" (power-management announcement), "retry-absence"
    // (unacknowledged retries to the station), "retry-absence-periodic" (a short run of
    // them on the station's scan period), "reassociation", "association",
    // "bssid-change" (traffic only), "tcp-ack-gap".
    const char* basis = "";
    bool openEnded = false;                // the capture ended before the event did
    std::vector<std::uint64_t> evidenceFrames; // the first kMaxEvidence, in frame order
    std::uint64_t evidenceCount = 0;       // all of them
    std::uint32_t probeRequests = 0;       // sent by the station during the event
    std::uint32_t psPolls = 0;
    std::uint32_t framesToStation = 0;     // the AP's frames to the station meanwhile
    std::uint32_t retriesToStation = 0;    // ... of which carried the Retry bit
    std::uint32_t uplinkFrames = 0;        // frames the station sent while announced away
    std::int32_t connection = -1;          // outage_inferred: TcpAnalysis connection index
    std::uint32_t tcpRetransmissions = 0;  // outage_inferred: retransmissions in the gap
};

// Repetition of a station's scans: median spacing of their starts and median dwell.
struct ScanPattern
{
    std::uint32_t station = 0;
    std::uint32_t scans = 0;
    double intervalMs = 0;                 // 0 with fewer than two scans
    double dwellMs = 0;
    bool periodic = false;                 // >= 3 scans, most spacings within 10% of the median
};

// MAC behaviour of one station in one time bin.
struct MacStatsBin
{
    std::int64_t startNs = 0;
    std::uint64_t framesSent = 0, framesReceived = 0; // data and management
    std::uint64_t retries = 0;             // frames with wlan.fc.retry set, both directions
    std::uint64_t failedAttempts = 0;      // transmissions followed by a retry of the same MPDU
    std::uint64_t rateSamples = 0;
    double meanRateMbps = 0;
    std::uint8_t maxMcs = 0xff;            // 0xff = no MCS seen
    std::uint64_t signalSamples = 0;       // frames the station sent with a signal reading
    double meanSignalDbm = 0;
    std::uint64_t ampdus = 0, ampduSubframes = 0; // radiotap.ampdu.reference groups
    std::uint64_t blockAcks = 0, blockAckRequests = 0;
};

struct StationMacStats
{
    std::uint32_t station = 0;
    std::vector<MacStatsBin> bins;         // only bins with frames, in time order
    std::uint64_t addbaResponses = 0, delbas = 0; // Block Ack session setups / teardowns (9.6.3)
};

struct WlanEventOptions
{
    // An announced absence up to this long, or any with probe requests, is a scan.
    std::int64_t maxScanNs = 120'000'000;
    // Unannounced absence: at least this long, with at least minRetries retries, and
    // at most maxAbsenceNs (longer ones are a lost station, not a scan). Two retries
    // happen after an ordinary collision (7 such runs in 17 s of the lab's ns-3 no-scan
    // run); three did not.
    std::int64_t minAbsenceNs = 2'000'000;
    std::uint32_t minRetries = 3;
    std::int64_t maxAbsenceNs = 500'000'000;
    // A shorter run (at least one unacknowledged attempt) is a scan when the station's
    // scans are periodic and the run ends within periodicEndToleranceNs of a whole
    // number of intervals (at most maxPeriodsAway) from the end of a scan found on its
    // own: a scan ends on the station's dwell timer, a collision's recovery does not.
    // On the lab's ns-3 200 ms scan run, 2 ms admits 8 short scans and none of the 48
    // single retries that were collisions; 3 ms admits 2 collisions.
    std::int64_t periodicEndToleranceNs = 2'000'000;
    std::uint32_t maxPeriodsAway = 5;
    // A (re)association this close to a change of BSSID belongs to that handoff.
    std::int64_t associationWindowNs = 3'000'000'000;
    // TCP-only outages: ACK silence at least max(minOutageNs, outageRttFactor * RTT).
    std::int64_t minOutageNs = 100'000'000;
    double outageRttFactor = 2.0;
    std::int64_t macStatsBinNs = 1'000'000'000;
};

struct WlanEvents
{
    std::vector<WlanEvent> events;         // by start time
    std::vector<ScanPattern> scanPatterns;
    std::vector<StationMacStats> macStats;
    std::vector<std::string> notes;        // what could not be determined, and why
};

WlanEvents detectWlanEvents(const dissect::CaptureTables& tables, const WlanInventory& inventory,
                            const TcpAnalysis& tcp, const WlanEventOptions& options = {});

} // namespace windscope::analysis
