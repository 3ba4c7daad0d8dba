#include "spec_table_model.h"

#include "gpuforecast/error.h"

#include <QBrush>
#include <QLocale>
#include <QColor>
#include <QFont>
#include <QUndoCommand>
#include <QUndoStack>

namespace gpuforecast::ui {

// Sheet fields that no latency forecast reads, and what they are for. FP32 forecasts price the FP32
// peak (cores x clock is already in it) and use no tensor cores; power and price only divide the
// Compare chart's throughput. An architect who edits the clock must not wait for a change.
QString SpecTableModel::forecastUse(const std::string& key)
{
    if (key == "launch_year")
        return tr("For reference: no forecast reads the date.");
    if (key == "cores_per_sm" || key == "boost_clock_mhz")
        return tr("For reference: forecasts use the FP32 peak, which already counts cores and clock.");
    if (key == "fp16_tensor_gflops" || key == "bf16_tensor_gflops")
        return tr("For reference: forecasts are of FP32 kernels, which use no tensor cores.");
    if (key == "tdp_w" || key == "price_usd")
        return tr("Used only for the Compare chart's throughput per watt and per dollar.");
    if (key == "fp32_gflops")
        return tr("Vector kernels' peak. GEMMs use the FP32 matrix peak, which follows this one while the two are equal.");
    if (key == "sm_count")
        return tr("Tiles are counted in waves over the SMs. The FP32 peaks are the sheet's own and do not follow "
                  "an edit here (the SM count what-if slider scales both).");
    if (key == "l1_cache_kb")
        return tr("Whether long softmax and layer-norm rows are read again from L1 or from DRAM. Where L1 and "
                  "shared memory are one array (NVIDIA since Volta), give the array's size; 64 KB of it is "
                  "taken as shared memory. Not given: 128 KB.");
    if (key == "interconnect.max_gpus")
        return tr("For reference: no time changes; a layout of more GPUs says that the path between the "
                  "link's groups is not priced. Not given: a server's 8.");
    if (key == "max_threads_per_sm")
        return tr("How many softmax and layer-norm rows share an SM's L1. Not given: 2048.");
    return {};
}
namespace {

// Applies one field value to one GPU through the session; undo applies the old value.
class SetSpecFieldCommand : public QUndoCommand {
public:
    SetSpecFieldCommand(ForecastSession* s, QString gpu, std::string key, double before, double after)
        : session_(s), gpu_(std::move(gpu)), key_(std::move(key)), before_(before), after_(after)
    {
        setText(QString("%1 %2 = %3").arg(gpu_, QString::fromStdString(key_)).arg(after_));
    }
    void redo() override { apply(after_); }
    void undo() override { apply(before_); }

private:
    void apply(double v)
    {
        const GpuSpec* g = session_->gpu(gpu_);
        if (!g)
            return; // the GPU was deleted since; nothing to restore
        GpuSpec copy = *g;
        setSpecField(copy, key_, v);
        session_->updateGpu(copy);
    }
    ForecastSession* session_;
    QString gpu_;
    std::string key_;
    double before_, after_;
};

} // namespace

SpecTableModel::SpecTableModel(ForecastSession* session, QUndoStack* undo, QObject* parent)
    : QAbstractTableModel(parent), session_(session), undo_(undo)
{
    connect(session_, &ForecastSession::gpusChanged, this, [this] {
        if (!session_->gpu(gpuId_))
            setGpu({});
        else if (rowCount() > 0)
            emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
    });
}

void SpecTableModel::setGpu(const QString& id)
{
    beginResetModel();
    gpuId_ = session_->gpu(id) ? id : QString();
    rejected_.clear();
    endResetModel();
}

int SpecTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() || gpuId_.isEmpty() ? 0 : int(specFields().size());
}

int SpecTableModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant SpecTableModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const SpecField& f = specFields()[std::size_t(index.row())];
    const GpuSpec* g = session_->gpu(gpuId_);
    if (!g)
        return {};
    const auto value = specFieldValue(*g, f.key);
    if (role == Qt::DisplayRole || role == Qt::EditRole) {
        switch (index.column()) {
        case FieldColumn: return QString::fromUtf8(f.label);
        case ValueColumn:
            // Edited as text, so setData() can refuse a value with its reason: as a double the
            // default editor was a spin box with two decimals ("200.00" SMs) that clamped silently.
            if (!value || (f.optional && *value == 0))
                return role == Qt::EditRole ? QString("0") : QString("—");
            // The shortest text that reads back as the same number: a rounded one, committed by
            // Enter on an untouched cell, would have made the sheet "edited".
            return role == Qt::EditRole ? QString::number(*value, 'g', QLocale::FloatingPointShortest)
                                        : QString::number(*value, 'g', 8);
        case UnitColumn: return QString::fromUtf8(f.unit);
        }
    }
    // Only the FP32 peaks' cells carry the sheet's checks: its arithmetic, a matrix peak assumed
    // (not NVIDIA) or two NVIDIA peaks that differ (matrixPeakNote).
    const auto peakMismatch = f.key == std::string_view("fp32_gflops")          ? fp32PeakMismatch(*g)
                              : f.key == std::string_view("fp32_matrix_gflops") ? matrixPeakNote(*g)
                                                                                 : std::nullopt;
    if (role == Qt::ToolTipRole && index.column() == ValueColumn) {
        if (rejected_.contains(index.row()))
            return rejected_.value(index.row());
        QString tip = QString("%1 (%2), accepted range %3 to %4").arg(f.label, f.key).arg(f.lo).arg(f.hi);
        if (const QString use = forecastUse(f.key); !use.isEmpty())
            tip += "\n" + use;
        if (peakMismatch)
            tip += "\n" + tr("Check the sheet: %1.").arg(QString::fromStdString(*peakMismatch));
        return tip;
    }
    if (role == Qt::FontRole && index.column() == ValueColumn && forecastUse(f.key).startsWith(tr("For reference"))) {
        QFont italic;
        italic.setItalic(true); // for reference: say so before someone edits it and waits for a change
        return italic;
    }
    if (role == Qt::ForegroundRole && index.column() == ValueColumn && rejected_.contains(index.row()))
        return QBrush(Qt::red);
    // A peak that disagrees with SMs x cores x clock is most likely a typo the forecast would use.
    if (role == Qt::ForegroundRole && index.column() == ValueColumn && peakMismatch)
        return QBrush(QColor(213, 94, 0)); // the charts' vermillion: a warning, not a refusal
    if (role == Qt::BackgroundRole && index.column() == ValueColumn && peakMismatch)
        return QBrush(QColor(255, 236, 217));
    if (role == Qt::TextAlignmentRole && index.column() == ValueColumn)
        return int(Qt::AlignRight | Qt::AlignVCenter);
    return {};
}

QVariant SpecTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case FieldColumn: return tr("Field");
    case ValueColumn: return tr("Value");
    case UnitColumn: return tr("Unit");
    }
    return {};
}

bool SpecTableModel::setData(const QModelIndex& index, const QVariant& value, int role)
{
    if (role != Qt::EditRole || index.column() != ValueColumn || !checkIndex(index, CheckIndexOption::IndexIsValid))
        return false;
    const GpuSpec* g = session_->gpu(gpuId_);
    if (!g)
        return false;
    const SpecField& f = specFields()[std::size_t(index.row())];
    bool ok = false;
    const double v = value.toString().trimmed().toDouble(&ok);
    QString error;
    GpuSpec copy = *g;
    if (!ok) {
        error = QString("%1: %2: '%3' is not a number").arg(gpuId_, f.key, value.toString());
    } else {
        try {
            setSpecField(copy, f.key, v);
        } catch (const ForecastError& e) {
            error = QString::fromUtf8(e.what());
        }
    }
    if (!error.isEmpty()) {
        rejected_.insert(index.row(), error);
        emit dataChanged(index, index);
        emit editRejected(error);
        return false;
    }
    rejected_.remove(index.row());
    const double before = specFieldValue(*g, f.key).value_or(0);
    if (before == v)
        return true;
    // NVIDIA sheets give one FP32 peak for both; GEMMs read the matrix one. Left behind, an edited
    // FP32 peak changed no forecast at all (vector kernels are memory-bound).
    if (f.key == std::string("fp32_gflops") && g->fp32MatrixGflops == g->fp32Gflops) {
        undo_->beginMacro(tr("Set FP32 peak"));
        undo_->push(new SetSpecFieldCommand(session_, gpuId_, f.key, before, v));
        undo_->push(new SetSpecFieldCommand(session_, gpuId_, "fp32_matrix_gflops", before, v));
        undo_->endMacro();
        return true;
    }
    const bool agreed = !fp32PeakMismatch(*g);
    undo_->push(new SetSpecFieldCommand(session_, gpuId_, f.key, before, v));
    if (const GpuSpec* now = session_->gpu(gpuId_); now && agreed && fp32PeakMismatch(*now)) {
        const double product = fp32PeakFromCoresGflops(*now);
        emit sheetDisagrees(tr("%1: the FP32 peak stays %2 GFLOP/s, as forecasts use it as given; SMs x cores x clock "
                               "now make %3 GFLOP/s: set the peak to that to give the change its FLOPs")
                                .arg(gpuId_, QString::number(now->fp32Gflops, 'g', 8), QString::number(product, 'g', 8)));
    }
    return true;
}

Qt::ItemFlags SpecTableModel::flags(const QModelIndex& index) const
{
    if (!index.isValid())
        return Qt::NoItemFlags;
    Qt::ItemFlags f = Qt::ItemIsEnabled | Qt::ItemIsSelectable;
    if (index.column() == ValueColumn)
        f |= Qt::ItemIsEditable;
    return f;
}

} // namespace gpuforecast::ui
