// SPDX-License-Identifier: GPL-3.0-or-later
#include "wifi_chain.h"

#include "analysis/wlan/wlan_frames.h"

#include <algorithm>
#include <cmath>

namespace windscope::analysis::replay {

namespace {
constexpr std::uint32_t kAckBytes = 14;       // ACK / CTS frame (9.3.1.4)
constexpr std::uint32_t kRtsBytes = 20;
constexpr std::uint32_t kBlockAckRequestBytes = 24; // compressed Block Ack Request (9.3.1.7)
constexpr std::uint32_t kBlockAckBytes = 32;  // compressed Block Ack (9.3.1.8)
constexpr std::uint32_t kDelimiterBytes = 4;  // A-MPDU subframe delimiter + padding
constexpr std::uint32_t kBlockAckWindow = 64; // MPDUs a compressed Block Ack covers (10.25.6.3)
constexpr std::uint32_t kNullFrameBytes =
    28; // Null data frame: MAC header and FCS, no body (9.3.2.1)
} // namespace

WifiChain::WifiChain(EventQueue& queue, const MacParams& params, std::uint64_t seed,
                     Deliver deliver, Dropped dropped)
    : m_queue(queue), m_params(params), m_rng(seed, 7), m_seed(seed), m_deliver(std::move(deliver)),
      m_dropped(std::move(dropped)), m_nodes(params.hops + 1)
{
    for (Node& n : m_nodes)
        n.cw = params.cwMin;
    for (auto& r : m_reorder)
        r.resize(m_nodes.size());
    m_slotNs = static_cast<std::int64_t>(params.slotUs * 1000);
    m_sifsNs = static_cast<std::int64_t>(params.sifsUs * 1000);
    m_difsNs = usToNs(params.difsUs());
    const double pre = params.preambleUs, basic = params.basicRateMbps;
    m_rtsNs = usToNs(ppduUs(kRtsBytes, basic, pre));
    m_ctsNs = usToNs(ppduUs(kAckBytes, basic, pre));
    // A frame sensed but not decoded: wait as long as its ACK would take (10.3.2.3.7).
    m_eifsNs = m_sifsNs + m_ctsNs + m_difsNs;
    // CTS and ACK timeouts: SIFS, a slot and the PHY's start delay (10.3.2.9).
    m_timeoutNs = m_sifsNs + m_slotNs + usToNs(pre);
}

std::uint32_t WifiChain::wireBytes(const Packet& p) const
{
    std::uint32_t bytes = m_params.ipTcpHeaderBytes + m_params.macOverheadBytes;
    if (p.kind == Packet::Kind::Data)
        bytes += p.length;
    else if (p.kind == Packet::Kind::Ack && p.sackCount > 0)
        bytes += 2 + 8u * p.sackCount; // SACK option
    return bytes;
}

std::uint32_t WifiChain::wireBytes(const Frame& f) const
{
    return f.announcement ? kNullFrameBytes : wireBytes(f.packet);
}

std::int64_t WifiChain::exchangeNs(std::uint32_t bytes, std::uint32_t count) const
{
    const double phy = m_params.phyRateMbps, basic = m_params.basicRateMbps;
    const double pre = m_params.preambleUs;
    const bool aggregate = m_params.ampduMax > 1 && count > 1;
    double us = ppduUs((static_cast<double>(bytes) + (aggregate ? kDelimiterBytes : 0)) * count, phy, dataPreamble());
    us +=
        m_params.sifsUs + ppduUs(aggregate && blockAck() ? kBlockAckBytes : kAckBytes, basic, pre);
    if (m_params.rtsCts)
        us += ppduUs(kRtsBytes, basic, pre) + m_params.sifsUs + ppduUs(kAckBytes, basic, pre) + m_params.sifsUs;
    return static_cast<std::int64_t>(us * 1000);
}

double WifiChain::ppduUs(double bytes, double rateMbps, double preambleUs) const
{
    return m_params.ppduUs(bytes, rateMbps, preambleUs);
}

std::uint32_t WifiChain::ampduMpdus() const
{
    // With a byte limit the count is bounded by the Block Ack window (10.25.6.3).
    return m_params.ampduSubframeBytes > 0 && m_params.ampduMax > 1 ? std::max(m_params.ampduMax, kBlockAckWindow)
                                                                   : m_params.ampduMax;
}

bool WifiChain::fitsAggregate(std::uint64_t& bytes, const Packet& p, bool first) const
{
    if (m_params.ampduSubframeBytes == 0 || m_params.ampduMax <= 1)
        return true;
    const std::uint64_t subframe = wlan::ampduSubframeBytes(wireBytes(p));
    if (!first && bytes + subframe > std::uint64_t(m_params.ampduMax) * m_params.ampduSubframeBytes)
        return false;
    bytes += subframe;
    return true;
}

void WifiChain::enqueue(std::uint32_t node, const Frame& frame, bool front)
{
    Node& n = m_nodes[node];
    Frame tagged = frame;
    tagged.tag = ++m_tags;
    if (n.queue.size() >= m_params.apQueueFrames + m_params.hwQueueFrames) {
        ++m_counters.queueDrops;
        m_dropped(frame.packet, frame.downlink, false);
        return;
    }
    if (!tagged.announcement)
        tagged.seq = n.nextSeq[tagged.downlink ? 1 : 0]++;
    if (front)
        n.queue.push_front(tagged);
    else
        n.queue.push_back(tagged);
    contend(node);
}

void WifiChain::handOver(std::uint32_t node, const Frame& frame)
{
    const auto last = static_cast<std::uint32_t>(m_nodes.size() - 1);
    if ((frame.downlink && node == last) || (!frame.downlink && node == 0))
        m_deliver(frame.packet, frame.downlink);
    else
        enqueue(node, Frame{frame.packet, frame.downlink, 0, false});
}

void WifiChain::reorderReceived(std::uint32_t node, const Frame& frame)
{
    // Without a Block Ack a sender's frames are had in order: it retries its head (or
    // its whole aggregate) until it is had or given up.
    if (!blockAck()) {
        handOver(node, frame);
        return;
    }
    Reorder& r = m_reorder[frame.downlink ? 1 : 0][node];
    if (frame.seq < r.expected)
        return;
    r.held.emplace(frame.seq, frame);
    reorderRelease(node, frame.downlink);
}

void WifiChain::reorderGivenUp(std::uint32_t sender, const Frame& frame)
{
    if (!blockAck())
        return;
    const std::uint32_t node = receiverOf(sender, frame);
    Reorder& r = m_reorder[frame.downlink ? 1 : 0][node];
    if (frame.seq < r.expected)
        return;
    r.skipped.insert(frame.seq);
    reorderRelease(node, frame.downlink);
}

void WifiChain::reorderRelease(std::uint32_t node, bool downlink)
{
    Reorder& r = m_reorder[downlink ? 1 : 0][node];
    for (;;) {
        if (const auto h = r.held.find(r.expected); h != r.held.end()) {
            const Frame up = std::move(h->second);
            r.held.erase(h);
            ++r.expected;
            handOver(node, up);
        } else if (r.skipped.erase(r.expected) > 0) {
            ++r.expected;
        } else {
            return;
        }
    }
}

void WifiChain::sendDownlink(const Packet& p)
{
    enqueue(0, Frame{p, true, 0, false});
}

void WifiChain::sendUplink(const Packet& p)
{
    const auto station = static_cast<std::uint32_t>(m_nodes.size() - 1);
    if (m_away && m_awayMode == OutageMode::Drop) {
        // A station that left without a word (handoff): its queue is gone.
        m_dropped(p, false, true);
        return;
    }
    enqueue(station, Frame{p, false, 0, false});
}

void WifiChain::requeueDownlinkFront(const Packet& p)
{
    enqueue(0, Frame{p, true, 0, false}, true);
}

bool WifiChain::eligible(std::uint32_t node, const Frame& f) const
{
    if (!m_away && !m_holding)
        return true;
    const auto station = static_cast<std::uint32_t>(m_nodes.size() - 1);
    if (node == station)
        return !m_away; // off channel, the station sends nothing
    if (receiverOf(node, f) != station)
        return true;
    if (!m_away)
        return f.committed; // the AP holds for a station about to leave
    switch (m_awayMode) {
    case OutageMode::Drop: return true;        // the AP does not know: it transmits
    case OutageMode::Hold: return false;       // power save honoured
    case OutageMode::PsAnnounced: return f.committed;
    }
    return true;
}

void WifiChain::stationAway(const Outage& outage)
{
    if (outage.mode != OutageMode::PsAnnounced) {
        leave(outage);
        return;
    }
    if (m_params.stationLeavePauseUs > 0) {
        // The AP knows of the absence from its start (the announcement is not on air);
        // the station goes when the medium it hears pauses long enough.
        m_holding = true;
        m_announced = outage;
        commitApFrames();
        leaveAtPause(++m_leaveToken);
        return;
    }
    // The announcement goes first in the station's queue and contends as any frame.
    const auto station = static_cast<std::uint32_t>(m_nodes.size() - 1);
    m_announcing = true;
    m_announced = outage;
    Frame null;
    null.downlink = false;
    null.announcement = true;
    enqueue(station, null, true);
}

void WifiChain::leave(const Outage& outage)
{
    m_announcing = false;
    m_away = true;
    m_absenceLost = false;
    m_awayMode = outage.mode;
    const auto station = static_cast<std::uint32_t>(m_nodes.size() - 1);
    if (outage.mode == OutageMode::PsAnnounced && !m_holding)
        commitApFrames();
    m_holding = false;
    if (outage.kind == OutageKind::Handoff) {
        // StaWifiMac leaves the BSS and flushes its queue.
        for (const Frame& f : m_nodes[station].queue)
            if (!f.announcement) {
                reorderGivenUp(station, f);
                m_dropped(f.packet, f.downlink, true);
            }
        m_nodes[station].queue.clear();
    }
}

void WifiChain::commitApFrames()
{
    // Frames already handed to the radio (its hardware queue) are still sent.
    const auto station = static_cast<std::uint32_t>(m_nodes.size() - 1);
    std::uint32_t committed = 0;
    for (Frame& f : m_nodes[station - 1].queue)
        if (receiverOf(station - 1, f) == station && committed < m_params.hwQueueFrames) {
            f.committed = true;
            ++committed;
        }
}

void WifiChain::leaveAtPause(std::uint64_t token)
{
    if (token != m_leaveToken || !m_holding)
        return;
    const auto station = static_cast<std::uint32_t>(m_nodes.size() - 1);
    const std::int64_t pauseNs = usToNs(m_params.stationLeavePauseUs);
    std::int64_t readyNs = std::max(m_queue.now(), m_stationHeardUntilNs + pauseNs);
    // Not during a frame it sends or hears (nor one due a SIFS after another): the
    // pause counts from its end.
    for (const OnAir& f : m_air)
        if (f.from == station || hears(station, f.from))
            readyNs = std::max(readyNs, f.endNs + pauseNs);
    if (m_nodes[station].transmitting)
        readyNs = std::max(readyNs, m_nodes[station].ex.endNs + pauseNs);
    if (readyNs > m_queue.now()) {
        m_queue.at(readyNs, [this, token] { leaveAtPause(token); });
        return;
    }
    leave(m_announced);
}

void WifiChain::stationBack()
{
    ++m_leaveToken; // a departure still waiting for its pause is off
    m_holding = false;
    // An announcement not yet through (the station never left) or not yet acknowledged
    // is over.
    m_announcing = false;
    std::erase_if(m_nodes.back().queue, [](const Frame& f) { return f.announcement; });
    m_away = false;
    for (Node& n : m_nodes)
        for (Frame& f : n.queue)
            f.committed = false;
    for (std::uint32_t i = 0; i < m_nodes.size(); ++i)
        contend(i);
}

std::int64_t WifiChain::sensedBusySince(std::uint32_t node, std::int64_t before) const
{
    std::int64_t since = -1;
    for (const OnAir& f : m_air)
        if (f.startNs < before && hears(node, f.from) && (since < 0 || f.startNs < since))
            since = f.startNs;
    return since;
}

void WifiChain::contend(std::uint32_t node)
{
    Node& n = m_nodes[node];
    if (n.contending || n.transmitting)
        return;
    if (std::none_of(n.queue.begin(), n.queue.end(), [&](const Frame& f) { return eligible(node, f); }))
        return;
    n.contending = true;
    const std::int64_t now = m_queue.now();
    if (n.counting) {
        // The backoff of its last transmission counting down on an idle medium: the
        // frame goes when it runs out, or as one queued with a zero backoff if it has.
        const std::int64_t endNs = n.countFromNs + n.backoffSlots * m_slotNs;
        if (endNs > now) {
            const std::uint64_t token = ++n.attemptToken;
            m_queue.at(endNs, [this, node, token] { attempt(node, token); });
            return;
        }
        n.counting = false;
        n.backoffSlots = 0;
        n.backoffPending = false;
    }
    const bool busy = sensedBusySince(node, now + 1) >= 0;
    if (!n.backoffPending) {
        // A frame queued while the backoff is zero goes after DIFS if the medium is
        // idle, else after a random backoff (10.3.4.2; ns-3's NeedBackoffUponAccess);
        // one out of an A-MPDU still on air was queued on a busy medium.
        n.backoffSlots = busy || m_arrivingMidPpdu || n.navNs > now ? m_rng.upTo(n.cw) : 0;
        n.backoffPending = true;
    }
    if (busy)
        return; // counting starts when the frame ends (frameEnd)
    resume(node);
}

void WifiChain::resume(std::uint32_t node)
{
    Node& n = m_nodes[node];
    if (n.counting || (!n.contending && !n.backoffPending))
        return;
    n.countFromNs = std::max({m_queue.now() + m_difsNs, n.quietNs, n.navNs + m_difsNs});
    n.counting = true;
    const std::uint64_t token = ++n.attemptToken;
    // Without a frame the count runs all the same; a frame queued meanwhile takes what
    // is left of it (contend()).
    if (n.contending)
        m_queue.at(n.countFromNs + n.backoffSlots * m_slotNs,
                   [this, node, token] { attempt(node, token); });
}

void WifiChain::freeze(std::uint32_t node, std::int64_t busyFromNs)
{
    Node& n = m_nodes[node];
    if (!n.counting)
        return;
    // The slots that passed idle are spent; the rest wait for the medium (10.3.4.3).
    if (busyFromNs > n.countFromNs)
        n.backoffSlots -= std::min(n.backoffSlots, static_cast<std::uint32_t>((busyFromNs - n.countFromNs) / m_slotNs));
    n.counting = false;
    ++n.attemptToken;
    if (n.backoffSlots == 0 && !n.contending)
        n.backoffPending = false; // counted out with nothing to send
}

void WifiChain::attempt(std::uint32_t node, std::uint64_t token)
{
    Node& n = m_nodes[node];
    if (token != n.attemptToken || !n.counting)
        return;
    const std::int64_t now = m_queue.now();
    // A frame this node senses started before its count ran out: freeze until it ends.
    // One that starts in this very slot is not sensed in time: both go (a collision).
    if (const std::int64_t since = sensedBusySince(node, now); since >= 0) {
        freeze(node, since);
        return;
    }
    if (startBlockAckRequest(node, now))
        return;
    // Pick the head eligible frame and, with aggregation, more for the same receiver.
    std::vector<std::size_t>& picked = m_picked;
    picked.clear();
    std::uint32_t to = 0;
    std::uint64_t aggregateBytes = 0;
    for (std::size_t i = 0; i < n.queue.size() && picked.size() < ampduMpdus(); ++i) {
        const Frame& f = n.queue[i];
        if (!eligible(node, f))
            continue;
        if (picked.empty())
            to = receiverOf(node, f);
        else if (receiverOf(node, f) != to || f.announcement)
            continue;
        if (!fitsAggregate(aggregateBytes, f.packet, picked.empty()))
            break;
        picked.push_back(i);
        if (f.announcement)
            break; // a Null frame goes alone
    }
    n.contending = false;
    n.counting = false;
    n.backoffPending = false;
    if (picked.empty())
        return;
    n.transmitting = true;
    std::uint32_t maxBytes = 0;
    for (std::size_t i : picked)
        maxBytes = std::max(maxBytes, wireBytes(n.queue[i]));
    const auto count = static_cast<std::uint32_t>(picked.size());
    // A lone MPDU goes as a plain MPDU answered by an ACK, under a Block Ack agreement
    // too (HT has no single-MPDU A-MPDU; ns-3's HtFrameExchangeManager).
    const bool aggregate = m_params.ampduMax > 1 && count > 1;
    Exchange& ex = n.ex; // reused: its vectors keep their capacity
    ex.tags.clear();
    ex.mpduOk.clear();
    ex.protectedData = ex.received = ex.blockAckRequest = false;
    ex.blockAckAnswer = aggregate && blockAck();
    ex.to = to;
    ex.startNs = now;
    ex.dataNs = usToNs(ppduUs((static_cast<double>(maxBytes) + (aggregate ? kDelimiterBytes : 0)) * count,
                              m_params.phyRateMbps, dataPreamble()));
    ex.ackNs = usToNs(ppduUs(ex.blockAckAnswer ? kBlockAckBytes : kAckBytes, m_params.basicRateMbps,
                             m_params.preambleUs));
    const std::int64_t handshake = m_params.rtsCts ? m_rtsNs + m_sifsNs + m_ctsNs + m_sifsNs : 0;
    ex.endNs = now + handshake + ex.dataNs + m_sifsNs + ex.ackNs;
    for (std::size_t i : picked) {
        ex.tags.push_back(n.queue[i].tag);
        ex.mpduOk.push_back(!m_rng.chance(m_params.frameErrorRate));
    }
    ++m_counters.exchanges;
    if (count > 1)
        ++m_counters.ampdus;
    if (m_params.rtsCts)
        transmit(Kind::Rts, node, to, node, now, m_rtsNs, ex.endNs);
    else
        transmit(Kind::Data, node, to, node, now, ex.dataNs, ex.endNs);
}

bool WifiChain::startBlockAckRequest(std::uint32_t node, std::int64_t now)
{
    Node& n = m_nodes[node];
    if (!n.mayHaveUnanswered)
        return false;
    Exchange& ex = n.ex;
    ex.tags.clear();
    bool anyEligible = false;
    for (const Frame& f : n.queue)
        if (f.unanswered) {
            if (ex.tags.empty())
                ex.to = receiverOf(node, f);
            ex.tags.push_back(f.tag);
            anyEligible = anyEligible || eligible(node, f);
        }
    n.mayHaveUnanswered = !ex.tags.empty();
    if (!anyEligible)
        return false;
    n.contending = false;
    n.counting = false;
    n.backoffPending = false;
    n.transmitting = true;
    ex.mpduOk.assign(ex.tags.size(), true);
    ex.protectedData = ex.received = false;
    ex.blockAckAnswer = ex.blockAckRequest = true;
    ex.startNs = now;
    // A control frame, at a basic rate (10.6.6.2), too short for RTS/CTS.
    ex.dataNs = usToNs(ppduUs(kBlockAckRequestBytes, m_params.basicRateMbps, m_params.preambleUs));
    ex.ackNs = usToNs(ppduUs(kBlockAckBytes, m_params.basicRateMbps, m_params.preambleUs));
    ex.endNs = now + ex.dataNs + m_sifsNs + ex.ackNs;
    ++m_counters.exchanges;
    transmit(Kind::Data, node, ex.to, node, now, ex.dataNs, ex.endNs);
    return true;
}

void WifiChain::transmit(Kind kind, std::uint32_t from, std::uint32_t to, std::uint32_t exchange,
                         std::int64_t startNs, std::int64_t durationNs, std::int64_t navEndNs)
{
    OnAir f{++m_frames, kind, from, to, exchange, startNs, startNs + durationNs, navEndNs, {}};
    // Overlaps are recorded both ways when the later frame is put on the air; whether
    // they cost a reception is decided at its end, by where the other transmitter is.
    for (OnAir& g : m_air)
        if (g.startNs < f.endNs && f.startNs < g.endNs) {
            g.overlaps.push_back({from, f.startNs, f.endNs});
            f.overlaps.push_back({g.from, g.startNs, g.endNs});
        }
    m_air.push_back(f);
    m_queue.at(f.endNs, [this, id = f.id] { frameEnd(id); });
}

void WifiChain::frameEnd(std::uint64_t id)
{
    const auto it = std::find_if(m_air.begin(), m_air.end(), [&](const OnAir& f) { return f.id == id; });
    const OnAir f = *it;
    m_air.erase(it);
    const std::int64_t now = m_queue.now();
    const auto station = static_cast<std::uint32_t>(m_nodes.size() - 1);
    if (f.from == station || hears(station, f.from))
        m_stationHeardUntilNs = std::max(m_stationHeardUntilNs, f.endNs);
    // Everyone who sensed it: the medium may be idle again for them, after AIFS if they
    // decoded it, EIFS if not; a decoded Duration sets the NAV of third parties.
    for (std::uint32_t i = 0; i < m_nodes.size(); ++i) {
        if (!hears(i, f.from))
            continue;
        Node& n = m_nodes[i];
        const bool decoded = i == f.from || (decodes(i, f.from) && receives(f, i));
        n.quietNs = now + (decoded ? m_difsNs : m_eifsNs);
        if (decoded && i != f.from && i != f.to)
            n.navNs = std::max(n.navNs, f.navEndNs);
        if (!n.contending && !n.backoffPending)
            continue;
        const std::int64_t other = sensedBusySince(i, now + 1);
        freeze(i, other >= 0 ? std::min(other, f.startNs) : f.startNs);
        if (other < 0)
            resume(i);
    }
    afterFrame(f, receives(f, f.to));
}

void WifiChain::afterFrame(const OnAir& f, bool received)
{
    const std::uint32_t node = f.exchange;
    Exchange& ex = m_nodes[node].ex;
    const std::int64_t next = m_queue.now() + m_sifsNs;
    switch (f.kind) {
    case Kind::Rts: {
        const Node& to = m_nodes[f.to];
        if (!received)
            failExchange(node, f, false);
        else if (to.navNs > m_queue.now() || to.transmitting)
            failExchange(node, f, true); // a receiver whose NAV is set does not answer
        else
            transmit(Kind::Cts, f.to, node, node, next, m_ctsNs, ex.endNs);
        return;
    }
    case Kind::Cts:
        if (!received)
            failExchange(node, f, false);
        else {
            ex.protectedData = true;
            transmit(Kind::Data, node, ex.to, node, next, ex.dataNs, ex.endNs);
        }
        return;
    case Kind::Data:
        ex.received = receiveMpdus(f, ex.mpduOk);
        // A Block Ack Request is one frame: had whole or lost whole.
        if (ex.blockAckRequest &&
            std::find(ex.mpduOk.begin(), ex.mpduOk.end(), false) != ex.mpduOk.end())
            ex.received = false;
        if (!ex.received || std::none_of(ex.mpduOk.begin(), ex.mpduOk.end(), [](bool ok) { return ok; }))
            failExchange(node, f, false);
        else
            transmit(Kind::Ack, ex.to, node, node, next, ex.ackNs, 0);
        return;
    case Kind::Ack:
        if (!received)
            failExchange(node, f, false);
        else
            finish(node, true);
        return;
    }
}

void WifiChain::failExchange(std::uint32_t node, const OnAir& lost, bool blocked)
{
    const auto station = static_cast<std::uint32_t>(m_nodes.size() - 1);
    bool hidden = blocked;
    if (!blocked)
        hidden = std::any_of(lost.overlaps.begin(), lost.overlaps.end(), [&](const OnAir::Overlap& o) {
            return disturbs(o.from, lost.to) && !hears(node, o.from);
        });
    if (m_away && lost.to == station) {
        ++m_counters.absentFailures;
        // The absence's first loss with nothing in the exchange tried before: the station
        // left while its sender was still in a first attempt's backoff.
        if (!m_absenceLost) {
            m_absenceLost = true;
            const Node& n = m_nodes[node];
            m_counters.leftInFirstBackoff +=
                std::all_of(n.ex.tags.begin(), n.ex.tags.end(),
                            [&](std::uint64_t tag) {
                                const auto f =
                                    std::find_if(n.queue.begin(), n.queue.end(),
                                                 [&](const Frame& q) { return q.tag == tag; });
                                return f == n.queue.end() || f->retries == 0;
                            })
                    ? 1
                    : 0;
        }
    } else if (hidden)
        ++m_counters.hiddenFailures; // a transmitter (or a NAV) the sender cannot sense
    else
        ++m_counters.collisions;
    // The sender learns it when its CTS or ACK timeout runs out; a CTS or ACK that
    // arrived garbled has already taken that long.
    const bool response = lost.kind == Kind::Cts || lost.kind == Kind::Ack;
    m_queue.at(m_queue.now() + (response ? 0 : m_timeoutNs), [this, node] { finish(node, false); });
}

void WifiChain::finish(std::uint32_t node, bool acked)
{
    Node& n = m_nodes[node];
    const Exchange& ex = n.ex; // left as it is until the node's next attempt
    n.transmitting = false;
    m_counters.airtimeNs += m_queue.now() - ex.startNs;
    bool anyFailed = !acked, anyDropped = false;
    // A Block Ack missed after an A-MPDU (or a Block Ack Request) that went out: a
    // sender that asks first sends a Block Ack Request before its MPDUs go again.
    const bool askAfterMiss = m_params.blockAckRequest && ex.blockAckAnswer && !acked &&
                              (!m_params.rtsCts || ex.protectedData || ex.blockAckRequest);
    std::vector<Frame>& delivered = m_delivered;
    delivered.clear();
    for (std::size_t k = 0; k < ex.tags.size(); ++k) {
        auto found = std::find_if(n.queue.begin(), n.queue.end(), [&](const Frame& f) { return f.tag == ex.tags[k]; });
        if (found == n.queue.end())
            continue; // flushed meanwhile (a station leaving its BSS)
        Frame& f = *found;
        if (ex.blockAckRequest && acked) {
            // The Block Ack tells which MPDUs the receiver has; the rest go in the next
            // A-MPDU.
            if (f.received)
                n.queue.erase(found);
            else
                f.unanswered = false;
            continue;
        }
        const bool got = !ex.blockAckRequest && ex.received && ex.mpduOk[k];
        if (got && !f.received) {
            // The next node has it even if its ACK is lost: it forwards it once and
            // drops the retries as duplicates.
            f.received = true;
            delivered.push_back(f);
        }
        if (got && acked) {
            n.queue.erase(found);
            continue;
        }
        // An MPDU a Block Ack left out of an exchange that got its answer stays for the
        // next A-MPDU without a retry counted, and the exchange succeeded (CW reset): the
        // retry limits count exchanges that failed (ns-3's station retry counters;
        // mac80211's aggregates retry 30 times in software), else an MPDU at an
        // aggregate's head, where a hidden node's frame keeps landing, is dropped though
        // every exchange succeeds.
        if (acked && blockAck())
            continue;
        anyFailed = true;
        // A PPDU lost after its CTS also counts against the long retry limit (10.23.2.12).
        const bool longDone = ex.protectedData && ++f.longRetries >= m_params.longRetryLimit;
        if (++f.retries > m_params.retryLimit || longDone) {
            ++m_counters.drops;
            anyDropped = true;
            // Out of the queue before anyone is told: a fix may put frames back in it.
            const Frame gone = std::move(f);
            n.queue.erase(found);
            if (gone.announcement && m_announcing) {
                // Never had by the AP: the station goes all the same, unannounced.
                Outage unannounced = m_announced;
                unannounced.mode = OutageMode::Drop;
                leave(unannounced);
            } else if (!gone.received && !gone.announcement) {
                reorderGivenUp(node, gone);
                m_dropped(gone.packet, gone.downlink, m_away && ex.to == m_nodes.size() - 1);
            }
        } else {
            f.unanswered = askAfterMiss;
            n.mayHaveUnanswered = n.mayHaveUnanswered || askAfterMiss;
        }
    }
    if (anyFailed) {
        ++m_counters.failures;
        n.cw = std::min(2 * n.cw + 1, m_params.cwMax);
    } else {
        n.cw = m_params.cwMin;
    }
    if (anyDropped)
        n.cw = m_params.cwMin; // the retry chain ended with the frame (10.3.4.4)
    // A backoff follows every transmission, whether a frame waits or not (10.3.4.3),
    // drawn before what the exchange delivered can queue an answer: a station's next
    // frame, queued once that count has run out on an idle medium, goes after DIFS
    // alone, where a node with frames queued draws again each time.
    n.backoffSlots = m_rng.upTo(n.cw);
    n.backoffPending = true;
    n.counting = false;
    // The MPDUs of an A-MPDU reach the next node one by one as the PPDU goes on (each
    // with its own FCS, 9.7.1; ns-3 passes each up as it ends): all but the PPDU's last
    // arrive while it is still on air, and what they make the next node queue meets a
    // busy medium.
    m_arrivingMidPpdu = ex.tags.size() > 1 && !ex.blockAckRequest;
    for (const Frame& f : delivered) {
        if (f.announcement) {
            if (m_announcing)
                leave(m_announced); // the AP has it: it holds from now, the station goes
            continue;
        }
        ++m_counters.mpdusDelivered;
        reorderReceived(ex.to, f);
        m_arrivingMidPpdu = m_arrivingMidPpdu && f.tag != ex.tags.back();
    }
    m_arrivingMidPpdu = false;
    contend(node);
    if (!n.contending && sensedBusySince(node, m_queue.now() + 1) < 0)
        resume(node);
    // Nodes that stopped contending because nothing was eligible may have work now.
    for (std::uint32_t i = 0; i < m_nodes.size(); ++i)
        if (!m_nodes[i].queue.empty())
            contend(i);
}

} // namespace windscope::analysis::replay
