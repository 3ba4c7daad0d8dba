#pragma once
// The inputs of the learned utilization. They are chosen so that a GPU outside the training set
// lands inside the range the networks were trained on, which is why the method extrapolates.
#include "gpuforecast/geometry.h"
#include "gpuforecast/gpu_spec.h"

#include <array>
#include <string_view>

namespace gpuforecast {

inline constexpr int kFeatureCount = 4;
using FeatureNames = std::array<std::string_view, kFeatureCount>;

// GEMMs (bmm, linear): per-tile, per-SM ratios. NeuSight's fourth feature, waves x tile bytes /
// per-SM L2, is left out on purpose: the training GPUs have 2-6 MB of L2 and every current part
// has 40-126 MB, so the networks could only extrapolate on it, and leave-one-GPU-out validation
// showed them doing so wildly (A100 linear kernels forecast 60x too slow). See docs/accuracy.md.
inline constexpr FeatureNames kGemmFeatureNames{
    "log_tile_compute_us",     // tile FLOPs / per-SM peak FLOP/s
    "log_tile_memory_us",      // tile bytes / per-SM bandwidth
    "log_footprint_vs_memory", // waves x tile bytes / per-SM memory
    "log_waves",
};

// Layer-norm kernels: sizes only, nothing about the GPU (element-wise and softmax kernels swap
// inputs, below). Their time is bytes / bandwidth x (how much of the bandwidth the access pattern
// reaches), and with four training GPUs any per-SM spec ratio identifies one of them: leave one
// GPU out, A100 softmax borrowed P100's poor efficiency because the two have similar bandwidth per
// SM (error 68%; with these features 21%). The kernel's total bytes carries what per-SM features
// cannot: large transfers keep DRAM streaming and amortise the launch, so efficiency keeps rising
// with size.
inline constexpr FeatureNames kVectorFeatureNames{
    "log_tile_bytes",     // DRAM bytes of one tile (a row for layer norm, 1-256 rows for softmax)
    "log_flops_per_byte", // which element-wise operator: add, gelu and tanh differ here
    "log_kernel_bytes",   // all tiles
    "log_waves",
};
// Element-wise kernels read their roofline time (in us, as the wave law prices it) where the others
// read their wave count. Their efficiency follows that time across the measured GPUs: an `add`
// whose roofline is 20 us reaches 0.51-0.59 of the spec bandwidth on A100, V100, T4 and P4 (P100,
// behind its slow host, 0.40), where an 8 MB `add` reaches anything from 0.20 (A100) to 0.60 (P4)
// (docs/accuracy.md, findings, "Element-wise efficiency by roofline time"). With the kernel's bytes,
// the wave count says the SM count instead, and a GPU with a new one was read near the measured GPU
// of the nearest count: L4 (60 SMs, 300 GB/s) near P100 (56), whose host hides every kernel under
// 10 MB, so L4's 7 MB `add` came out at 2x T4's time. Now L4 reads near T4, whose bandwidth it nearly has.
inline constexpr FeatureNames kElementwiseFeatureNames{
    "log_tile_bytes",
    "log_flops_per_byte",
    "log_kernel_bytes",
    "log_roofline_us", // KernelGeometry::secondsAt(1): its waves of tiles at the spec bandwidth
};
// Softmax runs as one of two PyTorch kernels: rows up to 1024 floats as softmax_warp_forward, a warp
// per row and several rows per block; longer rows as cunn_SoftMaxForward, one row per block. Their
// efficiencies differ, and with rows per tile missing the network mixed them: a warp tile of 4 rows
// of 1024 has the bytes of a one-row tile of 4096, and weights trained without it forecast their
// own warp-kernel training rows over 30 MB 13-29% slow on four of the five GPUs (docs/accuracy.md,
// "Softmax's two kernels"). Softmax's FLOPs per byte are the same for every row, so that slot
// carries rows per tile instead.
// Softmax reads its tile count where layer norm reads its wave count. With the kernel's bytes, the
// wave count says the SM count, as it did for element-wise kernels: L4 (60 SMs) was read near P100
// (56), whose slow host the networks had learned as low efficiency, and a softmax over GPT-2's
// 2560 rows of 128 came out at 148 us on L4 against 33 us on T4, whose bandwidth L4 nearly has.
// The tile count says nothing about the GPU; the wave law still prices the real waves. Leave one
// GPU out, V100 gained most (training / validation rows 21.9/17.0% -> 13.8/7.0%) and the A100's
// largest kernels lost (validation rows 8.6% -> 12.4%; docs/accuracy.md, findings, "Softmax by
// tile count"). Layer norm lost on it and keeps its waves.
inline constexpr FeatureNames kSoftmaxFeatureNames{
    "log_tile_bytes",
    "log_rows_per_tile", // 1 for cunn_SoftMaxForward; 4-256 for softmax_warp_forward
    "log_kernel_bytes",
    "log_tiles",
};
// Indices into every vector name set. The fourth feature (waves; softmax's tile count; element-wise
// roofline time) grows in proportion to the kernel's bytes, as pricing beyond the largest measured
// kernel assumes.
inline constexpr int kTileBytesFeature = 0, kKernelBytesFeature = 2, kWavesFeature = 3;

const FeatureNames& featureNames(OpClass c);

using FeatureVector = std::array<double, kFeatureCount>;

// The features of one kernel of class `c` (its geometry on `gpu`).
FeatureVector kernelFeatures(OpClass c, const KernelGeometry& g, const GpuSpec& gpu);

// The saturating wave law: utilization = gamma - (alpha * gamma) / waves, with alpha, gamma in (0, 1).
// Writing the discount as a fraction of gamma keeps utilization in (0, gamma) for every wave count,
// so a forecast can only ever be slower than the roofline, never faster, and never negative.
inline double utilizationFrom(double alpha, double gamma, double waves) { return gamma * (1.0 - alpha / waves); }

// Measured kernel times never drop below a fixed launch-and-timing overhead (about 25-50 us on every
// GPU in the data, whatever its size). That overhead is not a function of per-SM features, so
// asking the utilization network to learn it would tie it to the training GPUs. Instead the
// forecast is a smooth maximum of the floor and the wave model: (floor^s + t^s)^(1/s).
inline constexpr double kFloorSharpness = 6.0;
// Layer norm pays the floor on top of its work instead: its measured times are the floor plus the
// bytes at a steady share of the bandwidth (A100, rows of 1024 floats and more: 1.4, 2.1, 3.2 and
// 5.1 floors where the bytes take 0.36, 0.69, 1.39 and 2.89 floors at the spec bandwidth;
// tools/launch_overhead.py). Under the smooth maximum the networks learned that overhead as low
// efficiency of mid-size kernels, by size, and a size is a different share of the floor on every
// GPU (held-out A100 training rows of 0.05-0.2 ms came out 19-36% fast). For softmax and
// element-wise kernels the added floor did worse held out (docs/accuracy.md, findings).
enum class FloorComposition { SmoothMaximum, Added };

// The lowest utilization the wave law may give a kernel of the class. Every element-wise kernel
// measured at two launch floors or more runs at 0.34 of its roofline or better (scalar pow on the
// A100), but for one T4 relu timing of 791 at 0.15; the 5th percentile per operator and GPU is
// 0.35-0.70. Smaller kernels sit under the launch floor, where the measurements say nothing about
// their work, and the networks were free to give them any small utilization; on a GPU read near
// one whose host floor hid them, that work came out above the floor (weights without the
// minimum, A100 held out: a 256 x 1366 add, 4.2 MB, on L4 at 91 us, on T4 at 29 us; with it
// 49 us). 0 for the other classes.
double minimumUtilization(OpClass c);
FloorComposition launchFloorComposition(OpClass c);
double withLaunchFloor(double seconds, double floorSeconds, FloorComposition how = FloorComposition::SmoothMaximum);
// d log(withLaunchFloor) / d log(seconds), for the trainer.
double launchFloorSlope(double seconds, double floorSeconds, FloorComposition how = FloorComposition::SmoothMaximum);

// A kernel can never beat the DRAM time of all the bytes it really moves
// (KernelGeometry::trafficFloorSeconds). Nearly a hard maximum: a soft one would slow every kernel
// near its floor, and the floor is only a bound, not an overhead added to the time.
inline constexpr double kTrafficFloorSharpness = 20.0;
double withTrafficFloor(double seconds, double floorSeconds);
double trafficFloorSlope(double seconds, double floorSeconds);

} // namespace gpuforecast
