// SPDX-License-Identifier: GPL-3.0-or-later
#include "connection_figure.h"

#include "analysis/series/view_bins.h"
#include "analysis/wlan/wlan_events.h"

#include <QCoreApplication>

#include <algorithm>

namespace windscope::render {

namespace {

QString tr(const char* text) { return QCoreApplication::translate("ConnectionFigure", text); }

// The colour palette of the on-screen plots (Tableau 10).
const QColor kBlue(31, 119, 180), kGreen(44, 160, 44), kOrange(255, 127, 14), kRed(214, 39, 40),
    kPurple(148, 103, 189), kBrown(140, 86, 75), kCyan(23, 190, 207), kGrey(127, 127, 127);

QColor grey(int level) { return QColor(level, level, level); }

SeriesLook look(SeriesStyle colour, SeriesStyle greyStyle) { return {colour, greyStyle}; }

PlotSeries xy(const QString& name, SeriesShape shape, const SeriesLook& l, const analysis::XySeries& s,
              double scale = 1.0)
{
    PlotSeries p;
    p.name = name;
    p.shape = shape;
    p.look = l;
    std::vector<double> v(s.v);
    if (scale != 1.0)
        for (double& x : v)
            x *= scale;
    p.data.setData(s.t, std::move(v));
    return p;
}

PlotSeries ranges(const QString& name, SeriesShape shape, const SeriesLook& l, const analysis::RangeSeries& s)
{
    PlotSeries p;
    p.name = name;
    p.shape = shape;
    p.look = l;
    // Marks sit at the first byte of their range (tcp.seq); bars span it.
    if (shape == SeriesShape::Bars)
        p.data.setData(s.t, s.lo, s.hi);
    else
        p.data.setData(s.t, s.lo);
    // Marks are never thinned: each retransmission stays visible at any zoom.
    p.data.setKeepAll(shape == SeriesShape::Points);
    return p;
}

Panel timeSequencePanel(const analysis::ConnectionSeries& s, bool stevens)
{
    const analysis::TimeSequenceSeries& ts = s.timeSequence;
    Panel p;
    p.kind = PlotKind::TimeSequence;
    p.left = {tr("relative sequence"), Quantity::Bytes, false};
    p.stretch = 3;
    if (!stevens) {
        PlotSeries rwnd = xy(QStringLiteral("rwnd edge"), SeriesShape::Step,
                             look({kOrange, Qt::SolidLine, 0.8}, {grey(110), Qt::DotLine, 0.9}), ts.rwnd);
        rwnd.autoscale = false;
        p.series.push_back(std::move(rwnd));
        p.series.push_back(xy(QStringLiteral("ACK"), SeriesShape::Step,
                              look({kGreen, Qt::SolidLine, 0.8}, {grey(60), Qt::DashLine, 0.8}), ts.ack));
        p.series.push_back(ranges(QStringLiteral("SACK"), SeriesShape::Bars,
                                  look({kPurple, Qt::SolidLine, 1.6}, {grey(150), Qt::SolidLine, 1.6, Marker::Plus, 3}),
                                  ts.sackBlocks));
        p.series.push_back(ranges(QStringLiteral("data"), SeriesShape::Bars,
                                  look({kBlue, Qt::SolidLine, 0.6}, {grey(0), Qt::SolidLine, 0.5}), ts.segments));
    } else {
        // Stevens: a dot per segment at its first byte.
        p.series.push_back(ranges(QStringLiteral("data"), SeriesShape::Points,
                                  look({kBlue, Qt::SolidLine, 0.6, Marker::Disc, 1.6}, {grey(0), Qt::SolidLine, 0.6, Marker::Disc, 1.6}),
                                  ts.segments));
        p.series.back().data.setKeepAll(false);
    }
    p.series.push_back(ranges(QStringLiteral("retransmission"), SeriesShape::Points,
                              look({kRed, Qt::SolidLine, 0.8, Marker::Circle, 4.5}, {grey(0), Qt::SolidLine, 0.8, Marker::Circle, 4.5}),
                              ts.retransmissions));
    p.series.push_back(ranges(QStringLiteral("RTO retransmission"), SeriesShape::Points,
                              look({kRed, Qt::SolidLine, 0.8, Marker::FilledTriangle, 5.5},
                                   {grey(0), Qt::SolidLine, 0.8, Marker::FilledTriangle, 5.5}),
                              ts.rtoRetransmissions));
    p.series.push_back(ranges(QStringLiteral("zero-window probe"), SeriesShape::Points,
                              look({kBrown, Qt::SolidLine, 0.8, Marker::Diamond, 5}, {grey(0), Qt::SolidLine, 0.8, Marker::Diamond, 5}),
                              ts.zeroWindowProbes));
    p.series.push_back(xy(QStringLiteral("zero window"), SeriesShape::Points,
                          look({kCyan, Qt::SolidLine, 0.8, Marker::FilledSquare, 4}, {grey(70), Qt::SolidLine, 0.8, Marker::FilledSquare, 4}),
                          ts.zeroWindows));
    p.series.back().data.setKeepAll(true);
    p.bands = s.lane.events;
    p.emptyReason = tr("no data segments");
    return p;
}

Panel windowPanel(const analysis::ConnectionSeries& s)
{
    const analysis::WindowSeries& w = s.window;
    Panel p;
    p.kind = PlotKind::Window;
    p.left = {tr("window"), Quantity::Bytes, true};
    p.stretch = 2.5;
    // The receive window, what the sender could send (the effective window) and what it
    // had in flight set the scale; the inferred cwnd and ssthresh are clipped where they
    // run above them (as the desktop's window plot draws it).
    p.series.push_back(xy(QStringLiteral("rwnd"), SeriesShape::Step,
                          look({kOrange, Qt::SolidLine, 0.8}, {grey(120), Qt::DotLine, 0.9}), w.rwnd));
    p.series.push_back(xy(QStringLiteral("bytes in flight"), SeriesShape::Points,
                          look({kBlue, Qt::SolidLine, 0.5, Marker::Disc, 1.5}, {grey(120), Qt::SolidLine, 0.5, Marker::Disc, 1.5}),
                          w.bytesInFlight));
    p.series.push_back(xy(QStringLiteral("effective window"), SeriesShape::Step,
                          look({kGreen, Qt::SolidLine, 1.2}, {grey(80), Qt::DashLine, 1.2}), w.effective));
    const QString cwnd = w.cwndModel.empty() ? QStringLiteral("cwnd")
                                             : QStringLiteral("cwnd (%1)").arg(QString::fromStdString(w.cwndModel));
    PlotSeries cwndSeries = xy(cwnd, SeriesShape::Step, look({kRed, Qt::SolidLine, 1.0}, {grey(0), Qt::SolidLine, 1.0}), w.cwnd);
    cwndSeries.autoscale = false;
    p.series.push_back(std::move(cwndSeries));
    PlotSeries ssthresh = xy(QStringLiteral("ssthresh"), SeriesShape::Step,
                             look({kPurple, Qt::DashLine, 0.8}, {grey(40), Qt::DashDotLine, 0.8}), w.ssthresh);
    ssthresh.autoscale = false;
    p.series.push_back(std::move(ssthresh));
    p.bands = s.lane.events;
    p.emptyReason = w.cwndNotFollowed.empty() ? tr("no window samples")
                                              : tr("cwnd not inferred: %1").arg(QString::fromStdString(w.cwndNotFollowed));
    return p;
}

Panel throughputPanel(const analysis::ConnectionSeries& s)
{
    Panel p;
    p.kind = PlotKind::Throughput;
    p.left = {tr("rate"), Quantity::BitRate, true};
    p.stretch = 2;
    p.series.push_back(xy(QStringLiteral("throughput (%1 bins)").arg(QString::fromStdString(analysis::binWidthText(s.rate.binSeconds))),
                          SeriesShape::Step, look({kBlue, Qt::SolidLine, 0.9}, {grey(0), Qt::SolidLine, 0.9}),
                          s.rate.throughput));
    p.series.push_back(xy(QStringLiteral("goodput"), SeriesShape::Step,
                          look({kGreen, Qt::SolidLine, 0.9}, {grey(90), Qt::DashLine, 0.9, Marker::Circle, 3.5}),
                          s.rate.goodput));
    p.bands = s.lane.events;
    p.emptyReason = tr("no throughput bins");
    return p;
}

Panel rttPanel(const analysis::ConnectionSeries& s)
{
    Panel p;
    p.kind = PlotKind::Rtt;
    p.left = {tr("RTT"), Quantity::Milliseconds, true};
    p.stretch = 2;
    p.series.push_back(xy(QStringLiteral("RTT (timestamps)"), SeriesShape::Points,
                          look({kGrey, Qt::SolidLine, 0.6, Marker::Plus, 3.5}, {grey(100), Qt::SolidLine, 0.6, Marker::Plus, 3.5}),
                          s.rtt.timestamps));
    p.series.push_back(xy(QStringLiteral("RTT (seq/ack)"), SeriesShape::Points,
                          look({kBlue, Qt::SolidLine, 0.6, Marker::Disc, 2.2}, {grey(0), Qt::SolidLine, 0.6, Marker::Disc, 2.2}),
                          s.rtt.seqAck));
    p.bands = s.lane.events;
    p.emptyReason = tr("no RTT samples");
    return p;
}

Panel lanePanel(const analysis::ConnectionSeries& s)
{
    const analysis::WlanLaneSeries& lane = s.lane;
    Panel p;
    p.kind = PlotKind::WlanLane;
    p.left = {tr("802.11 frames"), Quantity::Count, true};
    p.right = PanelAxis{tr("data rate"), Quantity::BitRate, true};
    p.stretch = 2;
    p.bands = lane.events;
    p.bandLabels = true;
    if (lane.station < 0) {
        // Without a station the lane would only repeat the bands of the panels above.
        p.emptyReason = tr("no 802.11 station known for this connection");
        return p;
    }
    p.bandsAreContent = true;
    p.series.push_back(xy(QStringLiteral("frames to station"), SeriesShape::Step,
                          look({kGreen, Qt::SolidLine, 0.8}, {grey(140), Qt::SolidLine, 0.8}), lane.bins.framesReceived));
    p.series.push_back(xy(QStringLiteral("Retry bit set"), SeriesShape::Step,
                          look({kRed, Qt::SolidLine, 0.8}, {grey(0), Qt::DashLine, 0.8, Marker::Triangle, 3.5}), lane.bins.retries));
    p.series.push_back(xy(QStringLiteral("repeated transmissions"), SeriesShape::Step,
                          look({kBrown, Qt::SolidLine, 0.8}, {grey(70), Qt::DotLine, 0.9, Marker::Square, 3.2}),
                          lane.bins.failedAttempts));
    // Mb/s in the series; bit/s here so the axis picks its unit like the rate panel.
    PlotSeries rate = xy(QStringLiteral("data rate"), SeriesShape::Step,
                         look({kBlue, Qt::SolidLine, 0.8}, {grey(40), Qt::DashDotLine, 0.8, Marker::Diamond, 3.5}),
                         lane.bins.rateMbps, 1e6);
    rate.rightAxis = true;
    p.series.push_back(std::move(rate));
    p.emptyReason = tr("station %1: no 802.11 frames or events in range").arg(QString::fromStdString(lane.stationMac));
    return p;
}

FigureFrame frameFor(const analysis::ConnectionSeries& series, const FigureOptions& options)
{
    FigureFrame f;
    const auto range = options.range.value_or(wholeConnectionRange(series));
    f.lower = range.first;
    f.upper = range.second;
    f.highlightedEvent = options.highlightedEvent;
    f.preset = options.preset;
    f.screenSize = options.screenSize;
    return f;
}

} // namespace

std::pair<double, double> wholeConnectionRange(const analysis::ConnectionSeries& series)
{
    const double span = series.endSeconds - series.startSeconds;
    double lower = series.startSeconds - span * 0.01, upper = series.endSeconds + span * 0.01;
    if (!(upper > lower))
        upper = lower + 1e-3;
    return {lower, upper};
}

std::pair<double, double> intervalWithMargin(double lower, double upper, double marginFraction, double minMargin)
{
    const double margin = std::max((upper - lower) * marginFraction, minMargin);
    return {lower - margin, upper + margin};
}

std::pair<double, double> eventRange(const analysis::WlanEvent& event)
{
    return intervalWithMargin(static_cast<double>(event.startNs) / 1e9, static_cast<double>(event.endNs) / 1e9);
}

std::vector<Panel> connectionPanels(const analysis::ConnectionSeries& whole, const FigureOptions& options)
{
    // A time range re-bins the rates and the lane for it, as the window does when zoomed;
    // the plot is as many columns wide as the figure is at 96 dpi.
    std::optional<analysis::ConnectionSeries> view;
    if (options.range) {
        const double widthMm = isScreenPreset(options.preset) ? options.screenSize.width() * 25.4 / 96
                                                              : options.preset.widthMm;
        const int columns = std::max(100, static_cast<int>(widthMm / 25.4 * 96));
        view = analysis::seriesForView(whole, options.range->first, options.range->second, columns);
    }
    const analysis::ConnectionSeries& series = view ? *view : whole;
    const QList<PlotKind> kinds = options.plots.isEmpty() ? allPlotKinds() : options.plots;
    std::vector<Panel> panels;
    for (PlotKind k : kinds) {
        switch (k) {
        case PlotKind::TimeSequence: panels.push_back(timeSequencePanel(series, options.stevens)); break;
        case PlotKind::Window: panels.push_back(windowPanel(series)); break;
        case PlotKind::Throughput: panels.push_back(throughputPanel(series)); break;
        case PlotKind::Rtt: panels.push_back(rttPanel(series)); break;
        case PlotKind::WlanLane: panels.push_back(lanePanel(series)); break;
        }
    }
    return panels;
}

ConnectionFigure::ConnectionFigure(const analysis::ConnectionSeries& series, const FigureOptions& options)
    : m_options(options), m_painter(connectionPanels(series, options), frameFor(series, options))
{
}

bool ConnectionFigure::write(const QString& path, QString* error) const
{
    return writeFigure(m_painter, m_options.preset.dpi, path, error);
}

QImage ConnectionFigure::image() const { return figureImage(m_painter, m_options.preset.dpi); }

} // namespace windscope::render
