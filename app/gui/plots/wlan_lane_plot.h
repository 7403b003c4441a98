// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The 802.11 lane of the connection's station: its events as labelled bands (scan,
// power save, handoff, TCP-only outage) and, re-binned for what is in view, frames to
// the station, MAC retries, repeated transmissions and the mean data rate (right axis)
// per bin. Zoomed in far enough for every frame to be told apart, the bins give way to
// the frames themselves: one tick per frame in a row per class (control, data to and
// from the station, power save, management), the Retry bit marked and the kind of
// every non-data frame written by its tick; the crosshair reads each frame's rate and signal.

#include "plot_panel.h"

#include <array>

namespace windscope::gui {

class WlanLanePlot : public PlotPanel
{
    Q_OBJECT
public:
    explicit WlanLanePlot(TimeAxis* axis, QWidget* parent = nullptr);
    void setSeries(const analysis::ConnectionSeries& series) override;
    int stretch() const override { return 3; }
    // Whether the lane shows frames (true) or bins, and the bin width, as last drawn.
    bool showsFrames() const { return m_showsFrames; }
    double binSeconds() const { return m_binSeconds; }
    // The frame kinds written by their ticks, left to right, as last drawn.
    QStringList frameLabels() const;

protected:
    void viewChanged(double lower, double upper, int columns) override;
    void seriesCleared() override;

private:
    void setFrameMode(bool frames);
    void labelFrames(double lower, double upper);
    QString describeFrame(std::size_t laneIndex) const;

    LodGraph *m_received, *m_retries, *m_failed, *m_rate, *m_signal;
    std::array<LodGraph*, 5> m_frameRows{};          // one per analysis::LaneFrameClass
    std::array<std::vector<std::size_t>, 5> m_rowFrames; // lane.frames index of each point
    LodGraph* m_retryMarks = nullptr;
    std::vector<std::size_t> m_retryFrames;
    std::vector<QCPItemText*> m_labels;
    // The plot stack's series, alive until the next setSeries or clearSeries.
    const analysis::ConnectionSeries* m_source = nullptr;
    bool m_showsFrames = false;
    double m_binSeconds = 0;
    QSharedPointer<QCPAxisTicker> m_countTicker;
    QSharedPointer<QCPAxisTickerText> m_rowTicker;
};

} // namespace windscope::gui
