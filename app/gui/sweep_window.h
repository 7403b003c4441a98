// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Analysis ▸ Sweep a replay parameter: the selected connection's replay scenario (derived
// and calibrated as Replay and compare does, or a preset) run once for each value of one
// parameter (scan interval, buffer size, aggregation size, handoff duration...), on every
// core off the GUI thread with progress and cancel, as `windscope-cli replay --sweep`.
// The results show as a table and as goodput and completion time against the value, with
// the capture and the baseline as reference lines; both export (CSV, PNG/PDF/SVG).

#include "analysis/replay/session/replay_session.h"
#include "analysis/replay/session/sweep.h"
#include "model/capture_analysis.h"
#include "replay_runner.h"

#include <QWidget>

#include <atomic>
#include <memory>
#include <optional>
#include <vector>

class QComboBox;
class QCPErrorBars;
class QCustomPlot;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QTableWidget;
class QThread;

namespace windscope::render {
struct ExportPreset;
}

namespace windscope::gui {

using render::ExportPreset;

// What one sweep produced: the reference runs and a result per value.
struct SweepOutcome
{
    analysis::replay::SweepSpec spec;
    analysis::replay::ReplayReport reference; // capture, baseline, calibration (no fixed run)
    std::vector<analysis::replay::SweepPoint> points;
    bool cancelled = false;
};

// The sweep on the calling thread: the reference replay of the request (its fixes
// applied to every point, not run on their own), then runSweep. progress and cancel as
// runSweep takes them. false with error set when the scenario cannot be made.
bool runReplaySweep(const CaptureAnalysis& capture, const ReplayRequest& request,
                    const analysis::replay::SweepSpec& spec, SweepOutcome& outcome, QString& error,
                    const std::function<void(std::size_t, std::size_t)>& progress = {},
                    const std::atomic<bool>* cancel = nullptr);

class SweepWindow : public QWidget
{
    Q_OBJECT
public:
    // capture may be null when only presets are to be swept; connection < 0 then.
    SweepWindow(std::shared_ptr<const CaptureAnalysis> capture, int connection, const QString& connectionName,
                QWidget* parent = nullptr);
    ~SweepWindow() override;

    // The controls, for tests and scripts.
    void setScenario(const QString& preset); // empty: derived from the connection
    void setFixes(const QString& fixes);
    bool setParameter(const QString& name);
    void setRange(double from, double to, double step);

    // Starts the sweep (false and the reason shown when the input is invalid or one runs).
    bool start();
    void cancel();
    bool isRunning() const;

    const std::optional<SweepOutcome>& outcome() const { return m_outcome; }
    QTableWidget* table() const { return m_table; }
    QCustomPlot* plot() const { return m_plot; }
    // The status line as plain text (progress, outcome, calibration warning, errors).
    QString statusText() const;

    // Writes the table as windscope-cli replay --sweep --csv does, with the capture and
    // baseline rows first.
    bool exportCsv(const QString& path, QString* error) const;
    bool exportFigure(const QString& path, const ExportPreset& preset, QString* error);

signals:
    void progressed(int done, int total);
    void finished();

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    void onFinished();
    void showOutcome();
    void styleFor(const ExportPreset* preset);
    void updateHint();

    std::shared_ptr<const CaptureAnalysis> m_capture;
    int m_connection;
    QComboBox* m_source;
    QLineEdit* m_fixes;
    QComboBox* m_parameter;
    QDoubleSpinBox* m_from;
    QDoubleSpinBox* m_to;
    QDoubleSpinBox* m_step;
    QPushButton* m_run;
    QPushButton* m_cancel;
    QPushButton* m_exportCsv;
    QPushButton* m_exportFigure;
    QProgressBar* m_progress;
    QLabel* m_status;
    QTableWidget* m_table;
    QCustomPlot* m_plot;
    QCPErrorBars* m_errorBars = nullptr; // owned by m_plot

    QThread* m_thread = nullptr;
    std::atomic<bool> m_cancelFlag{false};
    // Written by the worker, read on the GUI thread after QThread::finished.
    std::optional<SweepOutcome> m_pending;
    QString m_pendingError;
    std::optional<SweepOutcome> m_outcome;
};

} // namespace windscope::gui
