// SPDX-License-Identifier: GPL-3.0-or-later
#include "window_plot.h"

namespace windscope::gui {

namespace {

// The limit strip takes the bottom twentieth of the plot: its graphs step between 0
// and 1 on a hidden axis running to 20.
constexpr double kStripAxisTop = 20;

} // namespace

WindowPlot::WindowPlot(TimeAxis* axis, QWidget* parent)
    : PlotPanel(axis, QStringLiteral("Windows"), parent)
{
    using Mode = LodSeries::Mode;
    m_rwnd = &addSeries(QStringLiteral("rwnd"), Mode::Line, 2);
    m_inFlight = &addSeries(QStringLiteral("bytes in flight"), Mode::Points, 0);
    m_effective = &addSeries(QStringLiteral("effective window"), Mode::Line, 1);
    m_cwnd = &addSeries(QStringLiteral("cwnd"), Mode::Line, 3);
    m_ssthresh = &addSeries(QStringLiteral("ssthresh"), Mode::Line, 4);
    for (LodGraph* g : {m_rwnd, m_inFlight, m_effective, m_cwnd, m_ssthresh}) {
        g->unit = QStringLiteral("B");
        if (g->mode == Mode::Line)
            g->graph->setLineStyle(QCPGraph::lsStepLeft);
    }
    // What the sender could send and did send set the scale; a cwnd far above them
    // (grown while the receive window held the sender, as ns-3 lets it) would flatten
    // the zero-window episodes the plot exists to show.
    m_cwnd->autoscale = false;
    m_ssthresh->autoscale = false;
    m_inFlight->shapeSize = 2.5;
    applyGraphStyle(*m_inFlight);
    setValueScale(yAxis, 1e3, QStringLiteral("window (kB)"));

    yAxis2->setRange(0, kStripAxisTop);
    yAxis2->setVisible(false);
    const struct
    {
        analysis::WindowLimit limit;
        const char* name;
        int role;
    } strip[] = {{analysis::WindowLimit::CongestionWindow, "limited by cwnd", 3},
                 {analysis::WindowLimit::ReceiveWindow, "limited by rwnd", 2},
                 {analysis::WindowLimit::Application, "limited by application", 7}};
    for (const auto& s : strip) {
        LodGraph& g = addSeries(QString::fromLatin1(s.name), Mode::Line, s.role, yAxis2);
        g.autoscale = false;
        g.graph->setLineStyle(QCPGraph::lsStepLeft);
        QColor fill = g.graph->pen().color();
        fill.setAlpha(110);
        g.graph->setBrush(fill);
        m_limits[static_cast<std::size_t>(s.limit)] = &g;
    }

    m_cwndAbove = new QCPItemText(this);
    m_cwndAbove->position->setType(QCPItemPosition::ptAxisRectRatio);
    m_cwndAbove->position->setCoords(0.99, 0.02);
    m_cwndAbove->setPositionAlignment(Qt::AlignRight | Qt::AlignTop);
    m_cwndAbove->setColor(seriesColor(3, false));
    m_cwndAbove->setVisible(false);
}

void WindowPlot::setSeries(const analysis::ConnectionSeries& s)
{
    setXyData(*m_rwnd, s.window.rwnd);
    setXyData(*m_inFlight, s.window.bytesInFlight);
    setXyData(*m_effective, s.window.effective);
    setXyData(*m_cwnd, s.window.cwnd);
    setXyData(*m_ssthresh, s.window.ssthresh);
    std::array<analysis::XySeries, 3> strips;
    for (const analysis::WindowLimitInterval& l : s.window.limits) {
        analysis::XySeries& x = strips[static_cast<std::size_t>(l.limit)];
        x.push(l.start, 1);
        x.push(l.end, 0);
    }
    for (std::size_t k = 0; k < strips.size(); ++k)
        setXyData(*m_limits[k], strips[k]);
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

void WindowPlot::refreshed()
{
    // The cwnd is clipped at the top of the axis; say how far above it runs.
    const LodSeries::Output& cwnd = m_cwnd->last;
    const double top = yAxis->range().upper;
    const bool above = m_cwnd->graph->visible() && cwnd.hasY && cwnd.yMax > top;
    m_cwndAbove->setText(above ? tr("cwnd runs above the axis, up to %1 kB").arg(cwnd.yMax / 1e3, 0, 'f', 0)
                               : QString());
    m_cwndAbove->setVisible(above);
}

QString WindowPlot::cwndAboveNote() const { return m_cwndAbove->visible() ? m_cwndAbove->text() : QString(); }

} // namespace windscope::gui
