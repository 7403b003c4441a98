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
class PacketDetailPane;
class PacketTableModel;
class PlotStack;

class CaptureView : public QWidget
{
    Q_OBJECT
public:
    explicit CaptureView(const QString& path, QWidget* parent = nullptr);
    ~CaptureView() override;

    // Makes load() read the capture's cached results from a project (the fast path)
    // rather than analyse the file; acceptStale loads them even when the file changed
    // or moved since.
    void setProjectSource(const QString& projectPath, qint64 captureId, bool acceptStale = false);
    // Forgets the project source: load() analyses the file.
    void clearProjectSource();
    qint64 projectCaptureId() const { return m_captureId; }
    bool loadedFromCache() const { return m_fromCache; }
    // The file's state against the project: "ok", "changed", "moved"; "" when the
    // capture was not loaded from a project.
    QString projectStatus() const { return m_projectStatus; }

    void load();
    void cancelLoad();
    bool isLoaded() const { return m_capture != nullptr; }
    // A project capture shows its tables before the plots' columns are loaded; true
    // from then on (and for a loaded capture).
    bool isOverviewShown() const { return m_overviewShown; }
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
    PacketDetailPane* packetDetailPane() const { return m_packetDetail; }
    // Selects row (of the packet list as shown) and shows its dissection.
    void selectPacketRow(int row);
    // Selects the packet with that frame number when the packet list holds it (the
    // selected connection's segments in the plots' range); false otherwise.
    bool selectPacketFrame(quint64 frame);
    // The packet "Open in Wireshark" goes to: the selected packet when the packet list
    // is shown, the first frame of the selected 802.11 event when the event table is;
    // 0 for none.
    quint64 wiresharkFrame() const;
    // The first frame of an 802.11 event: its first evidence frame, else the first
    // 802.11 frame at or after its start; 0 for none.
    quint64 eventFirstFrame(int event) const;
    ConnectionFilterBar* filterBar() const { return m_filterBar; }
    CorrelationPanel* correlationPanel() const { return m_correlation; }

signals:
    // Project captures: the tables show, the plots' columns are still loading.
    void overviewShown();
    void loaded();
    void loadFailed(const QString& message);
    void loadCancelled();
    // A project capture whose file changed or moved: the page says so and offers the
    // cached results or a new analysis, instead of loading either silently.
    void projectCaptureStale(const QString& status, const QString& message);
    // The selected packet or event changed (what wiresharkFrame() returns).
    void packetSelectionChanged();
    // The selected connection's series is complete, its cwnd included.
    void seriesCompleted(int connection);

private:
    void onOverview(std::shared_ptr<const CaptureAnalysis> overview);
    void onLoaded(std::shared_ptr<const CaptureAnalysis> capture);
    void showTables(const std::shared_ptr<const CaptureAnalysis>& capture);
    void onEventActivated(const QModelIndex& proxyIndex);
    void stepEvent(int delta);
    QWidget* buildContent();
    QString summaryHtml(const CaptureAnalysis& capture) const;
    void showWiresharkMenu(const QPoint& pos, quint64 frame, QTableView* table);

    QString m_path;
    QString m_error;
    std::shared_ptr<const CaptureAnalysis> m_capture;
    CaptureLoader* m_loader = nullptr;
    int m_connection = -1;
    int m_event = -1;
    bool m_selecting = false;
    bool m_seriesComplete = false;
    bool m_overviewShown = false;

    QStackedWidget* m_pages;
    QLabel* m_status;
    QProgressBar* m_progress;
    QPushButton* m_cancel;
    QPushButton* m_useCache = nullptr;
    QPushButton* m_reanalyse = nullptr;
    QString m_projectPath;
    qint64 m_captureId = 0;
    bool m_acceptStale = false;
    bool m_fromCache = false;
    QString m_projectStatus;
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
    PacketDetailPane* m_packetDetail = nullptr;
    QTimer* m_packetRange = nullptr;
    PlotStack* m_plots = nullptr;
};

} // namespace windscope::gui
