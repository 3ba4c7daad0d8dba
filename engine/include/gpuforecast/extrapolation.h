#pragma once
// How far a GPU's spec sheet lies outside the GPUs the networks were trained on. The GEMM
// networks read per-SM spec ratios, so a part whose ratios no measured GPU had is forecast by
// extrapolation, and its forecast deserves less trust than the leave-one-out numbers suggest.
// Forecasts show these notes next to the numbers instead of staying silent about it.
#include "gpuforecast/gpu_spec.h"
#include "gpuforecast/tiling.h"

#include <string>
#include <vector>

namespace gpuforecast {

struct SpecExtrapolation {
    std::string quantity; // e.g. "FP32 per SM"
    std::string unit;
    double value = 0;
    double measuredMin = 0, measuredMax = 0; // over the measured GPUs (never the GPU itself)
    double factor = 1; // value / measuredMax when above, value / measuredMin when below
    std::string text;  // one line for people
};

// The per-SM ratios the GEMM networks depend on, for each one that is more than `tolerance`
// (a ratio, 1.25 = 25%) outside the measured GPUs' range. Empty when nothing is measured, when
// the GPU is inside the range, or when it is itself the only measured GPU.
std::vector<SpecExtrapolation> specExtrapolation(const GpuSpec& gpu, const std::vector<ReferenceGpu>& measured,
                                                 double tolerance = 1.25);

} // namespace gpuforecast
