#pragma once
// The GPU catalog as a checkable list: checked GPUs are the ones compared in the charts.
#include "forecast_session.h"

#include <QAbstractListModel>

namespace gpuforecast::ui {

class GpuListModel : public QAbstractListModel {
    Q_OBJECT
public:
    enum Roles { IdRole = Qt::UserRole + 1 };
    explicit GpuListModel(ForecastSession* session, QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role) override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;

private:
    ForecastSession* session_;
};

} // namespace gpuforecast::ui
