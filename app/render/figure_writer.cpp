// SPDX-License-Identifier: GPL-3.0-or-later
#include "figure_writer.h"

#include "figure_style.h"

#include <QBuffer>
#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QRegularExpression>
#ifdef WINDSCOPE_HAVE_QT_SVG
#include <QSvgGenerator>
#endif

#include <cmath>

namespace windscope::render {

namespace {

constexpr char kClipBegin[] = "windscope-clip-begin:";
constexpr char kClipEnd[] = "windscope-clip-end";

QString tr(const char* text) { return QCoreApplication::translate("FigureWriter", text); }

std::shared_ptr<QPainter> openPainter(QPaintDevice* device, bool vector, const OpenPainter& open)
{
    if (open)
        return open(device, vector);
    auto painter = std::make_unique<QPainter>();
    if (!painter->begin(device))
        return nullptr;
    return painter;
}

void drawMark(QPainter& painter, const QString& text)
{
    painter.save();
    // A font of its own puts the mark in a group of its own in QSvgGenerator's output.
    QFont f(QStringLiteral("monospace"));
    f.setPixelSize(1);
    painter.setFont(f);
    painter.setPen(Qt::white);
    painter.drawText(QPointF(0, 0), text);
    painter.restore();
}

// Wraps each marked run of top-level groups in <g clip-path="url(#clipN)">; the marks
// themselves are removed. Groups QSvgGenerator writes are flat siblings, so the wrapper
// keeps the document well formed.
QByteArray addSvgClipPaths(const QByteArray& svg)
{
    QString text = QString::fromUtf8(svg);
    static const QRegularExpression beginMark(
        QStringLiteral("<text[^>]*>%1([-0-9.]+),([-0-9.]+),([-0-9.]+),([-0-9.]+)</text>").arg(QLatin1String(kClipBegin)));
    static const QRegularExpression endMark(QStringLiteral("<text[^>]*>%1</text>").arg(QLatin1String(kClipEnd)));
    int n = 0;
    for (;;) {
        const QRegularExpressionMatch b = beginMark.match(text);
        if (!b.hasMatch())
            break;
        const QRegularExpressionMatch e = endMark.match(text, b.capturedEnd());
        if (!e.hasMatch())
            break;
        const qsizetype groupStart = text.lastIndexOf(QLatin1String("<g "), b.capturedStart());
        const qsizetype groupEnd = text.indexOf(QLatin1String("</g>"), e.capturedEnd());
        if (groupStart < 0 || groupEnd < 0)
            break;
        ++n;
        const QString id = QStringLiteral("clip%1").arg(n);
        const QString defs = QStringLiteral("<defs><clipPath id=\"%1\"><rect x=\"%2\" y=\"%3\" width=\"%4\" height=\"%5\"/></clipPath></defs>\n"
                                            "<g clip-path=\"url(#%1)\">\n")
                                 .arg(id, b.captured(1), b.captured(2), b.captured(3), b.captured(4));
        // Edit from the back so the earlier positions stay valid.
        text.insert(groupEnd + 4, QStringLiteral("\n</g>"));
        text.remove(e.capturedStart(), e.capturedLength());
        text.remove(b.capturedStart(), b.capturedLength());
        text.insert(groupStart, defs);
    }
    return text.toUtf8();
}

} // namespace

std::optional<FigureFormat> figureFormatFor(const QString& path)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("png"))
        return FigureFormat::Png;
    if (suffix == QLatin1String("pdf"))
        return FigureFormat::Pdf;
    if (suffix == QLatin1String("svg"))
        return FigureFormat::Svg;
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

void beginClip(QPainter& painter, const PaintTarget& target, const QRectF& rect)
{
    painter.save();
    painter.setClipRect(rect);
    if (target.svg) {
        const QRectF r = painter.transform().mapRect(rect);
        drawMark(painter, QStringLiteral("%1%2,%3,%4,%5")
                              .arg(QLatin1String(kClipBegin))
                              .arg(r.x(), 0, 'f', 2)
                              .arg(r.y(), 0, 'f', 2)
                              .arg(r.width(), 0, 'f', 2)
                              .arg(r.height(), 0, 'f', 2));
    }
}

void endClip(QPainter& painter, const PaintTarget& target)
{
    if (target.svg)
        drawMark(painter, QString::fromLatin1(kClipEnd));
    painter.restore();
}

QImage renderFigureImage(int width, int height, int dpi, const PaintFigure& paint, const OpenPainter& open)
{
    if (width <= 0 || height <= 0)
        return {};
    const double scale = dpi / kLogicalDpi;
    QImage image(static_cast<int>(std::lround(width * scale)), static_cast<int>(std::lround(height * scale)),
                 QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::white);
    {
        std::shared_ptr<QPainter> painter = openPainter(&image, false, open);
        if (!painter)
            return {};
        painter->setRenderHint(QPainter::Antialiasing);
        painter->setRenderHint(QPainter::TextAntialiasing);
        painter->scale(scale, scale);
        paint(*painter, PaintTarget{scale, false});
        painter->end();
    }
    // Resolution is recorded only after painting: fonts are sized at 96 dpi above.
    const int dotsPerMeter = static_cast<int>(std::lround(dpi / 0.0254));
    image.setDotsPerMeterX(dotsPerMeter);
    image.setDotsPerMeterY(dotsPerMeter);
    return image;
}

bool writeFigure(const QString& path, int width, int height, int dpi, const PaintFigure& paint, QString* error,
                 const OpenPainter& open)
{
    auto fail = [&](const QString& message) {
        if (error)
            *error = message;
        return false;
    };
    const std::optional<FigureFormat> format = figureFormatFor(path);
    if (!format)
        return fail(tr("%1: unknown figure format (use .png, .pdf or .svg)").arg(path));
    if (width <= 0 || height <= 0)
        return fail(tr("the figure has no size to export"));

    switch (*format) {
    case FigureFormat::Png: {
        const QImage image = renderFigureImage(width, height, dpi, paint, open);
        if (image.isNull())
            return fail(tr("the figure has no size to export"));
        if (!image.save(path, "PNG"))
            return fail(tr("%1: could not write the PNG file").arg(path));
        return true;
    }
    case FigureFormat::Pdf: {
        QPdfWriter writer(path);
        writer.setResolution(static_cast<int>(kLogicalDpi));
        writer.setCreator(QStringLiteral("Windscope"));
        const QSizeF pageMm(width / kLogicalDpi * 25.4, height / kLogicalDpi * 25.4);
        writer.setPageSize(QPageSize(pageMm, QPageSize::Millimeter, QString(), QPageSize::ExactMatch));
        writer.setPageMargins(QMarginsF(0, 0, 0, 0));
        std::shared_ptr<QPainter> painter = openPainter(&writer, true, open);
        if (!painter)
            return fail(tr("%1: could not write the PDF file").arg(path));
        // Vector output: the level of detail of a 192-dpi raster, ample for print lines.
        paint(*painter, PaintTarget{2.0, false});
        painter->end();
        return true;
    }
    case FigureFormat::Svg: {
#ifdef WINDSCOPE_HAVE_QT_SVG
        QByteArray bytes;
        {
            QBuffer buffer(&bytes);
            buffer.open(QIODevice::WriteOnly);
            QSvgGenerator svg;
            svg.setOutputDevice(&buffer);
            svg.setSize(QSize(width, height));
            svg.setViewBox(QRect(0, 0, width, height));
            svg.setResolution(static_cast<int>(kLogicalDpi));
            svg.setTitle(QStringLiteral("Windscope figure"));
            std::shared_ptr<QPainter> painter = openPainter(&svg, true, open);
            if (!painter)
                return fail(tr("%1: could not write the SVG file").arg(path));
            paint(*painter, PaintTarget{2.0, true});
            painter->end();
        }
        QFile out(path);
        if (!out.open(QIODevice::WriteOnly | QIODevice::Truncate))
            return fail(tr("%1: could not write the SVG file (%2)").arg(path, out.errorString()));
        const QByteArray clipped = addSvgClipPaths(bytes);
        if (out.write(clipped) != clipped.size() || !out.flush())
            return fail(tr("%1: write failed (%2)").arg(path, out.errorString()));
        return true;
#else
        return fail(tr("SVG export needs Qt SVG, which this build was made without"));
#endif
    }
    }
    return false;
}

} // namespace windscope::render
