// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The 802.11 inventory as a table: access points, or stations with the BSSIDs they
// used and the IP addresses learned for them.

#include "capture_analysis.h"

#include <QAbstractTableModel>

#include <memory>

namespace windscope::gui {

class InventoryTableModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum class Kind { AccessPoints, Stations };
    explicit InventoryTableModel(Kind kind, QObject* parent = nullptr);
    void setCapture(std::shared_ptr<const CaptureAnalysis> capture);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QVariant apData(std::size_t row, int column) const;
    QVariant stationData(std::size_t row, int column) const;

    Kind m_kind;
    std::shared_ptr<const CaptureAnalysis> m_capture;
};

} // namespace windscope::gui
