// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The filters above the connection table: text (addresses, ports, station), a range of
// retransmission counts and a range of throughput, applied to a ConnectionFilterModel.

#include <QWidget>

class QDoubleSpinBox;
class QLineEdit;
class QSpinBox;

namespace windscope::gui {

class ConnectionFilterModel;

class ConnectionFilterBar : public QWidget
{
    Q_OBJECT
public:
    explicit ConnectionFilterBar(ConnectionFilterModel* filter, QWidget* parent = nullptr);

    QLineEdit* textEdit() const { return m_text; }
    QSpinBox* minRetransmissions() const { return m_minRetx; }
    QSpinBox* maxRetransmissions() const { return m_maxRetx; }
    QDoubleSpinBox* minThroughput() const { return m_minThroughput; }
    QDoubleSpinBox* maxThroughput() const { return m_maxThroughput; }

private:
    void applyRanges();

    ConnectionFilterModel* m_filter;
    QLineEdit* m_text;
    QSpinBox* m_minRetx;
    QSpinBox* m_maxRetx;
    QDoubleSpinBox* m_minThroughput;
    QDoubleSpinBox* m_maxThroughput;
};

} // namespace windscope::gui
