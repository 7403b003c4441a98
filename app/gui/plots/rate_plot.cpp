// SPDX-License-Identifier: GPL-3.0-or-later
#include "rate_plot.h"

#include "analysis/series/view_bins.h"

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
    m_source = &s;
    m_binSeconds = 0;
    setEventBands(s.lane.events, false);
    refreshLevelOfDetail();
    replot(rpQueuedReplot);
}

void RatePlot::viewChanged(double lower, double upper, int columns)
{
    if (!m_source)
        return;
    const double bin = analysis::viewBinSeconds(lower, upper, columns);
    // One bin beyond each edge, so the step line reaches both edges of the plot.
    const analysis::RateSeries rate = analysis::binRates(*m_source, lower - bin, upper + bin, bin);
    setXyData(*m_throughput, rate.throughput);
    setXyData(*m_goodput, rate.goodput);
    if (bin != m_binSeconds)
        m_throughput->graph->setName(
            QStringLiteral("throughput (%1 bins)").arg(QString::fromStdString(analysis::binWidthText(bin))));
    m_binSeconds = bin;
}

} // namespace windscope::gui
