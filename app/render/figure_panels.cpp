// SPDX-License-Identifier: GPL-3.0-or-later
#include "figure_panels.h"

#include "figure_writer.h"

#include <QCoreApplication>
#include <QFontMetricsF>
#include <QImage>
#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <cmath>

namespace windscope::render {

QList<PlotKind> allPlotKinds()
{
    return {PlotKind::TimeSequence, PlotKind::Window, PlotKind::Throughput, PlotKind::Rtt, PlotKind::WlanLane};
}

QString plotKindName(PlotKind kind)
{
    switch (kind) {
    case PlotKind::TimeSequence: return QStringLiteral("time-sequence");
    case PlotKind::Window: return QStringLiteral("window");
    case PlotKind::Throughput: return QStringLiteral("throughput");
    case PlotKind::Rtt: return QStringLiteral("rtt");
    case PlotKind::WlanLane: return QStringLiteral("wlan");
    }
    return {};
}

std::optional<PlotKind> plotKindFromName(const QString& name)
{
    for (PlotKind k : allPlotKinds())
        if (plotKindName(k) == name)
            return k;
    return std::nullopt;
}

namespace {

QString tr(const char* text) { return QCoreApplication::translate("FigurePainter", text); }

constexpr double kTickLength = 3;
constexpr double kIconWidth = 18;
constexpr int kMaxLabelledBands = 12;

// Fonts are measured on a 96-dpi device, the resolution every output is laid out at.
const QPaintDevice* measureDevice()
{
    static const QImage device = [] {
        QImage image(1, 1, QImage::Format_ARGB32_Premultiplied);
        const int dotsPerMeter = static_cast<int>(std::lround(kLogicalDpi / 0.0254));
        image.setDotsPerMeterX(dotsPerMeter);
        image.setDotsPerMeterY(dotsPerMeter);
        return image;
    }();
    return &device;
}

QFont fontOf(double pt)
{
    QFont f(QStringLiteral("sans-serif"));
    f.setStyleHint(QFont::SansSerif);
    f.setPointSizeF(pt);
    return f;
}

double textWidth(const QFont& font, const QString& text)
{
    return QFontMetricsF(font, const_cast<QPaintDevice*>(measureDevice())).horizontalAdvance(text);
}

double lineHeight(const QFont& font) { return QFontMetricsF(font, const_cast<QPaintDevice*>(measureDevice())).height(); }

LodSeries::Mode modeOf(SeriesShape shape)
{
    switch (shape) {
    case SeriesShape::Line:
    case SeriesShape::Step: return LodSeries::Mode::Line;
    case SeriesShape::Bars: return LodSeries::Mode::Bars;
    case SeriesShape::Points: return LodSeries::Mode::Points;
    }
    return LodSeries::Mode::Line;
}


QPen seriesPen(const SeriesStyle& style)
{
    QPen pen(style.colour, ptToLogical(style.width));
    pen.setStyle(style.dash);
    pen.setCapStyle(Qt::FlatCap);
    pen.setJoinStyle(Qt::RoundJoin);
    return pen;
}

// Liang-Barsky: clips the segment a-b to r; false when nothing of it is inside.
bool clipSegment(QPointF& a, QPointF& b, const QRectF& r)
{
    double t0 = 0, t1 = 1;
    const double dx = b.x() - a.x(), dy = b.y() - a.y();
    const double p[4] = {-dx, dx, -dy, dy};
    const double q[4] = {a.x() - r.left(), r.right() - a.x(), a.y() - r.top(), r.bottom() - a.y()};
    for (int i = 0; i < 4; ++i) {
        if (p[i] == 0) {
            if (q[i] < 0)
                return false;
            continue;
        }
        const double t = q[i] / p[i];
        if (p[i] < 0)
            t0 = std::max(t0, t);
        else
            t1 = std::min(t1, t);
        if (t0 > t1)
            return false;
    }
    const QPointF start = a;
    a = QPointF(start.x() + t0 * dx, start.y() + t0 * dy);
    b = QPointF(start.x() + t1 * dx, start.y() + t1 * dy);
    return true;
}

struct PanelLayout
{
    Panel panel;
    std::vector<LodSeries::Output> outputs;   // per series, over the time range
    std::vector<std::vector<int>> legendRows; // series indices per legend line
    AxisScale left;
    std::optional<AxisScale> right;
    double top = 0;                           // panel's top in the figure
    double legendHeight = 0;
    QRectF plot;                              // the axes rectangle
    bool timeLabels = false;
};

// A series gets a legend entry when some of it shows: points in the time range, and, for
// one left out of the value range, values that reach into it.
bool shown(const PanelLayout& l, std::size_t i)
{
    const LodSeries::Output& out = l.outputs[i];
    if (!out.hasY)
        return false;
    const PlotSeries& s = l.panel.series[i];
    if (s.autoscale)
        return true;
    const AxisScale& axis = s.rightAxis && l.right ? *l.right : l.left;
    return out.yMax >= axis.lower && out.yMin <= axis.upper;
}

} // namespace

struct FigurePainter::Layout
{
    FigureFrame frame;
    std::vector<PanelLayout> panels;
    AxisScale time;
    QFont tickFont, labelFont, legendFont;
    double width = 0, height = 0;
    QString empty;
};

FigurePainter::FigurePainter(std::vector<Panel> panels, const FigureFrame& frame) : m(std::make_unique<Layout>())
{
    m->frame = frame;
    const ExportPreset& preset = frame.preset;
    const bool screen = isScreenPreset(preset);
    m->width = screen ? std::max(200.0, frame.screenSize.width()) : std::round(mmToLogical(preset.widthMm));
    m->tickFont = fontOf(preset.fontPt);
    m->labelFont = fontOf(preset.fontPt);
    m->legendFont = fontOf(std::max(5.0, preset.fontPt - 1));
    const double t0 = frame.lower, t1 = frame.upper > frame.lower ? frame.upper : frame.lower + 1e-3;
    const int columns = std::max(100, static_cast<int>(m->width * 2));

    // Sample every series over the range; a panel with nothing in it is left out.
    QStringList reasons;
    for (Panel& p : panels) {
        PanelLayout l;
        bool content = false;
        for (const PlotSeries& s : p.series) {
            LodSeries::Output out;
            s.data.sample(t0, t1, columns, modeOf(s.shape), out);
            content = content || out.hasY;
            l.outputs.push_back(std::move(out));
        }
        if (p.bandsAreContent)
            for (const analysis::LaneEvent& e : p.bands)
                content = content || (e.end >= t0 && e.start <= t1);
        if (!content) {
            if (!p.emptyReason.isEmpty())
                reasons << p.emptyReason;
            continue;
        }
        l.panel = std::move(p);
        m->panels.push_back(std::move(l));
    }
    if (m->panels.empty()) {
        m->empty = tr("Nothing to draw between %1 and %2 s").arg(t0, 0, 'f', 3).arg(t1, 0, 'f', 3);
        if (!reasons.isEmpty())
            m->empty += QStringLiteral(": ") + reasons.join(QStringLiteral("; "));
        m->height = std::round(mmToLogical(screen ? 30 : 20));
        return;
    }

    // Value scales from what is in range; the tick count from the plot's height.
    const double tickHeight = lineHeight(m->tickFont);
    double stretchSum = 0;
    for (const PanelLayout& l : m->panels)
        stretchSum += l.panel.stretch;
    double leftMargin = 0, rightMargin = 0;
    for (PanelLayout& l : m->panels) {
        const double plotHeight =
            screen ? std::max(60.0, frame.screenSize.height() * l.panel.stretch / stretchSum - 2.5 * tickHeight)
                   : std::round(mmToLogical(preset.panelHeightMm * l.panel.stretch / 3.0));
        l.plot.setHeight(plotHeight);
        const int ticks = std::clamp(static_cast<int>(plotHeight / (tickHeight * 2.2)), 2, 8);
        double lo[2] = {0, 0}, hi[2] = {0, 0};
        bool set[2] = {false, false};
        for (std::size_t i = 0; i < l.panel.series.size(); ++i) {
            const PlotSeries& s = l.panel.series[i];
            const LodSeries::Output& out = l.outputs[i];
            if (!out.hasY || !s.autoscale)
                continue;
            const int a = s.rightAxis ? 1 : 0;
            lo[a] = set[a] ? std::min(lo[a], out.yMin) : out.yMin;
            hi[a] = set[a] ? std::max(hi[a], out.yMax) : out.yMax;
            set[a] = true;
        }
        l.left = valueScale(lo[0], hi[0], l.panel.left.quantity, l.panel.left.fromZero, ticks);
        if (l.panel.right)
            l.right = valueScale(lo[1], hi[1], l.panel.right->quantity, l.panel.right->fromZero, ticks);
        // Tick labels, the tick, and the rotated axis title beside them.
        auto axisWidth = [&](const AxisScale& s) {
            double w = 0;
            for (double t : s.ticks)
                w = std::max(w, textWidth(m->tickFont, tickLabel(t, s)));
            return w + kTickLength + 3 + lineHeight(m->labelFont) + 3;
        };
        leftMargin = std::max(leftMargin, axisWidth(l.left));
        if (l.right)
            rightMargin = std::max(rightMargin, axisWidth(*l.right));
    }
    // The time axis, and room for its last label past the plot's right edge.
    const double plotWidthGuess = m->width - leftMargin - std::max(rightMargin, 8.0);
    m->time = timeScale(t0, t1, std::clamp(static_cast<int>(plotWidthGuess / 55), 3, 10));
    double lastLabel = 0;
    if (!m->time.ticks.empty())
        lastLabel = textWidth(m->tickFont, tickLabel(m->time.ticks.back(), m->time)) / 2;
    rightMargin = std::max({rightMargin, lastLabel + 2, 8.0});
    leftMargin = std::ceil(leftMargin + 2);
    rightMargin = std::ceil(rightMargin);
    const double plotWidth = std::max(40.0, m->width - leftMargin - rightMargin);

    // Legends in lines as wide as the plot, above it; panels stacked.
    const double legendLine = lineHeight(m->legendFont) * 1.15;
    const double gap = tickHeight * 0.9;
    double y = 0;
    for (std::size_t k = 0; k < m->panels.size(); ++k) {
        PanelLayout& l = m->panels[k];
        l.top = y;
        double x = 0;
        std::vector<int> row;
        for (std::size_t i = 0; i < l.panel.series.size(); ++i) {
            if (!shown(l, i))
                continue;
            const double w = kIconWidth + 3 + textWidth(m->legendFont, l.panel.series[i].name) + 10;
            if (!row.empty() && x + w > plotWidth) {
                l.legendRows.push_back(row);
                row.clear();
                x = 0;
            }
            row.push_back(static_cast<int>(i));
            x += w;
        }
        if (!row.empty())
            l.legendRows.push_back(row);
        l.legendHeight = static_cast<double>(l.legendRows.size()) * legendLine;
        l.timeLabels = k + 1 == m->panels.size();
        const double plotTop = y + l.legendHeight + tickHeight * 0.5 + 1;
        l.plot = QRectF(leftMargin, plotTop, plotWidth, l.plot.height());
        y = l.plot.bottom() + (l.timeLabels ? tickHeight * 2 + kTickLength + 6 : gap);
    }
    m->height = std::ceil(y);
}

FigurePainter::~FigurePainter() = default;
FigurePainter::FigurePainter(FigurePainter&&) noexcept = default;
FigurePainter& FigurePainter::operator=(FigurePainter&&) noexcept = default;

int FigurePainter::width() const { return static_cast<int>(m->width); }
int FigurePainter::height() const { return static_cast<int>(m->height); }
QString FigurePainter::emptyText() const { return m->empty; }

QList<PlotKind> FigurePainter::drawnPlots() const
{
    QList<PlotKind> kinds;
    for (const PanelLayout& l : m->panels)
        kinds << l.panel.kind;
    return kinds;
}

std::vector<FigurePainter::LegendEntry> FigurePainter::legend(PlotKind kind) const
{
    std::vector<LegendEntry> entries;
    for (const PanelLayout& l : m->panels)
        if (l.panel.kind == kind)
            for (std::size_t i = 0; i < l.panel.series.size(); ++i)
                if (shown(l, i)) {
                    const PlotSeries& s = l.panel.series[i];
                    entries.push_back({s.name, s.shape, s.look.pick(m->frame.preset.grayscale)});
                }
    return entries;
}

void paintLegendIcon(QPainter& painter, const QRectF& rect, SeriesShape shape, const SeriesStyle& style)
{
    painter.save();
    const QPointF mid = rect.center();
    if (shape == SeriesShape::Bars) {
        QPen pen = seriesPen(style);
        pen.setStyle(Qt::SolidLine);
        painter.setPen(pen);
        painter.drawLine(QPointF(mid.x(), rect.top()), QPointF(mid.x(), rect.bottom()));
        if (style.marker != Marker::None) {
            // Bars with caps: the cap marks the ends of each bar.
            const double r = ptToLogical(style.markerSize) / 2;
            painter.drawLine(QPointF(mid.x() - r, rect.top()), QPointF(mid.x() + r, rect.top()));
            painter.drawLine(QPointF(mid.x() - r, rect.bottom()), QPointF(mid.x() + r, rect.bottom()));
        }
    } else {
        if (shape != SeriesShape::Points) {
            painter.setPen(seriesPen(style));
            painter.drawLine(QPointF(rect.left(), mid.y()), QPointF(rect.right(), mid.y()));
        }
        drawMarker(painter, style.marker, mid, ptToLogical(style.markerSize), style.colour, ptToLogical(0.6));
    }
    painter.restore();
}

namespace {

struct Mapper
{
    QRectF plot;
    double t0, t1;
    const AxisScale* scale;
    double x(double t) const { return plot.left() + (t - t0) / (t1 - t0) * plot.width(); }
    double y(double v) const
    {
        return plot.bottom() - (v - scale->lower) / (scale->upper - scale->lower) * plot.height();
    }
};

// Points of a line (with steps drawn as their corners) in pixels; NaN breaks it.
std::vector<QPointF> linePoints(const LodSeries::Output& out, const Mapper& map, bool step)
{
    std::vector<QPointF> points;
    points.reserve(out.x.size() * (step ? 2 : 1));
    for (std::size_t i = 0; i < out.x.size(); ++i) {
        if (!std::isfinite(out.y[i])) {
            points.emplace_back(std::nan(""), std::nan(""));
            continue;
        }
        const QPointF p(map.x(out.x[i]), map.y(out.y[i]));
        if (step && !points.empty() && std::isfinite(points.back().y()))
            points.emplace_back(p.x(), points.back().y());
        points.push_back(p);
    }
    return points;
}

// The polyline clipped to the rectangle, as a path of the parts inside.
QPainterPath clippedPath(const std::vector<QPointF>& points, const QRectF& rect)
{
    QPainterPath path;
    bool open = false;
    QPointF last;
    for (std::size_t i = 1; i < points.size(); ++i) {
        QPointF a = points[i - 1], b = points[i];
        if (!std::isfinite(a.y()) || !std::isfinite(b.y()) || !clipSegment(a, b, rect)) {
            open = false;
            continue;
        }
        if (!open || a != last)
            path.moveTo(a);
        path.lineTo(b);
        last = b;
        open = true;
    }
    return path;
}

// The y of the polyline at pixel column x, NaN where it has no point.
double lineYAt(const std::vector<QPointF>& points, double x)
{
    for (std::size_t i = 1; i < points.size(); ++i) {
        const QPointF& a = points[i - 1];
        const QPointF& b = points[i];
        if (!std::isfinite(a.y()) || !std::isfinite(b.y()) || x < a.x() || x > b.x())
            continue;
        return b.x() > a.x() ? a.y() + (b.y() - a.y()) * (x - a.x()) / (b.x() - a.x()) : a.y();
    }
    return std::nan("");
}

void paintSeries(QPainter& painter, const PlotSeries& s, const LodSeries::Output& out, const Mapper& map,
                 const SeriesStyle& style, int index)
{
    const QRectF& r = map.plot;
    const double markerSize = ptToLogical(style.markerSize);
    const double markerLine = ptToLogical(0.6);
    switch (s.shape) {
    case SeriesShape::Line:
    case SeriesShape::Step: {
        const std::vector<QPointF> points = linePoints(out, map, s.shape == SeriesShape::Step);
        painter.setPen(seriesPen(style));
        painter.setBrush(Qt::NoBrush);
        painter.drawPath(clippedPath(points, r));
        if (style.marker != Marker::None) {
            // Markers along the line at fixed columns, staggered per series so lines
            // that coincide still show each marker.
            constexpr int kMarks = 7;
            for (int k = 0; k < kMarks; ++k) {
                const double x = r.left() + r.width() * (k + 0.3 + 0.17 * (index % 4)) / kMarks;
                const double y = lineYAt(points, x);
                if (std::isfinite(y) && r.contains(QPointF(x, y)))
                    drawMarker(painter, style.marker, QPointF(x, y), markerSize, style.colour, markerLine);
            }
        }
        break;
    }
    case SeriesShape::Bars: {
        QPen pen = seriesPen(style);
        pen.setStyle(Qt::SolidLine);
        painter.setPen(pen);
        QPainterPath path;
        const double cap = markerSize / 2;
        for (std::size_t i = 0; i + 1 < out.x.size(); i += 3) {
            const double x = map.x(out.x[i]);
            if (x < r.left() || x > r.right() || !std::isfinite(out.y[i]) || !std::isfinite(out.y[i + 1]))
                continue;
            double a = map.y(out.y[i]), b = map.y(out.y[i + 1]);
            if (std::max(a, b) < r.top() || std::min(a, b) > r.bottom())
                continue;
            a = std::clamp(a, r.top(), r.bottom());
            b = std::clamp(b, r.top(), r.bottom());
            // A one-byte range is still a visible tick.
            if (std::fabs(a - b) < 0.6)
                b = std::max(r.top(), a - 0.6);
            path.moveTo(x, a);
            path.lineTo(x, b);
            if (style.marker != Marker::None) {
                path.moveTo(std::max(r.left(), x - cap), a);
                path.lineTo(std::min(r.right(), x + cap), a);
                path.moveTo(std::max(r.left(), x - cap), b);
                path.lineTo(std::min(r.right(), x + cap), b);
            }
        }
        painter.drawPath(path);
        break;
    }
    case SeriesShape::Points:
        for (std::size_t i = 0; i < out.x.size(); ++i) {
            if (!std::isfinite(out.y[i]))
                continue;
            const QPointF p(map.x(out.x[i]), map.y(out.y[i]));
            if (!r.contains(p))
                continue;
            drawMarker(painter, style.marker == Marker::None ? Marker::Disc : style.marker, p, markerSize,
                       style.colour, markerLine);
        }
        break;
    }
}

void drawRotatedTitle(QPainter& painter, const QString& text, const QFont& font, double x, double centreY,
                      double room, bool clockwise)
{
    // Shrunk until it fits beside the plot, then elided: a title is never cut by the edge.
    QFont f = font;
    while (textWidth(f, text) > room && f.pointSizeF() > 5)
        f.setPointSizeF(f.pointSizeF() - 0.5);
    const QString shown = QFontMetricsF(f, const_cast<QPaintDevice*>(measureDevice())).elidedText(text, Qt::ElideRight, room);
    painter.save();
    painter.setFont(f);
    painter.translate(x, centreY);
    painter.rotate(clockwise ? 90 : -90);
    const double w = textWidth(f, shown);
    painter.drawText(QPointF(-w / 2, 0), shown);
    painter.restore();
}

} // namespace

void FigurePainter::paint(QPainter& painter, const PaintTarget& target) const
{
    const FigureFrame& frame = m->frame;
    const bool grey = frame.preset.grayscale;
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setRenderHint(QPainter::TextAntialiasing);
    if (m->panels.empty()) {
        painter.setFont(m->labelFont);
        painter.setPen(QColor(70, 70, 70));
        painter.drawText(QRectF(4, 4, m->width - 8, m->height - 8), Qt::AlignCenter | Qt::TextWordWrap, m->empty);
        painter.restore();
        return;
    }
    const double t0 = m->time.lower, t1 = m->time.upper;
    const double tickAscent = QFontMetricsF(m->tickFont, const_cast<QPaintDevice*>(measureDevice())).ascent();
    const double legendLine = lineHeight(m->legendFont) * 1.15;
    const QColor axisColour(0, 0, 0);
    const QColor gridColour(225, 225, 225);

    for (const PanelLayout& l : m->panels) {
        const QRectF& r = l.plot;
        const Mapper left{r, t0, t1, &l.left};
        const std::optional<Mapper> right = l.right ? std::optional<Mapper>(Mapper{r, t0, t1, &*l.right}) : std::nullopt;

        // Grid at the value ticks and the time ticks.
        painter.setPen(QPen(gridColour, 0.5));
        for (double v : l.left.ticks)
            painter.drawLine(QPointF(r.left(), left.y(v)), QPointF(r.right(), left.y(v)));
        for (double t : m->time.ticks)
            painter.drawLine(QPointF(left.x(t), r.top()), QPointF(left.x(t), r.bottom()));

        beginClip(painter, target, r);
        // Event bands behind the data; zero-length events still get a visible band.
        int bandsInView = 0;
        for (const analysis::LaneEvent& e : l.panel.bands) {
            const double x0 = std::max(r.left(), left.x(e.start));
            const double x1 = std::min(r.right(), std::max(left.x(e.end), left.x(e.start) + 1.0));
            if (x1 <= r.left() || x0 >= r.right())
                continue;
            ++bandsInView;
            painter.fillRect(QRectF(x0, r.top(), x1 - x0, r.height()),
                             QBrush(eventBandColour(e.kind, grey), eventBandPattern(e.kind, grey)));
            if (static_cast<long long>(e.id) == frame.highlightedEvent) {
                painter.setPen(QPen(QColor(40, 40, 40), 1.2, Qt::DashLine));
                painter.setBrush(Qt::NoBrush);
                painter.drawRect(QRectF(x0, r.top() + 0.6, x1 - x0, r.height() - 1.2));
            }
        }
        if (l.panel.bandLabels && bandsInView <= kMaxLabelledBands) {
            painter.setFont(m->legendFont);
            painter.setPen(QColor(60, 60, 60));
            for (const analysis::LaneEvent& e : l.panel.bands) {
                const double x = left.x(e.start);
                if (x < r.left() || x > r.right())
                    continue;
                painter.save();
                painter.translate(x + 1, r.top() + 2);
                painter.rotate(90);
                painter.drawText(QPointF(0, -1), QString::fromLatin1(analysis::eventKindName(e.kind)) +
                                                     QStringLiteral(" #%1").arg(e.id));
                painter.restore();
            }
        }
        // Data: each series' level of detail for the device's pixel columns.
        const int columns = std::max(50, static_cast<int>(r.width() * target.pixelScale));
        for (std::size_t i = 0; i < l.panel.series.size(); ++i) {
            const PlotSeries& s = l.panel.series[i];
            LodSeries::Output out;
            s.data.sample(t0, t1, columns, modeOf(s.shape), out);
            if (!out.hasY)
                continue;
            paintSeries(painter, s, out, s.rightAxis && right ? *right : left, s.look.pick(grey), static_cast<int>(i));
        }
        endClip(painter, target);

        // Frame, ticks and labels.
        painter.setPen(QPen(axisColour, 0.8));
        painter.setBrush(Qt::NoBrush);
        painter.drawRect(r);
        painter.setFont(m->tickFont);
        for (double v : l.left.ticks) {
            const double y = left.y(v);
            painter.drawLine(QPointF(r.left(), y), QPointF(r.left() + kTickLength, y));
            const QString label = tickLabel(v, l.left);
            painter.drawText(QPointF(r.left() - kTickLength - textWidth(m->tickFont, label), y + tickAscent / 2 - 1), label);
        }
        if (right) {
            for (double v : l.right->ticks) {
                const double y = right->y(v);
                painter.drawLine(QPointF(r.right() - kTickLength, y), QPointF(r.right(), y));
                painter.drawText(QPointF(r.right() + kTickLength, y + tickAscent / 2 - 1), tickLabel(v, *l.right));
            }
        }
        for (double t : m->time.ticks) {
            const double x = left.x(t);
            painter.drawLine(QPointF(x, r.bottom()), QPointF(x, r.bottom() - kTickLength));
            if (l.timeLabels) {
                const QString label = tickLabel(t, m->time);
                painter.drawText(QPointF(x - textWidth(m->tickFont, label) / 2, r.bottom() + kTickLength + tickAscent + 1),
                                 label);
            }
        }
        const double titleHeight = lineHeight(m->labelFont);
        const double titleAscent = QFontMetricsF(m->labelFont, const_cast<QPaintDevice*>(measureDevice())).ascent();
        painter.setPen(axisColour);
        drawRotatedTitle(painter, axisTitle(l.panel.left.title, l.left), m->labelFont, 2 + titleAscent, r.center().y(),
                         r.height() + l.legendHeight * 0.5, false);
        if (right)
            drawRotatedTitle(painter, axisTitle(l.panel.right->title, *l.right), m->labelFont,
                             m->width - 2 - titleAscent, r.center().y(), r.height(), true);
        if (l.timeLabels) {
            painter.setFont(m->labelFont);
            const QString title = m->frame.timeTitle.isEmpty() ? tr("time since capture start (s)") : m->frame.timeTitle;
            painter.drawText(QPointF(r.center().x() - textWidth(m->labelFont, title) / 2,
                                     r.bottom() + kTickLength + titleHeight + 2 + titleAscent),
                             title);
        }

        // Legend lines above the plot, within its width.
        painter.setFont(m->legendFont);
        const double legendAscent = QFontMetricsF(m->legendFont, const_cast<QPaintDevice*>(measureDevice())).ascent();
        for (std::size_t row = 0; row < l.legendRows.size(); ++row) {
            double x = r.left();
            const double y = l.top + static_cast<double>(row) * legendLine;
            for (int i : l.legendRows[row]) {
                const PlotSeries& s = l.panel.series[static_cast<std::size_t>(i)];
                paintLegendIcon(painter, QRectF(x, y + 1, kIconWidth, legendLine - 2), s.shape, s.look.pick(grey));
                painter.setPen(axisColour);
                const double room = r.right() - (x + kIconWidth + 3);
                const QString text = QFontMetricsF(m->legendFont, const_cast<QPaintDevice*>(measureDevice()))
                                         .elidedText(s.name, Qt::ElideRight, room);
                painter.drawText(QPointF(x + kIconWidth + 3, y + (legendLine + legendAscent) / 2 - 1.5), text);
                x += kIconWidth + 3 + textWidth(m->legendFont, s.name) + 10;
            }
        }
    }
    painter.restore();
}

bool writeFigure(const FigurePainter& figure, int dpi, const QString& path, QString* error)
{
    return writeFigure(path, figure.width(), figure.height(), dpi,
                       [&figure](QPainter& painter, const PaintTarget& target) { figure.paint(painter, target); }, error);
}

QImage figureImage(const FigurePainter& figure, int dpi)
{
    return renderFigureImage(figure.width(), figure.height(), dpi,
                             [&figure](QPainter& painter, const PaintTarget& target) { figure.paint(painter, target); });
}

} // namespace windscope::render
