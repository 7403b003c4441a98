// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The 802.11 lane of the connection's station: its events as labelled bands (scan,
// power save, handoff, TCP-only outage), frames to the station and MAC retries per
// statistics bin, and the mean
// data rate (right axis) and signal per bin.

#include "plot_panel.h"

namespace windscope::gui {

class WlanLanePlot : public PlotPanel
{
    Q_OBJECT
public:
    explicit WlanLanePlot(TimeAxis* axis, QWidget* parent = nullptr);
    void setSeries(const analysis::ConnectionSeries& series) override;
    int stretch() const override { return 3; }

private:
    LodGraph *m_received, *m_retries, *m_failed, *m_rate, *m_signal;
};

} // namespace windscope::gui
