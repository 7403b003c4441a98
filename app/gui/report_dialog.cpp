// SPDX-License-Identifier: GPL-3.0-or-later
#include "report_dialog.h"

#include "plots/plot_export.h"
#include "plots/plot_panel.h"
#include "plots/plot_stack.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>

#include <algorithm>

namespace windscope::gui {

ReportDialog::ReportDialog(const CaptureAnalysis& capture, int selectedConnection, const QString& suggestedPath,
                           QWidget* parent)
    : QDialog(parent), m_connections(new QListWidget(this)), m_preset(new QComboBox(this)),
      m_eventFigures(new QCheckBox(tr("Also each connection zoomed to the event that hurt it most"), this)),
      m_path(new QLineEdit(suggestedPath, this))
{
    setWindowTitle(tr("Export report"));
    for (std::size_t k = 0; k < capture.tcp.connections.size(); ++k) {
        auto* item = new QListWidgetItem(QStringLiteral("%1  %2").arg(k).arg(connectionText(capture, k)), m_connections);
        item->setData(Qt::UserRole, static_cast<int>(k));
        item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
        item->setCheckState(static_cast<int>(k) == selectedConnection ? Qt::Checked : Qt::Unchecked);
    }
    auto* plots = new QWidget(this);
    auto* pl = new QHBoxLayout(plots);
    pl->setContentsMargins(0, 0, 0, 0);
    for (PlotKind k : allPlotKinds()) {
        auto* box = new QCheckBox(plotKindName(k), plots);
        box->setChecked(true);
        box->setProperty("plotKind", static_cast<int>(k));
        pl->addWidget(box);
        m_plots << box;
    }
    for (const ExportPreset& p : exportPresets())
        if (p.id != QLatin1String("screen"))
            m_preset->addItem(p.name, p.id);
    m_preset->setCurrentIndex(m_preset->findData(defaultReportPreset().id));
    m_eventFigures->setChecked(true);

    auto* form = new QFormLayout(this);
    form->addRow(tr("Figures of"), m_connections);
    form->addRow(tr("Plots"), plots);
    form->addRow(tr("Figure preset"), m_preset);
    form->addRow(QString(), m_eventFigures);
    auto* row = new QHBoxLayout;
    row->addWidget(m_path, 1);
    auto* browseButton = new QPushButton(tr("Browse…"), this);
    connect(browseButton, &QPushButton::clicked, this, &ReportDialog::browse);
    row->addWidget(browseButton);
    form->addRow(tr("File (.html, .pdf)"), row);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    form->addRow(buttons);
    resize(640, 520);
}

void ReportDialog::browse()
{
    const QString chosen = QFileDialog::getSaveFileName(this, tr("Export report"), m_path->text(),
                                                        tr("HTML (*.html);;PDF (*.pdf)"));
    if (!chosen.isEmpty())
        m_path->setText(chosen);
}

ReportOptions ReportDialog::options() const
{
    ReportOptions o;
    for (int i = 0; i < m_connections->count(); ++i)
        if (m_connections->item(i)->checkState() == Qt::Checked)
            o.connections << m_connections->item(i)->data(Qt::UserRole).toInt();
    bool all = true;
    for (QCheckBox* box : m_plots) {
        if (box->isChecked())
            o.plots << static_cast<PlotKind>(box->property("plotKind").toInt());
        all &= box->isChecked();
    }
    if (all)
        o.plots.clear();
    o.preset = exportPreset(m_preset->currentData().toString()).value_or(defaultReportPreset());
    o.eventFigures = m_eventFigures->isChecked();
    // Nothing ticked: a report of the tables alone.
    o.figures = !o.connections.isEmpty() && std::any_of(m_plots.begin(), m_plots.end(), [](QCheckBox* b) { return b->isChecked(); });
    return o;
}

QString ReportDialog::path() const { return m_path->text(); }
void ReportDialog::setPath(const QString& path) { m_path->setText(path); }

} // namespace windscope::gui
