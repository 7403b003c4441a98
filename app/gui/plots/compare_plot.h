// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Two connections overlaid on one time axis, each shifted by its own offset (its start,
// or a chosen event): their cumulative ACK (data delivered), goodput or inferred
// congestion window.

#include "plot_panel.h"

namespace windscope::gui {

class ComparePlot : public PlotPanel
{
    Q_OBJECT
public:
    enum class Quantity { Delivered, Goodput, Cwnd };
    ComparePlot(TimeAxis* axis, Quantity quantity, QWidget* parent = nullptr);

    void setSeries(const analysis::ConnectionSeries&) override {}
    // Times of a are drawn at t - offsetA, of b at t - offsetB; a reference (a replay's
    // baseline), when given, at t - offsetRef as a third line.
    void setPair(const analysis::ConnectionSeries& a, const QString& nameA, double offsetA,
                 const analysis::ConnectionSeries& b, const QString& nameB, double offsetB,
                 const analysis::ConnectionSeries* reference = nullptr, const QString& nameRef = {},
                 double offsetRef = 0);
    // Aligned at each connection's start.
    void setPair(const analysis::ConnectionSeries& a, const QString& nameA, const analysis::ConnectionSeries& b,
                 const QString& nameB)
    {
        setPair(a, nameA, a.startSeconds, b, nameB, b.startSeconds);
    }

private:
    Quantity m_quantity;
    LodGraph *m_a, *m_b, *m_ref;
};

} // namespace windscope::gui
