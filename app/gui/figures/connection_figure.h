// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A connection's plots set up as the window shows them, without a window: the plot
// stack the desktop application uses, given a connection, the plots wanted, a preset
// and what to zoom to, then drawn by the same export code (plots/plot_export). Used by
// windscope-cli export and by reports. Needs a QApplication (the offscreen platform
// will do).

#include "model/capture_analysis.h"
#include "plots/plot_export.h"
#include "plots/plot_stack.h"

#include <memory>
#include <optional>
#include <utility>

namespace windscope::gui {

struct FigureRequest
{
    std::size_t connection = 0;     // index in TcpAnalysis::connections
    int sender = -1;                // endpoint whose data is plotted; -1: the one that sent more
    QList<PlotKind> plots;          // top to bottom; empty: the whole stack
    ExportPreset preset;
    // What to show: an event (index in WlanEvents::events) with the margin a click in
    // the event table gives, else a time range (seconds since the capture's first
    // packet, as the plots' axis), else the whole connection.
    int event = -1;
    std::optional<std::pair<double, double>> range;
    bool stevens = false;           // Stevens-style time-sequence graph (default tcptrace)
};

class ConnectionFigure
{
public:
    ConnectionFigure(std::shared_ptr<const CaptureAnalysis> capture, const FigureRequest& request);
    ~ConnectionFigure();
    ConnectionFigure(const ConnectionFigure&) = delete;
    ConnectionFigure& operator=(const ConnectionFigure&) = delete;

    QList<PlotPanel*> panels() const;
    PlotStack* stack() const { return m_stack.get(); }
    const analysis::ConnectionSeries& series() const { return *m_stack->series(); }
    // The figure to path; the format follows the suffix (.png, .pdf, .svg).
    bool write(const QString& path, QString* error) const;
    QImage image() const;

private:
    FigureRequest m_request;
    std::unique_ptr<PlotStack> m_stack;
};

} // namespace windscope::gui
