// SPDX-License-Identifier: GPL-3.0-or-later
// Handoffs: a station's data frames move from one BSSID to another. Where the capture
// holds the 802.11-2020 11.3 exchange (Authentication, (Re)Association Request and a
// successful Response, possibly after a Deauthentication or Disassociation), the
// station can carry data through the new AP only after that Response (class 3 frames,
// 11.3.3): the outage ends with it, and frames a station addresses to the new BSSID
// before then do not count. The first data frame after it is kept as the moment
// traffic resumed, which a sender in RTO backoff can put much later. Without those frames
// on air the move itself marks the handoff ("bssid-change"). The outage starts with the
// last frame delivered through the old AP: frames the old AP kept retrying to the
// departed station were not delivered and are skipped.
#include "wlan_event_detectors.h"
#include "wlan_frames.h"

#include <algorithm>

namespace windscope::analysis::detail {

namespace {

std::size_t rowOfFrame(const dissect::WlanColumns& w, std::uint64_t frame)
{
    return static_cast<std::size_t>(std::lower_bound(w.frame.begin(), w.frame.end(), frame) -
                                    w.frame.begin());
}

bool involves(const dissect::WlanColumns& w, std::size_t row, std::uint32_t station,
              std::uint32_t bssid)
{
    return wlan::frameType(w.frameControl[row]) == wlan::kData && !wlan::badFcs(w, row) &&
           wlan::dataStationOf(w, row) == station && wlan::bssidOf(w, row) == bssid;
}

// Walks back from the old BSS's last frame past the retries to the departed station.
std::size_t lastDeliveredRow(const dissect::WlanColumns& w, const AssociationSpan& span,
                             std::uint32_t station)
{
    constexpr std::size_t kMaxRetried = 64;
    std::uint16_t retried[kMaxRetried];
    std::size_t retriedCount = 0;
    const std::size_t first = rowOfFrame(w, span.firstFrame);
    const std::size_t last = std::min(rowOfFrame(w, span.lastFrame), w.size() - 1);
    for (std::size_t row = last + 1; row-- > first;) {
        if (!involves(w, row, station, span.bssid))
            continue;
        const std::uint16_t fc = w.frameControl[row];
        const auto sequence = static_cast<std::uint16_t>(w.sequenceControl[row] >> 4);
        const bool downlink = wlan::fromDs(fc);
        const bool wasRetried =
            std::find(retried, retried + retriedCount, sequence) != retried + retriedCount;
        if (downlink && wlan::retry(fc)) {
            if (!wasRetried && retriedCount < kMaxRetried)
                retried[retriedCount++] = sequence;
        } else if (!(downlink && wasRetried)) {
            return row;
        }
    }
    return last;
}

} // namespace

void detectHandoffs(const DetectorContext& context, std::vector<WlanEvent>& events,
                    std::vector<std::string>& notes)
{
    const dissect::WlanColumns& w = context.tables.wlan;
    const WlanInventory& inventory = context.inventory;
    const std::int64_t window = context.options.associationWindowNs;
    std::size_t departures = 0;
    for (const Station& s : inventory.stations) {
        for (std::size_t k = 1; k < s.timeline.size(); ++k) {
            const AssociationSpan& a = s.timeline[k - 1];
            const AssociationSpan& b = s.timeline[k];
            if (inventory.apIndex(a.bssid) < 0 || inventory.apIndex(b.bssid) < 0)
                continue; // IBSS or unknown BSS: nothing to hand off between
            WlanEvent e;
            e.kind = WlanEventKind::Handoff;
            e.station = s.mac;
            e.bssid = a.bssid;
            e.newBssid = b.bssid;
            const std::size_t startRow = lastDeliveredRow(w, a, s.mac);
            e.startNs = w.timeNs[startRow];
            addEvidence(e, w.frame[startRow]);

            const AssociationFrame* joined = nullptr;
            for (const AssociationFrame& f : s.management) {
                const bool response = f.subtype == wlan::subtype::kAssocResponse ||
                                      f.subtype == wlan::subtype::kReassocResponse;
                if (response && !f.fromStation && f.bssid == b.bssid && f.statusCode == 0 &&
                    f.timeNs >= e.startNs && f.timeNs <= b.startNs + window) {
                    joined = &f;
                    break;
                }
            }
            std::size_t endRow = rowOfFrame(w, b.firstFrame);
            std::size_t resumedRow = endRow;
            e.basis = "bssid-change";
            if (joined) {
                // The successful Response completes the (re)association (11.3.5.3 /
                // 11.3.5.5): the new AP delivers frames to the station from here on.
                e.basis = joined->subtype == wlan::subtype::kReassocResponse ? "reassociation"
                                                                              : "association";
                endRow = joined->row;
                resumedRow = w.size();
                const std::int64_t limit = joined->timeNs + window;
                for (std::size_t row = joined->row + 1; row < w.size() && w.timeNs[row] <= limit;
                     ++row)
                    if (involves(w, row, s.mac, b.bssid)) {
                        resumedRow = row;
                        break;
                    }
            }
            e.endNs = w.timeNs[endRow];
            if (resumedRow < w.size()) {
                e.resumedNs = w.timeNs[resumedRow];
                addEvidence(e, w.frame[resumedRow]);
            }
            for (const AssociationFrame& f : s.management)
                if (f.timeNs >= e.startNs && f.timeNs <= e.endNs)
                    addEvidence(e, f.frame);
            // What the station and the old AP did meanwhile.
            for (std::size_t row = startRow + 1; row < endRow && row < w.size(); ++row) {
                if (wlan::badFcs(w, row))
                    continue;
                const std::uint16_t fc = w.frameControl[row];
                if (wlan::isManagement(fc, wlan::subtype::kProbeRequest) && w.addr2(row) == s.mac) {
                    ++e.probeRequests;
                    addEvidence(e, w.frame[row]);
                } else if (involves(w, row, s.mac, a.bssid) && wlan::fromDs(fc)) {
                    ++e.framesToStation;
                    if (wlan::retry(fc))
                        ++e.retriesToStation;
                }
            }
            if (!joined)
                addEvidence(e, w.frame[endRow]);
            std::sort(e.evidenceFrames.begin(), e.evidenceFrames.end());
            events.push_back(std::move(e));
        }
        // A station that left (deauthentication / disassociation) and was not heard
        // through another AP afterwards: where it went is not in this capture.
        for (const AssociationFrame& f : s.management)
            if ((f.subtype == wlan::subtype::kDeauth || f.subtype == wlan::subtype::kDisassoc) &&
                (s.timeline.empty() || s.timeline.back().endNs <= f.timeNs))
                ++departures;
    }
    if (departures)
        notes.push_back(std::to_string(departures) +
                        " deauthentication/disassociation frame(s) with no later traffic of the "
                        "station: whether a handoff followed could not be determined");
}

} // namespace windscope::analysis::detail
