// SPDX-License-Identifier: GPL-3.0-or-later
#include "plot_panel.h"

#include "time_axis.h"

#include "render/figure_style.h"

#include <QToolTip>

#include <algorithm>
#include <cmath>
#include <map>

namespace windscope::gui {

namespace {

// Fixed margins keep the time axes of separate plots aligned in a stack.
constexpr int kLeftMargin = 72, kRightMargin = 56;

QString formatValue(double v, const QString& unit)
{
    const QString number = std::fabs(v) >= 1000 || v == std::floor(v) ? QString::number(v, 'f', 0)
                                                                      : QString::number(v, 'g', 6);
    return unit.isEmpty() ? number : number + QLatin1Char(' ') + unit;
}

// Tick labels in a larger unit (kB, Mb/s) while the data and the crosshair keep the
// exact values in the base unit.
class ScaledTicker : public QCPAxisTicker
{
public:
    explicit ScaledTicker(double divisor) : m_divisor(divisor) {}

protected:
    QString getTickLabel(double tick, const QLocale& locale, QChar formatChar, int precision) override
    {
        const double v = tick / m_divisor;
        if (std::fabs(v - std::round(v)) < 1e-9 * std::max(1.0, std::fabs(v)))
            return locale.toString(std::round(v), 'f', 0);
        return QCPAxisTicker::getTickLabel(v, locale, formatChar, precision);
    }

private:
    double m_divisor;
};

} // namespace

void PlotPanel::setValueScale(QCPAxis* axis, double divisor, const QString& label)
{
    axis->setTicker(QSharedPointer<QCPAxisTicker>(new ScaledTicker(divisor)));
    axis->setLabel(label);
}

QColor seriesColor(int role, bool grayscale)
{
    static const QColor colours[] = {QColor(31, 119, 180), QColor(44, 160, 44), QColor(255, 127, 14),
                                     QColor(214, 39, 40),  QColor(148, 103, 189), QColor(140, 86, 75),
                                     QColor(23, 190, 207), QColor(127, 127, 127)};
    static const QColor grays[] = {QColor(0, 0, 0),    QColor(90, 90, 90), QColor(0, 0, 0),
                                   QColor(0, 0, 0),    QColor(60, 60, 60), QColor(120, 120, 120),
                                   QColor(30, 30, 30), QColor(150, 150, 150)};
    const auto i = static_cast<std::size_t>(role) % 8;
    return grayscale ? grays[i] : colours[i];
}

QPen seriesPen(int role, const PlotStyle& style)
{
    QPen pen(seriesColor(role, style.grayscale), style.lineWidth);
    if (style.grayscale) {
        static const Qt::PenStyle patterns[] = {Qt::SolidLine,   Qt::SolidLine, Qt::DashLine,
                                                Qt::DotLine,     Qt::DashDotLine, Qt::DashDotDotLine,
                                                Qt::SolidLine,   Qt::DashLine};
        pen.setStyle(patterns[static_cast<std::size_t>(role) % 8]);
    }
    return pen;
}

PlotPanel::PlotPanel(TimeAxis* axis, const QString& title, QWidget* parent)
    : QCustomPlot(parent), m_axis(axis), m_title(title)
{
    setObjectName(title);
    setFocusPolicy(Qt::StrongFocus);
    setMouseTracking(true);
    setMinimumHeight(90);
    setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    // A click on a legend item shows or hides its series (greyed in the legend while
    // hidden); a hidden series leaves the value axis and the readout.
    connect(this, &QCustomPlot::legendClick, this, [this](QCPLegend*, QCPAbstractLegendItem* item, QMouseEvent*) {
        if (auto* entry = qobject_cast<QCPPlottableLegendItem*>(item))
            toggleSeries(entry);
    });
    axisRect()->setRangeDrag(Qt::Horizontal);
    axisRect()->setRangeZoom(Qt::Horizontal);
    axisRect()->setAutoMargins(QCP::msTop | QCP::msBottom);
    axisRect()->setMargins(QMargins(kLeftMargin, 0, kRightMargin, 0));
    setNoAntialiasingOnDrag(true);
    addLayer(QStringLiteral("bands"), layer(QStringLiteral("grid")), QCustomPlot::limBelow);
    layer(QStringLiteral("overlay"))->setMode(QCPLayer::lmBuffered);
    yAxis->setLabel(title);
    // The legend sits in a row of its own above the plot, one line wide, so it never
    // hides data however the series fill the axis rect.
    legend->setVisible(true);
    axisRect()->insetLayout()->take(legend);
    plotLayout()->insertRow(0);
    plotLayout()->addElement(0, 0, legend);
    plotLayout()->setRowStretchFactor(0, 0.001);
    plotLayout()->setRowSpacing(0);
    legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    legend->setWrap(8);
    legend->setFillOrder(QCPLayoutGrid::foColumnsFirst, true);
    legend->setBorderPen(Qt::NoPen);
    legend->setBrush(Qt::NoBrush);
    legend->setColumnSpacing(12);
    legend->setIconSize(18, 9);
    legend->setMargins(QMargins(0, 2, 0, 0));
    legend->setLayer(QStringLiteral("legend"));

    m_cursorLine = new QCPItemStraightLine(this);
    m_cursorLine->setLayer(QStringLiteral("overlay"));
    m_cursorLine->point1->setTypeY(QCPItemPosition::ptAxisRectRatio);
    m_cursorLine->point2->setTypeY(QCPItemPosition::ptAxisRectRatio);
    m_cursorLine->setPen(QPen(QColor(80, 80, 80), 1, Qt::DashLine));
    m_cursorLine->setVisible(false);
    m_cursorText = new QCPItemText(this);
    m_cursorText->setLayer(QStringLiteral("overlay"));
    m_cursorText->position->setType(QCPItemPosition::ptAxisRectRatio);
    m_cursorText->position->setCoords(0.005, 0.02);
    m_cursorText->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
    m_cursorText->setTextAlignment(Qt::AlignLeft);
    // Translucent: the data under the readout stays visible.
    m_cursorText->setBrush(QColor(255, 255, 255, 170));
    m_cursorText->setPadding(QMargins(3, 1, 3, 1));
    m_cursorText->setVisible(false);
    m_emptyText = new QCPItemText(this);
    m_emptyText->position->setType(QCPItemPosition::ptAxisRectRatio);
    m_emptyText->position->setCoords(0.5, 0.5);
    m_emptyText->setColor(QColor(110, 110, 110));
    m_emptyText->setVisible(false);

    connect(xAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this,
            [this](const QCPRange& r) {
                if (!m_syncing)
                    m_axis->setRange(r.lower, r.upper);
            });
    connect(m_axis, &TimeAxis::rangeChanged, this, &PlotPanel::onAxisRangeChanged);
    connect(m_axis, &TimeAxis::cursorMoved, this, &PlotPanel::onCursorMoved);
    m_syncing = true;
    xAxis->setRange(m_axis->lower(), m_axis->upper());
    m_syncing = false;
    setPlotStyle(PlotStyle{});
}

PlotPanel::~PlotPanel()
{
    if (m_valueLink)
        m_valueLink->m_valueLink = nullptr;
}

LodGraph& PlotPanel::addSeries(const QString& name, LodSeries::Mode mode, int role, QCPAxis* valueAxis)
{
    auto g = std::make_unique<LodGraph>();
    g->name = name;
    g->mode = mode;
    g->role = role;
    g->graph = addGraph(xAxis, valueAxis ? valueAxis : yAxis);
    g->graph->setName(name);
    g->graph->setAdaptiveSampling(false); // the data is already reduced to the pixel columns
    if (mode == LodSeries::Mode::Points)
        g->shape = QCPScatterStyle::ssDisc, g->shapeSize = 3;
    m_graphs.push_back(std::move(g));
    applyGraphStyle(*m_graphs.back());
    return *m_graphs.back();
}

void PlotPanel::applyGraphStyle(LodGraph& g)
{
    QPen pen = seriesPen(g.role, m_style);
    if (g.mode == LodSeries::Mode::Bars)
        pen.setStyle(Qt::SolidLine);
    g.graph->setPen(pen);
    // Keep a wrapper's step style; only switch between drawn and undrawn lines.
    if (g.mode == LodSeries::Mode::Points)
        g.graph->setLineStyle(QCPGraph::lsNone);
    else if (g.graph->lineStyle() == QCPGraph::lsNone || g.mode == LodSeries::Mode::Bars)
        g.graph->setLineStyle(QCPGraph::lsLine);
    if (g.shape == QCPScatterStyle::ssCustom) {
        QPen markPen = pen;
        markPen.setStyle(Qt::SolidLine);
        g.graph->setScatterStyle(QCPScatterStyle(g.customShape, markPen, Qt::NoBrush, g.shapeSize));
    } else if (g.shape != QCPScatterStyle::ssNone) {
        QPen markPen = pen;
        markPen.setStyle(Qt::SolidLine);
        g.graph->setScatterStyle(QCPScatterStyle(g.shape, markPen, g.shape == QCPScatterStyle::ssDisc
                                                                        ? QBrush(pen.color())
                                                                        : QBrush(Qt::NoBrush),
                                                 g.shapeSize));
    } else {
        g.graph->setScatterStyle(QCPScatterStyle());
    }
}

void PlotPanel::setRangeData(LodGraph& g, const analysis::RangeSeries& s, double scale)
{
    std::vector<double> lo(s.lo), hi(s.hi);
    if (scale != 1.0) {
        for (double& v : lo)
            v *= scale;
        for (double& v : hi)
            v *= scale;
    }
    if (g.mode == LodSeries::Mode::Bars)
        g.series.setData(s.t, std::move(lo), std::move(hi));
    else
        g.series.setData(s.t, std::move(lo));
    g.frames = s.frame;
}

void PlotPanel::setXyData(LodGraph& g, const analysis::XySeries& s, double scale)
{
    std::vector<double> v(s.v);
    if (scale != 1.0)
        for (double& x : v)
            x *= scale;
    g.series.setData(s.t, std::move(v));
    g.frames.clear();
}

void PlotPanel::clearSeries()
{
    seriesCleared();
    for (auto& g : m_graphs) {
        g->series.setData({}, {});
        g->frames.clear();
        g->graph->data()->clear();
    }
    setEventBands({}, false);
    replot(rpQueuedReplot);
}

void PlotPanel::setEmptyMessage(const QString& message)
{
    m_emptyText->setText(message);
    m_emptyText->setVisible(!message.isEmpty());
}

LodGraph* PlotPanel::lodGraph(const QString& name) const
{
    for (const auto& g : m_graphs)
        if (g->name == name)
            return g.get();
    return nullptr;
}

void PlotPanel::refreshLevelOfDetail(int columns)
{
    if (columns <= 0)
        columns = std::max(200, axisRect()->width() > 50 ? axisRect()->width() : width() - kLeftMargin - kRightMargin);
    const double lower = m_axis->lower(), upper = m_axis->upper();
    viewChanged(lower, upper, columns);
    std::map<QCPAxis*, Extent> extents;
    for (auto& g : m_graphs) {
        g->series.sample(lower, upper, columns, g->mode, g->last);
        const LodSeries::Output& out = g->last;
        QVector<QCPGraphData> points;
        points.reserve(static_cast<qsizetype>(out.x.size()));
        for (std::size_t i = 0; i < out.x.size(); ++i)
            points.append(QCPGraphData(out.x[i], out.y[i]));
        g->graph->data()->set(points, true);
        if (!out.hasY || !g->graph->visible() || !g->autoscale)
            continue;
        Extent& e = extents[g->graph->valueAxis()];
        e.lo = e.set ? std::min(e.lo, out.yMin) : out.yMin;
        e.hi = e.set ? std::max(e.hi, out.yMax) : out.yMax;
        e.set = true;
    }
    // Band labels where they can be read: with many events in view they would print on
    // top of each other (a periodic scan every 100 ms over a minute), so they show once
    // the view is zoomed in to a few of them.
    constexpr int kMaxLabelledBands = 12;
    int bandsInView = 0;
    for (QCPAbstractItem* item : m_bands)
        if (auto* rect = qobject_cast<QCPItemRect*>(item))
            bandsInView += rect->bottomRight->coords().x() >= lower && rect->topLeft->coords().x() <= upper;
    for (QCPAbstractItem* item : m_bands)
        if (auto* text = qobject_cast<QCPItemText*>(item))
            text->setVisible(bandsInView <= kMaxLabelledBands);
    // Value axes follow what is visible, so zooming into a stall shows its detail.
    m_visible[0] = extents.count(yAxis) ? extents[yAxis] : Extent{};
    m_visible[1] = extents.count(yAxis2) ? extents[yAxis2] : Extent{};
    fitValueAxes();
    if (m_valueLink)
        m_valueLink->fitValueAxes();
    refreshed();
}

void PlotPanel::applyValueRange(QCPAxis* axis, Extent e)
{
    if (!e.set)
        return;
    double lo = e.lo, hi = e.hi;
    if (lo >= 0 && lo < (hi - lo) * 0.5)
        lo = 0; // counts and windows read best from zero
    const double pad = hi > lo ? (hi - lo) * 0.06 : std::max(std::fabs(hi) * 0.1, 1.0);
    axis->setRange(lo == 0 ? 0 : lo - pad, hi + pad);
}

void PlotPanel::fitValueAxes()
{
    QCPAxis* axes[2] = {yAxis, yAxis2};
    for (int i = 0; i < 2; ++i) {
        Extent e = m_visible[i];
        if (m_valueLink && m_valueLink->m_visible[i].set) {
            const Extent& o = m_valueLink->m_visible[i];
            e = e.set ? Extent{std::min(e.lo, o.lo), std::max(e.hi, o.hi), true} : o;
        }
        applyValueRange(axes[i], e);
    }
    replot(QCustomPlot::rpQueuedReplot);
}

void PlotPanel::toggleSeries(QCPPlottableLegendItem* entry)
{
    QCPAbstractPlottable* p = entry->plottable();
    p->setVisible(!p->visible());
    entry->setTextColor(p->visible() ? QColor(Qt::black) : QColor(170, 170, 170));
    refreshLevelOfDetail();
    replot(rpQueuedReplot);
}

bool PlotPanel::toggleSeries(const QString& name)
{
    for (const auto& g : m_graphs)
        if (g->name == name || g->graph->name() == name)
            if (auto* entry = legend->itemWithPlottable(g->graph)) {
                toggleSeries(entry);
                return true;
            }
    return false;
}

void PlotPanel::linkValueAxes(PlotPanel* a, PlotPanel* b)
{
    if (a)
        a->m_valueLink = b;
    if (b)
        b->m_valueLink = a;
    if (a)
        a->fitValueAxes();
    if (b)
        b->fitValueAxes();
}

void PlotPanel::setEventBands(const std::vector<analysis::LaneEvent>& events, bool labels)
{
    for (QCPAbstractItem* item : m_bands)
        removeItem(item);
    m_bands.clear();
    for (const analysis::LaneEvent& e : events) {
        auto* rect = new QCPItemRect(this);
        rect->setLayer(QStringLiteral("bands"));
        rect->topLeft->setTypeY(QCPItemPosition::ptAxisRectRatio);
        rect->bottomRight->setTypeY(QCPItemPosition::ptAxisRectRatio);
        // A zero-length event still gets a visible band of a few microseconds.
        rect->topLeft->setCoords(e.start, 0);
        rect->bottomRight->setCoords(std::max(e.end, e.start + 1e-4), 1);
        rect->setPen(Qt::NoPen);
        rect->setBrush(QBrush(render::eventBandColour(e.kind, m_style.grayscale), render::eventBandPattern(e.kind, m_style.grayscale)));
        rect->setProperty("kind", static_cast<int>(e.kind));
        rect->setProperty("event", static_cast<qulonglong>(e.id));
        m_bands.push_back(rect);
        if (labels) {
            auto* text = new QCPItemText(this);
            text->setLayer(QStringLiteral("bands"));
            text->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
            text->position->setCoords(e.start, 0.98);
            text->setPositionAlignment(Qt::AlignLeft | Qt::AlignBottom);
            text->setRotation(-90);
            text->setText(QString::fromLatin1(analysis::eventKindName(e.kind)) +
                          QStringLiteral(" #%1").arg(e.id));
            QFont f = font();
            f.setPointSizeF(m_style.fontPt - 1);
            text->setFont(f);
            text->setColor(QColor(60, 60, 60));
            m_bands.push_back(text);
        }
    }
    if (m_highlighted >= 0)
        setHighlightedEvent(m_highlighted);
}

void PlotPanel::setHighlightedEvent(long long id)
{
    m_highlighted = id;
    for (QCPAbstractItem* item : m_bands)
        if (auto* rect = qobject_cast<QCPItemRect*>(item))
            rect->setPen(id >= 0 && rect->property("event").toLongLong() == id
                             ? QPen(QColor(40, 40, 40), 1.5, Qt::DashLine)
                             : QPen(Qt::NoPen));
    replot(rpQueuedReplot);
}

void PlotPanel::setPlotStyle(const PlotStyle& style)
{
    m_style = style;
    QFont tick = font();
    tick.setPointSizeF(style.fontPt);
    QFont label = tick;
    for (QCPAxis* axis : {xAxis, yAxis, yAxis2}) {
        axis->setTickLabelFont(tick);
        axis->setLabelFont(label);
    }
    QFont small = tick;
    small.setPointSizeF(std::max(5.0, style.fontPt - 1));
    legend->setFont(small);
    m_cursorText->setFont(small);
    m_emptyText->setFont(label);
    for (auto& g : m_graphs)
        applyGraphStyle(*g);
    for (QCPAbstractItem* item : m_bands)
        if (auto* rect = qobject_cast<QCPItemRect*>(item)) {
            const auto kind = static_cast<analysis::WlanEventKind>(rect->property("kind").toInt());
            rect->setBrush(QBrush(render::eventBandColour(kind, style.grayscale), render::eventBandPattern(kind, style.grayscale)));
        } else if (auto* text = qobject_cast<QCPItemText*>(item)) {
            text->setFont(small);
        }
}

void PlotPanel::setShowTimeLabels(bool show)
{
    xAxis->setTickLabels(show);
    xAxis->setLabel(show ? QStringLiteral("time since capture start (s)") : QString());
}

QString PlotPanel::valuesText(double t) const
{
    // A mark (a retransmission, a zero window) is named only when it lies within a few
    // pixels of the cursor, about a marker's size: the nearest one may be seconds away.
    // A line reads the value in effect at the cursor: its last point at or before it.
    constexpr double kMarkPickPixels = 6;
    QStringList lines;
    lines << QStringLiteral("t = %1 s").arg(t, 0, 'f', 6);
    for (const auto& g : m_graphs) {
        const std::vector<double>& times = g->series.times();
        if (times.empty() || !g->graph->visible())
            continue;
        std::size_t i = analysis::nearestIndex(times, t);
        if (g->mode == LodSeries::Mode::Line) {
            const auto after = std::upper_bound(times.begin(), times.end(), t);
            if (after == times.begin())
                continue;
            i = static_cast<std::size_t>(std::prev(after) - times.begin());
        } else if (std::fabs(xAxis->coordToPixel(times[i]) - xAxis->coordToPixel(t)) > kMarkPickPixels) {
            continue;
        }
        if (g->describe) {
            lines << QStringLiteral("%1 @ %2 s").arg(g->describe(i)).arg(times[i], 0, 'f', 6);
            continue;
        }
        QString value = formatValue(g->series.lo()[i], {});
        if (g->mode == LodSeries::Mode::Bars)
            value += QStringLiteral("–") + formatValue(g->series.hi()[i], {});
        lines << QStringLiteral("%1: %2 %3 @ %4 s").arg(g->name, value, g->unit).arg(times[i], 0, 'f', 6);
    }
    return lines.join(QLatin1Char('\n'));
}

void PlotPanel::onAxisRangeChanged(double lower, double upper)
{
    m_syncing = true;
    xAxis->setRange(lower, upper);
    m_syncing = false;
    refreshLevelOfDetail();
    replot(rpQueuedReplot);
}

void PlotPanel::onCursorMoved(double time, bool visible)
{
    m_cursorLine->setVisible(visible);
    m_cursorText->setVisible(visible && underMouse());
    if (visible) {
        m_cursorLine->point1->setCoords(time, 0);
        m_cursorLine->point2->setCoords(time, 1);
        // The readout sits on the side away from the cursor, clear of what it reads.
        const bool cursorOnLeft = xAxis->coordToPixel(time) < axisRect()->center().x();
        m_cursorText->position->setCoords(cursorOnLeft ? 0.995 : 0.005, 0.02);
        m_cursorText->setPositionAlignment((cursorOnLeft ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignTop);
        if (underMouse())
            m_cursorText->setText(valuesText(time));
    }
    layer(QStringLiteral("overlay"))->replot();
}

void PlotPanel::showMarkTooltip(const QPoint& pos)
{
    for (const auto& g : m_graphs) {
        if (!g->series.keepAll() || g->series.size() == 0 || !g->graph->visible())
            continue;
        const double t = xAxis->pixelToCoord(pos.x());
        const std::size_t i = analysis::nearestIndex(g->series.times(), t);
        const double px = xAxis->coordToPixel(g->series.times()[i]);
        const double py = g->graph->valueAxis()->coordToPixel(g->series.lo()[i]);
        const double pyHi = g->graph->valueAxis()->coordToPixel(g->series.hi()[i]);
        const double dy = pos.y() < std::min(py, pyHi)   ? std::min(py, pyHi) - pos.y()
                          : pos.y() > std::max(py, pyHi) ? pos.y() - std::max(py, pyHi)
                                                         : 0;
        if (std::fabs(px - pos.x()) <= 6 && dy <= 6) {
            QString text = QStringLiteral("%1\nt = %2 s\n%3").arg(g->name).arg(g->series.times()[i], 0, 'f', 6)
                               .arg(formatValue(g->series.lo()[i], g->unit));
            if (i < g->frames.size())
                text += QStringLiteral("\nframe %1").arg(g->frames[i]);
            QToolTip::showText(mapToGlobal(pos), text, this);
            return;
        }
    }
    QToolTip::hideText();
}

void PlotPanel::keyPressEvent(QKeyEvent* event)
{
    switch (event->key()) {
    case Qt::Key_Plus:
    case Qt::Key_Equal: m_axis->zoomAroundMiddle(0.8); break;
    case Qt::Key_Minus: m_axis->zoomAroundMiddle(1.25); break;
    case Qt::Key_Left: m_axis->pan(-0.1); break;
    case Qt::Key_Right: m_axis->pan(0.1); break;
    case Qt::Key_Home:
    case Qt::Key_0: m_axis->reset(); break;
    default: QCustomPlot::keyPressEvent(event); return;
    }
    event->accept();
}

void PlotPanel::mouseMoveEvent(QMouseEvent* event)
{
    QCustomPlot::mouseMoveEvent(event);
    const QPoint pos = event->position().toPoint();
    if (axisRect()->rect().contains(pos)) {
        m_axis->setCursor(xAxis->pixelToCoord(pos.x()), true);
        if (!(event->buttons() & Qt::LeftButton))
            showMarkTooltip(pos);
    }
}

void PlotPanel::mouseDoubleClickEvent(QMouseEvent* event)
{
    QCustomPlot::mouseDoubleClickEvent(event);
    m_axis->reset();
}

void PlotPanel::leaveEvent(QEvent* event)
{
    QCustomPlot::leaveEvent(event);
    m_axis->setCursor(m_axis->cursor(), false);
}

void PlotPanel::resizeEvent(QResizeEvent* event)
{
    QCustomPlot::resizeEvent(event);
    refreshLevelOfDetail();
    replot(rpQueuedReplot);
}

} // namespace windscope::gui
