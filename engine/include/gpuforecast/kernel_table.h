#pragma once
// Tables of kernels in the NeuSight CSV layout: op,gpu,b,m,n,k,h[,latency_ms,kernel,grid_x,...].
// Forecasting reads only op, gpu and the dimensions; the measured columns are loaded separately
// (and only for training and evaluation) so no code path can forecast from them by accident.
#include "gpuforecast/kernel.h"

#include <optional>
#include <string>
#include <vector>

namespace gpuforecast {

struct KernelRow {
    Kernel kernel;
    std::string gpu;
    std::vector<std::string> cells; // the original row, passed through to outputs
};

struct Measurement {
    double latencyMs = 0;
    std::string kernelName;
    long long gridX = 0, gridY = 0, gridZ = 0;
};

struct KernelTable {
    std::string source;
    std::vector<std::string> header;
    std::vector<KernelRow> rows;
    std::vector<Measurement> measurements; // empty unless loaded with measurements

    std::optional<std::size_t> column(const std::string& name) const;
};

enum class TableContent { InputsOnly, WithMeasurements };

// Throws ForecastError("<path>: line N <column>: ...") on a bad row. "-" reads standard input.
KernelTable readKernelTable(const std::string& path, TableContent content);
KernelTable parseKernelTable(const std::string& text, const std::string& source, TableContent content);

} // namespace gpuforecast
