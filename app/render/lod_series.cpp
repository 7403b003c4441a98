// SPDX-License-Identifier: GPL-3.0-or-later
#include "lod_series.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace windscope::render {

void LodSeries::setData(std::vector<double> times, std::vector<double> lo, std::vector<double> hi)
{
    m_t = std::move(times);
    m_lo = std::move(lo);
    m_hi = std::move(hi);
    m_min.clear();
    m_max.clear();
    const std::vector<double>* mins = &m_lo;
    const std::vector<double>* maxs = m_hi.empty() ? &m_lo : &m_hi;
    while (mins->size() > kFanout) {
        const std::size_t blocks = (mins->size() + kFanout - 1) / kFanout;
        std::vector<double> nextMin(blocks), nextMax(blocks);
        for (std::size_t b = 0; b < blocks; ++b) {
            const std::size_t end = std::min(mins->size(), (b + 1) * kFanout);
            double mn = std::numeric_limits<double>::infinity(), mx = -mn;
            for (std::size_t i = b * kFanout; i < end; ++i) {
                mn = std::min(mn, (*mins)[i]);
                mx = std::max(mx, (*maxs)[i]);
            }
            nextMin[b] = mn;
            nextMax[b] = mx;
        }
        m_min.push_back(std::move(nextMin));
        m_max.push_back(std::move(nextMax));
        mins = &m_min.back();
        maxs = &m_max.back();
    }
}

void LodSeries::rangeMinMax(std::size_t i0, std::size_t i1, double& lowest, double& highest) const
{
    lowest = std::numeric_limits<double>::infinity();
    highest = -lowest;
    const std::vector<double>& hiRaw = m_hi.empty() ? m_lo : m_hi;
    // Climb while the position is aligned to the next block size and that block fits,
    // step down when the current block would overrun the end.
    std::size_t i = i0, level = 0, size = 1;
    while (i < i1) {
        const std::size_t next = size * kFanout;
        if (level < m_min.size() && i % next == 0 && i + next <= i1) {
            ++level;
            size = next;
            continue;
        }
        if (i + size > i1) {
            --level;
            size /= kFanout;
            continue;
        }
        if (level == 0) {
            lowest = std::min(lowest, m_lo[i]);
            highest = std::max(highest, hiRaw[i]);
        } else {
            lowest = std::min(lowest, m_min[level - 1][i / size]);
            highest = std::max(highest, m_max[level - 1][i / size]);
        }
        i += size;
    }
}

namespace {

void extend(LodSeries::Output& out, double v)
{
    if (!std::isfinite(v))
        return;
    if (!out.hasY) {
        out.yMin = out.yMax = v;
        out.hasY = true;
    } else {
        out.yMin = std::min(out.yMin, v);
        out.yMax = std::max(out.yMax, v);
    }
}

} // namespace

void LodSeries::sample(double xLo, double xHi, int columns, Mode mode, Output& out) const
{
    out = Output{};
    if (m_t.empty() || !(xHi > xLo))
        return;
    const std::vector<double>& hiRaw = m_hi.empty() ? m_lo : m_hi;
    auto first = static_cast<std::size_t>(std::lower_bound(m_t.begin(), m_t.end(), xLo) - m_t.begin());
    auto last = static_cast<std::size_t>(std::upper_bound(m_t.begin(), m_t.end(), xHi) - m_t.begin());
    // Neighbours outside the range: lines run to the edge; they do not widen the y range.
    const bool before = first > 0 && mode == Mode::Line;
    const bool after = last < m_t.size() && mode == Mode::Line;
    const double nan = std::numeric_limits<double>::quiet_NaN();
    auto emitRaw = [&](std::size_t i, bool inRange) {
        if (mode == Mode::Bars) {
            out.x.insert(out.x.end(), {m_t[i], m_t[i], m_t[i]});
            out.y.insert(out.y.end(), {m_lo[i], hiRaw[i], nan});
        } else {
            out.x.push_back(m_t[i]);
            out.y.push_back(m_lo[i]);
        }
        if (inRange) {
            extend(out, m_lo[i]);
            extend(out, hiRaw[i]);
        }
    };
    if (before)
        emitRaw(first - 1, false);
    const std::size_t count = last - first;
    const auto budget = static_cast<std::size_t>(std::max(columns, 1)) * 2;
    if (m_keepAll || count <= budget) {
        for (std::size_t i = first; i < last; ++i)
            emitRaw(i, true);
    } else {
        out.reduced = true;
        const double width = (xHi - xLo) / columns;
        std::size_t i = first;
        for (int c = 0; c < columns && i < last; ++c) {
            const double columnEnd = xLo + (c + 1) * width;
            const auto end = c + 1 == columns
                                 ? last
                                 : static_cast<std::size_t>(
                                       std::lower_bound(m_t.begin() + static_cast<std::ptrdiff_t>(i),
                                                        m_t.begin() + static_cast<std::ptrdiff_t>(last),
                                                        columnEnd) -
                                       m_t.begin());
            if (end == i)
                continue;
            if (end - i <= 2) {
                for (std::size_t k = i; k < end; ++k)
                    emitRaw(k, true);
                i = end;
                continue;
            }
            double mn = 0, mx = 0;
            rangeMinMax(i, end, mn, mx);
            const double xc = xLo + (c + 0.5) * width;
            switch (mode) {
            case Mode::Bars:
                out.x.insert(out.x.end(), {xc, xc, xc});
                out.y.insert(out.y.end(), {mn, mx, nan});
                break;
            case Mode::Points:
                out.x.insert(out.x.end(), {xc, xc});
                out.y.insert(out.y.end(), {mn, mx});
                break;
            case Mode::Line:
                // First and last keep the line's entry and exit; min and max its extent.
                // Keys stay sorted: entry at or before the centre, exit at or after it.
                out.x.insert(out.x.end(), {std::min(m_t[i], xc), xc, xc, std::max(m_t[end - 1], xc)});
                out.y.insert(out.y.end(), {m_lo[i], mn, mx, m_lo[end - 1]});
                break;
            }
            extend(out, mn);
            extend(out, mx);
            i = end;
        }
    }
    if (after)
        emitRaw(last, false);
}

} // namespace windscope::render
