// SPDX-License-Identifier: GPL-3.0-or-later
#include "sweep_window.h"

#include "analysis/replay/scenario/fix.h"
#include "analysis/replay/scenario/presets.h"
#include "analysis/report/report_replay.h"
#include "plots/plot_export.h"

#include <QCloseEvent>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QElapsedTimer>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QSplitter>
#include <QTableWidget>
#include <QTextDocumentFragment>
#include <QThread>
#include <QVBoxLayout>

#include <qcustomplot.h>

#include <algorithm>
#include <cmath>
#include <sstream>

namespace windscope::gui {

namespace rp = analysis::replay;

namespace {

// Decimals that show a range's step exactly (0.0025 needs four), at least one.
int decimalsFor(const rp::SweepRange& range)
{
    int decimals = 1;
    while (decimals < 6 && std::abs(range.step * std::pow(10.0, decimals) -
                                    std::round(range.step * std::pow(10.0, decimals))) > 1e-9)
        ++decimals;
    return decimals;
}

// Which of the four line styles a graph takes (styleFor): goodput, completion time,
// the capture's and the baseline's reference lines.
constexpr const char* kLineStyle = "windscopeLineStyle";

QString axisLabel(const QString& name)
{
    const rp::SweepParameter* p = rp::findSweepParameter(name.toStdString());
    if (!p || p->unit.empty())
        return name;
    return QStringLiteral("%1 (%2)").arg(name, QString::fromUtf8(p->unit.data(), static_cast<qsizetype>(p->unit.size())));
}

QTableWidgetItem* numberItem(const QString& text, double sortValue)
{
    auto* item = new QTableWidgetItem(text);
    item->setData(Qt::UserRole, sortValue);
    item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    item->setFlags(item->flags() & ~Qt::ItemIsEditable);
    return item;
}

QString percentChange(double value, double reference)
{
    if (!(reference > 0))
        return {};
    return QStringLiteral("%1%2%").arg(value >= reference ? QStringLiteral("+") : QString())
        .arg((value / reference - 1) * 100, 0, 'f', 1);
}

// [low, high] with a margin of a tenth of the span on either side (at least 2 % of the
// value, so a flat sweep still has an axis), never below zero.
QCPRange fittedRange(double low, double high)
{
    const double span = std::max(high - low, std::fabs(high) * 0.02);
    if (span <= 0)
        return QCPRange(0, 1);
    return QCPRange(std::max(0.0, low - span * 0.1), high + span * 0.1);
}

} // namespace

bool runReplaySweep(const CaptureAnalysis& capture, const ReplayRequest& request, const rp::SweepSpec& spec,
                    SweepOutcome& outcome, QString& error,
                    const std::function<void(std::size_t, std::size_t)>& progress, const std::atomic<bool>* cancel)
{
    // The reference: the baseline calibrated against the capture, without the fixes,
    // which apply to every point of the sweep instead (as windscope-cli replay --sweep).
    ReplayRequest reference = request;
    reference.fixes.clear();
    outcome = {};
    outcome.spec = spec;
    if (!replayReportFor(capture, reference, outcome.reference, error))
        return false;
    rp::Scenario base = outcome.reference.scenario;
    for (const QString& fix : request.fixes)
        base.fixes.push_back(fix.toStdString());
    outcome.points = rp::runSweep(base, spec, progress, cancel);
    outcome.cancelled = cancel && cancel->load();
    return true;
}

SweepWindow::SweepWindow(std::shared_ptr<const CaptureAnalysis> capture, int connection,
                         const QString& connectionName, QWidget* parent)
    : QWidget(parent, Qt::Window), m_capture(std::move(capture)), m_connection(connection),
      m_source(new QComboBox(this)), m_fixes(new QLineEdit(this)), m_parameter(new QComboBox(this)),
      m_from(new QDoubleSpinBox(this)), m_to(new QDoubleSpinBox(this)), m_step(new QDoubleSpinBox(this)),
      m_run(new QPushButton(tr("&Run"), this)), m_cancel(new QPushButton(tr("Cancel"), this)),
      m_exportCsv(new QPushButton(tr("Export table (CSV)…"), this)),
      m_exportFigure(new QPushButton(tr("Export figure…"), this)), m_progress(new QProgressBar(this)),
      m_status(new QLabel(this)), m_table(new QTableWidget(this)), m_plot(new QCustomPlot(this))
{
    setWindowTitle(connection >= 0 ? tr("Sweep: connection %1 (%2)").arg(connection).arg(connectionName)
                                   : tr("Sweep a replay parameter"));
    if (m_capture && connection >= 0)
        m_source->addItem(tr("Derived from connection %1 (%2)").arg(connection).arg(connectionName), QString());
    for (const auto& p : rp::presetCatalog())
        m_source->addItem(tr("Preset %1: %2")
                              .arg(QString::fromUtf8(p.name.data(), static_cast<qsizetype>(p.name.size())),
                                   QString::fromUtf8(p.summary.data(), static_cast<qsizetype>(p.summary.size()))),
                          QString::fromUtf8(p.name.data(), static_cast<qsizetype>(p.name.size())));
    for (const rp::SweepParameter& p : rp::sweepParameters()) {
        m_parameter->addItem(QString::fromUtf8(p.name.data(), static_cast<qsizetype>(p.name.size())));
        m_parameter->setItemData(m_parameter->count() - 1,
                                 QString::fromUtf8(p.help.data(), static_cast<qsizetype>(p.help.size())),
                                 Qt::ToolTipRole);
    }
    for (QDoubleSpinBox* box : {m_from, m_to, m_step}) {
        box->setRange(0, 1e9);
        box->setDecimals(4);
    }
    m_fixes->setPlaceholderText(tr("none (fixes applied at every point, e.g. scan-aware-ap)"));
    connect(m_parameter, &QComboBox::currentTextChanged, this, [this](const QString& name) {
        if (const rp::SweepParameter* p = rp::findSweepParameter(name.toStdString())) {
            for (QDoubleSpinBox* box : {m_from, m_to, m_step})
                box->setDecimals(decimalsFor(p->range));
            setRange(p->range.from, p->range.to, p->range.step);
        }
        updateHint();
    });
    for (QDoubleSpinBox* box : {m_from, m_to, m_step})
        connect(box, &QDoubleSpinBox::valueChanged, this, &SweepWindow::updateHint);

    auto* range = new QHBoxLayout;
    range->addWidget(new QLabel(tr("from"), this));
    range->addWidget(m_from);
    range->addWidget(new QLabel(tr("to"), this));
    range->addWidget(m_to);
    range->addWidget(new QLabel(tr("step"), this));
    range->addWidget(m_step);
    auto* form = new QFormLayout;
    form->addRow(tr("Scenario"), m_source);
    form->addRow(tr("Fixes"), m_fixes);
    form->addRow(tr("Parameter"), m_parameter);
    form->addRow(tr("Values"), range);

    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_run);
    buttons->addWidget(m_cancel);
    buttons->addWidget(m_progress, 1);
    buttons->addWidget(m_exportCsv);
    buttons->addWidget(m_exportFigure);
    m_cancel->setEnabled(false);
    m_exportCsv->setEnabled(false);
    m_exportFigure->setEnabled(false);
    m_progress->setRange(0, 1);
    m_progress->setValue(0);
    m_status->setWordWrap(true);
    m_status->setTextFormat(Qt::RichText);

    const QStringList headers = {tr("value"),           tr("goodput (Mb/s)"),  tr("over the seeds"),
                                 tr("vs capture"),      tr("vs baseline"),     tr("completion (s)"),
                                 tr("retransmissions"), tr("RTO timeouts"),    tr("note")};
    m_table->setColumnCount(static_cast<int>(headers.size()));
    m_table->setHorizontalHeaderLabels(headers);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);

    m_plot->setMinimumHeight(260);
    m_plot->yAxis2->setVisible(true);
    // The legend in a row above the axes: inside them it covers points and their ranges.
    m_plot->legend->setVisible(true);
    m_plot->plotLayout()->insertRow(0);
    m_plot->plotLayout()->addElement(0, 0, m_plot->legend);
    m_plot->plotLayout()->setRowStretchFactor(0, 0.001);
    m_plot->legend->setBorderPen(Qt::NoPen);
    m_plot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    styleFor(nullptr);

    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_plot);
    split->addWidget(m_table);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addLayout(buttons);
    layout->addWidget(m_status);
    layout->addWidget(split, 1);

    connect(m_run, &QPushButton::clicked, this, [this] { start(); });
    connect(m_cancel, &QPushButton::clicked, this, &SweepWindow::cancel);
    connect(m_exportCsv, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Export sweep table"), QString(),
                                                          tr("CSV (*.csv)"));
        QString error;
        if (!path.isEmpty() && !exportCsv(path, &error))
            QMessageBox::warning(this, tr("Export failed"), error);
    });
    connect(m_exportFigure, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Export sweep figure"), QString(),
                                                          tr("Figures (*.pdf *.png *.svg)"));
        if (path.isEmpty())
            return;
        QString error;
        const ExportPreset preset = *exportPreset(QStringLiteral("single-column"));
        if (!exportFigure(path, preset, &error))
            QMessageBox::warning(this, tr("Export failed"), error);
    });
    setParameter(QStringLiteral("scan-interval"));
    resize(900, 760);
}

SweepWindow::~SweepWindow()
{
    m_cancelFlag.store(true);
    if (m_thread)
        m_thread->wait();
}

void SweepWindow::setScenario(const QString& preset)
{
    const int index = m_source->findData(preset);
    if (index >= 0)
        m_source->setCurrentIndex(index);
}

void SweepWindow::setFixes(const QString& fixes) { m_fixes->setText(fixes); }

bool SweepWindow::setParameter(const QString& name)
{
    const int index = m_parameter->findText(name);
    if (index < 0)
        return false;
    if (index == m_parameter->currentIndex())
        emit m_parameter->currentTextChanged(name);
    m_parameter->setCurrentIndex(index);
    return true;
}

void SweepWindow::setRange(double from, double to, double step)
{
    m_from->setValue(from);
    m_to->setValue(to);
    m_step->setValue(step);
}

void SweepWindow::updateHint()
{
    if (isRunning())
        return;
    const double step = m_step->value();
    const double span = m_to->value() - m_from->value();
    if (step > 0 && span >= 0)
        m_run->setText(tr("&Run %1 points").arg(static_cast<qint64>(std::floor(span / step + 1e-9)) + 1));
    else
        m_run->setText(tr("&Run"));
}

bool SweepWindow::isRunning() const { return m_thread != nullptr; }

QString SweepWindow::statusText() const { return QTextDocumentFragment::fromHtml(m_status->text()).toPlainText(); }

bool SweepWindow::start()
{
    if (isRunning())
        return false;
    const QString text = QStringLiteral("%1=%2:%3:%4")
                             .arg(m_parameter->currentText())
                             .arg(m_from->value(), 0, 'g', 10)
                             .arg(m_to->value(), 0, 'g', 10)
                             .arg(m_step->value(), 0, 'g', 10);
    rp::SweepSpec spec;
    std::string problem;
    ReplayRequest request;
    request.connection = static_cast<std::size_t>(std::max(m_connection, 0));
    request.preset = m_source->currentData().toString();
    request.fixes = m_fixes->text().split(QLatin1Char(' '), Qt::SkipEmptyParts);
    QString invalid = validateReplayRequest(request);
    if (invalid.isEmpty() && !rp::parseSweep(text.toStdString(), spec, problem))
        invalid = QString::fromStdString(problem).replace(QStringLiteral("--sweep "), QString());
    if (invalid.isEmpty() && request.preset.isEmpty() && !m_capture)
        invalid = tr("no capture to derive the scenario from: choose a preset");
    if (!invalid.isEmpty()) {
        m_status->setText(QStringLiteral("<span style='color:#b00'>%1</span>").arg(invalid.toHtmlEscaped()));
        return false;
    }
    const auto count = static_cast<int>(std::floor((spec.to - spec.from) / spec.step + 1e-9)) + 1;
    m_cancelFlag.store(false);
    m_pending.reset();
    m_pendingError.clear();
    m_progress->setRange(0, count);
    m_progress->setValue(0);
    m_run->setEnabled(false);
    m_cancel->setEnabled(true);
    m_status->setText(tr("Deriving the scenario and calibrating the baseline, then %1 runs on every core…").arg(count));
    auto elapsed = std::make_shared<QElapsedTimer>();
    elapsed->start();
    std::shared_ptr<const CaptureAnalysis> capture = m_capture;
    m_thread = QThread::create([this, capture, request, spec] {
        SweepOutcome outcome;
        QString error;
        static const CaptureAnalysis empty;
        const bool ok = runReplaySweep(
            capture ? *capture : empty, request, spec, outcome, error,
            [this](std::size_t done, std::size_t total) {
                QMetaObject::invokeMethod(
                    this, [this, done, total] {
                        m_progress->setValue(static_cast<int>(done));
                        emit progressed(static_cast<int>(done), static_cast<int>(total));
                    },
                    Qt::QueuedConnection);
            },
            &m_cancelFlag);
        if (ok)
            m_pending = std::move(outcome);
        else
            m_pendingError = error;
    });
    m_thread->setObjectName(QStringLiteral("sweep"));
    connect(m_thread, &QThread::finished, this, [this, elapsed] {
        m_thread->deleteLater();
        m_thread = nullptr;
        m_run->setEnabled(true);
        m_cancel->setEnabled(false);
        updateHint();
        if (!m_pending) {
            m_status->setText(QStringLiteral("<span style='color:#b00'>%1</span>")
                                  .arg(tr("Sweep failed: %1").arg(m_pendingError).toHtmlEscaped()));
            emit finished();
            return;
        }
        m_outcome = std::move(m_pending);
        m_pending.reset();
        showOutcome();
        std::size_t done = 0;
        for (const rp::SweepPoint& p : m_outcome->points)
            done += p.error != "cancelled";
        QString summary = m_outcome->cancelled
                           ? tr("Cancelled: %1 of %2 points finished.").arg(done).arg(m_outcome->points.size())
                           : tr("%1 points in %2 s.").arg(done).arg(static_cast<double>(elapsed->elapsed()) / 1000.0, 0, 'f', 1);
        const rp::ReplayReport& ref = m_outcome->reference;
        if (ref.capture)
            summary += QLatin1Char(' ') + tr("Capture %1 Mb/s, baseline %2 Mb/s.")
                                           .arg(ref.capture->goodputBps / 1e6, 0, 'f', 3)
                                           .arg(ref.baseline.goodputBps / 1e6, 0, 'f', 3);
        else
            summary += QLatin1Char(' ') + tr("Baseline %1 Mb/s.").arg(ref.baseline.goodputBps / 1e6, 0, 'f', 3);
        summary = summary.toHtmlEscaped();
        if (ref.calibration && ref.calibration->exceeded)
            summary += QStringLiteral("<br><span style='color:#b00'>%1</span>")
                        .arg(QString::fromStdString(ref.calibration->warning).toHtmlEscaped());
        m_status->setText(summary);
        emit finished();
    });
    m_thread->start();
    return true;
}

void SweepWindow::cancel()
{
    if (!isRunning())
        return;
    m_cancelFlag.store(true);
    m_status->setText(tr("Cancelling: the runs under way stop at their next check…"));
}

void SweepWindow::closeEvent(QCloseEvent* event)
{
    cancel();
    QWidget::closeEvent(event);
}

void SweepWindow::showOutcome()
{
    const SweepOutcome& o = *m_outcome;
    const QString parameter = QString::fromStdString(o.spec.parameter);
    const double captureBps = o.reference.capture ? o.reference.capture->goodputBps : 0;
    const double baselineBps = o.reference.baseline.goodputBps;

    m_table->setSortingEnabled(false);
    m_table->setRowCount(static_cast<int>(o.points.size()));
    QVector<double> x, goodput, below, above, completion;
    for (std::size_t i = 0; i < o.points.size(); ++i) {
        const rp::SweepPoint& p = o.points[i];
        const int row = static_cast<int>(i);
        m_table->setItem(row, 0, numberItem(QString::number(p.value, 'g', 10), p.value));
        const bool ok = p.error.empty();
        const rp::Metrics& m = p.metrics;
        const std::size_t seeds = p.runs.seeds.size();
        m_table->setItem(row, 1, numberItem(ok ? QString::number(m.goodputBps / 1e6, 'f', 3) : QString(), m.goodputBps));
        m_table->setItem(row, 2, numberItem(ok && seeds > 1 ? tr("%1 to %2 (%3 seeds)")
                                                                  .arg(p.runs.min.goodputBps / 1e6, 0, 'f', 3)
                                                                  .arg(p.runs.max.goodputBps / 1e6, 0, 'f', 3)
                                                                  .arg(seeds)
                                                            : (ok ? tr("one run") : QString()),
                                            p.runs.max.goodputBps - p.runs.min.goodputBps));
        m_table->setItem(row, 3, numberItem(ok ? percentChange(m.goodputBps, captureBps) : QString(), m.goodputBps));
        m_table->setItem(row, 4, numberItem(ok ? percentChange(m.goodputBps, baselineBps) : QString(), m.goodputBps));
        m_table->setItem(row, 5, numberItem(ok ? QString::number(m.completionS, 'f', 3) : QString(), m.completionS));
        m_table->setItem(row, 6, numberItem(ok ? QString::number(m.retransmissions) : QString(),
                                            static_cast<double>(m.retransmissions)));
        m_table->setItem(row, 7, numberItem(ok ? QString::number(m.rtoTimeouts) : QString(),
                                            static_cast<double>(m.rtoTimeouts)));
        auto* note = new QTableWidgetItem(QString::fromStdString(p.error));
        note->setFlags(note->flags() & ~Qt::ItemIsEditable);
        m_table->setItem(row, 8, note);
        if (ok) {
            x << p.value;
            goodput << m.goodputBps / 1e6;
            below << (m.goodputBps - p.runs.min.goodputBps) / 1e6;
            above << (p.runs.max.goodputBps - m.goodputBps) / 1e6;
            completion << m.completionS;
        }
    }
    m_table->resizeColumnsToContents();

    m_plot->clearPlottables();
    QCPGraph* g = m_plot->addGraph(m_plot->xAxis, m_plot->yAxis);
    g->setName(tr("goodput"));
    g->setProperty(kLineStyle, 0);
    g->setData(x, goodput, true);
    // The spread over the seeds each point is the mean of (none for one run).
    m_errorBars = new QCPErrorBars(m_plot->xAxis, m_plot->yAxis);
    m_errorBars->removeFromLegend();
    m_errorBars->setDataPlottable(g);
    m_errorBars->setData(below, above);
    QCPGraph* c = m_plot->addGraph(m_plot->xAxis, m_plot->yAxis2);
    c->setName(tr("completion time"));
    c->setProperty(kLineStyle, 1);
    c->setData(x, completion, true);
    const double lo = o.spec.from, hi = std::max(o.spec.to, o.spec.from + o.spec.step * 1e-3);
    auto reference = [&](const QString& name, double mbps, int style) {
        QCPGraph* r = m_plot->addGraph(m_plot->xAxis, m_plot->yAxis);
        r->setName(name);
        r->setData({lo, hi}, {mbps, mbps}, true);
        r->setProperty(kLineStyle, style);
    };
    if (captureBps > 0)
        reference(tr("capture goodput"), captureBps / 1e6, 2);
    reference(tr("baseline goodput"), baselineBps / 1e6, 3);
    m_plot->xAxis->setLabel(axisLabel(parameter));
    m_plot->yAxis->setLabel(tr("goodput (Mb/s)"));
    m_plot->yAxis2->setLabel(tr("completion time (s)"));
    styleFor(nullptr);
    const double pad = (hi - lo) * 0.04;
    m_plot->xAxis->setRange(lo - pad, hi + pad);
    // The axes fit the data (the points with their seed spread, the capture and the
    // baseline lines): a trend of a few percent is what a sweep shows, and an axis from
    // zero flattens it. The baseline's line marks the reference on it.
    double low = baselineBps / 1e6, high = low;
    if (captureBps > 0) {
        low = std::min(low, captureBps / 1e6);
        high = std::max(high, captureBps / 1e6);
    }
    for (const auto& p : o.points)
        if (p.error.empty()) {
            low = std::min(low, p.runs.min.goodputBps / 1e6);
            high = std::max(high, p.runs.max.goodputBps / 1e6);
        }
    m_plot->yAxis->setRange(fittedRange(low, high));
    bool found = false;
    const QCPRange cr = c->getValueRange(found);
    m_plot->yAxis2->setRange(found ? fittedRange(cr.lower, cr.upper) : QCPRange(0, 1));
    m_plot->replot();
    m_exportCsv->setEnabled(true);
    m_exportFigure->setEnabled(true);
}

void SweepWindow::styleFor(const ExportPreset* preset)
{
    // On screen in colour; for print the preset's font size and line styles that stay
    // apart in grayscale (solid with circles, dashed with squares, dotted, dash-dot).
    const bool gray = preset && preset->grayscale;
    const double width = preset && preset->id != QLatin1String("screen") ? 0.8 : 1.5;
    QFont font = this->font();
    if (preset)
        font.setPointSizeF(preset->fontPt);
    for (QCPAxis* axis : {m_plot->xAxis, m_plot->yAxis, m_plot->yAxis2}) {
        axis->setLabelFont(font);
        axis->setTickLabelFont(font);
    }
    m_plot->legend->setFont(font);
    // Four entries to a row fit the window, two a journal column.
    m_plot->legend->setWrap(preset && preset->id != QLatin1String("screen") ? 2 : 4);
    m_plot->legend->setFillOrder(QCPLayoutGrid::foColumnsFirst, true); // re-lays out the entries
    const QColor colours[] = {gray ? Qt::black : QColor(31, 119, 180), gray ? Qt::black : QColor(214, 39, 40),
                              gray ? QColor(90, 90, 90) : QColor(44, 160, 44),
                              gray ? QColor(90, 90, 90) : QColor(127, 127, 127)};
    const Qt::PenStyle styles[] = {Qt::SolidLine, Qt::DashLine, Qt::DotLine, Qt::DashDotLine};
    const QCPScatterStyle::ScatterShape shapes[] = {QCPScatterStyle::ssCircle, QCPScatterStyle::ssSquare,
                                                    QCPScatterStyle::ssNone, QCPScatterStyle::ssNone};
    for (int i = 0; i < m_plot->graphCount(); ++i) {
        QCPGraph* graph = m_plot->graph(i);
        const int k = std::clamp(graph->property(kLineStyle).toInt(), 0, 3);
        QPen pen(colours[k], width, styles[k]);
        graph->setPen(pen);
        graph->setScatterStyle(QCPScatterStyle(shapes[k], colours[k], preset ? 4 : 6));
    }
    if (m_errorBars)
        m_errorBars->setPen(QPen(colours[0], width * 0.7));
}

bool SweepWindow::exportCsv(const QString& path, QString* error) const
{
    if (!m_outcome) {
        if (error)
            *error = tr("no sweep to export");
        return false;
    }
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate | QIODevice::Text)) {
        if (error)
            *error = tr("%1: %2").arg(path, file.errorString());
        return false;
    }
    // The same writer as windscope-cli replay --sweep --csv, so the files are the same bytes.
    std::ostringstream csv;
    analysis::writeSweepCsv(csv, m_outcome->spec.parameter, m_outcome->points);
    const QByteArray out = QByteArray::fromStdString(csv.str());
    if (file.write(out) != out.size()) {
        if (error)
            *error = tr("%1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

bool SweepWindow::exportFigure(const QString& path, const ExportPreset& preset, QString* error)
{
    if (!m_outcome) {
        if (error)
            *error = tr("no sweep to export");
        return false;
    }
    styleFor(&preset);
    const int width = figureWidth(preset, m_plot->width());
    const int height = figureHeight(preset, preset.widthMm * 0.62, m_plot->height());
    const bool ok = writeFigure(
        path, width, height, preset.dpi,
        [&](QCPPainter& painter, double) { m_plot->toPainter(&painter, width, height); }, error);
    styleFor(nullptr);
    m_plot->replot();
    return ok;
}

} // namespace windscope::gui
