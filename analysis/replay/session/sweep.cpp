// SPDX-License-Identifier: GPL-3.0-or-later
#include "sweep.h"

#include "analysis/parallel.h"
#include "analysis/replay/scenario/fix.h"
#include "analysis/replay/sim/simulator.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <thread>

namespace windscope::analysis::replay {

namespace {

// Scenario keys a sweep can vary besides the fixes with a value: the parameter's row
// and how a value is set.
struct Knob
{
    SweepParameter parameter;
    void (*set)(Scenario&, double);
};

const Knob kKnobs[] = {
    {{"handoff-duration", ValueKind::Number, "ms", {200, 2000, 200}, "duration of every handoff outage", false},
     [](Scenario& s, double ms) {
         for (Outage& o : s.outageList)
             if (o.kind == OutageKind::Handoff)
                 o.durationS = ms / 1000;
     }},
    {{"loss", ValueKind::Number, "", {0, 0.02, 0.0025}, "random loss probability of a data packet on the forward path",
      false},
     [](Scenario& s, double p) { s.path.lossFwd = p; }},
    {{"bottleneck-mbps", ValueKind::Number, "Mb/s", {5, 50, 5}, "rate of the wired bottleneck", false},
     [](Scenario& s, double v) { s.path.bottleneckMbps = v; }},
    {{"queue-kb", ValueKind::Number, "kB", {16, 256, 16}, "size of the bottleneck's drop-tail queue", false},
     [](Scenario& s, double kb) { s.path.queueBytes = static_cast<std::uint64_t>(kb * 1000); }},
    {{"wired-delay-ms", ValueKind::Number, "ms", {5, 100, 5}, "one-way delay of the wired path", false},
     [](Scenario& s, double v) { s.path.wiredDelayMs = v; }},
    {{"hops", ValueKind::Whole, "hops", {1, 5, 1}, "802.11 hops of the wireless chain", false},
     [](Scenario& s, double v) { s.mac.hops = static_cast<std::uint32_t>(v); }},
    {{"phy-rate-mbps", ValueKind::Number, "Mb/s", {6, 54, 6}, "802.11 PHY data rate", false},
     [](Scenario& s, double v) { s.mac.phyRateMbps = v; }},
    {{"seed", ValueKind::Whole, "", {1, 8, 1}, "the simulator's random seed; each point is one run", false},
     [](Scenario& s, double v) { s.seed = static_cast<std::uint64_t>(v); }},
};

std::string numberText(double v)
{
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.10g", v);
    return buf;
}

} // namespace

const std::vector<SweepParameter>& sweepParameters()
{
    static const std::vector<SweepParameter> parameters = [] {
        std::vector<SweepParameter> out;
        for (const FixInfo& f : fixCatalog())
            if (f.sweep.sweepable())
                out.push_back({f.name, f.kind, f.unit, f.sweep, f.summary, true});
        for (const Knob& k : kKnobs)
            out.push_back(k.parameter);
        return out;
    }();
    return parameters;
}

const SweepParameter* findSweepParameter(std::string_view name)
{
    for (const SweepParameter& p : sweepParameters())
        if (p.name == name)
            return &p;
    return nullptr;
}

const std::vector<std::string>& sweepParameterNames()
{
    static const std::vector<std::string> names = [] {
        std::vector<std::string> out;
        for (const SweepParameter& p : sweepParameters())
            out.emplace_back(p.name);
        return out;
    }();
    return names;
}

bool parseSweep(const std::string& text, SweepSpec& out, std::string& error)
{
    const auto eq = text.find('=');
    const auto c1 = text.find(':', eq == std::string::npos ? 0 : eq);
    const auto c2 = c1 == std::string::npos ? c1 : text.find(':', c1 + 1);
    if (eq == std::string::npos || c1 == std::string::npos || c2 == std::string::npos) {
        error = "--sweep takes PARAM=from:to:step";
        return false;
    }
    out.parameter = text.substr(0, eq);
    char* end = nullptr;
    const std::string a = text.substr(eq + 1, c1 - eq - 1), b = text.substr(c1 + 1, c2 - c1 - 1),
                      c = text.substr(c2 + 1);
    out.from = std::strtod(a.c_str(), &end);
    bool ok = end && *end == '\0' && !a.empty();
    out.to = std::strtod(b.c_str(), &end);
    ok = ok && end && *end == '\0' && !b.empty();
    out.step = std::strtod(c.c_str(), &end);
    ok = ok && end && *end == '\0' && !c.empty();
    if (!ok || !(out.step > 0) || out.to < out.from || (out.to - out.from) / out.step > 100000) {
        error = "--sweep " + text + ": from, to and step must be numbers with step > 0 and from <= to";
        return false;
    }
    if (!findSweepParameter(out.parameter)) {
        error = "--sweep: unknown parameter '" + out.parameter + "'";
        return false;
    }
    return true;
}

bool applySweepValue(Scenario& scenario, const std::string& parameter, double value, std::string& error)
{
    for (const Knob& k : kKnobs)
        if (parameter == k.parameter.name) {
            k.set(scenario, value);
            return true;
        }
    // A fix with a value: appended, so it wins over the same fix given earlier.
    const std::string spec = parameter + "=" + numberText(value);
    if (!makeFix(spec, error))
        return false;
    scenario.fixes.push_back(spec);
    return true;
}

std::vector<SweepPoint> runSweep(const Scenario& base, const SweepSpec& spec,
                                 const std::function<void(std::size_t, std::size_t)>& progress,
                                 const std::atomic<bool>* cancel)
{
    std::vector<SweepPoint> points;
    const auto count = static_cast<std::size_t>(std::floor((spec.to - spec.from) / spec.step + 1e-9)) + 1;
    for (std::size_t i = 0; i < count; ++i)
        points.push_back({spec.from + static_cast<double>(i) * spec.step, {}, {}, {}});
    unsigned threads = spec.threads ? spec.threads : std::max(1u, std::thread::hardware_concurrency());
    threads = static_cast<unsigned>(std::min<std::size_t>(threads, count));
    std::atomic<std::size_t> next{0}, done{0};
    std::mutex progressMutex;
    auto worker = [&] {
        for (std::size_t i = next++; i < count; i = next++) {
            if (cancel && cancel->load()) {
                points[i].error = "cancelled";
                continue;
            }
            Scenario s = base;
            SweepPoint& p = points[i];
            if (applySweepValue(s, spec.parameter, p.value, p.error)) {
                const std::vector<std::uint64_t> seeds = seedsFor(s, spec.parameter == "seed" ? 1 : spec.seedRuns);
                std::vector<Metrics> perSeed;
                for (const std::uint64_t seed : seeds) {
                    s.seed = seed;
                    const SimResult r = simulate(s, cancel);
                    if (!r.ok()) {
                        p.error = r.error;
                        break;
                    }
                    perSeed.push_back(metricsOf(r));
                }
                if (p.error.empty()) {
                    p.runs = summariseSeedRuns(seeds, std::move(perSeed));
                    p.metrics = p.runs.mean;
                }
            }
            if (p.error == "cancelled")
                continue; // stopped part way: neither finished nor progress
            const std::size_t finished = ++done;
            if (progress) {
                std::lock_guard<std::mutex> lock(progressMutex);
                progress(finished, count);
            }
        }
    };
    runOnThreads(threads, worker);
    return points;
}

} // namespace windscope::analysis::replay
