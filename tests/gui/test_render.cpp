// SPDX-License-Identifier: GPL-3.0-or-later
// The figure and report renderer on its own (Qt GUI, no Widgets): SVG clipped to the
// axes with every drawn element inside the canvas, PDF page sizes per preset and paper,
// grayscale series told apart by pattern or marker, empty panels left out, axis scales
// with nice steps and units that follow the magnitude.

#include "analysis/pipeline/capture_pipeline.h"
#include "render/connection_figure.h"
#include "render/report.h"
#include "render/report_tables.h"

#include <QFile>
#include <QImage>
#include <QPainter>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTransform>
#include <QXmlStreamReader>

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <vector>

using namespace windscope;

namespace {

const analysis::pipeline::CapturePipeline& samplePipeline()
{
    static const auto pipeline = [] {
        auto p = std::make_unique<analysis::pipeline::CapturePipeline>(WINDSCOPE_SAMPLE_CAPTURE);
        std::string error;
        if (!p->run(analysis::pipeline::AnalysisStage::Correlation, error))
            qFatal("cannot read the sample: %s", error.c_str());
        return p;
    }();
    return *pipeline;
}

const analysis::pipeline::AnalysisBundle& sample()
{
    return samplePipeline().products();
}

const analysis::ConnectionSeries& sampleSeries()
{
    static const analysis::ConnectionSeries s = [] {
        const auto& c = sample();
        return analysis::buildConnectionSeries({c.tables, c.tcp, &samplePipeline(), &c.inventory, &c.events}, 0);
    }();
    return s;
}

render::FigureOptions options(const QString& preset)
{
    render::FigureOptions o;
    o.preset = *render::exportPreset(preset);
    return o;
}

bool havePdfinfo()
{
    const QString p = QStringLiteral(WINDSCOPE_PDFINFO);
    return !p.isEmpty() && !p.endsWith(QLatin1String("NOTFOUND"));
}

// Page width and height in points per pdfinfo.
QSizeF pdfPageSize(const QString& path, QString* info = nullptr)
{
    QProcess p;
    p.start(QStringLiteral(WINDSCOPE_PDFINFO), {path});
    if (!p.waitForFinished(30000) || p.exitCode() != 0)
        return {};
    const QString text = QString::fromUtf8(p.readAllStandardOutput());
    if (info)
        *info = text;
    const QRegularExpressionMatch m = QRegularExpression(QStringLiteral("Page size:\\s+([0-9.]+) x ([0-9.]+) pts")).match(text);
    return m.hasMatch() ? QSizeF(m.captured(1).toDouble(), m.captured(2).toDouble()) : QSizeF();
}

QTransform parseTransform(const QString& text)
{
    static const QRegularExpression matrix(QStringLiteral("matrix\\(([^)]*)\\)"));
    const QRegularExpressionMatch m = matrix.match(text);
    if (!m.hasMatch())
        return {};
    const QStringList v = m.captured(1).split(QRegularExpression(QStringLiteral("[ ,]+")), Qt::SkipEmptyParts);
    if (v.size() != 6)
        return {};
    return QTransform(v[0].toDouble(), v[1].toDouble(), v[2].toDouble(), v[3].toDouble(), v[4].toDouble(), v[5].toDouble());
}

QList<QPointF> pointsOf(const QString& text)
{
    static const QRegularExpression number(QStringLiteral("-?[0-9]*\\.?[0-9]+(?:e-?[0-9]+)?"));
    QList<double> values;
    for (auto it = number.globalMatch(text); it.hasNext();)
        values << it.next().captured(0).toDouble();
    QList<QPointF> points;
    for (qsizetype i = 0; i + 1 < values.size(); i += 2)
        points << QPointF(values[i], values[i + 1]);
    return points;
}

// Ink mask of an image: pixels darker than light grey.
QImage inkMask(const QImage& image)
{
    QImage mask(image.size(), QImage::Format_Mono);
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x)
            mask.setPixel(x, y, qGray(image.pixel(x, y)) < 215 ? 1 : 0);
    return mask;
}

} // namespace

class RenderTest : public QObject
{
    Q_OBJECT

private slots:
    void scalesHaveNiceStepsAndUnits()
    {
        for (double span : {0.37, 3.0, 17.0, 2.5e6, 9.9e8}) {
            const double step = render::niceStep(span, 5);
            const double mantissa = step / std::pow(10.0, std::floor(std::log10(step)));
            QVERIFY2(std::fabs(mantissa - 1) < 1e-9 || std::fabs(mantissa - 2) < 1e-9 || std::fabs(mantissa - 5) < 1e-9,
                     qPrintable(QString::number(step)));
        }
        // The sequence axis at 2.5 MB reads in MB, not "2,500 kB".
        const render::AxisScale seq = render::valueScale(0, 2.5e6, render::Quantity::Bytes, false, 5);
        QCOMPARE(seq.unit, QStringLiteral("MB"));
        QCOMPARE(render::tickLabel(seq.ticks.back(), seq), QStringLiteral("2.5"));
        QCOMPARE(render::valueScale(0, 800, render::Quantity::Bytes, true, 4).unit, QStringLiteral("B"));
        QCOMPARE(render::valueScale(0, 3.2e9, render::Quantity::Bytes, true, 4).unit, QStringLiteral("GB"));
        // Rates from zero, in the unit of their size.
        const render::AxisScale rate = render::valueScale(4.1e6, 5.3e6, render::Quantity::BitRate, true, 4);
        QCOMPARE(rate.lower, 0.0);
        QCOMPARE(rate.unit, QStringLiteral("Mb/s"));
        QVERIFY(rate.upper >= 5.3e6);
        QCOMPARE(render::valueScale(0, 2500, render::Quantity::Milliseconds, true, 4).unit, QStringLiteral("s"));
        QCOMPARE(render::valueScale(0, 250, render::Quantity::Milliseconds, true, 4).unit, QStringLiteral("ms"));
        // The time axis keeps the range asked for; ticks fall inside it.
        const render::AxisScale time = render::timeScale(12.34, 12.91, 5);
        QCOMPARE(time.lower, 12.34);
        QCOMPARE(time.upper, 12.91);
        for (double t : time.ticks)
            QVERIFY(t >= 12.34 - 1e-12 && t <= 12.91 + 1e-12);
    }

    void svgIsClippedInsideTheCanvas()
    {
        if (!render::svgExportAvailable())
            QSKIP("this build has no Qt SVG");
        // Zoomed into the middle of the connection: lines run past both sides of the axes.
        render::FigureOptions o = options(QStringLiteral("single-column"));
        const auto [from, to] = render::wholeConnectionRange(sampleSeries());
        o.range = std::make_pair(from + (to - from) * 0.4, from + (to - from) * 0.45);
        const render::ConnectionFigure figure(sampleSeries(), o);
        QVERIFY(figure.painter().drawnPlots().size() >= 3);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("zoom.svg"));
        QString error;
        QVERIFY2(figure.write(path, &error), qPrintable(error));

        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QXmlStreamReader xml(&f);
        const QRectF canvas(0, 0, figure.painter().width(), figure.painter().height());
        std::map<QString, QRectF> clips;
        QList<QTransform> transforms{QTransform()};
        QList<QString> clipStack{QString()};
        QString pendingClip;
        int elements = 0, clippedElements = 0;
        QStringList outside;
        while (!xml.atEnd()) {
            const auto token = xml.readNext();
            if (token == QXmlStreamReader::EndElement && xml.name() == QLatin1String("g")) {
                transforms.removeLast();
                clipStack.removeLast();
                continue;
            }
            if (token != QXmlStreamReader::StartElement)
                continue;
            const auto a = xml.attributes();
            if (xml.name() == QLatin1String("clipPath")) {
                pendingClip = a.value(QLatin1String("id")).toString();
                continue;
            }
            if (xml.name() == QLatin1String("rect") && !pendingClip.isEmpty()) {
                clips[pendingClip] = QRectF(a.value(QLatin1String("x")).toDouble(), a.value(QLatin1String("y")).toDouble(),
                                            a.value(QLatin1String("width")).toDouble(), a.value(QLatin1String("height")).toDouble());
                pendingClip.clear();
                continue;
            }
            if (xml.name() == QLatin1String("g")) {
                transforms << parseTransform(a.value(QLatin1String("transform")).toString()) * transforms.back();
                QString clip = clipStack.back();
                const QString ref = a.value(QLatin1String("clip-path")).toString();
                if (!ref.isEmpty()) {
                    clip = ref.mid(5, ref.size() - 6); // url(#id)
                    QVERIFY2(clips.count(clip), qPrintable(ref));
                }
                clipStack << clip;
                continue;
            }
            QList<QPointF> points;
            if (xml.name() == QLatin1String("path"))
                points = pointsOf(a.value(QLatin1String("d")).toString());
            else if (xml.name() == QLatin1String("polyline") || xml.name() == QLatin1String("polygon"))
                points = pointsOf(a.value(QLatin1String("points")).toString());
            else if (xml.name() == QLatin1String("rect")) {
                const QPointF p(a.value(QLatin1String("x")).toDouble(), a.value(QLatin1String("y")).toDouble());
                points << p << p + QPointF(a.value(QLatin1String("width")).toDouble(), a.value(QLatin1String("height")).toDouble());
            } else
                continue;
            ++elements;
            const QString clip = clipStack.back();
            clippedElements += !clip.isEmpty();
            for (const QPointF& local : points) {
                const QPointF p = transforms.back().map(local);
                // Markers reach a few pixels past the point they mark.
                const bool inCanvas = canvas.adjusted(-0.5, -0.5, 0.5, 0.5).contains(p);
                const bool inClip = clip.isEmpty() || clips[clip].adjusted(-5, -5, 5, 5).contains(p);
                if (!inCanvas || !inClip)
                    outside << QStringLiteral("%1 (%2, %3) clip %4").arg(xml.name().toString()).arg(p.x()).arg(p.y()).arg(clip);
            }
        }
        QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
        // One clip path per drawn panel, holding its data.
        QCOMPARE(static_cast<int>(clips.size()), static_cast<int>(figure.painter().drawnPlots().size()));
        QVERIFY(elements > 20);
        QVERIFY(clippedElements > 5);
        QVERIFY2(outside.isEmpty(), qPrintable(outside.mid(0, 10).join(QLatin1Char('\n'))));
    }

    void pdfPageSizePerPreset()
    {
        if (!havePdfinfo())
            QSKIP("pdfinfo not found at configure time");
        QTemporaryDir dir;
        QString error;
        for (const auto& [preset, mm] : {std::pair{QStringLiteral("single-column"), 85.0},
                                         std::pair{QStringLiteral("double-column"), 175.0},
                                         std::pair{QStringLiteral("double-column-colour"), 175.0}}) {
            const QString path = dir.filePath(preset + QStringLiteral(".pdf"));
            const render::ConnectionFigure figure(sampleSeries(), options(preset));
            QVERIFY2(figure.write(path, &error), qPrintable(error));
            const QSizeF size = pdfPageSize(path);
            QVERIFY2(std::fabs(size.width() - mm / 25.4 * 72) < 1.5, qPrintable(preset));
            // As tall as the laid-out figure.
            QVERIFY(std::fabs(size.height() - figure.painter().height() * 72.0 / 96.0) < 1.5);
        }
        // Reports: portrait A4 by default, Letter when asked.
        render::ReportOptions report;
        report.preset = render::defaultReportPreset();
        report.plots = {render::PlotKind::TimeSequence};
        report.eventFigures = false;
        const QString a4 = dir.filePath(QStringLiteral("a4.pdf"));
        QVERIFY2(render::writeReport(samplePipeline(), report, a4, &error), qPrintable(error));
        QString info;
        QSizeF size = pdfPageSize(a4, &info);
        QVERIFY2(std::fabs(size.width() - 595.3) < 1 && std::fabs(size.height() - 841.9) < 1, qPrintable(info));
        report.paper = render::Paper::Letter;
        const QString letter = dir.filePath(QStringLiteral("letter.pdf"));
        QVERIFY2(render::writeReport(samplePipeline(), report, letter, &error), qPrintable(error));
        size = pdfPageSize(letter, &info);
        QVERIFY2(std::fabs(size.width() - 612) < 1 && std::fabs(size.height() - 792) < 1, qPrintable(info));
    }

    // The same figure as SVG and as PDF looks the same once rendered by independent
    // renderers (rsvg-convert, pdftoppm) at 200 dpi: the same pixel size at each preset,
    // and close over 16x16 blocks of their mean grey (below).
    void svgAndPdfRenderAlike()
    {
        if (!render::svgExportAvailable())
            QSKIP("this build has no Qt SVG");
        const QString rsvg = QStandardPaths::findExecutable(QStringLiteral("rsvg-convert"));
        const QString pdftoppm = QStandardPaths::findExecutable(QStringLiteral("pdftoppm"));
        if (rsvg.isEmpty() || pdftoppm.isEmpty())
            QSKIP("rsvg-convert or pdftoppm is not installed (scripts/setup.sh installs them)");
        QTemporaryDir dir;
        QString error;
        for (const QString& preset : {QStringLiteral("single-column"), QStringLiteral("double-column")}) {
            const render::ConnectionFigure figure(sampleSeries(), options(preset));
            const QString svg = dir.filePath(preset + QStringLiteral(".svg"));
            const QString pdf = dir.filePath(preset + QStringLiteral(".pdf"));
            QVERIFY2(figure.write(svg, &error), qPrintable(error));
            QVERIFY2(figure.write(pdf, &error), qPrintable(error));
            const QString fromSvg = dir.filePath(preset + QStringLiteral("-svg.png"));
            const QString fromPdfStem = dir.filePath(preset + QStringLiteral("-pdf"));
            QCOMPARE(QProcess::execute(rsvg, {QStringLiteral("-d"), QStringLiteral("200"), QStringLiteral("-p"),
                                              QStringLiteral("200"), QStringLiteral("-b"), QStringLiteral("white"), svg,
                                              QStringLiteral("-o"), fromSvg}),
                     0);
            QCOMPARE(QProcess::execute(pdftoppm, {QStringLiteral("-r"), QStringLiteral("200"), QStringLiteral("-png"),
                                                  QStringLiteral("-singlefile"), pdf, fromPdfStem}),
                     0);
            const QImage a = QImage(fromSvg).convertToFormat(QImage::Format_Grayscale8);
            const QImage b = QImage(fromPdfStem + QStringLiteral(".png")).convertToFormat(QImage::Format_Grayscale8);
            QVERIFY(!a.isNull() && !b.isNull());
            // Sizes agree to the PDF's page unit, one point (200/72 px), rounded either way.
            constexpr int kPointPx = 3;
            QVERIFY2(std::abs(a.width() - b.width()) <= kPointPx && std::abs(a.height() - b.height()) <= kPointPx,
                     qPrintable(QStringLiteral("%1: %2x%3 against %4x%5").arg(preset).arg(a.width()).arg(a.height())
                                    .arg(b.width()).arg(b.height())));
            // Each block's mean grey: a line drawn half a pixel apart by the two renderers
            // moves little of a block's ink; a line missing or drawn outside its axes
            // (a clip lost) changes whole blocks.
            constexpr int kBlock = 16;
            std::vector<double> diffs;
            for (int y = 0; y + kBlock <= std::min(a.height(), b.height()); y += kBlock)
                for (int x = 0; x + kBlock <= std::min(a.width(), b.width()); x += kBlock) {
                    double sa = 0, sb = 0;
                    for (int dy = 0; dy < kBlock; ++dy)
                        for (int dx = 0; dx < kBlock; ++dx) {
                            sa += qGray(a.pixel(x + dx, y + dy));
                            sb += qGray(b.pixel(x + dx, y + dy));
                        }
                    diffs.push_back(std::abs(sa - sb) / (kBlock * kBlock));
                }
            // The renderers set text in different fonts (rsvg substitutes the family the SVG
            // names, the PDF embeds Qt's), so a few blocks under axis titles differ by more
            // than a tenth of the grey range; a line that escaped its clip or went missing
            // runs across tens of blocks at 200 dpi. So: at most 0.5 % of the blocks over a
            // tenth, and the 99th percentile under it.
            constexpr double kTenth = 25.5;
            const auto over = static_cast<std::size_t>(
                std::count_if(diffs.begin(), diffs.end(), [](double d) { return d > kTenth; }));
            std::sort(diffs.begin(), diffs.end());
            const double worst = diffs.back(), p99 = diffs[diffs.size() * 99 / 100];
            qInfo("%s: SVG and PDF renders %dx%d; blocks' mean grey differs by %.1f at the 99th percentile, %.1f "
                  "at most (of 255); %zu of %zu blocks over a tenth",
                  qPrintable(preset), a.width(), a.height(), p99, worst, over, diffs.size());
            QVERIFY2(p99 < kTenth, qPrintable(QStringLiteral("%1: %2").arg(preset).arg(p99)));
            QVERIFY2(over * 200 <= diffs.size(), qPrintable(QStringLiteral("%1: %2 blocks").arg(preset).arg(over)));
        }
    }

    void reportTableHeadersKeepTheirWords()
    {
        const QString pdftotext = QStringLiteral(WINDSCOPE_PDFTOTEXT);
        if (pdftotext.isEmpty() || pdftotext.endsWith(QLatin1String("NOTFOUND")))
            QSKIP("pdftotext not found at configure time");
        QTemporaryDir dir;
        render::ReportOptions report;
        report.preset = render::defaultReportPreset();
        report.figures = false;
        const QString path = dir.filePath(QStringLiteral("tables.pdf"));
        QString error;
        QVERIFY2(render::writeReport(samplePipeline(), report, path, &error), qPrintable(error));
        QProcess p;
        p.start(pdftotext, {path, QStringLiteral("-")});
        QVERIFY(p.waitForFinished(30000));
        const QString text = QString::fromUtf8(p.readAllStandardOutput());
        QStringList words;
        for (const QStringList& headers : {render::connectionHeaders(), render::eventHeaders(), render::correlationHeaders()})
            for (const QString& h : headers)
                words << h.split(QLatin1Char(' '), Qt::SkipEmptyParts);
        // Every header word is printed whole: a column too narrow breaks "Throughput" into
        // "Throughpu t" and "RTO" into "RT O".
        for (const QString& w : words) {
            const QString bare = QString(w).remove(QRegularExpression(QStringLiteral("[()]")));
            QVERIFY2(text.contains(bare), qPrintable(bare));
            for (qsizetype k = 1; k < bare.size(); ++k) {
                const QRegularExpression broken(QStringLiteral("(?<![A-Za-z])%1\\s+%2(?![A-Za-z])")
                                                    .arg(QRegularExpression::escape(bare.left(k)),
                                                         QRegularExpression::escape(bare.mid(k))));
                QVERIFY2(!text.contains(broken), qPrintable(QStringLiteral("'%1' broken after %2 characters").arg(bare).arg(k)));
            }
        }
    }

    void grayscaleSeriesAreToldApart()
    {
        const render::ConnectionFigure figure(sampleSeries(), options(QStringLiteral("single-column")));
        int pairs = 0;
        for (render::PlotKind kind : figure.painter().drawnPlots()) {
            const auto legend = figure.painter().legend(kind);
            std::vector<QImage> masks;
            for (const auto& e : legend) {
                QImage icon(80, 30, QImage::Format_ARGB32_Premultiplied);
                icon.fill(Qt::white);
                QPainter painter(&icon);
                painter.scale(4, 4); // icon of 20 x 7.5 logical pixels at 384 dpi
                render::paintLegendIcon(painter, QRectF(1, 0.5, 18, 6.5), e.shape, e.style);
                painter.end();
                masks.push_back(inkMask(icon));
            }
            // Ignoring grey levels, each pair of series still looks different.
            for (std::size_t i = 0; i < masks.size(); ++i)
                for (std::size_t j = i + 1; j < masks.size(); ++j, ++pairs)
                    QVERIFY2(masks[i] != masks[j], qPrintable(QStringLiteral("%1: '%2' and '%3' differ only in grey")
                                                                  .arg(render::plotKindName(kind), legend[i].name, legend[j].name)));
        }
        QVERIFY(pairs >= 6);
        // And the figure is grey throughout.
        const QImage image = figure.image();
        for (int y = 0; y < image.height(); y += 3)
            for (int x = 0; x < image.width(); x += 3) {
                const QColor c = image.pixelColor(x, y);
                QVERIFY2(std::abs(c.red() - c.green()) <= 10 && std::abs(c.green() - c.blue()) <= 10,
                         qPrintable(QStringLiteral("colour at %1,%2").arg(x).arg(y)));
            }
    }

    void emptyPanelsAreLeftOut()
    {
        // Long after the connection: nothing to draw, and the figure says so.
        render::FigureOptions o = options(QStringLiteral("single-column"));
        o.range = std::make_pair(1e5, 1e5 + 1);
        const render::ConnectionFigure empty(sampleSeries(), o);
        QVERIFY(empty.painter().drawnPlots().isEmpty());
        QVERIFY(empty.painter().emptyText().contains(QStringLiteral("Nothing to draw")));
        QVERIFY(!empty.image().isNull());

        // A wired (Ethernet) capture has no 802.11 lane.
        analysis::pipeline::CapturePipeline wiredPipeline(WINDSCOPE_TEST_DATA_DIR "/vlan-tcp.pcap");
        std::string error;
        QVERIFY(wiredPipeline.run(analysis::pipeline::AnalysisStage::Correlation, error));
        const analysis::pipeline::AnalysisBundle& wired = wiredPipeline.products();
        QVERIFY(!wired.tcp.connections.empty());
        const analysis::ConnectionSeries series = analysis::buildConnectionSeries(
            {wired.tables, wired.tcp, &wiredPipeline, &wired.inventory, &wired.events}, 0);
        const render::ConnectionFigure figure(series, options(QStringLiteral("double-column")));
        QVERIFY(!figure.painter().drawnPlots().contains(render::PlotKind::WlanLane));
        QVERIFY(figure.painter().drawnPlots().contains(render::PlotKind::TimeSequence));

        // The sample's whole stack: every panel has something.
        const render::ConnectionFigure full(sampleSeries(), options(QStringLiteral("single-column")));
        QCOMPARE(full.painter().drawnPlots(), render::allPlotKinds());
    }
};

QTEST_MAIN(RenderTest)
#include "test_render.moc"
