#include "arguments.h"
#include "commands.h"
#include "sheet_notes.h"
#include "weights_notes.h"

#include "gpuforecast/catalog.h"
#include "gpuforecast/error.h"
#include "gpuforecast/evaluation.h"
#include "gpuforecast/forecaster.h"
#include "gpuforecast/kernel_table.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>
#include <set>

namespace gpuforecast::cli {

int runEvaluate(const std::vector<std::string>& args)
{
    namespace fs = std::filesystem;
    Arguments a(args, {"--in", "--weights", "--gpu"}, {"--roofline-only", "--csv"});
    const std::string dataDir = resourceDirectory();
    const auto catalog = loadGpuDirectory((fs::path(dataDir) / "gpus").string());
    const std::string weights = a.value("--weights").value_or((fs::path(dataDir) / "weights").string());
    Forecaster forecaster = Forecaster::loadFromDirectory(weights);
    if (a.has("--roofline-only")) // same tiles, no learned utilization: the baseline
        forecaster = Forecaster({}, std::make_shared<TileDatabase>(forecaster.tiles()));
    KernelTable table = readKernelTable(a.required("--in"), TableContent::WithMeasurements);
    if (auto only = a.value("--gpu")) {
        KernelTable filtered{table.source, table.header, {}, {}};
        std::set<std::string> present;
        for (std::size_t i = 0; i < table.rows.size(); ++i) {
            present.insert(table.rows[i].gpu);
            if (table.rows[i].gpu == *only) {
                filtered.rows.push_back(table.rows[i]);
                filtered.measurements.push_back(table.measurements[i]);
            }
        }
        table = std::move(filtered);
        if (table.rows.empty()) { // an empty table would read as a perfect score; name the GPUs it has
            std::string has;
            for (const auto& g : present)
                has += (has.empty() ? "" : ", ") + g;
            throwInputError(table.source, "--gpu", "no measured rows for GPU '" + *only + "' (the file has " + has + ")");
        }
    }
    if (table.rows.empty())
        throwInputError(table.source, "", "no measured rows to evaluate");
    if (const std::string note = a.has("--roofline-only") ? std::string() : unlearnedNote(forecaster, table, weights);
        !note.empty())
        std::fprintf(stderr, "gpuforecast-cli evaluate: note: %s\n", note.c_str());
    std::set<std::string> sheetFiles; // a gpu cell naming a sheet file: what predict would say of it
    for (std::size_t i = 0; i < table.rows.size(); ++i)
        if (const std::string& cell = table.rows[i].gpu; !findGpu(catalog, cell) && sheetFiles.insert(cell).second)
            for (const auto& note : sheetFileNotes(resolveTableGpu(catalog, cell, table.source, i + 2), catalog, forecaster))
                std::fprintf(stderr, "gpuforecast-cli evaluate: note: %s: %s\n", cell.c_str(), note.c_str());
    const auto cells = errorTable(forecastTable(table, forecaster, catalog));

    std::set<std::string> groups;
    std::vector<std::string> gpus; // by name, then "all", which a sheet path ("x.json") would sort before
    std::map<std::pair<std::string, std::string>, ErrorCell> byKey;
    for (const auto& c : cells) {
        if (c.gpu != "all" && std::find(gpus.begin(), gpus.end(), c.gpu) == gpus.end())
            gpus.push_back(c.gpu);
        groups.insert(c.group);
        byKey[{c.gpu, c.group}] = c;
    }
    std::sort(gpus.begin(), gpus.end());
    gpus.push_back("all");
    if (a.has("--csv")) { // for scripts: one cell per line, fixed columns
        std::printf("gpu,class,mape_percent,rows\n");
        for (const auto& gpu : gpus)
            for (const auto& g : groups)
                if (auto it = byKey.find({gpu, g}); it != byKey.end())
                    std::printf("%s,%s,%.4f,%zu\n", gpu.c_str(), g.c_str(), it->second.mape, it->second.count);
        return 0;
    }
    int gpuWidth = 16; // a sheet file's path is longer than any catalogue id
    for (const auto& gpu : gpus)
        gpuWidth = std::max(gpuWidth, int(gpu.size()) + 1);
    std::printf("MAPE (%%) per GPU and operator class; rows in parentheses\n%-*s", gpuWidth, "gpu");
    for (const auto& g : groups)
        std::printf(" %16s", g.c_str());
    std::printf("\n");
    for (const auto& gpu : gpus) {
        std::printf("%-*s", gpuWidth, gpu.c_str());
        for (const auto& g : groups) {
            auto it = byKey.find({gpu, g});
            if (it == byKey.end())
                std::printf(" %16s", "-");
            else
                std::printf(" %7.2f (%6zu)", it->second.mape, it->second.count);
        }
        std::printf("\n");
    }
    return 0;
}

} // namespace gpuforecast::cli
