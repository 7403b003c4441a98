// SPDX-License-Identifier: GPL-3.0-or-later
// Replot time of a time-sequence plot holding 5 million data segments (plus ACK line
// and retransmission marks) while panning: each step moves the shared time axis, which
// re-reduces every series to the pixel columns (LodSeries) and redraws the plot.
// Usage: windscope-bench-replot [segments] [pans]; prints ms per replot.

#include "plots/time_axis.h"
#include "plots/time_sequence_plot.h"

#include <QApplication>
#include <QElapsedTimer>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

namespace {

windscope::analysis::ConnectionSeries syntheticTransfer(std::size_t segments)
{
    // A bulk transfer at ~1 Gb/s: 1448-byte segments every 11.6 us, an ACK every second
    // segment, a loss episode (retransmission) every 1000 segments.
    windscope::analysis::ConnectionSeries s;
    auto& ts = s.timeSequence;
    std::mt19937 rng(1);
    std::uniform_real_distribution<double> jitter(0, 4e-6);
    double seq = 0;
    for (std::size_t i = 0; i < segments; ++i) {
        const double t = static_cast<double>(i) * 11.6e-6 + jitter(rng);
        ts.segments.push(t, seq, seq + 1448, i + 1);
        if (i % 1000 == 999)
            ts.retransmissions.push(t, seq - 20 * 1448, seq - 19 * 1448, i + 1);
        if (i % 2 == 1) {
            ts.ack.push(t + 5e-6, seq + 1448);
            ts.rwnd.push(t + 5e-6, seq + 1448 + 3e6);
        }
        seq += 1448;
    }
    s.startSeconds = ts.segments.t.front();
    s.endSeconds = ts.segments.t.back();
    return s;
}

struct Stats
{
    double mean = 0, median = 0, max = 0;
    double reduceMean = 0;                 // of which: re-reducing the series (LodSeries)
};

Stats pan(windscope::gui::TimeSequencePlot& plot, windscope::gui::TimeAxis& axis, int pans)
{
    std::vector<double> ms;
    double reduce = 0;
    QElapsedTimer timer;
    for (int i = 0; i < pans; ++i) {
        timer.start();
        axis.pan(i % 50 < 25 ? 0.01 : -0.01); // re-reduces the series (range change)
        reduce += static_cast<double>(timer.nsecsElapsed()) / 1e6;
        plot.replot(QCustomPlot::rpImmediateRefresh);
        ms.push_back(static_cast<double>(timer.nsecsElapsed()) / 1e6);
    }
    Stats s;
    s.reduceMean = reduce / pans;
    for (double v : ms)
        s.mean += v / static_cast<double>(ms.size());
    std::sort(ms.begin(), ms.end());
    s.median = ms[ms.size() / 2];
    s.max = ms.back();
    return s;
}

} // namespace

int main(int argc, char** argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM") && qEnvironmentVariableIsEmpty("DISPLAY") &&
        qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    const std::size_t segments = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 5'000'000;
    const int pans = argc > 2 ? std::atoi(argv[2]) : 100;

    QElapsedTimer build;
    build.start();
    const windscope::analysis::ConnectionSeries series = syntheticTransfer(segments);
    windscope::gui::TimeAxis axis;
    windscope::gui::TimeSequencePlot plot(&axis);
    plot.resize(1600, 600);
    plot.show();
    plot.setSeries(series);
    axis.setFullRange(series.startSeconds, series.endSeconds);
    plot.replot(QCustomPlot::rpImmediateRefresh);
    const double loadMs = static_cast<double>(build.nsecsElapsed()) / 1e6;
    const std::size_t points = series.timeSequence.segments.size() + series.timeSequence.ack.size() +
                               series.timeSequence.rwnd.size() + series.timeSequence.retransmissions.size();

    std::printf("series: %zu segments, %zu points in all; built and first drawn in %.0f ms\n", segments,
                points, loadMs);
    // Whole transfer in view: every pixel column holds thousands of segments.
    axis.setRange(series.startSeconds, series.endSeconds);
    Stats s = pan(plot, axis, pans);
    std::printf("full view   (%d pans): %.2f ms mean, %.2f ms median, %.2f ms max per replot (%.2f ms reducing)\n", pans,
                s.mean, s.median, s.max, s.reduceMean);
    // A tenth of it: still reduced, with the retransmission marks drawn one by one.
    axis.setRange(series.startSeconds, series.startSeconds + (series.endSeconds - series.startSeconds) / 10);
    s = pan(plot, axis, pans);
    std::printf("10%% view    (%d pans): %.2f ms mean, %.2f ms median, %.2f ms max per replot (%.2f ms reducing)\n", pans,
                s.mean, s.median, s.max, s.reduceMean);
    // A few milliseconds: every point drawn.
    axis.setRange(series.startSeconds + 1.0, series.startSeconds + 1.005);
    s = pan(plot, axis, pans);
    std::printf("5 ms view   (%d pans): %.2f ms mean, %.2f ms median, %.2f ms max per replot (%.2f ms reducing)\n", pans,
                s.mean, s.median, s.max, s.reduceMean);
    return 0;
}
