// SPDX-License-Identifier: GPL-3.0-or-later
// windscope-cli export run as a script would: figures in each format and preset checked
// as files (dimensions, drawn content, SVG structure, PDF per pdfinfo), the series CSV
// against `windscope-cli series` and the analysis, reports against the analysis run
// independently here, and the errors a user gets for bad input.

#include "analysis/cwnd/cwnd_inference.h"
#include "sample_reference.h"
#include "analysis/wlan/wlan_correlation.h"
#include "dissectors/ingest.h"

#include <QDir>
#include <QFile>
#include <QImage>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#include <QXmlStreamReader>

#include <cmath>

using namespace windscope;

namespace {

using Reference = test::SampleReference;
const Reference& reference() { return test::sampleReference(); }

struct Run
{
    int status = -1;
    QByteArray out, err;
};

Run cli(const QStringList& args)
{
    QProcess p;
    p.start(QStringLiteral(WINDSCOPE_CLI), args);
    Run r;
    if (!p.waitForFinished(120000))
        return r;
    r.status = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    return r;
}

QStringList exportArgs(const QString& what, const QStringList& more)
{
    return QStringList{QStringLiteral("export"), what, QStringLiteral(WINDSCOPE_SAMPLE_CAPTURE)} + more;
}

// Pixel width of a preset: its width in 96-dpi layout units, rendered at 300 dpi.
int presetWidth(double mm) { return static_cast<int>(std::lround(static_cast<double>(std::lround(mm / 25.4 * 96)) * 300 / 96.0)); }

double darkShare(const QImage& image)
{
    qsizetype dark = 0, all = 0;
    for (int y = 0; y < image.height(); y += 2)
        for (int x = 0; x < image.width(); x += 2, ++all)
            dark += qGray(image.pixel(x, y)) < 128;
    return static_cast<double>(dark) / static_cast<double>(all);
}

bool havePdfinfo()
{
    const QString p = QStringLiteral(WINDSCOPE_PDFINFO);
    return !p.isEmpty() && !p.endsWith(QLatin1String("NOTFOUND"));
}

QString pdfinfo(const QString& path)
{
    QProcess p;
    p.start(QStringLiteral(WINDSCOPE_PDFINFO), {path});
    if (!p.waitForFinished(30000) || p.exitCode() != 0)
        return {};
    return QString::fromUtf8(p.readAllStandardOutput());
}

int pdfPages(const QString& info)
{
    const QRegularExpressionMatch m = QRegularExpression(QStringLiteral("Pages:\\s+(\\d+)")).match(info);
    return m.hasMatch() ? m.captured(1).toInt() : -1;
}

// Rows of the <tbody> of the table with the given id, each as its cells' text.
QList<QStringList> htmlTable(const QString& html, const QString& id)
{
    QList<QStringList> rows;
    const qsizetype start = html.indexOf(QStringLiteral("<table id=\"%1\"").arg(id));
    if (start < 0)
        return rows;
    const qsizetype body = html.indexOf(QLatin1String("<tbody>"), start);
    const qsizetype end = html.indexOf(QLatin1String("</table>"), start);
    const QString part = html.mid(body, end - body);
    static const QRegularExpression row(QStringLiteral("<tr>(.*?)</tr>"));
    static const QRegularExpression cell(QStringLiteral("<td[^>]*>(.*?)</td>"));
    for (auto r = row.globalMatch(part); r.hasNext();) {
        QStringList cells;
        const QString text = r.next().captured(1);
        for (auto c = cell.globalMatch(text); c.hasNext();)
            cells << c.next().captured(1);
        rows << cells;
    }
    return rows;
}

} // namespace

class CliExportTest : public QObject
{
    Q_OBJECT

private slots:
    void figurePngPresets()
    {
        QTemporaryDir dir;
        const QString single = dir.filePath(QStringLiteral("single.png"));
        Run r = cli(exportArgs(QStringLiteral("figure"), {QStringLiteral("--flow"), QStringLiteral("0"), QStringLiteral("-o"), single}));
        QVERIFY2(r.status == 0, r.err.constData());
        QImage image(single);
        QVERIFY(!image.isNull());
        QCOMPARE(image.width(), presetWidth(85));
        QVERIFY(image.height() > image.width()); // five plots stacked
        QVERIFY(std::abs(image.dotsPerMeterX() - static_cast<int>(std::lround(300 / 0.0254))) <= 1);
        QVERIFY2(darkShare(image) > 0.005, "the single-column PNG is nearly blank");

        const QString dbl = dir.filePath(QStringLiteral("double.png"));
        r = cli(exportArgs(QStringLiteral("figure"), {QStringLiteral("--flow"), QStringLiteral("0"), QStringLiteral("--preset"),
                                                      QStringLiteral("double-column"), QStringLiteral("-o"), dbl}));
        QVERIFY2(r.status == 0, r.err.constData());
        QImage wide(dbl);
        QCOMPARE(wide.width(), presetWidth(175));
        QVERIFY2(darkShare(wide) > 0.005, "the double-column PNG is nearly blank");

        // One plot: the same width, a fraction of the stack's height.
        const QString one = dir.filePath(QStringLiteral("rtt.png"));
        r = cli(exportArgs(QStringLiteral("figure"), {QStringLiteral("--flow"), QStringLiteral("0"), QStringLiteral("--plot"),
                                                      QStringLiteral("rtt"), QStringLiteral("-o"), one}));
        QVERIFY2(r.status == 0, r.err.constData());
        QImage rtt(one);
        QCOMPARE(rtt.width(), presetWidth(85));
        QVERIFY(rtt.height() < image.height() / 3);
        QVERIFY(darkShare(rtt) > 0.005);
    }

    void figureSvgContainsThePlot()
    {
        QTemporaryDir dir;
        const QString svg = dir.filePath(QStringLiteral("ts.svg"));
        const Run r = cli(exportArgs(QStringLiteral("figure"), {QStringLiteral("--flow"), QStringLiteral("0"), QStringLiteral("--plot"),
                                                                QStringLiteral("time-sequence"), QStringLiteral("-o"), svg}));
        if (r.status != 0 && r.err.contains("Qt SVG"))
            QSKIP("this build has no Qt SVG");
        QVERIFY2(r.status == 0, r.err.constData());
        QFile f(svg);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QXmlStreamReader xml(&f);
        int paths = 0, clipPaths = 0;
        QStringList texts;
        while (!xml.atEnd()) {
            if (xml.readNext() == QXmlStreamReader::StartElement) {
                paths += xml.name() == QLatin1String("path") || xml.name() == QLatin1String("polyline");
                clipPaths += xml.name() == QLatin1String("clipPath");
                if (xml.name() == QLatin1String("text"))
                    texts << xml.readElementText(QXmlStreamReader::IncludeChildElements);
            }
        }
        QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
        QVERIFY(paths > 20);
        QVERIFY2(clipPaths >= 1, "the SVG has no clip path: series would run outside the axes");
        // The time-sequence plot: its axis titles (the unit follows the magnitude) and legend.
        QVERIFY2(texts.indexOf(QRegularExpression(QStringLiteral("^relative sequence \\((B|kB|MB|GB)\\)$"))) >= 0,
                 qPrintable(texts.join(QLatin1Char('|'))));
        QVERIFY(texts.contains(QStringLiteral("time since capture start (s)")));
        QVERIFY(texts.contains(QStringLiteral("retransmission")));
    }

    void figurePdfValid()
    {
        QTemporaryDir dir;
        const QString pdf = dir.filePath(QStringLiteral("event.pdf"));
        // Zoomed to the handoff, by event id alone: the connection it hurt is chosen.
        const Run r = cli(exportArgs(QStringLiteral("figure"), {QStringLiteral("--event"), QStringLiteral("30"), QStringLiteral("--preset"),
                                                                QStringLiteral("double-column"), QStringLiteral("-o"), pdf}));
        QVERIFY2(r.status == 0, r.err.constData());
        QFile f(pdf);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QVERIFY(f.read(5) == "%PDF-");
        if (!havePdfinfo())
            QSKIP("pdfinfo not found at configure time");
        const QString info = pdfinfo(pdf);
        QCOMPARE(pdfPages(info), 1);
        const QRegularExpressionMatch m = QRegularExpression(QStringLiteral("Page size:\\s+([0-9.]+) x")).match(info);
        QVERIFY2(m.hasMatch(), qPrintable(info));
        QVERIFY2(std::fabs(m.captured(1).toDouble() - 175 / 25.4 * 72) < 2, qPrintable(info));
    }

    void seriesCsvEqualsSeriesCommandAndAnalysis()
    {
        QTemporaryDir dir;
        const QString csv = dir.filePath(QStringLiteral("series.csv"));
        const Run r = cli(exportArgs(QStringLiteral("series"), {QStringLiteral("--flow"), QStringLiteral("0"), QStringLiteral("-o"), csv}));
        QVERIFY2(r.status == 0, r.err.constData());
        const Run series = cli({QStringLiteral("series"), QStringLiteral(WINDSCOPE_SAMPLE_CAPTURE), QStringLiteral("--flow"), QStringLiteral("0")});
        QCOMPARE(series.status, 0);
        QFile f(csv);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray bytes = f.readAll();
        QVERIFY2(bytes == series.out, "export series differs from windscope-cli series");
        // And the numbers are the analysis': every data segment, its bytes, the retransmissions.
        const analysis::Connection& c = reference().tcp.connections.at(0);
        const analysis::DirectionStats& d = c.direction[analysis::cwnd::dataSenderOf(c)];
        std::uint64_t segments = 0, retx = 0;
        double bytesSent = 0;
        for (const QByteArray& line : bytes.split('\n')) {
            const QList<QByteArray> f5 = line.split(',');
            if (f5.size() != 5)
                continue;
            if (f5[0] == "segment") {
                ++segments;
                bytesSent += f5[3].toDouble() - f5[2].toDouble();
            }
            retx += f5[0] == "retransmission";
        }
        QCOMPARE(segments, d.dataPackets);
        QCOMPARE(bytesSent, static_cast<double>(d.dataBytes));
        QCOMPARE(retx, static_cast<std::uint64_t>(d.retransmissions));
    }

    void reportHtmlHasTheTables()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("report.html"));
        const Run r = cli(exportArgs(QStringLiteral("report"), {QStringLiteral("-o"), path}));
        QVERIFY2(r.status == 0, r.err.constData());
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QString html = QString::fromUtf8(f.readAll());
        const Reference& ref = reference();

        const QList<QStringList> connections = htmlTable(html, QStringLiteral("connections"));
        QCOMPARE(static_cast<std::size_t>(connections.size()), ref.tcp.connections.size());
        // Columns as the window's connection table: #, client, server, station, start,
        // duration, packets, data bytes, retx, RTO.
        for (int k = 0; k < connections.size(); ++k) {
            const analysis::Connection& c = ref.tcp.connections[static_cast<std::size_t>(k)];
            const analysis::DirectionStats& d = c.direction[analysis::cwnd::dataSenderOf(c)];
            QCOMPARE(connections[k].value(0), QString::number(k));
            QCOMPARE(connections[k].value(6), QString::number(c.segments));
            QCOMPARE(connections[k].value(7), QString::number(d.dataBytes));
            QCOMPARE(connections[k].value(8), QString::number(d.retransmissions));
            QCOMPARE(connections[k].value(9), QString::number(d.rtoTimeouts));
        }

        const QList<QStringList> events = htmlTable(html, QStringLiteral("events"));
        QCOMPARE(static_cast<std::size_t>(events.size()), ref.events.size());
        for (int e = 0; e < events.size(); ++e) {
            QCOMPARE(events[e].value(0), QString::number(ref.events.at(static_cast<std::size_t>(e)).id));
            QCOMPARE(events[e].value(1), QString::fromLatin1(analysis::eventKindName(ref.events.at(static_cast<std::size_t>(e)).kind)));
        }

        // One row per (event, affected connection), with its retransmissions and timeouts.
        const QList<QStringList> correlation = htmlTable(html, QStringLiteral("correlation"));
        std::size_t impacts = 0;
        std::uint64_t retx = 0, rto = 0, shownRetx = 0, shownRto = 0;
        for (const analysis::EventImpact& i : ref.correlation.impacts)
            for (const analysis::ConnectionImpact& m : i.connections) {
                ++impacts;
                retx += m.retransmissions;
                rto += m.rtoTimeouts;
            }
        QVERIFY(impacts > 0);
        QCOMPARE(static_cast<std::size_t>(correlation.size()), impacts);
        for (const QStringList& row : correlation) {
            shownRetx += row.value(5).toULongLong();
            shownRto += row.value(7).toULongLong();
        }
        QCOMPARE(shownRetx, retx);
        QCOMPARE(shownRto, rto);

        // Self-contained: figures are embedded, nothing is loaded from elsewhere.
        const QRegularExpression img(QStringLiteral("<img src=\"([^\"]*)\""));
        int figures = 0;
        for (auto m = img.globalMatch(html); m.hasNext(); ++figures)
            QVERIFY(m.next().captured(1).startsWith(QLatin1String("data:image/png;base64,")));
        QCOMPARE(figures, 2); // the most affected connection, whole and at its worst event
        QVERIFY(html.contains(QStringLiteral("802.11 events (%1)").arg(ref.events.size())));
    }

    void reportPdfValid()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("report.pdf"));
        const Run r = cli(exportArgs(QStringLiteral("report"), {QStringLiteral("--flow"), QStringLiteral("0"), QStringLiteral("--plot"),
                                                                QStringLiteral("time-sequence"), QStringLiteral("-o"), path}));
        QVERIFY2(r.status == 0, r.err.constData());
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QVERIFY(f.read(5) == "%PDF-");
        if (!havePdfinfo())
            QSKIP("pdfinfo not found at configure time");
        const QString info = pdfinfo(path);
        QVERIFY2(pdfPages(info) > 1, qPrintable(info)); // tables, then a page per figure
        QVERIFY2(info.contains(QLatin1String("A4")), qPrintable(info));
    }

    void clearErrors()
    {
        QTemporaryDir dir;
        const QString png = dir.filePath(QStringLiteral("x.png"));
        Run r = cli(exportArgs(QStringLiteral("figure"), {QStringLiteral("--flow"), QStringLiteral("7"), QStringLiteral("-o"), png}));
        QCOMPARE(r.status, 1);
        QVERIFY2(r.err.contains("no connection '7'") && r.err.contains("wifi-handoff-scan.pcap"), r.err.constData());

        r = cli(exportArgs(QStringLiteral("figure"), {QStringLiteral("--flow"), QStringLiteral("0"), QStringLiteral("--plot"),
                                                      QStringLiteral("sequence"), QStringLiteral("-o"), png}));
        QCOMPARE(r.status, 2);
        QVERIFY2(r.err.contains("unknown plot 'sequence'"), r.err.constData());

        const QString unwritable = dir.filePath(QStringLiteral("no-such-dir/x.png"));
        r = cli(exportArgs(QStringLiteral("figure"), {QStringLiteral("--flow"), QStringLiteral("0"), QStringLiteral("-o"), unwritable}));
        QCOMPARE(r.status, 1);
        QVERIFY2(r.err.contains("cannot write") && r.err.contains("no-such-dir/x.png"), r.err.constData());

        r = cli(exportArgs(QStringLiteral("figure"), {QStringLiteral("--flow"), QStringLiteral("0"), QStringLiteral("-o"),
                                                      dir.filePath(QStringLiteral("x.bmp"))}));
        QCOMPARE(r.status, 1);
        QVERIFY2(r.err.contains("unknown figure format"), r.err.constData());

        r = cli(exportArgs(QStringLiteral("figure"), {QStringLiteral("--event"), QStringLiteral("999"), QStringLiteral("-o"), png}));
        QCOMPARE(r.status, 1);
        QVERIFY2(r.err.contains("no event '999'"), r.err.constData());
        QVERIFY(!QFile::exists(png)); // nothing half-written

        // A capture without 802.11 events.
        const QString wired = QStringLiteral(WINDSCOPE_TEST_DATA_DIR "/wpa2-http-plain.pcap");
        r = cli({QStringLiteral("export"), QStringLiteral("figure"), wired, QStringLiteral("--event"), QStringLiteral("0"),
                 QStringLiteral("-o"), png});
        QCOMPARE(r.status, 1);
        QVERIFY2(r.err.contains("has no 802.11 events"), r.err.constData());

        r = cli({QStringLiteral("export"), QStringLiteral("poster")});
        QCOMPARE(r.status, 2);
        QVERIFY2(r.err.contains("unknown export 'poster'"), r.err.constData());
    }
};

QTEST_GUILESS_MAIN(CliExportTest)
#include "test_cli_export.moc"
