// SPDX-License-Identifier: GPL-3.0-or-later
#include "time_axis.h"

#include "render/connection_figure.h"

#include <algorithm>
#include <cmath>

namespace windscope::gui {

TimeAxis::TimeAxis(QObject* parent) : QObject(parent) {}

void TimeAxis::setFullRange(double lower, double upper)
{
    if (!(upper > lower))
        upper = lower + 1e-3;
    m_fullLower = lower;
    m_fullUpper = upper;
    setRange(lower, upper);
}

void TimeAxis::setRange(double lower, double upper)
{
    if (!std::isfinite(lower) || !std::isfinite(upper))
        return;
    // Below a microsecond the axis labels cannot tell points apart any more.
    if (upper - lower < 1e-6) {
        const double mid = (lower + upper) / 2;
        lower = mid - 5e-7;
        upper = mid + 5e-7;
    }
    if (lower == m_lower && upper == m_upper)
        return;
    m_lower = lower;
    m_upper = upper;
    emit rangeChanged(m_lower, m_upper);
}

void TimeAxis::reset() { setRange(m_fullLower, m_fullUpper); }

void TimeAxis::zoom(double factor, double center)
{
    setRange(center + (m_lower - center) * factor, center + (m_upper - center) * factor);
}

void TimeAxis::zoomAroundMiddle(double factor) { zoom(factor, (m_lower + m_upper) / 2); }

void TimeAxis::pan(double fraction)
{
    const double shift = (m_upper - m_lower) * fraction;
    setRange(m_lower + shift, m_upper + shift);
}

void TimeAxis::showInterval(double lower, double upper, double marginFraction, double minMargin)
{
    const auto [from, to] = render::intervalWithMargin(lower, upper, marginFraction, minMargin);
    setRange(from, to);
}

void TimeAxis::setCursor(double time, bool visible)
{
    m_cursor = time;
    m_cursorVisible = visible;
    emit cursorMoved(time, visible);
}

} // namespace windscope::gui
