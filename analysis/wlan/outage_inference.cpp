// SPDX-License-Identifier: GPL-3.0-or-later
// Outages seen from TCP alone, for connections no 802.11 frame carried (a capture of
// the wired side): the receiver's segments stop for longer than the path can explain
// (max(minOutageNs, outageRttFactor * RTT)) while the sender retransmits into the
// silence. The gap runs from the receiver's last segment before it to its first one
// after. A link outage, a handoff and a burst of congestion losses all look like this
// from the wire, hence "inferred". For a connection 802.11 frames carry, only a
// silence to the end of the capture that no event of its station covers.
#include "wlan_event_detectors.h"

#include <algorithm>
#include <array>
#include <optional>

namespace windscope::analysis::detail {

namespace {

struct GapState
{
    std::int64_t lastReceiverNs = -1;
    std::uint64_t lastReceiverFrame = 0;
    std::uint32_t retransmissions = 0;
    std::array<std::uint64_t, 8> retransmissionFrames{};
};

} // namespace

void inferOutages(const DetectorContext& context, std::vector<WlanEvent>& events,
                  std::vector<std::string>& notes)
{
    const TcpAnalysis& tcp = context.tcp;
    const dissect::TcpColumns& rows = context.tables.tcp;
    const WlanEventOptions& o = context.options;
    std::vector<GapState> state(tcp.connections.size());
    std::vector<std::int8_t> dataDirection(tcp.connections.size(), -1);
    std::vector<std::int64_t> threshold(tcp.connections.size(), o.minOutageNs);
    // The station of a connection 802.11 frames carry (its MAC id), else none.
    std::vector<std::optional<std::uint32_t>> carriedBy(tcp.connections.size());
    std::size_t considered = 0;
    for (std::size_t c = 0; c < tcp.connections.size(); ++c) {
        const Connection& conn = tcp.connections[c];
        if (c < context.inventory.connections.size() && context.inventory.connections[c].station >= 0)
            carriedBy[c] = context.inventory.stations[static_cast<std::size_t>(
                                                          context.inventory.connections[c].station)]
                               .mac;
        const int d = conn.direction[1].dataBytes > conn.direction[0].dataBytes ? 1 : 0;
        if (!conn.direction[d].dataBytes)
            continue;
        dataDirection[c] = static_cast<std::int8_t>(d);
        double rttMs = conn.direction[d].rttSamples ? conn.direction[d].rttAvgMs : 0;
        if (rttMs == 0 && conn.handshakeRttNs > 0)
            rttMs = static_cast<double>(conn.handshakeRttNs) / 1e6;
        threshold[c] = std::max<std::int64_t>(o.minOutageNs,
                                              static_cast<std::int64_t>(o.outageRttFactor * rttMs * 1e6));
        considered += carriedBy[c] ? 0 : 1;
    }
    for (std::size_t r = 0; r < rows.size(); ++r) {
        const std::uint32_t c = tcp.segments.connection[r];
        if (c >= dataDirection.size() || dataDirection[c] < 0)
            continue;
        GapState& g = state[c];
        const std::int64_t t = rows.timeNs[r];
        if (tcp.directionOf(context.tables, r) == dataDirection[c]) {
            if (tcp.segments.flags[r] & segment_flag::kRetransmission) {
                if (g.retransmissions < g.retransmissionFrames.size())
                    g.retransmissionFrames[g.retransmissions] = rows.frame[r];
                ++g.retransmissions;
            }
            continue;
        }
        if (!carriedBy[c] && g.lastReceiverNs >= 0 && t - g.lastReceiverNs >= threshold[c] && g.retransmissions) {
            WlanEvent e;
            e.kind = WlanEventKind::OutageInferred;
            e.startNs = g.lastReceiverNs;
            e.endNs = t;
            e.basis = "tcp-ack-gap";
            e.connection = static_cast<std::int32_t>(c);
            e.tcpRetransmissions = g.retransmissions;
            addEvidence(e, g.lastReceiverFrame);
            const std::size_t kept = std::min<std::size_t>(g.retransmissions, g.retransmissionFrames.size());
            for (std::size_t i = 0; i < kept; ++i)
                addEvidence(e, g.retransmissionFrames[i]);
            e.evidenceCount += g.retransmissions - kept;
            addEvidence(e, rows.frame[r]);
            events.push_back(std::move(e));
        }
        g.lastReceiverNs = t;
        g.lastReceiverFrame = rows.frame[r];
        g.retransmissions = 0;
    }
    // Still silent when the capture ends, with the sender still retransmitting.
    for (std::size_t c = 0; c < state.size(); ++c) {
        const GapState& g = state[c];
        const Connection& conn = tcp.connections[c];
        // A receiver never heard at all: the silence runs from the first segment.
        const std::int64_t silentSince = g.lastReceiverNs >= 0 ? g.lastReceiverNs : conn.firstTimeNs;
        const std::uint64_t silentFrame = g.lastReceiverNs >= 0 ? g.lastReceiverFrame : conn.firstFrame;
        if (dataDirection[c] < 0 || !g.retransmissions || conn.lastTimeNs - silentSince < threshold[c])
            continue;
        // Over 802.11 the station's own events (scans, power save, handoffs, absences)
        // stand for its silences, and each of them ends; a silence to the end of the
        // capture that none of them covers, the sender's timer still re-sending into
        // it, is the path beyond the radio gone (a relay of a chain that stopped
        // forwarding), and only TCP shows it.
        if (carriedBy[c] && std::any_of(events.begin(), events.end(), [&](const WlanEvent& w) {
                return w.station == *carriedBy[c] && w.startNs < conn.lastTimeNs && w.endNs > silentSince;
            }))
            continue;
        WlanEvent e;
        e.kind = WlanEventKind::OutageInferred;
        e.startNs = silentSince;
        e.endNs = conn.lastTimeNs;
        e.openEnded = true;
        e.basis = "tcp-ack-gap";
        e.connection = static_cast<std::int32_t>(c);
        e.tcpRetransmissions = g.retransmissions;
        addEvidence(e, silentFrame);
        const std::size_t kept = std::min<std::size_t>(g.retransmissions, g.retransmissionFrames.size());
        for (std::size_t i = 0; i < kept; ++i)
            addEvidence(e, g.retransmissionFrames[i]);
        e.evidenceCount += g.retransmissions - kept;
        events.push_back(std::move(e));
    }
    if (considered)
        notes.push_back(std::to_string(considered) +
                        " connection(s) not carried by 802.11 frames in this capture: outages "
                        "for them are inferred from TCP alone and cannot be told apart from a "
                        "handoff, a scan or congestion");
}

} // namespace windscope::analysis::detail
