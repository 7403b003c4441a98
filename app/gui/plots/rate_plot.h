// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Throughput (data put on the wire, retransmissions included) and goodput (advance of
// the receiver's cumulative ACK) per time bin.

#include "plot_panel.h"

namespace windscope::gui {

class RatePlot : public PlotPanel
{
    Q_OBJECT
public:
    explicit RatePlot(TimeAxis* axis, QWidget* parent = nullptr);
    void setSeries(const analysis::ConnectionSeries& series) override;

private:
    LodGraph *m_throughput, *m_goodput;
};

} // namespace windscope::gui
