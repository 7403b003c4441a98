// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// One replay run: the scenario's fixes applied, the network built (sender, bottleneck
// link, wired delay, base station / AP with the fixes' agents, 802.11 hop(s) or the
// relay-style radio, receiver), the outage timeline scheduled, and the event queue run
// to completion. Deterministic: the result is a function of the scenario (seed
// included) alone.

#include "tcp_receiver.h"
#include "tcp_sender.h"
#include "wifi_chain.h"

#include <atomic>
#include <string>
#include <vector>

namespace windscope::analysis::replay {

// A packet as the sender's own capture would show it.
struct TraceRecord
{
    std::int64_t timeNs = 0;
    bool fromSender = true;  // data and probes; false: an ACK arriving at the sender
    Packet packet;
};

// A packet the path discarded, and why: the bottleneck's queue was full, the station
// was away (an outage; with the 802.11 model, retries while it was away), or the radio
// lost it (random loss; with the 802.11 model, the retry limit reached otherwise).
struct DropRecord
{
    enum class Reason : std::uint8_t { Queue, Outage, Random };
    std::int64_t timeNs = 0;
    Reason reason = Reason::Queue;
    bool data = true;        // false: an ACK on its way to the sender
    Packet packet;
};

struct PathCounters
{
    std::uint64_t queueDrops = 0;      // bottleneck drop-tail
    std::uint64_t outageDrops = 0;     // lost while the station was away (relay or MAC)
    std::uint64_t randomDrops = 0;
    std::uint64_t heldPackets = 0;     // kept by a base station or AP and released later
    std::uint64_t injectedAcks = 0;    // ACKs made by fix agents
};

struct SimResult
{
    Scenario scenario;                  // as run: fixes applied
    std::string error;                  // non-empty: the run did not happen
    std::vector<TraceRecord> trace;
    std::vector<DropRecord> drops;      // every packet the path discarded, in time order
    std::vector<SenderSample> samples;
    SenderCounters sender;
    ReceiverCounters receiver;
    MacCounters mac;
    PathCounters path;
    std::uint64_t segments = 0;         // unique segments delivered
    std::uint32_t mss = 0;
    std::int64_t endNs = 0;             // when the run stopped
    bool completed = false;             // all data acknowledged
    std::uint64_t events = 0;           // events processed
    bool ok() const { return error.empty(); }
};

SimResult simulate(const Scenario& scenario, const std::atomic<bool>* cancel = nullptr);

} // namespace windscope::analysis::replay
