// SPDX-License-Identifier: GPL-3.0-or-later
#include "annotation_panel.h"

#include "capture_view.h"
#include "main_window.h"
#include "model/event_table_model.h"
#include "plots/plot_panel.h"
#include "plots/plot_stack.h"
#include "plots/time_axis.h"
#include "project_controller.h"

#include <QAction>
#include <QHeaderView>
#include <QInputDialog>
#include <QTableView>
#include <QToolBar>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace windscope::gui {

namespace store = analysis::store;

namespace {
const char* const kMarkerProperty = "windscopeAnnotation";
} // namespace

AnnotationPanel::AnnotationPanel(MainWindow* window, ProjectController* project)
    : QDockWidget(tr("Annotations"), window), m_window(window), m_project(project)
{
    setObjectName(QStringLiteral("annotations"));
    auto* body = new QWidget(this);
    auto* layout = new QVBoxLayout(body);
    layout->setContentsMargins(2, 2, 2, 2);
    auto* bar = new QToolBar(body);
    m_bookmark = bar->addAction(tr("Add &bookmark"), this, [this] { addAnnotation(QStringLiteral("bookmark"), {}); });
    m_bookmark->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_B));
    m_bookmark->setToolTip(tr("Bookmark the selected event, or the crosshair's time (Ctrl+B)"));
    m_note = bar->addAction(tr("Add &note…"), this, [this] {
        bool ok = false;
        const QString text = QInputDialog::getText(this, tr("Add a note"), tr("Note:"), QLineEdit::Normal, {}, &ok);
        if (ok && !text.trimmed().isEmpty())
            addAnnotation(QStringLiteral("note"), text.trimmed());
    });
    m_note->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_B));
    m_note->setToolTip(tr("A note on the selected event, or at the crosshair's time (Ctrl+Shift+B)"));
    m_remove = bar->addAction(tr("Remove"), this, [this] {
        const int row = m_list->currentIndex().row();
        if (m_view && row >= 0)
            m_project->removeAnnotation(m_view, static_cast<std::size_t>(row));
    });
    for (QAction* a : {m_bookmark, m_note})
        a->setShortcutContext(Qt::WindowShortcut);
    window->addAction(m_bookmark);
    window->addAction(m_note);
    m_list = new QTreeWidget(body);
    m_list->setRootIsDecorated(false);
    m_list->setHeaderLabels({tr("Kind"), tr("Time (s)"), tr("Event"), tr("Text")});
    m_list->header()->setStretchLastSection(true);
    connect(m_list, &QTreeWidget::itemActivated, this,
            [this](QTreeWidgetItem* item) { goTo(m_list->indexOfTopLevelItem(item)); });
    connect(m_list, &QTreeWidget::itemClicked, this,
            [this](QTreeWidgetItem* item) { goTo(m_list->indexOfTopLevelItem(item)); });
    layout->addWidget(bar);
    layout->addWidget(m_list);
    setWidget(body);

    connect(window, &MainWindow::currentViewChanged, this, &AnnotationPanel::setView);
    connect(project, &ProjectController::annotationsChanged, this, [this](CaptureView* view) {
        showMarkers(view);
        if (view == m_view)
            refresh();
    });
    connect(window, &MainWindow::captureReady, this, [this](CaptureView* view) {
        showMarkers(view);
        if (view == m_window->currentView())
            setView(view);
    });
    setView(window->currentView());
}

void AnnotationPanel::setView(CaptureView* view)
{
    if (m_view)
        disconnect(m_view->plotStack()->timeAxis(), nullptr, this, nullptr);
    m_view = view;
    m_crosshair.reset();
    if (view)
        connect(view->plotStack()->timeAxis(), &TimeAxis::cursorMoved, this, [this](double time, bool visible) {
            if (visible)
                m_crosshair = time;
        });
    refresh();
}

std::optional<double> AnnotationPanel::annotationTime(const CaptureView* view, const store::Annotation& a)
{
    if (a.timeNs)
        return static_cast<double>(*a.timeNs) / 1e9;
    if (a.eventId && view && view->isLoaded() && *a.eventId < view->capture()->events.size())
        return static_cast<double>(view->capture()->events.at(*a.eventId).startNs) / 1e9;
    return std::nullopt;
}

bool AnnotationPanel::addAnnotation(const QString& kind, const QString& text)
{
    CaptureView* view = m_window->currentView();
    if (!view || !view->isLoaded())
        return false;
    store::Annotation a;
    a.kind = kind.toStdString();
    const bool eventsShown = view->eventView()->isVisible();
    const int event = view->selectedEvent();
    QString anchor;
    if (event >= 0 && (eventsShown || (!m_crosshair && view == m_view))) {
        const analysis::WlanEvent& e = view->capture()->events.at(static_cast<std::size_t>(event));
        a.eventId = e.id;
        anchor = tr("event %1 (%2)").arg(e.id).arg(QString::fromLatin1(analysis::eventKindName(e.kind)));
    } else {
        const TimeAxis* axis = view->plotStack()->timeAxis();
        const double t = m_crosshair && view == m_view ? *m_crosshair : (axis->lower() + axis->upper()) / 2;
        a.timeNs = static_cast<std::int64_t>(std::llround(t * 1e9));
        anchor = tr("%1 s").arg(t, 0, 'f', 6);
    }
    if (view->selectedConnection() >= 0)
        a.connectionId = view->capture()->tcp.connections[static_cast<std::size_t>(view->selectedConnection())].id;
    a.text = (text.isEmpty() ? (kind == QLatin1String("bookmark") ? tr("Bookmark at %1") : tr("Note at %1")).arg(anchor)
                             : text)
                 .toStdString();
    m_project->addAnnotation(view, std::move(a));
    return true;
}

void AnnotationPanel::refresh()
{
    m_list->clear();
    if (!m_view)
        return;
    for (const store::Annotation& a : m_project->annotations(m_view)) {
        const std::optional<double> t = annotationTime(m_view, a);
        auto* item = new QTreeWidgetItem(m_list, {QString::fromStdString(a.kind), t ? QString::number(*t, 'f', 6) : QString(),
                                                  a.eventId ? QString::number(*a.eventId) : QString(),
                                                  QString::fromStdString(a.text)});
        item->setToolTip(3, QString::fromStdString(a.text));
    }
    m_list->resizeColumnToContents(0);
    m_list->resizeColumnToContents(1);
}

int AnnotationPanel::markerCount(const PlotPanel* panel)
{
    int n = 0;
    for (int i = 0; i < panel->itemCount(); ++i)
        n += panel->item(i)->property(kMarkerProperty).toBool() && qobject_cast<QCPItemStraightLine*>(panel->item(i));
    return n;
}

void AnnotationPanel::showMarkers(CaptureView* view)
{
    if (!view)
        return;
    const std::vector<store::Annotation> notes = m_project->annotations(view);
    const QList<PlotPanel*> panels = view->plotStack()->panels();
    for (PlotPanel* panel : panels) {
        for (int i = panel->itemCount() - 1; i >= 0; --i)
            if (panel->item(i)->property(kMarkerProperty).toBool())
                panel->removeItem(i);
        for (const store::Annotation& a : notes) {
            const std::optional<double> t = annotationTime(view, a);
            if (!t)
                continue;
            const QColor colour = a.kind == "bookmark" ? QColor(0, 110, 200) : QColor(200, 110, 0);
            auto* line = new QCPItemStraightLine(panel);
            line->setProperty(kMarkerProperty, true);
            line->point1->setTypeY(QCPItemPosition::ptAxisRectRatio);
            line->point2->setTypeY(QCPItemPosition::ptAxisRectRatio);
            line->point1->setCoords(*t, 0);
            line->point2->setCoords(*t, 1);
            line->setPen(QPen(colour, 0, Qt::DashLine));
            line->setSelectable(false);
            if (panel == panels.front()) {
                auto* label = new QCPItemText(panel);
                label->setProperty(kMarkerProperty, true);
                label->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
                label->position->setCoords(*t, 0);
                label->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
                label->setText(QString::fromStdString(a.text).left(40));
                label->setColor(colour);
                label->setClipToAxisRect(true);
                label->setSelectable(false);
            }
        }
        panel->replot(QCustomPlot::rpQueuedReplot);
    }
}

void AnnotationPanel::goTo(int row)
{
    if (!m_view || row < 0)
        return;
    const std::vector<store::Annotation> notes = m_project->annotations(m_view);
    if (static_cast<std::size_t>(row) >= notes.size())
        return;
    const store::Annotation& a = notes[static_cast<std::size_t>(row)];
    if (a.eventId && !a.timeNs) {
        m_view->selectEvent(static_cast<int>(*a.eventId));
        return;
    }
    if (const std::optional<double> t = annotationTime(m_view, a)) {
        TimeAxis* axis = m_view->plotStack()->timeAxis();
        const double half = (axis->upper() - axis->lower()) / 2;
        axis->setRange(*t - half, *t + half);
    }
}

} // namespace windscope::gui
