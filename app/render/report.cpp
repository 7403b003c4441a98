// SPDX-License-Identifier: GPL-3.0-or-later
#include "report.h"

#include "report_tables.h"

#include "dissectors/dissector_set.h"
#include "windscope/version.h"

#include <QBuffer>
#include <QCoreApplication>
#include <QDateTime>
#include <QFile>
#include <QFileInfo>
#include <QFontMetricsF>
#include <QPageLayout>
#include <QPageSize>
#include <QPdfWriter>
#include <QTextDocument>
#include <QUrl>

#include <cmath>

namespace windscope::render {

namespace {

QString tr(const char* text) { return QCoreApplication::translate("Report", text); }

QString escaped(const QString& s) { return s.toHtmlEscaped(); }

constexpr double kTableFontPt = 7;
constexpr double kCellPadding = 3;     // px each side, as the style sheet's padding

QString utcText(std::int64_t epochNs)
{
    return QDateTime::fromMSecsSinceEpoch(epochNs / 1'000'000, Qt::UTC).toString(QStringLiteral("yyyy-MM-dd HH:mm:ss.zzz 'UTC'"));
}

// widths: per column of t, in px; empty leaves the widths to the browser.
QString tableHtml(const TextTable& t, const QList<int>& columns, const QString& id, const std::vector<double>& widths)
{
    QString html = QStringLiteral("<table id=\"%1\" border=\"1\" cellspacing=\"0\" cellpadding=\"%2\">\n<thead><tr>")
                       .arg(id)
                       .arg(kCellPadding);
    for (int c : columns)
        html += widths.empty() ? QStringLiteral("<th>%1</th>").arg(escaped(t.headers[c]))
                               : QStringLiteral("<th width=\"%2\">%1</th>")
                                     .arg(escaped(t.headers[c]))
                                     .arg(static_cast<int>(std::ceil(widths[static_cast<std::size_t>(c)])));
    html += QStringLiteral("</tr></thead>\n<tbody>\n");
    for (const QStringList& row : t.rows) {
        html += QStringLiteral("<tr>");
        for (int c : columns)
            html += (t.text[static_cast<std::size_t>(c)] ? QStringLiteral("<td style=\"white-space:nowrap\">")
                                                        : QStringLiteral("<td align=\"right\" style=\"white-space:nowrap\">")) +
                    escaped(row[c]) + QStringLiteral("</td>");
        html += QStringLiteral("</tr>\n");
    }
    html += QStringLiteral("</tbody></table>\n");
    return html;
}

// Each column as wide as its longest cell and its longest header word (a header may wrap
// between words, never inside one), in px at 96 dpi.
std::vector<double> columnWidths(const TextTable& t)
{
    QFont font(QStringLiteral("sans-serif"));
    font.setPointSizeF(kTableFontPt);
    QFont bold = font;
    bold.setBold(true);
    QImage device(1, 1, QImage::Format_ARGB32_Premultiplied);
    const QFontMetricsF cell(font, &device), header(bold, &device);
    std::vector<double> widths;
    for (int c = 0; c < t.headers.size(); ++c) {
        double w = 0;
        for (const QString& word : t.headers[c].split(QLatin1Char(' '), Qt::SkipEmptyParts))
            w = std::max(w, header.horizontalAdvance(word));
        for (const QStringList& row : t.rows)
            w = std::max(w, cell.horizontalAdvance(row[c]));
        // The cell's width attribute covers the padding both sides; a margin for the text
        // layout's rounding.
        widths.push_back(std::ceil(w * 1.08 + 2 * kCellPadding + 4));
    }
    return widths;
}

// Column groups that fit widthPx; the key columns start every group so each row can be
// read on its own.
QList<QList<int>> columnGroups(const TextTable& t, const std::vector<double>& widths, const QList<int>& keys,
                               double widthPx)
{
    // Qt's table layout adds a border and spacing of a few pixels to each cell.
    auto cellWidth = [&](int c) { return widths[static_cast<std::size_t>(c)] + 4; };
    widthPx *= 0.97;
    double keyWidth = 2;
    for (int k : keys)
        keyWidth += cellWidth(k);
    QList<QList<int>> groups;
    QList<int> group = keys;
    double used = keyWidth;
    for (int c = 0; c < t.headers.size(); ++c) {
        if (keys.contains(c))
            continue;
        const double w = cellWidth(c);
        if (group.size() > keys.size() && used + w > widthPx) {
            groups << group;
            group = keys;
            used = keyWidth;
        }
        group << c;
        used += w;
    }
    if (group.size() > keys.size() || groups.isEmpty())
        groups << group;
    return groups;
}

QString tablesHtml(const TextTable& t, const QList<int>& keys, double textWidthPx)
{
    QList<int> all;
    for (int c = 0; c < t.headers.size(); ++c)
        all << c;
    if (textWidthPx <= 0)
        return tableHtml(t, all, t.id, {});
    // Fixed widths: Qt's table layout would otherwise share the width out by content and
    // squeeze a header below its longest word.
    const std::vector<double> widths = columnWidths(t);
    const QList<QList<int>> groups = columnGroups(t, widths, keys, textWidthPx);
    QString html;
    for (int g = 0; g < groups.size(); ++g) {
        if (groups.size() > 1)
            html += QStringLiteral("<p class=\"part\">%1</p>\n").arg(tr("Columns, part %1 of %2").arg(g + 1).arg(groups.size()));
        html += tableHtml(t, groups[g], g == 0 ? t.id : QStringLiteral("%1-%2").arg(t.id).arg(g + 1), widths);
    }
    return html;
}

QString summaryHtml(const AnalysisBundle& c)
{
    const dissect::CaptureSummary& s = c.tables.summary;
    QStringList links;
    for (int type : s.linkTypes)
        links << QString::fromStdString(dissect::linkTypeName(type));
    auto row = [](const QString& key, const QString& value) {
        return QStringLiteral("<tr><th align=\"left\">%1</th><td>%2</td></tr>\n").arg(escaped(key), escaped(value));
    };
    QString html = QStringLiteral("<table id=\"summary\" border=\"0\" cellspacing=\"0\" cellpadding=\"2\">\n");
    html += row(tr("File"), QString::fromStdString(s.path));
    html += row(tr("Packets"), QString::number(s.packets));
    html += row(tr("First packet"), utcText(s.firstEpochNs));
    html += row(tr("Duration"), tr("%1 s").arg(static_cast<double>(s.lastEpochNs - s.firstEpochNs) / 1e9, 0, 'f', 3));
    html += row(tr("Link types"), links.join(QStringLiteral(", ")));
    html += row(tr("802.11 frames"), QString::number(s.wlanFrames));
    html += row(tr("TCP segments"), QString::number(s.tcpSegments));
    html += row(tr("TCP connections"), QString::number(c.tcp.connections.size()));
    html += row(tr("Access points"), QString::number(c.inventory.accessPoints.size()));
    html += row(tr("Stations"), QString::number(c.inventory.stations.size()));
    html += row(tr("802.11 events"), QString::number(c.events.size()));
    if (s.malformedPackets)
        html += row(tr("Malformed packets"), QString::number(s.malformedPackets));
    for (const std::string& w : s.warnings)
        html += row(tr("Warning"), QString::fromStdString(w));
    for (const std::string& n : c.correlation.notes)
        html += row(tr("Note"), QString::fromStdString(n));
    html += QStringLiteral("</table>\n");
    return html;
}

QList<int> chosenConnections(const AnalysisBundle& c, const ReportOptions& options)
{
    QList<int> chosen;
    for (int k : options.connections)
        if (k >= 0 && static_cast<std::size_t>(k) < c.tcp.connections.size() && !chosen.contains(k))
            chosen << k;
    if (options.connections.isEmpty()) {
        const Selection s = mostAffected(c);
        if (s.connection >= 0)
            chosen << s.connection;
    }
    return chosen;
}

QPageLayout pageLayoutFor(Paper paper)
{
    return QPageLayout(QPageSize(paper == Paper::Letter ? QPageSize::Letter : QPageSize::A4), QPageLayout::Portrait,
                       QMarginsF(15, 15, 15, 15), QPageLayout::Millimeter);
}

} // namespace

std::optional<Paper> paperFromName(const QString& name)
{
    if (name.compare(QLatin1String("a4"), Qt::CaseInsensitive) == 0)
        return Paper::A4;
    if (name.compare(QLatin1String("letter"), Qt::CaseInsensitive) == 0)
        return Paper::Letter;
    return std::nullopt;
}

ExportPreset defaultReportPreset() { return *exportPreset(QStringLiteral("double-column-colour")); }

std::optional<ReportFormat> reportFormatFor(const QString& path)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("html") || suffix == QLatin1String("htm"))
        return ReportFormat::Html;
    if (suffix == QLatin1String("pdf"))
        return ReportFormat::Pdf;
    return std::nullopt;
}

namespace {
// Every product a report shows (the stages up to the correlation are computed on first
// use; the cwnd of a drawn connection when its figure asks for it).
const AnalysisBundle& reportProducts(const CapturePipeline& pipeline)
{
    pipeline.correlation();
    return pipeline.products();
}
} // namespace

QList<ReportFigure> reportFigures(const CapturePipeline& pipeline, const ReportOptions& options, double widthMm)
{
    const AnalysisBundle& c = reportProducts(pipeline);
    QList<ReportFigure> figures;
    if (!options.figures)
        return figures;
    FigureOptions figure;
    figure.plots = options.plots;
    figure.preset = options.preset;
    if (widthMm > 0)
        figure.preset.widthMm = widthMm;
    const analysis::SeriesInputs in{c.tables, c.tcp, &pipeline, &c.inventory, &c.events};
    for (int k : chosenConnections(c, options)) {
        const analysis::ConnectionSeries series = analysis::buildConnectionSeries(in, static_cast<std::size_t>(k));
        const QString name = tr("Connection %1 (%2)").arg(k).arg(connectionText(c, static_cast<std::size_t>(k)));
        figure.range.reset();
        figure.highlightedEvent = -1;
        figures.push_back({ConnectionFigure(series, figure).image(), tr("%1, whole connection").arg(name)});
        const int event = options.eventFigures ? worstEventOf(c, k) : -1;
        if (event >= 0) {
            const analysis::WlanEvent& e = c.events.at(static_cast<std::size_t>(event));
            figure.range = eventRange(e);
            figure.highlightedEvent = static_cast<long long>(e.id);
            figures.push_back({ConnectionFigure(series, figure).image(),
                               tr("%1 at event %2 (%3, %4 ms from %5 s), the one that affected it most")
                                   .arg(name)
                                   .arg(e.id)
                                   .arg(QString::fromLatin1(analysis::eventKindName(e.kind)))
                                   .arg(static_cast<double>(e.endNs - e.startNs) / 1e6, 0, 'f', 1)
                                   .arg(static_cast<double>(e.startNs) / 1e9, 0, 'f', 3)});
        }
    }
    return figures;
}

QString reportHtml(const CapturePipeline& pipeline, const ReportOptions& options, const QList<ReportFigure>& figures,
                   const std::function<QString(int)>& imageSource, double textWidthMm, double pageHeightMm)
{
    const AnalysisBundle& c = reportProducts(pipeline);
    const bool paged = textWidthMm > 0;
    const double textWidthPx = mmToLogical(textWidthMm);
    const QString file = QFileInfo(QString::fromStdString(c.tables.summary.path)).fileName();
    const QString title = options.title.isEmpty() ? tr("Windscope report: %1").arg(file) : options.title;
    QString html = QStringLiteral(
                       "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>%1</title>\n"
                       "<style>body{font-family:sans-serif;font-size:10pt} table{border-collapse:collapse;font-size:%2pt}"
                       " th{background:#e8e8e8;font-weight:bold} td,th{padding:%3px} img{max-width:100%;height:auto}"
                       " .caption{font-style:italic;font-size:9pt} .part{font-size:8pt;color:#555}</style></head>\n<body>\n")
                       .arg(escaped(title))
                       .arg(kTableFontPt)
                       .arg(kCellPadding);
    html += QStringLiteral("<h1>%1</h1>\n").arg(escaped(title));
    html += QStringLiteral("<p>%1</p>\n").arg(escaped(tr("Windscope %1, %2").arg(QStringLiteral(WINDSCOPE_VERSION), QDateTime::currentDateTimeUtc().toString(Qt::ISODate))));

    html += QStringLiteral("<h2>%1</h2>\n").arg(tr("Capture"));
    html += summaryHtml(c);

    const TextTable connections = connectionTable(c);
    html += QStringLiteral("<h2>%1</h2>\n").arg(tr("TCP connections (%1)").arg(connections.rows.size()));
    html += QStringLiteral("<p>%1</p>\n").arg(escaped(tr("Statistics of each connection's data direction.")));
    html += tablesHtml(connections, {connection_column::Id}, paged ? textWidthPx : 0);

    const TextTable events = eventTable(c);
    html += QStringLiteral("<h2>%1</h2>\n").arg(tr("802.11 events (%1)").arg(events.rows.size()));
    if (!events.rows.empty())
        html += tablesHtml(events, {event_column::Id}, paged ? textWidthPx : 0);
    else
        html += QStringLiteral("<p>%1</p>\n").arg(tr("No 802.11 events were found."));

    const TextTable correlation = correlationTable(c);
    html += QStringLiteral("<h2>%1</h2>\n").arg(tr("Events and the connections they affected (%1)").arg(correlation.rows.size()));
    if (!correlation.rows.empty()) {
        html += QStringLiteral("<p>%1</p>\n")
                    .arg(escaped(tr("Throughput is delivered data (cumulative ACK advance); recovery is the time "
                                    "until it was back to 90% of its level before the event; cwnd is the data "
                                    "sender's inferred congestion window.")));
        html += tablesHtml(correlation, {correlation_column::Event, correlation_column::Connection}, paged ? textWidthPx : 0);
    } else {
        html += QStringLiteral("<p>%1</p>\n").arg(tr("No event touched a TCP connection."));
    }

    if (!figures.isEmpty()) {
        // On pages, each figure starts one: the first with the heading.
        html += (paged ? QStringLiteral("<h2 style=\"page-break-before:always\">%1</h2>\n") : QStringLiteral("<h2>%1</h2>\n"))
                    .arg(tr("Figures"));
        for (int i = 0; i < figures.size(); ++i) {
            const QImage& image = figures[i].image;
            // Shown at its print size: pixels at the preset's resolution, 96 per inch in
            // HTML; on a page, the text width, smaller only when it would not fit the page.
            double width = image.width() * kLogicalDpi / options.preset.dpi;
            double height = image.height() * kLogicalDpi / options.preset.dpi;
            if (paged) {
                height *= textWidthPx / width;
                width = textWidthPx;
                const double maxHeight = mmToLogical(pageHeightMm - (i == 0 ? 30 : 20));
                if (height > maxHeight) {
                    width *= maxHeight / height;
                    height = maxHeight;
                }
            }
            html += (paged && i > 0 ? QStringLiteral("<p style=\"page-break-before:always\">") : QStringLiteral("<p>"));
            html += QStringLiteral("<img src=\"%1\" width=\"%2\" height=\"%5\" alt=\"%3\"><br>\n<span class=\"caption\">%4</span></p>\n")
                        .arg(imageSource(i))
                        .arg(static_cast<int>(std::floor(width)))
                        .arg(escaped(figures[i].caption), escaped(tr("Figure %1: %2").arg(i + 1).arg(figures[i].caption)))
                        .arg(static_cast<int>(std::floor(height)));
        }
    }
    html += QStringLiteral("</body></html>\n");
    return html;
}

bool writeReport(const CapturePipeline& capture, const ReportOptions& options, const QString& path, QString* error)
{
    auto fail = [&](const QString& message) {
        if (error)
            *error = message;
        return false;
    };
    const std::optional<ReportFormat> format = reportFormatFor(path);
    if (!format)
        return fail(tr("%1: unknown report format (use .html or .pdf)").arg(path));

    if (*format == ReportFormat::Html) {
        const QList<ReportFigure> figures = reportFigures(capture, options);
        for (const ReportFigure& f : figures)
            if (f.image.isNull())
                return fail(tr("%1: the figure could not be drawn").arg(f.caption));
        const QString html = reportHtml(capture, options, figures, [&](int i) {
            QByteArray png;
            QBuffer buffer(&png);
            buffer.open(QIODevice::WriteOnly);
            figures[i].image.save(&buffer, "PNG");
            return QStringLiteral("data:image/png;base64,") + QString::fromLatin1(png.toBase64());
        });
        QFile out(path);
        if (!out.open(QIODevice::WriteOnly | QIODevice::Truncate))
            return fail(tr("%1: could not open for writing (%2)").arg(path, out.errorString()));
        const QByteArray bytes = html.toUtf8();
        if (out.write(bytes) != bytes.size() || !out.flush())
            return fail(tr("%1: write failed (%2)").arg(path, out.errorString()));
        return true;
    }

    // PDF: portrait pages; figures drawn at the text width so their fonts keep the
    // preset's point size, tables split into column groups that fit it.
    const QPageLayout page = pageLayoutFor(options.paper);
    const QRectF printable = page.paintRect(QPageLayout::Millimeter);
    const QList<ReportFigure> figures = reportFigures(capture, options, printable.width());
    for (const ReportFigure& f : figures)
        if (f.image.isNull())
            return fail(tr("%1: the figure could not be drawn").arg(f.caption));
    QTextDocument document;
    QFont font(QStringLiteral("sans-serif"));
    font.setPointSizeF(10);
    document.setDefaultFont(font);
    document.setDocumentMargin(0);
    for (int i = 0; i < figures.size(); ++i)
        document.addResource(QTextDocument::ImageResource, QUrl(QStringLiteral("figure-%1.png").arg(i + 1)),
                             figures[i].image);
    document.setHtml(reportHtml(
        capture, options, figures, [](int i) { return QStringLiteral("figure-%1.png").arg(i + 1); }, printable.width(),
        printable.height()));
    // Laid out on pages of the printable area in 96-dpi units, the unit the figure sizes
    // are given in; print() scales them onto the PDF's pages.
    document.setPageSize(QSizeF(mmToLogical(printable.width()), mmToLogical(printable.height())));
    {
        QFile probe(path);
        if (!probe.open(QIODevice::WriteOnly | QIODevice::Truncate))
            return fail(tr("%1: could not open for writing (%2)").arg(path, probe.errorString()));
    }
    QPdfWriter writer(path);
    writer.setCreator(QStringLiteral("Windscope"));
    writer.setTitle(options.title.isEmpty() ? tr("Windscope report") : options.title);
    writer.setPageLayout(page);
    document.print(&writer);
    if (QFileInfo(path).size() == 0)
        return fail(tr("%1: could not write the PDF file").arg(path));
    return true;
}

} // namespace windscope::render
