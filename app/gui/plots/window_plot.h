// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What limited one connection's sender: the effective window (the smaller of the inferred
// congestion window and the receive window), bytes in flight and the receiver's
// advertised window set the scale; the inferred cwnd and ssthresh are drawn on it and
// marked where they run above it, and a strip along the bottom says per interval what
// held the sender back (cwnd, receive window, application).

#include "plot_panel.h"

#include <array>

namespace windscope::gui {

class WindowPlot : public PlotPanel
{
    Q_OBJECT
public:
    explicit WindowPlot(TimeAxis* axis, QWidget* parent = nullptr);
    void setSeries(const analysis::ConnectionSeries& series) override;
    // The note shown when the cwnd runs above the axis in view ("" when it does not).
    QString cwndAboveNote() const;

protected:
    void refreshed() override;

private:
    LodGraph *m_cwnd, *m_ssthresh, *m_inFlight, *m_rwnd, *m_effective;
    std::array<LodGraph*, 3> m_limits{}; // by analysis::WindowLimit
    QCPItemText* m_cwndAbove = nullptr;
};

} // namespace windscope::gui
