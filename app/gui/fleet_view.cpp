// SPDX-License-Identifier: GPL-3.0-or-later
#include "fleet_view.h"

#include "model/fleet_table_model.h"
#include "plots/plot_export.h"
#include "analysis/report/report_fleet.h"
#include "analysis/store/project_store.h"

#include <qcustomplot.h>

#include <QComboBox>
#include <QFile>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

#include <map>
#include <sstream>

namespace windscope::gui {

namespace {

constexpr analysis::FleetGrouping kGroupings[] = {analysis::FleetGrouping::Station, analysis::FleetGrouping::Ap,
                                                  analysis::FleetGrouping::Ssid, analysis::FleetGrouping::Capture,
                                                  analysis::FleetGrouping::Day};

// One colour per event kind, told apart in bars side by side and stacked (the event
// bands' tints are too light for filled bars): Okabe-Ito's colour-blind safe set, then
// darker variants.
QColor kindColour(analysis::WlanEventKind kind)
{
    static const QColor palette[] = {
        QColor(0x00, 0x72, 0xb2), QColor(0xd5, 0x5e, 0x00), QColor(0x55, 0x55, 0x55), QColor(0xcc, 0x79, 0xa7),
        QColor(0x00, 0x9e, 0x73), QColor(0xe6, 0x9f, 0x00), QColor(0x56, 0xb4, 0xe9), QColor(0xf0, 0xe4, 0x42),
    };
    const auto i = static_cast<std::size_t>(kind);
    const QColor c = palette[i % std::size(palette)];
    return i < std::size(palette) ? c : c.darker(150);
}

void styleBars(QCPBars* bars, analysis::WlanEventKind kind)
{
    bars->setName(QString::fromLatin1(analysis::eventKindName(kind)));
    bars->setBrush(kindColour(kind));
    bars->setPen(QPen(kindColour(kind).darker(140)));
}

} // namespace

FleetView::FleetView(QWidget* parent)
    : QWidget(parent),
      m_grouping(new QComboBox(this)),
      m_status(new QLabel(this)),
      m_model(new FleetTableModel(this)),
      m_proxy(new QSortFilterProxyModel(this)),
      m_table(new QTableView(this)),
      m_kindPlot(new QCustomPlot(this)),
      m_dayPlot(new QCustomPlot(this))
{
    m_grouping->addItems({tr("Station"), tr("Access point"), tr("SSID"), tr("Capture"), tr("Day (UTC)")});
    m_grouping->setObjectName(QStringLiteral("fleetGrouping"));
    connect(m_grouping, &QComboBox::currentIndexChanged, this, [this] { regroup(); });
    auto* exportTableButton = new QPushButton(tr("Export table…"), this);
    auto* exportPlotsButton = new QPushButton(tr("Export plots…"), this);
    connect(exportTableButton, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Export the fleet table"), QString(),
                                                          tr("CSV (*.csv)"));
        QString error;
        if (!path.isEmpty() && !exportTable(path, &error))
            QMessageBox::warning(this, tr("Export table"), error);
    });
    connect(exportPlotsButton, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Export the fleet plots"), QString(),
                                                          tr("Figures (*.png *.pdf *.svg)"));
        QString error;
        if (!path.isEmpty() && !exportPlots(path, &error))
            QMessageBox::warning(this, tr("Export plots"), error);
    });
    auto* bar = new QHBoxLayout;
    bar->addWidget(new QLabel(tr("Group by"), this));
    bar->addWidget(m_grouping);
    bar->addSpacing(12);
    bar->addWidget(m_status, 1);
    bar->addWidget(exportTableButton);
    bar->addWidget(exportPlotsButton);

    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(FleetTableModel::kSortRole);
    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(FleetTableModel::Rank, Qt::AscendingOrder);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->verticalHeader()->hide();
    m_table->setWordWrap(false);
    m_table->horizontalHeader()->setStretchLastSection(false);
    m_table->setObjectName(QStringLiteral("fleetTable"));
    connect(m_table, &QTableView::doubleClicked, this, [this](const QModelIndex& index) { openRow(index.row()); });

    for (QCustomPlot* plot : {m_kindPlot, m_dayPlot}) {
        plot->setMinimumHeight(220);
        plot->legend->setVisible(true);
        plot->legend->setFont(QFont(font().family(), 8));
        plot->yAxis->setLabel(tr("stalled TCP (s)"));
    }
    m_kindPlot->plotLayout()->insertRow(0);
    m_kindPlot->plotLayout()->addElement(0, 0, new QCPTextElement(m_kindPlot, tr("Cost per event kind, whole archive"), QFont(font().family(), 9, QFont::Bold)));
    m_dayPlot->plotLayout()->insertRow(0);
    m_dayPlot->plotLayout()->addElement(0, 0, new QCPTextElement(m_dayPlot, tr("Cost per day (UTC), by event kind"), QFont(font().family(), 9, QFont::Bold)));
    m_kindPlot->legend->setVisible(false);
    // The day plot's legend in a column of its own, clear of the stacked bars.
    auto* legendColumn = new QCPLayoutGrid;
    m_dayPlot->plotLayout()->addElement(1, 1, legendColumn);
    m_dayPlot->plotLayout()->setColumnStretchFactor(1, 0.001);
    legendColumn->addElement(0, 0, m_dayPlot->legend);
    legendColumn->addElement(1, 0, new QCPLayoutElement(m_dayPlot));
    legendColumn->setRowStretchFactor(0, 0.001);
    legendColumn->setMargins(QMargins(0, 8, 8, 0));
    auto* plots = new QSplitter(Qt::Horizontal, this);
    plots->addWidget(m_kindPlot);
    plots->addWidget(m_dayPlot);
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_table);
    split->addWidget(plots);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addWidget(split, 1);
}

bool FleetView::load(const QString& projectPath, QString* error)
{
    std::string message;
    auto store = analysis::store::ProjectStore::open(projectPath.toStdString(), message);
    std::vector<analysis::FleetCapture> captures;
    std::vector<analysis::store::CaptureFailure> failures;
    std::size_t stale = 0;
    std::vector<std::string> damaged;
    if (!store || !store->loadFleet(captures, stale, damaged, message) || !store->listFailures(failures, message)) {
        if (error)
            *error = QString::fromStdString(message);
        return false;
    }
    m_project = projectPath;
    m_captures = std::move(captures);
    m_stale = stale;
    m_failed = failures.size();
    m_damaged = std::move(damaged);
    regroup();
    plotKinds();
    plotDays();
    return true;
}

void FleetView::setGrouping(analysis::FleetGrouping by)
{
    for (int i = 0; i < static_cast<int>(std::size(kGroupings)); ++i)
        if (kGroupings[i] == by)
            m_grouping->setCurrentIndex(i);
}

QString FleetView::statusText() const
{
    QString text = tr("%1 capture(s), %2 group(s), ranked by stalled time")
                       .arg(m_captures.size())
                       .arg(m_model->rowCount());
    if (m_stale)
        text += tr("; %1 analysed by an older version left out (add them again)").arg(m_stale);
    if (m_failed)
        text += tr("; %1 could not be analysed").arg(m_failed);
    if (!m_damaged.empty())
        text += tr("; %1 left out, their cached results damaged (add them again)").arg(m_damaged.size());
    return text;
}

analysis::FleetGrouping FleetView::grouping() const
{
    return kGroupings[std::max(0, m_grouping->currentIndex())];
}

bool FleetView::exportTable(const QString& path, QString* error)
{
    analysis::FleetReport report = analysis::buildFleetReport(m_project.toStdString(), m_captures, grouping());
    report.staleCaptures = m_stale;
    report.failedCaptures = m_failed;
    report.damagedCaptures = m_damaged;
    std::ostringstream csv;
    analysis::writeFleetCsv(csv, report);
    QFile file(path);
    const std::string text = csv.str();
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) ||
        file.write(text.data(), static_cast<qint64>(text.size())) != static_cast<qint64>(text.size())) {
        if (error)
            *error = tr("%1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

bool FleetView::exportPlots(const QString& path, QString* error)
{
    const int kindsWidth = std::max(m_kindPlot->width(), 400), daysWidth = std::max(m_dayPlot->width(), 500);
    const int height = std::max({m_kindPlot->height(), m_dayPlot->height(), 420});
    return writeFigure(
        path, kindsWidth + daysWidth, height, 150,
        [&](QCPPainter& painter, double) {
            m_kindPlot->toPainter(&painter, kindsWidth, height);
            painter.translate(kindsWidth, 0);
            m_dayPlot->toPainter(&painter, daysWidth, height);
        },
        error);
}

void FleetView::regroup()
{
    const analysis::FleetGrouping by = grouping();
    m_model->setRows(analysis::groupFleet(m_captures, by), by);
    m_table->resizeColumnsToContents();
    m_status->setText(statusText());
    QStringList damaged;
    for (const std::string& why : m_damaged)
        damaged << QString::fromStdString(why);
    m_status->setToolTip(damaged.join(QLatin1Char('\n')));
}

void FleetView::openRow(int viewRow)
{
    const QModelIndex source = m_proxy->mapToSource(m_proxy->index(viewRow, 0));
    if (!source.isValid())
        return;
    const analysis::FleetWorstEvent& w = m_model->row(source.row()).worst;
    if (w.stalledNs < 0)
        return;
    emit openEventRequested(QString::fromStdString(w.path), m_project, w.captureId, static_cast<int>(w.event));
}

void FleetView::plotKinds()
{
    m_kindPlot->clearPlottables();
    const analysis::FleetReport report = analysis::buildFleetReport({}, m_captures, analysis::FleetGrouping::Station);
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    double x = 0;
    for (const analysis::FleetKindCost& k : report.kinds) {
        auto* bars = new QCPBars(m_kindPlot->xAxis, m_kindPlot->yAxis);
        styleBars(bars, k.kind);
        bars->setWidth(0.7);
        bars->addData(x, static_cast<double>(k.stalledNs) / 1e9);
        ticker->addTick(x, QStringLiteral("%1\n%2 events").arg(QString::fromLatin1(analysis::eventKindName(k.kind))).arg(k.events));
        ++x;
    }
    m_kindPlot->xAxis->setTicker(ticker);
    m_kindPlot->xAxis->setTickLabelRotation(report.kinds.size() > 4 ? 30 : 0);
    m_kindPlot->xAxis->setRange(-0.6, std::max(1.0, x) - 0.4);
    m_kindPlot->rescaleAxes(true);
    m_kindPlot->xAxis->setRange(-0.6, std::max(1.0, x) - 0.4);
    m_kindPlot->yAxis->setRangeLower(0);
    m_kindPlot->yAxis->setRangeUpper(m_kindPlot->yAxis->range().upper * 1.1 + 1e-3);
    m_kindPlot->replot();
}

void FleetView::plotDays()
{
    m_dayPlot->clearPlottables();
    // Stalled seconds per (day, kind), days in order.
    std::map<std::string, std::vector<double>> byDay;
    for (const analysis::FleetCapture& c : m_captures) {
        std::vector<double>& kinds = byDay[analysis::utcDay(c.summary.firstEpochNs)];
        kinds.resize(analysis::kWlanEventKinds);
        for (const analysis::FleetCost& cost : c.summary.costs)
            kinds[static_cast<std::size_t>(cost.kind)] += static_cast<double>(cost.stalledNs) / 1e9;
    }
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    double x = 0;
    for (const auto& [day, kinds] : byDay)
        ticker->addTick(x++, QString::fromStdString(day));
    QCPBars* below = nullptr;
    for (std::size_t k = 0; k < analysis::kWlanEventKinds; ++k) {
        QVector<double> xs, ys;
        double i = 0;
        bool any = false;
        for (const auto& [day, kinds] : byDay) {
            xs << i++;
            ys << kinds[k];
            any = any || kinds[k] > 0;
        }
        if (!any)
            continue;
        auto* bars = new QCPBars(m_dayPlot->xAxis, m_dayPlot->yAxis);
        styleBars(bars, static_cast<analysis::WlanEventKind>(k));
        bars->setWidth(0.7);
        bars->setData(xs, ys, true);
        if (below)
            bars->moveAbove(below);
        below = bars;
    }
    m_dayPlot->xAxis->setTicker(ticker);
    m_dayPlot->xAxis->setTickLabelRotation(byDay.size() > 8 ? 60 : 0);
    m_dayPlot->rescaleAxes(true);
    m_dayPlot->xAxis->setRange(-0.6, std::max(1.0, x) - 0.4);
    m_dayPlot->yAxis->setRangeLower(0);
    m_dayPlot->yAxis->setRangeUpper(m_dayPlot->yAxis->range().upper * 1.1 + 1e-3);
    m_dayPlot->replot();
}

} // namespace windscope::gui
