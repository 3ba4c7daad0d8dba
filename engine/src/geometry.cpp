#include "gpuforecast/geometry.h"

#include <algorithm>
#include <cmath>

namespace gpuforecast {
namespace {

constexpr double kFloatBytes = 4;

void finishRoofline(KernelGeometry& g, const GpuSpec& gpu, bool matrix)
{
    g.waves = std::ceil(g.numTiles / gpu.smCount);
    g.perWaveFlops = gpu.smCount * g.tileFlops;
    g.peakFlops = gpu.peakFlops(matrix);
    const double memoryRoof = g.arithmeticIntensity() * gpu.bandwidthBytesPerSecond();
    g.memoryBound = memoryRoof < g.peakFlops;
    g.rooflineFlops = std::min(g.peakFlops, memoryRoof);
}

} // namespace

KernelGeometry gemmGeometry(const Kernel& k, const GemmTile& tile, const GpuSpec& gpu)
{
    KernelGeometry g;
    g.gemmTile = tile;
    const double split = std::max(1, tile.reductionSplit);
    const double nPerTile = std::ceil(double(k.n) / split);
    g.numTiles = double(k.b) * std::ceil(double(k.k) / tile.alongK) * std::ceil(double(k.m) / tile.alongM) * split;
    g.tileFlops = 2.0 * tile.alongK * tile.alongM * nPerTile;
    g.tileBytes = kFloatBytes * ((double(tile.alongK) + tile.alongM) * nPerTile + double(tile.alongK) * tile.alongM);
    finishRoofline(g, gpu, true);
    return g;
}

KernelGeometry vectorGeometry(const Kernel& k, const GpuSpec& gpu)
{
    KernelGeometry g;
    const auto traits = traitsOf(k).value_or(VectorOpTraits{k.opClass, 1, 1});
    g.tileElements = std::min(vectorTileElements(k), k.elements());
    g.numTiles = std::ceil(k.elements() / g.tileElements);
    g.tileFlops = g.tileElements * traits.flopsPerElement;
    g.tileBytes = g.tileElements * kFloatBytes * (traits.tensorInputs + 1);
    finishRoofline(g, gpu, false);
    return g;
}

double fallbackSeconds(const Kernel& k, const GpuSpec& gpu)
{
    // Copies and gathers reach roughly 70% of the spec bandwidth on every GPU we measured.
    constexpr double kCopyEfficiency = 0.7;
    return k.bytes() / (gpu.bandwidthBytesPerSecond() * kCopyEfficiency);
}

} // namespace gpuforecast
