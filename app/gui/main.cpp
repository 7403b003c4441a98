// SPDX-License-Identifier: GPL-3.0-or-later
// windscope: the desktop application. Opens the captures named on the command line;
// --screenshot grabs the window once the first capture is shown (documentation, CI).

#include "capture_view.h"
#include "main_window.h"
#include "plots/plot_export.h"
#include "plots/plot_stack.h"
#include "fleet_view.h"
#include "project/project_controller.h"
#include "wireshark/packet_detail_pane.h"
#include "windscope/version.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QTimer>
#include <QTreeWidget>

#include <cstdio>

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("Windscope"));
    QApplication::setApplicationName(QStringLiteral("windscope"));
    QApplication::setApplicationVersion(QStringLiteral(WINDSCOPE_VERSION));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("TCP over 802.11 analyzer"));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("files"),
                                 QStringLiteral("pcap or pcapng captures to open, or a Windscope project (.wsproj)"),
                                 QStringLiteral("[files...]"));
    const QCommandLineOption connection(QStringLiteral("select-connection"),
                                        QStringLiteral("Connection to show first (index as in windscope-cli)"),
                                        QStringLiteral("N"));
    const QCommandLineOption event(QStringLiteral("select-event"),
                                   QStringLiteral("802.11 event to zoom to first (index as in windscope-cli events)"),
                                   QStringLiteral("K"));
    const QCommandLineOption screenshot(QStringLiteral("screenshot"),
                                        QStringLiteral("Save a PNG of the window once the first capture is shown, then quit"),
                                        QStringLiteral("PATH"));
    const QCommandLineOption figure(QStringLiteral("export-figure"),
                                    QStringLiteral("Write the plot stack of the first capture's selection to PATH "
                                                   "(.png, .pdf or .svg), then quit"),
                                    QStringLiteral("PATH"));
    const QCommandLineOption preset(QStringLiteral("preset"),
                                    QStringLiteral("Figure preset: single-column, double-column, "
                                                   "double-column-colour or screen"),
                                    QStringLiteral("ID"), QStringLiteral("single-column"));
    const QCommandLineOption stevens(QStringLiteral("stevens"), QStringLiteral("Stevens-style time-sequence graph"));
    const QCommandLineOption packet(QStringLiteral("select-packet"),
                                    QStringLiteral("Show the packet list with frame N selected and its Wireshark "
                                                   "dissection (N in the selected connection's plotted range)"),
                                    QStringLiteral("N"));
    const QCommandLineOption fleet(QStringLiteral("fleet"),
                                   QStringLiteral("Open the Fleet tab of a project (what Wi-Fi events cost TCP over "
                                                  "its captures); with --screenshot, grab it; with --export-figure, "
                                                  "write its plots"),
                                   QStringLiteral("PROJECT"));
    const QCommandLineOption fleetBy(QStringLiteral("fleet-by"),
                                     QStringLiteral("Fleet grouping: station, ap, ssid, capture or day"),
                                     QStringLiteral("BY"), QStringLiteral("station"));
    parser.addOptions({connection, event, screenshot, figure, preset, stevens, packet, fleet, fleetBy});
    parser.process(app);

    windscope::gui::MainWindow window;
    if (parser.isSet(connection) || parser.isSet(event)) {
        windscope::gui::Selection s;
        s.connection = parser.isSet(connection) ? parser.value(connection).toInt() : -1;
        s.event = parser.isSet(event) ? parser.value(event).toInt() : -1;
        window.setInitialSelection(s);
    }
    const QString shot = parser.value(screenshot);
    const QString figurePath = parser.value(figure);
    const auto figurePreset = windscope::gui::exportPreset(parser.value(preset));
    if (!figurePath.isEmpty() && !figurePreset) {
        std::fprintf(stderr, "windscope: unknown preset %s\n", qPrintable(parser.value(preset)));
        return 2;
    }
    const bool useStevens = parser.isSet(stevens);
    const quint64 packetFrame = parser.value(packet).toULongLong();
    QObject::connect(&window, &windscope::gui::MainWindow::captureReady, &window,
                     [&window, shot, figurePath, figurePreset, useStevens, packetFrame](windscope::gui::CaptureView* view) {
                         // Figures and screenshots show the cwnd: wait for its inference.
                         if (!view->isSeriesComplete()) {
                             QObject::connect(view, &windscope::gui::CaptureView::seriesCompleted, &window,
                                              [&window, view] { emit window.captureReady(view); },
                                              Qt::SingleShotConnection);
                             return;
                         }
                         if (useStevens)
                             view->plotStack()->setSequenceStyle(windscope::gui::TimeSequencePlot::Style::Stevens);
                         const bool packetSelected = packetFrame && view->selectPacketFrame(packetFrame);
                         if (packetFrame && !packetSelected)
                             std::fprintf(stderr, "windscope: frame %llu is not in the packet list of the shown range\n",
                                          static_cast<unsigned long long>(packetFrame));
                         if (packetSelected && !shot.isEmpty()) {
                             // The screenshot waits for the dissection, and shows the TCP layer open.
                             auto* pane = view->packetDetailPane();
                             QObject::connect(pane, &windscope::gui::PacketDetailPane::packetShown, &window, [&window, pane, shot] {
                                 for (int i = 0; i < pane->tree()->topLevelItemCount(); ++i)
                                     if (pane->tree()->topLevelItem(i)->text(0).startsWith(QLatin1String("Transmission Control")))
                                         pane->tree()->topLevelItem(i)->setExpanded(true);
                                 QTimer::singleShot(800, &window, [&window, shot] {
                                     const bool ok = window.grab().save(shot, "PNG");
                                     std::fprintf(stderr, "windscope: %s %s\n", ok ? "wrote" : "could not write",
                                                  qPrintable(shot));
                                     QApplication::exit(ok ? 0 : 1);
                                 });
                             });
                             return;
                         }
                         if (!figurePath.isEmpty()) {
                             QTimer::singleShot(300, &window, [view, figurePath, figurePreset] {
                                 QString error;
                                 const bool ok = windscope::gui::exportStackFigure(*view->plotStack(), {}, *figurePreset,
                                                                                   figurePath, &error);
                                 std::fprintf(stderr, "windscope: %s\n",
                                              ok ? qPrintable(QStringLiteral("wrote ") + figurePath) : qPrintable(error));
                                 QApplication::exit(ok ? 0 : 1);
                             });
                             return;
                         }
                         if (shot.isEmpty())
                             return;
                         // Let the layout settle and the queued replots run first.
                         QTimer::singleShot(800, &window, [&window, shot] {
                             const bool ok = window.grab().save(shot, "PNG");
                             std::fprintf(stderr, "windscope: %s %s\n", ok ? "wrote" : "could not write",
                                          qPrintable(shot));
                             QApplication::exit(ok ? 0 : 1);
                         });
                     });
    window.setInteractive(shot.isEmpty() && figurePath.isEmpty());
    window.show();
    if (parser.isSet(fleet)) {
        windscope::analysis::FleetGrouping by;
        if (!windscope::analysis::parseFleetGrouping(parser.value(fleetBy).toStdString(), by)) {
            std::fprintf(stderr, "windscope: --fleet-by takes station, ap, ssid, capture or day\n");
            return 2;
        }
        QString error;
        windscope::gui::FleetView* view = window.openFleet(parser.value(fleet), &error);
        if (!view) {
            std::fprintf(stderr, "windscope: %s\n", qPrintable(error));
            if (!window.isInteractive())
                return 1;
        } else {
            view->setGrouping(by);
            if (!figurePath.isEmpty() && parser.positionalArguments().isEmpty()) {
                // The fleet's two plots as one figure (Export plots…).
                QTimer::singleShot(300, &window, [view, figurePath] {
                    QString message;
                    const bool ok = view->exportPlots(figurePath, &message);
                    std::fprintf(stderr, "windscope: %s\n",
                                 ok ? qPrintable(QStringLiteral("wrote ") + figurePath) : qPrintable(message));
                    QApplication::exit(ok ? 0 : 1);
                });
                return app.exec();
            }
            if (!shot.isEmpty() && parser.positionalArguments().isEmpty()) {
                QTimer::singleShot(800, &window, [&window, shot] {
                    const bool ok = window.grab().save(shot, "PNG");
                    std::fprintf(stderr, "windscope: %s %s\n", ok ? "wrote" : "could not write", qPrintable(shot));
                    QApplication::exit(ok ? 0 : 1);
                });
                return app.exec();
            }
        }
    }
    for (const QString& path : parser.positionalArguments()) {
        if (path.endsWith(QLatin1String(".wsproj"), Qt::CaseInsensitive)) {
            if (!window.project()->openProject(path) && !window.isInteractive()) {
                std::fprintf(stderr, "windscope: %s\n", qPrintable(window.project()->lastError()));
                return 1;
            }
        } else {
            window.openCapture(path);
        }
    }
    if (!shot.isEmpty() || !figurePath.isEmpty()) {
        if (parser.positionalArguments().isEmpty()) {
            std::fprintf(stderr, "windscope: --screenshot and --export-figure need a capture to show\n");
            return 2;
        }
        for (windscope::gui::CaptureView* v : window.views())
            QObject::connect(v, &windscope::gui::CaptureView::loadFailed, &app, [](const QString& message) {
                std::fprintf(stderr, "windscope: %s\n", qPrintable(message));
                QApplication::exit(1);
            });
    }
    return app.exec();
}
