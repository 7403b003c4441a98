// SPDX-License-Identifier: GPL-3.0-or-later
// freeze-tcp: Freeze-TCP (Goff et al., INFOCOM 2000). The mobile receiver, which knows
// a handoff or scan is coming, advertises a zero window about one RTT before it so the
// sender freezes (persist mode) instead of losing a window; after the outage it sends
// three copies of the window-opening ACK. Unlike ap-zero-window-ack nothing is held
// in the network: what the sender had already sent before freezing is still exposed.
#include "fixes.h"

namespace windscope::analysis::replay::fixes {

namespace {

class Agent final : public FixAgent
{
public:
    std::int64_t leadNs(const Scenario& s) const override
    {
        // One base RTT: the zero window must reach the sender before the outage.
        const double reverse = s.path.reverseDelayMs >= 0 ? s.path.reverseDelayMs : s.path.wiredDelayMs;
        return static_cast<std::int64_t>((s.path.wiredDelayMs + reverse + 2 * s.path.wirelessDelayMs) * 1e6);
    }
    void beforeOutage(const Outage&, NetworkControl& net) override { net.freezeReceiver(true); }
    void outageEnd(const Outage&, NetworkControl& net) override { net.freezeReceiver(false); }
};

class FreezeTcp final : public Fix
{
public:
    std::string_view name() const override { return "freeze-tcp"; }
    bool apply(Scenario&, std::string&) const override { return true; }
    std::unique_ptr<FixAgent> makeAgent(const Scenario&) const override { return std::make_unique<Agent>(); }
};

} // namespace

std::unique_ptr<Fix> makeFreezeTcp(std::string_view value, std::string& error)
{
    if (!requireNoValue("freeze-tcp", value, error))
        return nullptr;
    return std::make_unique<FreezeTcp>();
}

} // namespace windscope::analysis::replay::fixes
