// SPDX-License-Identifier: GPL-3.0-or-later
// snoop: Snoop-style local retransmission at the AP (Balakrishnan et al., 1995). The
// AP keeps the data segments its radio failed to deliver and sends them again itself:
// at once after a wireless loss (one wireless RTT later, when the station's duplicate
// ACK would arrive), or when the station is back after an outage. Duplicate ACKs for
// a segment being repaired locally are not forwarded, so the sender neither
// retransmits nor cuts its window.
#include "fixes.h"

#include <set>

namespace windscope::analysis::replay::fixes {

namespace {

class Agent final : public FixAgent
{
public:
    void wirelessDrop(const Packet& p, bool duringOutage, NetworkControl& net) override
    {
        m_repairing.insert(p.segment);
        if (duringOutage) {
            m_waiting.push_back(p);
            return;
        }
        net.after(net.wirelessRttNs(), [&net, p] { net.retransmitFromAp(p); });
    }
    void outageEnd(const Outage&, NetworkControl& net) override
    {
        std::vector<Packet> waiting;
        waiting.swap(m_waiting);
        // requeueDownlinkFront() puts each at the head: push in reverse to keep order.
        for (auto it = waiting.rbegin(); it != waiting.rend(); ++it)
            net.retransmitFromAp(*it);
    }
    bool forwardUplinkAck(const Packet& ack, NetworkControl&) override
    {
        while (!m_repairing.empty() && *m_repairing.begin() < ack.ackSegment)
            m_repairing.erase(m_repairing.begin());
        const bool duplicate = ack.ackSegment == m_lastAck;
        m_lastAck = ack.ackSegment;
        return !(duplicate && m_repairing.count(ack.ackSegment));
    }

private:
    std::set<std::int64_t> m_repairing;
    std::vector<Packet> m_waiting;
    std::int64_t m_lastAck = -1;
};

class Snoop final : public Fix
{
public:
    std::string_view name() const override { return "snoop"; }
    bool apply(Scenario&, std::string&) const override { return true; }
    std::unique_ptr<FixAgent> makeAgent(const Scenario&) const override { return std::make_unique<Agent>(); }
};

} // namespace

std::unique_ptr<Fix> makeSnoop(std::string_view value, std::string& error)
{
    if (!requireNoValue("snoop", value, error))
        return nullptr;
    return std::make_unique<Snoop>();
}

} // namespace windscope::analysis::replay::fixes
