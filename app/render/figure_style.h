// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// How a figure is drawn: the presets (journal column widths with print fonts and a
// grayscale-safe style, or the window's size in colour) and the look of one series.
// In grayscale every series of a panel differs from its neighbours by dash pattern or
// marker, not only by its grey, so a photocopy still tells ACK from data.

#include "analysis/wlan/wlan_events.h"

#include <QColor>
#include <QList>
#include <QString>

#include <optional>

class QPainter;
class QPointF;

namespace windscope::render {

struct ExportPreset
{
    QString id;                // "single-column", "double-column", "double-column-colour", "screen"
    QString name;              // for menus
    double widthMm = 85;       // 0: the window's width (screen)
    double panelHeightMm = 40; // plot area of a panel of stretch 3; others scale with theirs
    double fontPt = 7;
    bool grayscale = true;
    int dpi = 300;             // PNG resolution
};

QList<ExportPreset> exportPresets();
std::optional<ExportPreset> exportPreset(const QString& id);
bool isScreenPreset(const ExportPreset& preset);

enum class Marker { None, Disc, Circle, Square, FilledSquare, Triangle, FilledTriangle, Diamond, Plus, Cross };

struct SeriesStyle
{
    QColor colour;
    Qt::PenStyle dash = Qt::SolidLine;
    double width = 1.0;        // in points at print size
    Marker marker = Marker::None;
    double markerSize = 4;     // in points
};

// A series' look in colour and in grayscale; the preset picks one.
struct SeriesLook
{
    SeriesStyle colour;
    SeriesStyle grey;
    const SeriesStyle& pick(bool grayscale) const { return grayscale ? grey : colour; }
};

// Draws a marker centred at p, size in logical pixels.
void drawMarker(QPainter& painter, Marker marker, const QPointF& p, double size, const QColor& colour,
                double lineWidth);

// Points to logical pixels (1/96 inch), the unit figures are laid out in.
constexpr double kLogicalDpi = 96.0;
inline double ptToLogical(double pt) { return pt * kLogicalDpi / 72.0; }
inline double mmToLogical(double mm) { return mm / 25.4 * kLogicalDpi; }

// The fill of an 802.11 event band: a tint per kind in colour; in grayscale, a hatching
// per kind as well, since tints of grey alone do not tell kinds apart in print.
QColor eventBandColour(analysis::WlanEventKind kind, bool grayscale);
Qt::BrushStyle eventBandPattern(analysis::WlanEventKind kind, bool grayscale);

} // namespace windscope::render
