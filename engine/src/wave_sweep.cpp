#include "gpuforecast/wave_sweep.h"

#include <algorithm>
#include <cmath>

namespace gpuforecast {

long long sweptSize(const Kernel& k) { return k.isGemm() ? k.m : k.b; }

Kernel withSweptSize(const Kernel& k, long long size)
{
    Kernel out = k;
    (k.isGemm() ? out.m : out.b) = size;
    return out;
}

WaveFill waveFill(const KernelGeometry& g, const GpuSpec& gpu)
{
    const double sms = gpu.smCount;
    const double full = std::floor(g.numTiles / sms);
    return {static_cast<long long>(full), (g.numTiles - full * sms) / sms};
}

SizeSweep sweepSizes(const Forecaster& forecaster, const Kernel& k, const GpuSpec& gpu, long long top, int points)
{
    top = std::max<long long>(top, 1);
    points = std::max(points, 1);
    const GemmTile own = forecaster.geometry(k, gpu).gemmTile; // held fixed: see Forecaster::predict
    auto wavesAt = [&](long long size) { return forecaster.geometry(withSweptSize(k, size), gpu, own).waves; };
    std::vector<long long> grid;
    for (int i = 1; i <= points; ++i)
        grid.push_back(std::max<long long>(1, top * i / points));
    grid.erase(std::unique(grid.begin(), grid.end()), grid.end());
    if (grid.front() != 1)
        grid.insert(grid.begin(), 1);

    SizeSweep out;
    double previousWaves = wavesAt(grid.front());
    for (std::size_t i = 1; i < grid.size(); ++i) {
        const double w = wavesAt(grid[i]);
        // Boundaries between two grid sizes: bisect for each first size whose wave count differs,
        // then continue from there (a coarse grid can skip over several waves).
        long long from = grid[i - 1];
        double fromWaves = previousWaves;
        while (fromWaves != w) {
            long long lo = from, hi = grid[i]; // wavesAt(lo) == fromWaves, wavesAt(hi) != fromWaves
            while (hi - lo > 1) {
                const long long mid = lo + (hi - lo) / 2;
                (wavesAt(mid) == fromWaves ? lo : hi) = mid;
            }
            out.boundaries.push_back(hi);
            from = hi;
            fromWaves = wavesAt(hi);
        }
        previousWaves = w;
    }
    out.sizes = grid;
    if (out.boundaries.size() > 2 * std::size_t(points))
        return out;
    for (long long b : out.boundaries) {
        out.sizes.push_back(b - 1);
        out.sizes.push_back(b);
    }
    std::sort(out.sizes.begin(), out.sizes.end());
    out.sizes.erase(std::unique(out.sizes.begin(), out.sizes.end()), out.sizes.end());
    return out;
}

} // namespace gpuforecast
