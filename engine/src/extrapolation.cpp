#include "gpuforecast/extrapolation.h"

#include "gpuforecast/json_fields.h"
#include "gpuforecast/number_text.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string_view>
#include <tuple>

namespace gpuforecast {

namespace {

struct PerSm {
    double sm, fp32, bw, mem; // mem 0: unknown
};

PerSm perSm(const GpuSpec& g) { return {g.smCount, g.gemmPeakGflops(), g.memoryBandwidthGBps, g.memoryGb}; }
PerSm perSm(const ReferenceGpu& g) { return {g.smCount, g.fp32Gflops, g.bandwidthGBps, g.memoryGb}; }

struct Ratio {
    const char* quantity;
    const char* unit;
    double (*of)(const PerSm&); // <= 0: not known for this GPU
};
const Ratio kRatios[] = {
    {"FP32 per SM", "GFLOP/s", [](const PerSm& p) { return p.fp32 / p.sm; }},
    {"memory bandwidth per SM", "GB/s", [](const PerSm& p) { return p.bw / p.sm; }},
    {"FP32 FLOP per byte of bandwidth", "FLOP/B", [](const PerSm& p) { return p.fp32 / p.bw; }},
    {"memory per SM", "GB", [](const PerSm& p) { return p.mem / p.sm; }},
};

bool usable(const PerSm& p) { return p.sm > 0 && p.bw > 0 && p.fp32 > 0; }

struct Range {
    double lo = INFINITY, hi = -INFINITY;
    bool empty() const { return !(lo <= hi); }
    double outside(double v) const { return std::max({1.0, v / hi, lo / v}); } // 1: inside
};

// Every per-SM ratio the networks read within 1% of the measured GPU's: whatever its id or SM
// count, the sheet is read as that GPU (a bundled A100-SXM4-40GB as the measured A100-PCIE-40GB).
bool readAsMeasured(const GpuSpec& gpu, const ReferenceGpu& m)
{
    const PerSm target = perSm(gpu);
    return usable(perSm(m)) && std::all_of(std::begin(kRatios), std::end(kRatios), [&](const Ratio& r) {
               const double a = r.of(perSm(m)), b = r.of(target);
               return !(a > 0) || std::abs(a / b - 1) < 0.01;
           });
}

// Whether `gpu` is the measured GPU `m` as trained on: its id, and every ratio within 1%. A sheet
// file that keeps a bundled id but changes its numbers is another GPU to the networks.
bool isTrainedOn(const GpuSpec& gpu, const ReferenceGpu& m) { return m.id == gpu.id && readAsMeasured(gpu, m); }

// The ratio's range over the measured GPUs. A GPU is never compared with its own measurements:
// the range of the others says whether it is covered. A sheet that only shares a measured GPU's
// id is compared with that GPU too (an edited A100 copy was told "measured 4.8-13.1" without
// the A100's own 14.4).
Range measuredRange(const Ratio& r, const GpuSpec& gpu, const std::vector<ReferenceGpu>& measured)
{
    Range out;
    for (const auto& m : measured) {
        const double v = usable(perSm(m)) ? r.of(perSm(m)) : 0;
        if (isTrainedOn(gpu, m) || !(v > 0))
            continue;
        out.lo = std::min(out.lo, v);
        out.hi = std::max(out.hi, v);
    }
    return out;
}

} // namespace

std::vector<SpecExtrapolation> specExtrapolation(const GpuSpec& gpu, const std::vector<ReferenceGpu>& measured,
                                                 double tolerance)
{
    std::vector<SpecExtrapolation> out;
    const PerSm target = perSm(gpu);
    if (!usable(target))
        return out;
    for (const auto& r : kRatios) {
        const Range range = measuredRange(r, gpu, measured);
        const double v = r.of(target), lo = range.lo, hi = range.hi;
        if (range.empty() || !(v > 0) || range.outside(v) <= tolerance)
            continue;
        SpecExtrapolation e{r.quantity, r.unit, v, lo, hi, v > hi ? v / hi : v / lo, {}};
        char times[32];
        std::snprintf(times, sizeof times, "%.1fx", v > hi ? v / hi : lo / v);
        e.text = std::string(r.quantity) + " " + significantFigures(v) + " " + r.unit + " is " + times +
                 (v > hi ? " the highest measured" : " below the lowest measured") + " (measured " + significantFigures(lo) +
                 "-" + significantFigures(hi) + ")";
        out.push_back(std::move(e));
    }
    return out;
}

std::vector<std::string> basisStretch(const GpuSpec& gpu, double limit)
{
    std::vector<std::string> out;
    if (!gpu.efficiencyBasis)
        return out;
    const GpuSpec& basis = *gpu.efficiencyBasis;
    const PerSm own = perSm(gpu), theirs = perSm(basis);
    if (!usable(own) || !usable(theirs))
        return out;
    for (const auto& r : kRatios) {
        if (std::string_view(r.quantity) == "memory per SM") // no speed; a basis reads its own
            continue;
        const double v = r.of(own), b = r.of(theirs);
        if (!(v > 0) || !(b > 0) || std::max(v / b, b / v) <= limit)
            continue;
        out.push_back(std::string(r.quantity) + " " + significantFigures(v) + " " + r.unit + " is " +
                      significantFigures(std::max(v / b, b / v)) + "x " + (v > b ? "above" : "below") + " that of " + basis.id +
                      " (" + significantFigures(b) + "), whose learned efficiency it reads: this far from its basis the "
                      "forecast extrapolates");
    }
    return out;
}

std::optional<std::string> unknownArchitectureNote(const GpuSpec& gpu)
{
    if (!gpu.vendorIsNvidia() || !gemmKernelFamily(gpu.architecture).empty())
        return std::nullopt;
    // Said as plainly when the field is left out: an H100 sheet without it came out 9% faster,
    // with no note (a CLI review).
    if (gpu.architecture.empty())
        return std::string("the sheet gives no architecture: its GEMM tiles are those of the GPU it borrows its "
                           "GEMM efficiency from, else of the measured GPU nearest in per-SM rates, and no FP32 "
                           "issue share is applied; add the SM generation (\"architecture\": \"Hopper\") to "
                           "forecast it as that one");
    return "architecture \"" + gpu.architecture +
           "\" names no SM generation the forecast knows (Maxwell, Pascal, Volta, Turing, Ampere, Ada, Hopper, "
           "Blackwell): its GEMM tiles are those of the GPU it borrows its GEMM efficiency from, else of the "
           "measured GPU nearest in per-SM rates, and no FP32 issue share is applied; add the generation it "
           "descends from to the field (\"" +
           gpu.architecture + " Blackwell\") to forecast it as that one";
}

bool isMeasuredGpuAsTrained(const GpuSpec& gpu, const std::vector<ReferenceGpu>& measured)
{
    return std::any_of(measured.begin(), measured.end(), [&](const ReferenceGpu& m) { return isTrainedOn(gpu, m); });
}

namespace {

bool slotPowered(double watts) { return watts > 0 && watts <= kSlotPowerLimitW; }

// A sheet without its board power (the field is optional) takes its efficiency basis's; 0 when
// neither gives it.
double boardPowerW(const GpuSpec& gpu) { return gpu.tdpW > 0 ? gpu.tdpW : gpu.efficiencySheet().tdpW; }

// Whose learned efficiency a GPU beyond the measured range borrows, best first: a measured GPU of
// its SM generation's GEMM kernel family and power feed (an A100 with more memory is still an
// A100); else the newest of its power feed; else the newest. Newest, not nearest in per-SM
// rates: leave one out, each full-power GPU forced to borrow whole, the newest other full-power
// one carried whole models within 3 points of the GPU's own networks (A100 through V100 4.7%,
// V100 through A100 10.0%, P100 through A100 10.1%) while the nearest in rates, P100 for both
// the A100 and V100, missed by 30% and 35%; and nearness flipped the donor of an A100 sheet
// between V100, P100 and the A100 as its bandwidth walked from 1300 to 1500 GB/s, a 55% jump.
// docs/accuracy.md (*Beyond the measured GPUs*) has the whole table.
struct DonorRank {
    int tier;   // 0 family and feed, 1 feed, 2 any
    double age; // minus the launch year: newest first
    double distance;
    std::string_view id;
    auto key() const { return std::tie(tier, age, distance, id); }
};

DonorRank donorRank(const GpuSpec& gpu, const ReferenceGpu& m)
{
    // A sheet that gives no board power is read as a card with its own power feed, as every
    // bundled part above 75 W is.
    const bool sameFeed = slotPowered(boardPowerW(gpu)) == slotPowered(m.tdpW);
    const std::string family = gemmKernelFamily(gpu.architecture);
    const bool sameFamily = !family.empty() && family == gemmKernelFamily(m.architecture);
    return {sameFeed ? (sameFamily ? 0 : 1) : 2, -m.launchYear, perSmRateDistance(gpu, m), m.id};
}

std::string donorReason(int tier, const GpuSpec& gpu, const ReferenceGpu& m)
{
    if (tier == 0) // cuBLAS's name for it: Hopper and Ada run ampere_sgemm kernels
        return "the measured GPU of its GEMM kernel family (" + gemmKernelFamily(m.architecture) + ")";
    const double watts = boardPowerW(gpu);
    const char* draw = slotPowered(watts) ? "75 W or less" : "more than 75 W";
    if (tier == 2)
        return std::string("the newest measured GPU (none measured draws ") + draw + ", as this one does)";
    return std::string("the newest measured GPU that, like this one, draws ") + draw +
           (watts > 0 ? "" : " (the sheet gives no board power: read as more than 75 W)");
}

} // namespace

std::optional<GemmEfficiencyDonor> gemmEfficiencyDonor(const GpuSpec& gpu, const std::vector<ReferenceGpu>& measured,
                                                       double tolerance)
{
    const PerSm target = perSm(gpu);
    if (!usable(target))
        return std::nullopt;
    // How far outside the measured range, as a ratio (1: inside), over the ratios the networks read.
    double outside = 1;
    for (const auto& r : kRatios)
        if (const Range range = measuredRange(r, gpu, measured); !range.empty() && r.of(target) > 0)
            outside = std::max(outside, range.outside(r.of(target)));
    if (isMeasuredGpuAsTrained(gpu, measured)) // not a what-if variant of it: nothing to borrow
        return std::nullopt;
    if (!(outside > tolerance) || !(tolerance > 1))
        return std::nullopt;
    const ReferenceGpu* best = nullptr;
    std::optional<DonorRank> bestRank;
    for (const auto& m : measured) {
        if (!usable(perSm(m)))
            continue;
        const DonorRank rank = donorRank(gpu, m);
        if (!bestRank || rank.key() < bestRank->key()) {
            best = &m;
            bestRank = rank;
        }
    }
    if (!best)
        return std::nullopt;
    return GemmEfficiencyDonor{*best, std::min(1.0, std::log(outside / tolerance) / std::log(tolerance)),
                               donorReason(bestRank->tier, gpu, *best)};
}

SpecCoverage specCoverage(const GpuSpec& sheet, const std::vector<ReferenceGpu>& measured)
{
    SpecCoverage c;
    c.outside = specExtrapolation(sheet, measured);
    c.donor = gemmEfficiencyDonor(sheet, measured);
    c.level = c.donor ? Coverage::Beyond : c.outside.empty() ? Coverage::Within : Coverage::NearEdge;
    return c;
}

const char* coverageName(Coverage level)
{
    switch (level) {
    case Coverage::NearEdge: return "near_edge";
    case Coverage::Beyond: return "beyond";
    case Coverage::Within: break;
    }
    return "within";
}

std::optional<std::string> readAsNewGpuNote(const GpuSpec& gpu, const std::vector<ReferenceGpu>& measured)
{
    if (gpu.efficiencyBasis || !gpu.efficiencyBasisId.empty() || gemmEfficiencyDonor(gpu, measured))
        return std::nullopt;
    const ReferenceGpu* nearest = nullptr;
    for (const auto& m : measured) {
        if (readAsMeasured(gpu, m)) // the measured GPU itself, or its twin: that GPU's own efficiency
            return std::nullopt;
        if (std::isfinite(perSmRateDistance(gpu, m)) &&
            (!nearest || perSmRateDistance(gpu, m) < perSmRateDistance(gpu, *nearest)))
            nearest = &m;
    }
    if (!nearest)
        return std::nullopt;
    // Said plainly: a reviewer's V100 sheet with 16 GB instead of 32 came out 2.1x slower, and an
    // A100 with 1.1-2x the SMs, FP32 and bandwidth slower at each step, both "within" coverage.
    return gpu.id + " is read as a new GPU: its GEMM efficiency is what the networks make of its per-SM rates and memory "
                    "per SM (nearest measured GPU: " +
           nearest->id + "), so even its memory size moves its speed and more of a resource can forecast slower; a sheet "
                         "edited from a measured GPU keeps that GPU's efficiency with \"efficiency_basis\": \"" +
           nearest->id + "\"";
}

std::string editedWithoutBasisNote(const GpuSpec& sheet, const GpuSpec& bundled)
{
    const bool idFromIt = sheet.id.rfind(bundled.id, 0) == 0;
    return sheet.id + (idFromIt ? " takes its id from the bundled " : " has the name of the bundled ") + bundled.id +
           " but names no efficiency basis, so it is read as a new GPU, not as " + bundled.id +
           " with other numbers: its GEMM efficiency is what the networks make of its per-SM rates, and a change to the "
           "sheet can move the forecast the wrong way; add \"efficiency_basis\": \"" + bundled.id +
           "\" to keep that GPU's learned efficiency";
}

double perSmRateDistance(const GpuSpec& gpu, const ReferenceGpu& measured)
{
    // The two rates only. FLOP per byte is their quotient, and memory capacity is no speed: it
    // marks a GPU as outside the range the networks know but says nothing about whose efficiency
    // (or library) it shares: an A100 with more memory is still an A100.
    const PerSm a = perSm(gpu), b = perSm(measured);
    if (!usable(a) || !usable(b))
        return INFINITY;
    double d = 0;
    for (int i = 0; i < 2; ++i)
        d += std::pow(std::log(kRatios[i].of(b) / kRatios[i].of(a)), 2);
    return std::isfinite(d) ? d : INFINITY;
}

std::string describeDonor(const GemmEfficiencyDonor& donor)
{
    char text[200];
    std::snprintf(text, sizeof text, "GEMM efficiency taken from %s, %s (weight %.0f%%)", donor.gpu.id.c_str(),
                  donor.reason.empty() ? "a measured GPU" : donor.reason.c_str(), 100 * donor.weight);
    return text;
}

std::optional<std::string> slotPoweredDonorCaution(const GpuSpec& gpu, const GpuSpec& donor, double donorWeight)
{
    if (!(donorWeight >= 0.5))
        return std::nullopt;
    const double watts = boardPowerW(gpu);
    if (!(donor.tdpW > 0 && donor.tdpW <= kSlotPowerLimitW && watts > kSlotPowerLimitW))
        return std::nullopt;
    const auto w = [](double x) { return std::to_string(static_cast<long long>(std::lround(x))) + " W"; };
    return donor.id + " is a " + w(donor.tdpW) + " card powered by its slot alone and slows on large GEMMs; at " +
           w(watts) + " this GPU's GEMMs may run faster than forecast (the A100 forecast through T4's efficiency: " +
           "linear kernels 58% slow)";
}

GpuSpec asSeenByNetworks(const GpuSpec& gpu, const ReferenceGpu& donor)
{
    GpuSpec s = gpu;
    s.smCount = donor.smCount;
    s.fp32Gflops = s.fp32MatrixGflops = donor.fp32Gflops;
    s.memoryBandwidthGBps = donor.bandwidthGBps;
    s.l2CacheMb = donor.l2CacheMb;
    s.readAsMeasuredGpu = true;
    if (donor.memoryGb > 0)
        s.memoryGb = donor.memoryGb;
    return s;
}

} // namespace gpuforecast
