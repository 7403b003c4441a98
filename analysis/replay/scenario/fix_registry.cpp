// SPDX-License-Identifier: GPL-3.0-or-later
// The fix registry: a fixed table of the CLI contract's names (docs/cli.md, "replay"),
// no self-registration. Each row declares the fix's value, its unit and the range a
// sweep of it starts from; the front-ends only format these.
#include "fix.h"

#include "analysis/replay/scenario/fixes/fixes.h"
#include "analysis/sender/congestion_model.h"

#include <cmath>
#include <cstdlib>

namespace windscope::analysis::replay {

namespace {

struct Entry
{
    FixInfo info;
    fixes::Factory make;
};

// cc's value hint, "reno|newreno|...", from the model registry (initialised before
// kFixes, which is defined after it in this file).
const std::string kCcValueHint = cwnd::congestionModelNameList("|");

const Entry kFixes[] = {
    {{"ap-zero-window-ack", "", "base station re-sends the last ACK with window 0 at handoff start and holds "
                                "downlink packets until the station is back (paper 001)"},
     fixes::makeApZeroWindowAck},
    {{"freeze-tcp", "", "the receiver advertises a zero window one RTT before each outage and reopens it after"},
     fixes::makeFreezeTcp},
    {{"snoop", "", "the AP keeps data it failed to deliver and retransmits it locally, hiding duplicate ACKs"},
     fixes::makeSnoop},
    {{"rx-app-buffer", "BYTES", "receiving application reads up to BYTES per call (paper 000: 512 vs 32768)",
      ValueKind::Whole, "B", {512, 32768, 4096}},
     fixes::makeRxAppBuffer},
    {{"tx-inter-packet-delay", "MS", "sender leaves at least MS between data segments (paper 000: 1-10 ms)",
      ValueKind::Number, "ms", {0, 10, 1}},
     fixes::makeTxInterPacketDelay},
    {{"ampdu-max", "N", "A-MPDU of up to N MPDUs (paper 003: 1-8)", ValueKind::Whole, "MPDUs", {1, 16, 1}},
     fixes::makeAmpduMax},
    {{"cc", kCcValueHint, "sender congestion control (paper 002)"}, fixes::makeCc},
    {{"max-window", "BYTES", "send and receive buffers, hence the largest window (paper 002: 16 KB vs 2 MB)",
      ValueKind::Whole, "B", {16384, 262144, 16384}},
     fixes::makeMaxWindow},
    {{"scan-aware-ap", "", "the AP holds frames already queued for a station that announced power save (paper 004)"},
     fixes::makeScanAwareAp},
    {{"scan-interval", "MS", "background scan every MS", ValueKind::Number, "ms", {100, 400, 50}},
     fixes::makeScanInterval},
    {{"scan-dwell", "MS", "background scan dwell time", ValueKind::Number, "ms", {5, 40, 5}},
     fixes::makeScanDwell},
};

} // namespace

namespace fixes {

bool parseNumber(std::string_view fix, std::string_view value, bool allowFraction, double& out, std::string& error)
{
    const std::string text(value);
    char* end = nullptr;
    out = std::strtod(text.c_str(), &end);
    if (text.empty() || end != text.c_str() + text.size() || !std::isfinite(out) || out < 0 ||
        (!allowFraction && std::floor(out) != out)) {
        error = "fix " + std::string(fix) + " needs " + (allowFraction ? "a non-negative number" : "a whole number") +
                " (got '" + text + "')";
        return false;
    }
    return true;
}

bool requireNoValue(std::string_view fix, std::string_view value, std::string& error)
{
    if (value.empty())
        return true;
    error = "fix " + std::string(fix) + " takes no value";
    return false;
}

} // namespace fixes

std::unique_ptr<Fix> makeFix(std::string_view spec, std::string& error)
{
    const auto eq = spec.find('=');
    const std::string_view name = spec.substr(0, eq);
    const std::string_view value = eq == std::string_view::npos ? std::string_view() : spec.substr(eq + 1);
    for (const Entry& e : kFixes)
        if (e.info.name == name) {
            if (!e.info.valueHint.empty() && eq == std::string_view::npos) {
                error = "fix " + std::string(name) + " needs a value: " + std::string(name) + "=" +
                        std::string(e.info.valueHint);
                return nullptr;
            }
            return e.make(value, error);
        }
    error = "unknown fix '" + std::string(name) + "'";
    return nullptr;
}

std::string_view valueKindName(ValueKind kind)
{
    switch (kind) {
    case ValueKind::Name: return "name";
    case ValueKind::None: return "none";
    case ValueKind::Whole: return "whole number";
    case ValueKind::Number: return "number";
    }
    return "";
}

const FixInfo* findFix(std::string_view name)
{
    for (const FixInfo& f : fixCatalog())
        if (f.name == name)
            return &f;
    return nullptr;
}

const std::vector<FixInfo>& fixCatalog()
{
    static const std::vector<FixInfo> catalog = [] {
        std::vector<FixInfo> out;
        for (const Entry& e : kFixes)
            out.push_back(e.info);
        return out;
    }();
    return catalog;
}

bool applyFixes(Scenario& scenario, std::vector<std::unique_ptr<FixAgent>>& agents, std::string& error)
{
    for (const std::string& spec : scenario.fixes) {
        std::unique_ptr<Fix> fix = makeFix(spec, error);
        if (!fix)
            return false;
        if (!fix->apply(scenario, error))
            return false;
        if (auto agent = fix->makeAgent(scenario))
            agents.push_back(std::move(agent));
    }
    return true;
}

} // namespace windscope::analysis::replay
