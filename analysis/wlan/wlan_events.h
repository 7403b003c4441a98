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
//   outstanding and retransmits;
// - absence: a run of unanswered retries to the station shorter than the shortest scan
//   (WlanEventOptions::minScanNs): the station was away for at least its span, but so
//   short a run cannot show it left the channel, so it is not called a scan;
// - beacon_loss (lifecycle): the station's AP's beacons missing for at least mac80211's
//   beacon-loss count of intervals while the monitor heard the channel.
// Per-station MAC statistics over time come from the same pass.

#include "analysis/tcp/tcp_analysis.h"
#include "wlan_inventory.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace windscope::analysis {

// The first four and Absence are the absences and moves that stall TCP
// (WlanEvents::events); the others the connection lifecycle of 802.11-2020 11.3
// (WlanEvents::lifecycle). New kinds go at the end: project files store the number.
enum class WlanEventKind : std::uint8_t {
    Scan, PowerSave, Handoff, OutageInferred,
    Authentication, Association, EapolHandshake, Deauthentication, Disassociation,
    AssociationRefused, AttemptUnanswered, FailedRoam, Disconnection,
    Absence, BeaconLoss
};
inline constexpr std::size_t kWlanEventKinds = 15;

// "scan", "power_save", "handoff", "outage_inferred" (the CLI contract's kind names),
// then "authentication", "association", "eapol_handshake", "deauthentication",
// "disassociation", "association_refused", "attempt_unanswered", "failed_roam",
// "disconnection", "absence", "beacon_loss".
const char* eventKindName(WlanEventKind kind);
bool isLifecycleKind(WlanEventKind kind);

// Who sent the frame that decided a lifecycle event.
enum class EventInitiator : std::uint8_t { Unknown, Station, AccessPoint };
const char* initiatorName(EventInitiator initiator); // "", "station", "ap"

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
    // them on the station's scan period), "deaf-retry" (captured on the station's own
    // radio: a stretch it heard nothing in, ended by the AP's retry of an attempt it never
    // heard), "reassociation", "association",
    // "bssid-change" (traffic only), "tcp-ack-gap", "probe-burst" (active scan seen only
    // through the station's probe requests).
    const char* basis = "";
    bool openEnded = false;                // the capture ended before the event did
    // The span is a lower bound of the event (an absence: it began before the first
    // unanswered attempt showed it); printed with ">=" like an open-ended one.
    bool lowerBound() const { return openEnded || (kind == WlanEventKind::Absence && !upperBound()); }
    // Seen from the station's own radio (basis "deaf-retry"): the stretch it heard
    // nothing in holds the absence and the quiet on either side of it.
    bool upperBound() const { return !openEnded && fromStationRadio(); }
    bool fromStationRadio() const { return std::string_view(basis) == "deaf-retry"; }
    // An absence longer than any scan (basis "retry-absence-long"): the station left the
    // AP's channel, roamed or lost; open-ended when it was not heard from again.
    bool departed() const { return std::string_view(basis) == "retry-absence-long"; }
    std::vector<std::uint64_t> evidenceFrames; // the first kMaxEvidence, in frame order
    std::uint64_t evidenceCount = 0;       // all of them
    std::uint32_t probeRequests = 0;       // sent by the station during the event
    std::uint32_t psPolls = 0;
    std::uint32_t framesToStation = 0;     // the AP's frames to the station meanwhile
    std::uint32_t retriesToStation = 0;    // ... of which carried the Retry bit
    std::uint32_t uplinkFrames = 0;        // frames the station sent while announced away
    std::vector<std::uint16_t> channelsMhz; // probe-burst scans: channels probed (radiotap)
    // Lifecycle (802.11-2020 11.3) and handoff details.
    EventInitiator initiator = EventInitiator::Unknown;
    std::int32_t statusCode = -1;          // wlan.fixed.status_code of the response, -1 none
    std::int32_t reasonCode = -1;          // wlan.fixed.reason_code, -1 none
    std::uint32_t attempts = 0;            // requests / repeated frames the event groups; beacon_loss: beacons missed
    std::uint32_t ssid = 0xffffffffu;      // SSID of the BSS joined (handoff, association)
    const char* outcome = "";              // failed_roam: "returned" | "joined_other" | "stayed_away"
    std::vector<std::uint32_t> triedBssids; // failed_roam: the BSSIDs tried in vain
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

// What the MAC statistics read of one frame (a WlanColumns row).
struct MacFrame
{
    std::uint16_t frameControl = 0;
    std::uint8_t status = 0;               // WlanColumns::status bits
    std::uint8_t mcs = 0xff;               // 0xff = none
    std::int8_t signalDbm = dissect::WlanColumns::kNoSignal;
    std::uint32_t dataRateKbps = 0;        // 0 = unknown
    std::uint32_t ampduReference = 0;      // 0 = not in an A-MPDU
    static MacFrame of(const dissect::WlanColumns& w, std::size_t row);
};

// Adds a frame the station sent (sent) or received to its statistics bin: the one rule
// behind the events' per-station bins and the plots' bins of any width.
// lastAmpduReference carries the A-MPDU of the station's previous frame across calls.
void countMacFrame(MacStatsBin& bin, const MacFrame& frame, bool sent, std::uint32_t& lastAmpduReference);

struct StationMacStats
{
    std::uint32_t station = 0;
    std::vector<MacStatsBin> bins;         // only bins with frames, in time order
    std::uint64_t addbaResponses = 0, delbas = 0; // Block Ack session setups / teardowns (9.6.3)
};

struct WlanEventOptions
{
    // An announced absence between minScanNs and maxScanNs is a scan (power save when
    // the station polled for its frames or stayed longer, probe requests or not).
    std::int64_t maxScanNs = 120'000'000;
    // No closed scan is shorter: leaving the channel and coming back takes two channel
    // switches (PLL relock and calibration, about 1 ms each on common 802.11 radios)
    // plus the time spent on the other channel, at least MinChannelTime of the
    // MLME-SCAN primitive (802.11-2020 6.3.3.2.2, 11.1.4.3.2: long enough to send one
    // probe and hear the first response, a few TU). A PM=1 / PM=0 pair closer than
    // this did not leave the channel; a retry run that proves an absence (below) but
    // is shorter is reported as an absence (WlanEventKind::Absence), not a scan.
    std::int64_t minScanNs = 5'000'000;
    // Active scan without a power-save announcement: the station's probe requests
    // (11.1.4.3.2), consecutive ones at most probeBurstGapNs apart, at least
    // minProbeBurst of them. The gap is twice mac80211's longest per-channel dwell
    // (IEEE80211_PASSIVE_CHANNEL_TIME, HZ/9 = 111 ms) so one sweep stays one scan.
    std::int64_t probeBurstGapNs = 250'000'000;
    std::uint32_t minProbeBurst = 2;
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
    // A request with no response from its AP within this is unanswered: five times
    // mac80211's IEEE80211_AUTH_TIMEOUT / IEEE80211_ASSOC_TIMEOUT (HZ/5 = 200 ms),
    // which the station retries up to three times.
    std::int64_t responseTimeoutNs = 1'000'000'000;
    // Repeats of one deauthentication / disassociation (same sender, reason and BSS)
    // this close together are one event.
    std::int64_t repeatWindowNs = 1'000'000'000;
    // The EAPOL-Key exchange after an association completes within this (hostapd's
    // EAPOL timeouts: 1 s per message, four messages, retried).
    std::int64_t handshakeWindowNs = 5'000'000'000;
};

struct WlanEvents
{
    std::vector<WlanEvent> events;         // by start time
    // Authentication, association, handshake, deauthentication... by start time, ids
    // following on from events' (the replay derivation reads events only: these are
    // not outages of the path by themselves).
    std::vector<WlanEvent> lifecycle;
    // Both lists by id: events first, then lifecycle.
    std::size_t size() const { return events.size() + lifecycle.size(); }
    const WlanEvent& at(std::size_t id) const
    {
        return id < events.size() ? events[id] : lifecycle[id - events.size()];
    }
    std::vector<ScanPattern> scanPatterns;
    std::vector<StationMacStats> macStats;
    std::vector<std::string> notes;        // what could not be determined, and why
};

WlanEvents detectWlanEvents(const dissect::CaptureTables& tables, const WlanInventory& inventory,
                            const TcpAnalysis& tcp, const WlanEventOptions& options = {});

} // namespace windscope::analysis
