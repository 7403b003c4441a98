// SPDX-License-Identifier: GPL-3.0-or-later
#include "wifi_chain.h"

#include <algorithm>

namespace windscope::analysis::replay {

namespace {
constexpr std::uint32_t kAckBytes = 14;       // ACK / CTS frame (9.3.1.4)
constexpr std::uint32_t kRtsBytes = 20;
constexpr std::uint32_t kBlockAckBytes = 32;  // compressed Block Ack (9.3.1.8)
constexpr std::uint32_t kDelimiterBytes = 4;  // A-MPDU subframe delimiter + padding
} // namespace

WifiChain::WifiChain(EventQueue& queue, const MacParams& params, std::uint64_t seed, Deliver deliver,
                     Dropped dropped)
    : m_queue(queue), m_params(params), m_rng(seed, 7), m_deliver(std::move(deliver)), m_dropped(std::move(dropped)),
      m_nodes(params.hops + 1)
{
    for (Node& n : m_nodes)
        n.cw = params.cwMin;
    m_slotNs = static_cast<std::int64_t>(params.slotUs * 1000);
    m_sifsNs = static_cast<std::int64_t>(params.sifsUs * 1000);
    m_difsNs = m_sifsNs + 2 * m_slotNs; // DIFS = SIFS + 2 slots (AIFSN 3 for BE adds one slot)
    m_difsNs += m_slotNs;               // AIFS[BE] with AIFSN 3 (10.22.2.4)
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

std::int64_t WifiChain::exchangeNs(std::uint32_t bytes, std::uint32_t count) const
{
    const double phy = m_params.phyRateMbps, basic = m_params.basicRateMbps;
    const double pre = m_params.preambleUs;
    const bool aggregate = m_params.ampduMax > 1;
    double us = pre + (static_cast<double>(bytes) + (aggregate ? kDelimiterBytes : 0)) * count * 8 / phy;
    us += m_params.sifsUs + pre + (aggregate ? kBlockAckBytes : kAckBytes) * 8 / basic;
    if (m_params.rtsCts)
        us += pre + kRtsBytes * 8 / basic + m_params.sifsUs + pre + kAckBytes * 8 / basic + m_params.sifsUs;
    return static_cast<std::int64_t>(us * 1000);
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
    if (front)
        n.queue.push_front(tagged);
    else
        n.queue.push_back(tagged);
    contend(node);
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
    if (!m_away)
        return true;
    const auto station = static_cast<std::uint32_t>(m_nodes.size() - 1);
    if (node == station)
        return false; // the station is off channel and sends nothing
    if (receiverOf(node, f) != station)
        return true;
    switch (m_awayMode) {
    case OutageMode::Drop: return true;        // the AP does not know: it transmits
    case OutageMode::Hold: return false;       // power save honoured
    case OutageMode::PsAnnounced: return f.committed;
    }
    return true;
}

void WifiChain::stationAway(const Outage& outage)
{
    m_away = true;
    m_awayMode = outage.mode;
    const auto station = static_cast<std::uint32_t>(m_nodes.size() - 1);
    if (outage.mode == OutageMode::PsAnnounced) {
        // Frames already handed to the radio (its hardware queue) are still sent.
        Node& ap = m_nodes[station - 1];
        std::uint32_t committed = 0;
        for (Frame& f : ap.queue)
            if (receiverOf(station - 1, f) == station && committed < m_params.hwQueueFrames) {
                f.committed = true;
                ++committed;
            }
    }
    if (outage.kind == OutageKind::Handoff) {
        // StaWifiMac leaves the BSS and flushes its queue.
        for (const Frame& f : m_nodes[station].queue)
            m_dropped(f.packet, f.downlink, true);
        m_nodes[station].queue.clear();
    }
}

void WifiChain::stationBack()
{
    m_away = false;
    for (Node& n : m_nodes)
        for (Frame& f : n.queue)
            f.committed = false;
    for (std::uint32_t i = 0; i < m_nodes.size(); ++i)
        contend(i);
}

std::int64_t WifiChain::busyUntil(std::uint32_t node) const
{
    std::int64_t until = m_queue.now();
    for (const Transmission& t : m_ongoing)
        if (hears(node, t.from) || hears(node, t.to))
            until = std::max(until, t.endNs);
    return until;
}

void WifiChain::contend(std::uint32_t node)
{
    Node& n = m_nodes[node];
    if (n.contending || n.transmitting)
        return;
    if (std::none_of(n.queue.begin(), n.queue.end(), [&](const Frame& f) { return eligible(node, f); }))
        return;
    n.contending = true;
    n.backoffSlots = m_rng.upTo(n.cw);
    const std::uint64_t token = ++n.attemptToken;
    const std::int64_t start = busyUntil(node) + m_difsNs + n.backoffSlots * m_slotNs;
    m_queue.at(start, [this, node, token] { attempt(node, token); });
}

void WifiChain::attempt(std::uint32_t node, std::uint64_t token)
{
    Node& n = m_nodes[node];
    if (token != n.attemptToken || !n.contending)
        return;
    const std::int64_t now = m_queue.now();
    // Someone this node hears started meanwhile: freeze and resume after it (the
    // remaining backoff kept, 10.3.4.3).
    bool collision = false;
    for (const Transmission& t : m_ongoing)
        if (hears(node, t.from) || hears(node, t.to)) {
            if (t.startNs == now && hears(node, t.from))
                collision = true; // same slot: neither hears the other in time
            else {
                const std::uint64_t again = ++n.attemptToken;
                m_queue.at(busyUntil(node) + m_difsNs + n.backoffSlots * m_slotNs,
                           [this, node, again] { attempt(node, again); });
                return;
            }
        }
    // Pick the head eligible frame and, with aggregation, more for the same receiver.
    std::vector<std::size_t> picked;
    std::uint32_t to = 0;
    for (std::size_t i = 0; i < n.queue.size() && picked.size() < m_params.ampduMax; ++i) {
        const Frame& f = n.queue[i];
        if (!eligible(node, f))
            continue;
        if (picked.empty())
            to = receiverOf(node, f);
        else if (receiverOf(node, f) != to)
            continue;
        picked.push_back(i);
    }
    n.contending = false;
    if (picked.empty())
        return;
    n.transmitting = true;
    std::uint32_t maxBytes = 0;
    for (std::size_t i : picked)
        maxBytes = std::max(maxBytes, wireBytes(n.queue[i].packet));
    const std::int64_t duration = exchangeNs(maxBytes, static_cast<std::uint32_t>(picked.size()));
    Transmission tx{node, to, now, now + duration, false};
    const auto station = static_cast<std::uint32_t>(m_nodes.size() - 1);
    if (m_away && to == station)
        tx.failed = true, ++m_counters.absentFailures;
    for (Transmission& t : m_ongoing) {
        if (collision && t.startNs == now && hears(node, t.from)) {
            t.failed = tx.failed = true;
            ++m_counters.collisions;
        }
        if (!hears(node, t.from) && disturbs(t.from, to) && !tx.failed) {
            tx.failed = true; // hidden terminal next to our receiver
            ++m_counters.hiddenFailures;
        }
        if (!m_params.rtsCts && !hears(node, t.from) && disturbs(node, t.to) && !t.failed) {
            t.failed = true; // we are the hidden terminal for that one
            ++m_counters.hiddenFailures;
        }
    }
    std::vector<bool> ok(picked.size(), true);
    std::vector<std::uint64_t> tags(picked.size());
    for (std::size_t i = 0; i < picked.size(); ++i) {
        ok[i] = !m_rng.chance(m_params.frameErrorRate);
        tags[i] = n.queue[picked[i]].tag;
    }
    m_ongoing.push_back(tx);
    ++m_counters.exchanges;
    if (picked.size() > 1)
        ++m_counters.ampdus;
    m_counters.airtimeNs += duration;
    m_queue.at(tx.endNs, [this, node, tags = std::move(tags), tx, ok = std::move(ok)] { finish(node, tags, tx, ok); });
}

void WifiChain::finish(std::uint32_t node, const std::vector<std::uint64_t>& tags, const Transmission& tx,
                       const std::vector<bool>& mpduOk)
{
    Node& n = m_nodes[node];
    bool failed = false;
    for (auto it = m_ongoing.begin(); it != m_ongoing.end(); ++it)
        if (it->from == tx.from && it->startNs == tx.startNs) {
            failed = it->failed;
            m_ongoing.erase(it);
            break;
        }
    n.transmitting = false;
    bool anyFailed = false, anyDropped = false;
    std::vector<Frame> delivered;
    for (std::size_t k = 0; k < tags.size(); ++k) {
        auto found = std::find_if(n.queue.begin(), n.queue.end(), [&](const Frame& f) { return f.tag == tags[k]; });
        if (found == n.queue.end())
            continue; // flushed meanwhile (a station leaving its BSS)
        const auto i = static_cast<std::size_t>(found - n.queue.begin());
        Frame& f = n.queue[i];
        if (!failed && mpduOk[k]) {
            delivered.push_back(f);
            n.queue.erase(n.queue.begin() + static_cast<std::ptrdiff_t>(i));
            continue;
        }
        anyFailed = true;
        if (++f.retries > m_params.retryLimit) {
            ++m_counters.drops;
            anyDropped = true;
            const bool away = m_away && tx.to == m_nodes.size() - 1;
            m_dropped(f.packet, f.downlink, away);
            n.queue.erase(n.queue.begin() + static_cast<std::ptrdiff_t>(i));
        }
    }
    if (failed || anyFailed) {
        ++m_counters.failures;
        n.cw = std::min(2 * n.cw + 1, m_params.cwMax);
    } else {
        n.cw = m_params.cwMin;
    }
    if (anyDropped)
        n.cw = m_params.cwMin; // the retry chain ended with the frame (10.3.4.4)
    const auto last = static_cast<std::uint32_t>(m_nodes.size() - 1);
    for (const Frame& f : delivered) {
        ++m_counters.mpdusDelivered;
        if ((f.downlink && tx.to == last) || (!f.downlink && tx.to == 0))
            m_deliver(f.packet, f.downlink);
        else
            enqueue(tx.to, Frame{f.packet, f.downlink, 0, false});
    }
    contend(node);
    // Nodes that stopped contending because nothing was eligible may have work now.
    for (std::uint32_t i = 0; i < m_nodes.size(); ++i)
        if (!m_nodes[i].queue.empty())
            contend(i);
}

} // namespace windscope::analysis::replay
