#include "arguments.h"
#include "commands.h"

#include "gpuforecast/catalog.h"
#include "gpuforecast/forecaster.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <filesystem>

namespace gpuforecast::cli {

int runGpus(const std::vector<std::string>& args)
{
    Arguments a(args, {}, {"--json"});
    const std::filesystem::path dir = resourceDirectory();
    const auto gpus = loadGpuDirectory((dir / "gpus").string());
    // Which measured GPU's GEMM tile choices a forecast borrows: worth seeing when judging a forecast.
    const TileDatabase tiles = Forecaster::loadFromDirectory((dir / "weights").string()).tiles();
    // For scripts: each sheet whole, as a file gives it, with the tiles' source beside it. The
    // table's names hold spaces, and its columns are rounded.
    if (a.has("--json")) {
        nlohmann::json out = nlohmann::json::array();
        for (const auto& g : gpus) {
            nlohmann::json sheet = gpuSpecToJson(g);
            sheet["tiles_from"] = tiles.referenceFor(g);
            out.push_back(std::move(sheet));
        }
        std::printf("%s\n", out.dump(2).c_str());
        return 0;
    }
    // Columns as wide as their longest entry: a name cut mid-word ("(HGX B") reads as a typo.
    int idWidth = 2, nameWidth = 4;
    for (const auto& g : gpus) {
        idWidth = std::max(idWidth, int(g.id.size()));
        nameWidth = std::max(nameWidth, int(g.name.size()));
    }
    std::printf("%-*s %-*s %5s %4s %9s %9s %7s %6s  %s\n", idWidth, "id", nameWidth, "name", "year", "SMs", "FP32 TF/s",
                "BW GB/s", "Mem GB", "L2 MB", "tiles from");
    for (const auto& g : gpus)
        std::printf("%-*s %-*s %5.0f %4.0f %9.1f %9.0f %7.0f %6.1f  %s\n", idWidth, g.id.c_str(), nameWidth,
                    g.name.c_str(), g.launchYear, g.smCount, g.fp32Gflops / 1e3, g.memoryBandwidthGBps, g.memoryGb,
                    g.l2CacheMb, tiles.referenceFor(g).c_str());
    return 0;
}

} // namespace gpuforecast::cli
