// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The correlation table of a capture, sortable: one row per (802.11 event, affected
// connection). Clicking or activating a row asks to show that event on that connection.

#include "model/capture_analysis.h"

#include <QWidget>

#include <memory>

class QSortFilterProxyModel;
class QTableView;

namespace windscope::gui {

class CorrelationTableModel;

class CorrelationPanel : public QWidget
{
    Q_OBJECT
public:
    explicit CorrelationPanel(QWidget* parent = nullptr);

    void setCapture(std::shared_ptr<const CaptureAnalysis> capture);
    QTableView* view() const { return m_view; }
    CorrelationTableModel* model() const { return m_model; }
    QSortFilterProxyModel* proxy() const { return m_proxy; }

signals:
    // Indices in WlanEvents::events and TcpAnalysis::connections.
    void rowActivated(int event, int connection);

private:
    CorrelationTableModel* m_model;
    QSortFilterProxyModel* m_proxy;
    QTableView* m_view;
};

} // namespace windscope::gui
