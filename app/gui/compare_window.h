// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Two connections side by side (from two captures, or two of one capture): a table of
// their differences and their delivery and goodput overlaid, aligned at their starts,
// on one shared time axis.

#include "model/capture_analysis.h"

#include <QWidget>

#include <memory>

class QTableWidget;

namespace windscope::gui {

class ComparePlot;
class TimeAxis;

class CompareWindow : public QWidget
{
    Q_OBJECT
public:
    CompareWindow(std::shared_ptr<const CaptureAnalysis> a, int connectionA, const QString& nameA,
                  std::shared_ptr<const CaptureAnalysis> b, int connectionB, const QString& nameB,
                  QWidget* parent = nullptr);

    QTableWidget* table() const { return m_table; }
    QList<ComparePlot*> plots() const { return m_plots; }
    TimeAxis* timeAxis() const { return m_axis; }
    const std::vector<analysis::ComparisonRow>& rows() const { return m_rows; }

private:
    std::shared_ptr<const CaptureAnalysis> m_a, m_b;
    std::vector<analysis::ComparisonRow> m_rows;
    TimeAxis* m_axis;
    QTableWidget* m_table;
    QList<ComparePlot*> m_plots;
};

} // namespace windscope::gui
