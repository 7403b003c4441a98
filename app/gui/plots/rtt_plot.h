// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// RTT samples of the data direction: seq/ack matches (Karn's rule) and TSval/TSecr echoes.

#include "plot_panel.h"

namespace windscope::gui {

class RttPlot : public PlotPanel
{
    Q_OBJECT
public:
    explicit RttPlot(TimeAxis* axis, QWidget* parent = nullptr);
    void setSeries(const analysis::ConnectionSeries& series) override;

private:
    LodGraph *m_seqAck, *m_timestamps;
};

} // namespace windscope::gui
