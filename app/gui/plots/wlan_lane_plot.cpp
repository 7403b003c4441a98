// SPDX-License-Identifier: GPL-3.0-or-later
#include "wlan_lane_plot.h"

namespace windscope::gui {

WlanLanePlot::WlanLanePlot(TimeAxis* axis, QWidget* parent) : PlotPanel(axis, QStringLiteral("802.11"), parent)
{
    yAxis2->setVisible(true);
    m_received = &addSeries(QStringLiteral("frames to station"), LodSeries::Mode::Line, 1);
    m_received->unit = QStringLiteral("per bin");
    m_received->graph->setLineStyle(QCPGraph::lsStepLeft);
    m_retries = &addSeries(QStringLiteral("Retry bit set"), LodSeries::Mode::Line, 3);
    m_failed = &addSeries(QStringLiteral("repeated transmissions"), LodSeries::Mode::Line, 5);
    m_rate = &addSeries(QStringLiteral("data rate"), LodSeries::Mode::Line, 0, yAxis2);
    m_signal = &addSeries(QStringLiteral("signal"), LodSeries::Mode::Line, 6);
    m_retries->unit = QStringLiteral("per bin");
    m_rate->unit = QStringLiteral("Mb/s");
    m_signal->unit = QStringLiteral("dBm");
    m_failed->unit = QStringLiteral("per bin");
    m_retries->graph->setLineStyle(QCPGraph::lsStepLeft);
    m_failed->graph->setLineStyle(QCPGraph::lsStepLeft);
    m_rate->graph->setLineStyle(QCPGraph::lsStepLeft);
    // Signal is read from the crosshair; a third scale on this short lane would crowd it.
    m_signal->graph->setVisible(false);
    m_signal->graph->removeFromLegend();
    yAxis->setLabel(QStringLiteral("802.11 frames"));
    yAxis2->setLabel(QStringLiteral("Mb/s"));
}

void WlanLanePlot::setSeries(const analysis::ConnectionSeries& s)
{
    setXyData(*m_received, s.lane.framesReceived);
    setXyData(*m_retries, s.lane.retries);
    setXyData(*m_failed, s.lane.failedAttempts);
    setXyData(*m_rate, s.lane.rateMbps);
    setXyData(*m_signal, s.lane.signalDbm);
    yAxis->setLabel(QStringLiteral("802.11 frames"));
    setEventBands(s.lane.events, true);
    setEmptyMessage(s.lane.station < 0 ? tr("no 802.11 station known for this connection")
                    : s.lane.events.empty() && s.lane.framesReceived.size() == 0
                        ? tr("station %1: no events").arg(QString::fromStdString(s.lane.stationMac))
                        : QString());
    refreshLevelOfDetail();
    replot(rpQueuedReplot);
}

} // namespace windscope::gui
