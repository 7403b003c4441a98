// SPDX-License-Identifier: GPL-3.0-or-later
#include "window_plot.h"

namespace windscope::gui {

WindowPlot::WindowPlot(TimeAxis* axis, QWidget* parent)
    : PlotPanel(axis, QStringLiteral("Windows"), parent)
{
    using Mode = LodSeries::Mode;
    m_rwnd = &addSeries(QStringLiteral("rwnd"), Mode::Line, 2);
    m_inFlight = &addSeries(QStringLiteral("bytes in flight"), Mode::Points, 0);
    m_cwnd = &addSeries(QStringLiteral("cwnd"), Mode::Line, 3);
    m_ssthresh = &addSeries(QStringLiteral("ssthresh"), Mode::Line, 4);
    for (LodGraph* g : {m_rwnd, m_inFlight, m_cwnd, m_ssthresh}) {
        g->unit = QStringLiteral("B");
        if (g->mode == Mode::Line)
            g->graph->setLineStyle(QCPGraph::lsStepLeft);
    }
    m_rwnd->autoscale = false;
    m_inFlight->shapeSize = 2.5;
    applyGraphStyle(*m_inFlight);
    setValueScale(yAxis, 1e3, QStringLiteral("window (kB)"));
}

void WindowPlot::setSeries(const analysis::ConnectionSeries& s)
{
    setXyData(*m_rwnd, s.window.rwnd);
    setXyData(*m_inFlight, s.window.bytesInFlight);
    setXyData(*m_cwnd, s.window.cwnd);
    setXyData(*m_ssthresh, s.window.ssthresh);
    m_cwnd->graph->setName(s.window.cwndModel.empty()
                               ? QStringLiteral("cwnd")
                               : QStringLiteral("cwnd (%1)").arg(QString::fromStdString(s.window.cwndModel)));
    for (const auto& g : lodGraphs()) {
        g->graph->setLineStyle(g->mode == LodSeries::Mode::Line ? QCPGraph::lsStepLeft : QCPGraph::lsNone);
        if (g->series.size())
            g->graph->addToLegend();
        else
            g->graph->removeFromLegend();
    }
    setEventBands(s.lane.events, false);
    setEmptyMessage(s.window.cwnd.size() || s.window.cwndNotFollowed.empty()
                        ? QString()
                        : tr("cwnd not inferred: %1").arg(QString::fromStdString(s.window.cwndNotFollowed)));
    refreshLevelOfDetail();
    replot(rpQueuedReplot);
}

} // namespace windscope::gui
