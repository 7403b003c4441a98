// SPDX-License-Identifier: GPL-3.0-or-later
#include "rtt_plot.h"

namespace windscope::gui {

RttPlot::RttPlot(TimeAxis* axis, QWidget* parent) : PlotPanel(axis, QStringLiteral("RTT"), parent)
{
    m_timestamps = &addSeries(QStringLiteral("RTT (timestamps)"), LodSeries::Mode::Points, 7);
    m_seqAck = &addSeries(QStringLiteral("RTT (seq/ack)"), LodSeries::Mode::Points, 0);
    m_seqAck->shapeSize = 4;
    for (LodGraph* g : {m_seqAck, m_timestamps}) {
        g->unit = QStringLiteral("ms");
        applyGraphStyle(*g);
    }
    m_timestamps->shape = QCPScatterStyle::ssPlus;
    applyGraphStyle(*m_timestamps);
    yAxis->setLabel(QStringLiteral("RTT (ms)"));
}

void RttPlot::setSeries(const analysis::ConnectionSeries& s)
{
    setXyData(*m_seqAck, s.rtt.seqAck);
    setXyData(*m_timestamps, s.rtt.timestamps);
    for (const auto& g : lodGraphs()) {
        if (g->series.size())
            g->graph->addToLegend();
        else
            g->graph->removeFromLegend();
    }
    setEventBands(s.lane.events, false);
    setEmptyMessage(s.rtt.seqAck.size() + s.rtt.timestamps.size() ? QString() : tr("no RTT samples"));
    refreshLevelOfDetail();
    replot(rpQueuedReplot);
}

} // namespace windscope::gui
