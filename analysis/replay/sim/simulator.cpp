// SPDX-License-Identifier: GPL-3.0-or-later
#include "simulator.h"

#include "fifo.h"
#include "analysis/replay/scenario/fix.h"
#include "rng.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <memory>
#include <optional>

namespace windscope::analysis::replay {

namespace {

cwnd::ModelStack modelStack(const SenderParams& sender)
{
    cwnd::ModelStack stack = cwnd::ModelStack::Linux;
    cwnd::parseModelStack(sender.stack, stack); // validated with the scenario
    return stack;
}

constexpr std::int64_t kMs = 1'000'000;

std::int64_t msToNs(double ms)
{
    return static_cast<std::int64_t>(std::llround(ms * 1e6));
}

// A FIFO delay line with optional jitter that never reorders (the lab relay's rings).
// Packets wait in the line itself and only the front one has an event on the queue:
// delivery times never decrease, so the next delivery is always the front's, and the
// agenda stays as small as the number of components instead of the packets in flight.
class DelayLine
{
public:
    using Sink = std::function<void(const Packet&)>;
    DelayLine(EventQueue& queue, std::int64_t delayNs, std::int64_t jitterNs, Rng& rng)
        : m_queue(queue), m_delayNs(delayNs), m_jitterNs(jitterNs), m_rng(rng)
    {
    }
    void setSink(Sink sink) { m_sink = std::move(sink); }
    void push(const Packet& p) { pushFrom(m_queue.now(), p); }
    // As push(), for a packet that enters the line at a known later time (it is still
    // being serialised).
    void pushFrom(std::int64_t enterNs, const Packet& p)
    {
        std::int64_t at = enterNs + m_delayNs;
        if (m_jitterNs > 0)
            at += static_cast<std::int64_t>(m_rng.uniform() * static_cast<double>(m_jitterNs));
        at = std::max(at, m_last);
        m_last = at;
        m_packets.push_back({at, p});
        if (!m_scheduled)
            scheduleFront();
    }

private:
    struct Waiting
    {
        std::int64_t atNs = 0;
        Packet packet;
    };
    void scheduleFront()
    {
        m_scheduled = true;
        m_queue.at(m_packets.front().atNs, [this] {
            const Packet p = m_packets.front().packet;
            m_packets.pop_front();
            m_scheduled = false;
            if (!m_packets.empty())
                scheduleFront();
            m_sink(p);
        });
    }

    EventQueue& m_queue;
    std::int64_t m_delayNs, m_jitterNs;
    Rng& m_rng;
    std::int64_t m_last = 0;
    Fifo<Waiting> m_packets;
    bool m_scheduled = false;
    Sink m_sink;
};

class Simulation final : public NetworkControl
{
public:
    Simulation(const Scenario& s, std::vector<std::unique_ptr<FixAgent>> agents)
        : m_s(s), m_agents(std::move(agents)), m_rng(s.seed, 1), m_jitterRng(s.seed, 2),
          m_wiredFwd(m_queue, msToNs(s.path.wiredDelayMs), msToNs(s.path.jitterMs), m_jitterRng),
          m_wiredRev(
              m_queue,
              msToNs(s.path.reverseDelayMs >= 0 ? s.path.reverseDelayMs : s.path.wiredDelayMs),
              msToNs(s.path.jitterMs), m_jitterRng),
          m_radioFwd(m_queue, msToNs(s.path.wirelessDelayMs), 0, m_jitterRng),
          m_radioRev(m_queue, msToNs(s.path.wirelessDelayMs), 0, m_jitterRng),
          m_radioBacklog(m_queue, 0, 0, m_jitterRng)
    {
        const std::uint32_t mss = s.sender.mss;
        std::uint64_t total = 0;
        std::int64_t stopNs = static_cast<std::int64_t>(s.durationS * 1e9);
        if (s.bytes > 0) {
            total = (s.bytes + mss - 1) / mss;
            stopNs = std::numeric_limits<std::int64_t>::max();
        }
        m_receiver = std::make_unique<TcpReceiver>(m_queue, s.receiver, mss,
                                                   [this](const Packet& a) { fromReceiver(a); });
        m_sender = std::make_unique<TcpSender>(m_queue, s.sender, total, stopNs,
                                               m_receiver->advertisedWindow(), cwnd::makeCongestionModel(s.sender.cc, modelStack(s.sender)),
                                               [this](const Packet& p) { fromSender(p); });
        if (s.mac.enabled)
            m_chain = std::make_unique<WifiChain>(
                m_queue, s.mac, s.seed,
                [this](const Packet& p, bool downlink) { downlink ? radioDeliveredDown(p) : radioDeliveredUp(p); },
                [this](const Packet& p, bool downlink, bool away) {
                    if (away)
                        ++m_result.path.outageDrops;
                    logDrop(away ? DropRecord::Reason::Outage : DropRecord::Reason::Random, downlink, p);
                    if (downlink && p.kind == Packet::Kind::Data)
                        for (auto& a : m_agents)
                            a->wirelessDrop(p, away, *this);
                });
        m_wiredFwd.setSink([this](const Packet& p) { atBaseStation(p); });
        m_wiredRev.setSink([this](const Packet& a) { toSender(a); });
        m_radioFwd.setSink([this](const Packet& p) { m_receiver->arrive(p); });
        m_radioBacklog.setSink([this](const Packet& p) { relayRadio(p); });
        if (m_chain)
            m_radioRev.setSink([this](const Packet& a) { m_chain->sendUplink(a); });
        else
            m_radioRev.setSink([this](const Packet& a) { radioDeliveredUp(a); });
        m_result.mss = mss;
        // The radio's placed losses and the scans' (the scenario as run keeps them apart).
        m_lostSegments = m_s.path.lostSegments;
        m_lostSegments.insert(m_lostSegments.end(), m_s.periodicScan.lostSegments.begin(),
                              m_s.periodicScan.lostSegments.end());
        std::sort(m_lostSegments.begin(), m_lostSegments.end());
        m_tokens = static_cast<double>(s.path.burstBytes); // the bucket starts full
        // A bottleneck at the radio pauses while the AP holds the station's frames; its
        // departures reach the radio one wired delay later.
        if (s.path.atRadio && !s.mac.enabled) {
            const auto wiredNs = static_cast<std::int64_t>(s.path.wiredDelayMs * 1e6);
            for (const Outage& o : m_s.outages())
                if (o.mode != OutageMode::Drop)
                    m_radioPauses.emplace_back(static_cast<std::int64_t>(o.startS * 1e9) - wiredNs,
                                               static_cast<std::int64_t>(o.endS() * 1e9) - wiredNs);
        }
    }

    SimResult run(const std::atomic<bool>* cancel)
    {
        for (const Outage& o : m_s.outages()) {
            const std::int64_t start = static_cast<std::int64_t>(o.startS * 1e9);
            const std::int64_t end = static_cast<std::int64_t>(o.endS() * 1e9);
            for (auto& a : m_agents)
                if (const std::int64_t lead = a->leadNs(m_s); lead > 0)
                    m_queue.at(std::max<std::int64_t>(0, start - lead),
                               [this, o, agent = a.get()] { agent->beforeOutage(o, *this); });
            m_queue.at(start, [this, o] { outageStart(o); });
            m_queue.at(end, [this, o] { outageEnd(o); });
        }
        m_queue.at(0, [this] { m_sender->start(); });
        const bool timeBound = m_s.bytes == 0;
        const std::int64_t stopNs = static_cast<std::int64_t>(m_s.durationS * 1e9);
        if (timeBound)
            m_queue.at(stopNs, [this] { m_sender->checkIdleDone(); });
        // Time-bound runs drain what is outstanding; byte-bound runs get an hour.
        const std::int64_t hardEnd = timeBound ? stopNs + 120'000 * kMs : 3'600'000 * kMs;
        std::uint64_t polled = 0;
        m_queue.run(hardEnd, [&] {
            if (m_sender->done())
                return true;
            return cancel && (++polled & 0xfff) == 0 && cancel->load(std::memory_order_relaxed);
        });
        if (cancel && cancel->load())
            m_result.error = "cancelled";
        m_result.scenario = m_s;
        m_result.samples = m_sender->samples();
        m_result.sender = m_sender->counters();
        m_result.receiver = m_receiver->counters();
        if (m_chain)
            m_result.mac = m_chain->counters();
        m_result.segments = static_cast<std::uint64_t>(m_sender->segmentsAcked());
        m_result.completed = m_sender->done();
        m_result.endNs = m_sender->done() ? m_sender->doneNs() : m_queue.now();
        m_result.events = m_queue.processed();
        return std::move(m_result);
    }

    // NetworkControl
    std::int64_t nowNs() const override { return m_queue.now(); }
    bool lastUplinkAck(Packet& ack) const override
    {
        if (!m_lastUplinkAck)
            return false;
        ack = *m_lastUplinkAck;
        return true;
    }
    void sendAckToSender(const Packet& ack) override
    {
        Packet a = ack;
        a.injected = true;
        ++m_result.path.injectedAcks;
        m_wiredRev.push(a);
    }
    void holdDownlink(bool hold) override
    {
        m_bsHold = hold;
        if (hold)
            return;
        std::deque<Packet> held;
        held.swap(m_bsHeld);
        for (const Packet& p : held)
            toRadio(p, true);
    }
    void freezeReceiver(bool frozen) override { m_receiver->freeze(frozen); }
    void retransmitFromAp(const Packet& data) override
    {
        if (m_chain)
            m_chain->requeueDownlinkFront(data);
        else
            toRadio(data);
    }
    std::int64_t wirelessRttNs() const override
    {
        std::int64_t rtt = 2 * msToNs(m_s.path.wirelessDelayMs);
        if (m_chain)
            rtt += 2 * m_chain->exchangeNs(m_s.sender.mss + 100, 1) * m_s.mac.hops;
        return std::max<std::int64_t>(rtt, kMs);
    }

    void after(std::int64_t delayNs, std::function<void()> action) override
    {
        m_queue.after(delayNs, std::move(action));
    }

private:
    void logDrop(DropRecord::Reason reason, bool downlink, const Packet& p)
    {
        m_result.drops.push_back({m_queue.now(), reason, downlink && p.kind != Packet::Kind::Ack, p});
    }

    void fromSender(const Packet& p)
    {
        if (m_tracePoint == TracePoint::Sender)
            m_result.trace.push_back({m_queue.now(), true, p});
        // Bottleneck: drop-tail queue of queueBytes, serialised at the bottleneck rate.
        const std::uint32_t size = p.length + m_s.mac.ipTcpHeaderBytes;
        const std::int64_t now = m_queue.now();
        while (!m_inQueue.empty() && m_inQueue.front().first <= now) {
            m_queuedBytes -= m_inQueue.front().second;
            m_inQueue.pop_front();
        }
        if (m_queuedBytes + size > m_s.path.queueBytes && !m_inQueue.empty()) {
            ++m_result.path.queueDrops;
            logDrop(DropRecord::Reason::Queue, true, p);
            return;
        }
        const double bytesPerNs = m_s.path.bottleneckMbps * 1e6 / 8 / 1e9;
        if (m_s.path.burstBytes == 0) {
            const std::int64_t serialise = serialiseNs(size);
            m_linkFreeNs = afterRadioPauses(std::max(m_linkFreeNs, now), serialise) + serialise;
        } else {
            // Token bucket (Linux tbf): in order, each packet leaves as soon as the
            // bucket, refilled at the rate since the last departure and capped at the
            // burst, holds its size.
            const double cap = static_cast<double>(std::max<std::uint64_t>(m_s.path.burstBytes, size));
            const std::int64_t start = afterRadioPauses(
                std::max(m_linkFreeNs, now), static_cast<std::int64_t>(static_cast<double>(size) / bytesPerNs));
            double tokens = std::min(cap, m_tokens + static_cast<double>(start - m_linkFreeNs) * bytesPerNs);
            std::int64_t leave = start;
            if (tokens < size) {
                leave += static_cast<std::int64_t>(std::ceil((size - tokens) / bytesPerNs));
                tokens = size;
            }
            m_tokens = tokens - size;
            m_linkFreeNs = leave;
        }
        if (m_tracePoint == TracePoint::PastQueue) {
            // As the capture past the queue saw it: when the link began to send it.
            const std::int64_t sentNs =
                m_s.path.burstBytes == 0 ? m_linkFreeNs - serialiseNs(size) : m_linkFreeNs;
            m_queue.at(std::max(now, sentNs), [this, p] {
                m_result.trace.push_back({m_queue.now(), true, p});
            });
        }
        m_inQueue.emplace_back(m_linkFreeNs, size);
        m_queuedBytes += size;
        m_wiredFwd.pushFrom(m_linkFreeNs, p);
    }

    // A packet's time on the bottleneck link at its rate.
    std::int64_t serialiseNs(std::uint32_t bytes) const
    {
        return static_cast<std::int64_t>(bytes * 8.0 / (m_s.path.bottleneckMbps * 1e6) * 1e9);
    }

    // The first time from startNs that a transmission of durationNs neither starts nor
    // runs into a pause of the radio: a frame waits for the station's return.
    std::int64_t afterRadioPauses(std::int64_t startNs, std::int64_t durationNs) const
    {
        auto it = std::lower_bound(m_radioPauses.begin(), m_radioPauses.end(), startNs,
                                   [](const auto& pause, std::int64_t ns) { return pause.second <= ns; });
        while (it != m_radioPauses.end() && it->first < startNs + durationNs) {
            startNs = std::max(startNs, it->second);
            ++it;
        }
        return startNs;
    }

    void atBaseStation(const Packet& p)
    {
        if (m_bsHold) {
            ++m_result.path.heldPackets;
            m_bsHeld.push_back(p);
            return;
        }
        toRadio(p);
    }

    // backlog: the packet comes out of a hold, with others released at the same instant.
    void toRadio(const Packet& p, bool backlog = false)
    {
        if (p.kind == Packet::Kind::Data && !p.retransmission &&
            std::binary_search(m_lostSegments.begin(), m_lostSegments.end(), p.segment)) {
            ++m_result.path.randomDrops;
            logDrop(DropRecord::Reason::Random, true, p);
            for (auto& a : m_agents)
                a->wirelessDrop(p, false, *this);
            return;
        }
        if (m_chain) {
            m_chain->sendDownlink(p);
            return;
        }
        // Without the 802.11 model a held backlog still leaves the radio one frame at a
        // time: at the bottleneck's rate, the least the radio carried before the hold (a
        // backlog delivered at once would return its ACKs as one burst). Packets behind
        // a backlog wait for it, in order.
        const std::int64_t now = m_queue.now();
        if (backlog || m_radioBacklogFreeNs > now) {
            const std::int64_t serialise = serialiseNs(p.length + m_s.mac.ipTcpHeaderBytes);
            m_radioBacklogFreeNs = std::max(m_radioBacklogFreeNs, now) + serialise;
            m_radioBacklog.pushFrom(m_radioBacklogFreeNs, p);
            return;
        }
        relayRadio(p);
    }

    // Relay radio (the lab's): frames judged as they leave the bottleneck.
    void relayRadio(const Packet& p)
    {
        if (m_outage) {
            if (m_outage->mode == OutageMode::Drop) {
                ++m_result.path.outageDrops;
                logDrop(DropRecord::Reason::Outage, true, p);
                for (auto& a : m_agents)
                    if (p.kind == Packet::Kind::Data)
                        a->wirelessDrop(p, true, *this);
                return;
            }
            ++m_result.path.heldPackets;
            m_relayHeldDown.push_back(p);
            return;
        }
        radioDeliveredDown(p);
    }

    void radioDeliveredDown(const Packet& p)
    {
        if (m_tracePoint == TracePoint::Radio)
            m_result.trace.push_back({m_queue.now(), true, p});
        if (m_rng.chance(m_s.path.lossFwd)) {
            ++m_result.path.randomDrops;
            logDrop(DropRecord::Reason::Random, true, p);
            for (auto& a : m_agents)
                if (p.kind == Packet::Kind::Data)
                    a->wirelessDrop(p, false, *this);
            return;
        }
        m_radioFwd.push(p);
    }

    void fromReceiver(const Packet& a)
    {
        if (m_chain) {
            m_radioRev.push(a);
            return;
        }
        if (m_outage) {
            if (m_outage->mode == OutageMode::Drop) {
                ++m_result.path.outageDrops;
                logDrop(DropRecord::Reason::Outage, false, a);
                return;
            }
            ++m_result.path.heldPackets;
            m_relayHeldUp.push_back(a);
            return;
        }
        m_radioRev.push(a);
    }

    void radioDeliveredUp(const Packet& a)
    {
        if (m_tracePoint == TracePoint::Radio)
            m_result.trace.push_back({m_queue.now(), false, a});
        if (m_rng.chance(m_s.path.lossRev)) {
            ++m_result.path.randomDrops;
            logDrop(DropRecord::Reason::Random, false, a);
            return;
        }
        for (auto& agent : m_agents)
            if (!agent->forwardUplinkAck(a, *this))
                return;
        m_lastUplinkAck = a;
        m_wiredRev.push(a);
    }

    void toSender(const Packet& a)
    {
        if (m_tracePoint != TracePoint::Radio)
            m_result.trace.push_back({m_queue.now(), false, a});
        m_sender->onAck(a);
    }

    void outageStart(const Outage& o)
    {
        if (m_chain)
            m_chain->stationAway(o);
        else
            m_outage = o;
        for (auto& a : m_agents)
            a->outageStart(o, *this);
    }

    void outageEnd(const Outage& o)
    {
        if (m_chain) {
            m_chain->stationBack();
        } else {
            m_outage.reset();
            std::deque<Packet> down, up;
            down.swap(m_relayHeldDown);
            up.swap(m_relayHeldUp);
            for (const Packet& p : down)
                radioDeliveredDown(p);
            for (const Packet& a : up)
                m_radioRev.push(a);
        }
        for (auto& a : m_agents)
            a->outageEnd(o, *this);
    }

    Scenario m_s;
    // Where the run's trace looks from (PathParams::tracedAtRadio, tracedPastQueue): the
    // last radio, the bottleneck link's departures, or the sender.
    enum class TracePoint : std::uint8_t { Sender, PastQueue, Radio };
    TracePoint m_tracePoint = m_s.path.tracedAtRadio    ? TracePoint::Radio
                              : m_s.path.tracedPastQueue ? TracePoint::PastQueue
                                                         : TracePoint::Sender;
    std::vector<std::int64_t> m_lostSegments; // path.lostSegments and the scans', sorted
    std::vector<std::unique_ptr<FixAgent>> m_agents;
    EventQueue m_queue;
    Rng m_rng, m_jitterRng;
    DelayLine m_wiredFwd, m_wiredRev, m_radioFwd, m_radioRev;
    DelayLine m_radioBacklog;              // a released hold leaving the radio (no 802.11 model)
    std::int64_t m_radioBacklogFreeNs = 0; // when its last packet has left
    std::unique_ptr<TcpReceiver> m_receiver;
    std::unique_ptr<TcpSender> m_sender;
    std::unique_ptr<WifiChain> m_chain;
    std::deque<std::pair<std::int64_t, std::uint32_t>> m_inQueue; // (departure, bytes)
    std::uint64_t m_queuedBytes = 0;
    std::int64_t m_linkFreeNs = 0;  // the last packet's departure from the bottleneck
    double m_tokens = 0;            // token bucket: bytes left at that departure
    bool m_bsHold = false;
    std::deque<Packet> m_bsHeld, m_relayHeldDown, m_relayHeldUp;
    std::optional<Outage> m_outage;
    std::vector<std::pair<std::int64_t, std::int64_t>> m_radioPauses; // bottleneck time, sorted
    std::optional<Packet> m_lastUplinkAck;
    SimResult m_result;
};

} // namespace

SimResult simulate(const Scenario& scenario, const std::atomic<bool>* cancel)
{
    Scenario s = scenario;
    std::vector<std::unique_ptr<FixAgent>> agents;
    SimResult failed;
    if (!applyFixes(s, agents, failed.error))
        return failed;
    if (const std::string why = s.validate(); !why.empty()) {
        failed.error = why;
        return failed;
    }
    Simulation sim(s, std::move(agents));
    return sim.run(cancel);
}

} // namespace windscope::analysis::replay
