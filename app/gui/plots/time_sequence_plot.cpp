// SPDX-License-Identifier: GPL-3.0-or-later
#include "time_sequence_plot.h"

namespace windscope::gui {

TimeSequencePlot::TimeSequencePlot(TimeAxis* axis, QWidget* parent)
    : PlotPanel(axis, QStringLiteral("Time-sequence"), parent)
{
    using Mode = LodSeries::Mode;
    m_rwnd = &addSeries(QStringLiteral("rwnd edge"), Mode::Line, 2);
    m_ack = &addSeries(QStringLiteral("ACK"), Mode::Line, 1);
    m_sack = &addSeries(QStringLiteral("SACK"), Mode::Bars, 4);
    m_segments = &addSeries(QStringLiteral("data"), Mode::Bars, 0);
    m_retx = &addSeries(QStringLiteral("retransmission"), Mode::Points, 3);
    m_rto = &addSeries(QStringLiteral("RTO retransmission"), Mode::Points, 3);
    m_probes = &addSeries(QStringLiteral("zero-window probe"), Mode::Points, 5);
    m_zeroWindows = &addSeries(QStringLiteral("zero window"), Mode::Points, 6);
    // Marks are never thinned: every one of them stays on screen at any zoom.
    struct Mark
    {
        LodGraph* g;
        QCPScatterStyle::ScatterShape shape;
        double size;
    };
    for (const Mark& m : {Mark{m_retx, QCPScatterStyle::ssCircle, 7}, Mark{m_rto, QCPScatterStyle::ssTriangle, 9},
                          Mark{m_probes, QCPScatterStyle::ssDiamond, 8},
                          Mark{m_zeroWindows, QCPScatterStyle::ssSquare, 7}}) {
        m.g->series.setKeepAll(true);
        m.g->shape = m.shape;
        m.g->shapeSize = m.size;
        applyGraphStyle(*m.g);
    }
    for (LodGraph* g : {m_segments, m_ack, m_rwnd, m_sack, m_retx, m_rto, m_probes, m_zeroWindows})
        g->unit = QStringLiteral("B");
    m_ack->graph->setLineStyle(QCPGraph::lsStepLeft);
    m_rwnd->graph->setLineStyle(QCPGraph::lsStepLeft);
    m_rwnd->autoscale = false;
    setValueScale(yAxis, 1e3, QStringLiteral("relative sequence (kB)"));
    applySequenceStyle();
}

void TimeSequencePlot::setSeries(const analysis::ConnectionSeries& s)
{
    const analysis::TimeSequenceSeries& ts = s.timeSequence;
    m_segmentsCopy = ts.segments;
    setRangeData(*m_segments, ts.segments);
    setXyData(*m_ack, ts.ack);
    setXyData(*m_rwnd, ts.rwnd);
    setRangeData(*m_sack, ts.sackBlocks);
    setRangeData(*m_retx, ts.retransmissions);
    setRangeData(*m_rto, ts.rtoRetransmissions);
    setRangeData(*m_probes, ts.zeroWindowProbes);
    setXyData(*m_zeroWindows, ts.zeroWindows);
    setEventBands(s.lane.events, false);
    setEmptyMessage(ts.segments.size() ? QString() : tr("no data segments in this connection"));
    applySequenceStyle();
}

void TimeSequencePlot::setSequenceStyle(Style style)
{
    m_style = style;
    applySequenceStyle();
}

void TimeSequencePlot::applySequenceStyle()
{
    const bool tcptrace = m_style == Style::Tcptrace;
    // Stevens: a dot per segment at its first byte; tcptrace: the byte range as a bar.
    m_segments->mode = tcptrace ? LodSeries::Mode::Bars : LodSeries::Mode::Points;
    m_segments->shape = tcptrace ? QCPScatterStyle::ssNone : QCPScatterStyle::ssDisc;
    m_segments->shapeSize = 3;
    applyGraphStyle(*m_segments);
    if (m_segmentsCopy.size()) {
        if (tcptrace)
            m_segments->series.setData(m_segmentsCopy.t, m_segmentsCopy.lo, m_segmentsCopy.hi);
        else
            m_segments->series.setData(m_segmentsCopy.t, m_segmentsCopy.lo);
    }
    for (LodGraph* g : {m_ack, m_rwnd, m_sack}) {
        g->graph->setVisible(tcptrace);
        if (auto* item = legend->itemWithPlottable(g->graph))
            item->setVisible(tcptrace);
    }
    m_ack->graph->setLineStyle(QCPGraph::lsStepLeft);
    m_rwnd->graph->setLineStyle(QCPGraph::lsStepLeft);
    // Only series present in the connection get a legend entry.
    for (const auto& g : lodGraphs()) {
        const bool shown = g->graph->visible() && g->series.size() > 0;
        if (shown)
            g->graph->addToLegend();
        else
            g->graph->removeFromLegend();
    }
    refreshLevelOfDetail();
    replot(rpQueuedReplot);
}

} // namespace windscope::gui
