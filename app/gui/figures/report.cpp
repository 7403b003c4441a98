// SPDX-License-Identifier: GPL-3.0-or-later
#include "report.h"

#include "dissectors/dissector_set.h"
#include "model/capture_analysis.h"
#include "model/connection_table_model.h"
#include "model/correlation_table_model.h"
#include "model/event_table_model.h"
#include "windscope/version.h"

#include <QBuffer>
#include <QDateTime>
#include <QFile>
#include <QFileInfo>
#include <QPageSize>
#include <QPdfWriter>
#include <QTextDocument>
#include <QUrl>

namespace windscope::gui {

namespace {

constexpr double kLogicalDpi = 96.0;

QString escaped(const QString& s) { return s.toHtmlEscaped(); }

// A table model as an HTML table: its header and display text, aligned as in the view.
QString tableHtml(const QAbstractItemModel& model, const QString& id)
{
    QString html =
        QStringLiteral("<table id=\"%1\" width=\"100%\" border=\"1\" cellspacing=\"0\" cellpadding=\"2\">\n<thead><tr>").arg(id);
    for (int c = 0; c < model.columnCount(); ++c)
        html += QStringLiteral("<th>%1</th>").arg(escaped(model.headerData(c, Qt::Horizontal).toString()));
    html += QStringLiteral("</tr></thead>\n<tbody>\n");
    for (int r = 0; r < model.rowCount(); ++r) {
        html += QStringLiteral("<tr>");
        for (int c = 0; c < model.columnCount(); ++c) {
            const QModelIndex index = model.index(r, c);
            const auto align = Qt::Alignment(index.data(Qt::TextAlignmentRole).toInt());
            html += (align & Qt::AlignRight) ? QStringLiteral("<td align=\"right\" style=\"white-space:nowrap\">")
                                             : QStringLiteral("<td style=\"white-space:nowrap\">");
            html += escaped(index.data().toString()) + QStringLiteral("</td>");
        }
        html += QStringLiteral("</tr>\n");
    }
    html += QStringLiteral("</tbody></table>\n");
    return html;
}

QString utcText(std::int64_t epochNs)
{
    return QDateTime::fromMSecsSinceEpoch(epochNs / 1'000'000, Qt::UTC).toString(QStringLiteral("yyyy-MM-dd HH:mm:ss.zzz 'UTC'"));
}

QString summaryHtml(const CaptureAnalysis& c)
{
    const dissect::CaptureSummary& s = c.tables.summary;
    QStringList links;
    for (int type : s.linkTypes)
        links << QString::fromStdString(dissect::linkTypeName(type));
    auto row = [](const QString& key, const QString& value) {
        return QStringLiteral("<tr><th align=\"left\">%1</th><td>%2</td></tr>\n").arg(escaped(key), escaped(value));
    };
    QString html = QStringLiteral("<table id=\"summary\" border=\"0\" cellspacing=\"0\" cellpadding=\"2\">\n");
    html += row(QObject::tr("File"), QString::fromStdString(s.path));
    html += row(QObject::tr("Packets"), QString::number(s.packets));
    html += row(QObject::tr("First packet"), utcText(s.firstEpochNs));
    html += row(QObject::tr("Duration"), QObject::tr("%1 s").arg(static_cast<double>(s.lastEpochNs - s.firstEpochNs) / 1e9, 0, 'f', 3));
    html += row(QObject::tr("Link types"), links.join(QStringLiteral(", ")));
    html += row(QObject::tr("802.11 frames"), QString::number(s.wlanFrames));
    html += row(QObject::tr("TCP segments"), QString::number(s.tcpSegments));
    html += row(QObject::tr("TCP connections"), QString::number(c.tcp.connections.size()));
    html += row(QObject::tr("Access points"), QString::number(c.inventory.accessPoints.size()));
    html += row(QObject::tr("Stations"), QString::number(c.inventory.stations.size()));
    html += row(QObject::tr("802.11 events"), QString::number(c.events.events.size()));
    if (s.malformedPackets)
        html += row(QObject::tr("Malformed packets"), QString::number(s.malformedPackets));
    for (const std::string& w : s.warnings)
        html += row(QObject::tr("Warning"), QString::fromStdString(w));
    for (const std::string& n : c.correlation.notes)
        html += row(QObject::tr("Note"), QString::fromStdString(n));
    html += QStringLiteral("</table>\n");
    return html;
}

// The event that hurt a connection most (by impactScore), -1 for none.
int worstEventOf(const CaptureAnalysis& c, int connection)
{
    int best = -1;
    double bestScore = -1;
    for (std::size_t e = 0; e < c.correlation.impacts.size() && e < c.events.events.size(); ++e)
        for (const analysis::ConnectionImpact& m : c.correlation.impacts[e].connections) {
            if (static_cast<int>(m.connection) != connection)
                continue;
            const double score = analysis::impactScore(m);
            if (score > bestScore) {
                bestScore = score;
                best = static_cast<int>(e);
            }
        }
    return best;
}

QList<int> chosenConnections(const CaptureAnalysis& c, const ReportOptions& options)
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

} // namespace

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

QList<ReportFigure> reportFigures(const std::shared_ptr<const CaptureAnalysis>& capture, const ReportOptions& options)
{
    QList<ReportFigure> figures;
    if (!options.figures)
        return figures;
    const CaptureAnalysis& c = *capture;
    for (int k : chosenConnections(c, options)) {
        FigureRequest request;
        request.connection = static_cast<std::size_t>(k);
        request.plots = options.plots;
        request.preset = options.preset;
        const QString name = QObject::tr("Connection %1 (%2)").arg(k).arg(connectionText(c, static_cast<std::size_t>(k)));
        figures.push_back({ConnectionFigure(capture, request).image(), QObject::tr("%1, whole connection").arg(name)});
        const int event = options.eventFigures ? worstEventOf(c, k) : -1;
        if (event >= 0) {
            request.event = event;
            const analysis::WlanEvent& e = c.events.events[static_cast<std::size_t>(event)];
            figures.push_back({ConnectionFigure(capture, request).image(),
                               QObject::tr("%1 at event %2 (%3, %4 ms from %5 s), the one that affected it most")
                                   .arg(name)
                                   .arg(e.id)
                                   .arg(QString::fromLatin1(analysis::eventKindName(e.kind)))
                                   .arg(static_cast<double>(e.endNs - e.startNs) / 1e6, 0, 'f', 1)
                                   .arg(static_cast<double>(e.startNs) / 1e9, 0, 'f', 3)});
        }
    }
    return figures;
}

QString reportHtml(const std::shared_ptr<const CaptureAnalysis>& capture, const ReportOptions& options,
                   const QList<ReportFigure>& figures, const std::function<QString(int)>& imageSource,
                   double pageHeightMm)
{
    const CaptureAnalysis& c = *capture;
    const QString file = QFileInfo(QString::fromStdString(c.tables.summary.path)).fileName();
    const QString title = options.title.isEmpty() ? QObject::tr("Windscope report: %1").arg(file) : options.title;
    QString html = QStringLiteral(
                       "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>%1</title>\n"
                       "<style>body{font-family:sans-serif;font-size:10pt} table{border-collapse:collapse;font-size:8pt}"
                       " th{background:#e8e8e8} td,th{padding:2px 4px} img{max-width:100%;height:auto}"
                       " .caption{font-style:italic;font-size:9pt}</style></head>\n<body>\n")
                       .arg(escaped(title));
    html += QStringLiteral("<h1>%1</h1>\n").arg(escaped(title));
    html += QStringLiteral("<p>%1</p>\n").arg(escaped(QObject::tr("Windscope %1, %2").arg(QStringLiteral(WINDSCOPE_VERSION), QDateTime::currentDateTimeUtc().toString(Qt::ISODate))));

    html += QStringLiteral("<h2>%1</h2>\n").arg(QObject::tr("Capture"));
    html += summaryHtml(c);

    ConnectionTableModel connections;
    connections.setCapture(capture);
    html += QStringLiteral("<h2>%1</h2>\n").arg(QObject::tr("TCP connections (%1)").arg(connections.rowCount()));
    html += QStringLiteral("<p>%1</p>\n").arg(escaped(QObject::tr("Statistics of each connection's data direction.")));
    html += tableHtml(connections, QStringLiteral("connections"));

    EventTableModel events;
    events.setCapture(capture);
    html += QStringLiteral("<h2>%1</h2>\n").arg(QObject::tr("802.11 events (%1)").arg(events.rowCount()));
    if (events.rowCount())
        html += tableHtml(events, QStringLiteral("events"));
    else
        html += QStringLiteral("<p>%1</p>\n").arg(QObject::tr("No 802.11 events were found."));

    CorrelationTableModel correlation;
    correlation.setCapture(capture);
    html += QStringLiteral("<h2>%1</h2>\n").arg(QObject::tr("Events and the connections they affected (%1)").arg(correlation.rowCount()));
    if (correlation.rowCount()) {
        html += QStringLiteral("<p>%1</p>\n")
                    .arg(escaped(QObject::tr("Throughput is delivered data (cumulative ACK advance); recovery is the time "
                                             "until it was back to 90% of its level before the event; cwnd is the data "
                                             "sender's inferred congestion window.")));
        html += tableHtml(correlation, QStringLiteral("correlation"));
    } else {
        html += QStringLiteral("<p>%1</p>\n").arg(QObject::tr("No event touched a TCP connection."));
    }

    if (!figures.isEmpty()) {
        // On pages, each figure starts one: the first with the heading.
        html += (pageHeightMm > 0 ? QStringLiteral("<h2 style=\"page-break-before:always\">%1</h2>\n")
                                  : QStringLiteral("<h2>%1</h2>\n"))
                    .arg(QObject::tr("Figures"));
        for (int i = 0; i < figures.size(); ++i) {
            const QImage& image = figures[i].image;
            // Shown at its print size: pixels at the preset's resolution, 96 per inch in HTML;
            // on a page, scaled down to leave room for the caption when it is taller.
            double width = image.width() * kLogicalDpi / options.preset.dpi;
            double height = image.height() * kLogicalDpi / options.preset.dpi;
            const double maxHeight = (pageHeightMm - (i == 0 ? 25 : 15)) / 25.4 * kLogicalDpi;
            if (pageHeightMm > 0 && height > maxHeight) {
                width *= maxHeight / height;
                height = maxHeight;
            }
            html += (pageHeightMm > 0 && i > 0 ? QStringLiteral("<p style=\"page-break-before:always\">") : QStringLiteral("<p>"));
            html += QStringLiteral("<img src=\"%1\" width=\"%2\" height=\"%5\" alt=\"%3\"><br>\n<span class=\"caption\">%4</span></p>\n")
                        .arg(imageSource(i))
                        .arg(static_cast<int>(std::lround(width)))
                        .arg(escaped(figures[i].caption), escaped(QObject::tr("Figure %1: %2").arg(i + 1).arg(figures[i].caption)))
                        .arg(static_cast<int>(std::lround(height)));
        }
    }
    html += QStringLiteral("</body></html>\n");
    return html;
}

bool writeReport(const std::shared_ptr<const CaptureAnalysis>& capture, const ReportOptions& options,
                 const QString& path, QString* error)
{
    auto fail = [&](const QString& message) {
        if (error)
            *error = message;
        return false;
    };
    const std::optional<ReportFormat> format = reportFormatFor(path);
    if (!format)
        return fail(QObject::tr("%1: unknown report format (use .html or .pdf)").arg(path));
    const QList<ReportFigure> figures = reportFigures(capture, options);
    for (const ReportFigure& f : figures)
        if (f.image.isNull())
            return fail(QObject::tr("%1: the figure could not be drawn").arg(f.caption));

    if (*format == ReportFormat::Html) {
        const QString html = reportHtml(capture, options, figures, [&](int i) {
            QByteArray png;
            QBuffer buffer(&png);
            buffer.open(QIODevice::WriteOnly);
            figures[i].image.save(&buffer, "PNG");
            return QStringLiteral("data:image/png;base64,") + QString::fromLatin1(png.toBase64());
        }, 0);
        QFile out(path);
        if (!out.open(QIODevice::WriteOnly | QIODevice::Truncate))
            return fail(QObject::tr("%1: could not open for writing (%2)").arg(path, out.errorString()));
        const QByteArray bytes = html.toUtf8();
        if (out.write(bytes) != bytes.size() || !out.flush())
            return fail(QObject::tr("%1: write failed (%2)").arg(path, out.errorString()));
        return true;
    }

    // PDF: the same HTML, figures as document resources, paginated on A4 landscape (the
    // tables are wide).
    QTextDocument document;
    QFont font = document.defaultFont();
    font.setPointSizeF(10);
    document.setDefaultFont(font);
    for (int i = 0; i < figures.size(); ++i)
        document.addResource(QTextDocument::ImageResource, QUrl(QStringLiteral("figure-%1.png").arg(i + 1)),
                             figures[i].image);
    const QPageLayout page(QPageSize(QPageSize::A4), QPageLayout::Landscape, QMarginsF(12, 12, 12, 12),
                           QPageLayout::Millimeter);
    document.setHtml(reportHtml(
        capture, options, figures, [](int i) { return QStringLiteral("figure-%1.png").arg(i + 1); },
        page.paintRect(QPageLayout::Millimeter).height()));
    // Laid out on pages of the printable area in 96-dpi units, the unit the figure sizes
    // are given in; print() scales them onto the PDF's pages.
    const QRectF printable = page.paintRect(QPageLayout::Millimeter);
    document.setPageSize(QSizeF(printable.width() / 25.4 * kLogicalDpi, printable.height() / 25.4 * kLogicalDpi));
    {
        QFile probe(path);
        if (!probe.open(QIODevice::WriteOnly | QIODevice::Truncate))
            return fail(QObject::tr("%1: could not open for writing (%2)").arg(path, probe.errorString()));
    }
    QPdfWriter writer(path);
    writer.setCreator(QStringLiteral("Windscope"));
    writer.setTitle(options.title.isEmpty() ? QObject::tr("Windscope report") : options.title);
    writer.setPageLayout(page);
    document.print(&writer);
    if (QFileInfo(path).size() == 0)
        return fail(QObject::tr("%1: could not write the PDF file").arg(path));
    return true;
}

} // namespace windscope::gui
