// SPDX-License-Identifier: GPL-3.0-or-later
#include "value_scale.h"

#include <algorithm>
#include <cmath>

namespace windscope::render {

namespace {

struct Unit
{
    double divisor;
    const char* name;
};

Unit unitFor(Quantity quantity, double magnitude)
{
    switch (quantity) {
    case Quantity::Bytes:
        if (magnitude >= 1e9)
            return {1e9, "GB"};
        if (magnitude >= 1e6)
            return {1e6, "MB"};
        if (magnitude >= 1e3)
            return {1e3, "kB"};
        return {1, "B"};
    case Quantity::BitRate:
        if (magnitude >= 1e9)
            return {1e9, "Gb/s"};
        if (magnitude >= 1e6)
            return {1e6, "Mb/s"};
        if (magnitude >= 1e3)
            return {1e3, "kb/s"};
        return {1, "b/s"};
    case Quantity::Milliseconds: return magnitude >= 2000 ? Unit{1e3, "s"} : Unit{1, "ms"};
    case Quantity::Seconds: return {1, "s"};
    case Quantity::Count: return {1, ""};
    }
    return {1, ""};
}

int decimalsFor(double step)
{
    // Enough decimals to tell neighbouring ticks apart, none for whole steps.
    return std::max(0, static_cast<int>(std::ceil(-std::log10(step) - 1e-9)));
}

void fillTicks(AxisScale& s)
{
    s.ticks.clear();
    const double first = std::ceil(s.lower / s.step - 1e-9) * s.step;
    for (double v = first; v <= s.upper + s.step * 1e-9 && s.ticks.size() < 100; v += s.step)
        s.ticks.push_back(std::fabs(v) < s.step * 1e-9 ? 0.0 : v);
}

} // namespace

double niceStep(double span, int targetTicks)
{
    if (!(span > 0) || !std::isfinite(span))
        return 1;
    const double raw = span / std::max(1, targetTicks);
    const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
    for (double m : {1.0, 2.0, 5.0, 10.0})
        if (m * magnitude >= raw * (1 - 1e-9))
            return m * magnitude;
    return 10 * magnitude;
}

AxisScale valueScale(double dataLow, double dataHigh, Quantity quantity, bool fromZero, int targetTicks)
{
    if (!std::isfinite(dataLow) || !std::isfinite(dataHigh)) {
        dataLow = 0;
        dataHigh = 1;
    }
    if (fromZero && dataLow >= 0)
        dataLow = 0;
    if (!(dataHigh > dataLow)) {
        // One value: a range around it (from zero for non-negative quantities).
        const double pad = std::max(std::fabs(dataHigh) * 0.5, quantity == Quantity::Count ? 1.0 : 1e-9);
        dataLow = fromZero && dataLow >= 0 ? 0 : dataLow - pad;
        dataHigh = dataHigh + pad;
    }
    AxisScale s;
    const Unit unit = unitFor(quantity, std::max(std::fabs(dataLow), std::fabs(dataHigh)));
    s.divisor = unit.divisor;
    s.unit = QString::fromLatin1(unit.name);
    double step = niceStep((dataHigh - dataLow) / s.divisor, targetTicks);
    // Counts are whole: no tick at 0.5 frames.
    if (quantity == Quantity::Count)
        step = std::max(step, 1.0);
    s.step = step * s.divisor;
    s.lower = std::floor(dataLow / s.step + 1e-9) * s.step;
    s.upper = std::ceil(dataHigh / s.step - 1e-9) * s.step;
    if (!(s.upper > s.lower))
        s.upper = s.lower + s.step;
    s.decimals = decimalsFor(step);
    fillTicks(s);
    return s;
}

AxisScale timeScale(double lower, double upper, int targetTicks)
{
    AxisScale s;
    s.lower = lower;
    s.upper = upper > lower ? upper : lower + 1e-3;
    s.unit = QStringLiteral("s");
    s.step = niceStep(s.upper - s.lower, targetTicks);
    s.decimals = decimalsFor(s.step);
    fillTicks(s);
    return s;
}

QString tickLabel(double value, const AxisScale& scale)
{
    const double v = value / scale.divisor;
    return QString::number(std::fabs(v) < 1e-12 ? 0.0 : v, 'f', scale.decimals);
}

QString axisTitle(const QString& title, const AxisScale& scale)
{
    return scale.unit.isEmpty() ? title : QStringLiteral("%1 (%2)").arg(title, scale.unit);
}

} // namespace windscope::render
