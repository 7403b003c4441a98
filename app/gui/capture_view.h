// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// One open capture: progress while it loads, then its summary, connection table,
// event table, stations and access points beside the plot stack of the selected
// connection. Selecting an event zooms every plot to it.

#include "model/capture_analysis.h"

#include <QWidget>

#include <memory>

class QLabel;
class QProgressBar;
class QPushButton;
class QSortFilterProxyModel;
class QStackedWidget;
class QTableView;
class QTabWidget;
class QTimer;

namespace windscope::gui {

class CaptureLoader;
class ConnectionFilterBar;
class ConnectionFilterModel;
class CorrelationPanel;
class ConnectionTableModel;
class EventTableModel;
class InventoryTableModel;
class PacketTableModel;
class PlotStack;

class CaptureView : public QWidget
{
    Q_OBJECT
public:
    explicit CaptureView(const QString& path, QWidget* parent = nullptr);
    ~CaptureView() override;

    void load();
    void cancelLoad();
    bool isLoaded() const { return m_capture != nullptr; }
    bool isLoading() const;
    QString path() const { return m_path; }
    QString errorText() const { return m_error; }
    std::shared_ptr<const CaptureAnalysis> capture() const { return m_capture; }

    // By index in TcpAnalysis::connections / WlanEvents::events.
    void selectConnection(int connection);
    int selectedConnection() const { return m_connection; }
    // False while the selected connection's congestion window is being inferred (off
    // the GUI thread; the other plots show meanwhile).
    bool isSeriesComplete() const { return m_seriesComplete; }
    void selectEvent(int event);
    int selectedEvent() const { return m_event; }
    void nextEvent();
    void previousEvent();
    void applySelection(const Selection& selection);
    // A row of the correlation table: selects the connection, zooms every plot to the event.
    void showEventOnConnection(int event, int connection);

    PlotStack* plotStack() const { return m_plots; }
    QTableView* connectionView() const { return m_connectionView; }
    QTableView* eventView() const { return m_eventView; }
    ConnectionTableModel* connectionModel() const { return m_connectionModel; }
    ConnectionFilterModel* connectionFilter() const { return m_connectionFilter; }
    EventTableModel* eventModel() const { return m_eventModel; }
    QSortFilterProxyModel* eventProxy() const { return m_eventProxy; }
    InventoryTableModel* accessPointModel() const { return m_apModel; }
    InventoryTableModel* stationModel() const { return m_stationModel; }
    PacketTableModel* packetModel() const { return m_packetModel; }
    QTableView* packetView() const { return m_packetView; }
    ConnectionFilterBar* filterBar() const { return m_filterBar; }
    CorrelationPanel* correlationPanel() const { return m_correlation; }

signals:
    void loaded();
    void loadFailed(const QString& message);
    void loadCancelled();
    // The selected connection's series is complete, its cwnd included.
    void seriesCompleted(int connection);

private:
    void onLoaded(std::shared_ptr<const CaptureAnalysis> capture);
    void onEventActivated(const QModelIndex& proxyIndex);
    void stepEvent(int delta);
    QWidget* buildContent();
    QString summaryHtml() const;

    QString m_path;
    QString m_error;
    std::shared_ptr<const CaptureAnalysis> m_capture;
    CaptureLoader* m_loader = nullptr;
    int m_connection = -1;
    int m_event = -1;
    bool m_selecting = false;
    bool m_seriesComplete = false;

    QStackedWidget* m_pages;
    QLabel* m_status;
    QProgressBar* m_progress;
    QPushButton* m_cancel;
    QLabel* m_summary = nullptr;
    QTabWidget* m_tabs = nullptr;
    ConnectionFilterBar* m_filterBar = nullptr;
    CorrelationPanel* m_correlation = nullptr;
    QTableView* m_connectionView = nullptr;
    QTableView* m_eventView = nullptr;
    ConnectionTableModel* m_connectionModel;
    ConnectionFilterModel* m_connectionFilter;
    EventTableModel* m_eventModel;
    QSortFilterProxyModel* m_eventProxy;
    InventoryTableModel* m_apModel;
    InventoryTableModel* m_stationModel;
    PacketTableModel* m_packetModel;
    QTableView* m_packetView = nullptr;
    QTimer* m_packetRange = nullptr;
    PlotStack* m_plots = nullptr;
};

} // namespace windscope::gui
