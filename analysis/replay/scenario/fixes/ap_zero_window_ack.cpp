// SPDX-License-Identifier: GPL-3.0-or-later
// ap-zero-window-ack: local ACK control at the base station during a handoff (paper
// 001). At handoff start the base station sends the sender a copy of the last ACK it
// forwarded for the station with window 0, so the sender enters persist mode and keeps
// cwnd, ssthresh and RTO (an RTO under a zero window is a probe: Linux
// tcp_retransmit_timer()); downlink packets are held at the base station and delivered
// once the station has re-associated, when the same ACK with the station's last window
// reopens the sender (the lab's B-handoff-zwa-hold).
#include "fixes.h"

namespace windscope::analysis::replay::fixes {

namespace {

class Agent final : public FixAgent
{
public:
    void outageStart(const Outage& o, NetworkControl& net) override
    {
        if (o.kind != OutageKind::Handoff)
            return;
        m_active = true;
        net.holdDownlink(true);
        Packet ack;
        if (net.lastUplinkAck(ack)) {
            m_window = ack.windowBytes;
            ack.windowBytes = 0;
            net.sendAckToSender(ack);
        }
    }
    void outageEnd(const Outage& o, NetworkControl& net) override
    {
        if (o.kind != OutageKind::Handoff || !m_active)
            return;
        m_active = false;
        net.holdDownlink(false);
        Packet ack;
        if (net.lastUplinkAck(ack)) {
            ack.windowBytes = ack.windowBytes > 0 ? ack.windowBytes : m_window;
            net.sendAckToSender(ack);
        }
    }

private:
    bool m_active = false;
    std::uint64_t m_window = 0;
};

class ApZeroWindowAck final : public Fix
{
public:
    std::string_view name() const override { return "ap-zero-window-ack"; }
    bool apply(Scenario&, std::string&) const override { return true; }
    std::unique_ptr<FixAgent> makeAgent(const Scenario&) const override { return std::make_unique<Agent>(); }
};

} // namespace

std::unique_ptr<Fix> makeApZeroWindowAck(std::string_view value, std::string& error)
{
    if (!requireNoValue("ap-zero-window-ack", value, error))
        return nullptr;
    return std::make_unique<ApZeroWindowAck>();
}

} // namespace windscope::analysis::replay::fixes
