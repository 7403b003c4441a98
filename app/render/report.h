// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A report of one capture: its summary, the connection table, the 802.11 event table,
// the correlation table (one row per event and affected connection) and figures of the
// chosen connections -- as self-contained HTML (figures embedded as PNG data) or as PDF
// paginated by Qt's text document on A4 or Letter portrait. The tables are the cells of
// report_tables, the ones the window's tables show; the figures are ConnectionFigures.

#include "analysis/pipeline/capture_pipeline.h"
#include "capture_choice.h"
#include "connection_figure.h"

#include <QImage>

#include <QList>
#include <QString>

#include <functional>
#include <optional>

namespace windscope::render {

// The capture a report is made of: its pipeline, run through the correlation on first
// use, whose cwnd stage the figures take.
using analysis::pipeline::CapturePipeline;

enum class Paper { A4, Letter };
std::optional<Paper> paperFromName(const QString& name); // "a4", "letter"

struct ReportOptions
{
    QString title;                  // empty: "Windscope report: FILE"
    // Connections to draw (indices in TcpAnalysis::connections); empty: the one
    // mostAffected() picks.
    QList<int> connections;
    QList<PlotKind> plots;          // empty: the whole stack
    ExportPreset preset;            // of the figures; a PDF lays them out at its text width
    bool figures = true;            // false: tables only
    // For each drawn connection, a second figure zoomed to the event that hurt it most.
    bool eventFigures = true;
    Paper paper = Paper::A4;
};

// The default: double-column figures in colour for the screen-read HTML / PDF.
ExportPreset defaultReportPreset();

enum class ReportFormat { Html, Pdf };
// From the suffix (.html, .htm, .pdf); nullopt otherwise.
std::optional<ReportFormat> reportFormatFor(const QString& path);

struct ReportFigure
{
    QImage image;
    QString caption;
};

// The figures options asks for, in order, widthMm wide (0: the preset's width).
QList<ReportFigure> reportFigures(const CapturePipeline& capture, const ReportOptions& options, double widthMm = 0);

// The report's HTML; figure i's <img> source is imageSource(i). With textWidthMm > 0 it is
// laid out for pages of that text width and height: wide tables are split into column
// groups that fit (so no header breaks inside a word), each figure on its own page.
QString reportHtml(const CapturePipeline& capture, const ReportOptions& options, const QList<ReportFigure>& figures,
                   const std::function<QString(int)>& imageSource, double textWidthMm = 0, double pageHeightMm = 0);

// Writes the report (format from the suffix). Returns false with error set.
bool writeReport(const CapturePipeline& capture, const ReportOptions& options, const QString& path, QString* error);

} // namespace windscope::render
