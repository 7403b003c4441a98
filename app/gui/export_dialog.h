// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Chooses what to export (the whole stack or one plot), the preset and the file; the
// format follows the file's suffix.

#include "plots/plot_export.h"

#include <QDialog>

class QComboBox;
class QLineEdit;

namespace windscope::gui {

class PlotPanel;

class ExportDialog : public QDialog
{
    Q_OBJECT
public:
    ExportDialog(const QList<PlotPanel*>& panels, QWidget* parent = nullptr);

    // The plots chosen, in PlotKind order; empty: the whole stack.
    QList<render::PlotKind> selectedPlots() const;
    ExportPreset preset() const;
    QString path() const;

private:
    void browse();

    QList<PlotPanel*> m_panels;
    QComboBox* m_scope;
    QComboBox* m_preset;
    QLineEdit* m_path;
};

} // namespace windscope::gui
