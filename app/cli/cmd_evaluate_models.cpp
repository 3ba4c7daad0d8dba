#include "arguments.h"
#include "commands.h"

#include "gpuforecast/catalog.h"
#include "gpuforecast/error.h"
#include "gpuforecast/file_io.h"
#include "gpuforecast/measured_runs.h"
#include "gpuforecast/model_forecast.h"
#include "gpuforecast/parallel.h"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <string>

namespace gpuforecast::cli {

// Forecasts every measured whole-model run in DIR/<gpu>/<run>.json (NeuSight's e2e layout:
// e2e_latency, fw_latency, bwall_latency in ms) and prints the error of each.
int runEvaluateModels(const std::vector<std::string>& args)
{
    namespace fs = std::filesystem;
    Arguments a(args, {"--in", "--weights", "--gpu"}, {});
    const fs::path in = a.required("--in");
    const fs::path dataDir = resourceDirectory();
    const auto catalog = loadGpuDirectory((dataDir / "gpus").string());
    const Forecaster forecaster =
        Forecaster::loadFromDirectory(a.value("--weights").value_or((dataDir / "weights").string()));
    std::error_code ec;
    if (!fs::is_directory(in, ec))
        throwInputError(in.string(), "--in",
                        fs::exists(in, ec) ? "is a file; expected a folder of <gpu>/<run>.json" : "no such folder");
    std::map<std::string, std::pair<double, int>> perGpu;
    double sum = 0, worst = 0;
    int n = 0;
    std::string table; // the rows, written when every run has been read
    for (const MeasuredRun& measuredRun : loadMeasuredRuns(in.string(), "")) {
        const std::string& gpuId = measuredRun.gpu;
        if (auto only = a.value("--gpu"); only && *only != gpuId)
            continue;
        const fs::path path = measuredRun.path;
        const RunName& run = measuredRun.run;
        const double measured = measuredRun.ms;
        const fs::path modelPath = dataDir / "models" / (run.model + ".json");
        const GpuSpec* gpu = findGpu(catalog, gpuId);
        if (!gpu) // the folder names the GPU; --gpu only filters
            throwInputError(path.parent_path().string(), "", "'" + gpuId + "' is not a known GPU id (see gpuforecast-cli gpus)");
        const GraphOptions options{run.batch, run.seq, run.training, run.fusion};
        const long long timedLayers = measuredRun.layers; // 0: the file does not say
        double pred = 0;
        std::string layersNote;
        try {
            ModelConfig config = loadModelConfig(modelPath.string());
            // A run may time fewer blocks than the config has (a model too large for the card,
            // cut to fit): forecast the blocks it timed. It used to forecast the whole model.
            if (timedLayers > config.layers) // forecasting 99 blocks of a 36-block model is no forecast of the run
                throwInputError(path.string(), "num_layer",
                                std::to_string(timedLayers) + " is more than the " + std::to_string(config.layers) +
                                    " layers of " + run.model + "; a run times the whole model or its first blocks");
            if (timedLayers > 0 && timedLayers != config.layers) {
                if (config.family == "switch") // encoder and decoder stacks: one count cannot say which
                    throwInputError(path.string(), "num_layer",
                                    std::to_string(timedLayers) + " differs from the config's " +
                                        std::to_string(config.layers) + " encoder layers; an encoder-decoder run must time the whole model");
                layersNote = " (" + std::to_string(timedLayers) + " of " + std::to_string(config.layers) + " layers)";
                config.layers = timedLayers;
            }
            if (run.parallel.empty()) {
                pred = forecastModel(forecaster, config, options, *gpu).totalSeconds() * 1e3;
            } else {
                const ParallelLayout layout = parseParallelLayout(run.parallel, path.string());
                pred = forecastParallel(forecaster, config, options, layout, *gpu).totalSeconds() * 1e3;
            }
        } catch (const ForecastError& e) { // the model and sizes come from the file name: say which file
            const std::string what = e.what();
            throw ForecastError(what.rfind(path.string(), 0) == 0 ? what : path.string() + ": " + what);
        }
        const double err = 100 * (pred - measured) / measured;
        char line[400];
        std::snprintf(line, sizeof line, "%-16s %-34s %10.2f %10.2f %+7.1f%%%s\n", gpuId.c_str(),
                      path.stem().string().c_str(), measured, pred, err, layersNote.c_str());
        table += line;
        sum += std::abs(err);
        worst = std::max(worst, std::abs(err));
        ++n;
        perGpu[gpuId].first += std::abs(err);
        perGpu[gpuId].second += 1;
    }
    // The table is written once every run has been read: one bad run file had left a script
    // reading stdout with the rows before it and no summary (a CLI review).
    if (n > 0)
        std::printf("%-16s %-34s %10s %10s %8s\n%s", "gpu", "run", "measured", "forecast", "error", table.c_str());
    if (n == 0) // an empty report would read as a perfect score
        throwInputError(in.string(), "--in",
                        a.value("--gpu") ? "no measured runs for GPU '" + *a.value("--gpu") + "' (<gpu>/<run>.json)"
                                         : std::string("no measured runs (<gpu>/<run>.json)"));
    for (const auto& [gpu, acc] : perGpu)
        std::printf("mean absolute error %-16s %6.2f%% over %d run%s\n", gpu.c_str(), acc.first / acc.second, acc.second,
                    acc.second == 1 ? "" : "s");
    if (n > 0)
        std::printf("mean absolute error, all runs: %.2f%% (worst %.2f%%) over %d run%s\n", sum / n, worst, n, n == 1 ? "" : "s");
    return 0;
}

} // namespace gpuforecast::cli
