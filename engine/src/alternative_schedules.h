#pragma once
// Private to forecaster.cpp: the other ways a GPU could run a kernel, each priced by the same
// networks, so that a forecast is never slower than one of them. The learned efficiency need not
// know what a GPU can always do (run a GEMM's tiles in more waves, stream as if it had less
// bandwidth, pad a row-wise kernel's rows), and where it does not, a GPU with more of something
// came out slower. Each kernel takes the fastest of its own pricing and its alternatives.
#include "gpuforecast/geometry.h"
#include "gpuforecast/gpu_spec.h"
#include "gpuforecast/kernel.h"

#include <cstddef>
#include <span>
#include <vector>

namespace gpuforecast::detail {

struct AlternativeSchedule {
    std::size_t of = 0; // index of the kernel it stands in for
    Kernel kernel;
    KernelGeometry geometry;
    double pricedWaves = 0; // the wave count a GEMM alternative is priced at; 0 for the others
};

// The alternatives for `kernels` (all of class `c`, with `geometries` on `gpu`), in the order they
// are compared: a kernel takes an alternative only if it is strictly faster than everything
// before it, so equal prices keep the earlier.
std::vector<AlternativeSchedule> alternativeSchedules(OpClass c, std::span<const Kernel> kernels,
                                                      std::span<const KernelGeometry> geometries, const GpuSpec& gpu);

} // namespace gpuforecast::detail
