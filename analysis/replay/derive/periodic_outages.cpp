// SPDX-License-Identifier: GPL-3.0-or-later
#include "periodic_outages.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <numbers>

namespace windscope::analysis::replay {

double foldedOffset(double t, double centreS, double periodS)
{
    const double d = std::fmod(t - centreS + periodS / 2, periodS);
    return (d < 0 ? d + periodS : d) - periodS / 2;
}

namespace {

struct Concentration
{
    double r = 0;     // mean resultant length
    double z = 0;     // Rayleigh statistic N R^2, to rank the periods
    double phaseS = 0; // mean phase, in [0, period)
};

Concentration concentrationAt(const std::vector<double>& events, double periodS)
{
    double c = 0, s = 0;
    const double w = 2 * std::numbers::pi / periodS;
    for (const double t : events) {
        c += std::cos(w * t);
        s += std::sin(w * t);
    }
    Concentration out;
    const auto n = static_cast<double>(events.size());
    out.r = std::hypot(c, s) / n;
    out.z = n * out.r * out.r;
    double phase = std::atan2(s, c) / w;
    if (phase < 0)
        phase += periodS;
    out.phaseS = phase;
    return out;
}

std::int64_t cycleOf(double t, double centreS, double periodS)
{
    return static_cast<std::int64_t>(std::llround((t - centreS) / periodS));
}

// The outage window at one period: all transmissions of cycles first..last folded
// around the centre, lost and delivered per phase bin. The window grows from the bin
// with the most losses near the centre over the bins where a good share of the sends
// were lost (an empty bin included: the sender was silent there), at most half a
// period wide. The share at its edges is lower than inside: the queue in front of the
// radio varies, so sends of one phase meet the radio at different times.
struct PhaseWindow
{
    bool found = false;
    double offsetS = 0; // start, from the centre
    double lengthS = 0;
    double lossShare = 0;

    bool holds(double t, double centreS, double periodS, double marginS) const
    {
        const double into = foldedOffset(t, centreS, periodS) - offsetS;
        return into >= -marginS && into <= lengthS + marginS;
    }
};

PhaseWindow phaseWindow(const std::vector<TransmissionTime>& tx, double t0, double centre, double period,
                        std::int64_t first, std::int64_t last, const PeriodicOutageOptions& o)
{
    PhaseWindow w;
    const auto bins = static_cast<std::size_t>(std::ceil(period / o.binS));
    std::vector<std::uint32_t> lostIn(bins, 0), sentIn(bins, 0);
    for (const TransmissionTime& t : tx) {
        const double rel = t.timeS - t0;
        const std::int64_t k = cycleOf(rel, centre, period);
        if (k < first || k > last)
            continue;
        const double d = foldedOffset(rel, centre, period) + period / 2;
        const std::size_t b = std::min(bins - 1, static_cast<std::size_t>(d / o.binS));
        ++sentIn[b];
        lostIn[b] += t.lost ? 1 : 0;
    }
    // The seed: the bin with the most losses, where at least half the sends were lost.
    // Downstream (placed losses) the bins just before the window also hold the last
    // arrivals of every flight it cut, and the window's own bins nothing else: the
    // seed is the bin with the most losses among those mostly lost.
    const auto mostlyLost = [&](std::size_t b) { return lostIn[b] > 0 && 2 * lostIn[b] >= sentIn[b]; };
    std::size_t seed = bins / 2;
    for (std::size_t b = bins / 4; b < bins - bins / 4; ++b)
        if (o.placedLosses ? mostlyLost(b) && (!mostlyLost(seed) || lostIn[b] > lostIn[seed])
                           : lostIn[b] > lostIn[seed])
            seed = b;
    if (!mostlyLost(seed))
        return w;
    const auto inWindow = [&](std::size_t b) {
        return static_cast<double>(lostIn[b]) >= o.edgeLossShare * static_cast<double>(sentIn[b]);
    };
    std::size_t a = seed, b = seed;
    while (a > 0 && inWindow(a - 1) && b - a + 1 < bins / 2)
        --a;
    while (b + 1 < bins && inWindow(b + 1) && b - a + 1 < bins / 2)
        ++b;
    // The edges lie somewhere in the empty bins at either end: half of them each.
    std::size_t firstLost = a, lastLost = b;
    while (lostIn[firstLost] == 0)
        ++firstLost;
    while (lostIn[lastLost] == 0)
        --lastLost;
    const double startBin = static_cast<double>(firstLost) - static_cast<double>(firstLost - a) / 2;
    const double endBin = static_cast<double>(lastLost + 1) + static_cast<double>(b - lastLost) / 2;
    std::uint64_t sent = 0, lost = 0;
    for (std::size_t i = firstLost; i <= lastLost; ++i) {
        sent += sentIn[i];
        lost += lostIn[i];
    }
    w.found = true;
    w.lossShare = sent ? static_cast<double>(lost) / static_cast<double>(sent) : 0;
    w.offsetS = -period / 2 + startBin * o.binS;
    w.lengthS = (endBin - startBin) * o.binS;
    return w;
}

// The period as the slope of a line through the events near the concentrated phase,
// their times against their cycle numbers: least squares over the first event of each
// cycle (an outage starts its cycle's losses; later bursts of the cycle are its tail
// or other causes), then again without those more than three robust deviations (1.48
// median absolute residuals) off the line. The phase concentration also weighs losses
// of other causes at other phases, and over a hundred cycles a period a tenth of a
// millisecond off moves the window by its own length: seen downstream, where the
// losses are holes placed between the arrivals around them, that is what the
// concentration alone gave. Kept within one search step (df) of the concentration's
// period, the harmonic it chose.
double linePeriod(const std::vector<double>& events, double periodS, double phaseS, double df)
{
    std::vector<std::pair<std::int64_t, double>> firstOfCycle; // (cycle, time), events are sorted
    for (const double e : events) {
        if (std::fabs(foldedOffset(e, phaseS, periodS)) > periodS / 8)
            continue;
        const std::int64_t k = cycleOf(e, phaseS, periodS);
        if (firstOfCycle.empty() || firstOfCycle.back().first != k)
            firstOfCycle.emplace_back(k, e);
    }
    double slope = periodS, intercept = phaseS, tolerance = periodS / 8;
    for (int pass = 0; pass < 3; ++pass) {
        double n = 0, sk = 0, st = 0, skk = 0, skt = 0;
        for (const auto& [cycle, e] : firstOfCycle) {
            const auto k = static_cast<double>(cycle);
            if (pass > 0 && std::fabs(e - intercept - slope * k) > tolerance)
                continue;
            n += 1;
            sk += k;
            st += e;
            skk += k * k;
            skt += k * e;
        }
        const double denominator = n * skk - sk * sk;
        if (n < 3 || denominator <= 0)
            return periodS;
        slope = (n * skt - sk * st) / denominator;
        intercept = (st - slope * sk) / n;
        std::vector<double> residuals;
        for (const auto& [cycle, e] : firstOfCycle)
            residuals.push_back(std::fabs(e - intercept - slope * static_cast<double>(cycle)));
        std::nth_element(residuals.begin(), residuals.begin() + static_cast<std::ptrdiff_t>(residuals.size() / 2),
                         residuals.end());
        tolerance = 3 * 1.4826 * residuals[residuals.size() / 2];
    }
    return std::fabs(1 / slope - 1 / periodS) <= df ? slope : periodS;
}

} // namespace

std::vector<TransmissionTime> relocateSilenceLosses(std::vector<TransmissionTime> tx, double roundTripS,
                                                    double silenceRoundTrips)
{
    if (roundTripS <= 0)
        return tx;
    std::vector<std::size_t> delivered; // indices of the arrivals
    for (std::size_t i = 0; i < tx.size(); ++i)
        if (!tx[i].lost)
            delivered.push_back(i);
    std::vector<TransmissionTime> marks;
    for (std::size_t a = 0; a + 1 < delivered.size(); ++a) {
        const std::size_t last = delivered[a], end = delivered[a + 1];
        const double silenceStart = tx[last].timeS;
        if (tx[end].timeS - silenceStart <= silenceRoundTrips * roundTripS)
            continue;
        const double lostFlightAt = silenceStart + roundTripS;
        bool moved = false;
        // The holes the silence's end revealed, placed after its start.
        for (std::size_t i = last + 1; i < end; ++i) {
            tx[i].timeS = lostFlightAt;
            moved = true;
        }
        // The holes the next arrival revealed, placed after the silence's end.
        if (a + 2 < delivered.size() && tx[delivered[a + 2]].timeS - tx[end].timeS <= 2 * roundTripS)
            for (std::size_t i = end + 1; i < delivered[a + 2]; ++i) {
                tx[i].timeS = lostFlightAt;
                moved = true;
            }
        if (!moved)
            marks.push_back({lostFlightAt, true});
    }
    tx.insert(tx.end(), marks.begin(), marks.end());
    std::stable_sort(tx.begin(), tx.end(),
                     [](const TransmissionTime& x, const TransmissionTime& y) { return x.timeS < y.timeS; });
    return tx;
}

std::int64_t PeriodicOutageFit::windowAt(double timeS, double marginS) const
{
    if (periodS <= 0)
        return -1;
    const double rel = timeS - windowStartS;
    const auto k0 = static_cast<std::int64_t>(std::floor(rel / periodS));
    for (std::int64_t k = k0 - 1; k <= k0 + 1; ++k) {
        if (k < static_cast<std::int64_t>(firstCycle) || k > static_cast<std::int64_t>(lastCycle))
            continue;
        const double into = rel - static_cast<double>(k) * periodS;
        if (into >= -marginS && into <= dwellS + marginS)
            return k;
    }
    return -1;
}

double rayleighSurprise(double n, double r)
{
    const double nr = n * r;
    return (1 + 2 * n) - std::sqrt(1 + 4 * n + 4 * (n * n - nr * nr));
}

PeriodicOutageFit detectPeriodicOutages(const std::vector<TransmissionTime>& tx, const PeriodicOutageOptions& o)
{
    PeriodicOutageFit fit;
    if (tx.size() < 2) {
        fit.reason = "too few transmissions";
        return fit;
    }
    // Times from the first transmission keep the phases precise.
    const double t0 = tx.front().timeS;
    const double spanS = tx.back().timeS - t0;
    std::vector<double> lost, events;
    for (const TransmissionTime& t : tx) {
        if (!t.lost)
            continue;
        const double rel = t.timeS - t0;
        if (lost.empty() || rel - lost.back() >= o.burstGapS)
            events.push_back(rel);
        lost.push_back(rel);
    }
    fit.lostTransmissions = lost.size();
    fit.events = events.size();
    if (events.size() < o.minEvents || spanS < 2 * o.maxPeriodS) {
        fit.reason = "too few loss bursts to test for a period (" + std::to_string(events.size()) + ")";
        return fit;
    }

    // Frequencies from 1/maxPeriod to 1/minPeriod, a step an eighth of the spectral
    // resolution 1/span: over the span the phase of a period between two steps drifts
    // by at most 1/16 of a turn. The threshold is Bonferroni's over the independent
    // frequencies searched, with the Rayleigh test's p (rayleighSurprise()); a period
    // passing it must still hold the losses in its windows (below), which a sender's own
    // rhythm does not.
    const double fLow = 1 / o.maxPeriodS, fHigh = 1 / o.minPeriodS;
    const double df = 1 / (8 * spanS);
    const double independent = std::max(1.0, (fHigh - fLow) * spanS);
    fit.thresholdZ = std::log(independent / o.alpha);
    std::vector<double> freq, z;
    for (double f = fLow; f <= fHigh; f += df) {
        freq.push_back(f);
        z.push_back(concentrationAt(events, 1 / f).z);
    }
    const auto best = static_cast<std::size_t>(std::max_element(z.begin(), z.end()) - z.begin());
    // A period also concentrates the events at its integer fractions (harmonics, at
    // multiples of its frequency): the fundamental is the lowest frequency with a
    // comparable peak of which the best is a harmonic.
    std::size_t pick = best;
    for (std::size_t i = 0; i < best; ++i) {
        const bool peak = (i == 0 || z[i] >= z[i - 1]) && z[i] >= z[i + 1];
        if (!peak || z[i] < std::max(fit.thresholdZ, 0.7 * z[best]))
            continue;
        const double k = std::round(freq[best] / freq[i]);
        if (k >= 1 && std::fabs(freq[best] - k * freq[i]) <= (k + 1) * df) {
            pick = i;
            break;
        }
    }
    // Refine within one grid step.
    double bestF = freq[pick];
    Concentration c = concentrationAt(events, 1 / bestF);
    for (double f = freq[pick] - df; f <= freq[pick] + df; f += df / 32) {
        const Concentration here = concentrationAt(events, 1 / f);
        if (here.z > c.z) {
            c = here;
            bestF = f;
        }
    }
    fit.periodS = 1 / bestF;
    fit.concentration = c.r;
    fit.rayleighZ = rayleighSurprise(static_cast<double>(events.size()), c.r);
    if (fit.rayleighZ <= fit.thresholdZ) {
        fit.reason = "no period concentrates the losses enough";
        return fit;
    }
    if (o.placedLosses) {
        fit.periodS = linePeriod(events, fit.periodS, c.phaseS, df);
        c.phaseS = concentrationAt(events, fit.periodS).phaseS;
    }
    const double period = fit.periodS;

    // The cycles the pattern spans: at first from the first to the last event near its
    // phase, then from the first to the last event in the window found (a burst of
    // another cause near the phase, such as the first overflow of slow start, would
    // otherwise fold cycles without the pattern into the window and blur it).
    const double centre = c.phaseS;
    std::int64_t first = std::numeric_limits<std::int64_t>::max(), last = std::numeric_limits<std::int64_t>::min();
    for (const double e : events)
        if (std::fabs(foldedOffset(e, centre, period)) < period / 4) {
            first = std::min(first, cycleOf(e, centre, period));
            last = std::max(last, cycleOf(e, centre, period));
        }
    PhaseWindow window;
    for (int pass = 0; pass < 3; ++pass) {
        window = phaseWindow(tx, t0, centre, period, first, last, o);
        if (!window.found)
            break;
        std::int64_t inFirst = std::numeric_limits<std::int64_t>::max();
        std::int64_t inLast = std::numeric_limits<std::int64_t>::min();
        // Downstream, a cycle whose window still saw most of its sends arrive was not
        // cut by the outage: holes of the queue's overflow in slow start, placed between
        // arrivals at the busy pace, may fall at the window's phase by chance.
        std::map<std::int64_t, std::pair<std::uint32_t, std::uint32_t>> cycleSends; // (lost, sent)
        if (o.placedLosses)
            for (const TransmissionTime& x : tx)
                if (window.holds(x.timeS - t0, centre, period, o.binS / 2)) {
                    auto& [lostThere, sentThere] = cycleSends[cycleOf(x.timeS - t0, centre, period)];
                    lostThere += x.lost ? 1 : 0;
                    ++sentThere;
                }
        const auto cutByOutage = [&](std::int64_t k) {
            if (!o.placedLosses)
                return true;
            const auto [lostThere, sentThere] = cycleSends[k];
            return static_cast<double>(lostThere) >= o.minWindowLossShare * static_cast<double>(sentThere);
        };
        for (const double e : events)
            if (window.holds(e, centre, period, o.binS / 2) && cutByOutage(cycleOf(e, centre, period))) {
                inFirst = std::min(inFirst, cycleOf(e, centre, period));
                inLast = std::max(inLast, cycleOf(e, centre, period));
            }
        if (inFirst > inLast) {
            window.found = false;
            break;
        }
        if (inFirst == first && inLast == last)
            break;
        first = inFirst;
        last = inLast;
    }
    if (!window.found) {
        fit.reason = "the concentrated phase has more sends delivered than lost: not an outage";
        return fit;
    }
    fit.windowLossShare = window.lossShare;
    fit.dwellS = window.lengthS;
    const double windowOffset = window.offsetS;
    const double margin = o.binS / 2;
    fit.windowStartS = t0 + centre + windowOffset + static_cast<double>(first) * period;
    fit.firstCycle = 0;
    fit.lastCycle = static_cast<std::size_t>(last - first);
    for (const double e : events)
        fit.explainedEvents += fit.covers(e + t0, margin) ? 1 : 0;
    for (const double l : lost)
        fit.explainedLost += fit.covers(l + t0, margin) ? 1 : 0;
    if (fit.windowLossShare < o.minWindowLossShare) {
        fit.reason = "most sends at the concentrated phase were delivered: a rhythm of the losses, not an outage";
        return fit;
    }
    if (fit.explainedEvents < o.minExplainedEvents ||
        static_cast<double>(fit.explainedEvents) < o.minExplainedShare * static_cast<double>(fit.events)) {
        fit.reason = "the windows hold too few of the loss bursts";
        return fit;
    }
    fit.found = true;
    return fit;
}

} // namespace windscope::analysis::replay
