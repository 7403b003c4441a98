// SPDX-License-Identifier: GPL-3.0-or-later
#include "wlan_lane_plot.h"

#include "analysis/series/view_bins.h"

namespace windscope::gui {

namespace {

using analysis::LaneFrameClass;

// Colour roles of the frame rows: data to the station green as its bins, data from it
// blue, power save orange, management purple, control grey; the Retry bit red.
constexpr int kRowRoles[analysis::kLaneFrameClassCount] = {7, 1, 0, 2, 4};
constexpr int kRetryRole = 3;
// Labels beyond this many would print on top of each other on a lane this short.
constexpr std::size_t kMaxFrameLabels = 40;
// A frame's row on the left axis: its class, bottom to top, from 1.
double rowOf(LaneFrameClass c) { return static_cast<double>(c) + 1; }

QPainterPath verticalTick()
{
    // ±3 units: QCPScatterStyle draws a custom path scaled by size / 6.
    QPainterPath path;
    path.moveTo(0, -3);
    path.lineTo(0, 3);
    return path;
}

} // namespace

WlanLanePlot::WlanLanePlot(TimeAxis* axis, QWidget* parent) : PlotPanel(axis, QStringLiteral("802.11"), parent)
{
    yAxis2->setVisible(true);
    m_received = &addSeries(QStringLiteral("frames to station"), LodSeries::Mode::Line, 1);
    m_retries = &addSeries(QStringLiteral("Retry bit set"), LodSeries::Mode::Line, 3);
    m_failed = &addSeries(QStringLiteral("repeated transmissions"), LodSeries::Mode::Line, 5);
    m_rate = &addSeries(QStringLiteral("data rate"), LodSeries::Mode::Line, 0, yAxis2);
    m_signal = &addSeries(QStringLiteral("signal"), LodSeries::Mode::Line, 6);
    for (LodGraph* g : {m_received, m_retries, m_failed})
        g->unit = QStringLiteral("per bin");
    m_rate->unit = QStringLiteral("Mb/s");
    m_signal->unit = QStringLiteral("dBm");
    for (LodGraph* g : {m_received, m_retries, m_failed, m_rate})
        g->graph->setLineStyle(QCPGraph::lsStepLeft);
    // Signal is read from the crosshair; a third scale on this short lane would crowd it.
    m_signal->graph->setVisible(false);
    m_signal->graph->removeFromLegend();

    for (std::size_t c = 0; c < analysis::kLaneFrameClassCount; ++c) {
        const auto cls = static_cast<LaneFrameClass>(c);
        LodGraph& row = addSeries(QString::fromLatin1(analysis::laneFrameClassTitle(cls)), LodSeries::Mode::Points,
                                  kRowRoles[c]);
        row.shape = QCPScatterStyle::ssCustom;
        row.customShape = verticalTick();
        row.shapeSize = 14;
        row.describe = [this, c](std::size_t i) { return describeFrame(m_rowFrames[c][i]); };
        row.autoscale = false; // the rows keep their places: the axis shows all five
        m_frameRows[c] = &row;
    }
    m_retryMarks = &addSeries(QStringLiteral("Retry bit"), LodSeries::Mode::Points, kRetryRole);
    m_retryMarks->shape = QCPScatterStyle::ssTriangle;
    m_retryMarks->shapeSize = 5;
    m_retryMarks->describe = [this](std::size_t i) { return describeFrame(m_retryFrames[i]); };
    m_retryMarks->autoscale = false;
    applyGraphStyle(*m_retryMarks);
    for (LodGraph* g : m_frameRows)
        applyGraphStyle(*g);

    m_countTicker = yAxis->ticker();
    m_rowTicker = QSharedPointer<QCPAxisTickerText>::create();
    // Short row names: the stack's left margin is shared by every plot; the legend
    // spells them out.
    const QStringList rowNames = {tr("ctrl"), tr("to STA"), tr("from STA"), tr("PS"), tr("mgmt")};
    for (std::size_t c = 0; c < analysis::kLaneFrameClassCount; ++c)
        m_rowTicker->addTick(rowOf(static_cast<LaneFrameClass>(c)), rowNames[static_cast<qsizetype>(c)]);
    yAxis->setLabel(QStringLiteral("802.11 frames"));
    yAxis2->setLabel(QStringLiteral("Mb/s"));
    m_showsFrames = true; // so that the bins' mode is applied in full
    setFrameMode(false);
}

void WlanLanePlot::setSeries(const analysis::ConnectionSeries& s)
{
    m_source = &s;
    m_binSeconds = 0;
    // The frames, once: the view only decides whether they are shown.
    std::array<analysis::XySeries, analysis::kLaneFrameClassCount> rows;
    analysis::XySeries retries;
    for (auto& r : m_rowFrames)
        r.clear();
    m_retryFrames.clear();
    for (std::size_t i = 0; i < s.lane.frames.size(); ++i) {
        const analysis::LaneFrame& f = s.lane.frames[i];
        const LaneFrameClass cls = analysis::laneFrameClass(f);
        const auto c = static_cast<std::size_t>(cls);
        rows[c].push(f.time, rowOf(cls));
        m_rowFrames[c].push_back(i);
        if (f.mac.frameControl & 0x0800) { // Retry (9.2.4.1.1)
            retries.push(f.time, rowOf(cls) + 0.35);
            m_retryFrames.push_back(i);
        }
    }
    for (std::size_t c = 0; c < rows.size(); ++c)
        setXyData(*m_frameRows[c], rows[c]);
    setXyData(*m_retryMarks, retries);
    setEventBands(s.lane.events, true);
    setEmptyMessage(s.lane.station < 0 ? tr("no 802.11 station known for this connection")
                    : s.lane.events.empty() && s.lane.frames.empty()
                        ? tr("station %1: no events").arg(QString::fromStdString(s.lane.stationMac))
                        : QString());
    refreshLevelOfDetail();
    replot(rpQueuedReplot);
}

void WlanLanePlot::seriesCleared()
{
    m_source = nullptr;
    for (QCPItemText* label : m_labels)
        removeItem(label);
    m_labels.clear();
}

void WlanLanePlot::viewChanged(double lower, double upper, int columns)
{
    if (!m_source)
        return;
    const analysis::WlanLaneSeries& lane = m_source->lane;
    setFrameMode(!lane.frames.empty() && analysis::frameLevelView(lane, lower, upper, columns));
    if (m_showsFrames) {
        // Ticks as tall as most of a row, however high the lane is drawn.
        const double rowPixels = std::fabs(yAxis->coordToPixel(2) - yAxis->coordToPixel(1));
        for (LodGraph* row : m_frameRows)
            if (const double size = std::clamp(rowPixels * 0.8, 3.0, 14.0); size != row->shapeSize) {
                row->shapeSize = size;
                applyGraphStyle(*row);
            }
        labelFrames(lower, upper);
        return;
    }
    labelFrames(0, -1);
    const double bin = analysis::viewBinSeconds(lower, upper, columns);
    // One bin beyond each edge, so the step lines reach both edges of the plot.
    const analysis::LaneBins view = analysis::binLane(lane, m_source->startSeconds, lower - bin, upper + bin, bin);
    setXyData(*m_received, view.framesReceived);
    setXyData(*m_retries, view.retries);
    setXyData(*m_failed, view.failedAttempts);
    setXyData(*m_rate, view.rateMbps);
    setXyData(*m_signal, view.signalDbm);
    if (bin != m_binSeconds)
        m_received->graph->setName(
            QStringLiteral("frames to station (%1 bins)").arg(QString::fromStdString(analysis::binWidthText(bin))));
    m_binSeconds = bin;
}

void WlanLanePlot::setFrameMode(bool frames)
{
    if (frames == m_showsFrames)
        return;
    m_showsFrames = frames;
    for (LodGraph* g : {m_received, m_retries, m_failed, m_rate}) {
        g->graph->setVisible(!frames);
        frames ? g->graph->removeFromLegend() : g->graph->addToLegend();
    }
    std::vector<LodGraph*> frameGraphs(m_frameRows.begin(), m_frameRows.end());
    frameGraphs.push_back(m_retryMarks);
    for (LodGraph* g : frameGraphs) {
        g->graph->setVisible(frames);
        frames ? g->graph->addToLegend() : g->graph->removeFromLegend();
    }
    yAxis->setTicker(frames ? QSharedPointer<QCPAxisTicker>(m_rowTicker) : m_countTicker);
    // Each frame's rate is in the crosshair's text: dots on a rate scale would fall
    // among the rows.
    yAxis2->setVisible(!frames);
    if (frames) // every row, with room above the top one for its frames' names
        yAxis->setRange(0.4, rowOf(LaneFrameClass::Management) + 1.1);
    yAxis->setLabel(frames ? QString() : QStringLiteral("802.11 frames"));
}

void WlanLanePlot::labelFrames(double lower, double upper)
{
    for (QCPItemText* label : m_labels)
        removeItem(label);
    m_labels.clear();
    if (!m_source || !(upper > lower))
        return;
    const analysis::WlanLaneSeries& lane = m_source->lane;
    const auto [first, last] = analysis::laneFramesBetween(lane, lower, upper);
    QFont small = font();
    small.setPointSizeF(std::max(5.0, plotStyle().fontPt - 1.5));
    for (std::size_t i = first; i < last && m_labels.size() < kMaxFrameLabels; ++i) {
        const analysis::LaneFrame& f = lane.frames[i];
        if (!analysis::laneFrameLabelled(f))
            continue;
        auto* text = new QCPItemText(this);
        text->setClipToAxisRect(true);
        text->position->setType(QCPItemPosition::ptPlotCoords);
        text->position->setCoords(f.time, rowOf(analysis::laneFrameClass(f)) + 0.45);
        text->setPositionAlignment(Qt::AlignLeft | Qt::AlignBottom);
        text->setText(QString::fromStdString(analysis::laneFrameLabel(f)));
        text->setFont(small);
        text->setColor(seriesColor(kRowRoles[static_cast<std::size_t>(analysis::laneFrameClass(f))],
                                   plotStyle().grayscale));
        m_labels.push_back(text);
    }
}

QStringList WlanLanePlot::frameLabels() const
{
    QStringList out;
    for (const QCPItemText* label : m_labels)
        out << label->text();
    return out;
}

QString WlanLanePlot::describeFrame(std::size_t laneIndex) const
{
    if (!m_source || laneIndex >= m_source->lane.frames.size())
        return {};
    const analysis::LaneFrame& f = m_source->lane.frames[laneIndex];
    QString text = QStringLiteral("frame %1: %2 %3").arg(f.frame).arg(QString::fromStdString(analysis::laneFrameLabel(f)),
                                                          f.sent ? tr("from station") : tr("to station"));
    if (f.mac.dataRateKbps)
        text += QStringLiteral(", %1 Mb/s").arg(f.mac.dataRateKbps / 1000.0, 0, 'g', 4);
    if (f.mac.signalDbm != dissect::WlanColumns::kNoSignal)
        text += QStringLiteral(", %1 dBm").arg(f.mac.signalDbm);
    if (f.mac.status & dissect::WlanColumns::kMacDuplicate)
        text += tr(", repeated transmission");
    return text;
}

} // namespace windscope::gui
