#pragma once
// Measured kernels turned into what the learner sees: per-SM features, the wave count, the
// roofline time (utilization 1) and the measured time. Built only from the training GPUs; the
// held-out GPU's rows are dropped here, before anything else can look at them.
#include "gpuforecast/features.h"
#include "gpuforecast/gpu_spec.h"
#include "gpuforecast/kernel_table.h"
#include "gpuforecast/tiling.h"

#include <Eigen/Dense>

#include <array>
#include <string>
#include <vector>

namespace gpuforecast {

struct ClassSamples {
    OpClass opClass = OpClass::Bmm;
    Eigen::MatrixXd features;       // kFeatureCount x N
    Eigen::VectorXd waves;          // N
    Eigen::VectorXd rooflineSeconds; // N: time at utilization 1
    Eigen::VectorXd measuredSeconds; // N
    Eigen::VectorXd trafficFloorSeconds; // N: KernelGeometry::trafficFloorSeconds (0: none)
    std::vector<std::string> gpus;  // N
    std::vector<std::string> ops;   // N: operator names (add, gelu, ...)
    Eigen::Index size() const { return waves.size(); }
};

// Builds the tile database from the measured kernel names and launch grids (split-K = grid_z / b).
TileDatabase buildTileDatabase(const std::vector<KernelTable>& tables, const std::vector<GpuSpec>& catalog,
                               const std::string& holdoutGpu);

enum class TrainingTiles {
    Measured,  // each GPU's own measured tile choice
    Reference, // the tile the forecaster would pick without that GPU's measurements
};

std::array<ClassSamples, kLearnedClasses.size()> buildTrainingSamples(const std::vector<KernelTable>& tables,
                                                                      const std::vector<GpuSpec>& catalog,
                                                                      const TileDatabase& tiles,
                                                                      const std::string& holdoutGpu,
                                                                      TrainingTiles tileSource);

// Reads every *.csv / *.csv.gz in dir (with measurements).
std::vector<KernelTable> loadMeasurementDirectory(const std::string& dir);

} // namespace gpuforecast
