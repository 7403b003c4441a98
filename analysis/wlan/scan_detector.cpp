// SPDX-License-Identifier: GPL-3.0-or-later
// Absences of a station from its channel, in one pass over the 802.11 rows.
//
// Announced: a station that leaves its channel to scan first tells its AP it is going
// to doze, with the Power Management bit of a frame it sends (802.11-2020 9.2.4.1.7,
// 11.2.3.1) - usually a Null or QoS Null frame - and clears the bit when it is back.
// Linux mac80211 does exactly this around off-channel work (ieee80211_offchannel_
// ps_enable / ps_disable send a nullfunc each time). What the station does meanwhile
// tells a scan (probe requests, 11.1.4.3.2; a short stay) from power save (PS-Poll,
// 11.2.3.6; dozing for beacon intervals). A data frame with PM=0 while the station is
// announced away is taken as its return only when no explicit Null with PM=0 follows
// before it dozes again: scanning stations return with the Null.
//
// Unannounced: the AP keeps transmitting to a station that is not there and every
// attempt goes unacknowledged, so the same MPDU is retried (10.3.2.14) until the
// station answers. A run of retries to one station that ends with its return is an
// absence; short ones are scans, long ones a station lost (a handoff or worse).
//
// Deaf: captured on the station's own radio (its own frames carry no signal reading, a
// radio does not measure what it sends), the attempts made while it was away are not in
// the capture at all. After a stretch in which it heard nothing, longer than a collision
// explains, the AP's frame to it numbered past MPDUs it never heard, or its own data
// frame retried, shows the radio was off its channel for that stretch: on channel it
// hears the AP. The AP's retry alone is no evidence: a frame lost on air to the edge's
// noise after an idle channel looks the same.
#include "wlan_event_detectors.h"
#include "wlan_frames.h"

#include <algorithm>
#include <string_view>

namespace windscope::analysis::detail {

namespace {

struct DozeState
{
    bool dozing = false;
    WlanEvent event;
    std::int64_t candidateEndNs = -1;      // first PM=0 data frame while away
    std::uint64_t candidateEndFrame = 0;
};

struct AbsenceState
{
    bool active = false;
    WlanEvent event;
    std::uint32_t retries = 0;
    bool haveLast = false;                 // the AP's last transmission to the station
    bool lastAcked = false;                // ... and the station acknowledged it on air
    std::uint16_t lastSequence = 0;
    std::int64_t lastTxNs = 0;
    std::uint64_t lastTxFrame = 0;
    // The AP moved on to a new MPDU during the run and nothing answered yet: the last
    // unanswered attempt of the run, where it ends unless the new MPDU is retried too.
    std::int64_t pendingEndNs = -1;
};

// The station whose own radio made the capture: every frame it sent without a signal
// reading, while most of those it received have one; -1 when no station is.
std::int32_t capturingStation(const dissect::WlanColumns& w, const WlanInventory& inventory)
{
    // Frames it sent before its radio is taken for the capture's: more than a handful
    // of association and Null frames, which a sniffer can miss the signal of.
    constexpr std::uint64_t kMinSent = 20;
    std::vector<std::uint64_t> sent(inventory.stations.size(), 0), sentWithSignal(inventory.stations.size(), 0);
    std::uint64_t received = 0, receivedWithSignal = 0;
    for (std::size_t row = 0; row < w.size(); ++row) {
        if (wlan::badFcs(w, row))
            continue;
        const bool withSignal = w.signalDbm[row] != dissect::WlanColumns::kNoSignal;
        const std::int32_t from =
            wlan::namesTransmitter(w.frameControl[row]) ? inventory.stationIndex(w.addr2(row)) : -1;
        if (from >= 0) {
            ++sent[static_cast<std::size_t>(from)];
            sentWithSignal[static_cast<std::size_t>(from)] += withSignal;
        } else if (inventory.stationIndex(w.addr1(row)) >= 0) {
            ++received;
            receivedWithSignal += withSignal;
        }
    }
    std::int32_t found = -1;
    for (std::size_t i = 0; i < sent.size(); ++i)
        if (sent[i] >= kMinSent && sentWithSignal[i] == 0) {
            if (found >= 0)
                return -1; // two such stations: the capture records no signal at all
            found = static_cast<std::int32_t>(i);
        }
    return 2 * receivedWithSignal > received ? found : -1;
}

// The longest stretch a radio on its channel can hear nothing in before a retry when its
// own frame collided with the attempt: the colliding attempt and the retry, each at most
// a full frame of a 1500-byte Ethernet MTU (1538 bytes with the QoS MAC header, LLC and
// FCS) at the row's rate, plus 1 ms for the ACK timeout, AIFS and the first retry's 31
// slots with DSSS timing, the slowest (222 + 70 + 620 us).
std::int64_t collisionSpanNs(const dissect::WlanColumns& w, std::size_t row)
{
    constexpr double kFullFrameBits = 1538 * 8;
    // The long DSSS preamble and PLCP header, 192 us; an OFDM or HT one takes 20-40 us.
    const double preambleUs = wlan::isDsssRateKbps(w.dataRateKbps[row]) ? 192 : 40;
    // Unknown rate: the slowest OFDM rate, 6 Mb/s.
    const double rateMbps = w.dataRateKbps[row] > 0 ? w.dataRateKbps[row] / 1000.0 : 6.0;
    const double frameUs = preambleUs + kFullFrameBits / rateMbps;
    return static_cast<std::int64_t>((2 * frameUs + 1000) * 1000);
}

struct MacState
{
    std::uint32_t lastAmpduReference = 0;
};

class AbsencePass
{
public:
    AbsencePass(const DetectorContext& context, std::vector<WlanEvent>& events,
                std::vector<WlanEvent>& shortRuns, std::vector<StationMacStats>& macStats)
        : m_context(context), m_events(events), m_shortRuns(shortRuns), m_macStats(macStats),
          m_doze(context.inventory.stations.size()), m_absence(context.inventory.stations.size()),
          m_mac(context.inventory.stations.size()),
          m_capturingStation(capturingStation(context.tables.wlan, context.inventory))
    {
        macStats.resize(context.inventory.stations.size());
        for (std::size_t i = 0; i < macStats.size(); ++i)
            macStats[i].station = context.inventory.stations[i].mac;
    }

    void run();
    std::uint64_t longAbsences() const { return m_longAbsences; }
    std::uint64_t shortDozes() const { return m_shortDozes; }

private:
    void countMac(std::size_t station, std::size_t row, bool sent);
    void fromStation(std::size_t station, std::size_t row);
    void toStation(std::size_t station, std::size_t row);
    void startDoze(std::size_t station, std::size_t row);
    void closeDoze(std::size_t station, std::int64_t endNs, std::uint64_t endFrame);
    void closeAbsence(std::size_t station, std::int64_t endNs, bool openEnded = false);
    bool missedBefore(std::size_t row);
    void deafStretch(std::size_t station, std::size_t row);

    const DetectorContext& m_context;
    std::vector<WlanEvent>& m_events;
    std::vector<WlanEvent>& m_shortRuns;
    std::vector<StationMacStats>& m_macStats;
    std::vector<DozeState> m_doze;
    std::vector<AbsenceState> m_absence;
    std::vector<MacState> m_mac;
    const std::int32_t m_capturingStation;
    std::int64_t m_lastHeardNs = -1; // the last row before the current one
    // The capturing station's AP and the last sequence numbers heard from it.
    std::uint32_t m_apOfCapture = wlan::kNoMac;
    std::int32_t m_lastQosSequence = -1, m_lastOtherSequence = -1;
    std::uint64_t m_longAbsences = 0;
    std::uint64_t m_shortDozes = 0;
};

void AbsencePass::countMac(std::size_t station, std::size_t row, bool sent)
{
    const dissect::WlanColumns& w = m_context.tables.wlan;
    const std::int64_t binNs = std::max<std::int64_t>(m_context.options.macStatsBinNs, 1);
    const std::int64_t t = w.timeNs[row];
    StationMacStats& stats = m_macStats[station];
    if (stats.bins.empty() || t >= stats.bins.back().startNs + binNs) {
        MacStatsBin bin;
        bin.startNs = t - ((t % binNs) + binNs) % binNs;
        stats.bins.push_back(bin);
    }
    countMacFrame(stats.bins.back(), MacFrame::of(w, row), sent, m_mac[station].lastAmpduReference);
}

void AbsencePass::startDoze(std::size_t station, std::size_t row)
{
    const dissect::WlanColumns& w = m_context.tables.wlan;
    DozeState& d = m_doze[station];
    d.dozing = true;
    d.candidateEndNs = -1;
    d.event = WlanEvent{};
    d.event.evidenceFrames.reserve(16);
    d.event.station = m_context.inventory.stations[station].mac;
    d.event.bssid = wlan::bssidOf(w, row);
    d.event.startNs = w.timeNs[row];
    d.event.basis = "pm-null";
    addEvidence(d.event, w.frame[row]);
}

void AbsencePass::closeDoze(std::size_t station, std::int64_t endNs, std::uint64_t endFrame)
{
    DozeState& d = m_doze[station];
    d.dozing = false;
    WlanEvent& e = d.event;
    e.endNs = endNs;
    if (endFrame)
        addEvidence(e, endFrame);
    const std::int64_t length = e.endNs - e.startNs;
    if (!e.openEnded && length < m_context.options.minScanNs) {
        // Too short to have left the channel (see WlanEventOptions::minScanNs).
        ++m_shortDozes;
        return;
    }
    // Probe requests do not lift the bound: a doze longer than any dwell is power save
    // during which the station also probed.
    if (e.psPolls || length > m_context.options.maxScanNs)
        e.kind = WlanEventKind::PowerSave;
    else
        e.kind = WlanEventKind::Scan;
    m_events.push_back(std::move(e));
}

void AbsencePass::closeAbsence(std::size_t station, std::int64_t endNs, bool openEnded)
{
    AbsenceState& a = m_absence[station];
    a.active = false;
    if (a.pendingEndNs >= 0 && !openEnded) {
        // The station answered after the AP moved on to a new MPDU: the run ended with
        // the old MPDU's last unanswered attempt.
        endNs = a.pendingEndNs;
    }
    a.pendingEndNs = -1;
    WlanEvent& e = a.event;
    e.endNs = endNs;
    e.openEnded = openEnded;
    const std::int64_t length = e.endNs - e.startNs;
    const WlanEventOptions& o = m_context.options;
    e.kind = WlanEventKind::Scan;
    // A run of unanswered retries shows the station away for at least its length; when
    // it left is unknown (the AP noticed late if it had nothing to send before), so the
    // run keeps its measured span. Stretching it to the shortest scan overstated the
    // outage where the retries were not a scan (the lab's handoff runs).
    const bool deaf = e.fromStationRadio();
    if ((!deaf && a.retries < o.minRetries) || length < o.minAbsenceNs) {
        // Alone, as likely a collision as an absence; kept in case it falls on the
        // station's scan period (see admitPeriodicShortRuns).
        m_shortRuns.push_back(std::move(e));
        return;
    }
    if (length > o.maxAbsenceNs) {
        // Longer than any scan: the station left (another AP, or lost). Reported as an
        // absence of unknown cause; a handoff the capture shows takes it over
        // (foldAbsences).
        // A deaf stretch keeps its basis: it bounds the absence from above, and the
        // replay derivation does not take it for a station that left.
        e.kind = WlanEventKind::Absence;
        if (!deaf) {
            e.basis = "retry-absence-long";
            ++m_longAbsences;
        }
    }
    m_events.push_back(std::move(e));
}

void AbsencePass::fromStation(std::size_t station, std::size_t row)
{
    const dissect::WlanColumns& w = m_context.tables.wlan;
    const std::uint16_t fc = w.frameControl[row];
    const std::uint8_t type = wlan::frameType(fc);
    const std::uint8_t sub = wlan::frameSubtype(fc);
    const std::int64_t t = w.timeNs[row];
    // Heard from: an unannounced absence is over.
    if (m_absence[station].active)
        closeAbsence(station, t);

    DozeState& d = m_doze[station];
    if (type == wlan::kData && wlan::toDs(fc) && !wlan::fromDs(fc) &&
        !(w.status[row] & dissect::WlanColumns::kMacDuplicate)) {
        const bool null = wlan::isNullData(fc);
        if (wlan::powerManagement(fc)) {
            if (!d.dozing) {
                startDoze(station, row);
                if (!null)
                    d.event.basis = "pm-data";
            } else if (d.candidateEndNs >= 0) {
                // It came back with a data frame and leaves again: two periods.
                closeDoze(station, d.candidateEndNs, d.candidateEndFrame);
                startDoze(station, row);
            } else {
                addEvidence(d.event, w.frame[row]);
            }
        } else if (d.dozing) {
            if (null) {
                closeDoze(station, t, w.frame[row]);
            } else {
                ++d.event.uplinkFrames;
                if (d.candidateEndNs < 0) {
                    d.candidateEndNs = t;
                    d.candidateEndFrame = w.frame[row];
                }
            }
        }
        return;
    }
    if (!d.dozing)
        return;
    if (type == wlan::kManagement && sub == wlan::subtype::kProbeRequest) {
        ++d.event.probeRequests;
        addEvidence(d.event, w.frame[row]);
    } else if (type == wlan::kControl && sub == wlan::subtype::kPsPoll) {
        ++d.event.psPolls;
        addEvidence(d.event, w.frame[row]);
    }
}

void AbsencePass::toStation(std::size_t station, std::size_t row)
{
    const dissect::WlanColumns& w = m_context.tables.wlan;
    const std::uint16_t fc = w.frameControl[row];
    const std::uint8_t type = wlan::frameType(fc);
    const bool fromAp = (type == wlan::kData && wlan::fromDs(fc) && !wlan::toDs(fc)) ||
                        (type == wlan::kManagement && w.addr2(row) == w.addr3(row));
    if (!fromAp)
        return;
    const std::int64_t t = w.timeNs[row];
    DozeState& d = m_doze[station];
    if (d.dozing) {
        ++d.event.framesToStation;
        if (wlan::retry(fc)) {
            ++d.event.retriesToStation;
            addEvidence(d.event, w.frame[row]);
        }
    }
    // Only data frames: a Probe Response is retried because the scanning station has
    // already moved to its next channel, which dates the AP's retries, not the scan.
    if (w.sequenceControl[row] == 0xffff || type != wlan::kData)
        return;
    const std::uint16_t sequence = static_cast<std::uint16_t>(w.sequenceControl[row] >> 4);
    // A station the monitor never heard cannot be shown away: its answers may all have
    // been missed (the inventory notes it).
    if (m_context.inventory.stations[station].framesSent == 0)
        return;
    AbsenceState& a = m_absence[station];
    // A retry of an attempt the station acknowledged on air is the AP missing that
    // acknowledgement (lost at the AP, heard by the sniffer): the station was there.
    if (wlan::retry(fc) && a.haveLast && sequence == a.lastSequence && !a.lastAcked) {
        // The previous attempt of this MPDU went unacknowledged.
        if (!a.active) {
            a.active = true;
            a.retries = 0;
            a.pendingEndNs = -1;
            a.event = WlanEvent{};
            a.event.evidenceFrames.reserve(16);
            a.event.station = m_context.inventory.stations[station].mac;
            a.event.bssid = wlan::bssidOf(w, row);
            a.event.startNs = a.lastTxNs;
            a.event.basis = "retry-absence";
            addEvidence(a.event, a.lastTxFrame);
        }
        // A retry of the MPDU the AP moved on to: the station is still silent, and that
        // MPDU's first attempt was sent during the absence too.
        if (a.pendingEndNs >= 0) {
            a.pendingEndNs = -1;
            ++a.event.framesToStation;
            addEvidence(a.event, a.lastTxFrame);
        }
        ++a.retries;
        ++a.event.retriesToStation;
        ++a.event.framesToStation;
        addEvidence(a.event, w.frame[row]);
    } else if (a.active && a.pendingEndNs < 0) {
        // A new MPDU: the retried one was acknowledged (the Ack unheard here) or given
        // up at the retry limit (10.3.2.14). A retry of the new one means no one
        // answered, and the run goes on; the station heard, or an Ack, ends the run at
        // the old MPDU's last attempt. Moving on without a retry is no answer: a
        // station-wide retry count can drop a frame after one attempt (ns-3 does).
        a.pendingEndNs = a.lastTxNs;
    }
    a.haveLast = true;
    a.lastAcked = false;
    a.lastSequence = sequence;
    a.lastTxNs = t;
    a.lastTxFrame = w.frame[row];
}

// Whether the capturing station's radio missed a transmission before this row: the AP's
// frame to it numbered past frames never heard, or its own data retried (the AP's retry
// alone is no evidence, see the top of the file). The AP numbers its QoS data (per TID; one here)
// apart from everything else it sends (10.3.2.14): management, broadcasts, non-QoS data.
// Frames of an A-MPDU are left out: their retries follow a Block Ack's bitmap.
bool AbsencePass::missedBefore(std::size_t row)
{
    const dissect::WlanColumns& w = m_context.tables.wlan;
    const std::uint16_t fc = w.frameControl[row];
    if (m_capturingStation < 0 || w.sequenceControl[row] == 0xffff || wlan::frameType(fc) == wlan::kControl)
        return false;
    const std::uint32_t station = m_context.inventory.stations[static_cast<std::size_t>(m_capturingStation)].mac;
    if (wlan::frameType(fc) == wlan::kData && wlan::toDs(fc) && !wlan::fromDs(fc) && w.addr2(row) == station)
        return wlan::retry(fc) && w.ampduReference[row] == 0;
    // The AP: the transmitter of what it sends to the station and of its own management.
    const bool toStation = wlan::frameType(fc) == wlan::kData && wlan::fromDs(fc) && !wlan::toDs(fc) &&
                           w.addr1(row) == station;
    if (m_apOfCapture == wlan::kNoMac && toStation)
        m_apOfCapture = w.addr2(row);
    if (m_apOfCapture == wlan::kNoMac || w.addr2(row) != m_apOfCapture)
        return false;
    const auto sequence = static_cast<std::int32_t>(w.sequenceControl[row] >> 4);
    std::int32_t& last = wlan::isQosData(fc) ? m_lastQosSequence : m_lastOtherSequence;
    const std::int32_t before = last;
    last = sequence;
    // Frames to other stations share the counters, so only those to this one are judged.
    if (!toStation || w.ampduReference[row] != 0)
        return false;
    return before >= 0 && sequence != before && sequence != ((before + 1) & 0xfff);
}

void AbsencePass::deafStretch(std::size_t station, std::size_t row)
{
    const dissect::WlanColumns& w = m_context.tables.wlan;
    if (m_lastHeardNs < 0)
        return;
    AbsenceState& a = m_absence[station];
    if (a.active)
        closeAbsence(station, m_lastHeardNs);
    a.active = true;
    a.retries = 1;
    a.pendingEndNs = -1;
    a.event = WlanEvent{};
    a.event.station = m_context.inventory.stations[station].mac;
    a.event.bssid = wlan::bssidOf(w, row);
    a.event.startNs = m_lastHeardNs;
    a.event.basis = "deaf-retry";
    // What the AP sent meanwhile is not in the capture: its counts stay 0.
    addEvidence(a.event, w.frame[row]);
    // Back on its channel by the retry it heard.
    closeAbsence(station, w.timeNs[row]);
}

void AbsencePass::run()
{
    const dissect::WlanColumns& w = m_context.tables.wlan;
    const WlanInventory& inventory = m_context.inventory;
    // The AP's transmission to a station whose acknowledgement is awaited on the next
    // row: an Ack or Block Ack to the AP right after it means the station answered.
    std::int32_t awaitingStation = -1;
    std::uint32_t awaitingAp = wlan::kNoMac;
    std::int64_t awaitingNs = 0;
    for (std::size_t row = 0; row < w.size(); ++row) {
        if (wlan::badFcs(w, row)) {
            // A garbled frame is not counted, but one naming a station as its
            // transmitter shows the station on the channel: corruption that turns an
            // address into a known station's 48 bits is far less likely than the
            // station itself sending. It ends that station's unannounced absence.
            if (wlan::namesTransmitter(w.frameControl[row])) {
                const std::int32_t s = inventory.stationIndex(w.addr2(row));
                if (s >= 0 && m_absence[static_cast<std::size_t>(s)].active)
                    closeAbsence(static_cast<std::size_t>(s), w.timeNs[row]);
            }
            m_lastHeardNs = w.timeNs[row];
            continue;
        }
        if (missedBefore(row) && w.timeNs[row] - m_lastHeardNs > collisionSpanNs(w, row))
            deafStretch(static_cast<std::size_t>(m_capturingStation), row);
        const std::uint16_t fc = w.frameControl[row];
        const std::uint8_t type = wlan::frameType(fc);
        const std::uint8_t sub = wlan::frameSubtype(fc);
        if (awaitingStation >= 0) {
            const bool acked = type == wlan::kControl &&
                               (sub == wlan::subtype::kAck || sub == wlan::subtype::kBlockAck) &&
                               w.addr1(row) == awaitingAp;
            const auto s = static_cast<std::size_t>(awaitingStation);
            if (acked && m_absence[s].active)
                closeAbsence(s, awaitingNs);
            if (acked && m_absence[s].haveLast && m_absence[s].lastTxNs == awaitingNs)
                m_absence[s].lastAcked = true;
            awaitingStation = -1;
        }
        const std::int32_t from = wlan::namesTransmitter(fc) ? inventory.stationIndex(w.addr2(row)) : -1;
        const std::int32_t to = inventory.stationIndex(w.addr1(row));
        if (from >= 0) {
            countMac(static_cast<std::size_t>(from), row, true);
            fromStation(static_cast<std::size_t>(from), row);
        }
        if (to >= 0 && to != from) {
            countMac(static_cast<std::size_t>(to), row, false);
            if (type != wlan::kControl) {
                toStation(static_cast<std::size_t>(to), row);
                awaitingStation = to;
                awaitingAp = w.addr2(row);
                awaitingNs = w.timeNs[row];
            }
        }
        if (type == wlan::kManagement && sub == wlan::subtype::kAction) {
            const auto& records = m_context.tables.wlanManagement;
            auto it = std::lower_bound(records.begin(), records.end(), row,
                                       [](const dissect::WlanManagementRecord& r, std::size_t v) {
                                           return r.row < v;
                                       });
            const std::int32_t owner = from >= 0 ? from : to;
            // Block Ack category (9.6.3): action 1 ADDBA Response, 2 DELBA.
            if (owner >= 0 && it != records.end() && it->row == row && it->actionCategory == 3) {
                if (it->actionCode == 1)
                    ++m_macStats[static_cast<std::size_t>(owner)].addbaResponses;
                else if (it->actionCode == 2)
                    ++m_macStats[static_cast<std::size_t>(owner)].delbas;
            }
        }
        m_lastHeardNs = w.timeNs[row];
    }
    const std::int64_t lastNs = w.size() ? w.timeNs[w.size() - 1] : 0;
    for (std::size_t s = 0; s < m_doze.size(); ++s) {
        DozeState& d = m_doze[s];
        if (d.dozing) {
            if (d.candidateEndNs >= 0) {
                closeDoze(s, d.candidateEndNs, d.candidateEndFrame);
            } else {
                d.event.openEnded = true;
                closeDoze(s, lastNs, 0);
            }
        }
        if (m_absence[s].active)
            closeAbsence(s, m_absence[s].lastTxNs, true);
    }
}

} // namespace

void addEvidence(WlanEvent& event, std::uint64_t frame)
{
    ++event.evidenceCount;
    if (event.evidenceFrames.size() < WlanEvent::kMaxEvidence)
        event.evidenceFrames.push_back(frame);
}

void detectAbsences(const DetectorContext& context, std::vector<WlanEvent>& events,
                    std::vector<WlanEvent>& shortRuns, std::vector<StationMacStats>& macStats,
                    std::vector<std::string>& notes)
{
    AbsencePass pass(context, events, shortRuns, macStats);
    pass.run();
    if (pass.shortDozes())
        notes.push_back(std::to_string(pass.shortDozes()) +
                        " power-save announcement(s) undone within " +
                        std::to_string(context.options.minScanNs / 1'000'000) +
                        " ms: too short to have left the channel, not reported");
    if (pass.longAbsences())
        notes.push_back(std::to_string(pass.longAbsences()) +
                        " run(s) of unacknowledged retries to a station lasted longer than " +
                        std::to_string(context.options.maxAbsenceNs / 1'000'000) +
                        " ms: reported as absences (retry-absence-long), not scans: the station left "
                        "this AP's channel (roamed or lost)");
}

} // namespace windscope::analysis::detail
