// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Writes a figure drawn with QPainter to PNG (at the preset's dpi), PDF (one page of the
// figure's size) or SVG, laid out in logical pixels of 1/96 inch so text keeps its point
// size in every format. QSvgGenerator (Qt 6.4) drops the painter's clipping, so the SVG
// gets its clip paths afterwards from marks the painting leaves (beginClip/endClip).

#include <QImage>
#include <QRectF>
#include <QString>

#include <functional>
#include <memory>
#include <optional>

class QPaintDevice;
class QPainter;

namespace windscope::render {

enum class FigureFormat { Png, Pdf, Svg };
// From the file name's suffix; nullopt when it is none of png, pdf, svg.
std::optional<FigureFormat> figureFormatFor(const QString& path);
bool svgExportAvailable();

// What the painting goes to.
struct PaintTarget
{
    double pixelScale = 1;     // device pixels per logical pixel (the level of detail)
    bool svg = false;
};

// Clips to rect (in the painter's current coordinates) until endClip; in an SVG, the
// part in between becomes a group with a clip path.
void beginClip(QPainter& painter, const PaintTarget& target, const QRectF& rect);
void endClip(QPainter& painter, const PaintTarget& target);

using PaintFigure = std::function<void(QPainter& painter, const PaintTarget& target)>;
// Opens the painter on a device; the default is a plain QPainter. A caller drawing with
// a QPainter subclass (QCustomPlot's) supplies its own and gets it back in paint.
// A shared pointer: it deletes the painter as the type it was made as (QPainter's
// destructor is not virtual, and QCustomPlot's painter derives from it).
using OpenPainter = std::function<std::shared_ptr<QPainter>(QPaintDevice* device, bool vector)>;

// width x height logical pixels; the format is the path's suffix.
bool writeFigure(const QString& path, int width, int height, int dpi, const PaintFigure& paint, QString* error,
                 const OpenPainter& open = {});
QImage renderFigureImage(int width, int height, int dpi, const PaintFigure& paint, const OpenPainter& open = {});

} // namespace windscope::render
