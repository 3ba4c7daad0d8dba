#include "operator_table_model.h"

#include "quantity_format.h"

#include <algorithm>

namespace gpuforecast::ui {

OperatorTableModel::OperatorTableModel(ForecastSession* session, QObject* parent)
    : QAbstractTableModel(parent), session_(session)
{
    connect(session_, &ForecastSession::forecastsChanged, this, &OperatorTableModel::refresh);
    refresh();
}

void OperatorTableModel::setGpu(const QString& id)
{
    gpuId_ = id;
    refresh();
}

void OperatorTableModel::refresh()
{
    beginResetModel();
    forecasts_ = session_->forecasts(); // keep this snapshot alive while the view shows it
    if (!current() && !session_->selectedGpus().isEmpty())
        gpuId_ = session_->selectedGpus().front();
    endResetModel();
}

const ModelForecast* OperatorTableModel::current() const
{
    if (!forecasts_)
        return nullptr;
    for (const auto& f : *forecasts_)
        if (QString::fromStdString(f.gpu) == gpuId_)
            return &f;
    return nullptr;
}

bool OperatorTableModel::showsBackwardKernels() const
{
    const ModelForecast* f = current();
    return f && std::any_of(f->ops.begin(), f->ops.end(), [](const OpForecast& o) { return o.op.phase != gpuforecast::Phase::Forward; });
}

int OperatorTableModel::rowCount(const QModelIndex& parent) const
{
    const ModelForecast* f = current();
    return parent.isValid() || !f ? 0 : int(f->ops.size());
}

int OperatorTableModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant OperatorTableModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const ModelForecast* mf = current();
    const OpForecast& o = mf->ops[std::size_t(index.row())];
    const Kernel& k = o.op.kernel;
    const auto& g = o.forecast.geometry;
    const bool priced = k.opClass != OpClass::Other;
    const double ms = o.totalSeconds() * 1e3;
    const double share = mf->totalSeconds() > 0 ? o.totalSeconds() / mf->totalSeconds() : 0;
    // Launches per step on this GPU: a pipeline stage runs its share of the layers for every
    // micro-batch, which for uneven stacks (encoder/decoder) is a fraction on average.
    const double launches = double(o.op.count) * o.repeat;
    if (role == PricedWavesRole)
        return index.column() == Waves && priced ? QVariant(o.forecast.wavesPricedAt()) : QVariant();
    if (role == LayoutSmsRole)
        return index.column() == Waves && priced && o.forecast.layoutSms > 0 ? QVariant(o.forecast.layoutSms) : QVariant();
    if (role == PhaseNameRole || role == PartRole)
        return index.column() != Phase ? QVariant()
               : role == PartRole     ? QVariant(QString::fromStdString(o.op.part))
                                      : QVariant(QString::fromUtf8(phaseName(o.op.phase).data()));
    if (role == SortRole) {
        switch (index.column()) {
        case Count: return launches;
        case Waves: return priced ? g.waves : -1.0;
        case Utilization: return o.forecast.utilization;
        case TimeMs: return ms;
        case Share: return share;
        default: role = Qt::DisplayRole;
        }
    }
    if (role == Qt::TextAlignmentRole && index.column() != Name && index.column() != Class && index.column() != Phase &&
        index.column() != Dims && index.column() != Bound)
        return int(Qt::AlignRight | Qt::AlignVCenter);
    // Softmax and layer norm held to the DRAM time of rows re-read after spilling L1 (geometry.h).
    const bool rereadBound = priced && o.forecast.boundByRereads();
    if (role == Qt::ToolTipRole && index.column() == Bound && rereadBound)
        return tr("Its rows no longer fit in L1, so later passes read them again from DRAM; the time is "
                  "that traffic at 85% of the memory bandwidth (docs/method.md, section 2).");
    if (role == Qt::ToolTipRole && launches == 0 && (index.column() == Count || index.column() == TimeMs))
        return tr("Another pipeline stage runs this kernel: the first holds the embedding, the last the head. "
                  "The table shows the busiest stage's GPU.");
    if (role == Qt::ToolTipRole && index.column() == Utilization && o.forecast.heldAtRoofline())
        return tr("Held at its roofline: with the launch overhead the queue hides taken off, less time was "
                  "left than the roofline allows, so the forecast takes the roofline time. The 100% is a "
                  "floor, not an efficiency the networks learned, and the time may be low.");
    if (role == Qt::ToolTipRole && index.column() == Waves && priced && o.forecast.layoutSms > 0)
        return tr("On this sheet the kernel forecast slower than with the lesser of each of its and its basis's "
                  "resources, which the GPU could run it as; so it takes that forecast, whose tiles are laid out "
                  "on %1 SMs.").arg(o.forecast.layoutSms);
    // Fused chains have names of a hundred characters; the view elides them, the tooltip does not.
    if (role == Qt::ToolTipRole && (index.column() == Name || index.column() == Dims || index.column() == Tile))
        role = Qt::DisplayRole;
    else if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case Name: return QString::fromStdString(o.op.node);
    case Class: return QString::fromUtf8(opClassName(k.opClass).data());
    case Phase: return QString::fromStdString(phaseLabel(o.op));
    case Count: return QString::number(launches, 'g', 8);
    case Dims:
        if (k.isGemm()) { // one product needs no batch count: "4096x1280 · 1280x5120", narrow enough to show whole
            const QString operands = QString("%1x%2 · %2x%3").arg(k.m).arg(k.n).arg(k.k);
            return k.b == 1 ? operands : QString("%1 x [%2]").arg(k.b).arg(operands);
        }
        if (priced)
            return QString("%1 x %2").arg(k.b).arg(k.h);
        return tr("%1 moved").arg(formatBytes(k.fallbackBytes));
    case Tile:
        if (k.isGemm()) // a thin GEMM may run as a padded one: say so, the tile and waves are its
            return QString("%1x%2%3%4")
                .arg(g.gemmTile.alongK)
                .arg(g.gemmTile.alongM)
                .arg(g.gemmTile.reductionSplit > 1 ? QString(" /%1").arg(g.gemmTile.reductionSplit) : QString())
                .arg(o.forecast.paddedM == 0 ? QString()
                     : o.forecast.paddedN != k.n
                         ? tr(" (as %1x%2, n %3)").arg(o.forecast.paddedM).arg(o.forecast.paddedK).arg(o.forecast.paddedN)
                         : tr(" (as %1x%2)").arg(o.forecast.paddedM).arg(o.forecast.paddedK));
        if (!priced)
            return QString();
        if (k.isRowWise()) // rows x row length
            return QString("%1 x %2").arg(g.tileRows).arg(k.h);
        return QString::number(g.tileElements);
    case Waves: { // a kernel priced at more waves (KernelForecast::pricedWaves) says so
        if (!priced)
            return QString();
        // Whole numbers in full: a long-context softmax's waves read "1.62688e+07".
        const auto whole = [](double v) { return QString::number(v, 'f', 0); };
        const QString waves =
            o.forecast.pricedWaves > 0 ? tr("%1 (as %2)").arg(whole(g.waves), whole(o.forecast.pricedWaves)) : whole(g.waves);
        // A what-if kernel held at its basis's resources (KernelForecast::layoutSms): its waves
        // are over those SMs, not the slider's.
        return o.forecast.layoutSms > 0 ? tr("%1 on %2 SMs").arg(waves).arg(o.forecast.layoutSms) : waves;
    }
    case Utilization: return priced ? QString("%1%").arg(100 * o.forecast.utilization, 0, 'f', 1) : QString();
    case Bound:
        if (rereadBound)
            return tr("memory (re-reads)");
        return priced ? (g.memoryBound ? tr("memory") : tr("compute")) : tr("memory (copy)");
    case TimeMs: return formatTableMs(ms);
    case Share: return QString("%1%").arg(100 * share, 0, 'f', 1);
    }
    return {};
}

QVariant OperatorTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return {};
    if (role == Qt::ToolTipRole) { // the columns that read differently from the Waves and Roofline tabs
        if (section == Utilization)
            return tr("Roofline time over the forecast time inside the model, where the queue hides most "
                      "of the launch overhead. The Waves tab's curve is the learned law, before the overhead.");
        if (section == Bound)
            return tr("The roof that limits one tile as the GPU runs it, counting the operand panels each tile "
                      "reads again. The Roofline tab places the whole kernel by the bytes it must read once, so a "
                      "GEMM can sit right of the ridge there and be memory-bound here.");
        if (section == Tile) // its shorthand is the library's, which a reader of the table need not know
            return tr("The block of work one SM takes at a time. GEMMs: output columns x rows of a tile, as cuBLAS "
                      "picks them (128x64: 128 along k, 64 along m); \"/5\": the reduction split five ways (split-K), "
                      "the partial sums added afterwards; \"(as 256x4096)\": a thin GEMM priced as the padded shape "
                      "the library could run faster. Softmax and layer norm: rows per block x row length. "
                      "Element-wise: elements per block.");
        if (section == Waves)
            return tr("Waves of tiles over the SMs; \"1 (as 2)\": the tiles were priced in two waves, which "
                      "the networks made faster, or (softmax, layer norm) rows longer than any measured one were "
                      "priced as pieces of the longest, which fill more waves. \"4 on 58 SMs\": a what-if GPU's kernel that would be slower "
                      "on its own sheet than with the lesser of its and its basis's resources takes that "
                      "forecast, laid out on that many SMs.");
        return {};
    }
    if (role != Qt::DisplayRole)
        return {};
    static const char* names[] = {"Operator", "Time (ms)", "Share", "Class", "Phase", "Count",
                                  "Dims",     "Tile",      "Waves", "Util.", "Bound"};
    return section >= 0 && section < ColumnCount ? tr(names[section]) : QVariant();
}

} // namespace gpuforecast::ui
