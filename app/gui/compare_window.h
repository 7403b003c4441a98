// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Two connections compared: from two captures, two of one capture, or a capture and a
// replay run of it. A table of their differences (completion time, throughput,
// retransmissions, timeouts, time in each sender phase of the cwnd inference...), and
// their plots either overlaid (delivered data, goodput, cwnd) or side by side (each
// one's whole plot stack), on synchronized time axes, aligned at their starts or at a
// chosen 802.11 event.

#include "model/capture_analysis.h"
#include "render/figure_style.h"

#include <QWidget>

#include <memory>
#include <optional>

class QComboBox;
class QLabel;
class QStackedWidget;
class QTableWidget;

namespace windscope::gui {

class ComparePlot;
class PlotStack;
class TimeAxis;

struct CompareSide
{
    std::shared_ptr<const CaptureAnalysis> capture;
    int connection = 0;
    QString name;
    // A replay run of the other side's connection: its time 0 is the capture's first data
    // segment, so an event of the capture is found at the same time after it.
    bool replay = false;
};

class CompareWindow : public QWidget
{
    Q_OBJECT
public:
    enum class View { Overlaid, SideBySide };

    CompareWindow(CompareSide a, CompareSide b, QWidget* parent = nullptr);
    CompareWindow(std::shared_ptr<const CaptureAnalysis> a, int connectionA, const QString& nameA,
                  std::shared_ptr<const CaptureAnalysis> b, int connectionB, const QString& nameB,
                  QWidget* parent = nullptr);

    QTableWidget* table() const { return m_table; }
    const std::vector<analysis::ComparisonRow>& rows() const { return m_rows; }
    // The overlaid plots and their axis.
    QList<ComparePlot*> plots() const { return m_plots; }
    TimeAxis* timeAxis() const { return m_axis; }
    // The side-by-side stacks; their axes follow each other.
    PlotStack* stackA() const { return m_stackA; }
    PlotStack* stackB() const { return m_stackB; }
    const analysis::ConnectionSeries& seriesA() const { return *m_seriesA; }
    const analysis::ConnectionSeries& seriesB() const { return *m_seriesB; }

    void setView(View view);
    View view() const;
    void alignAtStart();
    // Aligns at the start of event eventA of side A (index in its WlanEvents::events);
    // side B at its event eventB when it is a capture, at the same time after the first
    // data segment when it is a replay run. False (and unchanged) for a bad index.
    bool alignAtEvent(int eventA, int eventB = -1);
    // The time of each side drawn at 0: what was subtracted from its capture times.
    double offsetA() const { return m_offsetA; }
    double offsetB() const { return m_offsetB; }
    // A replay's baseline beside the fixed run (side B): a third line in the overlaid
    // plots, and table columns for it, for the model's error (baseline - A) and the
    // fix's effect (B - baseline). It is a replay run of A's connection.
    void setReference(CompareSide baseline);
    bool hasReference() const { return m_ref.has_value(); }
    // A against the reference, as rows() is A against B.
    const std::vector<analysis::ComparisonRow>& referenceRows() const { return m_refRows; }
    // A line above the table (a replay's calibration warning).
    void setNote(const QString& text);
    QLabel* noteLabel() const { return m_note; }
    // The overlaid plots as a figure (render::ComparisonFigure: A, B and the reference
    // with their names and alignment) and the table as CSV (analysis::writeComparisonCsv,
    // as windscope-cli compare --csv); the format of the figure follows the suffix.
    bool exportFigure(const QString& path, const render::ExportPreset& preset, QString* error) const;
    bool exportTable(const QString& path, QString* error) const;

private:
    void chooseFigureExport();
    void chooseTableExport();
    void fillTable();
    void applyAlignment();
    void onAlignChosen();

    CompareSide m_a, m_b;
    std::optional<CompareSide> m_ref;
    std::shared_ptr<const analysis::ConnectionSeries> m_seriesA, m_seriesB, m_seriesRef;
    std::vector<analysis::ComparisonRow> m_rows, m_refRows;
    double m_offsetA = 0, m_offsetB = 0, m_offsetRef = 0;
    bool m_syncing = false;
    bool m_atEvent = false;
    TimeAxis* m_axis;
    QLabel* m_note;
    QComboBox* m_viewChoice;
    QComboBox* m_alignA;
    QComboBox* m_alignB;
    QTableWidget* m_table;
    QStackedWidget* m_views;
    QList<ComparePlot*> m_plots;
    PlotStack* m_stackA;
    PlotStack* m_stackB;
};

} // namespace windscope::gui
