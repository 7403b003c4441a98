// SPDX-License-Identifier: GPL-3.0-or-later
#include "plot_stack.h"
#include "render/connection_figure.h"

#include "rate_plot.h"
#include "rtt_plot.h"
#include "time_axis.h"
#include "window_plot.h"
#include "wlan_lane_plot.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QToolButton>
#include <QVBoxLayout>

namespace windscope::gui {

PlotStack::PlotStack(QWidget* parent) : QWidget(parent), m_axis(new TimeAxis(this))
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    auto* bar = new QHBoxLayout;
    bar->setContentsMargins(6, 2, 6, 2);
    m_title = new QLabel(tr("Select a connection"), this);
    m_title->setTextInteractionFlags(Qt::TextSelectableByMouse);
    bar->addWidget(m_title, 1);
    m_busyNote = new QLabel(this);
    m_busy = new QProgressBar(this);
    m_busy->setRange(0, 0); // no measure of progress inside the inference: busy
    m_busy->setMaximumWidth(120);
    m_busy->setMaximumHeight(m_title->sizeHint().height());
    m_busy->setTextVisible(false);
    m_busyNote->hide();
    m_busy->hide();
    bar->addWidget(m_busyNote);
    bar->addWidget(m_busy);
    m_style = new QComboBox(this);
    m_style->addItem(tr("tcptrace style"));
    m_style->addItem(tr("Stevens style"));
    m_style->setToolTip(tr("Time-sequence graph style"));
    bar->addWidget(m_style);
    auto addButton = [&](const QString& text, const QString& tip, auto slot) {
        auto* b = new QToolButton(this);
        b->setText(text);
        b->setToolTip(tip);
        bar->addWidget(b);
        connect(b, &QToolButton::clicked, this, slot);
    };
    addButton(QStringLiteral("+"), tr("Zoom in (+)"), [this] { m_axis->zoomAroundMiddle(0.5); });
    addButton(QStringLiteral("−"), tr("Zoom out (-)"), [this] { m_axis->zoomAroundMiddle(2.0); });
    addButton(tr("Reset"), tr("Show the whole connection (Home)"), [this] { m_axis->reset(); });
    layout->addLayout(bar);

    m_timeSequence = new TimeSequencePlot(m_axis, this);
    // In PlotKind order.
    m_panels = {m_timeSequence, new WindowPlot(m_axis, this), new RatePlot(m_axis, this),
                new RttPlot(m_axis, this), new WlanLanePlot(m_axis, this)};
    for (PlotPanel* p : m_panels) {
        layout->addWidget(p, p->stretch());
        p->setShowTimeLabels(p == m_panels.back());
    }
    connect(m_style, &QComboBox::currentIndexChanged, this, [this](int index) {
        m_timeSequence->setSequenceStyle(index == 1 ? TimeSequencePlot::Style::Stevens
                                                    : TimeSequencePlot::Style::Tcptrace);
    });
}

void PlotStack::setSeries(std::shared_ptr<const analysis::ConnectionSeries> series, const QString& title)
{
    m_series = std::move(series);
    m_title->setText(title);
    if (!m_series) {
        clear();
        return;
    }
    for (PlotPanel* p : m_panels)
        p->setSeries(*m_series);
    showPanelsWithContent();
    const auto [lower, upper] = render::wholeConnectionRange(*m_series);
    m_axis->setFullRange(lower, upper);
    for (PlotPanel* p : m_panels) {
        p->refreshLevelOfDetail();
        p->replot(QCustomPlot::rpQueuedReplot);
    }
}

void PlotStack::updateSeries(std::shared_ptr<const analysis::ConnectionSeries> series)
{
    if (!series)
        return;
    m_series = std::move(series);
    for (PlotPanel* p : m_panels) {
        p->setSeries(*m_series);
        p->refreshLevelOfDetail();
        p->replot(QCustomPlot::rpQueuedReplot);
    }
    showPanelsWithContent();
}

void PlotStack::showPanelsWithContent()
{
    // The 802.11 lane of a connection with no station and no event to show (a wired
    // capture without outages) would be an empty panel: it is left out, and the time
    // labels go to the lowest panel shown.
    const bool laneHasContent = m_series && (m_series->lane.station >= 0 || !m_series->lane.events.empty());
    panel(PlotKind::WlanLane)->setVisible(laneHasContent);
    PlotPanel* lowest = nullptr;
    for (PlotPanel* p : m_panels)
        if (!p->isHidden())
            lowest = p;
    for (PlotPanel* p : m_panels)
        p->setShowTimeLabels(p == lowest);
}

void PlotStack::setBusy(const QString& note)
{
    m_busyNote->setText(note);
    m_busyNote->setVisible(!note.isEmpty());
    m_busy->setVisible(!note.isEmpty());
}

bool PlotStack::isBusy() const { return !m_busyNote->text().isEmpty(); }

void PlotStack::clear()
{
    m_series.reset();
    for (PlotPanel* p : m_panels)
        p->clearSeries();
}

void PlotStack::setSequenceStyle(TimeSequencePlot::Style style)
{
    m_style->setCurrentIndex(style == TimeSequencePlot::Style::Stevens ? 1 : 0);
}

} // namespace windscope::gui
