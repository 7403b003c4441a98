// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The 802.11 part: nodes 0 (the AP, or the first node of an ad hoc string) to H (the
// receiving station), one hop between neighbours. Each node has one transmit queue
// (one access category) and contends with DCF (IEEE 802.11-2020 10.3): DIFS (AIFS for
// best effort), a backoff of uniform [0, CW] slots, CW doubling after a failure up to
// CWmax and reset after a success, retries up to the retry limit, then the frame is
// dropped. An exchange is [RTS SIFS CTS SIFS] PPDU SIFS ACK, or a Block Ack after an
// A-MPDU of up to ampduMax MPDUs for the same receiver (10.12, 10.25); each MPDU of an
// A-MPDU is acknowledged on its own, so frame errors cost a retry of that MPDU only.
//
// Who hears whom (an ad hoc string, as in paper 003 and the lab's RangePropagation):
// only neighbours. A node defers while a node within one hop transmits or receives
// (carrier sense and NAV from CTS/ACK); a transmission fails when a node within one
// hop of its receiver is already transmitting and the sender cannot hear it (hidden
// terminal), and an ongoing one is corrupted by a hidden node starting next to its
// receiver when RTS/CTS is off. Two nodes that hear each other and pick the same slot
// collide.
//
// The station (node H) can be away (scan, power save, handoff); what the node before
// it does with frames for it is the outage's mode (scenario.h).

#include "event_queue.h"
#include "packet.h"
#include "rng.h"
#include "scenario.h"

#include <deque>
#include <functional>
#include <vector>

namespace windscope::analysis::replay {

struct MacCounters
{
    std::uint64_t exchanges = 0, failures = 0, collisions = 0, hiddenFailures = 0, absentFailures = 0;
    std::uint64_t drops = 0, queueDrops = 0, mpdusDelivered = 0, ampdus = 0;
    std::int64_t airtimeNs = 0;
};

class WifiChain
{
public:
    // Delivered at the far end: downlink at node H (to the receiver host), uplink at
    // node 0 (to the wired side / the sender host).
    using Deliver = std::function<void(const Packet&, bool downlink)>;
    using Dropped = std::function<void(const Packet&, bool downlink, bool stationAway)>;
    WifiChain(EventQueue& queue, const MacParams& params, std::uint64_t seed, Deliver deliver, Dropped dropped);

    void sendDownlink(const Packet& p); // enters node 0's queue
    void sendUplink(const Packet& p);   // enters node H's queue
    // Puts a packet at the head of node 0's queue (a local retransmission).
    void requeueDownlinkFront(const Packet& p);

    void stationAway(const Outage& outage);
    void stationBack();

    const MacCounters& counters() const { return m_counters; }
    // Airtime of one exchange carrying `count` MPDUs of `bytes` payload each.
    std::int64_t exchangeNs(std::uint32_t bytes, std::uint32_t count) const;

private:
    struct Frame
    {
        Packet packet;
        bool downlink = true;
        std::uint32_t retries = 0;
        bool committed = false; // handed to the radio before a power-save announcement
        std::uint64_t tag = 0;  // unique in the chain, to find the frame after its exchange
    };
    struct Node
    {
        std::deque<Frame> queue;
        std::uint32_t cw = 15;
        bool contending = false, transmitting = false;
        std::uint64_t attemptToken = 0;
        std::uint32_t backoffSlots = 0;
    };
    struct Transmission
    {
        std::uint32_t from = 0, to = 0;
        std::int64_t startNs = 0, endNs = 0;
        bool failed = false;
    };

    void enqueue(std::uint32_t node, const Frame& frame, bool front = false);
    void contend(std::uint32_t node);
    void attempt(std::uint32_t node, std::uint64_t token);
    void finish(std::uint32_t node, const std::vector<std::uint64_t>& tags, const Transmission& tx,
                const std::vector<bool>& mpduOk);
    bool eligible(std::uint32_t node, const Frame& f) const;
    std::uint32_t receiverOf(std::uint32_t node, const Frame& f) const { return f.downlink ? node + 1 : node - 1; }
    static std::uint32_t distance(std::uint32_t a, std::uint32_t b) { return a > b ? a - b : b - a; }
    bool hears(std::uint32_t a, std::uint32_t b) const { return distance(a, b) <= m_params.senseHops; }
    bool disturbs(std::uint32_t a, std::uint32_t b) const { return distance(a, b) <= m_params.interferenceHops; }
    std::int64_t busyUntil(std::uint32_t node) const;
    std::uint32_t wireBytes(const Packet& p) const;

    EventQueue& m_queue;
    MacParams m_params;
    Rng m_rng;
    Deliver m_deliver;
    Dropped m_dropped;
    std::vector<Node> m_nodes;
    std::vector<Transmission> m_ongoing;
    std::uint64_t m_tags = 0;
    bool m_away = false;
    OutageMode m_awayMode = OutageMode::Drop;
    MacCounters m_counters;
    std::int64_t m_difsNs, m_slotNs, m_sifsNs;
};

} // namespace windscope::analysis::replay
