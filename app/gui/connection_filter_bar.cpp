// SPDX-License-Identifier: GPL-3.0-or-later
#include "connection_filter_bar.h"

#include "model/connection_filter_model.h"

#include <QDoubleSpinBox>
#include <QGridLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>

namespace windscope::gui {

namespace {
// The maximum spin boxes start at their minimum value, shown as "any": no upper limit.
constexpr int kMaxRetx = 1000000;
constexpr double kMaxMbps = 100000;
} // namespace

ConnectionFilterBar::ConnectionFilterBar(ConnectionFilterModel* filter, QWidget* parent)
    : QWidget(parent), m_filter(filter)
{
    auto* grid = new QGridLayout(this);
    grid->setContentsMargins(0, 0, 0, 0);
    m_text = new QLineEdit(this);
    m_text->setPlaceholderText(tr("Filter: address, port, station"));
    m_text->setClearButtonEnabled(true);
    grid->addWidget(m_text, 0, 0, 1, 5);

    m_minRetx = new QSpinBox(this);
    m_minRetx->setRange(0, kMaxRetx);
    m_maxRetx = new QSpinBox(this);
    m_maxRetx->setRange(-1, kMaxRetx);
    m_maxRetx->setValue(-1);
    m_maxRetx->setSpecialValueText(tr("any"));
    m_minThroughput = new QDoubleSpinBox(this);
    m_minThroughput->setRange(0, kMaxMbps);
    m_minThroughput->setDecimals(3);
    m_minThroughput->setSuffix(tr(" Mb/s"));
    m_maxThroughput = new QDoubleSpinBox(this);
    m_maxThroughput->setRange(-1, kMaxMbps);
    m_maxThroughput->setDecimals(3);
    m_maxThroughput->setValue(-1);
    m_maxThroughput->setSpecialValueText(tr("any"));
    m_maxThroughput->setSuffix(tr(" Mb/s"));
    m_minRetx->setToolTip(tr("Connections with at least this many retransmissions (data direction)"));
    m_maxRetx->setToolTip(tr("... and at most this many"));
    m_minThroughput->setToolTip(tr("Connections whose data direction reached at least this throughput"));
    m_maxThroughput->setToolTip(tr("... and at most this throughput"));

    grid->addWidget(new QLabel(tr("Retx"), this), 1, 0);
    grid->addWidget(m_minRetx, 1, 1);
    grid->addWidget(new QLabel(tr("to"), this), 1, 2);
    grid->addWidget(m_maxRetx, 1, 3);
    grid->addWidget(new QLabel(tr("Throughput"), this), 2, 0);
    grid->addWidget(m_minThroughput, 2, 1);
    grid->addWidget(new QLabel(tr("to"), this), 2, 2);
    grid->addWidget(m_maxThroughput, 2, 3);
    grid->setColumnStretch(4, 1);

    connect(m_text, &QLineEdit::textChanged, m_filter, &ConnectionFilterModel::setText);
    for (QSpinBox* s : {m_minRetx, m_maxRetx})
        connect(s, &QSpinBox::valueChanged, this, &ConnectionFilterBar::applyRanges);
    for (QDoubleSpinBox* s : {m_minThroughput, m_maxThroughput})
        connect(s, &QDoubleSpinBox::valueChanged, this, &ConnectionFilterBar::applyRanges);
}

void ConnectionFilterBar::applyRanges()
{
    m_filter->setRetransmissionRange(m_minRetx->value(), m_maxRetx->value());
    m_filter->setThroughputRangeMbps(m_minThroughput->value(), m_maxThroughput->value());
}

} // namespace windscope::gui
