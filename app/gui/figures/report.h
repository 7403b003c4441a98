// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A report of one capture: its summary, the connection table, the 802.11 event table,
// the correlation table (one row per event and affected connection) and figures of the
// chosen connections -- as self-contained HTML (figures embedded as PNG data) or as PDF
// laid out and paginated by Qt's text document printing. The tables are the desktop
// application's table models, so the report shows the numbers the window shows.

#include "figures/connection_figure.h"

#include <QList>
#include <QString>

#include <functional>
#include <memory>

namespace windscope::gui {

struct ReportOptions
{
    QString title;                  // empty: "Windscope report: FILE"
    // Connections to draw (indices in TcpAnalysis::connections); empty: the one
    // mostAffected() picks.
    QList<int> connections;
    QList<PlotKind> plots;          // empty: the whole stack
    ExportPreset preset;            // of the figures
    bool figures = true;            // false: tables only
    // For each drawn connection, a second figure zoomed to the event that hurt it most.
    bool eventFigures = true;
};

// The default: double-column figures in colour for the screen-read HTML / PDF.
ExportPreset defaultReportPreset();

enum class ReportFormat { Html, Pdf };
// From the suffix (.html, .htm, .pdf); nullopt otherwise.
std::optional<ReportFormat> reportFormatFor(const QString& path);

// One figure of a report.
struct ReportFigure
{
    QImage image;
    QString caption;
};

// The figures options asks for, in order.
QList<ReportFigure> reportFigures(const std::shared_ptr<const CaptureAnalysis>& capture, const ReportOptions& options);

// The report's HTML; figure i's <img> source is imageSource(i). pageHeightMm > 0 lays
// figures out for pages of that printable height: each on its own page, scaled to fit.
QString reportHtml(const std::shared_ptr<const CaptureAnalysis>& capture, const ReportOptions& options,
                   const QList<ReportFigure>& figures, const std::function<QString(int)>& imageSource,
                   double pageHeightMm = 0);

// Writes the report (format from the suffix). Returns false with error set.
bool writeReport(const std::shared_ptr<const CaptureAnalysis>& capture, const ReportOptions& options,
                 const QString& path, QString* error);

} // namespace windscope::gui
