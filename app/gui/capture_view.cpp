// SPDX-License-Identifier: GPL-3.0-or-later
#include "capture_view.h"

#include "connection_filter_bar.h"
#include "correlation_panel.h"
#include "dissectors/dissector_set.h"
#include "model/capture_loader.h"
#include "model/connection_filter_model.h"
#include "model/connection_table_model.h"
#include "model/correlation_table_model.h"
#include "model/cwnd_series_task.h"
#include "project/project_capture_source.h"
#include "model/event_table_model.h"
#include "model/inventory_table_model.h"
#include "model/packet_table_model.h"
#include "plots/plot_panel.h"
#include "plots/plot_stack.h"
#include "plots/time_axis.h"
#include "wireshark/packet_detail_pane.h"
#include "wireshark/wireshark_launcher.h"

#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QSplitter>
#include <QStackedWidget>
#include <QTabWidget>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>

namespace windscope::gui {

namespace {

QTableView* makeTable(QAbstractItemModel* model, QWidget* parent)
{
    auto* view = new QTableView(parent);
    view->setModel(model);
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setSelectionMode(QAbstractItemView::SingleSelection);
    view->setAlternatingRowColors(true);
    view->verticalHeader()->hide();
    view->verticalHeader()->setDefaultSectionSize(view->fontMetrics().height() + 6);
    view->horizontalHeader()->setHighlightSections(false);
    view->horizontalHeader()->setStretchLastSection(true);
    view->setWordWrap(false);
    return view;
}

} // namespace

CaptureView::CaptureView(const QString& path, QWidget* parent)
    : QWidget(parent),
      m_path(path),
      m_connectionModel(new ConnectionTableModel(this)),
      m_connectionFilter(new ConnectionFilterModel(this)),
      m_eventModel(new EventTableModel(this)),
      m_eventProxy(new QSortFilterProxyModel(this)),
      m_apModel(new InventoryTableModel(InventoryTableModel::Kind::AccessPoints, this)),
      m_stationModel(new InventoryTableModel(InventoryTableModel::Kind::Stations, this)),
      m_packetModel(new PacketTableModel(this))
{
    m_connectionFilter->setSourceModel(m_connectionModel);
    m_eventProxy->setSourceModel(m_eventModel);
    m_eventProxy->setSortRole(EventTableModel::kSortRole);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_pages = new QStackedWidget(this);
    layout->addWidget(m_pages);

    auto* loading = new QWidget(m_pages);
    auto* l = new QVBoxLayout(loading);
    l->addStretch();
    m_status = new QLabel(tr("Opening %1").arg(QFileInfo(path).fileName()), loading);
    m_status->setAlignment(Qt::AlignCenter);
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_progress = new QProgressBar(loading);
    m_progress->setRange(0, 100);
    m_progress->setMaximumWidth(480);
    m_cancel = new QPushButton(tr("Cancel"), loading);
    connect(m_cancel, &QPushButton::clicked, this, &CaptureView::cancelLoad);
    l->addWidget(m_status);
    auto* row = new QHBoxLayout;
    row->addStretch();
    row->addWidget(m_progress, 1);
    row->addWidget(m_cancel);
    row->addStretch();
    l->addLayout(row);
    // Shown for a project capture whose file changed or moved.
    auto* staleRow = new QHBoxLayout;
    m_useCache = new QPushButton(tr("Show the cached results"), loading);
    m_reanalyse = new QPushButton(tr("Analyse the file again"), loading);
    m_useCache->hide();
    m_reanalyse->hide();
    connect(m_useCache, &QPushButton::clicked, this, [this] {
        setProjectSource(m_projectPath, m_captureId, true);
        load();
    });
    connect(m_reanalyse, &QPushButton::clicked, this, [this] {
        clearProjectSource();
        load();
    });
    staleRow->addStretch();
    staleRow->addWidget(m_useCache);
    staleRow->addWidget(m_reanalyse);
    staleRow->addStretch();
    l->addLayout(staleRow);
    l->addStretch();
    m_pages->addWidget(loading);
    m_pages->addWidget(buildContent());
}

CaptureView::~CaptureView() = default;

QWidget* CaptureView::buildContent()
{
    auto* split = new QSplitter(Qt::Horizontal, m_pages);
    auto* left = new QSplitter(Qt::Vertical, split);
    m_summary = new QLabel(left);
    m_summary->setWordWrap(true);
    m_summary->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_summary->setMargin(6);
    m_tabs = new QTabWidget(left);

    auto* connections = new QWidget(m_tabs);
    auto* cl = new QVBoxLayout(connections);
    cl->setContentsMargins(2, 2, 2, 2);
    m_filterBar = new ConnectionFilterBar(m_connectionFilter, connections);
    cl->addWidget(m_filterBar);
    m_connectionView = makeTable(m_connectionFilter, connections);
    m_connectionView->setSortingEnabled(true);
    m_connectionView->sortByColumn(ConnectionTableModel::Id, Qt::AscendingOrder);
    cl->addWidget(m_connectionView);
    connect(m_connectionView->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) {
                if (m_selecting || !current.isValid())
                    return;
                selectConnection(current.data(ConnectionTableModel::kConnectionRole).toInt());
            });
    m_tabs->addTab(connections, tr("Connections"));

    m_eventView = makeTable(m_eventProxy, m_tabs);
    m_eventView->setSortingEnabled(true);
    m_eventView->sortByColumn(EventTableModel::Id, Qt::AscendingOrder);
    connect(m_eventView, &QTableView::clicked, this, &CaptureView::onEventActivated);
    connect(m_eventView, &QTableView::activated, this, &CaptureView::onEventActivated);
    m_tabs->addTab(m_eventView, tr("802.11 events"));
    m_correlation = new CorrelationPanel(m_tabs);
    connect(m_correlation, &CorrelationPanel::rowActivated, this, &CaptureView::showEventOnConnection);
    m_tabs->addTab(m_correlation, tr("Correlation"));
    // The packet list above the Wireshark dissection of the selected packet.
    auto* packets = new QSplitter(Qt::Vertical, m_tabs);
    m_packetView = makeTable(m_packetModel, packets);
    m_packetView->setToolTip(tr("The selected connection's segments in the plots' time range"));
    m_packetDetail = new PacketDetailPane(packets);
    packets->addWidget(m_packetView);
    packets->addWidget(m_packetDetail);
    packets->setStretchFactor(0, 3);
    packets->setStretchFactor(1, 2);
    connect(m_packetView->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) {
                m_packetDetail->showPacket(m_path, current.isValid()
                                                       ? current.data(PacketTableModel::kFrameRole).toULongLong()
                                                       : 0);
                emit packetSelectionChanged();
            });
    connect(m_tabs, &QTabWidget::currentChanged, this, &CaptureView::packetSelectionChanged);
    m_packetView->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_packetView, &QWidget::customContextMenuRequested, this, [this](const QPoint& pos) {
        const QModelIndex index = m_packetView->indexAt(pos);
        showWiresharkMenu(pos, index.isValid() ? index.data(PacketTableModel::kFrameRole).toULongLong() : 0,
                          m_packetView);
    });
    m_eventView->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_eventView, &QWidget::customContextMenuRequested, this, [this](const QPoint& pos) {
        const QModelIndex index = m_eventView->indexAt(pos);
        showWiresharkMenu(pos, index.isValid() ? eventFirstFrame(index.data(EventTableModel::kEventRole).toInt()) : 0,
                          m_eventView);
    });
    m_tabs->addTab(packets, tr("Packets in view"));
    m_tabs->addTab(makeTable(m_stationModel, m_tabs), tr("Stations"));
    m_tabs->addTab(makeTable(m_apModel, m_tabs), tr("Access points"));
    left->addWidget(m_summary);
    left->addWidget(m_tabs);
    left->setStretchFactor(0, 0);
    left->setStretchFactor(1, 1);

    m_plots = new PlotStack(split);
    // The packet list follows the plots' range once panning pauses, not on every step.
    m_packetRange = new QTimer(this);
    m_packetRange->setSingleShot(true);
    m_packetRange->setInterval(80);
    connect(m_packetRange, &QTimer::timeout, this, [this] {
        m_packetModel->setTimeRange(m_plots->timeAxis()->lower(), m_plots->timeAxis()->upper());
    });
    connect(m_plots->timeAxis(), &TimeAxis::rangeChanged, m_packetRange, qOverload<>(&QTimer::start));
    split->addWidget(left);
    split->addWidget(m_plots);
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 3);
    split->setSizes({560, 900});
    return split;
}

void CaptureView::setProjectSource(const QString& projectPath, qint64 captureId, bool acceptStale)
{
    m_projectPath = projectPath;
    m_captureId = captureId;
    m_acceptStale = acceptStale;
}

void CaptureView::clearProjectSource()
{
    m_projectPath.clear();
    m_acceptStale = false;
}

bool CaptureView::isLoading() const { return m_loader && m_loader->isRunning(); }

void CaptureView::load()
{
    if (m_loader)
        return;
    m_error.clear();
    m_loader = new CaptureLoader(m_path, this);
    if (!m_projectPath.isEmpty())
        m_loader->setCachedSource(
            std::make_unique<ProjectCaptureSource>(m_projectPath, m_captureId, m_path, m_acceptStale));
    m_useCache->hide();
    m_reanalyse->hide();
    m_progress->show();
    m_cancel->show();
    m_cancel->setEnabled(true);
    connect(m_loader, &CaptureLoader::progress, this, [this](int percent, const QString& stage) {
        m_progress->setValue(percent);
        m_status->setText(tr("%1\n%2…").arg(QFileInfo(m_path).fileName(), stage));
    });
    connect(m_loader, &CaptureLoader::overviewLoaded, this, &CaptureView::onOverview);
    connect(m_loader, &CaptureLoader::finished, this, &CaptureView::onLoaded);
    connect(m_loader, &CaptureLoader::failed, this, [this](const QString& message) {
        const QString stale = m_loader->staleStatus();
        if (!stale.isEmpty() && stale != QLatin1String("ok")) {
            m_projectStatus = stale;
            m_status->setText(message);
            m_progress->hide();
            m_cancel->hide();
            m_useCache->setVisible(stale != QLatin1String("uncached"));
            m_reanalyse->setVisible(stale != QLatin1String("moved"));
            m_loader->deleteLater();
            m_loader = nullptr;
            emit projectCaptureStale(stale, message);
            return;
        }
        m_error = message;
        m_status->setText(tr("Could not open the capture:\n%1").arg(message));
        m_progress->hide();
        m_cancel->hide();
        m_loader->deleteLater();
        m_loader = nullptr;
        emit loadFailed(message);
    });
    connect(m_loader, &CaptureLoader::cancelled, this, [this] {
        m_status->setText(tr("Opening %1 was cancelled.").arg(QFileInfo(m_path).fileName()));
        m_progress->hide();
        m_cancel->hide();
        m_loader->deleteLater();
        m_loader = nullptr;
        emit loadCancelled();
    });
    m_pages->setCurrentIndex(0);
    m_loader->start();
}

void CaptureView::cancelLoad()
{
    if (m_loader) {
        m_cancel->setEnabled(false);
        m_loader->cancel();
    }
}

void CaptureView::onOverview(std::shared_ptr<const CaptureAnalysis> overview)
{
    if (!m_loader)
        return;
    showTables(overview);
    m_overviewShown = true;
    m_plots->setBusy(tr("loading the packet columns from the project…"));
    emit overviewShown();
}

void CaptureView::onLoaded(std::shared_ptr<const CaptureAnalysis> capture)
{
    m_capture = std::move(capture);
    m_fromCache = m_loader->fromCache();
    m_projectStatus = m_loader->staleStatus();
    m_loader->deleteLater();
    m_loader = nullptr;
    showTables(m_capture);
    if (m_overviewShown)
        m_plots->setBusy({});
    m_overviewShown = true;
    emit loaded();
}

// Everything but the plots and the packet list, which need the per-frame columns.
void CaptureView::showTables(const std::shared_ptr<const CaptureAnalysis>& capture)
{
    m_connectionModel->setCapture(capture);
    m_eventModel->setCapture(capture);
    m_apModel->setCapture(capture);
    m_stationModel->setCapture(capture);
    for (QTableView* v : {m_connectionView, m_eventView})
        v->resizeColumnsToContents();
    m_summary->setText(summaryHtml(*capture));
    m_correlation->setCapture(capture);
    m_tabs->setTabText(m_tabs->indexOf(m_correlation),
                       tr("Correlation (%1)").arg(m_correlation->model()->rowCount()));
    // The tab is named by what its events are: a wired capture's are outages the TCP
    // analysis inferred, not 802.11 events.
    const bool anyWlanEvent = std::any_of(capture->events.events.begin(), capture->events.events.end(),
                                          [](const analysis::WlanEvent& e) {
                                              return e.kind != analysis::WlanEventKind::OutageInferred;
                                          });
    m_tabs->setTabText(1, (anyWlanEvent || capture->events.events.empty() ? tr("802.11 events (%1)")
                                                                          : tr("Inferred outages (%1)"))
                              .arg(capture->events.size()));
    m_tabs->setTabText(0, tr("Connections (%1)").arg(capture->tcp.connections.size()));
    m_pages->setCurrentIndex(1);
}

QString CaptureView::summaryHtml(const CaptureAnalysis& c) const
{
    const dissect::CaptureSummary& s = c.tables.summary;
    QStringList links;
    for (int type : s.linkTypes)
        links << QString::fromStdString(dissect::linkTypeName(type));
    const double duration = static_cast<double>(s.lastEpochNs - s.firstEpochNs) / 1e9;
    QString html = tr("<b>%1</b><br>%2 packets over %3 s (%4); %5 802.11 frames, %6 TCP segments<br>"
                      "%7 TCP connections, %8 access point(s), %9 station(s), %10 802.11 event(s)")
                       .arg(QFileInfo(m_path).fileName().toHtmlEscaped())
                       .arg(s.packets)
                       .arg(duration, 0, 'f', 3)
                       .arg(links.join(QStringLiteral(", ")).toHtmlEscaped())
                       .arg(s.wlanFrames)
                       .arg(s.tcpSegments)
                       .arg(c.tcp.connections.size())
                       .arg(c.inventory.accessPoints.size())
                       .arg(c.inventory.stations.size())
                       .arg(c.events.size());
    if (s.malformedPackets)
        html += tr("<br>%1 malformed packet(s)").arg(s.malformedPackets);
    for (const std::string& w : s.warnings)
        html += QStringLiteral("<br><span style='color:#b00'>%1</span>").arg(QString::fromStdString(w).toHtmlEscaped());
    return html;
}

void CaptureView::selectConnection(int connection)
{
    if (!m_capture || connection < 0 || static_cast<std::size_t>(connection) >= m_capture->tcp.connections.size())
        return;
    if (connection != m_connection) {
        m_connection = connection;
        // Everything but the cwnd now; its inference can take seconds on a long
        // connection, so it runs on a worker and the window plot fills in after.
        auto series = connectionSeries(*m_capture, static_cast<std::size_t>(connection), -1, false);
        m_packetModel->setConnection(m_capture, series);
        m_plots->setSeries(series,
                           tr("Connection %1: %2").arg(connection).arg(connectionText(*m_capture, static_cast<std::size_t>(connection))));
        m_packetRange->start();
        m_seriesComplete = false;
        m_plots->setBusy(tr("inferring the congestion window…"));
        auto* task = new CwndSeriesTask(m_capture, series, this);
        connect(task, &CwndSeriesTask::finished, this,
                [this, connection](std::shared_ptr<const analysis::ConnectionSeries> complete) {
                    if (connection != m_connection)
                        return; // the user moved on; that connection's own task will report
                    m_plots->updateSeries(std::move(complete));
                    m_plots->setBusy({});
                    m_seriesComplete = true;
                    emit seriesCompleted(connection);
                });
        task->start();
    }
    // Keep the table's current row in step when the selection came from elsewhere.
    const QModelIndex source = m_connectionModel->index(connection, 0);
    const QModelIndex proxy = m_connectionFilter->mapFromSource(source);
    if (proxy.isValid() && m_connectionView->currentIndex().row() != proxy.row()) {
        m_selecting = true;
        m_connectionView->setCurrentIndex(proxy);
        m_connectionView->scrollTo(proxy);
        m_selecting = false;
    }
}

void CaptureView::selectEvent(int event)
{
    if (!m_capture || event < 0 || static_cast<std::size_t>(event) >= m_capture->events.size())
        return;
    m_event = event;
    const analysis::WlanEvent& e = m_capture->events.at(static_cast<std::size_t>(event));
    // Show the event on a connection it touched, the one that suffered most, unless the
    // selected connection is one of them.
    const int connection = connectionForEvent(*m_capture, static_cast<std::size_t>(event), m_connection);
    if (connection >= 0 && connection != m_connection)
        selectConnection(connection);
    for (PlotPanel* p : m_plots->panels())
        p->setHighlightedEvent(static_cast<long long>(e.id));
    m_plots->timeAxis()->showInterval(static_cast<double>(e.startNs) / 1e9, static_cast<double>(e.endNs) / 1e9);
    const QModelIndex proxy = m_eventProxy->mapFromSource(m_eventModel->index(event, 0));
    if (proxy.isValid() && m_eventView->currentIndex().row() != proxy.row()) {
        m_eventView->setCurrentIndex(proxy);
        m_eventView->scrollTo(proxy);
    }
    emit packetSelectionChanged();
}

void CaptureView::showEventOnConnection(int event, int connection)
{
    // selectEvent keeps the selected connection when the event touched it.
    selectConnection(connection);
    selectEvent(event);
}

void CaptureView::onEventActivated(const QModelIndex& proxyIndex)
{
    if (proxyIndex.isValid())
        selectEvent(proxyIndex.data(EventTableModel::kEventRole).toInt());
}

void CaptureView::stepEvent(int delta)
{
    const int rows = m_eventProxy->rowCount();
    if (!rows)
        return;
    int row = m_eventView->currentIndex().isValid() ? m_eventView->currentIndex().row() + delta : 0;
    row = std::clamp(row, 0, rows - 1);
    selectEvent(m_eventProxy->index(row, 0).data(EventTableModel::kEventRole).toInt());
}

void CaptureView::nextEvent() { stepEvent(1); }
void CaptureView::previousEvent() { stepEvent(-1); }

void CaptureView::applySelection(const Selection& selection)
{
    if (selection.connection >= 0)
        selectConnection(selection.connection);
    if (selection.event >= 0) {
        m_tabs->setCurrentIndex(1);
        selectEvent(selection.event);
    }
}

void CaptureView::selectPacketRow(int row)
{
    const QModelIndex index = m_packetModel->index(row, 0);
    if (!index.isValid())
        return;
    m_tabs->setCurrentWidget(m_packetView->parentWidget());
    m_packetView->setCurrentIndex(index);
    m_packetView->scrollTo(index);
}

bool CaptureView::selectPacketFrame(quint64 frame)
{
    // The list follows the plots' range after a short delay: bring it up to date first.
    m_packetModel->setTimeRange(m_plots->timeAxis()->lower(), m_plots->timeAxis()->upper());
    for (int row = 0; row < m_packetModel->rowCount(); ++row)
        if (m_packetModel->index(row, 0).data(PacketTableModel::kFrameRole).toULongLong() == frame) {
            selectPacketRow(row);
            return true;
        }
    return false;
}

quint64 CaptureView::eventFirstFrame(int event) const
{
    if (!m_capture || event < 0 || static_cast<std::size_t>(event) >= m_capture->events.size())
        return 0;
    const analysis::WlanEvent& e = m_capture->events.at(static_cast<std::size_t>(event));
    if (!e.evidenceFrames.empty())
        return e.evidenceFrames.front();
    const auto& times = m_capture->tables.wlan.timeNs;
    const auto it = std::lower_bound(times.begin(), times.end(), e.startNs);
    return it == times.end() ? 0 : m_capture->tables.wlan.frame[static_cast<std::size_t>(it - times.begin())];
}

quint64 CaptureView::wiresharkFrame() const
{
    if (!m_capture)
        return 0;
    if (m_tabs->currentWidget() == m_eventView)
        return m_eventView->currentIndex().isValid()
                   ? eventFirstFrame(m_eventView->currentIndex().data(EventTableModel::kEventRole).toInt())
                   : 0;
    const QModelIndex packet = m_packetView->currentIndex();
    return packet.isValid() ? packet.data(PacketTableModel::kFrameRole).toULongLong() : 0;
}

void CaptureView::showWiresharkMenu(const QPoint& pos, quint64 frame, QTableView* table)
{
    QMenu menu(this);
    menu.setToolTipsVisible(true);
    QAction* open = menu.addAction(tr("Open in &Wireshark at this packet"));
    updateWiresharkAction(open, m_path, frame);
    if (frame)
        open->setText(tr("Open in &Wireshark at frame %1").arg(frame));
    if (menu.exec(table->viewport()->mapToGlobal(pos)) != open)
        return;
    QString error;
    if (!openInWireshark(m_path, frame, &error))
        QMessageBox::warning(this, tr("Open in Wireshark"), error);
}

} // namespace windscope::gui
