// SPDX-License-Identifier: GPL-3.0-or-later
// The desktop application driven as a user would: open the bundled sample, check the
// tables against the analysis library run independently, select, zoom, click events,
// export figures and series and check the files.

#include "capture_view.h"
#include "sample_reference.h"
#include "compare_window.h"
#include "fleet_view.h"
#include "model/fleet_table_model.h"
#include "connection_filter_bar.h"
#include "correlation_panel.h"
#include "model/correlation_table_model.h"
#include "replay_runner.h"
#include "report_dialog.h"
#include "sweep_window.h"
#include "main_window.h"
#include "model/connection_filter_model.h"
#include "model/connection_table_model.h"
#include "model/event_table_model.h"
#include "model/inventory_table_model.h"
#include "model/packet_table_model.h"
#include "plots/compare_plot.h"
#include "render/connection_figure.h"
#include "render/lod_series.h"
#include "render/report.h"
#include "plots/plot_export.h"
#include "plots/plot_panel.h"
#include "plots/plot_stack.h"
#include "plots/rate_plot.h"
#include "plots/wlan_lane_plot.h"
#include "plots/time_axis.h"
#include "plots/window_plot.h"

#include "analysis/cwnd/cwnd_inference.h"
#include "analysis/series/view_bins.h"
#include "analysis/wlan/wlan_correlation.h"
#include "dissectors/ingest.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QDir>
#include <QDoubleSpinBox>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QListWidget>
#include <QSpinBox>
#include <QTableWidget>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QXmlStreamReader>

#include <cmath>
#include <random>

using namespace windscope;
using namespace windscope::gui;

namespace {

using Reference = test::SampleReference;
const Reference& reference() { return test::sampleReference(); }

bool rangesEqual(const QCPRange& a, const QCPRange& b)
{
    return std::fabs(a.lower - b.lower) < 1e-9 && std::fabs(a.upper - b.upper) < 1e-9;
}

} // namespace

class GuiTest : public QObject
{
    Q_OBJECT

private:
    // Opens the sample in a shown window and waits until it is analysed and selected.
    CaptureView* openSample(MainWindow& w) { return openAndWait(w, QStringLiteral(WINDSCOPE_SAMPLE_CAPTURE)); }

    // Opens a capture in a shown window (in a new tab) and waits until it is analysed,
    // selected and its cwnd inferred.
    CaptureView* openAndWait(MainWindow& w, const QString& path)
    {
        w.setInteractive(false);
        w.show();
        if (!QTest::qWaitForWindowExposed(&w))
            return nullptr;
        QSignalSpy ready(&w, &MainWindow::captureReady);
        CaptureView* view = w.openCapture(path);
        if (!ready.wait(60000) && ready.isEmpty())
            return nullptr;
        // The cwnd is inferred off the GUI thread after the rest is shown.
        if (!view->isSeriesComplete()) {
            QSignalSpy complete(view, &CaptureView::seriesCompleted);
            if (!complete.wait(60000) && complete.isEmpty())
                return nullptr;
        }
        return view;
    }

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QApplication::setOrganizationName(QStringLiteral("WindscopeTest"));
        QApplication::setApplicationName(QStringLiteral("windscope-gui-tests"));
        QVERIFY2(QFile::exists(QStringLiteral(WINDSCOPE_SAMPLE_CAPTURE)), "the bundled sample capture is missing");
    }

    void lodSeriesKeepsExtremes()
    {
        std::mt19937 rng(7);
        std::normal_distribution<double> noise(0, 1);
        const std::size_t n = 200000;
        std::vector<double> t(n), v(n);
        for (std::size_t i = 0; i < n; ++i) {
            t[i] = static_cast<double>(i) * 1e-4;
            v[i] = noise(rng);
        }
        v[123457] = 50;  // a spike that must survive the reduction
        v[54321] = -40;
        LodSeries s;
        s.setData(t, v);
        // rangeMinMax against brute force on arbitrary ranges.
        std::uniform_int_distribution<std::size_t> pick(0, n);
        for (int k = 0; k < 200; ++k) {
            std::size_t a = pick(rng), b = pick(rng);
            if (a > b)
                std::swap(a, b);
            if (a == b)
                continue;
            double mn = 0, mx = 0;
            s.rangeMinMax(a, b, mn, mx);
            QCOMPARE(mn, *std::min_element(v.begin() + static_cast<long>(a), v.begin() + static_cast<long>(b)));
            QCOMPARE(mx, *std::max_element(v.begin() + static_cast<long>(a), v.begin() + static_cast<long>(b)));
        }
        LodSeries::Output out;
        s.sample(t.front(), t.back(), 800, LodSeries::Mode::Line, out);
        QVERIFY(out.reduced);
        QVERIFY(out.x.size() <= 4 * 800 + 2);
        QCOMPARE(out.yMax, 50.0);
        QCOMPARE(out.yMin, -40.0);
        QVERIFY(std::is_sorted(out.x.begin(), out.x.end()));
        // A zoomed-in range small enough is drawn point for point.
        s.sample(t[1000], t[1100], 800, LodSeries::Mode::Line, out);
        QVERIFY(!out.reduced);
        // Marked series keep every point.
        LodSeries marks;
        marks.setData(t, v);
        marks.setKeepAll(true);
        marks.sample(t.front(), t.back(), 100, LodSeries::Mode::Points, out);
        QCOMPARE(out.x.size(), n);
    }

    void openSampleMatchesAnalysis()
    {
        MainWindow w;
        CaptureView* view = openSample(w);
        QVERIFY(view);
        QVERIFY(view->isLoaded());
        const Reference& ref = reference();
        QVERIFY(ref.tcp.connections.size() > 0);
        QCOMPARE(static_cast<std::size_t>(view->connectionModel()->rowCount()), ref.tcp.connections.size());
        QCOMPARE(static_cast<std::size_t>(view->connectionFilter()->rowCount()), ref.tcp.connections.size());
        QCOMPARE(static_cast<std::size_t>(view->eventModel()->rowCount()), ref.events.size());
        QCOMPARE(static_cast<std::size_t>(view->stationModel()->rowCount()), ref.inventory.stations.size());
        QCOMPARE(static_cast<std::size_t>(view->accessPointModel()->rowCount()), ref.inventory.accessPoints.size());
        QAbstractItemModelTester t1(view->connectionModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester t2(view->connectionFilter(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester t3(view->eventModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester t4(view->eventProxy(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester t5(view->stationModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester t6(view->accessPointModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        // The table shows the library's numbers.
        for (int row = 0; row < view->connectionModel()->rowCount(); ++row) {
            const analysis::Connection& c = ref.tcp.connections[static_cast<std::size_t>(row)];
            const int sender = analysis::cwnd::dataSenderOf(c);
            const QModelIndex retx = view->connectionModel()->index(row, ConnectionTableModel::Retransmissions);
            QCOMPARE(retx.data(ConnectionTableModel::kSortRole).toULongLong(),
                     static_cast<qulonglong>(c.direction[sender].retransmissions));
        }
        // The sample shows a scan- or handoff-induced loss: something is selected first.
        QVERIFY(view->selectedConnection() >= 0);
        QVERIFY(!ref.events.events.empty());
        QVERIFY(view->selectedEvent() >= 0);
        QVERIFY(view->plotStack()->series());
        QVERIFY(view->plotStack()->series()->timeSequence.segments.size() > 0);
        // Sorting by a numeric column orders by the number, not the text.
        view->connectionFilter()->sort(ConnectionTableModel::DataBytes, Qt::DescendingOrder);
        for (int row = 1; row < view->connectionFilter()->rowCount(); ++row)
            QVERIFY(view->connectionFilter()->index(row - 1, ConnectionTableModel::DataBytes).data(ConnectionTableModel::kSortRole).toULongLong() >=
                    view->connectionFilter()->index(row, ConnectionTableModel::DataBytes).data(ConnectionTableModel::kSortRole).toULongLong());
        QCOMPARE(w.recentFiles().value(0), QFileInfo(QStringLiteral(WINDSCOPE_SAMPLE_CAPTURE)).absoluteFilePath());
    }

    void filterConnections()
    {
        MainWindow w;
        CaptureView* view = openSample(w);
        QVERIFY(view);
        const Reference& ref = reference();
        std::size_t withRetx = 0;
        for (const analysis::Connection& c : ref.tcp.connections)
            withRetx += c.direction[analysis::cwnd::dataSenderOf(c)].retransmissions >= 1;
        view->connectionFilter()->setMinRetransmissions(1);
        QCOMPARE(static_cast<std::size_t>(view->connectionFilter()->rowCount()), withRetx);
        view->connectionFilter()->setMinRetransmissions(0);
        // Filtering by the server endpoint of connection 0 keeps it.
        const QString server = view->connectionModel()->index(0, ConnectionTableModel::Server).data().toString();
        view->connectionFilter()->setText(server);
        QVERIFY(view->connectionFilter()->rowCount() >= 1);
        QCOMPARE(view->connectionFilter()->index(0, 0).data(ConnectionTableModel::kConnectionRole).toInt(), 0);
        view->connectionFilter()->setText(QStringLiteral("no-such-host-anywhere"));
        QCOMPARE(view->connectionFilter()->rowCount(), 0);
        view->connectionFilter()->setText({});
        QCOMPARE(static_cast<std::size_t>(view->connectionFilter()->rowCount()), ref.tcp.connections.size());
    }

    void selectConnectionAndZoom()
    {
        MainWindow w;
        CaptureView* view = openSample(w);
        QVERIFY(view);
        view->selectConnection(0);
        QCOMPARE(view->selectedConnection(), 0);
        const QList<PlotPanel*> panels = view->plotStack()->panels();
        QCOMPARE(panels.size(), 5);
        // Start from the whole connection (the first capture shows its worst event zoomed).
        view->plotStack()->timeAxis()->reset();
        const QCPRange before = panels[0]->xAxis->range();
        for (PlotPanel* p : panels)
            QVERIFY(rangesEqual(p->xAxis->range(), before));

        // Keyboard zoom on one plot: every plot follows, identically.
        panels[2]->setFocus();
        QTest::keyClick(panels[2], Qt::Key_Plus);
        const QCPRange zoomed = panels[0]->xAxis->range();
        QVERIFY(zoomed.size() < before.size() * 0.9);
        for (PlotPanel* p : panels)
            QVERIFY2(rangesEqual(p->xAxis->range(), zoomed), qPrintable(p->title()));

        // Mouse wheel on another plot.
        PlotPanel* target = panels[1];
        const QPointF at = target->axisRect()->center();
        QWheelEvent wheel(at, target->mapToGlobal(at), QPoint(), QPoint(0, 120), Qt::NoButton, Qt::NoModifier,
                          Qt::NoScrollPhase, false);
        QApplication::sendEvent(target, &wheel);
        const QCPRange wheeled = panels[4]->xAxis->range();
        QVERIFY(wheeled.size() < zoomed.size());
        for (PlotPanel* p : panels)
            QVERIFY2(rangesEqual(p->xAxis->range(), wheeled), qPrintable(p->title()));

        // Pan with the keyboard, then reset.
        QTest::keyClick(panels[0], Qt::Key_Right);
        const QCPRange panned = panels[3]->xAxis->range();
        QVERIFY(panned.lower > wheeled.lower);
        QVERIFY(std::fabs(panned.size() - wheeled.size()) < 1e-9);
        for (PlotPanel* p : panels)
            QVERIFY(rangesEqual(p->xAxis->range(), panned));
        QTest::keyClick(panels[0], Qt::Key_Home);
        for (PlotPanel* p : panels)
            QVERIFY(rangesEqual(p->xAxis->range(), before));

        // The crosshair text gives exact values of the nearest points.
        const auto* seg = panels[0]->lodGraph(QStringLiteral("data"));
        QVERIFY(seg && seg->series.size() > 0);
        const double t = seg->series.times()[seg->series.size() / 2];
        QVERIFY(panels[0]->valuesText(t).contains(QString::number(seg->series.lo()[seg->series.size() / 2], 'f', 0)));
    }

    void clickEventZoomsEveryPlot()
    {
        MainWindow w;
        CaptureView* view = openSample(w);
        QVERIFY(view);
        const Reference& ref = reference();
        QVERIFY(ref.events.size() >= 2);
        QTableView* table = view->eventView();
        auto* tabs = qobject_cast<QTabWidget*>(table->parentWidget()->parentWidget());
        QVERIFY(tabs);
        tabs->setCurrentWidget(table);
        QVERIFY(QTest::qWaitForWindowExposed(table));
        view->plotStack()->timeAxis()->reset();

        auto checkCovers = [&](int event) {
            const analysis::WlanEvent& e = ref.events.at(static_cast<std::size_t>(event));
            const double start = static_cast<double>(e.startNs) / 1e9, end = static_cast<double>(e.endNs) / 1e9;
            for (PlotPanel* p : view->plotStack()->panels()) {
                const QCPRange r = p->xAxis->range();
                if (!(r.lower < start && r.upper > end))
                    return QStringLiteral("%1: [%2, %3] does not cover event %4 [%5, %6]")
                        .arg(p->title()).arg(r.lower).arg(r.upper).arg(event).arg(start).arg(end);
                if (!rangesEqual(r, view->plotStack()->panels().front()->xAxis->range()))
                    return QStringLiteral("%1 differs from the first plot").arg(p->title());
            }
            return QString();
        };
        // Click the last row: a different event than the one selected at start.
        const int row = view->eventProxy()->rowCount() - 1;
        const QModelIndex index = view->eventProxy()->index(row, EventTableModel::Kind);
        table->scrollTo(index);
        QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, table->visualRect(index).center());
        const int clicked = index.data(EventTableModel::kEventRole).toInt();
        QCOMPARE(view->selectedEvent(), clicked);
        QString problem = checkCovers(clicked);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        const QCPRange full(view->plotStack()->timeAxis()->fullLower(), view->plotStack()->timeAxis()->fullUpper());
        const analysis::WlanEvent& e = ref.events.at(static_cast<std::size_t>(clicked));
        if (static_cast<double>(e.endNs - e.startNs) / 1e9 < full.size() / 4)
            QVERIFY(view->plotStack()->panels().front()->xAxis->range().size() < full.size());

        // Previous / next event shortcuts walk the table.
        w.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&w));
        QTest::keyClick(&w, Qt::Key_F8, Qt::ShiftModifier);
        const int previous = view->selectedEvent();
        QVERIFY(previous != clicked);
        problem = checkCovers(previous);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        QTest::keyClick(&w, Qt::Key_F8);
        QCOMPARE(view->selectedEvent(), clicked);
    }

    void packetListFollowsView()
    {
        MainWindow w;
        CaptureView* view = openSample(w);
        QVERIFY(view);
        QAbstractItemModelTester tester(view->packetModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        const Reference& ref = reference();
        const auto connection = static_cast<std::uint32_t>(view->selectedConnection());
        auto expected = [&] {
            const TimeAxis* axis = view->plotStack()->timeAxis();
            int n = 0;
            for (std::size_t row = 0; row < ref.tables.tcp.size(); ++row) {
                const double t = static_cast<double>(ref.tables.tcp.timeNs[row]) / 1e9;
                n += ref.tcp.segments.connection[row] == connection && t >= axis->lower() && t <= axis->upper();
            }
            return n;
        };
        view->plotStack()->timeAxis()->reset();
        QTRY_COMPARE(view->packetModel()->rowCount(), expected());
        QVERIFY(view->packetModel()->rowCount() > 0);
        view->selectEvent(view->selectedEvent() >= 0 ? view->selectedEvent() : 0);
        QTRY_COMPARE(view->packetModel()->rowCount(), expected());
        // Rows are the library's: the first one's frame and analysis flags.
        if (view->packetModel()->rowCount() > 0) {
            const qulonglong frame = view->packetModel()->index(0, 0).data(PacketTableModel::kFrameRole).toULongLong();
            bool found = false;
            for (std::size_t row = 0; row < ref.tables.tcp.size() && !found; ++row)
                if (ref.tables.tcp.frame[row] == frame) {
                    found = true;
                    QCOMPARE(view->packetModel()->index(0, PacketTableModel::Analysis).data().toString(),
                             analysisFlagsText(ref.tcp.segments.flags[row]));
                }
            QVERIFY(found);
        }
        QCOMPARE(analysisFlagsText(analysis::segment_flag::kRetransmission | analysis::segment_flag::kFastRetransmission),
                 QStringLiteral("fast_retransmission"));
        QCOMPARE(tcpFlagsText(0x012), QStringLiteral("SYN, ACK"));
    }

    void exportFigures()
    {
        MainWindow w;
        CaptureView* view = openSample(w);
        QVERIFY(view);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const PlotStack& stack = *view->plotStack();
        const ExportPreset single = *exportPreset(QStringLiteral("single-column"));
        QString error;

        // PNG: 85 mm at 300 dpi, with drawn content.
        const QString png = dir.filePath(QStringLiteral("stack.png"));
        QVERIFY2(exportStackFigure(stack, {}, single, png, &error), qPrintable(error));
        QImage image(png);
        QVERIFY(!image.isNull());
        QCOMPARE(image.width(), static_cast<int>(std::lround(static_cast<double>(std::lround(85 / 25.4 * 96)) * 300 / 96.0)));
        QVERIFY(image.height() > image.width());
        QVERIFY(std::abs(image.dotsPerMeterX() - static_cast<int>(std::lround(300 / 0.0254))) <= 1);
        qsizetype dark = 0;
        for (int y = 0; y < image.height(); y += 2)
            for (int x = 0; x < image.width(); x += 2)
                dark += qGray(image.pixel(x, y)) < 128;
        QVERIFY2(dark > image.width() * image.height() / 4 / 200, "the PNG is nearly blank");

        // One plot in colour at double-column width.
        const QString one = dir.filePath(QStringLiteral("time-sequence.png"));
        QVERIFY2(exportStackFigure(stack, {PlotKind::TimeSequence}, *exportPreset(QStringLiteral("double-column-colour")), one, &error),
                 qPrintable(error));
        QImage oneImage(one);
        QCOMPARE(oneImage.width(), static_cast<int>(std::lround(static_cast<double>(std::lround(175 / 25.4 * 96)) * 300 / 96.0)));
        bool colour = false;
        for (int y = 0; y < oneImage.height() && !colour; y += 3)
            for (int x = 0; x < oneImage.width() && !colour; x += 3) {
                const QColor c = oneImage.pixelColor(x, y);
                colour = std::abs(c.red() - c.blue()) > 60;
            }
        QVERIFY2(colour, "the colour preset drew no colour");

        // PDF: valid per pdfinfo when it is installed, else by its header and trailer.
        const QString pdf = dir.filePath(QStringLiteral("stack.pdf"));
        QVERIFY2(exportStackFigure(stack, {}, single, pdf, &error), qPrintable(error));
        QFile pdfFile(pdf);
        QVERIFY(pdfFile.open(QIODevice::ReadOnly));
        const QByteArray pdfBytes = pdfFile.readAll();
        QVERIFY(pdfBytes.startsWith("%PDF-"));
        QVERIFY(pdfBytes.trimmed().endsWith("%%EOF"));
        const QString pdfinfo = QStringLiteral(WINDSCOPE_PDFINFO);
        if (!pdfinfo.isEmpty() && !pdfinfo.endsWith(QLatin1String("NOTFOUND"))) {
            QProcess p;
            p.start(pdfinfo, {pdf});
            QVERIFY(p.waitForFinished(30000));
            const QString info = QString::fromUtf8(p.readAllStandardOutput());
            QCOMPARE(p.exitCode(), 0);
            QVERIFY2(info.contains(QRegularExpression(QStringLiteral("Pages:\\s+1"))), qPrintable(info));
            // 85 mm = 240.9 pt wide.
            const QRegularExpressionMatch m =
                QRegularExpression(QStringLiteral("Page size:\\s+([0-9.]+) x ([0-9.]+) pts")).match(info);
            QVERIFY2(m.hasMatch(), qPrintable(info));
            QVERIFY2(std::fabs(m.captured(1).toDouble() - 85 / 25.4 * 72) < 2, qPrintable(info));
        } else {
            qWarning("pdfinfo not found at configure time: PDF checked by header and trailer only");
        }

        // SVG: well-formed XML with drawn paths.
#ifdef WINDSCOPE_HAVE_QT_SVG
        const QString svg = dir.filePath(QStringLiteral("stack.svg"));
        QVERIFY2(exportStackFigure(stack, {}, single, svg, &error), qPrintable(error));
        QFile svgFile(svg);
        QVERIFY(svgFile.open(QIODevice::ReadOnly));
        QXmlStreamReader xml(&svgFile);
        int paths = 0, texts = 0;
        while (!xml.atEnd()) {
            if (xml.readNext() == QXmlStreamReader::StartElement) {
                paths += xml.name() == QLatin1String("path") || xml.name() == QLatin1String("polyline");
                texts += xml.name() == QLatin1String("text");
            }
        }
        QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
        QVERIFY(paths > 20);
        QVERIFY(texts > 5);
#else
        QVERIFY(!svgExportAvailable());
        QVERIFY(!exportStackFigure(stack, {}, single, dir.filePath(QStringLiteral("x.svg")), &error));
#endif
        QVERIFY(!exportStackFigure(stack, {}, single, dir.filePath(QStringLiteral("x.bmp")), &error));
    }

    void exportSeriesCsvMatchesAnalysis()
    {
        MainWindow w;
        CaptureView* view = openSample(w);
        QVERIFY(view);
        const int connection = view->selectedConnection();
        QVERIFY(connection >= 0);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("series.csv"));
        QString error;
        QVERIFY2(exportSeriesCsv(*view->plotStack()->series(), path, &error), qPrintable(error));
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly | QIODevice::Text));
        QCOMPARE(file.readLine().trimmed(), QByteArray("series,time_s,value,value2,frame"));
        std::map<QString, int> rows;
        double segmentBytes = 0;
        std::map<qulonglong, double> inFlightByTime;
        std::vector<double> inFlight;
        while (!file.atEnd()) {
            const QStringList f = QString::fromUtf8(file.readLine().trimmed()).split(QLatin1Char(','));
            QCOMPARE(f.size(), 5);
            ++rows[f[0]];
            if (f[0] == QLatin1String("segment"))
                segmentBytes += f[3].toDouble() - f[2].toDouble();
            if (f[0] == QLatin1String("bytes_in_flight"))
                inFlight.push_back(f[2].toDouble());
        }
        const Reference& ref = reference();
        const analysis::Connection& c = ref.tcp.connections[static_cast<std::size_t>(connection)];
        const int sender = analysis::cwnd::dataSenderOf(c);
        const analysis::DirectionStats& d = c.direction[sender];
        QCOMPARE(static_cast<qulonglong>(rows[QStringLiteral("segment")]), static_cast<qulonglong>(d.dataPackets));
        QCOMPARE(segmentBytes, static_cast<double>(d.dataBytes));
        QCOMPARE(static_cast<qulonglong>(rows[QStringLiteral("retransmission")]), static_cast<qulonglong>(d.retransmissions));
        QCOMPARE(static_cast<qulonglong>(rows[QStringLiteral("rto_retransmission")]), static_cast<qulonglong>(d.rtoTimeouts));
        // Bytes in flight, row for row, as the TCP analysis computed them.
        std::vector<double> expected;
        for (std::size_t row = 0; row < ref.tables.tcp.size(); ++row)
            if (ref.tcp.segments.connection[row] == static_cast<std::uint32_t>(connection) &&
                ref.tcp.directionOf(ref.tables, row) == sender && ref.tcp.segments.bytesInFlight[row] > 0)
                expected.push_back(ref.tcp.segments.bytesInFlight[row]);
        QCOMPARE(inFlight.size(), expected.size());
        QVERIFY(inFlight == expected);
        QVERIFY(rows[QStringLiteral("ack")] > 0);
        QVERIFY(rows[QStringLiteral("throughput_bps")] > 0);

        // The command line prints the same file: one function behind both front-ends.
        QProcess cli;
        cli.start(QStringLiteral(WINDSCOPE_CLI), {QStringLiteral("series"), QStringLiteral(WINDSCOPE_SAMPLE_CAPTURE),
                                                  QStringLiteral("--flow"), QString::number(connection)});
        QVERIFY(cli.waitForFinished(60000));
        QCOMPARE(cli.exitCode(), 0);
        QVERIFY(file.seek(0));
        QVERIFY2(cli.readAllStandardOutput() == file.readAll(), "windscope-cli series differs from the GUI's CSV export");
    }

    void compareTwoCaptures()
    {
        MainWindow w;
        CaptureView* first = openSample(w);
        QVERIFY(first);
        QSignalSpy ready(&w, &MainWindow::captureReady);
        CaptureView* second = w.openCapture(QStringLiteral(WINDSCOPE_SAMPLE_CAPTURE));
        QVERIFY(ready.wait(60000) || !ready.isEmpty());
        QVERIFY(second->isLoaded());
        CompareWindow* compare = w.compareSelected();
        QVERIFY(compare);
        // The same capture on both sides: every difference is zero, the numbers are the library's.
        const Reference& ref = reference();
        const analysis::Connection& c = ref.tcp.connections[static_cast<std::size_t>(second->selectedConnection())];
        const analysis::DirectionStats& d = c.direction[analysis::cwnd::dataSenderOf(c)];
        bool sawRetx = false;
        QCOMPARE(compare->table()->rowCount(), static_cast<int>(compare->rows().size()));
        for (const analysis::ComparisonRow& row : compare->rows()) {
            QCOMPARE(row.a, row.b);
            if (row.metric == "retransmissions") {
                QCOMPARE(row.a, static_cast<double>(d.retransmissions));
                sawRetx = true;
            }
        }
        QVERIFY(sawRetx);
        // Both overlaid series start at 0 and share one axis.
        QCOMPARE(compare->plots().size(), 3); // delivered, goodput, cwnd
        for (ComparePlot* p : compare->plots()) {
            // A, B and the reference line, empty without a replay's baseline.
            QCOMPARE(p->lodGraphs().size(), std::size_t{3});
            QCOMPARE(p->lodGraphs()[2]->series.size(), std::size_t{0});
            const auto& a = p->lodGraphs()[0]->series;
            const auto& b = p->lodGraphs()[1]->series;
            QVERIFY(a.size() > 0);
            QCOMPARE(a.size(), b.size());
            QVERIFY(a.times().front() >= -1e-9 && a.times().front() < 1.0);
            QCOMPARE(a.times().front(), b.times().front());
        }
        compare->timeAxis()->zoomAroundMiddle(0.5);
        QVERIFY(rangesEqual(compare->plots()[0]->xAxis->range(), compare->plots()[1]->xAxis->range()));
        compare->close();
    }

    // A before/after pair whose files share a name: the tabs, the table's headers and
    // the title say which is which, by the folders that differ (as windscope-cli compare).
    void compareCapturesNamedAlike()
    {
        const QString before = QStringLiteral(WINDSCOPE_SHARED_DIR "/captures/lab/ns3/B-handoff-baseline/wired-server.pcap");
        const QString after = QStringLiteral(WINDSCOPE_SHARED_DIR "/captures/lab/ns3/B-handoff-zwa-hold/wired-server.pcap");
        if (!QFileInfo::exists(before) || !QFileInfo::exists(after))
            QSKIP("the lab's B-handoff runs in ../shared/captures are not there");
        MainWindow w;
        CaptureView* a = openAndWait(w, before);
        CaptureView* b = openAndWait(w, after);
        QVERIFY(a && b && a->isLoaded() && b->isLoaded());
        CompareWindow* compare = w.compareSelected(); // the current tab (after) against the other
        QVERIFY(compare);
        const QString nameAfter = compare->table()->horizontalHeaderItem(1)->text();
        const QString nameBefore = compare->table()->horizontalHeaderItem(2)->text();
        QCOMPARE(nameAfter, QStringLiteral("B-handoff-zwa-hold/wired-server.pcap #0"));
        QCOMPARE(nameBefore, QStringLiteral("B-handoff-baseline/wired-server.pcap #0"));
        QVERIFY(compare->windowTitle().contains(nameAfter) && compare->windowTitle().contains(nameBefore));
        // The rows are windscope-cli compare's for the same pair.
        QProcess cli;
        cli.start(QStringLiteral(WINDSCOPE_CLI), {QStringLiteral("compare"), after, before, QStringLiteral("--json")});
        QVERIFY(cli.waitForFinished(60000));
        QCOMPARE(cli.exitCode(), 0);
        const QJsonObject json = QJsonDocument::fromJson(cli.readAllStandardOutput()).object();
        const QJsonArray rows = json.value(QStringLiteral("rows")).toArray();
        QCOMPARE(rows.size(), static_cast<int>(compare->rows().size()));
        for (int i = 0; i < rows.size(); ++i) {
            const analysis::ComparisonRow& row = compare->rows()[static_cast<std::size_t>(i)];
            QCOMPARE(rows[i].toObject().value(QStringLiteral("metric")).toString().toStdString(), row.metric);
            if (row.aKnown)
                QCOMPARE(rows[i].toObject().value(QStringLiteral("a")).toDouble(), row.a);
        }
        // Side by side, every plot and its counterpart read against one value axis (the
        // sides differ: 1.30 against 1.10 MB acknowledged, 1.4 against 2.9 Mb/s peaks).
        compare->resize(1400, 900);
        compare->setView(CompareWindow::View::SideBySide);
        QCoreApplication::processEvents();
        const QList<PlotPanel*> left = compare->stackA()->panels(), right = compare->stackB()->panels();
        QCOMPARE(left.size(), right.size());
        for (qsizetype i = 0; i < left.size(); ++i) {
            QVERIFY2(rangesEqual(left[i]->yAxis->range(), right[i]->yAxis->range()), qPrintable(left[i]->title()));
            QVERIFY2(rangesEqual(left[i]->yAxis2->range(), right[i]->yAxis2->range()), qPrintable(left[i]->title()));
        }
        compare->stackA()->timeAxis()->zoomAroundMiddle(0.25);
        QCoreApplication::processEvents();
        for (qsizetype i = 0; i < left.size(); ++i)
            QVERIFY2(rangesEqual(left[i]->yAxis->range(), right[i]->yAxis->range()), qPrintable(left[i]->title()));
        compare->stackA()->timeAxis()->reset();
        if (const QByteArray shots = qgetenv("WINDSCOPE_SCREENSHOT_DIR"); !shots.isEmpty()) {
            QCoreApplication::processEvents();
            compare->grab().save(QDir(QString::fromLocal8Bit(shots)).filePath(QStringLiteral("compare-named-alike.png")));
        }
        // Exports: the table is compare --csv's, the figure names both sides.
        QTemporaryDir out;
        QString error;
        QVERIFY2(compare->exportTable(out.filePath(QStringLiteral("table.csv")), &error), qPrintable(error));
        QProcess csv;
        csv.start(QStringLiteral(WINDSCOPE_CLI), {QStringLiteral("compare"), after, before, QStringLiteral("--csv")});
        QVERIFY(csv.waitForFinished(60000));
        QFile table(out.filePath(QStringLiteral("table.csv")));
        QVERIFY(table.open(QIODevice::ReadOnly));
        QCOMPARE(table.readAll(), csv.readAllStandardOutput());
        QVERIFY2(compare->exportFigure(out.filePath(QStringLiteral("figure.svg")),
                                       *render::exportPreset(QStringLiteral("double-column")), &error),
                 qPrintable(error));
        QFile svg(out.filePath(QStringLiteral("figure.svg")));
        QVERIFY(svg.open(QIODevice::ReadOnly));
        const QByteArray figure = svg.readAll();
        QVERIFY(figure.contains("B-handoff-zwa-hold/wired-server.pcap #0") &&
                figure.contains("B-handoff-baseline/wired-server.pcap #0"));
        QVERIFY(figure.contains("time since each connection"));
        compare->close();
    }

    // A zero-window ACK run: ns-3 grows the inferred cwnd to 193 kB while a 16 kB receive
    // window holds the sender. The window plot is scaled by what limited the sender, marks
    // the cwnd above it, and its strip says the receive window held the sender.
    void windowPlotScalesToWhatLimitedTheSender()
    {
        const QString path = QStringLiteral(WINDSCOPE_SHARED_DIR "/captures/lab/ns3/B-handoff-zwa-hold/wired-server.pcap");
        if (!QFileInfo::exists(path))
            QSKIP("the lab's B-handoff-zwa-hold run in ../shared/captures is not there");
        MainWindow w;
        CaptureView* view = openAndWait(w, path);
        QVERIFY(view);
        view->plotStack()->timeAxis()->reset();
        QCoreApplication::processEvents();
        auto* plot = qobject_cast<WindowPlot*>(view->plotStack()->panel(PlotKind::Window));
        QVERIFY(plot);
        const analysis::ConnectionSeries* s = view->plotStack()->series();
        QVERIFY(s && s->window.cwnd.size() > 0);
        const double cwndMax = *std::max_element(s->window.cwnd.v.begin(), s->window.cwnd.v.end());
        const double rwndMax = *std::max_element(s->window.rwnd.v.begin(), s->window.rwnd.v.end());
        QVERIFY2(cwndMax > 150e3 && rwndMax < 20e3, qPrintable(QStringLiteral("cwnd %1, rwnd %2").arg(cwndMax).arg(rwndMax)));
        QVERIFY2(plot->yAxis->range().upper < 2 * rwndMax, qPrintable(QString::number(plot->yAxis->range().upper)));
        QVERIFY2(plot->cwndAboveNote().contains(QStringLiteral("above the axis")), qPrintable(plot->cwndAboveNote()));
        double heldByReceiver = 0;
        for (const analysis::WindowLimitInterval& l : s->window.limits)
            if (l.limit == analysis::WindowLimit::ReceiveWindow)
                heldByReceiver += l.end - l.start;
        // The handoff (2.3-3.4 s) sat in persist and the 16 kB window held the rest.
        QVERIFY2(heldByReceiver > 3.0, qPrintable(QString::number(heldByReceiver)));
    }

    // Readouts: a click on a legend item hides its series (the axis and the readout
    // leave it out) and a second shows it again; the readout names a mark only within
    // a few pixels of the cursor and reads a line's value in effect there.
    void legendTogglesSeriesAndReadoutNamesNearMarks()
    {
        MainWindow w;
        CaptureView* view = openSample(w);
        QVERIFY(view);
        view->plotStack()->timeAxis()->reset();
        QCoreApplication::processEvents();
        PlotPanel* plot = view->plotStack()->panel(PlotKind::Window);
        plot->replot(QCustomPlot::rpImmediateRefresh);
        LodGraph* inFlight = plot->lodGraph(QStringLiteral("bytes in flight"));
        QVERIFY(inFlight && inFlight->graph->visible());
        QCPPlottableLegendItem* entry = plot->legend->itemWithPlottable(inFlight->graph);
        QVERIFY(entry);
        QTest::mouseClick(plot, Qt::LeftButton, {}, entry->rect().center());
        QVERIFY(!inFlight->graph->visible());
        const double t = inFlight->series.times()[inFlight->series.times().size() / 2];
        QVERIFY(!plot->valuesText(t).contains(QStringLiteral("bytes in flight")));
        QTest::mouseClick(plot, Qt::LeftButton, {}, entry->rect().center());
        QVERIFY(inFlight->graph->visible());
        QVERIFY(plot->valuesText(t).contains(QStringLiteral("bytes in flight")));

        // Marks: the time-sequence plot's retransmissions. At a retransmission's own time
        // it is named; a second away from every one it is not.
        PlotPanel* seq = view->plotStack()->panel(PlotKind::TimeSequence);
        LodGraph* retx = seq->lodGraph(QStringLiteral("retransmission"));
        QVERIFY(retx && retx->series.size() > 0);
        const std::vector<double>& marks = retx->series.times();
        QVERIFY(seq->valuesText(marks.front()).contains(QStringLiteral("retransmission:")));
        // Midway in the widest gap between marks (1.3-3.1 s on the sample).
        double far = -1, widest = 0;
        for (std::size_t i = 1; i < marks.size(); ++i)
            if (marks[i] - marks[i - 1] > widest) {
                widest = marks[i] - marks[i - 1];
                far = (marks[i] + marks[i - 1]) / 2;
            }
        QVERIFY2(widest > 1.0, qPrintable(QString::number(widest)));
        QVERIFY2(!seq->valuesText(far).contains(QStringLiteral("retransmission:")), qPrintable(seq->valuesText(far)));
        QVERIFY2(seq->valuesText(far).contains(QStringLiteral("ACK:")), qPrintable(seq->valuesText(far)));
    }

    // A wired capture: no 802.11 station, so no empty lane (the time labels move to the
    // RTT plot) unless the TCP analysis inferred outages, and then the events tab says so.
    void wiredCaptureHasNoEmptyLane()
    {
        const QString clean = QStringLiteral(WINDSCOPE_SHARED_DIR "/captures/lab/linux/reno-clean/sender.pcap");
        const QString outages = QStringLiteral(WINDSCOPE_SHARED_DIR "/captures/lab/ns3/B-handoff-baseline/wired-server.pcap");
        if (!QFileInfo::exists(clean) || !QFileInfo::exists(outages))
            QSKIP("the lab runs in ../shared/captures are not there");
        MainWindow w;
        CaptureView* a = openAndWait(w, clean);
        QVERIFY(a);
        PlotStack* stack = a->plotStack();
        QVERIFY(stack->panel(PlotKind::WlanLane)->isHidden());
        QVERIFY(!stack->panel(PlotKind::Rtt)->isHidden());
        CaptureView* b = openAndWait(w, outages);
        QVERIFY(b);
        QVERIFY(!b->plotStack()->panel(PlotKind::WlanLane)->isHidden()); // its outage bands
        auto* tabs = b->findChild<QTabWidget*>();
        QVERIFY(tabs);
        bool named = false;
        for (int i = 0; i < tabs->count(); ++i)
            named = named || tabs->tabText(i) == QStringLiteral("Inferred outages (2)");
        QVERIFY(named);
    }

    void correlationRowZoomsToEvent()
    {
        MainWindow w;
        CaptureView* view = openSample(w);
        QVERIFY(view);
        const Reference& ref = reference();
        const analysis::Correlation& correlation = ref.pipeline->correlation();
        std::size_t impacts = 0;
        for (const analysis::EventImpact& i : correlation.impacts)
            impacts += i.connections.size();
        CorrelationPanel* panel = view->correlationPanel();
        QAbstractItemModelTester tester(panel->proxy(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QVERIFY(impacts > 0);
        QCOMPARE(static_cast<std::size_t>(panel->model()->rowCount()), impacts);

        // Sortable by the numbers: most retransmissions first.
        panel->proxy()->sort(CorrelationTableModel::Retransmissions, Qt::DescendingOrder);
        for (int row = 1; row < panel->proxy()->rowCount(); ++row)
            QVERIFY(panel->proxy()->index(row - 1, CorrelationTableModel::Retransmissions).data(CorrelationTableModel::kSortRole).toUInt() >=
                    panel->proxy()->index(row, CorrelationTableModel::Retransmissions).data(CorrelationTableModel::kSortRole).toUInt());

        // The top row's values are the analysis' for that (event, connection).
        const QModelIndex top = panel->proxy()->index(0, CorrelationTableModel::Retransmissions);
        const int event = top.data(CorrelationTableModel::kEventRole).toInt();
        const int connection = top.data(CorrelationTableModel::kConnectionRole).toInt();
        const analysis::ConnectionImpact* impact = nullptr;
        for (const analysis::ConnectionImpact& m : correlation.impacts[static_cast<std::size_t>(event)].connections)
            if (static_cast<int>(m.connection) == connection)
                impact = &m;
        QVERIFY(impact);
        QCOMPARE(top.data(CorrelationTableModel::kSortRole).toUInt(), impact->retransmissions);
        QCOMPARE(panel->proxy()->index(0, CorrelationTableModel::WindowMin).data(CorrelationTableModel::kSortRole).toDouble(),
                 impact->windowMinBytes < 0 ? -1.0 : static_cast<double>(impact->windowMinBytes));

        // A click on a row other than the current event zooms every plot to it.
        auto* tabs = qobject_cast<QTabWidget*>(panel->parentWidget()->parentWidget());
        QVERIFY(tabs);
        tabs->setCurrentWidget(panel);
        QVERIFY(QTest::qWaitForWindowExposed(panel->view()));
        int row = 0;
        while (row < panel->proxy()->rowCount() - 1 &&
               panel->proxy()->index(row, 0).data(CorrelationTableModel::kEventRole).toInt() == view->selectedEvent())
            ++row;
        const QModelIndex index = panel->proxy()->index(row, CorrelationTableModel::Kind);
        const int clickedEvent = index.data(CorrelationTableModel::kEventRole).toInt();
        const int clickedConnection = index.data(CorrelationTableModel::kConnectionRole).toInt();
        view->plotStack()->timeAxis()->reset();
        panel->view()->scrollTo(index);
        QTest::mouseClick(panel->view()->viewport(), Qt::LeftButton, {}, panel->view()->visualRect(index).center());
        QCOMPARE(view->selectedEvent(), clickedEvent);
        QCOMPARE(view->selectedConnection(), clickedConnection);
        const analysis::WlanEvent& e = ref.events.at(static_cast<std::size_t>(clickedEvent));
        const double start = static_cast<double>(e.startNs) / 1e9, end = static_cast<double>(e.endNs) / 1e9;
        const QCPRange first = view->plotStack()->panels().front()->xAxis->range();
        QVERIFY(first.size() < view->plotStack()->timeAxis()->fullUpper() - view->plotStack()->timeAxis()->fullLower());
        for (PlotPanel* p : view->plotStack()->panels()) {
            const QCPRange r = p->xAxis->range();
            QVERIFY2(r.lower < start && r.upper > end, qPrintable(p->title()));
            QVERIFY(rangesEqual(r, first));
        }
    }

    void throughputFilterHidesRows()
    {
        // A capture with many connections of different rates.
        const QString path = QStringLiteral(WINDSCOPE_SHARED_DIR "/captures/public/pcapplusplus__example.pcap");
        if (!QFile::exists(path))
            QSKIP("../shared/captures/public/pcapplusplus__example.pcap is not there");
        dissect::CaptureTables tables;
        std::string error;
        QVERIFY(dissect::ingestCapture(path.toStdString(), {}, tables, error));
        const analysis::TcpAnalysis tcp = analysis::analyzeTcp(tables);
        auto count = [&](double minBps, double maxBps, int minRetx, int maxRetx) {
            int n = 0;
            for (const analysis::Connection& c : tcp.connections) {
                const analysis::DirectionStats& d = c.direction[analysis::cwnd::dataSenderOf(c)];
                n += d.throughputBps >= minBps && (maxBps < 0 || d.throughputBps <= maxBps) &&
                     d.retransmissions >= static_cast<std::uint64_t>(minRetx) &&
                     (maxRetx < 0 || d.retransmissions <= static_cast<std::uint64_t>(maxRetx));
            }
            return n;
        };
        MainWindow w;
        w.setInteractive(false);
        QSignalSpy ready(&w, &MainWindow::captureReady);
        CaptureView* view = w.openCapture(path);
        QVERIFY(ready.wait(60000) || !ready.isEmpty());
        ConnectionFilterBar* bar = view->filterBar();
        QCOMPARE(view->connectionFilter()->rowCount(), static_cast<int>(tcp.connections.size()));
        bar->minThroughput()->setValue(0.05);
        const int atLeast = count(50e3, -1, 0, -1);
        QVERIFY(atLeast > 0 && atLeast < static_cast<int>(tcp.connections.size()));
        QCOMPARE(view->connectionFilter()->rowCount(), atLeast);
        for (int row = 0; row < view->connectionFilter()->rowCount(); ++row)
            QVERIFY(view->connectionFilter()->index(row, ConnectionTableModel::Throughput).data(ConnectionTableModel::kSortRole).toDouble() >= 50e3);
        bar->maxThroughput()->setValue(0.1);
        const int between = count(50e3, 100e3, 0, -1);
        QVERIFY(between < atLeast);
        QCOMPARE(view->connectionFilter()->rowCount(), between);
        // "any" again, then a retransmission range.
        bar->maxThroughput()->setValue(bar->maxThroughput()->minimum());
        bar->minThroughput()->setValue(0);
        QCOMPARE(view->connectionFilter()->rowCount(), static_cast<int>(tcp.connections.size()));
        bar->minRetransmissions()->setValue(1);
        bar->maxRetransmissions()->setValue(2);
        QCOMPARE(view->connectionFilter()->rowCount(), count(0, -1, 1, 2));
    }

    void figureMatchesWindowZoom()
    {
        MainWindow w;
        CaptureView* view = openSample(w);
        QVERIFY(view);
        const int event = static_cast<int>(reference().events.size()) - 1;
        view->selectEvent(event);
        // What windscope-cli export draws for --event: the connection's series from the
        // analysis, zoomed to the event with its band outlined, by the same renderer.
        const analysis::WlanEvent& e = reference().events.at(static_cast<std::size_t>(event));
        render::FigureOptions request;
        request.preset = *exportPreset(QStringLiteral("single-column"));
        request.range = render::eventRange(e);
        request.highlightedEvent = static_cast<long long>(e.id);
        const Reference& ref = reference();
        const analysis::ConnectionSeries series = analysis::buildConnectionSeries(
            {ref.tables, ref.tcp, ref.pipeline.get(), &ref.inventory, &ref.events}, static_cast<std::size_t>(view->selectedConnection()));
        QCOMPARE(series.timeSequence.segments.size(), view->plotStack()->series()->timeSequence.segments.size());
        const render::ConnectionFigure figure(series, request);
        QCOMPARE(view->plotStack()->timeAxis()->lower(), request.range->first);
        QCOMPARE(view->plotStack()->timeAxis()->upper(), request.range->second);
        const QImage fromWindow = renderStackFigure(*view->plotStack(), {}, request.preset);
        const QImage fromFigure = figure.image();
        QCOMPARE(fromFigure.size(), fromWindow.size());
        QVERIFY2(fromFigure == fromWindow, "the exported figure differs from the window's export of the same view");
    }

    void zoomRebinsAndShowsFrames()
    {
        MainWindow w;
        CaptureView* view = openSample(w);
        QVERIFY(view);
        PlotStack* stack = view->plotStack();
        auto* lane = qobject_cast<WlanLanePlot*>(stack->panel(PlotKind::WlanLane));
        auto* rate = qobject_cast<RatePlot*>(stack->panel(PlotKind::Throughput));
        QVERIFY(lane && rate);
        // The whole connection: bins, the same width in both plots, named in the legend.
        stack->timeAxis()->reset();
        QVERIFY(!lane->showsFrames());
        const double wholeBin = rate->binSeconds();
        QVERIFY2(wholeBin >= 0.02 && wholeBin <= 0.1, qPrintable(QString::number(wholeBin)));
        QCOMPARE(lane->binSeconds(), wholeBin);
        QVERIFY(rate->lodGraph(QStringLiteral("throughput"))->graph->name().contains(
            QString::fromStdString(analysis::binWidthText(wholeBin)) + QStringLiteral(" bins")));
        // Zoomed to scan 0 (10 ms): the finest bins and the frames themselves, the scan's
        // Null PM=1 / PM=0 named by their ticks and read by the crosshair.
        view->selectEvent(0);
        QCOMPARE(rate->binSeconds(), analysis::kMinBinSeconds);
        QVERIFY(lane->showsFrames());
        QCOMPARE(lane->frameLabels(), QStringList({QStringLiteral("Null PM=1"), QStringLiteral("Null PM=0")}));
        const QString readout = lane->valuesText(0.912467);
        QVERIFY2(readout.contains(QStringLiteral("frame 2978: Null PM=1 from station, 24 Mb/s")), qPrintable(readout));
        // The throughput drawn is the analysis' binning of the view (the CLI's numbers).
        const double lower = stack->timeAxis()->lower(), upper = stack->timeAxis()->upper();
        const analysis::RateSeries expected =
            analysis::binRates(*stack->series(), lower - rate->binSeconds(), upper + rate->binSeconds(), rate->binSeconds());
        const LodGraph* throughput = rate->lodGraph(QStringLiteral("throughput"));
        QCOMPARE(throughput->series.times(), expected.throughput.t);
        QCOMPARE(throughput->series.lo(), expected.throughput.v);
        // A pan by a fraction of a bin keeps every bin's value at its time.
        stack->timeAxis()->setRange(lower + 0.003, upper + 0.003);
        const LodGraph* panned = rate->lodGraph(QStringLiteral("throughput"));
        for (std::size_t i = 0; i < panned->series.size(); ++i) {
            const std::size_t j = analysis::nearestIndex(expected.throughput.t, panned->series.times()[i]);
            if (std::fabs(expected.throughput.t[j] - panned->series.times()[i]) < 1e-12)
                QCOMPARE(panned->series.lo()[i], expected.throughput.v[j]);
        }
        if (const QByteArray shots = qgetenv("WINDSCOPE_SCREENSHOT_DIR"); !shots.isEmpty())
            w.grab().save(QDir(QString::fromLocal8Bit(shots)).filePath(QStringLiteral("zoomed-scan.png")));
    }

    void compareCaptureWithReplay()
    {
        MainWindow w;
        CaptureView* view = openSample(w);
        QVERIFY(view);
        const int connection = view->selectedConnection();
        QSignalSpy opened(&w, &MainWindow::compareOpened);
        ReplayRequest request;
        request.fixes = {QStringLiteral("ap-zero-window-ack")};
        QVERIFY(w.compareWithReplay(request));
        QVERIFY(opened.wait(120000) || !opened.isEmpty());
        auto* compare = opened.front().front().value<CompareWindow*>();
        QVERIFY(compare);
        if (const QByteArray shots = qgetenv("WINDSCOPE_SCREENSHOT_DIR"); !shots.isEmpty())
            compare->grab().save(QDir(QString::fromLocal8Bit(shots)).filePath(QStringLiteral("compare-replay.png")));

        // The replay as the command line reports it, run independently.
        QProcess cli;
        cli.start(QStringLiteral(WINDSCOPE_CLI), {QStringLiteral("replay"), QStringLiteral(WINDSCOPE_SAMPLE_CAPTURE),
                                                  QStringLiteral("--flow"), QString::number(connection),
                                                  QStringLiteral("--fix"), QStringLiteral("ap-zero-window-ack"),
                                                  QStringLiteral("--json")});
        QVERIFY(cli.waitForFinished(120000));
        QCOMPARE(cli.exitCode(), 0);
        const QJsonObject json = QJsonDocument::fromJson(cli.readAllStandardOutput()).object();
        const QJsonObject captured = json.value(QStringLiteral("capture")).toObject();
        // The window shows one real run: the fix's run kept from the seeds (closest to
        // their mean, which "fixed" reports).
        const QJsonObject seedRuns = json.value(QStringLiteral("seed_runs")).toObject();
        const QJsonObject fixed = seedRuns.value(QStringLiteral("fixed")).toObject().value(QStringLiteral("kept")).toObject();
        QVERIFY(!fixed.isEmpty());
        QVERIFY(!json.value(QStringLiteral("fixed")).toObject().isEmpty());
        // The pair drawn is on one seed: the fixed run kept is the baseline's seed.
        QCOMPARE(seedRuns.value(QStringLiteral("fixed"))
                     .toObject()
                     .value(QStringLiteral("kept_seed"))
                     .toInt(),
                 seedRuns.value(QStringLiteral("baseline"))
                     .toObject()
                     .value(QStringLiteral("kept_seed"))
                     .toInt());
        // The sample ends mid-transfer: the fix is against the baseline run for its time,
        // and the note says so (the baseline line drawn sends the capture's bytes).
        QVERIFY(json.value(QStringLiteral("fix_baseline")).isObject());
        QVERIFY2(compare->noteLabel()->text().contains(
                     QStringLiteral("against the baseline run for that time")),
                 qPrintable(compare->noteLabel()->text()));
        // And the note says which seed it is when the scenario ran over several.
        if (seedRuns.value(QStringLiteral("count")).toInt() > 1)
            QVERIFY2(compare->noteLabel()->text().contains(
                         QStringLiteral("seed %1").arg(seedRuns.value(QStringLiteral("fixed")).toObject().value(QStringLiteral("kept_seed")).toInt())),
                     qPrintable(compare->noteLabel()->text()));
        auto row = [&](const char* metric) -> const analysis::ComparisonRow* {
            for (const analysis::ComparisonRow& r : compare->rows())
                if (r.metric == metric)
                    return &r;
            return nullptr;
        };
        auto close = [](double a, double b) { return std::fabs(a - b) <= 1e-9 * std::max(1.0, std::fabs(b)); };
        const std::pair<const char*, const char*> metrics[] = {{"goodput", "goodput_bps"},
                                                               {"completion time", "completion_s"},
                                                               {"retransmissions", "retransmissions"},
                                                               {"RTO timeouts", "rto_timeouts"}};
        for (const auto& [metric, key] : metrics) {
            const analysis::ComparisonRow* r = row(metric);
            QVERIFY2(r, metric);
            QVERIFY2(close(r->a, captured.value(QLatin1String(key)).toDouble()), metric);
            QVERIFY2(close(r->b, fixed.value(QLatin1String(key)).toDouble()), qPrintable(QStringLiteral("%1: %2 vs %3").arg(QLatin1String(metric)).arg(r->b).arg(fixed.value(QLatin1String(key)).toDouble())));
        }
        // The baseline is the third line: its kept run is the CLI's, the table has the
        // model's error and the fix's effect apart, and every overlaid plot draws it.
        QVERIFY(compare->hasReference());
        const QJsonObject baseline =
            seedRuns.value(QStringLiteral("baseline")).toObject().value(QStringLiteral("kept")).toObject();
        QVERIFY(!baseline.isEmpty());
        for (const auto& [metric, key] : metrics) {
            const analysis::ComparisonRow* r = nullptr;
            for (const analysis::ComparisonRow& x : compare->referenceRows())
                if (x.metric == metric)
                    r = &x;
            QVERIFY2(r, metric);
            QVERIFY2(close(r->b, baseline.value(QLatin1String(key)).toDouble()),
                     qPrintable(QStringLiteral("%1: %2 vs %3").arg(QLatin1String(metric)).arg(r->b).arg(baseline.value(QLatin1String(key)).toDouble())));
        }
        QCOMPARE(compare->table()->columnCount(), 6);
        QVERIFY(compare->table()->horizontalHeaderItem(4)->text().startsWith(QStringLiteral("model error")));
        QVERIFY(compare->table()->horizontalHeaderItem(5)->text().startsWith(QStringLiteral("fix effect")));
        for (ComparePlot* p : compare->plots())
            QCOMPARE(p->lodGraphs()[2]->series.size() > 0, true);
        // The table shows them, and the time in each sender phase from the cwnd inference.
        QCOMPARE(compare->table()->rowCount(), static_cast<int>(compare->rows().size()));
        int phaseRows = 0;
        double phaseA = 0;
        for (const analysis::ComparisonRow& r : compare->rows())
            if (r.metric.rfind("time in ", 0) == 0) {
                ++phaseRows;
                phaseA += r.a;
            }
        QVERIFY(phaseRows > 0);
        const analysis::ConnectionSeries& a = compare->seriesA();
        QVERIFY(a.timeSequence.segments.size() > 1);
        // Phases cover the sender's first to last data segment.
        QVERIFY(std::fabs(phaseA - (a.timeSequence.segments.t.back() - a.timeSequence.segments.t.front())) < 1e-6);

        // Aligned at the handoff: the capture at its start, the replay at the same time
        // after its first data segment; both overlaid series shifted accordingly.
        int handoff = -1;
        for (std::size_t e = 0; e < reference().events.size(); ++e)
            if (reference().events.at(e).kind == analysis::WlanEventKind::Handoff)
                handoff = static_cast<int>(e);
        QVERIFY(handoff >= 0);
        QVERIFY(compare->alignAtEvent(handoff));
        const double start = static_cast<double>(reference().events.at(static_cast<std::size_t>(handoff)).startNs) / 1e9;
        QCOMPARE(compare->offsetA(), start);
        const analysis::ConnectionSeries& b = compare->seriesB();
        QVERIFY(std::fabs((compare->offsetB() - b.timeSequence.segments.t.front()) -
                          (start - a.timeSequence.segments.t.front())) < 1e-9);
        const LodGraph* delivered = compare->plots().front()->lodGraphs()[0].get();
        QCOMPARE(delivered->series.times().front(), a.timeSequence.ack.t.front() - start);

        // Side by side: zooming one stack moves the other.
        compare->setView(CompareWindow::View::SideBySide);
        compare->stackA()->timeAxis()->zoomAroundMiddle(0.25);
        QCOMPARE(compare->stackB()->timeAxis()->lower(), compare->stackA()->timeAxis()->lower());
        QCOMPARE(compare->stackB()->timeAxis()->upper(), compare->stackA()->timeAxis()->upper());
        QVERIFY(rangesEqual(compare->stackB()->panels().front()->xAxis->range(),
                            compare->stackA()->panels().front()->xAxis->range()));
        compare->close();
    }

    // A window-limited capture never filled the router's queue: the window fix's effect
    // turns on a queue it did not measure, and the compare window says so, with the
    // effect at both ends (the one BDP assumed, the least the capture allows).
    void compareWindowFixOnAnUnmeasuredQueue()
    {
        const QString path = QStringLiteral(WINDSCOPE_SHARED_DIR "/captures/lab/ns3/D-wan-cubic-16k/wired-server.pcap");
        if (!QFileInfo::exists(path))
            QSKIP("the lab's D-wan-cubic-16k run in ../shared/captures is not there");
        MainWindow w;
        CaptureView* view = openAndWait(w, path);
        QVERIFY(view);
        QSignalSpy opened(&w, &MainWindow::compareOpened);
        ReplayRequest request;
        request.fixes = {QStringLiteral("max-window=2097152")};
        QVERIFY(w.compareWithReplay(request));
        QVERIFY(opened.wait(120000) || !opened.isEmpty());
        auto* compare = opened.front().front().value<CompareWindow*>();
        QVERIFY(compare);
        compare->resize(1400, 900);
        QTest::qWait(200);
        if (const QByteArray shots = qgetenv("WINDSCOPE_SCREENSHOT_DIR"); !shots.isEmpty())
            compare->grab().save(QDir(QString::fromLocal8Bit(shots)).filePath(QStringLiteral("compare-queue-floor.png")));
        const QString note = compare->noteLabel()->text();
        QVERIFY2(note.contains(QStringLiteral("with the bottleneck queue at the least the capture allows (15.0 kB")),
                 qPrintable(note));
        QVERIFY2(note.contains(QStringLiteral("a queue the capture never saw full")), qPrintable(note));
    }

    void sweepReplayParameter()
    {
        MainWindow w;
        CaptureView* view = openSample(w);
        QVERIFY(view);
        const int connection = view->selectedConnection();
        SweepWindow* sweep = w.openSweep();
        QVERIFY(sweep);
        QVERIFY(QTest::qWaitForWindowExposed(sweep));
        QVERIFY(!sweep->setParameter(QStringLiteral("no-such-parameter")));
        QVERIFY(sweep->setParameter(QStringLiteral("handoff-duration")));

        // A range that runs backwards is refused, with the reason shown.
        sweep->setRange(2000, 250, 250);
        QVERIFY(!sweep->start());
        QVERIFY2(sweep->statusText().contains(QStringLiteral("from <= to")), qPrintable(sweep->statusText()));

        sweep->setRange(250, 2000, 250);
        QSignalSpy done(sweep, &SweepWindow::finished);
        QSignalSpy progress(sweep, &SweepWindow::progressed);
        QVERIFY(sweep->start());
        QVERIFY(!sweep->start()); // one sweep at a time
        QVERIFY(done.wait(120000) || !done.isEmpty());
        QVERIFY(sweep->outcome().has_value());
        const SweepOutcome& outcome = *sweep->outcome();
        QVERIFY(!outcome.cancelled);
        QCOMPARE(outcome.points.size(), std::size_t{8});
        QCOMPARE(sweep->table()->rowCount(), 8);
        QVERIFY(!progress.isEmpty());
        QCOMPARE(progress.last().at(0).toInt(), 8);
        // goodput, completion time, and the capture's and the baseline's goodput.
        QCOMPARE(sweep->plot()->graphCount(), 4);
        QCOMPARE(sweep->plot()->graph(0)->data()->size(), 8);
        // The goodput axis fits the points and the reference lines, not zero: each lies
        // inside it, and it starts above zero where the data do.
        const QCPRange gr = sweep->plot()->yAxis->range();
        double lowest = outcome.reference.baseline.goodputBps / 1e6;
        for (const auto& p : outcome.points)
            lowest = std::min(lowest, p.runs.min.goodputBps / 1e6);
        QVERIFY2(gr.lower > 0 && gr.lower <= lowest && gr.lower > lowest * 0.5,
                 qPrintable(QStringLiteral("%1..%2, lowest %3").arg(gr.lower).arg(gr.upper).arg(lowest)));
        QVERIFY(gr.contains(outcome.reference.baseline.goodputBps / 1e6));
        // The longer the station is away, the less the connection delivers in the time
        // the sample recorded (it ends mid-transfer: each run is read over its span, and
        // a run whose sender sat out the end in a timer's backoff reads its goodput
        // over the shorter time it sent, as a capture cut then would).
        for (std::size_t i = 1; i < outcome.points.size(); ++i)
            QVERIFY(outcome.points[i].metrics.bytes <= outcome.points[i - 1].metrics.bytes);
        QVERIFY(outcome.points.front().metrics.bytes > outcome.points.back().metrics.bytes);
        QVERIFY(outcome.points.front().metrics.goodputBps > outcome.points.back().metrics.goodputBps);
        QVERIFY(outcome.reference.capture.has_value());
        QVERIFY(sweep->statusText().contains(QStringLiteral("8 points")));
        // Each point is the mean over the baseline's own seeds, with their spread.
        for (const auto& p : outcome.points) {
            QCOMPARE(p.runs.seeds, outcome.reference.baselineSeeds.seeds);
            QVERIFY(p.runs.min.goodputBps <= p.metrics.goodputBps && p.metrics.goodputBps <= p.runs.max.goodputBps);
        }
        if (outcome.reference.baselineSeeds.seeds.size() > 1)
            QVERIFY(sweep->table()->item(0, 2)->text().contains(QStringLiteral("seeds")));

        // The table as windscope-cli writes the same sweep, run independently.
        QTemporaryDir dir;
        QString error;
        const QString csv = dir.filePath(QStringLiteral("sweep.csv"));
        QVERIFY2(sweep->exportCsv(csv, &error), qPrintable(error));
        QProcess cli;
        cli.start(QStringLiteral(WINDSCOPE_CLI),
                  {QStringLiteral("replay"), QStringLiteral(WINDSCOPE_SAMPLE_CAPTURE), QStringLiteral("--flow"),
                   QString::number(connection), QStringLiteral("--sweep"),
                   QStringLiteral("handoff-duration=250:2000:250"), QStringLiteral("--csv")});
        QVERIFY(cli.waitForFinished(120000));
        QCOMPARE(cli.exitCode(), 0);
        QFile written(csv);
        QVERIFY(written.open(QIODevice::ReadOnly));
        QCOMPARE(written.readAll(), cli.readAllStandardOutput());

        // The figure, at a journal column's width.
        const ExportPreset preset = *exportPreset(QStringLiteral("single-column"));
        const QString png = dir.filePath(QStringLiteral("sweep.png"));
        QVERIFY2(sweep->exportFigure(png, preset, &error), qPrintable(error));
        const QImage image(png);
        QVERIFY(!image.isNull());
        QCOMPARE(image.width(), static_cast<int>(std::lround(static_cast<double>(std::lround(85 / 25.4 * 96)) * 300 / 96.0)));
        const QString pdf = dir.filePath(QStringLiteral("sweep.pdf"));
        QVERIFY2(sweep->exportFigure(pdf, preset, &error), qPrintable(error));
        QFile pdfFile(pdf);
        QVERIFY(pdfFile.open(QIODevice::ReadOnly));
        QVERIFY(pdfFile.read(5) == "%PDF-");
        QVERIFY(!sweep->exportFigure(dir.filePath(QStringLiteral("sweep.txt")), preset, &error));
        QVERIFY(error.contains(QStringLiteral("unknown figure format")));
        if (const QByteArray shots = qgetenv("WINDSCOPE_SCREENSHOT_DIR"); !shots.isEmpty())
        {
            sweep->grab().save(QDir(QString::fromLocal8Bit(shots)).filePath(QStringLiteral("sweep-window.png")));
            sweep->exportFigure(QDir(QString::fromLocal8Bit(shots)).filePath(QStringLiteral("sweep-figure.png")), preset,
                                &error);
        }
        sweep->close();
    }

    void cancelSweep()
    {
        MainWindow w;
        CaptureView* view = openSample(w);
        QVERIFY(view);
        SweepWindow* sweep = w.openSweep();
        QVERIFY(sweep);
        QVERIFY(sweep->setParameter(QStringLiteral("seed")));
        sweep->setRange(1, 4000, 1);
        QSignalSpy done(sweep, &SweepWindow::finished);
        QSignalSpy progress(sweep, &SweepWindow::progressed);
        QVERIFY(sweep->start());
        QVERIFY(sweep->isRunning());
        QVERIFY(progress.wait(60000) || !progress.isEmpty());
        sweep->cancel();
        QVERIFY(done.wait(60000) || !done.isEmpty());
        QVERIFY(!sweep->isRunning());
        QVERIFY(sweep->outcome().has_value());
        QVERIFY(sweep->outcome()->cancelled);
        std::size_t finished = 0;
        for (const auto& p : sweep->outcome()->points)
            finished += p.error.empty();
        QVERIFY(finished > 0);
        QVERIFY(finished < 4000);
        QVERIFY2(sweep->statusText().contains(QStringLiteral("Cancelled")), qPrintable(sweep->statusText()));
        // Finished points are in the table; the rest say they were cancelled.
        QCOMPARE(sweep->table()->rowCount(), 4000);
        QCOMPARE(sweep->plot()->graph(0)->data()->size(), static_cast<int>(finished));
        sweep->close();
    }

    void reportFromGui()
    {
        MainWindow w;
        CaptureView* view = openSample(w);
        QVERIFY(view);
        ReportDialog dialog(*view->capture(), view->selectedConnection(), QString());
        const ReportOptions options = dialog.options();
        QCOMPARE(options.connections, QList<int>{view->selectedConnection()});
        QVERIFY(options.figures);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("report.html"));
        QString error;
        QVERIFY2(render::writeReport(*view->capture()->pipeline, options, path, &error), qPrintable(error));
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QString html = QString::fromUtf8(f.readAll());
        QVERIFY(html.contains(QStringLiteral("Figure 1: Connection %1 (").arg(view->selectedConnection())));
        QVERIFY(html.contains(QStringLiteral("<table id=\"correlation\"")));
        // Unticking every connection gives the tables alone.
        for (int i = 0; i < dialog.connectionList()->count(); ++i)
            dialog.connectionList()->item(i)->setCheckState(Qt::Unchecked);
        QVERIFY(!dialog.options().figures);
        const QString pdf = dir.filePath(QStringLiteral("tables.pdf"));
        QVERIFY2(render::writeReport(*view->capture()->pipeline, dialog.options(), pdf, &error), qPrintable(error));
        QVERIFY(QFileInfo(pdf).size() > 1000);
    }

    void cwndInferredOffGuiThread()
    {
        MainWindow w;
        w.setInteractive(false);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        // The state the moment the capture is shown, before the event loop runs again.
        bool completeAtFirst = true, busyAtFirst = false;
        std::size_t cwndAtFirst = 0, segmentsAtFirst = 0;
        QCPRange rangeAtFirst;
        connect(&w, &MainWindow::captureReady, this, [&](CaptureView* v) {
            completeAtFirst = v->isSeriesComplete();
            busyAtFirst = v->plotStack()->isBusy();
            cwndAtFirst = v->plotStack()->series()->window.cwnd.size();
            segmentsAtFirst = v->plotStack()->series()->timeSequence.segments.size();
            rangeAtFirst = v->plotStack()->panels().front()->xAxis->range();
        });
        QSignalSpy ready(&w, &MainWindow::captureReady);
        CaptureView* view = w.openCapture(QStringLiteral(WINDSCOPE_SAMPLE_CAPTURE));
        QSignalSpy complete(view, &CaptureView::seriesCompleted);
        QVERIFY(ready.wait(60000) || !ready.isEmpty());
        QVERIFY(!completeAtFirst);
        QVERIFY(busyAtFirst);
        QCOMPARE(cwndAtFirst, std::size_t{0});
        QVERIFY(segmentsAtFirst > 0); // the rest of the plots are there at once
        QVERIFY(complete.wait(60000) || !complete.isEmpty());
        QVERIFY(view->isSeriesComplete());
        QVERIFY(!view->plotStack()->isBusy());
        // The cwnd the analysis infers, filled in without moving the view.
        const Reference& ref = reference();
        const auto connection = static_cast<std::size_t>(view->selectedConnection());
        const analysis::ConnectionSeries expected =
            analysis::buildConnectionSeries(
                {ref.tables, ref.tcp, ref.pipeline.get(), &ref.inventory, &ref.events}, connection);
        QVERIFY(expected.window.cwnd.size() > 0);
        QVERIFY(view->plotStack()->series()->window.cwnd.v == expected.window.cwnd.v);
        QVERIFY(view->plotStack()->series()->window.cwnd.t == expected.window.cwnd.t);
        QVERIFY(rangesEqual(view->plotStack()->panels().front()->xAxis->range(), rangeAtFirst));
        QVERIFY(view->plotStack()->panel(PlotKind::Window)->lodGraphs().size() > 0);
    }

    // The Fleet tab lists what `windscope-cli fleet` ranks, sorts by any column, plots
    // the kinds, and a double click opens the capture at the group's worst event.
    void fleetTabListsTheProjectAndOpensTheWorstEvent()
    {
        QTemporaryDir dir;
        const QString project = dir.filePath(QStringLiteral("archive.wsproj"));
        QProcess cli;
        cli.start(QStringLiteral(WINDSCOPE_CLI), {QStringLiteral("batch"), QStringLiteral(WINDSCOPE_SAMPLE_CAPTURE),
                                                  QStringLiteral("--project"), project});
        QVERIFY(cli.waitForFinished(120000));
        QCOMPARE(cli.exitCode(), 0);
        cli.start(QStringLiteral(WINDSCOPE_CLI), {QStringLiteral("fleet"), project, QStringLiteral("--json")});
        QVERIFY(cli.waitForFinished(60000));
        QCOMPARE(cli.exitCode(), 0);
        const QJsonObject fleet = QJsonDocument::fromJson(cli.readAllStandardOutput()).object();
        const QJsonArray groups = fleet.value(QStringLiteral("groups")).toArray();
        QVERIFY(!groups.isEmpty());

        MainWindow w;
        w.setInteractive(false);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QString error;
        FleetView* view = w.openFleet(project, &error);
        QVERIFY2(view, qPrintable(error));
        QAbstractItemModelTester tester(view->model());
        QCOMPARE(view->model()->rowCount(), groups.size());
        const QAbstractItemModel* shown = view->table()->model();
        for (int r = 0; r < groups.size(); ++r) {
            const QJsonObject g = groups.at(r).toObject();
            QCOMPARE(shown->index(r, FleetTableModel::Key).data().toString(), g.value(QStringLiteral("key")).toString());
            QCOMPARE(shown->index(r, FleetTableModel::Stalled).data().toString(),
                     QString::number(g.value(QStringLiteral("stalled_ms")).toDouble() / 1e3, 'f', 3));
            QCOMPARE(shown->index(r, FleetTableModel::Retransmissions).data().toString(),
                     QString::number(g.value(QStringLiteral("retransmissions")).toInteger()));
        }
        // One bar per event kind of the archive.
        QCOMPARE(view->kindPlot()->plottableCount(), fleet.value(QStringLiteral("kinds")).toArray().size());
        QVERIFY(view->dayPlot()->plottableCount() > 0);
        // Sorted by events, most first.
        view->table()->sortByColumn(FleetTableModel::Events, Qt::DescendingOrder);
        for (int r = 1; r < shown->rowCount(); ++r)
            QVERIFY(shown->index(r - 1, FleetTableModel::Events).data(FleetTableModel::kSortRole).toULongLong() >=
                    shown->index(r, FleetTableModel::Events).data(FleetTableModel::kSortRole).toULongLong());
        view->setGrouping(analysis::FleetGrouping::Day);
        QCOMPARE(shown->headerData(FleetTableModel::Key, Qt::Horizontal).toString(), QStringLiteral("Day (UTC)"));
        // The exported table is the CLI's CSV of the same grouping; the plots are a figure.
        const QString csvPath = dir.filePath(QStringLiteral("fleet-days.csv"));
        QVERIFY2(view->exportTable(csvPath, &error), qPrintable(error));
        cli.start(QStringLiteral(WINDSCOPE_CLI), {QStringLiteral("fleet"), project, QStringLiteral("--csv"),
                                                  QStringLiteral("--by"), QStringLiteral("day")});
        QVERIFY(cli.waitForFinished(60000));
        QFile csv(csvPath);
        QVERIFY(csv.open(QIODevice::ReadOnly));
        QCOMPARE(csv.readAll(), cli.readAllStandardOutput());
        const QString figure = dir.filePath(QStringLiteral("fleet.png"));
        QVERIFY2(view->exportPlots(figure, &error), qPrintable(error));
        QImage image(figure);
        QVERIFY(!image.isNull());
        QVERIFY(image.width() > image.height());
        view->setGrouping(analysis::FleetGrouping::Station);

        // The first group by rank: its worst event, opened from the project's cache.
        view->table()->sortByColumn(FleetTableModel::Rank, Qt::AscendingOrder);
        const QJsonObject worst = groups.at(0).toObject().value(QStringLiteral("worst_event")).toObject();
        QVERIFY(!worst.isEmpty());
        QSignalSpy ready(&w, &MainWindow::captureReady);
        view->openRow(0);
        QVERIFY(ready.wait(60000) || !ready.isEmpty());
        auto* capture = ready.first().first().value<CaptureView*>();
        QVERIFY(capture);
        QCOMPARE(capture->selectedEvent(), worst.value(QStringLiteral("event")).toInt());
        const QCPRange range = capture->plotStack()->panels().front()->xAxis->range();
        QVERIFY(range.lower <= worst.value(QStringLiteral("start_s")).toDouble() + 1e-6);
        QVERIFY(range.upper >= worst.value(QStringLiteral("end_s")).toDouble() - 1e-6);
        QCOMPARE(w.currentView(), capture);
    }

    void openBadFileShowsError()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("notes.txt"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("this is not a capture file\n");
        f.close();
        MainWindow w;
        w.setInteractive(false);
        CaptureView* view = w.openCapture(path);
        QSignalSpy failed(view, &CaptureView::loadFailed);
        QVERIFY(failed.wait(30000) || !failed.isEmpty());
        QVERIFY(!view->isLoaded());
        // The library's own message: the file and the problem.
        QVERIFY2(view->errorText().contains(QStringLiteral("notes.txt")), qPrintable(view->errorText()));
        QVERIFY2(view->errorText().contains(QStringLiteral("not a pcap or pcapng")), qPrintable(view->errorText()));
    }

    void cancelLoad()
    {
        MainWindow w;
        w.setInteractive(false);
        CaptureView* view = w.openCapture(QStringLiteral(WINDSCOPE_SAMPLE_CAPTURE));
        QSignalSpy cancelled(view, &CaptureView::loadCancelled);
        view->cancelLoad();
        QVERIFY(cancelled.wait(30000) || !cancelled.isEmpty());
        QVERIFY(!view->isLoaded());
        QVERIFY(!view->isLoading());
    }
};

QTEST_MAIN(GuiTest)
#include "test_gui.moc"
