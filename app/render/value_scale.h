// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Axis scales for figures: tick steps of 1, 2 or 5 x 10^n, and units that follow the
// magnitude (B/kB/MB/GB, b/s..Gb/s, ms/s) so a label never reads "2,500,000 kB". The data
// stay in their base unit (bytes, bit/s, ms, s); only the labels are divided.

#include <QString>

#include <vector>

namespace windscope::render {

enum class Quantity {
    Bytes,        // decimal prefixes, as the tables' kB (1 kB = 1000 B)
    BitRate,      // bit/s
    Milliseconds, // shown in s from 2 s up
    Seconds,
    Count,        // frames, no unit
};

struct AxisScale
{
    double lower = 0, upper = 1;   // axis range in the base unit
    double step = 1;               // tick step in the base unit
    double divisor = 1;            // base unit per shown unit
    QString unit;                  // "kB", "Mb/s", "ms"; empty for counts
    int decimals = 0;              // of the tick labels, from the step
    std::vector<double> ticks;     // in the base unit, inside [lower, upper]
};

// The 1/2/5 x 10^n step closest to span / targetTicks (at least that large).
double niceStep(double span, int targetTicks);

// A value axis for data in [dataLow, dataHigh]: the unit for its magnitude, a nice step,
// and a range widened to whole steps. fromZero starts non-negative data at zero (rates,
// windows, counts read against zero).
AxisScale valueScale(double dataLow, double dataHigh, Quantity quantity, bool fromZero, int targetTicks);

// The shared time axis: exactly [lower, upper] seconds (every panel shows the same range),
// ticks at whole steps inside it.
AxisScale timeScale(double lower, double upper, int targetTicks);

// A tick value in the scale's unit with its decimals ("2.5", "120").
QString tickLabel(double value, const AxisScale& scale);
// "title (unit)", or the title alone for unitless scales.
QString axisTitle(const QString& title, const AxisScale& scale);

} // namespace windscope::render
