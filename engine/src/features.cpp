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
        safeLog(g.waves),
    };
}

double withLaunchFloor(double seconds, double floorSeconds)
{
    if (floorSeconds <= 0)
        return seconds;
    const double s = kFloorSharpness;
    const double hi = std::max(seconds, floorSeconds), lo = std::min(seconds, floorSeconds);
    return hi * std::pow(1.0 + std::pow(lo / hi, s), 1.0 / s);
}

double launchFloorSlope(double seconds, double floorSeconds)
{
    if (floorSeconds <= 0)
        return 1.0;
    return 1.0 / (1.0 + std::pow(floorSeconds / seconds, kFloorSharpness));
}

} // namespace gpuforecast
