// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Two connections (and a replay's baseline) overlaid on one time axis, as the desktop's
// comparison window draws them: data delivered (the receiver's cumulative ACK), goodput
// per bin and the inferred cwnd, each side's times moved by its alignment offset so the
// two start, or meet at a chosen event, at 0. windscope-cli compare -o and the window's
// Export figure draw with it.

#include "analysis/series/plot_series.h"
#include "figure_panels.h"

#include <QImage>

#include <vector>

namespace windscope::render {

struct ComparedSide
{
    const analysis::ConnectionSeries* series = nullptr;
    QString name;
    double offset = 0;             // seconds subtracted from the side's capture times
};

struct ComparisonFigureOptions
{
    ExportPreset preset;
    QString timeTitle;             // e.g. "time since each connection's start (s)"
    QSizeF screenSize;             // the window's plots, for the screen preset
};

class ComparisonFigure
{
public:
    // sides: A, B and optionally a third (a replay's baseline), drawn in that order.
    ComparisonFigure(const std::vector<ComparedSide>& sides, const ComparisonFigureOptions& options);

    const FigurePainter& painter() const { return m_painter; }
    // The figure to path; the format follows the suffix (.png, .pdf, .svg).
    bool write(const QString& path, QString* error) const;
    QImage image() const;

private:
    ComparisonFigureOptions m_options;
    FigurePainter m_painter;
};

} // namespace windscope::render
