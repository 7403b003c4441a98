// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The window's exports: figures of what a plot stack shows, drawn by the renderer
// windscope-cli export uses (render::ConnectionFigure), so both give the same figure;
// the sweep window's QCustomPlot figure through the same file writer; the plotted series
// as CSV.

#include "render/connection_figure.h"
#include "render/figure_writer.h"

#include <QImage>
#include <QList>
#include <QString>

#include <functional>

class QCPPainter;

namespace windscope::analysis {
struct ConnectionSeries;
}

namespace windscope::gui {

using render::ExportPreset;
using render::exportPreset;
using render::exportPresets;
using render::svgExportAvailable;

class PlotStack;

// What the stack shows -- its connection, time range, sequence style, highlighted
// event and window size -- as the renderer's options, for the plots given (empty: all).
render::FigureOptions figureOptions(const PlotStack& stack, const QList<render::PlotKind>& plots,
                                    const ExportPreset& preset);
// The stack's figure to path (format from the suffix). False with error set.
bool exportStackFigure(const PlotStack& stack, const QList<render::PlotKind>& plots, const ExportPreset& preset,
                       const QString& path, QString* error);
QImage renderStackFigure(const PlotStack& stack, const QList<render::PlotKind>& plots, const ExportPreset& preset);

// A QCustomPlot figure: paint draws width x height logical pixels (1/96 inch).
using PaintFigure = std::function<void(QCPPainter& painter, double pixelScale)>;
bool writeFigure(const QString& path, int width, int height, int dpi, const PaintFigure& paint, QString* error);
// A figure's size in logical pixels for a preset: the column width and the given height,
// or the on-screen size for the "screen" preset.
int figureWidth(const ExportPreset& preset, int screenWidth);
int figureHeight(const ExportPreset& preset, double heightMm, int screenHeight);

// The plotted series of a connection (analysis::writeSeriesCsv).
bool exportSeriesCsv(const analysis::ConnectionSeries& series, const QString& path, QString* error);

} // namespace windscope::gui
