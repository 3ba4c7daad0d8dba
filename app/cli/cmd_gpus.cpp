#include "arguments.h"
#include "commands.h"

#include "gpuforecast/catalog.h"

#include <cstdio>
#include <filesystem>

namespace gpuforecast::cli {

int runGpus(const std::vector<std::string>& args)
{
    Arguments a(args, {}, {"--json"});
    const auto gpus = loadGpuDirectory((std::filesystem::path(resourceDirectory()) / "gpus").string());
    std::printf("%-18s %-28s %5s %4s %9s %9s %7s %6s\n", "id", "name", "year", "SMs", "FP32 TF/s", "BW GB/s",
                "Mem GB", "L2 MB");
    for (const auto& g : gpus)
        std::printf("%-18s %-28.28s %5.0f %4.0f %9.1f %9.0f %7.0f %6.1f\n", g.id.c_str(), g.name.c_str(), g.launchYear,
                    g.smCount, g.fp32Gflops / 1e3, g.memoryBandwidthGBps, g.memoryGb, g.l2CacheMb);
    return 0;
}

} // namespace gpuforecast::cli
