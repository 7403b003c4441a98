// SPDX-License-Identifier: GPL-3.0-or-later
#include "rate_plot.h"

namespace windscope::gui {

RatePlot::RatePlot(TimeAxis* axis, QWidget* parent) : PlotPanel(axis, QStringLiteral("Throughput"), parent)
{
    m_throughput = &addSeries(QStringLiteral("throughput"), LodSeries::Mode::Line, 0);
    m_goodput = &addSeries(QStringLiteral("goodput"), LodSeries::Mode::Line, 1);
    for (LodGraph* g : {m_throughput, m_goodput}) {
        g->unit = QStringLiteral("b/s");
        g->graph->setLineStyle(QCPGraph::lsStepLeft);
    }
    setValueScale(yAxis, 1e6, QStringLiteral("rate (Mb/s)"));
}

void RatePlot::setSeries(const analysis::ConnectionSeries& s)
{
    setXyData(*m_throughput, s.rate.throughput);
    setXyData(*m_goodput, s.rate.goodput);
    m_throughput->graph->setName(QStringLiteral("throughput (%1 ms bins)").arg(s.rate.binSeconds * 1e3, 0, 'g', 3));
    setEventBands(s.lane.events, false);
    refreshLevelOfDetail();
    replot(rpQueuedReplot);
}

} // namespace windscope::gui
