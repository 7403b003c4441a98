// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The plots of one connection, stacked on one time axis: time-sequence, windows,
// throughput, RTT and the 802.11 lane. Zooming or panning any of them moves all.

#include "analysis/series/plot_series.h"
#include "render/figure_panels.h"
#include "time_sequence_plot.h"

#include <QWidget>

#include <memory>
#include <optional>

class QComboBox;
class QLabel;
class QProgressBar;

namespace windscope::gui {

class TimeAxis;

// The plots of a stack, top to bottom in PlotKind order (that of PlotStack::panels()),
// are those of an exported figure.
using render::PlotKind;
using render::allPlotKinds;
using render::plotKindName;
using render::plotKindFromName;

class PlotStack : public QWidget
{
    Q_OBJECT
public:
    explicit PlotStack(QWidget* parent = nullptr);

    // Shows a connection; the time axis is reset to its whole span.
    void setSeries(std::shared_ptr<const analysis::ConnectionSeries> series, const QString& title);
    void clear();
    // The same connection with more of its series (the cwnd, once inferred): the view
    // stays where it is.
    void updateSeries(std::shared_ptr<const analysis::ConnectionSeries> series);
    // A busy indicator with a note in the plots' title bar; empty hides it.
    void setBusy(const QString& note);
    bool isBusy() const;
    const analysis::ConnectionSeries* series() const { return m_series.get(); }
    QList<PlotPanel*> panels() const { return m_panels; }
    PlotPanel* panel(PlotKind kind) const { return m_panels.at(static_cast<int>(kind)); }
    TimeAxis* timeAxis() const { return m_axis; }
    TimeSequencePlot* timeSequencePlot() const { return m_timeSequence; }
    void setSequenceStyle(TimeSequencePlot::Style style);

private:
    void showPanelsWithContent();
    TimeAxis* m_axis;
    QLabel* m_title;
    QComboBox* m_style;
    QLabel* m_busyNote;
    QProgressBar* m_busy;
    TimeSequencePlot* m_timeSequence;
    QList<PlotPanel*> m_panels;
    std::shared_ptr<const analysis::ConnectionSeries> m_series;
};

} // namespace windscope::gui
