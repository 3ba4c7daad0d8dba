#include "gpu_list_model.h"

namespace gpuforecast::ui {

GpuListModel::GpuListModel(ForecastSession* session, QObject* parent) : QAbstractListModel(parent), session_(session)
{
    connect(session_, &ForecastSession::gpusChanged, this, [this] {
        beginResetModel();
        endResetModel();
    });
    connect(session_, &ForecastSession::forecastsChanged, this, [this] {
        if (rowCount() > 0)
            emit dataChanged(index(0), index(rowCount() - 1), {Qt::CheckStateRole});
    });
}

int GpuListModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(session_->gpus().size());
}

QVariant GpuListModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const GpuSpec& g = session_->gpus()[std::size_t(index.row())];
    const QString id = QString::fromStdString(g.id);
    switch (role) {
    case Qt::DisplayRole:
        return session_->isUserGpu(id) ? id + "  (yours)" : id;
    case IdRole:
        return id;
    case Qt::CheckStateRole:
        return session_->selectedGpus().contains(id) ? Qt::Checked : Qt::Unchecked;
    case Qt::ToolTipRole:
        return QString("%1\n%2 SMs, %3 TFLOP/s FP32, %4 GB/s, %5 GB, %6 MB L2")
            .arg(QString::fromStdString(g.name))
            .arg(g.smCount)
            .arg(g.fp32Gflops / 1e3, 0, 'f', 1)
            .arg(g.memoryBandwidthGBps)
            .arg(g.memoryGb)
            .arg(g.l2CacheMb);
    default:
        return {};
    }
}

bool GpuListModel::setData(const QModelIndex& index, const QVariant& value, int role)
{
    if (role != Qt::CheckStateRole || !checkIndex(index, CheckIndexOption::IndexIsValid))
        return false;
    const QString id = QString::fromStdString(session_->gpus()[std::size_t(index.row())].id);
    session_->setGpuSelected(id, value.toInt() == Qt::Checked);
    emit dataChanged(index, index, {Qt::CheckStateRole});
    return true;
}

Qt::ItemFlags GpuListModel::flags(const QModelIndex& index) const
{
    if (!index.isValid())
        return Qt::NoItemFlags;
    return Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemIsUserCheckable;
}

} // namespace gpuforecast::ui
