// SPDX-License-Identifier: GPL-3.0-or-later
#include "main_window.h"
#include "recent_list.h"

#include "capture_view.h"
#include "fleet_view.h"
#include "compare_window.h"

#include "analysis/report/report_compare.h"
#include "export_dialog.h"
#include "replay_dialog.h"
#include "replay_runner.h"
#include "report_dialog.h"
#include "sweep_window.h"
#include "plots/plot_export.h"
#include "plots/plot_stack.h"
#include "plots/time_axis.h"
#include "project/annotation_panel.h"
#include "project/project_controller.h"
#include "wireshark/wireshark_launcher.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDragEnterEvent>
#include <QFileDialog>
#include <QDir>
#include <QFileInfo>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QSettings>
#include <QStatusBar>
#include <QTabWidget>

namespace windscope::gui {

namespace {
const QString kRecentKey = QStringLiteral("recentFiles");
} // namespace

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent), m_tabs(new QTabWidget(this))
{
    setWindowTitle(QStringLiteral("Windscope"));
    setAcceptDrops(true);
    m_tabs->setTabsClosable(true);
    m_tabs->setDocumentMode(true);
    connect(m_tabs, &QTabWidget::tabCloseRequested, this, &MainWindow::closeTab);
    connect(m_tabs, &QTabWidget::currentChanged, this, [this] {
        updateWiresharkAction();
        emit currentViewChanged(currentView());
    });
    setCentralWidget(m_tabs);
    statusBar()->showMessage(tr("Open a capture with File ▸ Open (Ctrl+O), or drop pcap/pcapng files here."));
    m_project = new ProjectController(this);
    m_annotations = new AnnotationPanel(this, m_project);
    addDockWidget(Qt::RightDockWidgetArea, m_annotations);
    m_annotations->hide();
    buildMenus();
    connect(m_project, &ProjectController::annotationsChanged, this, [this] { m_annotations->show(); });
    resize(1500, 950);
}

void MainWindow::buildMenus()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&Open…"), QKeySequence::Open, this, &MainWindow::openDialog);
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    updateRecentMenu();
    file->addAction(tr("&Close"), QKeySequence::Close, this, [this] { closeTab(m_tabs->currentIndex()); });
    QAction* projectSection = file->addSeparator();
    m_project->addFileActions(file, projectSection);
    file->addAction(tr("Export &figure…"), QKeySequence(Qt::CTRL | Qt::Key_E), this, &MainWindow::exportFigure);
    file->addAction(tr("Export plotted &series (CSV)…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E), this,
                    &MainWindow::exportSeries);
    file->addAction(tr("Export &report (HTML, PDF)…"), this, &MainWindow::exportReport);
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, qApp, &QApplication::closeAllWindows);

    QMenu* analysis = menuBar()->addMenu(tr("&Analysis"));
    analysis->addAction(tr("&Compare selected connections"), QKeySequence(Qt::CTRL | Qt::Key_K), this,
                        [this] { compareSelected(); });
    analysis->addAction(tr("&Replay and compare selected connection…"), QKeySequence(Qt::CTRL | Qt::Key_R), this,
                        &MainWindow::replayDialog);
    analysis->addAction(tr("S&weep a replay parameter…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_R), this,
                        [this] { openSweep(); });
    analysis->addAction(tr("&Fleet of a project…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_F), this,
                        &MainWindow::fleetDialog);
    analysis->addSeparator();
    analysis->addAction(m_annotations->bookmarkAction());
    analysis->addAction(m_annotations->noteAction());
    analysis->addAction(m_annotations->toggleViewAction());
    analysis->addSeparator();
    m_openInWireshark = analysis->addAction(tr("Open in &Wireshark at this packet"), this, [this] {
        CaptureView* v = currentView();
        QString error;
        if (!v || !openInWireshark(v->path(), v->wiresharkFrame(), &error))
            QMessageBox::warning(this, tr("Open in Wireshark"), v ? error : tr("Open a capture first"));
    });
    m_openInWireshark->setObjectName(QStringLiteral("openInWireshark"));
    m_openInWireshark->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_W));
    analysis->setToolTipsVisible(true);
    connect(analysis, &QMenu::aboutToShow, this, &MainWindow::updateWiresharkAction);
    updateWiresharkAction();

    QMenu* view = menuBar()->addMenu(tr("&View"));
    auto onView = [this](auto f) {
        return [this, f] {
            if (CaptureView* v = currentView(); v && v->isLoaded())
                f(v);
        };
    };
    view->addAction(tr("Zoom &in"), QKeySequence::ZoomIn, this,
                    onView([](CaptureView* v) { v->plotStack()->timeAxis()->zoomAroundMiddle(0.5); }));
    view->addAction(tr("Zoom &out"), QKeySequence::ZoomOut, this,
                    onView([](CaptureView* v) { v->plotStack()->timeAxis()->zoomAroundMiddle(2.0); }));
    view->addAction(tr("&Reset view"), QKeySequence(Qt::CTRL | Qt::Key_0), this,
                    onView([](CaptureView* v) { v->plotStack()->timeAxis()->reset(); }));
    view->addSeparator();
    view->addAction(tr("&Next event"), QKeySequence(Qt::Key_F8), this, onView([](CaptureView* v) { v->nextEvent(); }));
    view->addAction(tr("&Previous event"), QKeySequence(Qt::SHIFT | Qt::Key_F8), this,
                    onView([](CaptureView* v) { v->previousEvent(); }));
    view->addSeparator();
    view->addAction(tr("&Stevens time-sequence"), QKeySequence(Qt::CTRL | Qt::Key_1), this,
                    onView([](CaptureView* v) { v->plotStack()->setSequenceStyle(TimeSequencePlot::Style::Stevens); }));
    view->addAction(tr("&tcptrace time-sequence"), QKeySequence(Qt::CTRL | Qt::Key_2), this,
                    onView([](CaptureView* v) { v->plotStack()->setSequenceStyle(TimeSequencePlot::Style::Tcptrace); }));
}

CaptureView* MainWindow::openCapture(const QString& path) { return openProjectCapture(path, {}, 0); }

CaptureView* MainWindow::openProjectCapture(const QString& path, const QString& projectPath, qint64 captureId)
{
    const QString absolute = QFileInfo(path).absoluteFilePath();
    auto* view = new CaptureView(absolute, m_tabs);
    if (!projectPath.isEmpty())
        view->setProjectSource(projectPath, captureId);
    connect(view, &CaptureView::packetSelectionChanged, this, &MainWindow::updateWiresharkAction);
    const int index = m_tabs->addTab(view, QFileInfo(absolute).fileName());
    m_tabs->setTabToolTip(index, absolute);
    m_tabs->setCurrentIndex(index);
    connect(view, &CaptureView::loaded, this, [this, view] {
        addRecent(view->path());
        const Selection selection = m_initialSelection.value_or(mostAffected(*view->capture()));
        m_initialSelection.reset();
        view->applySelection(selection);
        statusBar()->showMessage(tr("%1 opened").arg(QFileInfo(view->path()).fileName()), 5000);
        emit captureReady(view);
    });
    connect(view, &CaptureView::loadFailed, this, [this](const QString& message) {
        if (m_interactive) {
            auto* box = new QMessageBox(QMessageBox::Warning, tr("Could not open the capture"), message,
                                        QMessageBox::Ok, this);
            box->setAttribute(Qt::WA_DeleteOnClose);
            box->open();
        }
        statusBar()->showMessage(message);
    });
    view->load();
    return view;
}

void MainWindow::setCurrentView(CaptureView* view) { m_tabs->setCurrentWidget(view); }

void MainWindow::updateWiresharkAction()
{
    if (!m_openInWireshark)
        return;
    CaptureView* v = currentView();
    gui::updateWiresharkAction(m_openInWireshark, v ? v->path() : QString(), v ? v->wiresharkFrame() : 0);
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    // Pending project edits are written (or, for an untitled project, the user asked).
    if (!m_project->closeProject()) {
        event->ignore();
        return;
    }
    QMainWindow::closeEvent(event);
}

CaptureView* MainWindow::currentView() const { return qobject_cast<CaptureView*>(m_tabs->currentWidget()); }

QList<CaptureView*> MainWindow::views() const
{
    QList<CaptureView*> all;
    for (int i = 0; i < m_tabs->count(); ++i)
        if (auto* v = qobject_cast<CaptureView*>(m_tabs->widget(i)))
            all << v;
    return all;
}

CompareWindow* MainWindow::compareSelected()
{
    QList<CaptureView*> loaded;
    for (CaptureView* v : views())
        if (v->isLoaded())
            loaded << v;
    CaptureView* current = currentView();
    if (!current || !current->isLoaded())
        current = loaded.value(0);
    if (!current) {
        statusBar()->showMessage(tr("Open two captures, or a capture with two connections, to compare"), 5000);
        return nullptr;
    }
    const int a = std::max(current->selectedConnection(), 0);
    CaptureView* other = nullptr;
    for (CaptureView* v : loaded)
        if (v != current) {
            other = v;
            break;
        }
    int b = 0;
    if (other) {
        b = std::max(other->selectedConnection(), 0);
    } else {
        const auto n = static_cast<int>(current->capture()->tcp.connections.size());
        if (n < 2) {
            statusBar()->showMessage(tr("Open two captures, or a capture with two connections, to compare"), 5000);
            return nullptr;
        }
        other = current;
        b = (a + 1) % n;
    }
    if (current->capture()->tcp.connections.empty() || other->capture()->tcp.connections.empty())
        return nullptr;
    // Names that tell the sides apart (the CLI's compare names them the same way): the
    // file names, their folders where those are alike, the connection always.
    const auto [nameA, nameB] = analysis::comparisonSideNames(current->path().toStdString(), static_cast<std::size_t>(a),
                                                              other->path().toStdString(), static_cast<std::size_t>(b));
    const auto name = [same = QFileInfo(current->path()) == QFileInfo(other->path())](const std::string& n, int c) {
        return same ? QString::fromStdString(n) : QStringLiteral("%1 #%2").arg(QString::fromStdString(n)).arg(c);
    };
    auto* window = new CompareWindow(current->capture(), a, name(nameA, a), other->capture(), b, name(nameB, b), this);
    window->setAttribute(Qt::WA_DeleteOnClose);
    window->show();
    return window;
}

void MainWindow::closeTab(int index)
{
    if (auto* fleet = qobject_cast<FleetView*>(m_tabs->widget(index))) {
        m_tabs->removeTab(index);
        fleet->deleteLater();
        return;
    }
    auto* v = qobject_cast<CaptureView*>(m_tabs->widget(index));
    if (v && m_project->confirmCloseCapture(v))
        closeView(v);
}

FleetView* MainWindow::openFleet(const QString& projectPath, QString* error)
{
    auto* fleet = new FleetView(m_tabs);
    QString message;
    if (!fleet->load(projectPath, &message)) {
        delete fleet;
        if (error)
            *error = message;
        if (m_interactive)
            QMessageBox::warning(this, tr("Fleet"), message);
        return nullptr;
    }
    connect(fleet, &FleetView::openEventRequested, this,
            [this](const QString& capture, const QString& project, qint64 captureId, int event) {
                setInitialSelection(Selection{-1, event});
                openProjectCapture(capture, project, captureId);
            });
    const int index = m_tabs->addTab(fleet, tr("Fleet: %1").arg(QFileInfo(projectPath).fileName()));
    m_tabs->setTabToolTip(index, QFileInfo(projectPath).absoluteFilePath());
    m_tabs->setCurrentIndex(index);
    statusBar()->showMessage(tr("Fleet of %1 opened").arg(QFileInfo(projectPath).fileName()), 5000);
    return fleet;
}

void MainWindow::fleetDialog()
{
    QString path = m_project->isOpen() && !m_project->isUntitled() ? m_project->path() : QString();
    if (path.isEmpty())
        path = QFileDialog::getOpenFileName(this, tr("Fleet of a project"), QString(),
                                            tr("Windscope projects (*.wsproj);;All files (*)"));
    else
        m_project->flush();
    if (!path.isEmpty())
        openFleet(path);
}

void MainWindow::closeView(CaptureView* view)
{
    const int index = m_tabs->indexOf(view);
    if (index < 0)
        return;
    view->cancelLoad();
    m_tabs->removeTab(index);
    view->deleteLater();
}

void MainWindow::openDialog()
{
    const QStringList paths = QFileDialog::getOpenFileNames(
        this, tr("Open captures"), QString(),
        tr("Captures (*.pcap *.pcapng *.cap *.pcap.gz *.pcapng.gz);;All files (*)"));
    for (const QString& p : paths)
        openCapture(p);
}

QStringList MainWindow::recentFiles() const { return recentList(kRecentKey); }

void MainWindow::addRecent(const QString& path)
{
    rememberRecent(kRecentKey, path);
    updateRecentMenu();
}

void MainWindow::updateRecentMenu()
{
    m_recentMenu->clear();
    const QStringList recent = recentFiles();
    for (const QString& path : recent)
        m_recentMenu->addAction(QFileInfo(path).fileName(), this, [this, path] { openCapture(path); })
            ->setToolTip(path);
    m_recentMenu->setEnabled(!recent.isEmpty());
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event)
{
    if (event->mimeData()->hasUrls())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event)
{
    for (const QUrl& url : event->mimeData()->urls())
        if (url.isLocalFile())
            openCapture(url.toLocalFile());
    event->acceptProposedAction();
}

// The current view when its selected connection's series is complete; else says why in
// the status bar and returns null.
CaptureView* MainWindow::viewReadyForExport()
{
    CaptureView* v = currentView();
    if (!v || !v->isLoaded() || !v->plotStack()->series()) {
        statusBar()->showMessage(tr("Select a connection first"), 5000);
        return nullptr;
    }
    if (!v->isSeriesComplete()) {
        statusBar()->showMessage(tr("The congestion window is still being inferred; export in a moment"), 5000);
        return nullptr;
    }
    return v;
}

void MainWindow::exportFigure()
{
    CaptureView* v = viewReadyForExport();
    if (!v)
        return;
    ExportDialog dialog(v->plotStack()->panels(), this);
    if (dialog.exec() != QDialog::Accepted)
        return;
    QString error;
    if (!exportStackFigure(*v->plotStack(), dialog.selectedPlots(), dialog.preset(), dialog.path(), &error))
        QMessageBox::warning(this, tr("Export failed"), error);
    else
        statusBar()->showMessage(tr("Wrote %1").arg(dialog.path()), 5000);
}

void MainWindow::exportSeries()
{
    CaptureView* v = viewReadyForExport();
    if (!v)
        return;
    const QString path = QFileDialog::getSaveFileName(this, tr("Export plotted series"),
                                                      QStringLiteral("connection-%1.csv").arg(v->selectedConnection()),
                                                      tr("CSV (*.csv)"));
    if (path.isEmpty())
        return;
    QString error;
    if (!exportSeriesCsv(*v->plotStack()->series(), path, &error))
        QMessageBox::warning(this, tr("Export failed"), error);
    else
        statusBar()->showMessage(tr("Wrote %1").arg(path), 5000);
}

} // namespace windscope::gui

namespace windscope::gui {

void MainWindow::exportReport()
{
    CaptureView* v = currentView();
    if (!v || !v->isLoaded()) {
        statusBar()->showMessage(tr("Open a capture first"), 5000);
        return;
    }
    const QString suggested = QFileInfo(v->path()).absoluteDir().filePath(QFileInfo(v->path()).completeBaseName() +
                                                                          QStringLiteral("-report.html"));
    ReportDialog dialog(*v->capture(), v->selectedConnection(), suggested, this);
    if (dialog.exec() != QDialog::Accepted)
        return;
    QApplication::setOverrideCursor(Qt::WaitCursor);
    QString error;
    const bool ok = render::writeReport(*v->capture()->pipeline, dialog.options(), dialog.path(), &error);
    QApplication::restoreOverrideCursor();
    if (!ok)
        QMessageBox::warning(this, tr("Export failed"), error);
    else
        statusBar()->showMessage(tr("Wrote %1").arg(dialog.path()), 5000);
}

void MainWindow::replayDialog()
{
    CaptureView* v = currentView();
    if (!v || !v->isLoaded() || v->selectedConnection() < 0) {
        statusBar()->showMessage(tr("Select a connection first"), 5000);
        return;
    }
    const auto k = static_cast<std::size_t>(v->selectedConnection());
    ReplayDialog dialog(v->selectedConnection(), connectionText(*v->capture(), k), this);
    if (dialog.exec() == QDialog::Accepted)
        compareWithReplay(dialog.request());
}

ReplayRunner* MainWindow::compareWithReplay(ReplayRequest request)
{
    CaptureView* v = currentView();
    if (!v || !v->isLoaded() || v->selectedConnection() < 0) {
        statusBar()->showMessage(tr("Select a connection first"), 5000);
        return nullptr;
    }
    request.connection = static_cast<std::size_t>(v->selectedConnection());
    const std::shared_ptr<const CaptureAnalysis> capture = v->capture();
    const QString name = QStringLiteral("%1 #%2").arg(QFileInfo(v->path()).fileName()).arg(request.connection);
    auto* runner = new ReplayRunner(capture, request, this);
    statusBar()->showMessage(tr("Replaying connection %1…").arg(request.connection));
    connect(runner, &ReplayRunner::finished, this,
            [this, runner, capture, name](std::shared_ptr<const ReplayOutcome> outcome) {
                runner->deleteLater();
                statusBar()->clearMessage();
                CompareSide a{capture, static_cast<int>(outcome->request.connection), name, false};
                CompareSide b{outcome->run, 0, outcome->name, outcome->request.preset.isEmpty()};
                auto* window = new CompareWindow(a, b, this);
                // With fixes the baseline is the third line: the model's error (baseline
                // against the capture) and the fix's effect (fixed against the baseline)
                // read apart.
                if (outcome->baseline)
                    window->setReference({outcome->baseline, 0, tr("replay: baseline"), b.replay});
                const auto& report = outcome->report;
                QString note;
                if (report.calibration && report.calibration->exceeded)
                    note = QStringLiteral("<span style='color:#b00'>%1</span>")
                               .arg(QString::fromStdString(report.calibration->warning).toHtmlEscaped());
                else if (report.calibration)
                    note = tr("Baseline calibration error: goodput %1%, completion %2%, retransmissions %3%")
                               .arg(report.calibration->goodput * 100, 0, 'f', 1)
                               .arg(report.calibration->completion * 100, 0, 'f', 1)
                               .arg(report.calibration->retransmissions * 100, 0, 'f', 1);
                // With a random element the figures above are means over the seeds, and
                // the window shows one real run of them: say which, and how far they spread.
                const auto& seeds = outcome->fixed && report.fixedSeeds ? *report.fixedSeeds : report.baselineSeeds;
                if (seeds.seeds.size() > 1) {
                    QString spread = tr("%1 is one run (seed %2, %3 Mb/s) of %4: their mean %5 Mb/s, %6 to %7 Mb/s")
                                         .arg(outcome->name)
                                         .arg(seeds.keptSeed())
                                         .arg(seeds.perSeed[seeds.kept].goodputBps / 1e6, 0, 'f', 2)
                                         .arg(seeds.seeds.size())
                                         .arg(seeds.mean.goodputBps / 1e6, 0, 'f', 2)
                                         .arg(seeds.min.goodputBps / 1e6, 0, 'f', 2)
                                         .arg(seeds.max.goodputBps / 1e6, 0, 'f', 2);
                    if (report.fixEffect)
                        spread += tr("; the fix: %1x goodput (ratio of the means), %2x to %3x per seed")
                                      .arg(report.fixEffect->goodputRatio, 0, 'f', 3)
                                      .arg(report.fixEffect->perSeedRatioMin, 0, 'f', 3)
                                      .arg(report.fixEffect->perSeedRatioMax, 0, 'f', 3);
                    note += (note.isEmpty() ? QString() : QStringLiteral("<br>")) + spread.toHtmlEscaped();
                } else if (report.fixEffect) {
                    note +=
                        (note.isEmpty() ? QString() : QStringLiteral("<br>")) +
                        tr("the fix: %1x goodput").arg(report.fixEffect->goodputRatio, 0, 'f', 3);
                }
                // A capture cut mid-transfer: the fix is against the baseline run for its
                // time, not the baseline line drawn (which sends the capture's bytes).
                if (report.fixEffect && report.fixBaseline)
                    note += tr(" over the capture's %1 s, against the baseline run for that time "
                               "(%2 Mb/s): "
                               "the capture ended mid-transfer")
                                .arg(report.scenario.durationS, 0, 'f', 1)
                                .arg(report.fixBaseline->goodputBps / 1e6, 0, 'f', 2)
                                .toHtmlEscaped();
                if (report.atQueueFloor)
                    note += QStringLiteral("<br>") +
                            tr("with the bottleneck queue at the least the capture allows (%1 kB, not the %2 kB "
                               "assumed): %3x goodput")
                                .arg(static_cast<double>(report.atQueueFloor->queueBytes) / 1e3, 0, 'f', 1)
                                .arg(static_cast<double>(report.scenario.path.queueBytes) / 1e3, 0, 'f', 1)
                                .arg(report.atQueueFloor->effect.goodputRatio, 0, 'f', 3)
                                .toHtmlEscaped();
                for (const std::string& warning : report.warnings)
                    note += QStringLiteral("<br><span style='color:#b00'>%1</span>")
                                .arg(QString::fromStdString(warning).toHtmlEscaped());
                if (!note.isEmpty())
                    window->setNote(note);
                window->setAttribute(Qt::WA_DeleteOnClose);
                window->show();
                emit compareOpened(window);
            });
    connect(runner, &ReplayRunner::failed, this, [this, runner](const QString& message) {
        runner->deleteLater();
        statusBar()->showMessage(tr("Replay failed: %1").arg(message));
        if (m_interactive)
            QMessageBox::warning(this, tr("Replay failed"), message);
    });
    runner->start();
    return runner;
}

SweepWindow* MainWindow::openSweep()
{
    CaptureView* v = currentView();
    std::shared_ptr<const CaptureAnalysis> capture = v && v->isLoaded() ? v->capture() : nullptr;
    const int connection = capture ? v->selectedConnection() : -1;
    const QString name =
        connection >= 0 ? connectionText(*capture, static_cast<std::size_t>(connection)) : QString();
    auto* window = new SweepWindow(connection >= 0 ? capture : nullptr, connection, name, this);
    window->setAttribute(Qt::WA_DeleteOnClose);
    window->show();
    return window;
}

} // namespace windscope::gui
