// SPDX-License-Identifier: GPL-3.0-or-later
#include "connection_figure.h"

#include "plots/plot_panel.h"
#include "plots/time_axis.h"

namespace windscope::gui {

ConnectionFigure::ConnectionFigure(std::shared_ptr<const CaptureAnalysis> capture, const FigureRequest& request)
    : m_request(request), m_stack(std::make_unique<PlotStack>())
{
    // A window-sized stack: the "screen" preset and the panels' own layout read it.
    m_stack->resize(1200, 900);
    const CaptureAnalysis& c = *capture;
    m_stack->setSeries(connectionSeries(c, request.connection, request.sender),
                       QObject::tr("Connection %1: %2").arg(request.connection).arg(connectionText(c, request.connection)));
    if (request.stevens)
        m_stack->setSequenceStyle(TimeSequencePlot::Style::Stevens);
    TimeAxis* axis = m_stack->timeAxis();
    if (request.event >= 0 && static_cast<std::size_t>(request.event) < c.events.events.size()) {
        // As CaptureView::selectEvent shows a clicked event.
        const analysis::WlanEvent& e = c.events.events[static_cast<std::size_t>(request.event)];
        for (PlotPanel* p : m_stack->panels())
            p->setHighlightedEvent(static_cast<long long>(e.id));
        axis->showInterval(static_cast<double>(e.startNs) / 1e9, static_cast<double>(e.endNs) / 1e9);
    } else if (request.range) {
        axis->setRange(request.range->first, request.range->second);
    }
}

ConnectionFigure::~ConnectionFigure() = default;

QList<PlotPanel*> ConnectionFigure::panels() const
{
    if (m_request.plots.isEmpty())
        return m_stack->panels();
    QList<PlotPanel*> chosen;
    for (PlotKind k : m_request.plots)
        chosen << m_stack->panel(k);
    return chosen;
}

bool ConnectionFigure::write(const QString& path, QString* error) const
{
    return exportPlots(panels(), path, m_request.preset, error);
}

QImage ConnectionFigure::image() const { return renderPlotsImage(panels(), m_request.preset); }

} // namespace windscope::gui
