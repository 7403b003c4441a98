// SPDX-License-Identifier: GPL-3.0-or-later
// Beacon loss: the beacons of a station's AP missing for several beacon intervals while
// the monitor still heard the channel.
//
// An AP sends a Beacon every beacon interval (the Beacon Interval field, 9.4.1.3, in TU
// of 1024 us; 802.11-2020 11.1.3.2). A station that stops hearing them takes its AP as
// gone: Linux mac80211 declares the connection lost after IEEE80211_BEACON_LOSS_COUNT (7)
// missed beacons (net/mac80211/mlme.c, ieee80211_beacon_connection_loss_work), then
// probes the AP and drops the association. A gap in the AP's beacons in the capture is a
// beacon loss only where the monitor can be shown to have been listening: at least that
// many of the missed beacons' times fall where the capture holds other frames on the
// AP's channel. Otherwise the monitor itself stopped hearing (a sniffer gap, a channel
// hop) and nothing is reported.
#include "wlan_event_detectors.h"
#include "wlan_frames.h"

#include <algorithm>
#include <map>

namespace windscope::analysis::detail {

namespace {

// mac80211's IEEE80211_BEACON_LOSS_COUNT: missed beacons before the connection is lost.
constexpr std::int64_t kBeaconLossCount = 7;
// One time unit, 802.11-2020 3.1 (TU): 1024 us.
constexpr std::int64_t kTuNs = 1'024'000;

struct Beacon
{
    std::int64_t ns = 0;
    std::uint64_t frame = 0;
};

} // namespace

void detectBeaconLoss(const DetectorContext& context, std::vector<WlanEvent>& lifecycle,
                      std::vector<std::string>& notes)
{
    const dissect::WlanColumns& w = context.tables.wlan;
    const WlanInventory& inventory = context.inventory;
    if (w.size() == 0 || inventory.stations.empty())
        return;
    std::map<std::uint32_t, std::vector<Beacon>> beacons; // by BSSID
    // Beacons heard with a bad FCS, by the transmitter address as read: the monitor
    // heard the AP but could not decode it.
    std::map<std::uint32_t, std::vector<std::int64_t>> garbled;
    for (const dissect::WlanManagementRecord& r : context.tables.wlanManagement) {
        const std::size_t row = r.row;
        if (row >= w.size() || !wlan::isManagement(w.frameControl[row], wlan::subtype::kBeacon) ||
            inventory.apIndex(w.addr2(row)) < 0)
            continue;
        if (wlan::badFcs(w, row))
            garbled[w.addr2(row)].push_back(w.timeNs[row]);
        else
            beacons[w.addr2(row)].push_back({w.timeNs[row], w.frame[row]});
    }
    const std::int64_t captureEndNs = w.timeNs[w.size() - 1];
    std::size_t unheard = 0;
    for (const auto& entry : beacons) {
        // Named copies, not structured bindings: the lambdas below capture them (clang
        // before 16 cannot capture a binding).
        const auto bssid = entry.first;
        const auto& list = entry.second;
        const AccessPoint& ap = inventory.accessPoints[static_cast<std::size_t>(inventory.apIndex(bssid))];
        if (ap.beaconIntervalTu == 0 || list.size() < 2)
            continue;
        const std::int64_t intervalNs = ap.beaconIntervalTu * kTuNs;
        // A monitor that kept under half of the AP's beacons (a capture filter, a channel
        // hop, a weak signal) does not show which ones the AP left out.
        const std::int64_t expected = (list.back().ns - list.front().ns) / intervalNs + 1;
        const std::vector<std::int64_t>& bad = garbled[bssid];
        // Nor one that decoded fewer of its beacons than it garbled (a weak signal).
        if (2 * static_cast<std::int64_t>(list.size()) < expected || bad.size() > list.size())
            continue;
        // Did the monitor hear anything else on the AP's channel within half an interval
        // of time t (where the missed beacon was due)?
        const auto heardAround = [&](std::int64_t t) {
            auto it = std::lower_bound(w.timeNs.begin(), w.timeNs.end(), t - intervalNs / 2);
            for (auto row = static_cast<std::size_t>(it - w.timeNs.begin());
                 row < w.size() && w.timeNs[row] <= t + intervalNs / 2; ++row) {
                if (wlan::badFcs(w, row) || w.addr2(row) == bssid)
                    continue;
                if (ap.channelFreqMhz && w.channelFreqMhz[row] && w.channelFreqMhz[row] != ap.channelFreqMhz)
                    continue;
                return true;
            }
            return false;
        };
        for (std::size_t i = 0; i < list.size(); ++i) {
            const std::int64_t fromNs = list[i].ns;
            const bool last = i + 1 == list.size();
            const std::int64_t toNs = last ? captureEndNs : list[i + 1].ns;
            // Beacons due strictly inside the gap (the next one heard is not missed).
            const std::int64_t due = (toNs - fromNs - intervalNs / 2) / intervalNs;
            if (due < kBeaconLossCount)
                continue;
            std::int64_t missedHeard = 0;
            for (std::int64_t k = 1; k <= due; ++k)
                missedHeard += heardAround(fromNs + k * intervalNs);
            // A beacon heard garbled inside the gap: the AP was there, the monitor did not
            // decode it.
            const auto firstBad = std::upper_bound(bad.begin(), bad.end(), fromNs);
            if (missedHeard < kBeaconLossCount || (firstBad != bad.end() && *firstBad < toNs)) {
                ++unheard;
                continue;
            }
            // The stations in this BSS then: a run of their data frames through it spans
            // the last beacon heard.
            for (std::size_t s = 0; s < inventory.stations.size(); ++s) {
                const Station& station = inventory.stations[s];
                const bool inBss = std::any_of(station.timeline.begin(), station.timeline.end(),
                                               [&](const AssociationSpan& span) {
                                                   return span.bssid == bssid && span.startNs <= fromNs &&
                                                          span.endNs >= fromNs;
                                               });
                if (!inBss)
                    continue;
                // The station's tie to this AP ends where it joins another BSS (its next
                // data there, or its authentication or association with it): the beacons
                // missed after that are no loss to it.
                std::int64_t leftNs = toNs;
                for (const AssociationSpan& span : station.timeline)
                    if (span.bssid != bssid && span.startNs > fromNs)
                        leftNs = std::min(leftNs, span.startNs);
                for (const WlanEvent& other : lifecycle)
                    if (other.station == station.mac && other.bssid != bssid && other.startNs > fromNs &&
                        (other.kind == WlanEventKind::Authentication || other.kind == WlanEventKind::Association))
                        leftNs = std::min(leftNs, other.startNs);
                // Gone before a loss could be declared: it left on its own.
                if (leftNs - fromNs < (kBeaconLossCount + 1) * intervalNs - intervalNs / 2)
                    continue;
                WlanEvent& e = lifecycle.emplace_back();
                e.kind = WlanEventKind::BeaconLoss;
                e.station = station.mac;
                e.bssid = bssid;
                e.ssid = ap.ssid;
                e.startNs = fromNs;
                e.endNs = leftNs;
                e.openEnded = last && leftNs == toNs;
                e.initiator = EventInitiator::AccessPoint;
                e.basis = "beacons-missed";
                // Beacons missed while the station still belonged to the AP.
                e.attempts = static_cast<std::uint32_t>(
                    std::min(due, (leftNs - fromNs - intervalNs / 2) / intervalNs));
                addEvidence(e, list[i].frame);
                if (!last && leftNs == toNs)
                    addEvidence(e, list[i + 1].frame);
            }
        }
    }
    if (unheard)
        notes.push_back(std::to_string(unheard) + " gap(s) of " + std::to_string(kBeaconLossCount) +
                        " or more beacon intervals in an AP's beacons while the capture heard too little "
                        "else on its channel, or heard the AP's beacons garbled, to tell them from a gap of "
                        "the monitor: no beacon loss reported");
}

} // namespace windscope::analysis::detail
