// SPDX-License-Identifier: GPL-3.0-or-later
#include "compare_plot.h"

namespace windscope::gui {

namespace {

// Aligned at the connection's start: only the time axis moves, values are untouched.
analysis::XySeries alignedAtStart(const analysis::XySeries& s, double start)
{
    analysis::XySeries out = s;
    for (double& t : out.t)
        t -= start;
    return out;
}

} // namespace

ComparePlot::ComparePlot(TimeAxis* axis, Quantity quantity, QWidget* parent)
    : PlotPanel(axis, quantity == Quantity::Delivered ? QStringLiteral("Delivered") : QStringLiteral("Goodput"),
                parent),
      m_quantity(quantity)
{
    m_a = &addSeries(QStringLiteral("A"), LodSeries::Mode::Line, 0);
    m_b = &addSeries(QStringLiteral("B"), LodSeries::Mode::Line, 3);
    for (LodGraph* g : {m_a, m_b})
        g->graph->setLineStyle(QCPGraph::lsStepLeft);
    if (quantity == Quantity::Delivered) {
        m_a->unit = m_b->unit = QStringLiteral("B");
        setValueScale(yAxis, 1e3, QStringLiteral("acknowledged (kB)"));
    } else {
        m_a->unit = m_b->unit = QStringLiteral("b/s");
        setValueScale(yAxis, 1e6, QStringLiteral("goodput (Mb/s)"));
    }
}

void ComparePlot::setPair(const analysis::ConnectionSeries& a, const QString& nameA,
                          const analysis::ConnectionSeries& b, const QString& nameB)
{
    const bool delivered = m_quantity == Quantity::Delivered;
    setXyData(*m_a, alignedAtStart(delivered ? a.timeSequence.ack : a.rate.goodput, a.startSeconds));
    setXyData(*m_b, alignedAtStart(delivered ? b.timeSequence.ack : b.rate.goodput, b.startSeconds));
    m_a->graph->setName(nameA);
    m_b->graph->setName(nameB);
    refreshLevelOfDetail();
    replot(rpQueuedReplot);
}

} // namespace windscope::gui
