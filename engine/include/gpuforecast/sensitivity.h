#pragma once
// "What should next year's GPU improve for my model?": how much the model's step time moves when
// one spec-sheet number moves by +-fraction, everything else held.
#include "gpuforecast/model_forecast.h"
#include "gpuforecast/parallel.h"

#include <string>
#include <vector>

namespace gpuforecast {

struct SpecSensitivity {
    std::string field;       // spec key, e.g. "memory_bandwidth_gbps"
    std::string label;       // "Memory bandwidth"
    double lowerChange = 0;  // relative change of step time with the field x (1 - fraction), e.g. +0.12
    double higherChange = 0; // ... with the field x (1 + fraction), e.g. -0.08
    // The factors the field really moved by: a count of SMs stays whole, so 1 or 2 SMs cannot
    // move by 20% at all (both 1), and 3 move by a third.
    double lowerFactor = 1, higherFactor = 1;
    bool moved() const { return lowerFactor != 1 || higherFactor != 1; }
};

// Fields that a forecast depends on: SM count, clock-derived FP32 peak (vector and matrix move
// together, as they do on real parts), memory bandwidth, L2, memory size, and on a multi-GPU
// layout the step time of the whole server and the interconnect bandwidth too. Sorted by the
// larger absolute change, largest first (a tornado chart's order).
std::vector<SpecSensitivity> specSensitivity(const Forecaster& forecaster, const ModelConfig& config,
                                             const GraphOptions& options, const GpuSpec& gpu, double fraction = 0.2,
                                             const ParallelLayout& layout = {});

} // namespace gpuforecast
