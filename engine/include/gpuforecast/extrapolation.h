#pragma once
// How far a GPU's spec sheet lies outside the GPUs the networks were trained on. The GEMM
// networks read per-SM spec ratios, so a part whose ratios no measured GPU had is forecast by
// extrapolation, and its forecast deserves less trust than the leave-one-out numbers suggest.
// Forecasts show these notes next to the numbers instead of staying silent about it.
#include "gpuforecast/gpu_spec.h"
#include "gpuforecast/tiling.h"

#include <optional>
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

inline constexpr double kExtrapolationTolerance = 1.25;

// The per-SM ratios the GEMM networks depend on (FP32 matrix peak, bandwidth and memory per SM,
// FLOP per byte), for each one that is more than `tolerance` (a ratio, 1.25 = 25%) outside the
// measured GPUs' range. Empty when nothing is measured, when the GPU is inside the range, or when
// it is itself the only measured GPU.
std::vector<SpecExtrapolation> specExtrapolation(const GpuSpec& gpu, const std::vector<ReferenceGpu>& measured,
                                                 double tolerance = kExtrapolationTolerance);

// Where the GEMM networks would extrapolate, they are not asked to. With four or five training
// GPUs, per-SM ratios far outside the measured range mostly tell the networks which GPU a kernel
// ran on, and their answer there is arbitrary (an L4 forecast at 15% of its FP32 peak, below the
// T4's efficiency; an A100-80GB 13% faster than the 40 GB part on compute-bound GEMMs because its
// memory per SM is larger). Instead such a GPU borrows the learned GEMM efficiency of a measured
// GPU: one of its SM generation's kernel family and power feed, else the newest of its power feed
// (slot alone, 75 W or less, or its own), else the newest; `reason` says which. The networks see
// that GPU's sheet on the GPU's own tiles and waves, and the fraction of the roofline they predict
// is applied to the GPU's
// own roofline and waves. The donor's weight rises from 0 at `tolerance` outside the measured
// range to 1 at tolerance^2 (utilization = own^(1-w) x donor^w), so a what-if slider that walks a
// spec out of the range moves the forecast continuously. Within the tolerance the networks keep
// the GPU: leave-one-out, held-out T4 (FP32 per SM 1.13x the others') was forecast to 8% by its
// own features and to 21% when it borrowed from V100 (the nearest, but not power-limited).
// How unlike `measured` is from `gpu` in the rates the GEMM networks read: the squared log ratios
// of FP32 (matrix) peak and of bandwidth, both per SM. Infinite when either lacks them. The
// reference GPU for tiles (TileDatabase::referenceFor) is the nearest by it within the kernel
// family; the efficiency donor uses it only to break a tie between GPUs of the same launch year.
double perSmRateDistance(const GpuSpec& gpu, const ReferenceGpu& measured);

// Whether `gpu` is one of `measured` as the networks were trained on it: the same id and every
// ratio they read within 1%. A sheet that changes only what no network reads (board power, price)
// still is; one that keeps the id but changes a ratio is another GPU to them.
bool isMeasuredGpuAsTrained(const GpuSpec& gpu, const std::vector<ReferenceGpu>& measured);

struct GemmEfficiencyDonor {
    ReferenceGpu gpu;
    double weight = 0;  // in (0, 1]
    std::string reason; // why this one, for people: "the newest measured GPU with its own power feed"
};
std::optional<GemmEfficiencyDonor> gemmEfficiencyDonor(const GpuSpec& gpu, const std::vector<ReferenceGpu>& measured,
                                                       double tolerance = kExtrapolationTolerance);

// Where a sheet lies against the measured GPUs, in the words every view uses: within the measured
// range; near the edge, when some ratio lies outside the other measured GPUs' range but the
// networks learned this GPU itself (P4's bandwidth per SM); beyond, when it borrows a measured
// GPU's GEMM efficiency (every unmeasured sheet outside the range, with a weight that rises).
// One function, so that the Compare chart, the what-if panel, `predict` and the comparison CSV
// cannot disagree (P4 was once "beyond" on its bar and "near the edge" in the panel).
enum class Coverage { Within, NearEdge, Beyond };
struct SpecCoverage {
    Coverage level = Coverage::Within;
    std::vector<SpecExtrapolation> outside;   // the ratios outside the measured range
    std::optional<GemmEfficiencyDonor> donor; // set exactly when level is Beyond
};
SpecCoverage specCoverage(const GpuSpec& sheet, const std::vector<ReferenceGpu>& measured);
// "within", "near_edge", "beyond": the words of the comparison CSV and predict's JSON.
const char* coverageName(Coverage level);

// One line for people: "GEMM efficiency taken from T4, the nearest measured GPU (weight 100%)".
std::string describeDonor(const GemmEfficiencyDonor& donor);

// Cards that draw all their power from the PCIe slot (75 W at most: T4, P4, L4) slow down on
// large GEMMs as their clocks fall to the limit. With the host's launch floor taken off, T4's
// `linear` kernels reach 0.50 of FP32 peak at 64 us of roofline time and 0.36-0.39 beyond 1 ms,
// P4's fall from 0.40 to 0.19, while the measured cards with their own power feed hold 0.6-0.9
// (docs/accuracy.md, twenty-fifth round).
// The donor rule keeps a GPU of more than 75 W off such a card whenever one with its own power feed
// was measured, but a --weights folder trained only on slot-powered cards has none. A GPU of
// more than 75 W that borrows such a card's efficiency is likely forecast slow: held out,
// the A100 forecast through T4's came out 58% slow on its `linear` training kernels. One line for
// people when that is the case; nothing when it is not or either board power is unknown. `donor`
// is the measured GPU's own sheet (the bundled one: a user's edit of it does not change what the
// networks learned); callers that cannot find it, as with a --weights folder trained on GPUs
// the catalog does not have, say nothing. `donorWeight` is GemmEfficiencyDonor::weight: under
// one half the GPU's own networks carry most of its forecast (a what-if slider just past the
// range), and nothing is said either.
inline constexpr double kSlotPowerLimitW = 75;
std::optional<std::string> slotPoweredDonorCaution(const GpuSpec& gpu, const GpuSpec& donor, double donorWeight);

// A sheet that names no efficiency basis, is no measured GPU and lies inside the measured range
// is read as a new GPU: its GEMM efficiency is what the networks make of its per-SM rates and
// memory per SM. An edited copy of a measured GPU is then a different GPU to them (an
// A100-PCIE-40GB sheet with twice the SMs, FP32 and bandwidth forecast GPT-2 large at 82 ms
// against the A100's 62 ms: its memory per SM, halved, lies next to P4's). One line for people
// that says so and names the nearest measured GPU as the basis to write; nothing otherwise.
std::optional<std::string> readAsNewGpuNote(const GpuSpec& gpu, const std::vector<ReferenceGpu>& measured);
// The same for a sheet file edited from a bundled one (editedFromBundled) that names no basis,
// said wherever its ratios lie and naming that bundled sheet as the basis to write: beyond the
// measured range such a sheet borrows the GEMM efficiency of whichever measured GPU is nearest,
// and an A100 sheet with 0.6x the bandwidth, nearest a V100, came out faster than the A100.
std::string editedWithoutBasisNote(const GpuSpec& sheet, const GpuSpec& bundled);

// A what-if variant, or a sheet that names an efficiency basis, is read with the basis's learned
// efficiency (GpuSpec::efficiencyBasis) and is "within" wherever its basis is: an A100 with 1 GB/s
// of bandwidth, or with 10,000 SMs of the same total FP32, said nothing. Each per-SM ratio the
// networks read (FP32 and bandwidth per SM, FLOP per byte) that differs from the basis's by more
// than `limit` times, one line for people each ("memory bandwidth per SM 0.00926 GB/s is 1.56e+03x
// below that of A100-PCIE-40GB (14.4), ..."); empty for a sheet read as itself or near its basis.
inline constexpr double kBasisStretchLimit = 2;
std::vector<std::string> basisStretch(const GpuSpec& gpu, double limit = kBasisStretchLimit);

// An NVIDIA sheet whose architecture names no SM generation the forecast knows ("Rubin") loses
// what the generation decides: the GEMM tile family (gemmKernelFamily: tiles then come from the
// measured GPU nearest in per-SM rates) and, on 128-lane SMs, the FP32 issue share. An H100
// sheet renamed so came out 7% faster, without a word, and one without the field 9% faster. One
// line for people; empty for a known generation or another vendor (no AMD generation is known to
// the tile rule).
std::optional<std::string> unknownArchitectureNote(const GpuSpec& gpu);

// `gpu` with the donor's SM count, FP32 peaks, bandwidth, memory and L2: the sheet the GEMM
// networks read when `gpu` borrows `donor`'s efficiency.
GpuSpec asSeenByNetworks(const GpuSpec& gpu, const ReferenceGpu& donor);

} // namespace gpuforecast
