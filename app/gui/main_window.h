// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The application window: a tab per open capture, opened from the menu, the command
// line, drag and drop or the recent-files list; figure and series export; event
// navigation shortcuts.

#include "model/capture_analysis.h"

#include <QMainWindow>

#include <optional>

class QMenu;
class QTabWidget;

namespace windscope::gui {

class AnnotationPanel;
class CaptureView;
class CompareWindow;
class FleetView;
class PlotPanel;
class ProjectController;
class ReplayRunner;
class SweepWindow;
struct ReplayRequest;

class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);

    CaptureView* openCapture(const QString& path);
    // Opens a capture of a project from its cached results (ProjectController).
    CaptureView* openProjectCapture(const QString& path, const QString& projectPath, qint64 captureId);
    // Closes a capture's tab without asking.
    void closeView(CaptureView* view);
    void setCurrentView(CaptureView* view);
    CaptureView* currentView() const;
    QList<CaptureView*> views() const;
    QStringList recentFiles() const;
    // Opens a comparison of the selected connection of the current capture with that of
    // the next open capture (or, with one capture, with its next connection); nullptr
    // (and a status message) when there are not two connections to compare.
    CompareWindow* compareSelected();
    // Replays the current capture's selected connection (request.connection is set from
    // it) off the GUI thread; when it is done, a comparison of the capture and the run
    // opens (compareOpened). nullptr (and a status message) without a selection.
    ReplayRunner* compareWithReplay(ReplayRequest request);
    // Opens a sweep window for the current capture's selected connection (or, with no
    // selection, for the presets); nullptr when no capture is open.
    SweepWindow* openSweep();
    // Opens a Fleet tab on a project file (any project, not only the open one); a double
    // click there opens a capture at its worst event. nullptr with error when the
    // project cannot be read.
    FleetView* openFleet(const QString& projectPath, QString* error = nullptr);
    // Applied to the next capture that finishes loading instead of the default choice.
    void setInitialSelection(const Selection& selection) { m_initialSelection = selection; }
    // Shows load errors in a message box (off in tests, which read CaptureView::errorText).
    void setInteractive(bool interactive) { m_interactive = interactive; }
    bool isInteractive() const { return m_interactive; }
    ProjectController* project() const { return m_project; }
    AnnotationPanel* annotationPanel() const { return m_annotations; }
    // Analysis > Open in Wireshark at this packet (see CaptureView::wiresharkFrame).
    QAction* openInWiresharkAction() const { return m_openInWireshark; }
    // Enables that action for the current view's selection and Wireshark on PATH.
    void updateWiresharkAction();

signals:
    // A capture finished loading and its first connection/event are selected.
    void captureReady(windscope::gui::CaptureView* view);
    void currentViewChanged(windscope::gui::CaptureView* view);
    void compareOpened(windscope::gui::CompareWindow* window);

protected:
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;
    void closeEvent(QCloseEvent* event) override;

private:
    void buildMenus();
    void openDialog();
    void addRecent(const QString& path);
    void updateRecentMenu();
    CaptureView* viewReadyForExport();
    void exportFigure();
    void exportSeries();
    void exportReport();
    void replayDialog();
    void fleetDialog();
    void closeTab(int index);

    QTabWidget* m_tabs;
    QMenu* m_recentMenu = nullptr;
    std::optional<Selection> m_initialSelection;
    bool m_interactive = true;
    ProjectController* m_project = nullptr;
    AnnotationPanel* m_annotations = nullptr;
    QAction* m_openInWireshark = nullptr;
};

} // namespace windscope::gui
