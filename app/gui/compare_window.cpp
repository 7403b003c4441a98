// SPDX-License-Identifier: GPL-3.0-or-later
#include "compare_window.h"

#include "export_dialog.h"
#include "plots/compare_plot.h"
#include "plots/plot_panel.h"
#include "plots/plot_stack.h"
#include "plots/time_axis.h"

#include "analysis/report/report_compare.h"
#include "render/comparison_figure.h"

#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QMessageBox>
#include <QPushButton>
#include <QSaveFile>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSplitter>
#include <QStackedWidget>
#include <QTableWidget>

#include <cmath>
#include <QVBoxLayout>

#include <algorithm>
#include <sstream>

namespace windscope::gui {

namespace {

// v rounded to the decimals shown, so that a difference that rounds to nothing reads 0,
// not -0.
double shown(double v, int decimals)
{
    const double scale = std::pow(10.0, decimals);
    return std::round(v * scale) / scale + 0.0;
}

QString valueText(double v, const std::string& unit)
{
    if (unit == "bit/s")
        return QStringLiteral("%1 Mb/s").arg(shown(v / 1e6, 3), 0, 'f', 3);
    if (unit == "s" || unit == "ms")
        return QStringLiteral("%1 %2").arg(shown(v, 3), 0, 'f', 3).arg(QString::fromStdString(unit));
    return QString::number(shown(v, 0), 'f', 0) + (unit.empty() ? QString() : QLatin1Char(' ') + QString::fromStdString(unit));
}

// Where the sender's data starts: a replay run's time 0 is the capture's first data segment.
double firstData(const analysis::ConnectionSeries& s)
{
    return s.timeSequence.segments.size() ? s.timeSequence.segments.t.front() : s.startSeconds;
}

void fillEvents(QComboBox* box, const CaptureAnalysis& c)
{
    box->addItem(QObject::tr("at their starts"), -1);
    for (std::size_t i = 0; i < c.events.events.size(); ++i) {
        const analysis::WlanEvent& e = c.events.events[i];
        box->addItem(QObject::tr("at event %1 (%2, %3 s)")
                         .arg(e.id)
                         .arg(QString::fromLatin1(analysis::eventKindName(e.kind)))
                         .arg(static_cast<double>(e.startNs) / 1e9, 0, 'f', 3),
                     static_cast<int>(i));
    }
}

} // namespace

CompareWindow::CompareWindow(std::shared_ptr<const CaptureAnalysis> a, int connectionA, const QString& nameA,
                             std::shared_ptr<const CaptureAnalysis> b, int connectionB, const QString& nameB,
                             QWidget* parent)
    : CompareWindow(CompareSide{std::move(a), connectionA, nameA, false},
                    CompareSide{std::move(b), connectionB, nameB, false}, parent)
{
}

CompareWindow::CompareWindow(CompareSide a, CompareSide b, QWidget* parent)
    : QWidget(parent, Qt::Window), m_a(std::move(a)), m_b(std::move(b)), m_axis(new TimeAxis(this))
{
    setWindowTitle(tr("Compare: %1 | %2").arg(m_a.name, m_b.name));
    const auto ca = static_cast<std::size_t>(m_a.connection), cb = static_cast<std::size_t>(m_b.connection);
    m_seriesA = connectionSeries(*m_a.capture, ca);
    m_seriesB = connectionSeries(*m_b.capture, cb);
    m_rows = analysis::compareConnections(m_a.capture->tcp, ca, m_b.capture->tcp, cb);
    analysis::appendSenderPhaseRows(m_rows, m_seriesA->window, m_seriesB->window);

    auto* layout = new QVBoxLayout(this);
    auto* bar = new QHBoxLayout;
    m_viewChoice = new QComboBox(this);
    m_viewChoice->addItem(tr("Overlaid"));
    m_viewChoice->addItem(tr("Side by side"));
    m_alignA = new QComboBox(this);
    fillEvents(m_alignA, *m_a.capture);
    m_alignB = new QComboBox(this);
    fillEvents(m_alignB, *m_b.capture);
    m_alignB->setToolTip(tr("The event of %1 to align with").arg(m_b.name));
    // A replay run has no 802.11 events of its own: it follows the capture's.
    m_alignB->setVisible(!m_b.replay && m_alignB->count() > 1);
    bar->addWidget(new QLabel(tr("Plots"), this));
    bar->addWidget(m_viewChoice);
    bar->addSpacing(12);
    bar->addWidget(new QLabel(tr("aligned"), this));
    bar->addWidget(m_alignA, 1);
    bar->addWidget(m_alignB, 1);
    bar->addStretch();
    auto* figureButton = new QPushButton(tr("Export figure…"), this);
    auto* tableButton = new QPushButton(tr("Export table…"), this);
    connect(figureButton, &QPushButton::clicked, this, &CompareWindow::chooseFigureExport);
    connect(tableButton, &QPushButton::clicked, this, &CompareWindow::chooseTableExport);
    bar->addWidget(figureButton);
    bar->addWidget(tableButton);
    layout->addLayout(bar);
    m_note = new QLabel(this);
    m_note->setWordWrap(true);
    m_note->setVisible(false);
    layout->addWidget(m_note);

    auto* split = new QSplitter(Qt::Vertical, this);
    layout->addWidget(split, 1);
    m_table = new QTableWidget(split);
    m_table->verticalHeader()->hide();
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    fillTable();

    m_views = new QStackedWidget(split);
    auto* overlaid = new QWidget(m_views);
    auto* pl = new QVBoxLayout(overlaid);
    pl->setContentsMargins(0, 0, 0, 0);
    for (auto q : {ComparePlot::Quantity::Delivered, ComparePlot::Quantity::Goodput, ComparePlot::Quantity::Cwnd}) {
        auto* p = new ComparePlot(m_axis, q, overlaid);
        pl->addWidget(p, 1);
        m_plots << p;
    }
    m_plots.back()->setShowTimeLabels(true);
    m_views->addWidget(overlaid);
    auto* sideBySide = new QSplitter(Qt::Horizontal, m_views);
    m_stackA = new PlotStack(sideBySide);
    m_stackB = new PlotStack(sideBySide);
    m_views->addWidget(sideBySide);
    // Zooming or panning either stack moves the other.
    auto follow = [this](TimeAxis* from, TimeAxis* to) {
        connect(from, &TimeAxis::rangeChanged, this, [this, to](double lower, double upper) {
            if (m_syncing)
                return;
            m_syncing = true;
            to->setRange(lower, upper);
            m_syncing = false;
        });
    };
    follow(m_stackA->timeAxis(), m_stackB->timeAxis());
    follow(m_stackB->timeAxis(), m_stackA->timeAxis());
    // Each plot and its counterpart share their value scale: what is visible in either
    // fits both, so the two sides are read against one axis.
    for (qsizetype i = 0; i < m_stackA->panels().size() && i < m_stackB->panels().size(); ++i)
        PlotPanel::linkValueAxes(m_stackA->panels()[i], m_stackB->panels()[i]);
    split->setStretchFactor(1, 3);

    connect(m_viewChoice, &QComboBox::currentIndexChanged, this,
            [this](int index) { m_views->setCurrentIndex(index); });
    connect(m_alignA, &QComboBox::currentIndexChanged, this, [this] {
        // Two connections of one capture share its events: keep B on the same one.
        if (m_a.capture == m_b.capture)
            m_alignB->setCurrentIndex(m_alignA->currentIndex());
        onAlignChosen();
    });
    connect(m_alignB, &QComboBox::currentIndexChanged, this, &CompareWindow::onAlignChosen);
    alignAtStart();
    resize(1200, 900);
}

bool CompareWindow::exportFigure(const QString& path, const render::ExportPreset& preset, QString* error) const
{
    std::vector<render::ComparedSide> sides = {{m_seriesA.get(), m_a.name, m_offsetA}, {m_seriesB.get(), m_b.name, m_offsetB}};
    if (m_seriesRef)
        sides.push_back({m_seriesRef.get(), m_ref->name, m_offsetRef});
    render::ComparisonFigureOptions options;
    options.preset = preset;
    options.timeTitle = m_plots.back()->xAxis->label();
    options.screenSize = m_views->size();
    return render::ComparisonFigure(sides, options).write(path, error);
}

bool CompareWindow::exportTable(const QString& path, QString* error) const
{
    std::ostringstream csv;
    analysis::writeComparisonCsv(csv, m_rows);
    QSaveFile file(path);
    const std::string text = csv.str();
    if (!file.open(QIODevice::WriteOnly) || file.write(text.data(), static_cast<qint64>(text.size())) < 0 ||
        !file.commit()) {
        if (error)
            *error = tr("%1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

void CompareWindow::chooseFigureExport()
{
    ExportDialog dialog({}, this);
    if (dialog.exec() != QDialog::Accepted)
        return;
    QString error;
    if (!exportFigure(dialog.path(), dialog.preset(), &error))
        QMessageBox::warning(this, tr("Export figure"), error);
}

void CompareWindow::chooseTableExport()
{
    const QString path = QFileDialog::getSaveFileName(this, tr("Export comparison table"),
                                                      QDir::home().filePath(QStringLiteral("comparison.csv")),
                                                      tr("CSV (*.csv)"));
    if (path.isEmpty())
        return;
    QString error;
    if (!exportTable(path, &error))
        QMessageBox::warning(this, tr("Export table"), error);
}

void CompareWindow::setView(View view) { m_viewChoice->setCurrentIndex(view == View::SideBySide ? 1 : 0); }

CompareWindow::View CompareWindow::view() const
{
    return m_views->currentIndex() == 1 ? View::SideBySide : View::Overlaid;
}

void CompareWindow::setNote(const QString& text)
{
    m_note->setText(text);
    m_note->setVisible(!text.isEmpty());
}

void CompareWindow::fillTable()
{
    // Without a reference: A, B and B - A. With one: A, the reference, B, the model's
    // error (reference - A) and the fix's effect (B - reference).
    const QString unknown = tr("not followed");
    const auto cell = [&](bool known, double v, const std::string& unit) {
        return new QTableWidgetItem(known ? valueText(v, unit) : unknown);
    };
    const auto difference = [&](bool known, double v, const std::string& unit) {
        return new QTableWidgetItem(known ? valueText(v, unit) : QStringLiteral("-"));
    };
    const int columns = m_ref ? 6 : 4;
    m_table->clear();
    m_table->setRowCount(static_cast<int>(m_rows.size()));
    m_table->setColumnCount(columns);
    if (m_ref)
        m_table->setHorizontalHeaderLabels({tr("Metric"), m_a.name, m_ref->name, m_b.name,
                                            tr("model error (baseline − %1)").arg(m_a.name),
                                            tr("fix effect (%1 − baseline)").arg(m_b.name)});
    else
        m_table->setHorizontalHeaderLabels({tr("Metric"), m_a.name, m_b.name, tr("B − A")});
    for (int r = 0; r < static_cast<int>(m_rows.size()); ++r) {
        const analysis::ComparisonRow& row = m_rows[static_cast<std::size_t>(r)];
        m_table->setItem(r, 0, new QTableWidgetItem(QString::fromStdString(row.metric)));
        m_table->setItem(r, 1, cell(row.aKnown, row.a, row.unit));
        if (m_ref) {
            const analysis::ComparisonRow& ref = m_refRows[static_cast<std::size_t>(r)];
            m_table->setItem(r, 2, cell(ref.bKnown, ref.b, row.unit));
            m_table->setItem(r, 3, cell(row.bKnown, row.b, row.unit));
            m_table->setItem(r, 4, difference(row.aKnown && ref.bKnown, ref.b - row.a, row.unit));
            m_table->setItem(r, 5, difference(row.bKnown && ref.bKnown, row.b - ref.b, row.unit));
        } else {
            m_table->setItem(r, 2, cell(row.bKnown, row.b, row.unit));
            m_table->setItem(r, 3, difference(row.aKnown && row.bKnown, row.b - row.a, row.unit));
        }
        for (int c = 1; c < columns; ++c)
            m_table->item(r, c)->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    }
    m_table->resizeColumnsToContents();
    m_table->horizontalHeader()->setStretchLastSection(true);
}

void CompareWindow::setReference(CompareSide baseline)
{
    m_ref = std::move(baseline);
    const auto ca = static_cast<std::size_t>(m_a.connection), cr = static_cast<std::size_t>(m_ref->connection);
    m_seriesRef = connectionSeries(*m_ref->capture, cr);
    m_refRows = analysis::compareConnections(m_a.capture->tcp, ca, m_ref->capture->tcp, cr);
    // The same metrics, in the same order, as m_rows: the phase rows of A against B.
    analysis::appendSenderPhaseRows(m_refRows, m_seriesA->window, m_seriesRef->window);
    std::vector<analysis::ComparisonRow> aligned;
    for (const analysis::ComparisonRow& row : m_rows) {
        analysis::ComparisonRow match{row.metric, row.unit, row.a, 0, row.aKnown, false};
        for (const analysis::ComparisonRow& r : m_refRows)
            if (r.metric == row.metric)
                match = r;
        aligned.push_back(match);
    }
    m_refRows = std::move(aligned);
    setWindowTitle(tr("Compare: %1 | %2 | %3").arg(m_a.name, m_ref->name, m_b.name));
    fillTable();
    if (m_atEvent)
        onAlignChosen();
    else
        alignAtStart();
}

void CompareWindow::onAlignChosen()
{
    const int eventA = m_alignA->currentData().toInt();
    if (eventA < 0)
        alignAtStart();
    else
        alignAtEvent(eventA, m_alignB->currentData().toInt());
}

void CompareWindow::alignAtStart()
{
    m_offsetA = m_seriesA->startSeconds;
    m_offsetB = m_seriesB->startSeconds;
    // A replay starts with the capture's first data segment: align the data, not the
    // handshake the capture may lack.
    if (m_b.replay)
        m_offsetB = firstData(*m_seriesB) - (firstData(*m_seriesA) - m_seriesA->startSeconds);
    if (m_seriesRef)
        m_offsetRef = firstData(*m_seriesRef) - (firstData(*m_seriesA) - m_seriesA->startSeconds);
    m_atEvent = false;
    applyAlignment();
}

bool CompareWindow::alignAtEvent(int eventA, int eventB)
{
    const auto& eventsA = m_a.capture->events.events;
    if (eventA < 0 || static_cast<std::size_t>(eventA) >= eventsA.size())
        return false;
    const double startA = static_cast<double>(eventsA[static_cast<std::size_t>(eventA)].startNs) / 1e9;
    double offsetB = 0;
    if (m_b.replay) {
        offsetB = startA - firstData(*m_seriesA) + firstData(*m_seriesB);
    } else {
        const auto& eventsB = m_b.capture->events.events;
        if (eventB < 0 && m_a.capture == m_b.capture)
            eventB = eventA;
        if (eventB < 0 || static_cast<std::size_t>(eventB) >= eventsB.size())
            return false;
        offsetB = static_cast<double>(eventsB[static_cast<std::size_t>(eventB)].startNs) / 1e9;
    }
    m_offsetA = startA;
    m_offsetB = offsetB;
    if (m_seriesRef)
        m_offsetRef = startA - firstData(*m_seriesA) + firstData(*m_seriesRef);
    m_atEvent = true;
    applyAlignment();
    return true;
}

void CompareWindow::applyAlignment()
{
    const QString label = m_atEvent ? tr("time since the aligned event (s)") : tr("time since each connection's start (s)");
    for (ComparePlot* p : m_plots) {
        p->setPair(*m_seriesA, m_a.name, m_offsetA, *m_seriesB, m_b.name, m_offsetB, m_seriesRef.get(),
                   m_ref ? m_ref->name : QString(), m_offsetRef);
        p->xAxis->setLabel(p == m_plots.back() ? label : QString());
    }
    const double lo = std::min(m_seriesA->startSeconds - m_offsetA, m_seriesB->startSeconds - m_offsetB);
    const double hi = std::max(m_seriesA->endSeconds - m_offsetA, m_seriesB->endSeconds - m_offsetB);
    const double span = std::max(hi - lo, 1e-3);
    m_axis->setFullRange(lo - span * 0.01, hi + span * 0.01);
    for (ComparePlot* p : m_plots) {
        p->refreshLevelOfDetail();
        p->replot(QCustomPlot::rpQueuedReplot);
    }
    m_stackA->setSeries(std::make_shared<const analysis::ConnectionSeries>(analysis::shiftedSeries(*m_seriesA, m_offsetA)),
                        m_a.name);
    m_stackB->setSeries(std::make_shared<const analysis::ConnectionSeries>(analysis::shiftedSeries(*m_seriesB, m_offsetB)),
                        m_b.name);
    m_syncing = true;
    m_stackA->timeAxis()->setFullRange(lo - span * 0.01, hi + span * 0.01);
    m_stackB->timeAxis()->setFullRange(lo - span * 0.01, hi + span * 0.01);
    m_syncing = false;
}

} // namespace windscope::gui
