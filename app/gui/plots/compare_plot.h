// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Two connections overlaid on one time axis, each shifted so that it starts at 0:
// their cumulative ACK (data delivered) or their goodput.

#include "plot_panel.h"

namespace windscope::gui {

class ComparePlot : public PlotPanel
{
    Q_OBJECT
public:
    enum class Quantity { Delivered, Goodput };
    ComparePlot(TimeAxis* axis, Quantity quantity, QWidget* parent = nullptr);

    void setSeries(const analysis::ConnectionSeries&) override {}
    void setPair(const analysis::ConnectionSeries& a, const QString& nameA, const analysis::ConnectionSeries& b,
                 const QString& nameB);

private:
    Quantity m_quantity;
    LodGraph *m_a, *m_b;
};

} // namespace windscope::gui
