#pragma once
// Exact arithmetic of the method: tiles, waves and the roofline bound of one kernel on one GPU.
// Everything here extrapolates perfectly to GPUs and models larger than any seen in training;
// only the utilization (features.h, utilization_model.h) is learned.
#include "gpuforecast/gpu_spec.h"
#include "gpuforecast/kernel.h"
#include "gpuforecast/tiling.h"

namespace gpuforecast {

struct KernelGeometry {
    GemmTile gemmTile;          // GEMMs only
    double tileElements = 0;    // vector kernels: elements per tile
    double tileRows = 1;        // softmax and layer norm: whole rows per tile (softmax packs short rows)
    double numTiles = 0;
    double waves = 0;           // ceil(numTiles / smCount)
    double tileFlops = 0;       // arithmetic of one (padded) tile
    double tileBytes = 0;       // DRAM traffic of one tile
    double perWaveFlops = 0;    // smCount x tileFlops
    double peakFlops = 0;       // FLOP/s from the spec sheet (matrix peak for GEMMs, times
                                // fp32GemmIssueShare)
    double rooflineFlops = 0;   // min(peak, intensity x reuse x share x bandwidth), FLOP/s; reuse: panels
                                // shared by a wave's tiles through L2 (linear layers); share: SMs / tiles
                                // for a GEMM of fewer tiles than SMs (see geometry.cpp)
    bool memoryBound = false;
    double trafficFloorSeconds = 0; // softmax, layer norm: DRAM time of rows read again after spilling L1

    double arithmeticIntensity() const { return tileBytes > 0 ? tileFlops / tileBytes : 0; }
    // Kernel time at a given utilization of the roofline: waves x per-wave time.
    double secondsAt(double utilization) const { return waves * perWaveFlops / (rooflineFlops * utilization); }
};

KernelGeometry gemmGeometry(const Kernel& k, const GemmTile& tile, const GpuSpec& gpu);
KernelGeometry vectorGeometry(const Kernel& k, const GpuSpec& gpu);

// Memory-bound estimate for operators outside the five learned classes.
double fallbackSeconds(const Kernel& k, const GpuSpec& gpu);

// Extra time of an element-wise kernel whose operand is read transposed (Kernel::
// transposedReuseBytes): the 28 wasted bytes of every 32-byte sector, at copy bandwidth, for the
// share of sectors that are evicted before reuse. None while the reuse window fits in half the L2,
// all of them once it exceeds the L2 (a streaming pass thrashes an LRU cache), linear between.
double transposedOperandSeconds(const Kernel& k, const GpuSpec& gpu);

} // namespace gpuforecast
