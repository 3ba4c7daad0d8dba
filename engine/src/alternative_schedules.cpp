#include "alternative_schedules.h"

#include <algorithm>
#include <cmath>

namespace gpuforecast::detail {
namespace {

// The same tiles can always run in more waves, on fewer of the SMs, so a GEMM should never be
// forecast slower than that. The learned law need not know it: the networks read the wave count,
// and some give one wave a fraction of two waves' utilization (held-out A100: a 112 x 120 x 14
// linear layer, one wave, at 82 us; its tiles in two waves at 56 us; measured 55 us). So a GEMM is
// also priced at w + 1 waves and at the count it would have on half the SMs (only those two).
// Held-out A100 linear training rows 17.2% -> 15.6% (docs/accuracy.md, "Wave counts"). A count
// above the tile count is no schedule any GPU can run (one tile in two waves), so it is never one;
// nor is the kernel's own count (half the SMs may still hold every tile in its waves).
void moreWaves(std::span<const Kernel> kernels, std::span<const KernelGeometry> geometries, const GpuSpec& gpu,
               std::vector<AlternativeSchedule>& out)
{
    for (const bool halfTheSms : {false, true})
        for (std::size_t j = 0; j < kernels.size(); ++j) {
            KernelGeometry g = geometries[j];
            g.waves = halfTheSms ? std::ceil(g.numTiles / std::max(1.0, gpu.smCount / 2)) : g.waves + 1;
            if (g.waves > geometries[j].waves && g.waves <= g.numTiles)
                out.push_back({j, kernels[j], g, g.waves});
        }
}

// Element-wise kernels are also priced on 2^(-1/8) ... 2^(-2) of the bandwidth.
constexpr int kLessBandwidthSteps = 16;

// A GPU can always run a streaming kernel as one with less bandwidth would, so more bandwidth must
// never make it slower. The element-wise networks read the roofline time, and a shorter one reaches
// less of the bandwidth; read near measured GPUs whose hosts hid such kernels, they let the
// efficiency fall faster than the roofline time (T4's 768 x 768 `add` at 29 us, and at 36 us on
// twice the bandwidth). So an element-wise kernel is also priced as on up to 4x less bandwidth, in
// steps of 2^(1/8).
void lessBandwidth(std::span<const Kernel> kernels, const GpuSpec& gpu, std::vector<AlternativeSchedule>& out)
{
    for (int step = 1; step <= kLessBandwidthSteps; ++step) {
        GpuSpec slower = gpu;
        slower.memoryBandwidthGBps /= std::exp2(step / 8.0);
        for (std::size_t j = 0; j < kernels.size(); ++j)
            out.push_back({j, kernels[j], vectorGeometry(kernels[j], slower)});
    }
}

// The row counts a row-wise kernel (softmax, layer norm) of geometry `g` may be padded to without
// more waves: each power of two above its rows, and each eighth of its last wave, up to the rows
// that fill it.
std::vector<long long> paddedRowCounts(const Kernel& k, const KernelGeometry& g, const GpuSpec& gpu)
{
    std::vector<long long> counts;
    const double rows = double(std::max(k.b, 1LL));
    const double wave = std::max(1.0, gpu.smCount) * g.tileRows, full = g.waves * wave;
    for (double r = std::exp2(std::floor(std::log2(rows)) + 1); r < full; r *= 2)
        counts.push_back(static_cast<long long>(r));
    for (int eighth = 1; eighth <= 8; ++eighth)
        if (const double r = std::ceil(full - wave + wave * eighth / 8.0); r > rows)
            counts.push_back(static_cast<long long>(r));
    return counts;
}

// Softmax and layer norm can always run on rows padded up to a power of two, or up to the rows
// that fill their last wave, so more rows must never make them faster. The networks need not know
// it: every kernel of fewer tiles than SMs is priced as one whole wave, and the efficiency they
// learned rises with the bytes, so one row of LLaMA's 4096 came out slower than eight (A100: 75 us
// against 48; one token of LLaMA-2 7B slower than three). Leave one GPU out, softmax and layer norm
// moved by at most 0.13 point (P4 softmax).
void paddedRows(std::span<const Kernel> kernels, std::span<const KernelGeometry> geometries, const GpuSpec& gpu,
                std::vector<AlternativeSchedule>& out)
{
    for (std::size_t j = 0; j < kernels.size(); ++j)
        for (const long long rows : paddedRowCounts(kernels[j], geometries[j], gpu)) {
            Kernel padded = kernels[j];
            padded.b = rows;
            out.push_back({j, padded, vectorGeometry(padded, gpu)});
        }
}

} // namespace

std::vector<AlternativeSchedule> alternativeSchedules(OpClass c, std::span<const Kernel> kernels,
                                                      std::span<const KernelGeometry> geometries, const GpuSpec& gpu)
{
    std::vector<AlternativeSchedule> out;
    if (c == OpClass::Bmm || c == OpClass::Linear)
        moreWaves(kernels, geometries, gpu, out);
    else if (c == OpClass::Elementwise)
        lessBandwidth(kernels, gpu, out);
    else if (c == OpClass::Softmax || c == OpClass::LayerNorm)
        paddedRows(kernels, geometries, gpu, out);
    return out;
}

} // namespace gpuforecast::detail
