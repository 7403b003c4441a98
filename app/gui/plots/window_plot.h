// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Congestion window (inferred, with ssthresh), bytes in flight and the receiver's
// advertised window of one connection's data direction.

#include "plot_panel.h"

namespace windscope::gui {

class WindowPlot : public PlotPanel
{
    Q_OBJECT
public:
    explicit WindowPlot(TimeAxis* axis, QWidget* parent = nullptr);
    void setSeries(const analysis::ConnectionSeries& series) override;

private:
    LodGraph *m_cwnd, *m_ssthresh, *m_inFlight, *m_rwnd;
};

} // namespace windscope::gui
