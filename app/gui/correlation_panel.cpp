// SPDX-License-Identifier: GPL-3.0-or-later
#include "correlation_panel.h"

#include "model/correlation_table_model.h"

#include <QHeaderView>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

namespace windscope::gui {

CorrelationPanel::CorrelationPanel(QWidget* parent)
    : QWidget(parent), m_model(new CorrelationTableModel(this)), m_proxy(new QSortFilterProxyModel(this)),
      m_view(new QTableView(this))
{
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(CorrelationTableModel::kSortRole);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_view);
    m_view->setModel(m_proxy);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setAlternatingRowColors(true);
    m_view->verticalHeader()->hide();
    m_view->verticalHeader()->setDefaultSectionSize(m_view->fontMetrics().height() + 6);
    m_view->horizontalHeader()->setHighlightSections(false);
    m_view->setWordWrap(false);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(CorrelationTableModel::Event, Qt::AscendingOrder);
    m_view->setToolTip(tr("One row per 802.11 event and connection it affected; click to show it"));
    auto activate = [this](const QModelIndex& index) {
        if (index.isValid())
            emit rowActivated(index.data(CorrelationTableModel::kEventRole).toInt(),
                              index.data(CorrelationTableModel::kConnectionRole).toInt());
    };
    connect(m_view, &QTableView::clicked, this, activate);
    connect(m_view, &QTableView::activated, this, activate);
}

void CorrelationPanel::setCapture(std::shared_ptr<const CaptureAnalysis> capture)
{
    m_model->setCapture(std::move(capture));
    m_view->resizeColumnsToContents();
}

} // namespace windscope::gui
