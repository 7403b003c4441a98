// SPDX-License-Identifier: GPL-3.0-or-later
#include "compare_window.h"

#include "plots/compare_plot.h"
#include "plots/time_axis.h"

#include <QHeaderView>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace windscope::gui {

namespace {

QString valueText(double v, const std::string& unit)
{
    if (unit == "bit/s")
        return QStringLiteral("%1 Mb/s").arg(v / 1e6, 0, 'f', 3);
    if (unit == "s" || unit == "ms")
        return QStringLiteral("%1 %2").arg(v, 0, 'f', 3).arg(QString::fromStdString(unit));
    return QString::number(v, 'f', 0) + (unit.empty() ? QString() : QLatin1Char(' ') + QString::fromStdString(unit));
}

} // namespace

CompareWindow::CompareWindow(std::shared_ptr<const CaptureAnalysis> a, int connectionA, const QString& nameA,
                             std::shared_ptr<const CaptureAnalysis> b, int connectionB, const QString& nameB,
                             QWidget* parent)
    : QWidget(parent, Qt::Window), m_a(std::move(a)), m_b(std::move(b)), m_axis(new TimeAxis(this))
{
    setWindowTitle(tr("Compare: %1 | %2").arg(nameA, nameB));
    const auto ca = static_cast<std::size_t>(connectionA), cb = static_cast<std::size_t>(connectionB);
    m_rows = analysis::compareConnections(m_a->tcp, ca, m_b->tcp, cb);

    auto* layout = new QVBoxLayout(this);
    auto* split = new QSplitter(Qt::Vertical, this);
    layout->addWidget(split);
    m_table = new QTableWidget(static_cast<int>(m_rows.size()), 4, split);
    m_table->setHorizontalHeaderLabels({tr("Metric"), nameA, nameB, tr("B − A")});
    m_table->verticalHeader()->hide();
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    for (int r = 0; r < static_cast<int>(m_rows.size()); ++r) {
        const analysis::ComparisonRow& row = m_rows[static_cast<std::size_t>(r)];
        m_table->setItem(r, 0, new QTableWidgetItem(QString::fromStdString(row.metric)));
        m_table->setItem(r, 1, new QTableWidgetItem(valueText(row.a, row.unit)));
        m_table->setItem(r, 2, new QTableWidgetItem(valueText(row.b, row.unit)));
        m_table->setItem(r, 3, new QTableWidgetItem(valueText(row.b - row.a, row.unit)));
        for (int c = 1; c < 4; ++c)
            m_table->item(r, c)->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    }
    m_table->resizeColumnsToContents();
    m_table->horizontalHeader()->setStretchLastSection(true);

    auto seriesA = connectionSeries(*m_a, ca);
    auto seriesB = connectionSeries(*m_b, cb);
    auto* plots = new QWidget(split);
    auto* pl = new QVBoxLayout(plots);
    pl->setContentsMargins(0, 0, 0, 0);
    for (auto q : {ComparePlot::Quantity::Delivered, ComparePlot::Quantity::Goodput}) {
        auto* p = new ComparePlot(m_axis, q, plots);
        p->setPair(*seriesA, nameA, *seriesB, nameB);
        pl->addWidget(p, 1);
        m_plots << p;
    }
    m_plots.back()->setShowTimeLabels(true);
    m_plots.back()->xAxis->setLabel(tr("time since each connection's first packet (s)"));
    const double span = std::max(seriesA->endSeconds - seriesA->startSeconds, seriesB->endSeconds - seriesB->startSeconds);
    m_axis->setFullRange(-span * 0.01, span * 1.01);
    for (ComparePlot* p : m_plots) {
        p->refreshLevelOfDetail();
        p->replot(QCustomPlot::rpQueuedReplot);
    }
    split->setStretchFactor(1, 3);
    resize(1100, 800);
}

} // namespace windscope::gui
