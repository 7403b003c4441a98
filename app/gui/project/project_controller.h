// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The open Windscope project of a main window (analysis/store's ProjectStore): which
// captures it holds, their annotations and bookmarks, the view state, and when all of
// that is written.
//
// - Every open capture tab belongs to the project while one is open. A capture opened
//   or dropped then is added as `windscope-cli project add` adds it: its SHA-256 and
//   its analysis results, saved by ProjectStore::saveCapture on a worker thread with
//   its own connection to the file.
// - Opening a project reopens its captures from the cache (CaptureLoader's project
//   source). A file that changed or moved since is shown with that status and the
//   choice of the cached results or a new analysis, never re-analysed or dropped
//   silently.
// - Annotation edits are kept as pending and written (each in its own transaction)
//   two seconds after the last edit, on Save, and when the project or window closes.
// - A new project is untitled: it lives in a scratch file until Save As copies it
//   (ProjectStore::saveCopy) to the chosen name; closing it with content asks first.

#include "analysis/store/project_store.h"

#include <QHash>
#include <QObject>
#include <QPointer>
#include <QSet>
#include <QString>

#include <memory>
#include <vector>

class QAction;
class QMenu;
class QThread;
class QTimer;

namespace windscope::gui {

class CaptureView;
class MainWindow;

class ProjectController : public QObject
{
    Q_OBJECT
public:
    explicit ProjectController(MainWindow* window);
    ~ProjectController() override;

    // Adds New/Open/Save/Save As/Recent/Close project to the File menu.
    void addFileActions(QMenu* file, QAction* before);

    bool isOpen() const { return m_store != nullptr; }
    bool isUntitled() const { return m_untitled; }
    // The project file the user named ("" for an untitled or no project).
    QString path() const;
    // Edits not yet written, or an untitled project with content.
    bool isModified() const;
    // The message of the last failure (also shown in a dialog when interactive).
    QString lastError() const { return m_lastError; }
    // Captures being added (analysis saved on a worker): Save As waits for them.
    int capturesBeingStored() const { return static_cast<int>(m_jobs.size()); }
    QStringList recentProjects() const;

    bool newProject();
    bool openProject(const QString& path);
    // Writes pending edits; an untitled project asks for a name (interactive only).
    bool save();
    bool saveAs(const QString& path);
    // False when the user chose to keep the project open.
    bool closeProject();
    // Writes pending edits and the view state now.
    bool flush();

    // ---- annotations and bookmarks of a capture (times are capture-relative) ----
    // The capture's annotations, written or pending, in time order (untimed first).
    std::vector<analysis::store::Annotation> annotations(const CaptureView* view) const;
    // Adds one to the capture (opening an untitled project first when none is open).
    void addAnnotation(CaptureView* view, analysis::store::Annotation annotation);
    void removeAnnotation(CaptureView* view, std::size_t index);
    // The project's id of the capture shown by view, 0 while it is being stored.
    qint64 captureId(const CaptureView* view) const { return m_captureIds.value(view, 0); }

    // Asked before a capture tab closes: false to keep it open. Interactive windows ask
    // whether to remove the capture (its cache and annotations) from the project.
    bool confirmCloseCapture(CaptureView* view);

signals:
    // Opened, closed, saved, modified: the title and menus follow.
    void stateChanged();
    void annotationsChanged(windscope::gui::CaptureView* view);
    // A capture's analysis was saved in the project (id), or could not be (error).
    void captureStored(windscope::gui::CaptureView* view, qint64 id, const QString& error);
    // Pending edits were written (or writing them failed: error).
    void saved(const QString& error);
    // The full check of an opened project's pages (run off the GUI thread) finished;
    // a damaged project is reported and never written to.
    void projectVerified(bool ok);

private:
    struct Pending
    {
        std::vector<analysis::store::Annotation> notes; // id 0 = not written yet
    };
    void onCaptureReady(CaptureView* view);
    void storeCapture(CaptureView* view);
    void verifyInBackground();
    void track(CaptureView* view, qint64 id);
    void markModified();
    void updateTitle();
    void updateRecentMenu();
    void addRecent(const QString& path);
    std::string viewStateJson() const;
    void applyViewState(CaptureView* view);
    void waitForJobs();
    void fail(const QString& title, const QString& message);
    bool interactive() const;
    void closeAllTabs();

    MainWindow* m_window;
    std::unique_ptr<analysis::store::ProjectStore> m_store;
    QString m_storePath;      // the file written to (the scratch file while untitled)
    bool m_untitled = false;
    bool m_hasPending = false;
    bool m_closing = false;
    QString m_lastError;
    QHash<const CaptureView*, qint64> m_captureIds;
    QHash<const CaptureView*, Pending> m_notes;
    std::vector<std::int64_t> m_removedNotes;
    std::vector<std::int64_t> m_removedCaptures;
    QSet<QThread*> m_jobs;
    // Selection per capture id and the current capture, from the file's view state.
    QHash<qint64, QPair<int, int>> m_savedSelection;
    qint64 m_savedCurrent = 0;
    QTimer* m_autosave;
    QMenu* m_recentMenu = nullptr;
    QAction* m_save = nullptr;
    QAction* m_saveAs = nullptr;
    QAction* m_close = nullptr;
};

} // namespace windscope::gui
