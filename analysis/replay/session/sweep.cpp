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

// Scenario keys a sweep can vary besides the fixes with a value.
struct Knob
{
    const char* name;
    void (*set)(Scenario&, double);
};

const Knob kKnobs[] = {
    {"handoff-duration", [](Scenario& s, double ms) {
         for (Outage& o : s.outageList)
             if (o.kind == OutageKind::Handoff)
                 o.durationS = ms / 1000;
     }},
    {"loss", [](Scenario& s, double p) { s.path.lossFwd = p; }},
    {"bottleneck-mbps", [](Scenario& s, double v) { s.path.bottleneckMbps = v; }},
    {"wired-delay-ms", [](Scenario& s, double v) { s.path.wiredDelayMs = v; }},
    {"hops", [](Scenario& s, double v) { s.mac.hops = static_cast<std::uint32_t>(v); }},
    {"phy-rate-mbps", [](Scenario& s, double v) { s.mac.phyRateMbps = v; }},
    {"seed", [](Scenario& s, double v) { s.seed = static_cast<std::uint64_t>(v); }},
};

std::string numberText(double v)
{
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.10g", v);
    return buf;
}

} // namespace

const std::vector<std::string>& sweepParameterNames()
{
    static const std::vector<std::string> names = [] {
        std::vector<std::string> out;
        for (const FixInfo& f : fixCatalog())
            if (!f.valueHint.empty() && f.name != "cc")
                out.emplace_back(f.name);
        for (const Knob& k : kKnobs)
            out.emplace_back(k.name);
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
    bool known = false;
    for (const std::string& n : sweepParameterNames())
        known = known || n == out.parameter;
    if (!known) {
        error = "--sweep: unknown parameter '" + out.parameter + "'";
        return false;
    }
    return true;
}

bool applySweepValue(Scenario& scenario, const std::string& parameter, double value, std::string& error)
{
    for (const Knob& k : kKnobs)
        if (parameter == k.name) {
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
