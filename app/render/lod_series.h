// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Level of detail for time-ordered series with millions of points. A min/max pyramid
// (blocks of 16, 256, 4096... points) answers "lowest and highest value between two
// indices" in a few dozen steps, so reducing any visible range to a few points per
// pixel column costs O(columns * log n) however many points the range holds. Extremes
// survive the reduction (a retransmission below the sequence line or an RTT spike
// stays visible); series marked keepAll (retransmissions, probes) are never reduced.
// Free of Qt so the replot benchmark and tests can drive it directly.

#include <cstddef>
#include <vector>

namespace windscope::render {

class LodSeries
{
public:
    // Line: a polyline through the values; Points: scattered values; Bars: a vertical
    // extent [lo, hi] per point, separated by NaN so the line breaks between them.
    enum class Mode { Line, Points, Bars };

    // times must be non-decreasing; hi may be empty (then hi == lo).
    void setData(std::vector<double> times, std::vector<double> lo, std::vector<double> hi = {});
    void setKeepAll(bool keepAll) { m_keepAll = keepAll; }
    bool keepAll() const { return m_keepAll; }
    std::size_t size() const { return m_t.size(); }
    const std::vector<double>& times() const { return m_t; }
    const std::vector<double>& lo() const { return m_lo; }
    const std::vector<double>& hi() const { return m_hi.empty() ? m_lo : m_hi; }

    struct Output
    {
        std::vector<double> x, y;
        double yMin = 0, yMax = 0;
        bool hasY = false;                 // at least one finite value in range
        bool reduced = false;              // min/max per column was used
    };
    // The points to draw for the time range [xLo, xHi] on `columns` pixel columns. One
    // point on either side of the range is included so lines reach the plot edges.
    void sample(double xLo, double xHi, int columns, Mode mode, Output& out) const;

    // Lowest and highest value over indices [i0, i1).
    void rangeMinMax(std::size_t i0, std::size_t i1, double& lowest, double& highest) const;

private:
    static constexpr std::size_t kFanout = 16;
    std::vector<double> m_t, m_lo, m_hi;
    std::vector<std::vector<double>> m_min, m_max; // level k covers blocks of 16^(k+1)
    bool m_keepAll = false;
};

} // namespace windscope::render
