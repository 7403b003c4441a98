// SPDX-License-Identifier: GPL-3.0-or-later
#include "plot_export.h"

#include "analysis/series/plot_series.h"
#include "plot_panel.h"
#include "plot_stack.h"
#include "time_axis.h"

#include <QFile>

#include <cmath>
#include <fstream>

namespace windscope::gui {

render::FigureOptions figureOptions(const PlotStack& stack, const QList<render::PlotKind>& plots,
                                    const ExportPreset& preset)
{
    render::FigureOptions o;
    o.plots = plots;
    o.preset = preset;
    o.range = std::make_pair(stack.timeAxis()->lower(), stack.timeAxis()->upper());
    o.stevens = stack.timeSequencePlot()->sequenceStyle() == TimeSequencePlot::Style::Stevens;
    o.highlightedEvent = stack.panels().isEmpty() ? -1 : stack.panels().front()->highlightedEvent();
    int height = 0;
    for (PlotPanel* p : stack.panels())
        height += p->height();
    o.screenSize = QSizeF(stack.panels().isEmpty() ? stack.width() : stack.panels().front()->width(), height);
    return o;
}

bool exportStackFigure(const PlotStack& stack, const QList<render::PlotKind>& plots, const ExportPreset& preset,
                       const QString& path, QString* error)
{
    if (!stack.series()) {
        if (error)
            *error = QObject::tr("nothing to export");
        return false;
    }
    return render::ConnectionFigure(*stack.series(), figureOptions(stack, plots, preset)).write(path, error);
}

QImage renderStackFigure(const PlotStack& stack, const QList<render::PlotKind>& plots, const ExportPreset& preset)
{
    if (!stack.series())
        return {};
    return render::ConnectionFigure(*stack.series(), figureOptions(stack, plots, preset)).image();
}

bool writeFigure(const QString& path, int width, int height, int dpi, const PaintFigure& paint, QString* error)
{
    // QCustomPlot draws through its own painter class; vector output without its pixmap cache.
    const render::OpenPainter open = [](QPaintDevice* device, bool vector) -> std::shared_ptr<QPainter> {
        auto painter = std::make_unique<QCPPainter>();
        if (!painter->begin(device))
            return nullptr;
        if (vector) {
            painter->setMode(QCPPainter::pmVectorized);
            painter->setMode(QCPPainter::pmNoCaching);
        }
        return painter;
    };
    return render::writeFigure(
        path, width, height, dpi,
        [&](QPainter& painter, const render::PaintTarget& target) {
            paint(static_cast<QCPPainter&>(painter), target.pixelScale);
        },
        error, open);
}

int figureWidth(const ExportPreset& preset, int screenWidth)
{
    return render::isScreenPreset(preset) ? screenWidth : static_cast<int>(std::lround(render::mmToLogical(preset.widthMm)));
}

int figureHeight(const ExportPreset& preset, double heightMm, int screenHeight)
{
    return render::isScreenPreset(preset) ? screenHeight : static_cast<int>(std::lround(render::mmToLogical(heightMm)));
}

bool exportSeriesCsv(const analysis::ConnectionSeries& series, const QString& path, QString* error)
{
    std::ofstream out(QFile::encodeName(path).toStdString());
    if (!out) {
        if (error)
            *error = QObject::tr("%1: could not open for writing").arg(path);
        return false;
    }
    analysis::writeSeriesCsv(out, series);
    out.close();
    if (!out) {
        if (error)
            *error = QObject::tr("%1: write failed").arg(path);
        return false;
    }
    return true;
}

} // namespace windscope::gui
