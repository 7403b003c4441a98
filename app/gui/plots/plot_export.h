// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Figures for reports: one plot or a stack of them to PNG, PDF or SVG, sized for a
// journal column (single ~85 mm, double ~175 mm) with print font sizes and line styles
// that stay distinct in grayscale, or at screen size in colour.

#include <QImage>
#include <QList>
#include <QString>

#include <functional>
#include <optional>

class QCPPainter;

namespace windscope::analysis {
struct ConnectionSeries;
}

namespace windscope::gui {

class PlotPanel;

struct ExportPreset
{
    QString id;                // "single-column", "double-column", "screen"
    QString name;              // for menus
    double widthMm = 85;
    double panelHeightMm = 40; // for a panel of stretch 3; others scale with theirs
    double fontPt = 7;
    bool grayscale = true;
    int dpi = 300;             // PNG resolution
};

QList<ExportPreset> exportPresets();
std::optional<ExportPreset> exportPreset(const QString& id);

enum class ExportFormat { Png, Pdf, Svg };
// From the file name's suffix; nullopt when it is none of png, pdf, svg.
std::optional<ExportFormat> exportFormatFor(const QString& path);
bool svgExportAvailable();

// Draws the panels one above the other into path. Returns false with error set.
bool exportPlots(const QList<PlotPanel*>& panels, const QString& path, const ExportPreset& preset,
                 QString* error);
// The PNG rendering of exportPlots() (preset.dpi), null when there is nothing to draw.
QImage renderPlotsImage(const QList<PlotPanel*>& panels, const ExportPreset& preset);
// Any figure: paint draws into width x height logical pixels (1/96 inch) with the given
// pixel scale (the PNG's dpi / 96, 2 for vector formats); the format is the path's suffix.
using PaintFigure = std::function<void(QCPPainter& painter, double pixelScale)>;
bool writeFigure(const QString& path, int width, int height, int dpi, const PaintFigure& paint, QString* error);
QImage renderFigureImage(int width, int height, int dpi, const PaintFigure& paint);
// A figure's size in logical pixels for a preset: the column width and the given height,
// or the on-screen size for the "screen" preset.
int figureWidth(const ExportPreset& preset, int screenWidth);
int figureHeight(const ExportPreset& preset, double heightMm, int screenHeight);

// The plotted series of a connection (analysis::writeSeriesCsv).
bool exportSeriesCsv(const analysis::ConnectionSeries& series, const QString& path, QString* error);

} // namespace windscope::gui
