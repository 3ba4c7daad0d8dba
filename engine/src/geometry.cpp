#include "gpuforecast/geometry.h"

#include <algorithm>
#include <cmath>

namespace gpuforecast {
namespace {

constexpr double kFloatBytes = 4;

void finishRoofline(KernelGeometry& g, const GpuSpec& gpu, bool matrix, double reuse = 1.0)
{
    g.waves = std::ceil(g.numTiles / gpu.smCount);
    g.perWaveFlops = gpu.smCount * g.tileFlops;
    g.peakFlops = gpu.peakFlops(matrix);
    // The wave law prices a wave as if every SM ran a tile at its share of the bandwidth. A GEMM
    // with fewer tiles than SMs leaves the others idle, and they draw no bandwidth: its busy SMs
    // share all of it, so a single partial wave is bounded by its total bytes, not by smCount
    // tiles' worth (20 one-row attention products on a 128-SM part read 2.6 MB, not 17 MB).
    // Leave-one-GPU-out it also took held-out A100 `bmm` from 14% to 10% (docs/accuracy.md).
    // Vector kernels run many small blocks per SM, so "a tile per SM" describes no hardware state
    // there; they keep the per-SM share. The last partial wave of a longer GEMM keeps it too: its
    // tiles do not finish in lockstep, and pricing that tail the same way was worse held out.
    const bool partialWave = matrix && g.numTiles > 0 && g.numTiles < gpu.smCount;
    const double busyShare = partialWave ? gpu.smCount / g.numTiles : 1.0;
    const double memoryRoof = g.arithmeticIntensity() * reuse * busyShare * gpu.bandwidthBytesPerSecond();
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
    double reuse = 1.0;
    if (k.opClass == OpClass::Linear) {
        // Tiles running in the same wave share their A and B panels through L2: a wave of S tiles laid
        // out r x c over the output reads r row panels and c column panels, not S of each. Without
        // this, model-sized FP32 GEMMs look memory-bound on low-bandwidth, large-L2 parts (L4, T4).
        // Applied to linear layers, whose large outputs fill waves; for bmm (small matrices, many
        // batches) leave-one-GPU-out validation got worse with it (V100 20% -> 29%).
        const double gm = std::ceil(double(k.m) / tile.alongM), gk = std::ceil(double(k.k) / tile.alongK);
        const double s = std::min(g.numTiles, gpu.smCount);
        const double perBatch = std::min(s, gm * gk);
        const double r = std::clamp(std::round(std::sqrt(perBatch)), 1.0, gm);
        const double c = std::min(gk, std::ceil(perBatch / r));
        const double panels = (double(tile.alongK) + tile.alongM) * nPerTile;
        const double shared = (r * tile.alongM + c * tile.alongK) * nPerTile / perBatch;
        const double out = double(tile.alongK) * tile.alongM;
        reuse = (panels + out) / (shared + out);
    }
    finishRoofline(g, gpu, true, reuse);
    return g;
}

KernelGeometry vectorGeometry(const Kernel& k, const GpuSpec& gpu)
{
    KernelGeometry g;
    const auto traits = traitsOf(k).value_or(VectorOpTraits{k.opClass, 1, 1});
    g.tileElements = std::min(vectorTileElements(k), k.elements());
    g.numTiles = std::ceil(k.elements() / g.tileElements);
    g.tileRows = k.isRowWise() && k.h > 0 ? std::max(1.0, std::floor(g.tileElements / double(k.h))) : 1.0;
    g.tileFlops = g.tileElements * traits.flopsPerElement;
    g.tileBytes = g.tileElements * kFloatBytes * (traits.tensorInputs + 1);
    finishRoofline(g, gpu, false);
    return g;
}

namespace {
// Copies and gathers reach roughly 70% of the spec bandwidth on every GPU we measured.
constexpr double kCopyEfficiency = 0.7;
} // namespace

double fallbackSeconds(const Kernel& k, const GpuSpec& gpu)
{
    return k.bytes() / (gpu.bandwidthBytesPerSecond() * kCopyEfficiency);
}

double transposedOperandSeconds(const Kernel& k, const GpuSpec& gpu)
{
    constexpr double kSectorBytes = 32;
    if (!(k.transposedReuseBytes > 0) || k.opClass != OpClass::Elementwise)
        return 0;
    const double l2 = gpu.l2Bytes();
    const double evicted = l2 > 0 ? std::clamp((k.transposedReuseBytes - 0.5 * l2) / (0.5 * l2), 0.0, 1.0) : 1.0;
    return evicted * k.elements() * (kSectorBytes - kFloatBytes) / (gpu.bandwidthBytesPerSecond() * kCopyEfficiency);
}

} // namespace gpuforecast
