// SPDX-License-Identifier: GPL-3.0-or-later
#include "comparison_figure.h"

#include "figure_writer.h"

#include <QCoreApplication>

#include <algorithm>

namespace windscope::render {

namespace {

QString tr(const char* text) { return QCoreApplication::translate("ComparisonFigure", text); }

// A solid blue, B dashed red, the baseline dash-dotted grey: apart in colour and in
// grayscale alike (dash pattern and grey level differ).
SeriesLook sideLook(std::size_t side)
{
    switch (side) {
    case 0: return {{QColor(31, 119, 180), Qt::SolidLine, 1.0}, {QColor(0, 0, 0), Qt::SolidLine, 1.0}};
    case 1: return {{QColor(214, 39, 40), Qt::DashLine, 1.0}, {QColor(70, 70, 70), Qt::DashLine, 1.0}};
    default: return {{QColor(127, 127, 127), Qt::DashDotLine, 0.9}, {QColor(140, 140, 140), Qt::DashDotLine, 0.9}};
    }
}

PlotSeries shiftedXy(const QString& name, std::size_t side, const analysis::XySeries& s, double offset)
{
    PlotSeries p;
    p.name = name;
    p.shape = SeriesShape::Step;
    p.look = sideLook(side);
    std::vector<double> t(s.t);
    for (double& x : t)
        x -= offset;
    p.data.setData(std::move(t), s.v);
    return p;
}

std::vector<Panel> comparisonPanels(const std::vector<ComparedSide>& sides)
{
    Panel delivered;
    delivered.kind = PlotKind::TimeSequence;
    delivered.left = {tr("acknowledged"), Quantity::Bytes, true};
    delivered.emptyReason = tr("no ACKs");
    Panel goodput;
    goodput.kind = PlotKind::Throughput;
    goodput.left = {tr("goodput"), Quantity::BitRate, true};
    goodput.stretch = 2;
    goodput.emptyReason = tr("no goodput bins");
    Panel cwnd;
    cwnd.kind = PlotKind::Window;
    cwnd.left = {tr("inferred cwnd"), Quantity::Bytes, true};
    cwnd.stretch = 2;
    cwnd.emptyReason = tr("cwnd not inferred on either side");
    for (std::size_t i = 0; i < sides.size(); ++i) {
        const ComparedSide& side = sides[i];
        delivered.series.push_back(shiftedXy(side.name, i, side.series->timeSequence.ack, side.offset));
        goodput.series.push_back(shiftedXy(side.name, i, side.series->rate.goodput, side.offset));
        cwnd.series.push_back(shiftedXy(side.name, i, side.series->window.cwnd, side.offset));
    }
    return {std::move(delivered), std::move(goodput), std::move(cwnd)};
}

FigureFrame comparisonFrame(const std::vector<ComparedSide>& sides, const ComparisonFigureOptions& options)
{
    double lo = 0, hi = 0;
    bool first = true;
    for (const ComparedSide& side : sides) {
        const double start = side.series->startSeconds - side.offset, end = side.series->endSeconds - side.offset;
        lo = first ? start : std::min(lo, start);
        hi = first ? end : std::max(hi, end);
        first = false;
    }
    const double span = std::max(hi - lo, 1e-3);
    FigureFrame f;
    f.lower = lo - span * 0.01;
    f.upper = hi + span * 0.01;
    f.preset = options.preset;
    f.screenSize = options.screenSize;
    f.timeTitle = options.timeTitle;
    return f;
}

} // namespace

ComparisonFigure::ComparisonFigure(const std::vector<ComparedSide>& sides, const ComparisonFigureOptions& options)
    : m_options(options), m_painter(comparisonPanels(sides), comparisonFrame(sides, options))
{
}

bool ComparisonFigure::write(const QString& path, QString* error) const
{
    return writeFigure(m_painter, m_options.preset.dpi, path, error);
}

QImage ComparisonFigure::image() const { return figureImage(m_painter, m_options.preset.dpi); }

} // namespace windscope::render
