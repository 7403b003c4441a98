// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Fixes as plug-ins, one per file under fixes/, chosen by the names of the CLI contract
// (DESIGN.md): a fix may rewrite the scenario (a parameter fix: buffer size, pacing,
// A-MPDU size, TCP model, window, scan pattern, scan-aware AP) and may attach an agent
// that acts during the run through NetworkControl (AP zero-window ACK, Freeze-TCP,
// Snoop). Fixes combine: each is applied in turn and every agent is attached.

#include "analysis/replay/sim/packet.h"
#include "scenario.h"

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace windscope::analysis::replay {

// What an agent may do to the running network. Implemented by the simulator.
class NetworkControl
{
public:
    virtual ~NetworkControl() = default;
    virtual std::int64_t nowNs() const = 0;
    // The last ACK the base station / AP forwarded from the station to the sender
    // (false before the first one).
    virtual bool lastUplinkAck(Packet& ack) const = 0;
    // Sends an ACK from the base station toward the sender (wired reverse path).
    virtual void sendAckToSender(const Packet& ack) = 0;
    // Base station in front of the AP: keep (true) or release (false) downlink packets.
    virtual void holdDownlink(bool hold) = 0;
    // The receiver advertises a zero window until unfrozen (Freeze-TCP); unfreezing
    // sends the window-opening ACKs.
    virtual void freezeReceiver(bool frozen) = 0;
    // Puts a data packet back at the head of the AP's queue (local retransmission).
    virtual void retransmitFromAp(const Packet& data) = 0;
    virtual std::int64_t wirelessRttNs() const = 0;
    // Runs action delayNs from now (an agent's own timers).
    virtual void after(std::int64_t delayNs, std::function<void()> action) = 0;
};

class FixAgent
{
public:
    virtual ~FixAgent() = default;
    // Called leadNs() before each outage starts (0: not called).
    virtual std::int64_t leadNs(const Scenario&) const { return 0; }
    virtual void beforeOutage(const Outage&, NetworkControl&) {}
    virtual void outageStart(const Outage&, NetworkControl&) {}
    virtual void outageEnd(const Outage&, NetworkControl&) {}
    // A data packet the wireless hop lost (retry limit, outage, random loss).
    virtual void wirelessDrop(const Packet&, bool /*duringOutage*/, NetworkControl&) {}
    // An ACK from the station about to go to the sender; false suppresses it.
    virtual bool forwardUplinkAck(const Packet&, NetworkControl&) { return true; }
};

class Fix
{
public:
    virtual ~Fix() = default;
    virtual std::string_view name() const = 0;
    // Rewrites the scenario; false with error when the value is not acceptable.
    virtual bool apply(Scenario& scenario, std::string& error) const = 0;
    // The agent acting during the run, or nullptr for a parameter-only fix.
    virtual std::unique_ptr<FixAgent> makeAgent(const Scenario&) const { return nullptr; }
};

struct FixInfo
{
    std::string_view name;
    std::string_view valueHint; // "" (no value), "BYTES", "MS", "N", "reno|..."
    std::string_view summary;
};

// "name" or "name=value" -> the fix, or nullptr with error.
std::unique_ptr<Fix> makeFix(std::string_view spec, std::string& error);
const std::vector<FixInfo>& fixCatalog();

// Applies scenario.fixes in order (clearing the list) and returns their agents.
bool applyFixes(Scenario& scenario, std::vector<std::unique_ptr<FixAgent>>& agents, std::string& error);

} // namespace windscope::analysis::replay
