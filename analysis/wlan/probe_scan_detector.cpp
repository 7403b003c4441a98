// SPDX-License-Identifier: GPL-3.0-or-later
// Active scans that the station did not announce with the Power Management bit: the
// station sends Probe Requests (802.11-2020 11.1.4.3.2) channel after channel. A burst
// of them, consecutive ones at most WlanEventOptions::probeBurstGapNs apart, is one
// scan from its first Probe Request to its last one or the last Probe Response
// addressed to the station, whichever is later. Bursts inside an event already found
// for the station (an announced scan, power save, a handoff) belong to that event.
// The channels are those the radio header gives for the Probe Requests heard (a
// monitor on one channel hears only the probes sent on it).
#include "wlan_event_detectors.h"
#include "wlan_frames.h"

#include <algorithm>

namespace windscope::analysis::detail {

namespace {

struct Burst
{
    std::int64_t startNs = 0, endNs = 0;
    std::uint32_t bssid = wlan::kNoMac;
    std::vector<std::size_t> rows;       // probe requests and responses, in order
    std::uint32_t probes = 0;
};

} // namespace

void detectProbeBursts(const DetectorContext& context, std::vector<WlanEvent>& events,
                       std::vector<std::string>& notes)
{
    const dissect::WlanColumns& w = context.tables.wlan;
    const WlanInventory& inventory = context.inventory;
    const WlanEventOptions& o = context.options;
    std::vector<Burst> open(inventory.stations.size());
    std::vector<WlanEvent> found;
    std::uint64_t tooSmall = 0;
    const auto close = [&](std::size_t station) {
        Burst& b = open[station];
        if (b.rows.empty())
            return;
        const std::uint32_t mac = inventory.stations[station].mac;
        const bool explained = std::any_of(events.begin(), events.end(), [&](const WlanEvent& e) {
            return e.station == mac && e.startNs <= b.endNs && b.startNs <= e.endNs;
        });
        if (explained) {
            // its probes are already counted in the event that explains them
        } else if (b.probes < o.minProbeBurst || b.endNs - b.startNs < o.minScanNs) {
            ++tooSmall;
        } else {
            WlanEvent e;
            e.kind = WlanEventKind::Scan;
            e.station = mac;
            e.bssid = inventory.bssidAt(static_cast<std::int32_t>(station), b.startNs);
            e.startNs = b.startNs;
            e.endNs = b.endNs;
            e.basis = "probe-burst";
            e.probeRequests = b.probes;
            for (std::size_t row : b.rows) {
                addEvidence(e, w.frame[row]);
                const std::uint16_t mhz = w.channelFreqMhz[row];
                if (mhz && w.addr2(row) == mac &&
                    std::find(e.channelsMhz.begin(), e.channelsMhz.end(), mhz) == e.channelsMhz.end())
                    e.channelsMhz.push_back(mhz);
            }
            std::sort(e.channelsMhz.begin(), e.channelsMhz.end());
            found.push_back(std::move(e));
        }
        b = Burst{};
    };
    for (std::size_t row = 0; row < w.size(); ++row) {
        if (wlan::badFcs(w, row) || wlan::frameType(w.frameControl[row]) != wlan::kManagement)
            continue;
        const std::uint8_t sub = wlan::frameSubtype(w.frameControl[row]);
        const std::int64_t t = w.timeNs[row];
        if (sub == wlan::subtype::kProbeRequest) {
            const std::int32_t s = inventory.stationIndex(w.addr2(row));
            if (s < 0)
                continue;
            Burst& b = open[static_cast<std::size_t>(s)];
            if (!b.rows.empty() && t - b.endNs > o.probeBurstGapNs)
                close(static_cast<std::size_t>(s));
            if (b.rows.empty())
                b.startNs = t;
            b.endNs = t;
            b.rows.push_back(row);
            ++b.probes;
        } else if (sub == wlan::subtype::kProbeResponse) {
            const std::int32_t s = inventory.stationIndex(w.addr1(row));
            if (s < 0)
                continue;
            Burst& b = open[static_cast<std::size_t>(s)];
            if (b.rows.empty() || t - b.endNs > o.probeBurstGapNs)
                continue; // an answer to nothing we saw
            b.endNs = t;
            b.rows.push_back(row);
        }
    }
    for (std::size_t s = 0; s < open.size(); ++s)
        close(s);
    if (!found.empty())
        notes.push_back(std::to_string(found.size()) +
                        " active scan(s) found from probe-request bursts alone (no power-save "
                        "announcement on air)");
    if (tooSmall)
        notes.push_back(std::to_string(tooSmall) + " probe request(s) or burst(s) shorter than " +
                        std::to_string(o.minScanNs / 1'000'000) + " ms or of fewer than " +
                        std::to_string(o.minProbeBurst) + " requests: not reported as scans");
    for (WlanEvent& e : found)
        events.push_back(std::move(e));
}

} // namespace windscope::analysis::detail
