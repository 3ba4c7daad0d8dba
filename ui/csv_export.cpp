#include "csv_export.h"

#include "operator_table_model.h"

#include "gpuforecast/csv.h"
#include "gpuforecast/extrapolation.h"

#include <cstdio>
#include <sstream>

namespace gpuforecast::ui {
namespace {

std::string number(double v, int digits = 6)
{
    char text[64];
    std::snprintf(text, sizeof text, "%.*g", digits, v);
    return text;
}

} // namespace

std::string comparisonCsv(const ForecastSession& session, const QString& baselineGpu)
{
    std::ostringstream out;
    out << csv::joinRow({"model", "batch", "seq", "mode", "fused", "checkpointing", "tp", "pp", "dp", "zero", "gpu", "step_ms", "forward_ms",
                         "backward_ms", "comm_ms", "bubble_ms", "speedup_vs", "speedup", "tokens_per_s",
                         "samples_per_s", "tokens_per_s_per_w", "tokens_per_s_per_1k_usd", "memory_gb",
                         "gpu_memory_gb", "fits", "fits_tightly", "gemm_efficiency_from", "coverage", "caution", "measured_ms",
                         "measured_run"})
        << '\n';
    const auto forecasts = session.forecasts();
    if (forecasts->empty())
        return out.str();
    const ModelForecast* base = &forecasts->front();
    for (const auto& f : *forecasts)
        if (QString::fromStdString(f.gpu) == baselineGpu)
            base = &f;
    const auto& opt = session.options();
    const auto& layout = session.layout();
    const double tokens = double(opt.batch) * double(opt.seq);
    for (const ModelForecast& f : *forecasts) {
        const double seconds = f.totalSeconds();
        const double tokensPerSecond = seconds > 0 ? tokens / seconds : 0;
        const GpuSpec* spec = session.gpu(QString::fromStdString(f.gpu));
        std::string perWatt, perDollar, donor, coverage, caution, measuredMs, measuredRun;
        // Of every GPU the layout uses: the throughput is the whole server's. Empty where the model
        // does not fit, as on the chart: sorted by value, a GPU that cannot run it came out first.
        const double gpus = double(layout.gpus());
        if (spec && spec->tdpW > 0 && f.fits())
            perWatt = number(tokensPerSecond / (spec->tdpW * gpus));
        if (spec && spec->priceUsd && *spec->priceUsd > 0 && f.fits())
            perDollar = number(tokensPerSecond / (*spec->priceUsd * gpus / 1e3));
        if (spec) {
            // As the forecast saw it (a what-if variant keeps its sheet's learned efficiency).
            const GpuSpec gpu = session.effectiveGpu(QString::fromStdString(f.gpu));
            const SpecCoverage c = session.forecaster().coverage(gpu);
            const auto& d = c.donor;
            if (d)
                donor = d->gpu.id;
            // The words of the Compare chart and the what-if panel, for a spreadsheet to filter on.
            coverage = coverageName(c.level);
            if (d)
                if (const GpuSpec* lender = session.gpu(QString::fromStdString(d->gpu.id)))
                    caution = slotPoweredDonorCaution(gpu, lender->efficiencySheet(), d->weight).value_or("");
        }
        // The Compare chart's diamond: a run timed exactly as forecast (ForecastSession::measuredRun).
        if (const MeasuredRun* run = session.measuredRun(QString::fromStdString(f.gpu))) {
            measuredMs = number(run->ms);
            measuredRun = run->source + ": " + run->name;
        }
        out << csv::joinRow({session.modelName().toStdString(), std::to_string(opt.batch), std::to_string(opt.seq),
                             opt.training ? "training" : "inference", opt.fusion ? "yes" : "no",
                             opt.training && opt.checkpointing ? "yes" : "no",
                             std::to_string(layout.tp), std::to_string(layout.pp), std::to_string(layout.dp),
                             std::to_string(layout.zero), f.gpu,
                             number(seconds * 1e3), number(f.forwardSeconds * 1e3),
                             number((f.backwardSeconds + f.accumulateSeconds) * 1e3), number(f.commSeconds * 1e3),
                             number(f.bubbleSeconds * 1e3), base->gpu,
                             number(seconds > 0 ? base->totalSeconds() / seconds : 0, 4), number(tokensPerSecond),
                             number(seconds > 0 ? double(opt.batch) / seconds : 0), perWatt, perDollar,
                             number(f.memory.totalBytes() / 1e9, 4), number(f.gpuMemoryBytes / 1e9, 4),
                             f.fits() ? "yes" : "no", f.fitsTightly() ? "yes" : "no", donor, coverage, caution, measuredMs, measuredRun})
            << '\n';
    }
    return out.str();
}

std::string operatorTableCsv(const QAbstractItemModel& view, const QString& gpuId)
{
    using C = OperatorTableModel::Column;
    static const std::pair<int, const char*> kColumns[] = {
        {C::Name, "operator"}, {C::Class, "class"}, {C::Phase, "phase"},   {C::Count, "count"},
        {C::Dims, "dims"},     {C::Tile, "tile"},   {C::Waves, "waves"},   {C::Utilization, "utilization"},
        {C::Bound, "bound"},   {C::TimeMs, "time_ms"}, {C::Share, "share"}};
    std::vector<std::string> header{"gpu"};
    for (const auto& [column, name] : kColumns) {
        header.push_back(name);
        if (column == C::Phase)
            header.push_back("part"); // "grad weight", ... or empty
        if (column == C::Waves) {
            header.push_back("priced_waves");
            header.push_back("waves_on_sms"); // empty: over the GPU's own SMs
        }
    }
    std::ostringstream out;
    out << csv::joinRow(header) << '\n';
    for (int row = 0; row < view.rowCount(); ++row) {
        std::vector<std::string> cells{gpuId.toStdString()};
        for (const auto& [column, name] : kColumns) {
            const QModelIndex index = view.index(row, column);
            if (column == C::Waves) { // the count it was priced at next to its own (a GEMM may be priced in more)
                const QVariant own = index.data(OperatorTableModel::SortRole), pricedAt = index.data(OperatorTableModel::PricedWavesRole);
                cells.push_back(pricedAt.isValid() ? number(own.toDouble(), 8) : std::string());
                cells.push_back(pricedAt.isValid() ? number(pricedAt.toDouble(), 8) : std::string());
                const QVariant sms = index.data(OperatorTableModel::LayoutSmsRole);
                cells.push_back(sms.isValid() ? number(sms.toDouble(), 8) : std::string());
                continue;
            }
            if (column == C::Phase) { // "bw" and "grad weight", where the table shows "bw: grad weight"
                cells.push_back(index.data(OperatorTableModel::PhaseNameRole).toString().toStdString());
                cells.push_back(index.data(OperatorTableModel::PartRole).toString().toStdString());
                continue;
            }
            const QVariant raw = index.data(OperatorTableModel::SortRole);
            const bool numeric = column == C::Count || column == C::Utilization ||
                                 column == C::TimeMs || column == C::Share;
            const QString text = index.data(Qt::DisplayRole).toString();
            if (!numeric || text.isEmpty()) // empty: not priced by waves (a copy, say)
                cells.push_back(text.toStdString());
            else
                cells.push_back(number(raw.toDouble(), 8));
        }
        out << csv::joinRow(cells) << '\n';
    }
    return out.str();
}

} // namespace gpuforecast::ui
