// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The Fleet tab: what Wi-Fi events cost TCP over every capture of a project
// (ProjectStore::loadFleet, analysis::groupFleet: the numbers of `windscope-cli fleet`),
// grouped by station, access point, SSID, capture or day, sortable by any column. Two
// plots: stalled time per event kind over the archive, and per day by kind (a change
// shows as a step). A double click opens the group's worst capture at its worst event.

#include "analysis/wlan/fleet_summary.h"

#include <QWidget>

#include <string>
#include <vector>

class QComboBox;
class QCustomPlot;
class QLabel;
class QSortFilterProxyModel;
class QTableView;

namespace windscope::gui {

class FleetTableModel;

class FleetView : public QWidget
{
    Q_OBJECT
public:
    explicit FleetView(QWidget* parent = nullptr);

    // Reads the project's fleet summaries; false with error (the file named) when the
    // project cannot be read.
    bool load(const QString& projectPath, QString* error);
    void setGrouping(analysis::FleetGrouping by);
    QString projectPath() const { return m_project; }
    QString statusText() const;

    QTableView* table() const { return m_table; }
    FleetTableModel* model() const { return m_model; }
    QCustomPlot* kindPlot() const { return m_kindPlot; }
    QCustomPlot* dayPlot() const { return m_dayPlot; }
    // Opens the worst event of the group shown at a row of the (sorted) table.
    void openRow(int viewRow);
    // The table as `windscope-cli fleet --csv --by` the current grouping writes it.
    bool exportTable(const QString& path, QString* error);
    // Both plots side by side, at the screen preset's size (PNG, PDF or SVG by suffix).
    bool exportPlots(const QString& path, QString* error);

signals:
    // The worst event of a group: its capture (path, and id in the project) and event.
    void openEventRequested(const QString& capturePath, const QString& projectPath, qint64 captureId, int event);

private:
    void regroup();
    analysis::FleetGrouping grouping() const;
    void plotKinds();
    void plotDays();

    QString m_project;
    std::vector<analysis::FleetCapture> m_captures;
    std::size_t m_stale = 0, m_failed = 0;
    std::vector<std::string> m_damaged;
    QComboBox* m_grouping;
    QLabel* m_status;
    FleetTableModel* m_model;
    QSortFilterProxyModel* m_proxy;
    QTableView* m_table;
    QCustomPlot* m_kindPlot;
    QCustomPlot* m_dayPlot;
};

} // namespace windscope::gui
