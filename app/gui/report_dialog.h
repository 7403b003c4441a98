// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// File ▸ Export report: which connections get figures (the selected one by default),
// which plots, the figure preset, whether to add a figure zoomed to each connection's
// worst event, and the file (.html or .pdf).

#include "model/capture_analysis.h"
#include "render/report.h"

#include <QDialog>

class QCheckBox;
class QComboBox;
class QLineEdit;
class QListWidget;

namespace windscope::gui {

using render::ReportOptions;
using render::defaultReportPreset;

class ReportDialog : public QDialog
{
    Q_OBJECT
public:
    ReportDialog(const CaptureAnalysis& capture, int selectedConnection, const QString& suggestedPath,
                 QWidget* parent = nullptr);

    ReportOptions options() const;
    QString path() const;
    QListWidget* connectionList() const { return m_connections; }
    void setPath(const QString& path);

private:
    void browse();

    QListWidget* m_connections;
    QList<QCheckBox*> m_plots;
    QComboBox* m_preset;
    QCheckBox* m_eventFigures;
    QLineEdit* m_path;
};

} // namespace windscope::gui
