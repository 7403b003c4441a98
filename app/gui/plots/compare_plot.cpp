// SPDX-License-Identifier: GPL-3.0-or-later
#include "compare_plot.h"

namespace windscope::gui {

namespace {

// Only the time axis moves, values are untouched.
analysis::XySeries shifted(const analysis::XySeries& s, double offset)
{
    analysis::XySeries out = s;
    for (double& t : out.t)
        t -= offset;
    return out;
}

QString quantityTitle(ComparePlot::Quantity q)
{
    switch (q) {
    case ComparePlot::Quantity::Delivered: return QStringLiteral("Delivered");
    case ComparePlot::Quantity::Goodput: return QStringLiteral("Goodput");
    case ComparePlot::Quantity::Cwnd: return QStringLiteral("Congestion window");
    }
    return {};
}

const analysis::XySeries& quantityOf(const analysis::ConnectionSeries& s, ComparePlot::Quantity q)
{
    switch (q) {
    case ComparePlot::Quantity::Delivered: return s.timeSequence.ack;
    case ComparePlot::Quantity::Goodput: return s.rate.goodput;
    case ComparePlot::Quantity::Cwnd: return s.window.cwnd;
    }
    return s.timeSequence.ack;
}

} // namespace

ComparePlot::ComparePlot(TimeAxis* axis, Quantity quantity, QWidget* parent)
    : PlotPanel(axis, quantityTitle(quantity), parent), m_quantity(quantity)
{
    m_a = &addSeries(QStringLiteral("A"), LodSeries::Mode::Line, 0);
    m_b = &addSeries(QStringLiteral("B"), LodSeries::Mode::Line, 3);
    m_ref = &addSeries(QStringLiteral("reference"), LodSeries::Mode::Line, 7);
    for (LodGraph* g : {m_a, m_b, m_ref})
        g->graph->setLineStyle(QCPGraph::lsStepLeft);
    m_ref->graph->removeFromLegend();
    switch (quantity) {
    case Quantity::Delivered:
        m_a->unit = m_b->unit = m_ref->unit = QStringLiteral("B");
        setValueScale(yAxis, 1e3, QStringLiteral("acknowledged (kB)"));
        break;
    case Quantity::Goodput:
        m_a->unit = m_b->unit = m_ref->unit = QStringLiteral("b/s");
        setValueScale(yAxis, 1e6, QStringLiteral("goodput (Mb/s)"));
        break;
    case Quantity::Cwnd:
        m_a->unit = m_b->unit = m_ref->unit = QStringLiteral("B");
        setValueScale(yAxis, 1e3, QStringLiteral("inferred cwnd (kB)"));
        break;
    }
}

void ComparePlot::setPair(const analysis::ConnectionSeries& a, const QString& nameA, double offsetA,
                          const analysis::ConnectionSeries& b, const QString& nameB, double offsetB,
                          const analysis::ConnectionSeries* reference, const QString& nameRef, double offsetRef)
{
    setXyData(*m_a, shifted(quantityOf(a, m_quantity), offsetA));
    setXyData(*m_b, shifted(quantityOf(b, m_quantity), offsetB));
    m_a->graph->setName(nameA);
    m_b->graph->setName(nameB);
    setXyData(*m_ref, reference ? shifted(quantityOf(*reference, m_quantity), offsetRef) : analysis::XySeries{});
    m_ref->graph->setName(nameRef);
    if (reference)
        m_ref->graph->addToLegend();
    else
        m_ref->graph->removeFromLegend();
    refreshLevelOfDetail();
    replot(rpQueuedReplot);
}

} // namespace windscope::gui
