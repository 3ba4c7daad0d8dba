// Fuzzes the GEMM tile database reader (TileDatabase::parse; the shipped gemm_tiles.csv.gz is
// read through it). An accepted database must serialize to a stable text and give tiles with
// which every sample GEMM forecasts to a finite, positive time.
#include "fuzz_support.h"

#include "gpuforecast/tiling.h"

#include <memory>

using namespace gpuforecast;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    auto db = std::make_shared<TileDatabase>();
    try {
        *db = TileDatabase::parse(fuzz::textOf(data, size), "tiles.csv");
    } catch (const ForecastError&) {
        return 0;
    }
    const std::string saved = db->serialize();
    GF_FUZZ_CHECK(TileDatabase::parse(saved, "saved.csv").serialize() == saved, "serialize is not stable");

    // Forecast as a GPU nobody measured (borrows a measured GPU's tiles), then as one the database
    // knows (must not read its own entries; falls back to another GPU or the default tile).
    const Forecaster forecaster({}, db);
    GpuSpec gpu = fuzz::referenceGpu();
    std::vector<std::string> targets{gpu.id};
    if (const auto ids = db->gpuIds(); !ids.empty())
        targets.push_back(ids.front());
    for (const auto& target : targets) {
        gpu.id = target;
        for (const auto& k : fuzz::sampleKernels())
            fuzz::checkForecast(forecaster.predict(k, gpu), "forecast with fuzzed tiles");
    }
    return 0;
}
