// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Time-sequence graph of the data sender. Stevens style: one dot per data segment at
// its starting sequence number. tcptrace style: each segment as a vertical bar over
// the bytes it carried, with the receiver's ACK line, the receive-window edge
// (ACK + window) and its SACK blocks. Retransmissions, RTO retransmissions, zero-window
// probes and zero windows are marked in both.

#include "plot_panel.h"

namespace windscope::gui {

class TimeSequencePlot : public PlotPanel
{
    Q_OBJECT
public:
    enum class Style { Stevens, Tcptrace };
    explicit TimeSequencePlot(TimeAxis* axis, QWidget* parent = nullptr);

    void setSeries(const analysis::ConnectionSeries& series) override;
    int stretch() const override { return 5; }
    void setSequenceStyle(Style style);
    Style sequenceStyle() const { return m_style; }

private:
    void applySequenceStyle();

    Style m_style = Style::Tcptrace;
    LodGraph *m_segments, *m_ack, *m_rwnd, *m_sack, *m_retx, *m_rto, *m_probes, *m_zeroWindows;
    analysis::RangeSeries m_segmentsCopy;
};

} // namespace windscope::gui
