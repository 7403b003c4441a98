// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The one time range every plot of a stack shows: zooming or panning any plot moves
// this object, and every plot follows it. The crosshair position is shared the same way.

#include <QObject>

namespace windscope::gui {

class TimeAxis : public QObject
{
    Q_OBJECT
public:
    explicit TimeAxis(QObject* parent = nullptr);

    double lower() const { return m_lower; }
    double upper() const { return m_upper; }
    double fullLower() const { return m_fullLower; }
    double fullUpper() const { return m_fullUpper; }

    // The extent "reset view" returns to; also sets the range.
    void setFullRange(double lower, double upper);
    void setRange(double lower, double upper);
    void reset();
    // factor < 1 zooms in around center.
    void zoom(double factor, double center);
    void zoomAroundMiddle(double factor);
    // Moves the range by a fraction of its width (positive: later).
    void pan(double fraction);
    // Shows [lower, upper] with a margin on both sides (a fraction of the span, at least
    // minMargin seconds) so what happened just before and after stays in view.
    void showInterval(double lower, double upper, double marginFraction = 0.5, double minMargin = 0.05);

    void setCursor(double time, bool visible);
    double cursor() const { return m_cursor; }
    bool cursorVisible() const { return m_cursorVisible; }

signals:
    void rangeChanged(double lower, double upper);
    void cursorMoved(double time, bool visible);

private:
    double m_lower = 0, m_upper = 1, m_fullLower = 0, m_fullUpper = 1;
    double m_cursor = 0;
    bool m_cursorVisible = false;
};

} // namespace windscope::gui
