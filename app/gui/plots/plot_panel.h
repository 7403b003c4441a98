// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Base of every plot in a stack: a QCustomPlot whose time axis follows the shared
// TimeAxis, whose series are reduced to the visible range (LodSeries) on each range
// change, with event bands, a crosshair that prints the exact values of the nearest
// points, tooltips on marked points, and keyboard zoom/pan. Refresh levels: setSeries()
// (new data), refreshLevelOfDetail() (new range or size), replot().

#include "analysis/series/plot_series.h"
#include "render/lod_series.h"

#include <qcustomplot.h>

#include <functional>
#include <memory>
#include <vector>

namespace windscope::gui {

using render::LodSeries;

class TimeAxis;

// How a figure is drawn: on screen, or for print with a preset.
struct PlotStyle
{
    double fontPt = 9;
    bool grayscale = false;
    // 0 draws one-pixel cosmetic lines, the raster engine's fast path (wider or
    // fractional widths go through the path stroker, several times slower to pan).
    double lineWidth = 0;
};

// Line styles that stay distinct in colour and in grayscale (dash pattern and gray
// level differ between neighbouring roles).
QPen seriesPen(int role, const PlotStyle& style);
QColor seriesColor(int role, bool grayscale);

struct LodGraph
{
    QString name;
    QCPGraph* graph = nullptr;
    LodSeries series;
    LodSeries::Mode mode = LodSeries::Mode::Line;
    int role = 0;
    QCPScatterStyle::ScatterShape shape = QCPScatterStyle::ssNone;
    QPainterPath customShape;              // drawn when shape is ssCustom
    double shapeSize = 5;
    QString unit;
    // Left out of the value-axis autoscale: a line far above the data (the receive
    // window edge) would otherwise flatten it; it shows when it comes into range.
    bool autoscale = true;
    std::vector<std::uint64_t> frames;     // frame number per point, for tooltips
    // The crosshair's text for point i instead of "name: value unit" (frame ticks).
    std::function<QString(std::size_t)> describe;
    LodSeries::Output last;                // the current reduction, kept for tests
};

class PlotPanel : public QCustomPlot
{
    Q_OBJECT
public:
    PlotPanel(TimeAxis* axis, const QString& title, QWidget* parent = nullptr);
    ~PlotPanel() override;

    virtual void setSeries(const analysis::ConnectionSeries& series) = 0;
    void clearSeries();
    QString title() const { return m_title; }
    // Relative height of the panel in a stack.
    virtual int stretch() const { return 3; }

    void refreshLevelOfDetail(int columns = 0);
    void setEventBands(const std::vector<analysis::LaneEvent>& events, bool labels);
    // Outlines the band of one event (WlanEvent::id), -1 for none.
    void setHighlightedEvent(long long id);
    long long highlightedEvent() const { return m_highlighted; }
    void setPlotStyle(const PlotStyle& style);
    const PlotStyle& plotStyle() const { return m_style; }
    void setShowTimeLabels(bool show);
    // The crosshair text at time t: each series' nearest point, exact values.
    QString valuesText(double t) const;
    const std::vector<std::unique_ptr<LodGraph>>& lodGraphs() const { return m_graphs; }
    LodGraph* lodGraph(const QString& name) const;
    TimeAxis* timeAxis() const { return m_axis; }
    // A message shown in the plot when there is nothing to draw (and why).
    void setEmptyMessage(const QString& message);
    // Panels whose value axes show one scale: each fits its axes to what is visible in
    // all of them (side-by-side comparison). The link goes both ways; nullptr unlinks.
    static void linkValueAxes(PlotPanel* a, PlotPanel* b);
    // Shows or hides a series as a click on its legend item does; false when the
    // series has no legend item (not drawn).
    bool toggleSeries(const QString& name);

protected:
    // Called at the start of each refresh, before the series are reduced to the view:
    // a panel whose data depend on the visible range (re-binned rates) sets them here.
    virtual void viewChanged(double /*lower*/, double /*upper*/, int /*columns*/) {}
    // Called when the series is cleared: a panel holding on to it lets go.
    virtual void seriesCleared() {}
    // Called after each refresh of what is drawn (a new series, a zoom, a resize), once
    // the value axes are fitted.
    virtual void refreshed() {}
    LodGraph& addSeries(const QString& name, LodSeries::Mode mode, int role,
                        QCPAxis* valueAxis = nullptr);
    void setRangeData(LodGraph& g, const analysis::RangeSeries& s, double scale = 1.0);
    void setXyData(LodGraph& g, const analysis::XySeries& s, double scale = 1.0);
    void applyGraphStyle(LodGraph& g);
    // Tick labels divided by divisor (bytes shown as kB); data stay in the base unit.
    void setValueScale(QCPAxis* axis, double divisor, const QString& label);

    void keyPressEvent(QKeyEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    struct Extent
    {
        double lo = 0, hi = 0;
        bool set = false;
    };
    // Fits the value axes to the extents, merged with the linked panel's, in both.
    void fitValueAxes();
    static void applyValueRange(QCPAxis* axis, Extent e);
    void toggleSeries(QCPPlottableLegendItem* entry);
    void onAxisRangeChanged(double lower, double upper);
    void onCursorMoved(double time, bool visible);
    void showMarkTooltip(const QPoint& pos);

    TimeAxis* m_axis;
    QString m_title;
    PlotStyle m_style;
    bool m_syncing = false;
    long long m_highlighted = -1;
    std::vector<std::unique_ptr<LodGraph>> m_graphs;
    std::vector<QCPAbstractItem*> m_bands;
    QCPItemStraightLine* m_cursorLine = nullptr;
    QCPItemText* m_cursorText = nullptr;
    QCPItemText* m_emptyText = nullptr;
    // What is visible on each value axis (yAxis, yAxis2), from the last refresh.
    Extent m_visible[2];
    PlotPanel* m_valueLink = nullptr;
};

} // namespace windscope::gui
