#pragma once
// Wave quantization, as numbers a chart can draw: how a kernel's tiles fill the SMs, and the sizes
// at which one more row of output costs one more wave. Exact arithmetic on the forecaster's
// geometry, the kernel's own tile held fixed across a sweep; nothing here is learned.
#include "gpuforecast/forecaster.h"

#include <vector>

namespace gpuforecast {

// The dimension a sweep varies: m (output rows) for GEMMs, the row count for vector kernels.
long long sweptSize(const Kernel& k);
Kernel withSweptSize(const Kernel& k, long long size);

// How a kernel's tiles fill the SMs: waves in which every SM has a tile, and the share of SMs busy
// in the last, partial wave (0 when the tiles divide evenly into full waves).
struct WaveFill {
    long long fullWaves = 0;
    double partialFill = 0; // in [0, 1)
};
WaveFill waveFill(const KernelGeometry& g, const GpuSpec& gpu);

// Sizes 1..top for a latency sweep on one GPU: `points` evenly spaced sizes plus both sides of every
// wave boundary, so a staircase drawn through them steps exactly where the wave count does. With
// more than 2 x points boundaries the steps are narrower than the grid spacing, too fine to draw
// (and thousands of forecasts to price), so only the grid is returned.
// boundaries: the first size with a different wave count than the size before it, ascending.
struct SizeSweep {
    std::vector<long long> sizes;
    std::vector<long long> boundaries;
};
SizeSweep sweepSizes(const Forecaster& forecaster, const Kernel& k, const GpuSpec& gpu, long long top, int points);

} // namespace gpuforecast
