// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A figure as data: panels stacked on one time axis, each with its value axes, its
// series (already the plotted numbers of analysis/series; no TCP arithmetic here) and the
// 802.11 event bands. FigurePainter lays them out for a preset and paints them with
// QPainter into any paint device.

#include "analysis/series/plot_series.h"
#include "figure_style.h"
#include "figure_writer.h"
#include "lod_series.h"
#include "value_scale.h"

#include <QList>
#include <QSizeF>
#include <QString>

#include <optional>
#include <vector>

namespace windscope::render {

// The plots of a connection's figure, top to bottom.
enum class PlotKind { TimeSequence, Window, Throughput, Rtt, WlanLane };
QList<PlotKind> allPlotKinds();
// "time-sequence", "window", "throughput", "rtt", "wlan" (names of the CLI's --plot).
QString plotKindName(PlotKind kind);
std::optional<PlotKind> plotKindFromName(const QString& name);

enum class SeriesShape { Line, Step, Bars, Points };

struct PlotSeries
{
    QString name;                  // legend text
    SeriesShape shape = SeriesShape::Line;
    SeriesLook look;
    LodSeries data;
    bool rightAxis = false;
    // Left out of the value range: a line far above the data (the receive window edge)
    // would flatten it; it shows where it comes into range.
    bool autoscale = true;
};

struct PanelAxis
{
    QString title;                 // without the unit, which follows the scale
    Quantity quantity = Quantity::Count;
    bool fromZero = true;
};

struct Panel
{
    PlotKind kind = PlotKind::TimeSequence;
    PanelAxis left;
    std::optional<PanelAxis> right;
    std::vector<PlotSeries> series;
    std::vector<analysis::LaneEvent> bands;
    bool bandLabels = false;       // name the events when few are in view
    bool bandsAreContent = false;  // the 802.11 lane: its events alone are worth a panel
    double stretch = 3;            // relative height of the plot area
    QString emptyReason;           // why the panel has nothing to draw, for the figure's note
};

struct FigureFrame
{
    double lower = 0, upper = 1;   // the shared time axis, seconds since the capture's first packet
    long long highlightedEvent = -1; // WlanEvent::id outlined
    ExportPreset preset;
    QSizeF screenSize;             // logical pixels of the window's plots, for the screen preset
    QString timeTitle;             // the time axis' title; empty: "time since capture start (s)"
};

// Laid out at construction: panels with nothing in the time range are left out.
class FigurePainter
{
public:
    FigurePainter(std::vector<Panel> panels, const FigureFrame& frame);
    ~FigurePainter();
    FigurePainter(FigurePainter&&) noexcept;
    FigurePainter& operator=(FigurePainter&&) noexcept;

    int width() const;             // logical pixels (1/96 inch)
    int height() const;
    // The panels drawn, top to bottom.
    QList<PlotKind> drawnPlots() const;
    // Set when no panel is left: the figure then shows this sentence instead.
    QString emptyText() const;
    // The legend of a drawn panel: each series with points in range, as drawn.
    struct LegendEntry
    {
        QString name;
        SeriesShape shape;
        SeriesStyle style;
    };
    std::vector<LegendEntry> legend(PlotKind kind) const;
    void paint(QPainter& painter, const PaintTarget& target) const;

private:
    struct Layout;
    std::unique_ptr<Layout> m;
};

// A legend's icon for a series style, in the rectangle.
void paintLegendIcon(QPainter& painter, const QRectF& rect, SeriesShape shape, const SeriesStyle& style);

// A laid-out figure to path (the format follows the suffix: .png, .pdf, .svg), or as an
// image, at the dpi of PNG output.
bool writeFigure(const FigurePainter& figure, int dpi, const QString& path, QString* error);
QImage figureImage(const FigurePainter& figure, int dpi);

} // namespace windscope::render
