#pragma once
// Accuracy of forecasts against measured kernels, per GPU and operator class. The forecaster only
// ever sees each row's op, GPU and dimensions; the measured latency is used for scoring alone.
#include "gpuforecast/forecaster.h"
#include "gpuforecast/kernel_table.h"

#include <string>
#include <vector>

namespace gpuforecast {

struct ErrorCell {
    std::string gpu;    // "all" for totals
    std::string group;  // operator class name, or "all"
    std::size_t count = 0;
    double mape = 0;    // percent
};

struct PredictedTable {
    std::vector<double> predictedMs;
    std::vector<double> measuredMs;
    std::vector<std::string> gpus;
    std::vector<OpClass> classes;
};

// A table's GPUs, each once with the rows that name it, in the order they first appear: a bad
// cell is reported at its first line, not at the first in alphabetical order, and every GPU is
// read before any kernel is forecast (a typo on the last line of a large file fails at once).
struct TableGpu {
    std::string cell; // the gpu column as written: an id or a sheet file's path
    GpuSpec spec;
    std::vector<std::size_t> rows;
};
std::vector<TableGpu> resolveTableGpus(const KernelTable& table, const std::vector<GpuSpec>& catalog);

PredictedTable forecastTable(const KernelTable& table, const Forecaster& forecaster,
                             const std::vector<GpuSpec>& catalog);

// Cells for every (gpu, class), per GPU over all classes, per class over all GPUs, and overall.
std::vector<ErrorCell> errorTable(const PredictedTable& p);

} // namespace gpuforecast
