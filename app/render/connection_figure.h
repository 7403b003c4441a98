// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A connection's figure: the plots the desktop application stacks (time-sequence,
// windows, throughput, RTT, the 802.11 lane) drawn from its plotted series
// (analysis::buildConnectionSeries, the numbers `windscope-cli series` prints) for a
// preset and a time range. windscope-cli export, the report and the window's File ▸
// Export figure all draw with it.

#include "analysis/series/plot_series.h"
#include "figure_panels.h"

#include <QImage>
#include <QList>
#include <QSizeF>

#include <optional>
#include <utility>

namespace windscope::analysis {
struct WlanEvent;
}

namespace windscope::render {

struct FigureOptions
{
    QList<PlotKind> plots;          // top to bottom; empty: all of them
    ExportPreset preset;
    // Seconds since the capture's first packet; nullopt: the whole connection.
    std::optional<std::pair<double, double>> range;
    long long highlightedEvent = -1; // WlanEvent::id outlined
    bool stevens = false;           // Stevens-style time-sequence (default tcptrace)
    QSizeF screenSize;              // the window's plots, for the screen preset
};

// The whole connection with a 1 % margin either side, as the window shows it first.
std::pair<double, double> wholeConnectionRange(const analysis::ConnectionSeries& series);
// [lower, upper] with a margin on both sides (a fraction of the span, at least minMargin
// seconds) so what happened just before and after stays in view.
std::pair<double, double> intervalWithMargin(double lower, double upper, double marginFraction = 0.5,
                                             double minMargin = 0.05);
// An event as a click in the event table shows it.
std::pair<double, double> eventRange(const analysis::WlanEvent& event);

// The panels of a connection for the options (before empty ones are left out).
std::vector<Panel> connectionPanels(const analysis::ConnectionSeries& series, const FigureOptions& options);

class ConnectionFigure
{
public:
    ConnectionFigure(const analysis::ConnectionSeries& series, const FigureOptions& options);

    const FigurePainter& painter() const { return m_painter; }
    // The figure to path; the format follows the suffix (.png, .pdf, .svg).
    bool write(const QString& path, QString* error) const;
    QImage image() const;

private:
    FigureOptions m_options;
    FigurePainter m_painter;
};

} // namespace windscope::render
