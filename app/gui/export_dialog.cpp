// SPDX-License-Identifier: GPL-3.0-or-later
#include "export_dialog.h"

#include "plots/plot_panel.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QPushButton>

namespace windscope::gui {

ExportDialog::ExportDialog(const QList<PlotPanel*>& panels, QWidget* parent)
    : QDialog(parent), m_panels(panels), m_scope(new QComboBox(this)), m_preset(new QComboBox(this)),
      m_path(new QLineEdit(QDir::home().filePath(QStringLiteral("windscope-figure.pdf")), this))
{
    setWindowTitle(tr("Export figure"));
    m_scope->addItem(tr("All plots (stack)"));
    for (PlotPanel* p : panels)
        m_scope->addItem(p->title());
    for (const ExportPreset& p : exportPresets())
        m_preset->addItem(p.name, p.id);
    auto* form = new QFormLayout(this);
    form->addRow(tr("Plots"), m_scope);
    form->addRow(tr("Preset"), m_preset);
    auto* row = new QHBoxLayout;
    row->addWidget(m_path, 1);
    auto* browse = new QPushButton(tr("Browse…"), this);
    connect(browse, &QPushButton::clicked, this, &ExportDialog::browse);
    row->addWidget(browse);
    form->addRow(tr("File (.png, .pdf, .svg)"), row);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    form->addRow(buttons);
}

void ExportDialog::browse()
{
    QString filters = tr("PDF (*.pdf);;PNG (*.png)");
    if (svgExportAvailable())
        filters += tr(";;SVG (*.svg)");
    const QString chosen = QFileDialog::getSaveFileName(this, tr("Export figure"), m_path->text(), filters);
    if (!chosen.isEmpty())
        m_path->setText(chosen);
}

QList<render::PlotKind> ExportDialog::selectedPlots() const
{
    // The stack's panels are in PlotKind order.
    const int i = m_scope->currentIndex();
    return i <= 0 ? QList<render::PlotKind>{} : QList<render::PlotKind>{render::allPlotKinds().value(i - 1)};
}

ExportPreset ExportDialog::preset() const
{
    return exportPreset(m_preset->currentData().toString()).value_or(exportPresets().front());
}

QString ExportDialog::path() const { return m_path->text(); }

} // namespace windscope::gui
