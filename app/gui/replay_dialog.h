// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Analysis ▸ Replay and compare: the scenario (derived from the selected connection, or
// a published preset) and the fixes to apply, as windscope-cli replay takes them.

#include "replay_runner.h"

#include <QDialog>

class QComboBox;
class QLabel;
class QLineEdit;

namespace windscope::gui {

class ReplayDialog : public QDialog
{
    Q_OBJECT
public:
    ReplayDialog(int connection, const QString& connectionName, QWidget* parent = nullptr);
    ReplayRequest request() const;

    void accept() override;

private:
    int m_connection;
    QComboBox* m_source;
    QComboBox* m_fixCatalog;
    QLineEdit* m_fixes;
    QLabel* m_error;
};

} // namespace windscope::gui
