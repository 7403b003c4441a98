// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The annotations and bookmarks of the current capture: a list beside the window, and
// a marker on every plot at each one's time. A new one goes on the selected 802.11
// event when the event table is shown, else at the crosshair's time (where the mouse
// last was on a plot), else on the selected event or the middle of the view.

#include "analysis/store/project_store.h"

#include <QDockWidget>
#include <QPointer>

#include <optional>

class QAction;
class QTreeWidget;

namespace windscope::gui {

class CaptureView;
class MainWindow;
class PlotPanel;
class ProjectController;

class AnnotationPanel : public QDockWidget
{
    Q_OBJECT
public:
    AnnotationPanel(MainWindow* window, ProjectController* project);

    QTreeWidget* list() const { return m_list; }
    QAction* bookmarkAction() const { return m_bookmark; }
    QAction* noteAction() const { return m_note; }
    QAction* removeAction() const { return m_remove; }

    // Adds a "bookmark" or "note" to the current capture where the rules above say;
    // text "" makes one from the anchor. False when no capture is shown.
    bool addAnnotation(const QString& kind, const QString& text);
    // Annotation markers on a plot (for tests and export).
    static int markerCount(const PlotPanel* panel);
    // Capture-relative seconds an annotation marks (its event's start for an event).
    static std::optional<double> annotationTime(const CaptureView* view, const analysis::store::Annotation& a);

private:
    void setView(CaptureView* view);
    void refresh();
    void showMarkers(CaptureView* view);
    void goTo(int row);

    MainWindow* m_window;
    ProjectController* m_project;
    QPointer<CaptureView> m_view;
    QTreeWidget* m_list;
    QAction* m_bookmark;
    QAction* m_note;
    QAction* m_remove;
    std::optional<double> m_crosshair; // of m_view
};

} // namespace windscope::gui
