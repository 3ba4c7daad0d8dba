// Speed targets live here, not in timed tests: the GUI recomputes on every edit, so a forecast
// must stay in the millisecond range.
#include "gpuforecast/catalog.h"
#include "gpuforecast/forecaster.h"
#include "gpuforecast/model_forecast.h"
#include "gpuforecast/parallel.h"
#include "gpuforecast/sensitivity.h"
#include "gpuforecast/tiling.h"

#include <benchmark/benchmark.h>

#include <filesystem>
#include <memory>

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

ModelConfig model(const std::string& id)
{
    return loadModelConfig((std::filesystem::path(resourceDirectory()) / "models" / (id + ".json")).string());
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
BENCHMARK(BM_KernelBatch)->Arg(8)->Arg(64)->Arg(4096)->Unit(benchmark::kMicrosecond);

// A bmm tile lookup that misses the memo: a nearest-shape search over one GPU's ~17k measured
// shapes. Evaluating a kernel file does one per distinct shape (and per padded candidate of a
// thin one), so this sets the speed of `evaluate` and of the sanitizer test pass.
void BM_TileLookupUncached(benchmark::State& state)
{
    const TileDatabase db =
        TileDatabase::load((std::filesystem::path(resourceDirectory()) / "weights" / "gemm_tiles.csv.gz").string());
    long long i = 0;
    for (auto _ : state) {
        ++i; // a new shape every time, so the memo never answers
        benchmark::DoNotOptimize(db.lookup("A100-PCIE-40GB", OpClass::Bmm, 16 + i % 97, 64 + i % 1009, 64 + i, 512));
    }
}
BENCHMARK(BM_TileLookupUncached)->Unit(benchmark::kMicrosecond);

// What every start of the CLI and the app pays before its first forecast: the weights folder, whose
// tile table has some 120,000 rows (its parse allocated per row until it was 40% of a `predict`).
void BM_LoadShippedWeights(benchmark::State& state)
{
    const std::string dir = (std::filesystem::path(resourceDirectory()) / "weights").string();
    for (auto _ : state)
        benchmark::DoNotOptimize(Forecaster::loadFromDirectory(dir));
}
BENCHMARK(BM_LoadShippedWeights)->Unit(benchmark::kMillisecond);

void BM_LoadTileTable(benchmark::State& state)
{
    const std::string path = (std::filesystem::path(resourceDirectory()) / "weights" / "gemm_tiles.csv.gz").string();
    for (auto _ : state)
        benchmark::DoNotOptimize(TileDatabase::load(path));
}
BENCHMARK(BM_LoadTileTable)->Unit(benchmark::kMillisecond);

// Issue target: a GPT-3 175B training step forecast in under 5 ms (the GUI recomputes on every
// edit). Graph building, every kernel's tile lookup and the networks are all inside the loop.
void BM_Gpt3TrainingStep(benchmark::State& state)
{
    const GpuSpec h100 = gpu("H100-SXM5-80GB");
    const ModelConfig config = model("gpt3_175b");
    const GraphOptions options{8, 2048, true, false};
    for (auto _ : state)
        benchmark::DoNotOptimize(forecastModel(forecaster(), config, options, h100));
}
BENCHMARK(BM_Gpt3TrainingStep)->Unit(benchmark::kMillisecond);

// The same step compared across ten GPUs, as the GUI's compare chart does.
void BM_Gpt3TrainingStepTenGpus(benchmark::State& state)
{
    std::vector<GpuSpec> gpus;
    for (const char* id : {"V100-PCIE-32GB", "A100-PCIE-40GB", "A100-SXM4-80GB", "H100-PCIE-80GB", "H100-SXM5-80GB",
                           "H200-SXM-141GB", "B200-SXM-180GB", "L4", "L40S", "MI300X"})
        gpus.push_back(gpu(id));
    const ModelConfig config = model("gpt3_175b");
    const GraphOptions options{8, 2048, true, false};
    for (auto _ : state)
        for (const auto& g : gpus)
            benchmark::DoNotOptimize(forecastModel(forecaster(), config, options, g));
}
BENCHMARK(BM_Gpt3TrainingStepTenGpus)->Unit(benchmark::kMillisecond);

void BM_Gpt2InferenceStep(benchmark::State& state)
{
    const GpuSpec h100 = gpu("H100-SXM5-80GB");
    const ModelConfig config = model("gpt2_large");
    const GraphOptions options{4, 1024, false, false};
    for (auto _ : state)
        benchmark::DoNotOptimize(forecastModel(forecaster(), config, options, h100));
}
BENCHMARK(BM_Gpt2InferenceStep)->Unit(benchmark::kMillisecond);

// A what-if variant (the GUI's SM slider at x2 on H100): each kernel is also priced on the sheets
// with the lesser and the greater of its and its basis's resources (Forecaster::withinBasisBounds),
// so a variant costs up to 3x a bundled GPU's forecast; compare with BM_Gpt3TrainingStep.
void BM_Gpt3TrainingStepWhatIf(benchmark::State& state)
{
    const GpuSpec h100 = gpu("H100-SXM5-80GB");
    GpuSpec variant = h100;
    variant.smCount *= 2;
    variant.fp32Gflops *= 2;
    variant.fp32MatrixGflops *= 2;
    variant.memoryBandwidthGBps *= 0.8; // one resource less, others more: both bounds priced
    variant.efficiencyBasis = std::make_shared<const GpuSpec>(h100);
    const ModelConfig config = model("gpt3_175b");
    const GraphOptions options{8, 2048, true, false};
    for (auto _ : state)
        benchmark::DoNotOptimize(forecastModel(forecaster(), config, options, variant));
}
BENCHMARK(BM_Gpt3TrainingStepWhatIf)->Unit(benchmark::kMillisecond);

// The Sensitivity chart: the step and twelve one-field variants (+-20% of six fields), each
// bounded by its basis; the GUI recomputes it on every edit while the tab is shown.
void BM_Gpt2SensitivityChart(benchmark::State& state)
{
    const GpuSpec h100 = gpu("H100-SXM5-80GB");
    const ModelConfig config = model("gpt2_large");
    const GraphOptions options{4, 1024, false, false};
    for (auto _ : state)
        benchmark::DoNotOptimize(specSensitivity(forecaster(), config, options, h100));
}
BENCHMARK(BM_Gpt2SensitivityChart)->Unit(benchmark::kMillisecond);

// The layout boxes' arrows (model_panel.cpp): after each change the GUI asks, for each of DP's
// arrows, whether any divisor of the batch that way is a layout that fits. At a batch of 2^16 the
// worst case checks all 17 divisors; the large ones are refused (the check throws and catches).
// Target: well under a frame (16 ms) per change.
void BM_LayoutArrowsAtLargeBatch(benchmark::State& state)
{
    const ModelConfig config = model("gpt2_large");
    const GraphOptions options{1 << 16, 1024, true, false};
    const long long count = largestFittingDegree(config, options, &ParallelLayout::dp);
    ParallelLayout layout;
    layout.tp = 4; // 20 heads: DP may still take any divisor of the batch
    int fits = 0;
    for (auto _ : state) {
        fits = 0;
        for (long long d = 1; d <= count; d *= 2) { // the batch's divisors
            ParallelLayout candidate = layout;
            candidate.dp = d;
            fits += layoutFits(config, options, candidate);
        }
        benchmark::DoNotOptimize(fits);
    }
    state.counters["fitting"] = fits; // of the 17
}
BENCHMARK(BM_LayoutArrowsAtLargeBatch)->Unit(benchmark::kMicrosecond);

} // namespace

BENCHMARK_MAIN();
