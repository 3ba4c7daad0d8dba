#include "arguments.h"
#include "commands.h"

#include "gpuforecast/catalog.h"
#include "gpuforecast/forecaster.h"

#include <cstdio>
#include <filesystem>

namespace gpuforecast::cli {

int runGpus(const std::vector<std::string>& args)
{
    Arguments a(args, {}, {});
    const std::filesystem::path dir = resourceDirectory();
    const auto gpus = loadGpuDirectory((dir / "gpus").string());
    // Which measured GPU's GEMM tile choices a forecast borrows: worth seeing when judging a forecast.
    const TileDatabase tiles = Forecaster::loadFromDirectory((dir / "weights").string()).tiles();
    std::printf("%-18s %-28s %5s %4s %9s %9s %7s %6s  %s\n", "id", "name", "year", "SMs", "FP32 TF/s", "BW GB/s",
                "Mem GB", "L2 MB", "tiles from");
    for (const auto& g : gpus)
        std::printf("%-18s %-28.28s %5.0f %4.0f %9.1f %9.0f %7.0f %6.1f  %s\n", g.id.c_str(), g.name.c_str(),
                    g.launchYear, g.smCount, g.fp32Gflops / 1e3, g.memoryBandwidthGBps, g.memoryGb, g.l2CacheMb,
                    tiles.referenceFor(g).c_str());
    return 0;
}

} // namespace gpuforecast::cli
