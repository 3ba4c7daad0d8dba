#include "gpuforecast/geometry.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>

namespace gpuforecast {
namespace {

constexpr double kFloatBytes = 4;
// The share of the spec bandwidth that softmax and layer norm move, re-reads included, once those
// go to DRAM: 0.86-0.9 on A100 and V100, 0.76-0.8 on T4 and P4, 0.7-0.76 on P100.
constexpr double kStreamingCeiling = 0.85;

void finishRoofline(KernelGeometry& g, const GpuSpec& gpu, bool matrix, double reuse = 1.0)
{
    g.waves = std::ceil(g.numTiles / gpu.smCount);
    g.perWaveFlops = gpu.smCount * g.tileFlops;
    g.peakFlops = gpu.peakFlops(matrix) * (matrix ? fp32GemmIssueShare(gpu) : 1.0);
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

// Softmax over rows longer than 1024 floats (cunn_SoftMaxForward) reads each row three times:
// for its maximum, for its sum of exponentials, and to write the result. Layer norm
// (vectorized_layer_norm_kernel) reads it twice: Welford moments, then normalise and write. The
// later passes find the row in L1 while the rows resident on an SM fit there, and go to DRAM once
// they do not. That is where the measured efficiencies bend: A100 softmax holds about 0.8 of the
// bandwidth up to rows of 8192 and falls to 0.45 at 16384, V100 and T4 fall past 4096,
// and P100 (24 KB of L1) is at 0.45 from the first row over 1024 (docs/method.md, section 2).
struct RowPasses {
    double rereads = 0;        // passes after the first
    double threadsPerBlock = 0;
};

std::optional<RowPasses> rowPasses(const Kernel& k)
{
    if (k.opClass == OpClass::LayerNorm)
        return RowPasses{1, 128}; // a block of 32 x 4 threads per row
    if (k.opClass != OpClass::Softmax || k.h <= 1024)
        return std::nullopt; // softmax_warp_forward keeps its row in registers
    // SoftMax_getBlockSize with 4-wide loads: half of h / 4, up to 512, rounded up to a power of two.
    const double wanted = std::min(std::floor(double(k.h) / 4), 1024.0) / 2;
    double threads = 32;
    while (threads < wanted)
        threads *= 2;
    return RowPasses{2, threads};
}

// NVIDIA SMs since Volta hold L1 and shared memory in one array; Pascal's and AMD's L1 is separate.
// A sheet naming no known architecture is read by its vendor.
bool l1SharesArrayWithSharedMemory(const GpuSpec& gpu)
{
    const std::string family = gemmKernelFamily(gpu.architecture);
    if (!family.empty())
        return family != "maxwell";
    return gpu.vendorIsNvidia();
}

// L1 a streaming kernel can cache in. Where L1 and shared memory are one array, the kernels ran
// with 64 KB of it as shared memory on every measured GPU that has one: the bends above sit where
// the resident rows fill V100's 128 - 64, T4's 96 - 64 and A100's 192 - 64 KB. A third of the
// array, which T4's 32 KB also is, keeps a small array (a what-if, a sheet that gives only its L1)
// from caching nothing at all. A separate L1 caches with all of it (P100 24 KB, P4 48 KB).
double streamingL1Bytes(const GpuSpec& gpu)
{
    const double kb = gpu.l1CacheKbOrDefault();
    return 1024 * (l1SharesArrayWithSharedMemory(gpu) ? std::max(kb - 64, kb / 3) : kb);
}

// Bytes per row that later passes read from DRAM: none while the rows resident on an SM fit in
// its L1, every pass once they take twice the L1 (an LRU cache under a streaming loop keeps
// nothing by then), linear between.
double rowRereadBytes(const Kernel& k, const GpuSpec& gpu)
{
    const auto passes = rowPasses(k);
    if (!passes)
        return 0;
    const double residentRows = std::max(1.0, std::floor(gpu.threadsPerSmOrDefault() / passes->threadsPerBlock));
    const double rowBytes = double(k.h) * kFloatBytes;
    const double miss = std::clamp(residentRows * rowBytes / streamingL1Bytes(gpu) - 1.0, 0.0, 1.0);
    return passes->rereads * miss * rowBytes;
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
    const auto traits = traitsOf(k).value_or(VectorOpTraits{k.opClass, 1, 1, 0});
    g.tileElements = std::min(vectorTileElements(k), k.elements());
    g.numTiles = std::ceil(k.elements() / g.tileElements);
    g.tileRows = k.isRowWise() && k.h > 0 ? std::max(1.0, std::floor(g.tileElements / double(k.h))) : 1.0;
    g.tileFlops = g.tileElements * traits.flopsPerElement;
    g.tileBytes = g.tileElements * kFloatBytes * (traits.tensorInputs + 1);
    finishRoofline(g, gpu, false);
    // The networks price the kernel's nominal bytes. Rows re-read from DRAM add traffic that no
    // utilization below 1 can hide once it exceeds what the DRAM delivers, so it enters as a floor
    // under the time, not as a multiple of it: V100 layer norm runs at 0.6 of the bandwidth with or
    // without the re-reads, A100's drops from 0.84 to 0.58, and both move about 0.9 of the
    // bandwidth in all. kStreamingCeiling is that fraction.
    if (const double reread = g.tileRows * rowRereadBytes(k, gpu); reread > 0)
        g.trafficFloorSeconds =
            g.numTiles * (g.tileBytes + reread) / (kStreamingCeiling * gpu.bandwidthBytesPerSecond());
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
