#include "gpuforecast/evaluation.h"

#include "gpuforecast/catalog.h"
#include "gpuforecast/error.h"

#include <cmath>
#include <map>

namespace gpuforecast {

std::vector<TableGpu> resolveTableGpus(const KernelTable& table, const std::vector<GpuSpec>& catalog)
{
    std::vector<TableGpu> gpus;
    std::map<std::string, std::size_t> slot;
    for (std::size_t i = 0; i < table.rows.size(); ++i) {
        const std::string& cell = table.rows[i].gpu;
        auto [it, fresh] = slot.try_emplace(cell, gpus.size());
        if (fresh) // line i + 2: the header is line 1
            gpus.push_back({cell, resolveTableGpu(catalog, cell, table.source, i + 2), {}});
        gpus[it->second].rows.push_back(i);
    }
    return gpus;
}

PredictedTable forecastTable(const KernelTable& table, const Forecaster& forecaster,
                             const std::vector<GpuSpec>& catalog)
{
    PredictedTable p;
    const std::size_t n = table.rows.size();
    p.predictedMs.resize(n);
    p.measuredMs.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
        p.gpus.push_back(table.rows[i].gpu);
        p.classes.push_back(table.rows[i].kernel.opClass);
        if (i < table.measurements.size())
            p.measuredMs[i] = table.measurements[i].latencyMs;
    }
    for (const auto& gpu : resolveTableGpus(table, catalog)) {
        std::vector<Kernel> kernels;
        kernels.reserve(gpu.rows.size());
        for (std::size_t i : gpu.rows)
            kernels.push_back(table.rows[i].kernel);
        const auto f = forecaster.predict(kernels, gpu.spec);
        for (std::size_t j = 0; j < gpu.rows.size(); ++j)
            p.predictedMs[gpu.rows[j]] = f[j].ms();
    }
    return p;
}

std::vector<ErrorCell> errorTable(const PredictedTable& p)
{
    struct Acc {
        std::size_t n = 0;
        double sum = 0;
    };
    std::map<std::pair<std::string, std::string>, Acc> acc;
    for (std::size_t i = 0; i < p.predictedMs.size(); ++i) {
        if (!(p.measuredMs[i] > 0))
            continue;
        const double e = std::abs(p.predictedMs[i] - p.measuredMs[i]) / p.measuredMs[i];
        const std::string cls(opClassName(p.classes[i]));
        for (const auto& key : {std::pair{p.gpus[i], cls}, std::pair{p.gpus[i], std::string("all")},
                                std::pair{std::string("all"), cls}, std::pair{std::string("all"), std::string("all")}}) {
            auto& a = acc[key];
            ++a.n;
            a.sum += e;
        }
    }
    std::vector<ErrorCell> out;
    for (const auto& [key, a] : acc)
        out.push_back({key.first, key.second, a.n, 100.0 * a.sum / double(a.n)});
    return out;
}

} // namespace gpuforecast
