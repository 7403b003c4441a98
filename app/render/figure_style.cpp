// SPDX-License-Identifier: GPL-3.0-or-later
#include "figure_style.h"

#include <QCoreApplication>
#include <QPainter>
#include <QPainterPath>
#include <QPolygonF>

namespace windscope::render {

QList<ExportPreset> exportPresets()
{
    auto tr = [](const char* text) { return QCoreApplication::translate("ExportPreset", text); };
    return {
        {QStringLiteral("single-column"), tr("Single column (85 mm, 7 pt, grayscale)"), 85, 30, 7, true, 300},
        {QStringLiteral("double-column"), tr("Double column (175 mm, 8 pt, grayscale)"), 175, 40, 8, true, 300},
        {QStringLiteral("double-column-colour"), tr("Double column (175 mm, 8 pt, colour)"), 175, 40, 8, false, 300},
        {QStringLiteral("screen"), tr("As on screen"), 0, 0, 9, false, 96},
    };
}

std::optional<ExportPreset> exportPreset(const QString& id)
{
    for (const ExportPreset& p : exportPresets())
        if (p.id == id)
            return p;
    return std::nullopt;
}

bool isScreenPreset(const ExportPreset& preset) { return preset.id == QLatin1String("screen"); }

void drawMarker(QPainter& painter, Marker marker, const QPointF& p, double size, const QColor& colour,
                double lineWidth)
{
    if (marker == Marker::None)
        return;
    const double r = size / 2;
    QPen pen(colour, lineWidth);
    pen.setJoinStyle(Qt::MiterJoin);
    painter.setPen(pen);
    const bool filled = marker == Marker::Disc || marker == Marker::FilledSquare || marker == Marker::FilledTriangle;
    painter.setBrush(filled ? QBrush(colour) : QBrush(Qt::white));
    switch (marker) {
    case Marker::None: break;
    case Marker::Disc:
    case Marker::Circle: painter.drawEllipse(p, r, r); break;
    case Marker::Square:
    case Marker::FilledSquare: painter.drawRect(QRectF(p.x() - r * 0.85, p.y() - r * 0.85, r * 1.7, r * 1.7)); break;
    case Marker::Triangle:
    case Marker::FilledTriangle:
        painter.drawPolygon(QPolygonF({QPointF(p.x(), p.y() - r), QPointF(p.x() + r, p.y() + r * 0.8),
                                       QPointF(p.x() - r, p.y() + r * 0.8)}));
        break;
    case Marker::Diamond:
        painter.drawPolygon(QPolygonF({QPointF(p.x(), p.y() - r), QPointF(p.x() + r, p.y()), QPointF(p.x(), p.y() + r),
                                       QPointF(p.x() - r, p.y())}));
        break;
    case Marker::Plus:
        painter.drawLine(QPointF(p.x() - r, p.y()), QPointF(p.x() + r, p.y()));
        painter.drawLine(QPointF(p.x(), p.y() - r), QPointF(p.x(), p.y() + r));
        break;
    case Marker::Cross:
        painter.drawLine(QPointF(p.x() - r, p.y() - r), QPointF(p.x() + r, p.y() + r));
        painter.drawLine(QPointF(p.x() - r, p.y() + r), QPointF(p.x() + r, p.y() - r));
        break;
    }
    painter.setBrush(Qt::NoBrush);
}

QColor eventBandColour(analysis::WlanEventKind kind, bool grayscale)
{
    if (grayscale)
        return QColor(0, 0, 0, kind == analysis::WlanEventKind::Handoff ? 90 : 60);
    switch (kind) {
    case analysis::WlanEventKind::Scan: return QColor(66, 133, 244, 55);
    case analysis::WlanEventKind::PowerSave: return QColor(52, 168, 83, 55);
    case analysis::WlanEventKind::Handoff: return QColor(234, 67, 53, 60);
    case analysis::WlanEventKind::OutageInferred: return QColor(120, 120, 120, 55);
    // The lifecycle: joining in shades of teal, leaving and failing in shades of orange.
    case analysis::WlanEventKind::Authentication: return QColor(0, 150, 136, 45);
    case analysis::WlanEventKind::Association: return QColor(0, 121, 107, 55);
    case analysis::WlanEventKind::EapolHandshake: return QColor(77, 182, 172, 55);
    case analysis::WlanEventKind::Deauthentication: return QColor(230, 81, 0, 70);
    case analysis::WlanEventKind::Disassociation: return QColor(245, 124, 0, 70);
    case analysis::WlanEventKind::AssociationRefused: return QColor(191, 54, 12, 70);
    case analysis::WlanEventKind::AttemptUnanswered: return QColor(255, 167, 38, 60);
    case analysis::WlanEventKind::FailedRoam: return QColor(142, 36, 170, 50);
    case analysis::WlanEventKind::Disconnection: return QColor(66, 66, 66, 50);
    // An absence too short to be called a scan: the scan's hue, fainter.
    case analysis::WlanEventKind::Absence: return QColor(66, 133, 244, 30);
    case analysis::WlanEventKind::BeaconLoss: return QColor(121, 85, 72, 60);
    }
    return QColor(0, 0, 0, 40);
}

Qt::BrushStyle eventBandPattern(analysis::WlanEventKind kind, bool grayscale)
{
    if (!grayscale)
        return Qt::SolidPattern;
    // Hatching tells kinds apart in print where tints of grey do not.
    switch (kind) {
    case analysis::WlanEventKind::Scan: return Qt::BDiagPattern;
    case analysis::WlanEventKind::PowerSave: return Qt::Dense6Pattern;
    case analysis::WlanEventKind::Handoff: return Qt::DiagCrossPattern;
    case analysis::WlanEventKind::OutageInferred: return Qt::FDiagPattern;
    case analysis::WlanEventKind::Authentication:
    case analysis::WlanEventKind::Association:
    case analysis::WlanEventKind::EapolHandshake: return Qt::Dense4Pattern;
    case analysis::WlanEventKind::Deauthentication:
    case analysis::WlanEventKind::Disassociation:
    case analysis::WlanEventKind::AssociationRefused:
    case analysis::WlanEventKind::AttemptUnanswered: return Qt::CrossPattern;
    case analysis::WlanEventKind::FailedRoam: return Qt::HorPattern;
    case analysis::WlanEventKind::Disconnection: return Qt::VerPattern;
    case analysis::WlanEventKind::Absence: return Qt::Dense7Pattern;
    case analysis::WlanEventKind::BeaconLoss: return Qt::Dense5Pattern;
    }
    return Qt::SolidPattern;
}

} // namespace windscope::render
