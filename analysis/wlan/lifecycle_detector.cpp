// SPDX-License-Identifier: GPL-3.0-or-later
// A station's connection lifecycle from its management frames (802.11-2020 11.3, the
// state machine of authentication and association):
// - authentication, association / reassociation: from the station's first request to
//   the AP's successful response (status 0), with the number of requests it took;
// - association_refused: a response with a non-zero status code (9.4.1.9), for an
//   authentication, association or reassociation;
// - attempt_unanswered: requests to one BSS that no response followed within
//   WlanEventOptions::responseTimeoutNs;
// - eapol_handshake: after a successful association on a protected network, the
//   unprotected data frames between the station and its AP up to the first protected
//   one: the EAPOL-Key 4-way handshake (12.7.6), which runs before the pairwise key is
//   installed and so is the only unprotected traffic there;
// - deauthentication / disassociation: who sent it and the reason code (9.4.1.7);
//   repeats of the same frame close together are one event;
// - disconnection: from a deauthentication or disassociation to the next successful
//   association, or without one on air to the station's first uplink data frame after
//   its last management frame (it is again class 3, 11.3.3), open-ended when the
//   capture ends first;
// - failed_roam: the station, associated with one AP, tried others (unanswered or
//   refused) and came back to the first ("returned"), joined one it had not tried
//   ("joined_other") or joined none before the capture ended ("stayed_away").
#include "wlan_event_detectors.h"
#include "wlan_frames.h"

#include <algorithm>

namespace windscope::analysis::detail {

namespace {

enum class Exchange : std::uint8_t { Auth, Assoc, Reassoc };

const char* exchangeName(Exchange x)
{
    return x == Exchange::Auth ? "authentication" : x == Exchange::Assoc ? "association" : "reassociation";
}

struct Pending
{
    std::uint32_t bssid = wlan::kNoMac;
    Exchange exchange = Exchange::Auth;
    std::int64_t firstNs = 0, lastNs = 0;
    std::uint32_t attempts = 0;
    std::vector<std::uint64_t> frames;
};

// Frame Control bit 14, Protected Frame (9.2.4.1.9).
bool isProtected(std::uint16_t fc)
{
    return fc & 0x4000;
}

class StationLifecycle
{
public:
    StationLifecycle(const DetectorContext& context, std::size_t station, std::vector<WlanEvent>& out)
        : m_context(context), m_w(context.tables.wlan),
          m_station(context.inventory.stations[station]), m_out(out)
    {
    }

    void run();

private:
    WlanEvent& emit(WlanEventKind kind, std::uint32_t bssid, std::int64_t startNs, std::int64_t endNs)
    {
        WlanEvent& e = m_out.emplace_back();
        e.kind = kind;
        e.station = m_station.mac;
        e.bssid = bssid;
        e.startNs = startNs;
        e.endNs = endNs;
        e.ssid = ssidOf(bssid);
        return e;
    }
    std::uint32_t ssidOf(std::uint32_t bssid) const
    {
        const std::int32_t ap = m_context.inventory.apIndex(bssid);
        return ap >= 0 ? m_context.inventory.accessPoints[static_cast<std::size_t>(ap)].ssid
                       : dissect::WlanManagementRecord::kNoSsid;
    }
    void request(const AssociationFrame& f, Exchange x);
    void response(const AssociationFrame& f, Exchange x);
    void departure(const AssociationFrame& f);
    void expire(std::int64_t nowNs, bool captureEnded);
    void failed(std::uint32_t bssid, std::int64_t atNs, const std::vector<std::uint64_t>& frames);
    void joined(std::uint32_t bssid, std::int64_t atNs, std::uint64_t frame, const char* basis);
    void handshake(std::size_t responseRow, std::uint32_t bssid);
    // The first To-DS data frame of the station after t, through any AP; rows.size() if none.
    std::size_t firstUplinkAfter(std::int64_t t) const;
    std::uint32_t homeAt(std::int64_t t) const;

    const DetectorContext& m_context;
    const dissect::WlanColumns& m_w;
    const Station& m_station;
    std::vector<WlanEvent>& m_out;
    std::vector<Pending> m_pending;
    std::uint32_t m_home = wlan::kNoMac;   // BSS of the last successful association
    bool m_disconnected = false;
    WlanEvent m_disconnection;
    std::vector<std::uint32_t> m_tried;    // BSSIDs tried in vain since leaving m_origin
    std::uint32_t m_origin = wlan::kNoMac;
    std::int64_t m_triedStartNs = 0, m_triedLastNs = 0;
    std::vector<std::uint64_t> m_triedFrames;
    std::size_t m_lastDeparture = static_cast<std::size_t>(-1); // index in m_out
};

std::size_t StationLifecycle::firstUplinkAfter(std::int64_t t) const
{
    auto it = std::upper_bound(m_w.timeNs.begin(), m_w.timeNs.end(), t);
    for (auto row = static_cast<std::size_t>(it - m_w.timeNs.begin()); row < m_w.size(); ++row) {
        const std::uint16_t fc = m_w.frameControl[row];
        if (!wlan::badFcs(m_w, row) && wlan::frameType(fc) == wlan::kData && wlan::toDs(fc) &&
            !wlan::fromDs(fc) && m_w.addr2(row) == m_station.mac &&
            m_context.inventory.apIndex(m_w.addr1(row)) >= 0)
            return row;
    }
    return m_w.size();
}

std::uint32_t StationLifecycle::homeAt(std::int64_t t) const
{
    if (m_home != wlan::kNoMac)
        return m_home;
    // No association on air yet: the BSS its data went through before t.
    for (auto it = m_station.timeline.rbegin(); it != m_station.timeline.rend(); ++it)
        if (it->startNs <= t)
            return it->bssid;
    return wlan::kNoMac;
}

void StationLifecycle::failed(std::uint32_t bssid, std::int64_t atNs, const std::vector<std::uint64_t>& frames)
{
    const std::uint32_t home = m_tried.empty() ? homeAt(atNs) : m_origin;
    if (home == wlan::kNoMac || bssid == home)
        return;
    if (m_tried.empty()) {
        m_origin = home;
        m_triedStartNs = atNs;
        // Left by a deauthentication or disassociation first: the roam began there.
        if (m_disconnected && m_disconnection.bssid == home)
            m_triedStartNs = std::min(m_triedStartNs, m_disconnection.startNs);
        m_triedFrames.clear();
    }
    if (std::find(m_tried.begin(), m_tried.end(), bssid) == m_tried.end())
        m_tried.push_back(bssid);
    m_triedLastNs = std::max(m_triedLastNs, atNs);
    m_triedFrames.insert(m_triedFrames.end(), frames.begin(), frames.end());
}

void StationLifecycle::joined(std::uint32_t bssid, std::int64_t atNs, std::uint64_t frame, const char* basis)
{
    if (m_disconnected) {
        m_disconnected = false;
        WlanEvent& e = m_out.emplace_back(std::move(m_disconnection));
        e.endNs = atNs;
        e.newBssid = bssid;
        e.basis = basis;
        addEvidence(e, frame);
    }
    if (!m_tried.empty()) {
        if (std::find(m_tried.begin(), m_tried.end(), bssid) == m_tried.end()) {
            WlanEvent& e = emit(WlanEventKind::FailedRoam, m_origin, m_triedStartNs, atNs);
            e.initiator = EventInitiator::Station;
            e.newBssid = bssid;
            e.outcome = bssid == m_origin ? "returned" : "joined_other";
            e.triedBssids = m_tried;
            e.attempts = static_cast<std::uint32_t>(m_triedFrames.size());
            for (std::uint64_t f : m_triedFrames)
                addEvidence(e, f);
            addEvidence(e, frame);
            e.basis = basis;
        }
        m_tried.clear();
    }
    m_home = bssid;
}

void StationLifecycle::request(const AssociationFrame& f, Exchange x)
{
    for (Pending& p : m_pending)
        if (p.bssid == f.bssid && p.exchange == x) {
            ++p.attempts;
            p.lastNs = f.timeNs;
            p.frames.push_back(f.frame);
            return;
        }
    Pending& p = m_pending.emplace_back();
    p.bssid = f.bssid;
    p.exchange = x;
    p.firstNs = p.lastNs = f.timeNs;
    p.attempts = 1;
    p.frames.push_back(f.frame);
}

void StationLifecycle::response(const AssociationFrame& f, Exchange x)
{
    Pending pending;
    // An association response may answer a reassociation request and vice versa.
    auto it = std::find_if(m_pending.begin(), m_pending.end(), [&](const Pending& p) {
        return p.bssid == f.bssid && (p.exchange == x || (x != Exchange::Auth && p.exchange != Exchange::Auth));
    });
    if (it != m_pending.end()) {
        pending = std::move(*it);
        m_pending.erase(it);
    } else {
        pending.firstNs = f.timeNs; // the request was not captured
    }
    // A response whose status could not be read is not called a refusal.
    const bool success = f.statusCode == 0 || f.statusCode == 0xffff;
    const WlanEventKind kind = !success           ? WlanEventKind::AssociationRefused
                               : x == Exchange::Auth ? WlanEventKind::Authentication
                                                     : WlanEventKind::Association;
    WlanEvent& e = emit(kind, f.bssid, pending.firstNs, f.timeNs);
    e.initiator = success ? EventInitiator::Station : EventInitiator::AccessPoint;
    e.statusCode = f.statusCode == 0xffff ? -1 : f.statusCode;
    e.attempts = pending.attempts;
    e.basis = exchangeName(x);
    for (std::uint64_t frame : pending.frames)
        addEvidence(e, frame);
    addEvidence(e, f.frame);
    if (!success) {
        std::vector<std::uint64_t> frames = pending.frames;
        frames.push_back(f.frame);
        failed(f.bssid, pending.firstNs, frames);
        return;
    }
    if (x != Exchange::Auth) {
        const std::uint64_t frame = f.frame;
        const std::size_t row = f.row;
        const std::uint32_t bssid = f.bssid;
        joined(bssid, f.timeNs, frame, exchangeName(x));
        handshake(row, bssid);
    }
}

void StationLifecycle::departure(const AssociationFrame& f)
{
    const WlanEventKind kind = f.subtype == wlan::subtype::kDeauth ? WlanEventKind::Deauthentication
                                                                   : WlanEventKind::Disassociation;
    const EventInitiator by = f.fromStation ? EventInitiator::Station : EventInitiator::AccessPoint;
    const std::int32_t reason = f.reasonCode ? f.reasonCode : -1;
    if (m_lastDeparture < m_out.size()) {
        WlanEvent& last = m_out[m_lastDeparture];
        if (last.kind == kind && last.initiator == by && last.reasonCode == reason && last.bssid == f.bssid &&
            f.timeNs - last.endNs <= m_context.options.repeatWindowNs) {
            ++last.attempts;
            last.endNs = f.timeNs;
            addEvidence(last, f.frame);
            if (m_disconnected)
                addEvidence(m_disconnection, f.frame);
            return;
        }
    }
    WlanEvent& e = emit(kind, f.bssid, f.timeNs, f.timeNs);
    e.initiator = by;
    e.reasonCode = reason;
    e.attempts = 1;
    e.basis = f.fromStation ? "from-station" : "from-ap";
    addEvidence(e, f.frame);
    m_lastDeparture = m_out.size() - 1;
    if (!m_disconnected) {
        m_disconnected = true;
        m_disconnection = WlanEvent{};
        m_disconnection.kind = WlanEventKind::Disconnection;
        m_disconnection.station = m_station.mac;
        m_disconnection.bssid = f.bssid;
        m_disconnection.ssid = ssidOf(f.bssid);
        m_disconnection.startNs = f.timeNs;
        m_disconnection.initiator = by;
        m_disconnection.reasonCode = reason;
        addEvidence(m_disconnection, f.frame);
        if (m_home == wlan::kNoMac)
            m_home = homeAt(f.timeNs);
    }
}

void StationLifecycle::expire(std::int64_t nowNs, bool captureEnded)
{
    const std::int64_t timeout = m_context.options.responseTimeoutNs;
    for (auto it = m_pending.begin(); it != m_pending.end();) {
        if (!captureEnded && nowNs - it->lastNs <= timeout) {
            ++it;
            continue;
        }
        WlanEvent& e = emit(WlanEventKind::AttemptUnanswered, it->bssid, it->firstNs, it->lastNs);
        e.initiator = EventInitiator::Station;
        e.attempts = it->attempts;
        e.basis = exchangeName(it->exchange);
        // The capture ended before an answer was due: it may still have come.
        e.openEnded = captureEnded && nowNs - it->lastNs <= timeout;
        for (std::uint64_t f : it->frames)
            addEvidence(e, f);
        const Pending p = std::move(*it);
        it = m_pending.erase(it);
        failed(p.bssid, p.firstNs, p.frames);
    }
}

void StationLifecycle::handshake(std::size_t responseRow, std::uint32_t bssid)
{
    const std::int64_t limit = m_w.timeNs[responseRow] + m_context.options.handshakeWindowNs;
    std::vector<std::size_t> rows;
    bool fromAp = false, fromStation = false, protectedSeen = false;
    // Messages 1 and 3 come from the AP, 2 and 4 from the station; a repeat of the
    // same direction is a retry of the message (12.7.6.2-12.7.6.5).
    bool expectAp = true;
    int messages = 0;
    for (std::size_t row = responseRow + 1;
         row < m_w.size() && m_w.timeNs[row] <= limit && messages < 4; ++row) {
        const std::uint16_t fc = m_w.frameControl[row];
        if (wlan::badFcs(m_w, row) || wlan::frameType(fc) != wlan::kData || wlan::isNullData(fc) ||
            wlan::dataStationOf(m_w, row) != m_station.mac || wlan::bssidOf(m_w, row) != bssid ||
            (m_w.status[row] & dissect::WlanColumns::kMacDuplicate))
            continue;
        if (isProtected(fc)) {
            protectedSeen = true;
            break;
        }
        if (rows.empty() && wlan::toDs(fc))
            break; // the station spoke first: not an Authenticator's message 1
        rows.push_back(row);
        const bool ap = !wlan::toDs(fc);
        (ap ? fromAp : fromStation) = true;
        if (ap == expectAp) {
            ++messages;
            expectAp = !expectAp;
        }
    }
    // Only protected data after it proves a key was installed: on an open network the
    // first unprotected frames can have the four messages' shape too (a TCP download
    // resuming after a roam: the AP's data, the station's ACKs).
    if (rows.size() < 2 || !fromAp || !fromStation || !protectedSeen)
        return;
    WlanEvent& e = emit(WlanEventKind::EapolHandshake, bssid, m_w.timeNs[rows.front()], m_w.timeNs[rows.back()]);
    e.initiator = EventInitiator::AccessPoint; // the Authenticator sends message 1
    e.attempts = static_cast<std::uint32_t>(rows.size());
    e.basis = "unprotected-data";
    for (std::size_t row : rows)
        addEvidence(e, m_w.frame[row]);
}

void StationLifecycle::run()
{
    for (const AssociationFrame& f : m_station.management) {
        expire(f.timeNs, false);
        switch (f.subtype) {
        case wlan::subtype::kAuth:
            if (f.fromStation)
                request(f, Exchange::Auth);
            else
                response(f, Exchange::Auth);
            break;
        case wlan::subtype::kAssocRequest:
            request(f, Exchange::Assoc);
            break;
        case wlan::subtype::kReassocRequest:
            request(f, Exchange::Reassoc);
            break;
        case wlan::subtype::kAssocResponse:
            response(f, Exchange::Assoc);
            break;
        case wlan::subtype::kReassocResponse:
            response(f, Exchange::Reassoc);
            break;
        case wlan::subtype::kDeauth:
        case wlan::subtype::kDisassoc:
            departure(f);
            break;
        default:
            break;
        }
    }
    const std::int64_t endNs = m_w.size() ? m_w.timeNs[m_w.size() - 1] : 0;
    expire(endNs, true);
    // No association on air after the departure: the station's uplink data after its
    // last management frame says it was associated again (a station keeps sending
    // after a deauthentication until it notices, so earlier data does not).
    if (m_disconnected) {
        const std::int64_t after = m_station.management.empty() ? m_disconnection.startNs
                                                                : m_station.management.back().timeNs;
        const std::size_t row = firstUplinkAfter(after);
        if (row < m_w.size())
            joined(m_w.addr1(row), m_w.timeNs[row], m_w.frame[row], "data");
    }
    if (!m_tried.empty()) {
        const std::size_t row = firstUplinkAfter(m_triedLastNs);
        if (row < m_w.size()) {
            joined(m_w.addr1(row), m_w.timeNs[row], m_w.frame[row], "data");
        } else {
            WlanEvent& e = emit(WlanEventKind::FailedRoam, m_origin, m_triedStartNs, endNs);
            e.initiator = EventInitiator::Station;
            e.outcome = "stayed_away";
            e.openEnded = true;
            e.triedBssids = m_tried;
            e.attempts = static_cast<std::uint32_t>(m_triedFrames.size());
            e.basis = "attempts";
            for (std::uint64_t f : m_triedFrames)
                addEvidence(e, f);
        }
    }
    if (m_disconnected) {
        WlanEvent& e = m_out.emplace_back(std::move(m_disconnection));
        e.endNs = std::max(e.startNs, endNs);
        e.openEnded = true;
        e.basis = "no-association-after";
        m_disconnected = false;
    }
}

} // namespace

void detectLifecycle(const DetectorContext& context, std::vector<WlanEvent>& events,
                     std::vector<WlanEvent>& lifecycle, std::vector<std::string>& notes)
{
    const WlanInventory& inventory = context.inventory;
    for (std::size_t s = 0; s < inventory.stations.size(); ++s) {
        std::vector<WlanEvent> out;
        StationLifecycle(context, s, out).run();
        for (WlanEvent& e : out) {
            std::sort(e.evidenceFrames.begin(), e.evidenceFrames.end());
            lifecycle.push_back(std::move(e));
        }
    }
    // A roam (handoff) names the SSID it joined.
    for (WlanEvent& e : events)
        if (e.kind == WlanEventKind::Handoff)
            if (const std::int32_t ap = inventory.apIndex(e.newBssid); ap >= 0)
                e.ssid = inventory.accessPoints[static_cast<std::size_t>(ap)].ssid;
    std::size_t unanswered = 0;
    for (const WlanEvent& e : lifecycle)
        unanswered += e.kind == WlanEventKind::AttemptUnanswered;
    if (unanswered)
        notes.push_back(std::to_string(unanswered) +
                        " authentication/association attempt(s) without a response on air: the "
                        "AP did not answer, or the monitor did not hear it");
}

} // namespace windscope::analysis::detail
