// SPDX-License-Identifier: GPL-3.0-or-later
#include "project_controller.h"
#include "recent_list.h"

#include "capture_view.h"
#include "main_window.h"

#include <QAction>
#include <QApplication>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QStandardPaths>
#include <QStatusBar>
#include <QThread>
#include <QTimer>

#include <algorithm>

namespace windscope::gui {

namespace store = analysis::store;

namespace {
constexpr int kAutosaveMs = 2000;
const QString kRecentKey = QStringLiteral("recentProjects");
const char* const kViewStateKey = "gui.view_state";
const QString kFilter = QObject::tr("Windscope projects (*.wsproj);;All files (*)");

QString q(const std::string& s) { return QString::fromStdString(s); }

// A scratch file for an untitled project, unique in this process and among processes.
QString scratchPath()
{
    static int counter = 0;
    const QString dir = QStandardPaths::writableLocation(QStandardPaths::TempLocation);
    return QDir(dir).filePath(QStringLiteral("windscope-untitled-%1-%2.wsproj")
                                  .arg(QCoreApplication::applicationPid())
                                  .arg(++counter));
}

void removeProjectFiles(const QString& path)
{
    for (const QString& suffix : {QString(), QStringLiteral("-wal"), QStringLiteral("-shm")})
        QFile::remove(path + suffix);
}
} // namespace

ProjectController::ProjectController(MainWindow* window)
    : QObject(window), m_window(window), m_autosave(new QTimer(this))
{
    m_autosave->setSingleShot(true);
    m_autosave->setInterval(kAutosaveMs);
    connect(m_autosave, &QTimer::timeout, this, [this] { flush(); });
    connect(window, &MainWindow::captureReady, this, &ProjectController::onCaptureReady);
}

ProjectController::~ProjectController()
{
    // The window's tabs are gone by now: edits are written by closeProject (the
    // window's close event), here only the scratch file of an untitled project goes.
    waitForJobs();
    m_store.reset();
    if (m_untitled)
        removeProjectFiles(m_storePath);
}

bool ProjectController::interactive() const { return m_window->isInteractive(); }

void ProjectController::addFileActions(QMenu* file, QAction* before)
{
    auto* newProject = new QAction(tr("&New project"), file);
    newProject->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_N));
    connect(newProject, &QAction::triggered, this, [this] { this->newProject(); });
    auto* open = new QAction(tr("Open &project…"), file);
    open->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
    connect(open, &QAction::triggered, this, [this] {
        const QString path = QFileDialog::getOpenFileName(m_window, tr("Open project"), QString(), kFilter);
        if (!path.isEmpty())
            openProject(path);
    });
    m_save = new QAction(tr("&Save project"), file);
    m_save->setShortcut(QKeySequence::Save);
    connect(m_save, &QAction::triggered, this, [this] { save(); });
    m_saveAs = new QAction(tr("Save project &as…"), file);
    m_saveAs->setShortcut(QKeySequence::SaveAs);
    connect(m_saveAs, &QAction::triggered, this, [this] {
        const QString path = QFileDialog::getSaveFileName(m_window, tr("Save project as"),
                                                          QStringLiteral("project.wsproj"), kFilter);
        if (!path.isEmpty())
            saveAs(path.endsWith(QLatin1String(".wsproj")) ? path : path + QStringLiteral(".wsproj"));
    });
    m_close = new QAction(tr("Close pro&ject"), file);
    connect(m_close, &QAction::triggered, this, [this] { closeProject(); });
    file->insertAction(before, newProject);
    file->insertAction(before, open);
    m_recentMenu = new QMenu(tr("Recent p&rojects"), file);
    file->insertMenu(before, m_recentMenu);
    file->insertAction(before, m_save);
    file->insertAction(before, m_saveAs);
    file->insertAction(before, m_close);
    file->insertSeparator(before);
    updateRecentMenu();
    updateTitle();
}

QString ProjectController::path() const { return m_store && !m_untitled ? m_storePath : QString(); }

bool ProjectController::isModified() const
{
    if (!m_store)
        return false;
    if (m_untitled)
        return m_hasPending || !m_captureIds.isEmpty() || !m_jobs.isEmpty();
    return m_hasPending;
}

void ProjectController::fail(const QString& title, const QString& message)
{
    m_lastError = message;
    m_window->statusBar()->showMessage(message);
    if (interactive())
        QMessageBox::critical(m_window, title, message);
}

void ProjectController::markModified()
{
    m_hasPending = true;
    m_autosave->start();
    updateTitle();
}

void ProjectController::updateTitle()
{
    if (!m_store) {
        m_window->setWindowTitle(QStringLiteral("Windscope"));
        m_window->setWindowModified(false);
    } else {
        const QString name = m_untitled ? tr("Untitled project") : QFileInfo(m_storePath).fileName();
        m_window->setWindowTitle(QStringLiteral("%1[*] — Windscope").arg(name));
        m_window->setWindowModified(isModified());
    }
    if (m_save) {
        m_save->setEnabled(m_store != nullptr);
        m_saveAs->setEnabled(m_store != nullptr);
        m_close->setEnabled(m_store != nullptr);
    }
    emit stateChanged();
}

// ---- new, open, close -------------------------------------------------------------------

bool ProjectController::newProject()
{
    if (m_store && !closeProject())
        return false;
    const QString scratch = scratchPath();
    removeProjectFiles(scratch);
    std::string error;
    m_store = store::ProjectStore::create(scratch.toStdString(), error);
    if (!m_store) {
        fail(tr("Could not create a project"), q(error));
        return false;
    }
    m_storePath = scratch;
    m_untitled = true;
    m_hasPending = false;
    m_lastError.clear();
    // The captures already open become the project's first.
    for (CaptureView* view : m_window->views())
        if (view->isLoaded())
            storeCapture(view);
    updateTitle();
    return true;
}

bool ProjectController::openProject(const QString& path)
{
    const QString absolute = QFileInfo(path).absoluteFilePath();
    if (m_store && !closeProject())
        return false;
    std::string error;
    // ProjectStore::open refuses a damaged or newer file and leaves it unchanged.
    auto opened = store::ProjectStore::open(absolute.toStdString(), error);
    std::vector<store::CaptureRecord> captures;
    if (!opened || !opened->listCaptures(captures, error)) {
        fail(tr("Could not open the project"), q(error));
        return false;
    }
    std::string state;
    if (!opened->metaValue(kViewStateKey, state, error)) {
        fail(tr("Could not open the project"), q(error));
        return false;
    }
    closeAllTabs(); // loose captures are not part of the project
    m_store = std::move(opened);
    m_storePath = absolute;
    m_untitled = false;
    m_hasPending = false;
    m_lastError.clear();
    m_savedSelection.clear();
    m_savedCurrent = 0;
    const QJsonObject json = QJsonDocument::fromJson(QByteArray::fromStdString(state)).object();
    m_savedCurrent = json.value(QStringLiteral("current")).toInteger();
    const QJsonObject selections = json.value(QStringLiteral("selection")).toObject();
    for (auto it = selections.begin(); it != selections.end(); ++it) {
        const QJsonObject s = it.value().toObject();
        m_savedSelection.insert(it.key().toLongLong(), {s.value(QStringLiteral("connection")).toInt(-1),
                                                        s.value(QStringLiteral("event")).toInt(-1)});
    }
    for (const store::CaptureRecord& record : captures) {
        CaptureView* view = m_window->openProjectCapture(q(record.file.path), absolute, record.id);
        track(view, record.id);
        std::vector<store::Annotation> notes;
        if (!m_store->listAnnotations(record.id, notes, error))
            m_window->statusBar()->showMessage(q(error));
        m_notes[view].notes = std::move(notes);
        if (record.id == m_savedCurrent)
            m_window->setCurrentView(view);
        connect(view, &CaptureView::projectCaptureStale, this, [this, view](const QString& status, const QString&) {
            m_window->statusBar()->showMessage(
                tr("%1 is %2 since it was added to the project").arg(QFileInfo(view->path()).fileName(), status));
        });
    }
    addRecent(absolute);
    updateTitle();
    verifyInBackground();
    for (CaptureView* view : m_window->views())
        emit annotationsChanged(view);
    m_window->statusBar()->showMessage(tr("Opened project %1 (%2 captures)").arg(QFileInfo(absolute).fileName()).arg(captures.size()),
                                       5000);
    return true;
}

bool ProjectController::closeProject()
{
    if (!m_store)
        return true;
    waitForJobs();
    if (m_untitled && isModified()) {
        QMessageBox::StandardButton answer = QMessageBox::Discard;
        if (interactive())
            answer = QMessageBox::question(m_window, tr("Close project"),
                                           tr("The untitled project has captures or annotations that were never "
                                              "saved under a name. Save it?"),
                                           QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel);
        if (answer == QMessageBox::Cancel)
            return false;
        if (answer == QMessageBox::Save && !save())
            return false;
    }
    if (!m_untitled)
        flush();
    m_autosave->stop();
    const QString scratch = m_untitled ? m_storePath : QString();
    m_closing = true;
    closeAllTabs();
    m_closing = false;
    m_store.reset();
    if (!scratch.isEmpty())
        removeProjectFiles(scratch);
    m_storePath.clear();
    m_untitled = false;
    m_hasPending = false;
    m_captureIds.clear();
    m_notes.clear();
    m_removedNotes.clear();
    m_removedCaptures.clear();
    updateTitle();
    return true;
}

void ProjectController::closeAllTabs()
{
    for (CaptureView* view : m_window->views())
        m_window->closeView(view);
}

// ---- captures ---------------------------------------------------------------------------

void ProjectController::track(CaptureView* view, qint64 id)
{
    if (!m_captureIds.contains(view))
        connect(view, &QObject::destroyed, this, [this, view] {
            m_captureIds.remove(view);
            m_notes.remove(view);
        });
    m_captureIds.insert(view, id);
}

void ProjectController::onCaptureReady(CaptureView* view)
{
    if (!m_store)
        return;
    if (view->loadedFromCache()) {
        const auto saved = m_savedSelection.constFind(captureId(view));
        if (saved != m_savedSelection.constEnd()) {
            Selection selection;
            selection.connection = saved->first;
            selection.event = saved->second;
            view->applySelection(selection);
        }
        emit annotationsChanged(view);
        return;
    }
    // Opened (or analysed again) while the project is open: it joins the project.
    storeCapture(view);
}

void ProjectController::storeCapture(CaptureView* view)
{
    struct Outcome
    {
        qint64 id = 0;
        std::string error;
    };
    auto outcome = std::make_shared<Outcome>();
    const std::shared_ptr<const CaptureAnalysis> capture = view->capture();
    const std::string capturePath = view->path().toStdString();
    const std::string projectPath = m_storePath.toStdString();
    // What `windscope-cli project add` does, on a worker with its own connection.
    QThread* job = QThread::create([outcome, capture, capturePath, projectPath] {
        store::FileIdentity file;
        if (!store::identifyFile(capturePath, true, file, outcome->error))
            return;
        auto project = store::ProjectStore::open(projectPath, outcome->error);
        if (project)
            // With every connection's cwnd (inferred here, off the GUI thread, where not
            // yet shown), so that reopening infers none.
            outcome->id = project->saveCapture(file, capture->pipeline->cacheProducts(), outcome->error);
    });
    // Owned by the controller: a job whose deferred delete has not run yet when the
    // controller goes is deleted with it, not leaked.
    job->setParent(this);
    m_jobs.insert(job);
    track(view, 0);
    QPointer<CaptureView> target(view);
    connect(job, &QThread::finished, this, [this, job, outcome, target] {
        m_jobs.remove(job);
        job->deleteLater();
        if (!m_store)
            return;
        if (target && outcome->id) {
            track(target, outcome->id);
            m_window->statusBar()->showMessage(
                tr("%1 added to the project with its analysis").arg(QFileInfo(target->path()).fileName()), 5000);
            // Annotations made while it was being stored can be written now.
            if (m_hasPending)
                m_autosave->start();
        } else if (!outcome->id) {
            fail(tr("Could not add the capture to the project"), q(outcome->error));
        }
        updateTitle();
        emit captureStored(target, outcome->id, q(outcome->error));
    });
    job->start();
    updateTitle();
}

// The full page check of a large project takes a while (about 0.3 s per 100 MB), and
// every write needs it first: run it on a worker now rather than on the GUI thread at
// the first annotation.
void ProjectController::verifyInBackground()
{
    auto error = std::make_shared<std::string>();
    auto ok = std::make_shared<bool>(false);
    const std::string projectPath = m_storePath.toStdString();
    QThread* job = QThread::create([error, ok, projectPath] {
        auto project = store::ProjectStore::open(projectPath, *error);
        *ok = project && project->verify(*error);
    });
    job->setParent(this);
    m_jobs.insert(job);
    const QString path = m_storePath;
    connect(job, &QThread::finished, this, [this, job, error, ok, path] {
        m_jobs.remove(job);
        job->deleteLater();
        if (!m_store || m_storePath != path)
            return; // closed or replaced meanwhile
        if (*ok)
            m_store->markVerified();
        else
            fail(tr("The project is damaged"), q(*error));
        emit projectVerified(*ok);
    });
    job->start();
}

void ProjectController::waitForJobs()
{
    for (QThread* job : std::as_const(m_jobs)) {
        disconnect(job, nullptr, this, nullptr);
        job->wait();
        delete job;
    }
    m_jobs.clear();
}

bool ProjectController::confirmCloseCapture(CaptureView* view)
{
    if (!m_store || m_closing || !m_captureIds.contains(view))
        return true;
    if (!interactive())
        return true; // the capture stays in the project; only its tab closes
    QMessageBox box(QMessageBox::Question, tr("Close capture"),
                    tr("Remove %1 from the project too? Its cached analysis and annotations are deleted "
                       "with it; otherwise it opens again with the project.")
                        .arg(QFileInfo(view->path()).fileName()),
                    QMessageBox::Cancel, m_window);
    QPushButton* remove = box.addButton(tr("Remove from project"), QMessageBox::DestructiveRole);
    QPushButton* keep = box.addButton(tr("Keep in project"), QMessageBox::AcceptRole);
    box.setDefaultButton(keep);
    box.exec();
    if (box.clickedButton() == remove) {
        if (const qint64 id = captureId(view))
            m_removedCaptures.push_back(id);
        markModified();
        return true;
    }
    return box.clickedButton() == keep;
}

// ---- annotations ------------------------------------------------------------------------

std::vector<store::Annotation> ProjectController::annotations(const CaptureView* view) const
{
    const auto it = m_notes.constFind(view);
    return it == m_notes.constEnd() ? std::vector<store::Annotation>{} : it->notes;
}

void ProjectController::addAnnotation(CaptureView* view, store::Annotation annotation)
{
    if (!m_store && !newProject())
        return;
    annotation.id = 0;
    // In the store's order (by time, untimed first, then as added), so the list reads
    // the same before and after the project is reopened.
    std::vector<store::Annotation>& notes = m_notes[view].notes;
    const auto before = [](const store::Annotation& a, const store::Annotation& b) {
        return b.timeNs && (!a.timeNs || *a.timeNs < *b.timeNs);
    };
    notes.insert(std::upper_bound(notes.begin(), notes.end(), annotation, before), std::move(annotation));
    markModified();
    emit annotationsChanged(view);
}

void ProjectController::removeAnnotation(CaptureView* view, std::size_t index)
{
    auto it = m_notes.find(view);
    if (it == m_notes.end() || index >= it->notes.size())
        return;
    if (it->notes[index].id)
        m_removedNotes.push_back(it->notes[index].id);
    it->notes.erase(it->notes.begin() + static_cast<std::ptrdiff_t>(index));
    markModified();
    emit annotationsChanged(view);
}

// ---- writing ----------------------------------------------------------------------------

std::string ProjectController::viewStateJson() const
{
    QJsonObject selection;
    for (CaptureView* view : m_window->views()) {
        const qint64 id = captureId(view);
        if (!id || !view->isLoaded())
            continue;
        selection.insert(QString::number(id), QJsonObject{{QStringLiteral("connection"), view->selectedConnection()},
                                                          {QStringLiteral("event"), view->selectedEvent()}});
    }
    QJsonObject state{{QStringLiteral("selection"), selection}};
    if (CaptureView* current = m_window->currentView())
        state.insert(QStringLiteral("current"), captureId(current));
    return QJsonDocument(state).toJson(QJsonDocument::Compact).toStdString();
}

bool ProjectController::flush()
{
    if (!m_store)
        return true;
    m_autosave->stop();
    std::string error;
    bool ok = true;
    bool waiting = false; // notes of captures still being stored
    for (std::int64_t id : m_removedCaptures)
        ok = ok && m_store->removeCapture(id, error);
    if (ok)
        m_removedCaptures.clear();
    for (std::int64_t id : m_removedNotes)
        ok = ok && m_store->removeAnnotation(id, error);
    if (ok)
        m_removedNotes.clear();
    for (auto it = m_notes.begin(); ok && it != m_notes.end(); ++it) {
        const qint64 capture = captureId(it.key());
        for (store::Annotation& note : it->notes) {
            if (note.id)
                continue;
            if (!capture) {
                waiting = true;
                continue;
            }
            note.captureId = capture;
            note.id = m_store->addAnnotation(note, error);
            ok = note.id != 0;
            if (!ok)
                break;
        }
    }
    ok = ok && m_store->setMetaValue(kViewStateKey, viewStateJson(), error);
    if (!ok) {
        // Kept pending: the next autosave tries again.
        m_lastError = q(error);
        m_window->statusBar()->showMessage(tr("Could not save the project: %1").arg(m_lastError));
        m_autosave->start();
    } else {
        m_hasPending = waiting;
    }
    updateTitle();
    emit saved(ok ? QString() : m_lastError);
    return ok;
}

bool ProjectController::save()
{
    if (!m_store)
        return false;
    if (!m_untitled)
        return flush();
    if (!interactive())
        return false;
    const QString chosen = QFileDialog::getSaveFileName(m_window, tr("Save project as"),
                                                        QStringLiteral("project.wsproj"), kFilter);
    return !chosen.isEmpty() &&
           saveAs(chosen.endsWith(QLatin1String(".wsproj")) ? chosen : chosen + QStringLiteral(".wsproj"));
}

bool ProjectController::saveAs(const QString& path)
{
    if (!m_store)
        return false;
    const QString absolute = QFileInfo(path).absoluteFilePath();
    if (absolute == m_storePath)
        return flush();
    // The captures being added must be in the copy. waitForJobs drops the completion
    // handlers, so the stored ids are picked up from the file.
    std::string error;
    auto pickUpStored = [this, &error] {
        waitForJobs();
        std::vector<store::CaptureRecord> records;
        if (!m_store->listCaptures(records, error))
            return;
        for (CaptureView* view : m_window->views())
            for (const store::CaptureRecord& r : records)
                if (!captureId(view) && r.file.path == QFileInfo(view->path()).absoluteFilePath().toStdString())
                    track(view, r.id);
    };
    pickUpStored();
    for (CaptureView* view : m_window->views())
        if (view->isLoaded() && !captureId(view))
            storeCapture(view);
    pickUpStored();
    if (!flush())
        return false;
    if (!m_store->saveCopy(absolute.toStdString(), error)) {
        fail(tr("Could not save the project"), q(error));
        return false;
    }
    auto copy = store::ProjectStore::open(absolute.toStdString(), error);
    if (!copy) {
        fail(tr("Could not save the project"), q(error));
        return false;
    }
    const QString scratch = m_untitled ? m_storePath : QString();
    m_store = std::move(copy);
    m_storePath = absolute;
    m_untitled = false;
    m_hasPending = false;
    if (!scratch.isEmpty())
        removeProjectFiles(scratch);
    // Captures opened from the old file now read the new one.
    for (CaptureView* view : m_window->views())
        if (const qint64 id = captureId(view))
            view->setProjectSource(absolute, id, view->projectStatus() != QLatin1String("ok") &&
                                                     !view->projectStatus().isEmpty());
    addRecent(absolute);
    updateTitle();
    m_window->statusBar()->showMessage(tr("Saved project %1").arg(absolute), 5000);
    return true;
}

// ---- recent projects --------------------------------------------------------------------

QStringList ProjectController::recentProjects() const { return recentList(kRecentKey); }

void ProjectController::addRecent(const QString& path)
{
    rememberRecent(kRecentKey, path);
    updateRecentMenu();
}

void ProjectController::updateRecentMenu()
{
    if (!m_recentMenu)
        return;
    m_recentMenu->clear();
    const QStringList recent = recentProjects();
    for (const QString& path : recent)
        m_recentMenu->addAction(QFileInfo(path).fileName(), this, [this, path] { openProject(path); })
            ->setToolTip(path);
    m_recentMenu->setToolTipsVisible(true);
    m_recentMenu->setEnabled(!recent.isEmpty());
}

} // namespace windscope::gui
