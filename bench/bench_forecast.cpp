// Speed targets live here, not in timed tests: the GUI recomputes on every edit, so a forecast
// must stay in the millisecond range.
#include "gpuforecast/catalog.h"
#include "gpuforecast/forecaster.h"

#include <benchmark/benchmark.h>

#include <filesystem>

namespace {

using namespace gpuforecast;

const Forecaster& forecaster()
{
    static const Forecaster f =
        Forecaster::loadFromDirectory((std::filesystem::path(resourceDirectory()) / "weights").string());
    return f;
}

GpuSpec gpu(const std::string& id)
{
    return loadGpuSpec((std::filesystem::path(resourceDirectory()) / "gpus" / (id + ".json")).string());
}

void BM_KernelBatch(benchmark::State& state)
{
    const GpuSpec h100 = gpu("H100-SXM5-80GB");
    std::vector<Kernel> kernels;
    for (int i = 0; i < state.range(0); ++i) {
        kernels.push_back(Kernel::gemm("linear", 1, 2048 + i, 4096, 4096));
        kernels.push_back(Kernel::vector("gelu", 2048 + i, 16384));
    }
    for (auto _ : state)
        benchmark::DoNotOptimize(forecaster().predict(kernels, h100));
    state.SetItemsProcessed(state.iterations() * std::int64_t(kernels.size()));
}
BENCHMARK(BM_KernelBatch)->Arg(8)->Arg(64)->Unit(benchmark::kMicrosecond);

} // namespace

BENCHMARK_MAIN();
