// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Fixes as plug-ins, one per file under fixes/, chosen by the names of the CLI contract
// (docs/cli.md, "replay"): a fix may rewrite the scenario (a parameter fix: buffer size, pacing,
// A-MPDU size, TCP model, window, scan pattern, scan-aware AP) and may attach an agent
// that acts during the run through NetworkControl (AP zero-window ACK, Freeze-TCP,
// Snoop). Fixes combine: each is applied in turn and every agent is attached.

#include "analysis/replay/sim/packet.h"
#include "scenario.h"

#include <cstdint>
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

// How a fix's value (or a sweep parameter's) is written.
enum class ValueKind : std::uint8_t {
    Name,   // a word the fix checks, e.g. a congestion-control model (cc=cubic)
    None,   // a switch: the name alone (snoop)
    Whole,  // a non-negative whole number (ampdu-max=4)
    Number, // a non-negative number, fractions allowed (scan-interval=102.4)
};
std::string_view valueKindName(ValueKind kind);

// The range a sweep of a parameter starts from, wide enough to show the effect its
// paper reports; the user edits it. step 0: the parameter is not swept.
struct SweepRange
{
    double from = 0, to = 0, step = 0;
    bool sweepable() const { return step > 0; }
};

// One row of the fix registry: everything the front-ends show about a fix (the CLI's
// --list-fixes and usage, the desktop application's fix and sweep menus) is here.
struct FixInfo
{
    using Choices = const std::vector<std::string_view>& (*)();

    // A switch (no value hint) or a fix taking a word, as its value hint says.
    constexpr FixInfo(std::string_view fixName, std::string_view hint, std::string_view text)
        : name(fixName), valueHint(hint), summary(text), kind(hint.empty() ? ValueKind::None : ValueKind::Name)
    {
    }
    constexpr FixInfo(std::string_view fixName, std::string_view hint, std::string_view text, ValueKind valueKind,
                      std::string_view valueUnit = {}, SweepRange range = {}, Choices words = nullptr)
        : name(fixName), valueHint(hint), summary(text), kind(valueKind), unit(valueUnit), sweep(range),
          choices(words)
    {
    }

    std::string_view name;
    std::string_view valueHint; // "" (no value), "BYTES", "MS", "N", "reno|..."
    std::string_view summary;
    ValueKind kind = ValueKind::None;
    std::string_view unit; // of the value: "ms", "B", "MPDUs"; "" for none
    SweepRange sweep;
    // kind Name: the words the value may be, from the registry that owns them (null:
    // the fix checks the word itself).
    Choices choices = nullptr;
};

// "name" or "name=value" -> the fix, or nullptr with error.
std::unique_ptr<Fix> makeFix(std::string_view spec, std::string& error);
const std::vector<FixInfo>& fixCatalog();
// The row of a fix, or nullptr.
const FixInfo* findFix(std::string_view name);

// Applies scenario.fixes in order (clearing the list) and returns their agents.
bool applyFixes(Scenario& scenario, std::vector<std::unique_ptr<FixAgent>>& agents, std::string& error);

} // namespace windscope::analysis::replay
