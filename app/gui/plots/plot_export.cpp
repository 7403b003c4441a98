// SPDX-License-Identifier: GPL-3.0-or-later
#include "plot_export.h"

#include "analysis/series/plot_series.h"
#include "plot_panel.h"

#include <QFileInfo>
#include <QImage>
#include <QPageSize>
#include <QPdfWriter>
#ifdef WINDSCOPE_HAVE_QT_SVG
#include <QSvgGenerator>
#endif

#include <cmath>
#include <fstream>

namespace windscope::gui {

namespace {

// Layout happens in logical pixels of 1/96 inch, the resolution QFont point sizes are
// converted with on a QImage, so text keeps its point size in every format.
constexpr double kLogicalDpi = 96.0;

double mmToLogical(double mm) { return mm / 25.4 * kLogicalDpi; }

struct Layout
{
    int width = 0;
    QList<int> heights;
    int total = 0;
};

Layout layoutFor(const QList<PlotPanel*>& panels, const ExportPreset& preset)
{
    Layout l;
    if (preset.id == QLatin1String("screen")) {
        l.width = panels.front()->width();
        for (PlotPanel* p : panels)
            l.heights << p->height();
    } else {
        l.width = static_cast<int>(std::lround(mmToLogical(preset.widthMm)));
        for (PlotPanel* p : panels) {
            // The bottom panel also carries the time labels.
            double mm = preset.panelHeightMm * p->stretch() / 3.0;
            if (p == panels.back())
                mm += 6;
            l.heights << static_cast<int>(std::lround(mmToLogical(mm)));
        }
    }
    for (int h : l.heights)
        l.total += h;
    return l;
}

void paintPanels(QCPPainter& painter, const QList<PlotPanel*>& panels, const Layout& layout,
                 const ExportPreset& preset, double pixelScale)
{
    PlotStyle style;
    style.fontPt = preset.fontPt;
    style.grayscale = preset.grayscale;
    style.lineWidth = preset.id == QLatin1String("screen") ? 0 : 0.8;
    const bool keepScreen = preset.id == QLatin1String("screen");
    int y = 0;
    for (int i = 0; i < panels.size(); ++i) {
        PlotPanel* p = panels[i];
        if (keepScreen)
            style = p->plotStyle();
        p->beginExport(style, std::max(100, static_cast<int>(layout.width * pixelScale)),
                       i == panels.size() - 1);
        if (!keepScreen) {
            // Legend entries per line from the figure's width in print units, not from
            // its pixel count, which grows with the resolution.
            p->legend->setWrap(layout.width < 450 ? 3 : 4);
            p->legend->setFillOrder(QCPLayoutGrid::foColumnsFirst, true);
        }
        painter.save();
        painter.translate(0, y);
        p->toPainter(&painter, layout.width, layout.heights[i]);
        painter.restore();
        p->endExport();
        y += layout.heights[i];
    }
}

} // namespace

QList<ExportPreset> exportPresets()
{
    return {
        {QStringLiteral("single-column"), QObject::tr("Single column (85 mm, 7 pt, grayscale)"), 85, 38,
         7, true, 300},
        {QStringLiteral("double-column"), QObject::tr("Double column (175 mm, 8 pt, grayscale)"), 175,
         45, 8, true, 300},
        {QStringLiteral("double-column-colour"), QObject::tr("Double column (175 mm, 8 pt, colour)"), 175,
         45, 8, false, 300},
        {QStringLiteral("screen"), QObject::tr("As on screen"), 0, 0, 9, false, 96},
    };
}

std::optional<ExportPreset> exportPreset(const QString& id)
{
    for (const ExportPreset& p : exportPresets())
        if (p.id == id)
            return p;
    return std::nullopt;
}

std::optional<ExportFormat> exportFormatFor(const QString& path)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("png"))
        return ExportFormat::Png;
    if (suffix == QLatin1String("pdf"))
        return ExportFormat::Pdf;
    if (suffix == QLatin1String("svg"))
        return ExportFormat::Svg;
    return std::nullopt;
}

bool svgExportAvailable()
{
#ifdef WINDSCOPE_HAVE_QT_SVG
    return true;
#else
    return false;
#endif
}

QImage renderFigureImage(int width, int height, int dpi, const PaintFigure& paint)
{
    if (width <= 0 || height <= 0)
        return {};
    const double scale = dpi / kLogicalDpi;
    QImage image(static_cast<int>(std::lround(width * scale)), static_cast<int>(std::lround(height * scale)),
                 QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::white);
    {
        QCPPainter painter(&image);
        painter.setRenderHint(QPainter::Antialiasing);
        painter.setRenderHint(QPainter::TextAntialiasing);
        painter.scale(scale, scale);
        paint(painter, scale);
    }
    // Resolution is recorded only after painting: fonts are sized at 96 dpi above.
    const int dotsPerMeter = static_cast<int>(std::lround(dpi / 0.0254));
    image.setDotsPerMeterX(dotsPerMeter);
    image.setDotsPerMeterY(dotsPerMeter);
    return image;
}

bool writeFigure(const QString& path, int width, int height, int dpi, const PaintFigure& paint, QString* error)
{
    auto fail = [&](const QString& message) {
        if (error)
            *error = message;
        return false;
    };
    const std::optional<ExportFormat> format = exportFormatFor(path);
    if (!format)
        return fail(QObject::tr("%1: unknown figure format (use .png, .pdf or .svg)").arg(path));
    if (width <= 0 || height <= 0)
        return fail(QObject::tr("the plots have no size to export"));

    switch (*format) {
    case ExportFormat::Png: {
        const QImage image = renderFigureImage(width, height, dpi, paint);
        if (image.isNull())
            return fail(QObject::tr("the plots have no size to export"));
        if (!image.save(path, "PNG"))
            return fail(QObject::tr("%1: could not write the PNG file").arg(path));
        return true;
    }
    case ExportFormat::Pdf: {
        QPdfWriter writer(path);
        writer.setResolution(static_cast<int>(kLogicalDpi));
        writer.setCreator(QStringLiteral("Windscope"));
        const QSizeF pageMm(width / kLogicalDpi * 25.4, height / kLogicalDpi * 25.4);
        writer.setPageSize(QPageSize(pageMm, QPageSize::Millimeter, QString(), QPageSize::ExactMatch));
        writer.setPageMargins(QMarginsF(0, 0, 0, 0));
        QCPPainter painter;
        if (!painter.begin(&writer))
            return fail(QObject::tr("%1: could not write the PDF file").arg(path));
        painter.setMode(QCPPainter::pmVectorized);
        painter.setMode(QCPPainter::pmNoCaching);
        paint(painter, 2.0);
        painter.end();
        return true;
    }
    case ExportFormat::Svg: {
#ifdef WINDSCOPE_HAVE_QT_SVG
        QSvgGenerator svg;
        svg.setFileName(path);
        svg.setSize(QSize(width, height));
        svg.setViewBox(QRect(0, 0, width, height));
        svg.setResolution(static_cast<int>(kLogicalDpi));
        svg.setTitle(QStringLiteral("Windscope plots"));
        QCPPainter painter;
        if (!painter.begin(&svg))
            return fail(QObject::tr("%1: could not write the SVG file").arg(path));
        painter.setMode(QCPPainter::pmVectorized);
        painter.setMode(QCPPainter::pmNoCaching);
        paint(painter, 2.0);
        painter.end();
        return true;
#else
        return fail(QObject::tr("SVG export needs Qt SVG, which this build was made without"));
#endif
    }
    }
    return false;
}

int figureWidth(const ExportPreset& preset, int screenWidth)
{
    return preset.id == QLatin1String("screen") ? screenWidth
                                                : static_cast<int>(std::lround(mmToLogical(preset.widthMm)));
}

int figureHeight(const ExportPreset& preset, double heightMm, int screenHeight)
{
    return preset.id == QLatin1String("screen") ? screenHeight : static_cast<int>(std::lround(mmToLogical(heightMm)));
}

QImage renderPlotsImage(const QList<PlotPanel*>& panels, const ExportPreset& preset)
{
    if (panels.isEmpty())
        return {};
    const Layout layout = layoutFor(panels, preset);
    return renderFigureImage(layout.width, layout.total, preset.dpi, [&](QCPPainter& painter, double scale) {
        paintPanels(painter, panels, layout, preset, scale);
    });
}

bool exportPlots(const QList<PlotPanel*>& panels, const QString& path, const ExportPreset& preset,
                 QString* error)
{
    if (panels.isEmpty()) {
        if (error)
            *error = QObject::tr("nothing to export");
        return false;
    }
    const Layout layout = layoutFor(panels, preset);
    // Vector formats lay the panels out for a print resolution of twice the logical one.
    return writeFigure(path, layout.width, layout.total, preset.dpi,
                       [&](QCPPainter& painter, double scale) { paintPanels(painter, panels, layout, preset, scale); },
                       error);
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
