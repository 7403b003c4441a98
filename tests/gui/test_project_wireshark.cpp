// SPDX-License-Identifier: GPL-3.0-or-later
// The desktop application's project files and Wireshark integration, driven as a user
// would: a project saved, closed and reopened from its cache; damaged project files
// refused untouched; the Wireshark detail pane of a selected packet checked against
// tshark; "Open in Wireshark" checked with a stand-in wireshark on PATH.

#include "capture_view.h"
#include "main_window.h"
#include "correlation_panel.h"
#include "model/connection_table_model.h"
#include "model/correlation_table_model.h"
#include "model/event_table_model.h"
#include "model/inventory_table_model.h"
#include "model/packet_table_model.h"
#include "plots/plot_stack.h"
#include "plots/time_axis.h"
#include "project/annotation_panel.h"
#include "project/project_controller.h"
#include "wireshark/packet_detail_pane.h"
#include "wireshark/wireshark_launcher.h"

#include "analysis/cwnd/cwnd_inference.h"
#include "analysis/store/project_store.h"
#include "dissectors/ingest.h"

#include <cstdint>
#include <QAction>
#include <QApplication>
#include <QCryptographicHash>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QProcess>
#include <QPushButton>
#include <QSet>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

#include <functional>

using namespace windscope;
using namespace windscope::gui;

namespace {

const QString kSample = QStringLiteral(WINDSCOPE_SAMPLE_CAPTURE);

QByteArray fileContent(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// windscope-cli's output, for checks independent of the GUI code.
QByteArray cli(const QStringList& args, int* exitCode = nullptr)
{
    QProcess p;
    p.start(QStringLiteral(WINDSCOPE_CLI), args);
    p.waitForFinished(120000);
    if (exitCode)
        *exitCode = p.exitCode();
    return p.readAllStandardOutput();
}

bool haveTshark()
{
    const QString t = QStringLiteral(WINDSCOPE_TSHARK);
    return !t.isEmpty() && !t.endsWith(QLatin1String("NOTFOUND"));
}

// Waits until every open capture of the window is loaded (or failed).
bool waitLoaded(MainWindow& w, int captures)
{
    return QTest::qWaitFor(
        [&] {
            int done = 0;
            for (CaptureView* v : w.views())
                done += v->isLoaded();
            return done == captures;
        },
        120000);
}

} // namespace

class ProjectWiresharkTest : public QObject
{
    Q_OBJECT

private:
    CaptureView* openSample(MainWindow& w)
    {
        w.setInteractive(false);
        w.show();
        if (!QTest::qWaitForWindowExposed(&w))
            return nullptr;
        QSignalSpy ready(&w, &MainWindow::captureReady);
        CaptureView* view = w.openCapture(kSample);
        if (!ready.wait(60000) && ready.isEmpty())
            return nullptr;
        return view;
    }

    // Shows the whole selected connection in the packet list and selects row.
    static bool selectPacket(CaptureView* view, int row)
    {
        view->plotStack()->timeAxis()->reset();
        if (!QTest::qWaitFor([&] { return view->packetModel()->rowCount() > row; }, 10000))
            return false;
        QSignalSpy shown(view->packetDetailPane(), &PacketDetailPane::packetShown);
        view->selectPacketRow(row < 0 ? view->packetModel()->rowCount() - 1 : row);
        // The dissection runs on the packet-detail thread; waiting for it leaves that
        // thread idle, so it is joined when the window closes rather than left starting
        // libwireshark while the test process exits (LeakSanitizer's exit check cannot
        // stop a thread that is starting threads of its own).
        return !shown.isEmpty() || shown.wait(120000);
    }

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QApplication::setOrganizationName(QStringLiteral("WindscopeTest"));
        QApplication::setApplicationName(QStringLiteral("windscope-gui-project-tests"));
        QVERIFY2(QFile::exists(kSample), "the bundled sample capture is missing");
    }

    // ---- the Wireshark detail pane -------------------------------------------------------

    void packetDetailShowsWiresharkTree()
    {
        if (!EpanService::available())
            QSKIP("this build has no libwireshark");
        MainWindow w;
        CaptureView* view = openSample(w);
        QVERIFY(view);
        // The last packet of the connection: Wireshark's first pass covers the file.
        PacketDetailPane* pane = view->packetDetailPane();
        QSignalSpy shown(pane, &PacketDetailPane::packetShown);
        QVERIFY(selectPacket(view, -1)); // waits for the dissection
        const quint64 frame = view->packetView()->currentIndex().data(PacketTableModel::kFrameRole).toULongLong();
        QVERIFY(frame > 0);
        QVERIFY(!shown.isEmpty());
        QCOMPARE(shown.last().at(0).toULongLong(), frame);
        QVERIFY2(shown.last().at(1).toBool(), qPrintable(pane->statusText()));
        QVERIFY(pane->detail());
        QCOMPARE(pane->detail()->frame, frame);

        // Top-level nodes: the frame, then the protocols Wireshark lists for it.
        QStringList top;
        for (int i = 0; i < pane->tree()->topLevelItemCount(); ++i)
            top << pane->tree()->topLevelItem(i)->data(0, Qt::UserRole + 1).toString();
        QString protocols = QString::fromStdString(pane->detail()->protocols);
        QString seqRaw;
        if (haveTshark()) {
            QProcess tshark;
            tshark.start(QStringLiteral(WINDSCOPE_TSHARK),
                         {QStringLiteral("-r"), kSample, QStringLiteral("-Y"), QStringLiteral("frame.number == %1").arg(frame),
                          QStringLiteral("-T"), QStringLiteral("fields"), QStringLiteral("-e"), QStringLiteral("frame.protocols"),
                          QStringLiteral("-e"), QStringLiteral("tcp.seq_raw")});
            QVERIFY(tshark.waitForFinished(60000));
            const QStringList fields = QString::fromUtf8(tshark.readAllStandardOutput()).trimmed().split(QLatin1Char('\t'));
            QCOMPARE(fields.size(), 2);
            QCOMPARE(protocols, fields[0]);
            seqRaw = fields[1];
        } else {
            qWarning("tshark not found at configure time: protocols checked against the native analysis only");
        }
        QCOMPARE(top, QStringList{QStringLiteral("frame")} + protocols.split(QLatin1Char(':')));
        QVERIFY(top.contains(QStringLiteral("ip")) && top.contains(QStringLiteral("tcp")));

        // A known field: the TCP source port is one of the connection's ports, and the
        // raw sequence number is tshark's.
        QTreeWidgetItem* tcp = pane->tree()->topLevelItem(static_cast<int>(top.indexOf(QStringLiteral("tcp"))));
        QString srcport, seq;
        for (int i = 0; i < tcp->childCount(); ++i) {
            const QString field = tcp->child(i)->data(0, Qt::UserRole + 1).toString();
            const QString tip = tcp->child(i)->toolTip(0);
            if (field == QLatin1String("tcp.srcport"))
                srcport = tip.section(QStringLiteral(" == "), 1);
            if (field == QLatin1String("tcp.seq_raw"))
                seq = tip.section(QStringLiteral(" == "), 1);
        }
        const analysis::Connection& c = view->capture()->tcp.connections[static_cast<std::size_t>(view->selectedConnection())];
        QVERIFY2(srcport == QString::number(c.port[0]) || srcport == QString::number(c.port[1]), qPrintable(srcport));
        if (!seqRaw.isEmpty())
            QCOMPARE(seq, seqRaw);
        // Expanding a protocol shows its fields as children.
        tcp->setExpanded(true);
        QVERIFY(tcp->childCount() > 5);

        // A known packet of a test fixture: frame 5 of wpa2-http-plain.pcap is the SYN
        // of 172.5.5.113:49417 -> 14.17.32.211:80 (as tshark and windscope-cli analyze show).
        PacketDetailPane fixture;
        QSignalSpy fixtureShown(&fixture, &PacketDetailPane::packetShown);
        fixture.showPacket(QStringLiteral(WINDSCOPE_TEST_DATA_DIR "/wpa2-http-plain.pcap"), 5);
        QVERIFY(fixtureShown.wait(60000) || !fixtureShown.isEmpty());
        QVERIFY2(fixtureShown.last().at(1).toBool(), qPrintable(fixture.statusText()));
        QStringList layers;
        QHash<QString, QString> values;
        std::function<void(QTreeWidgetItem*)> collect = [&](QTreeWidgetItem* item) {
            const QString field = item->data(0, Qt::UserRole + 1).toString();
            if (!field.isEmpty() && !values.contains(field))
                values.insert(field, item->toolTip(0).section(QStringLiteral(" == "), 1));
            for (int i = 0; i < item->childCount(); ++i)
                collect(item->child(i));
        };
        for (int i = 0; i < fixture.tree()->topLevelItemCount(); ++i) {
            layers << fixture.tree()->topLevelItem(i)->data(0, Qt::UserRole + 1).toString();
            collect(fixture.tree()->topLevelItem(i));
        }
        QCOMPARE(layers, (QStringList{QStringLiteral("frame"), QStringLiteral("radiotap"), QStringLiteral("wlan_radio"),
                                      QStringLiteral("wlan"), QStringLiteral("llc"), QStringLiteral("ip"), QStringLiteral("tcp")}));
        QCOMPARE(values.value(QStringLiteral("ip.src")), QStringLiteral("172.5.5.113"));
        QCOMPARE(values.value(QStringLiteral("tcp.srcport")), QStringLiteral("49417"));
        QCOMPARE(values.value(QStringLiteral("tcp.dstport")), QStringLiteral("80"));
        QCOMPARE(values.value(QStringLiteral("tcp.flags.syn")), QStringLiteral("1"));
    }

    void packetDetailErrorsStayInThePane()
    {
        MainWindow w;
        w.setInteractive(false);
        PacketDetailPane pane;
        QSignalSpy shown(&pane, &PacketDetailPane::packetShown);
        pane.showPacket(kSample, 100000000);
        QVERIFY(shown.wait(120000) || !shown.isEmpty());
        QCOMPARE(shown.last().at(1).toBool(), false);
        QVERIFY(!pane.detail());
        QCOMPARE(pane.tree()->topLevelItemCount(), 0);
        if (EpanService::available())
            QVERIFY2(pane.statusText().contains(QStringLiteral("no frame 100000000")), qPrintable(pane.statusText()));
        else
            QVERIFY2(pane.statusText().contains(QStringLiteral("libwireshark")), qPrintable(pane.statusText()));

        QTemporaryDir dir;
        const QString missing = dir.filePath(QStringLiteral("gone.pcap"));
        pane.showPacket(missing, 1);
        QVERIFY(shown.wait(60000));
        QCOMPARE(shown.last().at(1).toBool(), false);
        if (EpanService::available())
            QVERIFY2(pane.statusText().contains(QStringLiteral("gone.pcap")), qPrintable(pane.statusText()));
    }

    // ---- Open in Wireshark ---------------------------------------------------------------

    void openInWiresharkRunsWiresharkAtThePacket()
    {
        QTemporaryDir bin;
        const QString record = bin.filePath(QStringLiteral("arguments.txt"));
        const QString script = bin.filePath(QStringLiteral("wireshark"));
        {
            QFile f(script);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(QStringLiteral("#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\"; done > '%1.tmp'\nmv '%1.tmp' '%1'\n")
                        .arg(record)
                        .toUtf8());
            f.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        }
        const QByteArray oldPath = qgetenv("PATH");
        qputenv("PATH", bin.path().toUtf8() + ':' + oldPath);
        auto restore = qScopeGuard([&] { qputenv("PATH", oldPath); });

        MainWindow w;
        CaptureView* view = openSample(w);
        QVERIFY(view);
        QVERIFY(selectPacket(view, 3));
        const quint64 frame = view->packetView()->currentIndex().data(PacketTableModel::kFrameRole).toULongLong();
        QCOMPARE(view->wiresharkFrame(), frame);
        QAction* action = w.openInWiresharkAction();
        w.updateWiresharkAction();
        QVERIFY2(action->isEnabled(), qPrintable(action->toolTip()));
        action->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(record), 20000);
        QCOMPARE(QString::fromUtf8(fileContent(record)),
                 QStringLiteral("-r\n%1\n-g\n%2\n").arg(QFileInfo(kSample).absoluteFilePath()).arg(frame));

        // On an event row: the event's first packet.
        QFile::remove(record);
        const int event = view->eventProxy()->index(0, 0).data(EventTableModel::kEventRole).toInt();
        view->applySelection(Selection{-1, event}); // shows the event table
        const quint64 eventFrame = view->eventFirstFrame(event);
        QVERIFY(eventFrame > 0);
        const analysis::WlanEvent& e = view->capture()->events.at(static_cast<std::size_t>(event));
        QCOMPARE(eventFrame, e.evidenceFrames.empty() ? eventFrame : e.evidenceFrames.front());
        QCOMPARE(view->wiresharkFrame(), eventFrame);
        w.updateWiresharkAction();
        action->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(record), 20000);
        QCOMPARE(QString::fromUtf8(fileContent(record)),
                 QStringLiteral("-r\n%1\n-g\n%2\n").arg(QFileInfo(kSample).absoluteFilePath()).arg(eventFrame));
    }

    // Wireshark started from Windscope gets the user's environment: the one this process
    // was started with (/proc/self/environ), even once libwireshark is up (it is isolated
    // without process-wide variables; docs/wireshark.md, "Isolation"). Only PATH differs,
    // changed here to find the stand-in.
    void openInWiresharkGetsTheUsersEnvironment()
    {
        if (EpanService::available()) {
            PacketDetailPane pane;
            QSignalSpy shown(&pane, &PacketDetailPane::packetShown);
            pane.showPacket(kSample, 1);
            QVERIFY(shown.wait(120000) || !shown.isEmpty());
            QVERIFY2(shown.last().at(1).toBool(), qPrintable(pane.statusText()));
        }
        QTemporaryDir bin;
        const QString record = bin.filePath(QStringLiteral("environment.txt"));
        const QString script = bin.filePath(QStringLiteral("wireshark"));
        {
            QFile f(script);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(QStringLiteral("#!/bin/sh\nenv -0 > '%1.tmp'\nmv '%1.tmp' '%1'\n").arg(record).toUtf8());
            f.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        }
        const QByteArray oldPath = qgetenv("PATH");
        const QByteArray newPath = bin.path().toUtf8() + ':' + oldPath;
        qputenv("PATH", newPath);
        auto restore = qScopeGuard([&] { qputenv("PATH", oldPath); });
        QString error;
        QVERIFY2(openInWireshark(kSample, 1, &error), qPrintable(error));
        QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(record), 20000);

        auto entries = [](const QByteArray& block) {
            QSet<QByteArray> out;
            for (const QByteArray& entry : block.split('\0'))
                // PATH is changed below; QTest::qExec sets QT_QTESTLIB_RUNNING itself; the
                // stand-in's shell sets PWD, SHLVL and _.
                if (!entry.isEmpty() && !entry.startsWith("PATH=") && !entry.startsWith("QT_QTESTLIB_RUNNING=") &&
                    !entry.startsWith("PWD=") && !entry.startsWith("SHLVL=") && !entry.startsWith("_="))
                    out.insert(entry);
            return out;
        };
        QFile original(QStringLiteral("/proc/self/environ"));
        QVERIFY(original.open(QIODevice::ReadOnly));
        const QSet<QByteArray> started = entries(original.readAll());
        const QByteArray childBlock = fileContent(record);
        const QSet<QByteArray> child = entries(childBlock);
        for (const QByteArray& entry : child)
            QVERIFY2(started.contains(entry), entry.constData());
        for (const QByteArray& entry : started)
            QVERIFY2(child.contains(entry), entry.constData());
        QVERIFY(childBlock.split('\0').contains("PATH=" + newPath));
    }

    void openInWiresharkDisabledWithoutWireshark()
    {
        QTemporaryDir empty;
        const QByteArray oldPath = qgetenv("PATH");
        qputenv("PATH", empty.path().toUtf8());
        auto restore = qScopeGuard([&] { qputenv("PATH", oldPath); });
        QVERIFY(wiresharkExecutable().isEmpty());
        MainWindow w;
        CaptureView* view = openSample(w);
        QVERIFY(view);
        QVERIFY(selectPacket(view, 0));
        w.updateWiresharkAction();
        QVERIFY(!w.openInWiresharkAction()->isEnabled());
        QVERIFY2(w.openInWiresharkAction()->toolTip().contains(QStringLiteral("not found on PATH")),
                 qPrintable(w.openInWiresharkAction()->toolTip()));
        QString error;
        QVERIFY(!openInWireshark(kSample, 1, &error));
        QVERIFY(error.contains(QStringLiteral("PATH")));
    }

    // ---- project files -------------------------------------------------------------------

    void projectRoundTrip()
    {
        QTemporaryDir dir;
        const QString projectPath = dir.filePath(QStringLiteral("study.wsproj"));
        int connections = 0, events = 0, selectedConnection = -1;
        std::vector<analysis::store::Annotation> written;
        {
            MainWindow w;
            w.setInteractive(false);
            ProjectController* project = w.project();
            QVERIFY(project->newProject());
            QVERIFY(project->isUntitled());
            QVERIFY(w.windowTitle().startsWith(QStringLiteral("Untitled project")));
            QSignalSpy stored(project, &ProjectController::captureStored);
            CaptureView* view = openSample(w);
            QVERIFY(view);
            QVERIFY(!view->loadedFromCache());
            QVERIFY(stored.wait(60000) || !stored.isEmpty());
            QVERIFY2(stored.last().at(1).toLongLong() > 0, qPrintable(stored.last().at(2).toString()));
            QVERIFY(project->isModified()); // untitled, with a capture
            QVERIFY(w.isWindowModified());
            connections = static_cast<int>(view->capture()->tcp.connections.size());
            events = static_cast<int>(view->capture()->events.size());
            QVERIFY(events >= 1);

            // A bookmark on the selected event (the event table shown) ...
            AnnotationPanel* panel = w.annotationPanel();
            view->applySelection(Selection{-1, 0});
            QVERIFY(QTest::qWaitForWindowExposed(view->eventView()));
            panel->bookmarkAction()->trigger();
            // ... and a note at the crosshair's time, on another connection.
            selectedConnection = connections > 1 ? 1 : 0;
            view->selectConnection(selectedConnection);
            view->plotStack()->timeAxis()->reset();
            qobject_cast<QTabWidget*>(view->eventView()->parentWidget()->parentWidget())->setCurrentIndex(0);
            view->plotStack()->timeAxis()->setCursor(1.25, true);
            QVERIFY(panel->addAnnotation(QStringLiteral("note"), QStringLiteral("cwnd collapses here")));
            written = project->annotations(view);
            QCOMPARE(written.size(), std::size_t{2});
            QCOMPARE(written[0].kind, std::string("bookmark"));
            QCOMPARE(written[0].eventId.value_or(999), view->capture()->events.at(0).id);
            QCOMPARE(written[1].timeNs.value_or(0), std::int64_t{1250000000});
            QCOMPARE(panel->list()->topLevelItemCount(), 2);
            // Markers on every plot: one per annotation with a time.
            for (PlotPanel* p : view->plotStack()->panels())
                QCOMPARE(AnnotationPanel::markerCount(p), 2);

            QVERIFY2(project->saveAs(projectPath), qPrintable(project->lastError()));
            QVERIFY(!project->isUntitled());
            QVERIFY(!project->isModified());
            QCOMPARE(w.windowTitle(), QStringLiteral("study.wsproj[*] — Windscope"));
            QVERIFY(!w.isWindowModified());
            QCOMPARE(project->recentProjects().value(0), QFileInfo(projectPath).absoluteFilePath());
            // An edit marks the project modified until the autosave writes it.
            QVERIFY(panel->addAnnotation(QStringLiteral("bookmark"), QStringLiteral("autosaved")));
            QVERIFY(w.isWindowModified());
            QSignalSpy saved(project, &ProjectController::saved);
            // A deadline, not a speed check: the autosave job runs on a worker thread.
            QVERIFY(saved.wait(60000));
            QCOMPARE(saved.last().at(0).toString(), QString());
            QVERIFY(!w.isWindowModified());
            written = project->annotations(view);
            QVERIFY(project->closeProject());
            QCOMPARE(w.views().size(), 0);
            QCOMPARE(w.windowTitle(), QStringLiteral("Windscope"));
        }

        // The file as the command line reads it: the capture with its hash, the notes.
        int status = -1;
        const QJsonObject list = QJsonDocument::fromJson(cli({QStringLiteral("project"), QStringLiteral("list"), projectPath,
                                                              QStringLiteral("--json")}, &status)).object();
        QCOMPARE(status, 0);
        const QJsonArray captures = list.value(QStringLiteral("captures")).toArray();
        QCOMPARE(captures.size(), 1);
        const QJsonObject capture = captures[0].toObject();
        QCOMPARE(capture.value(QStringLiteral("path")).toString(), QFileInfo(kSample).absoluteFilePath());
        QCOMPARE(capture.value(QStringLiteral("status")).toString(), QStringLiteral("ok"));
        QCOMPARE(capture.value(QStringLiteral("sha256")).toString(),
                 QString::fromLatin1(QCryptographicHash::hash(fileContent(kSample), QCryptographicHash::Sha256).toHex()));
        QCOMPARE(capture.value(QStringLiteral("connections")).toInt(), connections);
        const QJsonArray notes =
            QJsonDocument::fromJson(cli({QStringLiteral("project"), QStringLiteral("notes"), projectPath,
                                         QString::number(capture.value(QStringLiteral("id")).toInteger()), QStringLiteral("--json")}))
                .object()
                .value(QStringLiteral("annotations"))
                .toArray();
        QCOMPARE(notes.size(), 3);
        QCOMPARE(notes[1].toObject().value(QStringLiteral("text")).toString(), QStringLiteral("cwnd collapses here"));

        // Reopened: same captures, connections and annotations, from the cache.
        MainWindow w;
        w.setInteractive(false);
        w.show();
        QSignalSpy verified(w.project(), &ProjectController::projectVerified);
        QVERIFY(w.project()->openProject(projectPath));
        QVERIFY(waitLoaded(w, 1));
        QTRY_VERIFY_WITH_TIMEOUT(!verified.isEmpty(), 60000);
        QCOMPARE(verified.first().at(0).toBool(), true);
        CaptureView* view = w.views().value(0);
        QVERIFY(view->loadedFromCache());
        QCOMPARE(view->projectStatus(), QStringLiteral("ok"));
        QCOMPARE(view->path(), QFileInfo(kSample).absoluteFilePath());
        QCOMPARE(static_cast<int>(view->capture()->tcp.connections.size()), connections);
        QCOMPARE(static_cast<int>(view->capture()->events.size()), events);
        QTRY_COMPARE(view->selectedConnection(), selectedConnection);
        const std::vector<analysis::store::Annotation> reread = w.project()->annotations(view);
        QCOMPARE(reread.size(), written.size());
        for (std::size_t i = 0; i < reread.size(); ++i) {
            QCOMPARE(reread[i].id, written[i].id);
            QCOMPARE(reread[i].kind, written[i].kind);
            QCOMPARE(reread[i].text, written[i].text);
            QCOMPARE(reread[i].timeNs, written[i].timeNs);
            QCOMPARE(reread[i].eventId, written[i].eventId);
        }
        QTRY_COMPARE(AnnotationPanel::markerCount(view->plotStack()->panels().front()), 3);
        QCOMPARE(w.windowTitle(), QStringLiteral("study.wsproj[*] — Windscope"));
        QVERIFY(!w.isWindowModified());
        // And the cached analysis equals a fresh one of the file.
        dissect::CaptureTables tables;
        std::string error;
        QVERIFY(dissect::ingestCapture(kSample.toStdString(), {}, tables, error));
        const analysis::TcpAnalysis fresh = analysis::analyzeTcp(tables);
        QCOMPARE(fresh.connections.size(), view->capture()->tcp.connections.size());
        for (std::size_t i = 0; i < fresh.connections.size(); ++i)
            for (int d = 0; d < 2; ++d) {
                QCOMPARE(view->capture()->tcp.connections[i].direction[d].retransmissions,
                         fresh.connections[i].direction[d].retransmissions);
                QCOMPARE(view->capture()->tcp.connections[i].direction[d].dataBytes,
                         fresh.connections[i].direction[d].dataBytes);
            }
    }

    // A project capture shows its tables (from the small cached parts) before the plots'
    // per-frame columns have loaded, and the same tables once everything has.
    void projectShowsTablesBeforeColumns()
    {
        QTemporaryDir dir;
        const QString project = dir.filePath(QStringLiteral("p.wsproj"));
        int status = -1;
        cli({QStringLiteral("project"), QStringLiteral("create"), project}, &status);
        QCOMPARE(status, 0);
        cli({QStringLiteral("project"), QStringLiteral("add"), project, kSample}, &status);
        QCOMPARE(status, 0);
        const QJsonObject list = QJsonDocument::fromJson(cli({QStringLiteral("project"), QStringLiteral("list"), project,
                                                              QStringLiteral("--json")})).object();
        const qint64 id = list.value(QStringLiteral("captures")).toArray()[0].toObject().value(QStringLiteral("id")).toInteger();
        QVERIFY(id > 0);

        CaptureView view(kSample);
        view.resize(1200, 800);
        view.show();
        view.setProjectSource(project, id);
        int connectionRows = -1, eventRows = -1, correlationRows = -1, stations = -1;
        bool loadedAtOverview = true, busyAtOverview = false;
        QSignalSpy overview(&view, &CaptureView::overviewShown);
        QSignalSpy loaded(&view, &CaptureView::loaded);
        connect(&view, &CaptureView::overviewShown, this, [&] {
            loadedAtOverview = view.isLoaded();
            busyAtOverview = view.plotStack()->isBusy();
            connectionRows = view.connectionModel()->rowCount();
            eventRows = view.eventModel()->rowCount();
            correlationRows = view.correlationPanel()->model()->rowCount();
            stations = view.stationModel()->rowCount();
        });
        // Counted from here: the project was written by another process.
        const std::uint64_t inferencesBefore = analysis::cwnd::inferenceCount();
        view.load();
        QVERIFY(loaded.wait(60000) || !loaded.isEmpty());
        QCOMPARE(overview.size(), 1);
        QVERIFY(!loadedAtOverview);
        QVERIFY(busyAtOverview);
        QVERIFY(view.loadedFromCache());
        QVERIFY(!view.plotStack()->isBusy());
        const CaptureAnalysis& c = *view.capture();
        // The tables were complete before the columns came ...
        QCOMPARE(connectionRows, static_cast<int>(c.tcp.connections.size()));
        QCOMPARE(eventRows, static_cast<int>(c.events.size()));
        QCOMPARE(stations, static_cast<int>(c.inventory.stations.size()));
        int impacts = 0;
        for (const analysis::EventImpact& impact : c.correlation.impacts)
            impacts += static_cast<int>(impact.connections.size());
        QCOMPARE(correlationRows, impacts);
        QVERIFY(eventRows > 0 && impacts > 0);
        // ... and the columns are all there now: one row per TCP segment and 802.11 frame.
        QCOMPARE(static_cast<quint64>(c.tables.tcp.size()), static_cast<quint64>(c.tables.summary.tcpSegments));
        QCOMPARE(static_cast<quint64>(c.tables.wlan.size()), static_cast<quint64>(c.tables.summary.wlanFrames));
        QCOMPARE(view.connectionModel()->rowCount(), connectionRows);
        view.selectConnection(0);
        QVERIFY(view.plotStack()->series());
        // The cwnd is shown from the project's cache: not one inference ran.
        QTRY_VERIFY_WITH_TIMEOUT(view.isSeriesComplete(), 60000);
        QVERIFY(!view.plotStack()->series()->window.cwnd.t.empty());
        for (std::size_t k = 0; k < c.tcp.connections.size(); ++k)
            QVERIFY(!connectionSeries(c, k)->window.cwndModel.empty() ||
                    !connectionSeries(c, k)->window.cwndNotFollowed.empty());
        QCOMPARE(analysis::cwnd::inferenceCount(), inferencesBefore);
    }

    void damagedOrNewerProjectIsRefusedUntouched()
    {
        QTemporaryDir dir;
        const QString good = dir.filePath(QStringLiteral("good.wsproj"));
        int status = -1;
        cli({QStringLiteral("project"), QStringLiteral("create"), good}, &status);
        QCOMPARE(status, 0);
        cli({QStringLiteral("project"), QStringLiteral("add"), good, kSample}, &status);
        QCOMPARE(status, 0);
        const QByteArray original = fileContent(good);
        QVERIFY(original.size() > 4096);

        // Written by a newer Windscope: user_version (header offset 60) raised.
        const QString newer = dir.filePath(QStringLiteral("newer.wsproj"));
        QByteArray bytes = original;
        bytes[60] = 0;
        bytes[61] = 0;
        bytes[62] = 0;
        bytes[63] = 99;
        // Cut short: the header's page count no longer matches.
        const QString cut = dir.filePath(QStringLiteral("cut.wsproj"));
        for (const auto& [path, content] : {std::pair{newer, bytes}, std::pair{cut, original.left(original.size() / 2)}}) {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(content);
        }
        struct Case
        {
            QString path;
            QString message;
        };
        for (const Case& c : {Case{newer, QStringLiteral("written by a newer Windscope")},
                              Case{cut, QStringLiteral("cut short")}}) {
            const QByteArray before = fileContent(c.path);
            MainWindow w;
            w.setInteractive(false);
            QVERIFY(!w.project()->openProject(c.path));
            QVERIFY2(w.project()->lastError().contains(c.message), qPrintable(w.project()->lastError()));
            QVERIFY(w.project()->lastError().contains(QFileInfo(c.path).fileName()));
            QVERIFY(!w.project()->isOpen());
            QCOMPARE(w.windowTitle(), QStringLiteral("Windscope"));
            QCOMPARE(w.views().size(), 0);
            QVERIFY2(fileContent(c.path) == before, "the refused project file was changed");
            QVERIFY(!QFile::exists(c.path + QStringLiteral("-wal")) || QFileInfo(c.path + QStringLiteral("-wal")).size() == 0);
        }

    }

    // A damaged page inside the cache: opening checks only the small tables, the full
    // check runs off the GUI thread right after and reports it; nothing is written.
    void damagedCachePageIsReportedAfterOpening()
    {
        const QString lab = QStringLiteral(WINDSCOPE_SHARED_DIR "/captures/lab/linux/reno-scan100/ap-wlan.pcap");
        if (!QFile::exists(lab))
            QSKIP("../shared/captures/lab is not available");
        QTemporaryDir dir;
        const QString inner = dir.filePath(QStringLiteral("inner.wsproj"));
        int status = -1;
        cli({QStringLiteral("project"), QStringLiteral("create"), inner}, &status);
        QCOMPARE(status, 0);
        cli({QStringLiteral("project"), QStringLiteral("add"), inner, lab}, &status);
        QCOMPARE(status, 0);
        QByteArray damaged = fileContent(inner);
        // Damage the overflow page of a cached blob nearest the middle of the file: an
        // overflow page starts with the number of the next page of its chain (SQLite file
        // format 1.6), and a chain written in one go continues on the following page
        // (page n is 1-based, at index n - 1).
        const qsizetype pages = damaged.size() / 65536;
        QVERIFY2(pages >= 12, "expected a cache spanning many pages");
        auto nextPage = [&](qsizetype index) {
            const auto* p = reinterpret_cast<const unsigned char*>(damaged.constData() + index * 65536);
            return qsizetype(std::uint32_t(p[0]) << 24 | std::uint32_t(p[1]) << 16 | std::uint32_t(p[2]) << 8 | p[3]);
        };
        qsizetype page = 0;
        for (qsizetype d = 0; d < pages / 2 && !page; ++d)
            for (qsizetype index : {pages / 2 + d, pages / 2 - d})
                if (!page && index > 0 && index < pages && nextPage(index) == index + 2)
                    page = index;
        QVERIFY2(page != 0, "no overflow page found");
        for (qsizetype i = page * 65536; i < (page + 1) * 65536; ++i)
            damaged[i] = static_cast<char>(0xa5);
        {
            QFile f(inner);
            QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
            f.write(damaged);
        }
        {
            MainWindow w;
            w.setInteractive(false);
            QSignalSpy verified(w.project(), &ProjectController::projectVerified);
            QVERIFY2(w.project()->openProject(inner), qPrintable(w.project()->lastError()));
            QTRY_VERIFY_WITH_TIMEOUT(!verified.isEmpty(), 60000);
            QCOMPARE(verified.first().at(0).toBool(), false);
            QVERIFY2(w.project()->lastError().contains(QStringLiteral("integrity check failed")),
                     qPrintable(w.project()->lastError()));
            QVERIFY(w.project()->lastError().contains(QStringLiteral("inner.wsproj")));
        }
        QVERIFY2(fileContent(inner) == damaged, "the damaged project file was changed");
    }

    void changedCaptureIsReportedNotReanalysed()
    {
        QTemporaryDir dir;
        const QString capture = dir.filePath(QStringLiteral("copy.pcap"));
        QVERIFY(QFile::copy(kSample, capture));
        const QString project = dir.filePath(QStringLiteral("p.wsproj"));
        int status = -1;
        cli({QStringLiteral("project"), QStringLiteral("create"), project}, &status);
        cli({QStringLiteral("project"), QStringLiteral("add"), project, capture}, &status);
        QCOMPARE(status, 0);
        {
            // Same size, other content: only the hash tells.
            QFile f(capture);
            QVERIFY(f.open(QIODevice::ReadWrite));
            QVERIFY(f.seek(f.size() - 1));
            char last = 0;
            QVERIFY(f.getChar(&last));
            QVERIFY(f.seek(f.size() - 1));
            QVERIFY(f.putChar(static_cast<char>(last ^ 0x5a)));
        }
        MainWindow w;
        w.setInteractive(false);
        w.show();
        QVERIFY(w.project()->openProject(project));
        CaptureView* view = w.views().value(0);
        QVERIFY(view);
        QSignalSpy stale(view, &CaptureView::projectCaptureStale);
        QVERIFY(stale.wait(60000) || !stale.isEmpty());
        QCOMPARE(stale.last().at(0).toString(), QStringLiteral("changed"));
        QVERIFY(stale.last().at(1).toString().contains(QStringLiteral("copy.pcap")));
        QVERIFY(!view->isLoaded());
        // The user chooses: here, the cached results as they were.
        QPushButton* useCache = nullptr;
        for (QPushButton* b : view->findChildren<QPushButton*>())
            if (b->text() == QStringLiteral("Show the cached results"))
                useCache = b;
        QVERIFY(useCache && useCache->isVisible());
        QSignalSpy ready(&w, &MainWindow::captureReady);
        QTest::mouseClick(useCache, Qt::LeftButton);
        QVERIFY(ready.wait(60000) || !ready.isEmpty());
        QVERIFY(view->loadedFromCache());
        QCOMPARE(view->projectStatus(), QStringLiteral("changed"));
        // Nothing was re-analysed or dropped: the project still records the old hash.
        const QJsonObject list = QJsonDocument::fromJson(cli({QStringLiteral("project"), QStringLiteral("list"), project,
                                                              QStringLiteral("--json")})).object();
        QCOMPARE(list.value(QStringLiteral("captures")).toArray().size(), 1);
        QCOMPARE(list.value(QStringLiteral("captures")).toArray()[0].toObject().value(QStringLiteral("sha256")).toString(),
                 QString::fromLatin1(QCryptographicHash::hash(fileContent(kSample), QCryptographicHash::Sha256).toHex()));
    }
};

QTEST_MAIN(ProjectWiresharkTest)
#include "test_project_wireshark.moc"
