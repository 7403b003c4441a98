// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Throughput (data put on the wire, retransmissions included) and goodput (advance of
// the receiver's cumulative ACK) per time bin, re-binned for what is in view
// (analysis/series/view_bins.h) with the bin width in the legend.

#include "plot_panel.h"

namespace windscope::gui {

class RatePlot : public PlotPanel
{
    Q_OBJECT
public:
    explicit RatePlot(TimeAxis* axis, QWidget* parent = nullptr);
    void setSeries(const analysis::ConnectionSeries& series) override;
    double binSeconds() const { return m_binSeconds; }

protected:
    void viewChanged(double lower, double upper, int columns) override;
    void seriesCleared() override { m_source = nullptr; }

private:
    LodGraph *m_throughput, *m_goodput;
    // The plot stack's series, alive until the next setSeries or clearSeries.
    const analysis::ConnectionSeries* m_source = nullptr;
    double m_binSeconds = 0;
};

} // namespace windscope::gui
