// SPDX-License-Identifier: GPL-3.0-or-later
#include "replay_dialog.h"

#include "analysis/replay/scenario/fix.h"
#include "analysis/replay/scenario/presets.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>

namespace windscope::gui {

ReplayDialog::ReplayDialog(int connection, const QString& connectionName, QWidget* parent)
    : QDialog(parent), m_connection(connection), m_source(new QComboBox(this)), m_fixCatalog(new QComboBox(this)),
      m_fixes(new QLineEdit(this)), m_error(new QLabel(this))
{
    setWindowTitle(tr("Replay and compare"));
    m_source->addItem(tr("Derived from connection %1 (%2)").arg(connection).arg(connectionName), QString());
    for (const auto& p : analysis::replay::presetCatalog())
        m_source->addItem(tr("Preset %1: %2")
                              .arg(QString::fromUtf8(p.name.data(), static_cast<qsizetype>(p.name.size())),
                                   QString::fromUtf8(p.summary.data(), static_cast<qsizetype>(p.summary.size()))),
                          QString::fromUtf8(p.name.data(), static_cast<qsizetype>(p.name.size())));
    m_fixCatalog->addItem(tr("Add a fix…"));
    for (const auto& f : analysis::replay::fixCatalog()) {
        const QString name = QString::fromUtf8(f.name.data(), static_cast<qsizetype>(f.name.size()));
        const QString hint = QString::fromUtf8(f.valueHint.data(), static_cast<qsizetype>(f.valueHint.size()));
        m_fixCatalog->addItem(hint.isEmpty() ? name : name + QLatin1Char('=') + hint, name + (hint.isEmpty() ? QString() : QStringLiteral("=")));
        QString tip = QString::fromUtf8(f.summary.data(), static_cast<qsizetype>(f.summary.size()));
        if (!f.unit.empty())
            tip += tr(" (value in %1)").arg(QString::fromUtf8(f.unit.data(), static_cast<qsizetype>(f.unit.size())));
        m_fixCatalog->setItemData(m_fixCatalog->count() - 1, tip, Qt::ToolTipRole);
    }
    connect(m_fixCatalog, &QComboBox::activated, this, [this](int index) {
        if (index <= 0)
            return;
        const QString text = m_fixes->text().trimmed();
        m_fixes->setText((text.isEmpty() ? QString() : text + QLatin1Char(' ')) + m_fixCatalog->itemData(index).toString());
        m_fixCatalog->setCurrentIndex(0);
        m_fixes->setFocus();
    });
    m_fixes->setPlaceholderText(tr("none: the baseline (e.g. ap-zero-window-ack scan-interval=200)"));
    m_error->setStyleSheet(QStringLiteral("color:#b00"));
    m_error->setWordWrap(true);
    auto* form = new QFormLayout(this);
    form->addRow(tr("Scenario"), m_source);
    form->addRow(tr("Fixes"), m_fixes);
    form->addRow(QString(), m_fixCatalog);
    form->addRow(m_error);
    auto* note = new QLabel(tr("The run is compared with the connection as captured; it runs in the background."), this);
    note->setWordWrap(true);
    form->addRow(note);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &ReplayDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    form->addRow(buttons);
    resize(620, 240);
}

ReplayRequest ReplayDialog::request() const
{
    ReplayRequest r;
    r.connection = static_cast<std::size_t>(std::max(m_connection, 0));
    r.preset = m_source->currentData().toString();
    r.fixes = m_fixes->text().split(QLatin1Char(' '), Qt::SkipEmptyParts);
    return r;
}

void ReplayDialog::accept()
{
    const QString problem = validateReplayRequest(request());
    if (!problem.isEmpty()) {
        m_error->setText(problem);
        return;
    }
    QDialog::accept();
}

} // namespace windscope::gui
