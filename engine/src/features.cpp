#include "gpuforecast/features.h"

#include <algorithm>
#include <cmath>

namespace gpuforecast {

FeatureVector kernelFeatures(const KernelGeometry& g, const GpuSpec& gpu)
{
    const double sm = gpu.smCount;
    const double perSmFlops = g.peakFlops / sm;
    const double perSmBandwidth = gpu.bandwidthBytesPerSecond() / sm;
    const double footprint = g.waves * g.tileBytes;
    auto safeLog = [](double x) { return std::log(std::max(x, 1e-30)); };
    return {
        safeLog(1e6 * g.tileFlops / perSmFlops),
        safeLog(1e6 * g.tileBytes / perSmBandwidth),
        safeLog(footprint / (gpu.memoryBytes() / sm)),
        safeLog(footprint / (gpu.l2Bytes() / sm)),
        safeLog(g.waves),
    };
}

} // namespace gpuforecast
