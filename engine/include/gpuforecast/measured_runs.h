#pragma once
// Whole-model runs somebody timed (NeuSight's e2e folders, ours on an H200), so that a forecast
// of the same model, settings and GPU can be shown beside what was measured.
#include "gpuforecast/parallel.h"
#include "gpuforecast/run_name.h"

#include <optional>
#include <string>
#include <vector>

namespace gpuforecast {

struct MeasuredRun {
    std::string gpu;    // the folder's name: a GPU id
    std::string name;   // the file's stem, e.g. "gpt2_large-inf-1024-4"
    RunName run;
    double ms = 0;      // e2e_latency
    long long layers = 0; // num_layer; 0 when the file does not say (Switch)
    std::string source; // who timed it, for people ("NeuSight", "our H200 runs")
    std::string path;   // the file, for errors
};

// Every <dir>/<gpu>/<run>.json, sorted by path. A file whose name is not a run name or
// whose e2e_latency is missing throws ForecastError naming it; a missing folder gives nothing.
std::vector<MeasuredRun> loadMeasuredRuns(const std::string& dir, const std::string& source);

// The runs that ship in <resourceDir>/datasets: NeuSight's and ours on an H200. A folder that
// cannot be read adds its error to `problems` (when given) and is left out: forecasts stand
// without measurements beside them.
std::vector<MeasuredRun> loadShippedMeasuredRuns(const std::string& resourceDir, std::vector<std::string>* problems = nullptr);

// NeuSight's name for a layout ("", "dp4", "tp2", "pp4_8"), or nothing for a layout no run name
// can say (two kinds of parallelism at once, or ZeRO: a sharded dp4 is not the dp4 NeuSight timed).
std::optional<std::string> runParallelName(const ParallelLayout& layout);

// The run of `model` (a bundled id) with these settings on `gpu` that timed all `layers` blocks.
const MeasuredRun* findMeasuredRun(const std::vector<MeasuredRun>& runs, const std::string& gpu, const std::string& model,
                                   const GraphOptions& options, const ParallelLayout& layout, long long layers);

} // namespace gpuforecast
