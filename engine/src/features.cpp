#include "gpuforecast/features.h"

#include <algorithm>
#include <cmath>

namespace gpuforecast {
namespace {

double safeLog(double x) { return std::log(std::max(x, 1e-30)); }

bool isGemmClass(OpClass c) { return c == OpClass::Bmm || c == OpClass::Linear; }

// (seconds^s + floor^s)^(1/s): the larger of the two, rounded off over a width set by s.
double smoothMax(double seconds, double floorSeconds, double sharpness)
{
    if (floorSeconds <= 0)
        return seconds;
    const double hi = std::max(seconds, floorSeconds), lo = std::min(seconds, floorSeconds);
    return hi * std::pow(1.0 + std::pow(lo / hi, sharpness), 1.0 / sharpness);
}

// d log smoothMax / d log seconds
double smoothMaxSlope(double seconds, double floorSeconds, double sharpness)
{
    if (floorSeconds <= 0)
        return 1.0;
    return 1.0 / (1.0 + std::pow(floorSeconds / seconds, sharpness));
}

} // namespace

const FeatureNames& featureNames(OpClass c)
{
    if (isGemmClass(c))
        return kGemmFeatureNames;
    if (c == OpClass::Elementwise)
        return kElementwiseFeatureNames;
    return c == OpClass::Softmax ? kSoftmaxFeatureNames : kVectorFeatureNames;
}

FeatureVector kernelFeatures(OpClass c, const KernelGeometry& g, const GpuSpec& gpu)
{
    if (!isGemmClass(c)) {
        const double fourth = c == OpClass::Elementwise ? 1e6 * g.secondsAt(1.0)
                              : c == OpClass::Softmax   ? g.numTiles
                                                        : g.waves;
        return {
            safeLog(g.tileBytes),
            c == OpClass::Softmax ? safeLog(g.tileRows) : safeLog(g.tileFlops / std::max(g.tileBytes, 1e-30)),
            safeLog(g.numTiles * g.tileBytes),
            safeLog(fourth),
        };
    }
    const double sm = gpu.smCount;
    const double perSmFlops = g.peakFlops / sm;
    const double perSmBandwidth = gpu.bandwidthBytesPerSecond() / sm;
    const double footprint = g.waves * g.tileBytes;
    return {
        safeLog(1e6 * g.tileFlops / perSmFlops),
        safeLog(1e6 * g.tileBytes / perSmBandwidth),
        safeLog(footprint / (gpu.memoryBytes() / sm)),
        safeLog(g.waves),
    };
}

double minimumUtilization(OpClass c) { return c == OpClass::Elementwise ? 0.3 : 0.0; }

FloorComposition launchFloorComposition(OpClass c)
{
    return c == OpClass::LayerNorm ? FloorComposition::Added : FloorComposition::SmoothMaximum;
}

double withLaunchFloor(double seconds, double floorSeconds, FloorComposition how)
{
    if (how == FloorComposition::Added)
        return seconds + std::max(floorSeconds, 0.0);
    return smoothMax(seconds, floorSeconds, kFloorSharpness);
}

double launchFloorSlope(double seconds, double floorSeconds, FloorComposition how)
{
    if (how == FloorComposition::Added)
        return floorSeconds > 0 ? seconds / (seconds + floorSeconds) : 1.0;
    return smoothMaxSlope(seconds, floorSeconds, kFloorSharpness);
}

double withTrafficFloor(double seconds, double floorSeconds)
{
    return smoothMax(seconds, floorSeconds, kTrafficFloorSharpness);
}
double trafficFloorSlope(double seconds, double floorSeconds)
{
    return smoothMaxSlope(seconds, floorSeconds, kTrafficFloorSharpness);
}

} // namespace gpuforecast
