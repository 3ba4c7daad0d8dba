#pragma once
// A GPU spec sheet: the public numbers a forecast may use. Units live in the field names, so a
// spec file reads like the vendor's datasheet and nobody has to guess whether 1555 is GB/s or GiB/s.
#include <nlohmann/json_fwd.hpp>

#include <algorithm>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace gpuforecast {

struct GpuSpec {
    std::string id;           // file stem, stable key (e.g. "A100-PCIE-40GB")
    std::string name;         // marketing name
    std::string vendor;       // "NVIDIA", "AMD", ...
    std::string architecture; // "Ampere", "CDNA 2", ...
    std::string source;       // where the numbers came from
    std::string interconnectKind;

    double launchYear = 0;
    double smCount = 0;          // streaming multiprocessors / compute units
    double coresPerSm = 0;
    double boostClockMhz = 0;
    double fp32Gflops = 0;       // FP32 vector peak, GFLOP/s
    double fp32MatrixGflops = 0; // FP32 peak for matrix multiply (equals fp32Gflops unless the spec differs)
    double fp16TensorGflops = 0;
    double bf16TensorGflops = 0;
    double memoryGb = 0;
    double memoryBandwidthGBps = 0; // GB/s (10^9 bytes per second)
    double l2CacheMb = 0;
    // Optional (0: not given). The L1 data cache of one SM; where L1 and shared memory are one
    // array (NVIDIA since Volta), that array's size, as the whitepapers give it. With the resident
    // threads per SM it decides whether softmax and layer norm re-read their rows from L1 or from
    // DRAM (geometry.cpp, rowRereadBytes).
    double l1CacheKb = 0;
    double maxThreadsPerSm = 0;
    double tdpW = 0;
    std::optional<double> priceUsd;
    double interconnectBandwidthGBps = 0; // per GPU, per direction
    double interconnectLatencyUs = 0;
    // GPUs the link joins at its bandwidth (MI210's bridges make a 4-GPU hive); 0: not given, a
    // whole server's (parallel.h, kGpusPerServer).
    double interconnectMaxGpus = 0;

    // The sheet a variant was derived from. The networks read that sheet's per-SM rates, so the
    // variant keeps its GPU's learned efficiency and changes only its roofline, tiles and waves.
    // Read as a new GPU instead, a V100 with 20% more SMs came out 18% slower and one with 20% less
    // memory 29% slower: with five training GPUs the per-SM ratios tell the networks which GPU
    // they see (docs/method.md, 3). What-if sliders set it in code; a file names its basis by id
    // ("efficiency_basis", efficiencyBasisId) and resolveEfficiencyBasis (catalog.h) fills it in.
    std::shared_ptr<const GpuSpec> efficiencyBasis;
    // The "efficiency_basis" a sheet file names: a bundled GPU's id, or empty (read as itself).
    std::string efficiencyBasisId;
    // Keys the file had that no forecast reads ("l1_cache_kbb", "interconnect.bw"): the top level's
    // in nlohmann's key order, then those inside "interconnect".
    // Sheets may carry extra fields (DESIGN.md: "at least"), so they are not an error, but a typo
    // of an optional field would otherwise leave its default in force without a word.
    std::vector<std::string> unreadFields;
    // Those fields with their values, as a JSON object's text ("{}" or empty: none; nested ones
    // under "interconnect"). A sheet saved again (the GUI saves every edit) writes them back, so
    // a file's own notes survive an edit of its clock.
    std::string unreadFieldsJson;
    // Set on a measured GPU's rates as the networks read them (asSeenByNetworks): their learned
    // efficiency already holds whatever share of the FP32 lanes that GPU issues.
    bool readAsMeasuredGpu = false;
    // The sheet whose learned efficiency a forecast of this spec reads: the basis, else itself.
    const GpuSpec& efficiencySheet() const { return efficiencyBasis ? *efficiencyBasis : *this; }

    // The peak a GEMM can reach: the matrix units', or the FP32 cores' where a sheet gives a lower
    // matrix figure (cuBLAS would run the GEMM on the cores; a sheet typed so made GEMMs slower
    // than the cores allow).
    double gemmPeakGflops() const { return std::max(fp32MatrixGflops, fp32Gflops); }
    double peakFlops(bool matrix) const { return (matrix ? gemmPeakGflops() : fp32Gflops) * 1e9; }
    double bandwidthBytesPerSecond() const { return memoryBandwidthGBps * 1e9; }
    // The memory as the networks' footprint feature was trained to read it (decimal GB).
    double memoryBytes() const { return memoryGb * 1e9; }
    // The memory a model must fit in. Sheets give the size as the card is sold ("80 GB"), and
    // DRAM is sold in binary units: an H100 "80 GB" holds 80 GiB (85.9e9 bytes), so decimal
    // bytes judged a model near the limit 7% too large to fit.
    double memoryCapacityBytes() const { return memoryGb * kBytesPerGiB; }
    static constexpr double kBytesPerGiB = 1024.0 * 1024.0 * 1024.0;
    double l2Bytes() const { return l2CacheMb * 1e6; }
    // The optional SM fields as forecasts read them (128 KB, 2048 threads when not given).
    double l1CacheKbOrDefault() const { return l1CacheKb > 0 ? l1CacheKb : 128; }
    double threadsPerSmOrDefault() const { return maxThreadsPerSm > 0 ? maxThreadsPerSm : 2048; }
    // Whether the vendor field names NVIDIA, in any case ("NVIDIA", "NVIDIA Corporation").
    bool vendorIsNvidia() const;
};

// One numeric field of the spec sheet, as the loader, the validator and the GUI's editor see it.
struct SpecField {
    const char* key;   // JSON key; nested keys are written "interconnect.bandwidth_gbps"
    const char* label; // human label for editors
    const char* unit;
    double lo, hi;     // accepted range (inclusive)
    bool integral;
    bool optional;
    double GpuSpec::*member; // null for optional fields stored elsewhere (price)
};

std::span<const SpecField> specFields();

// Throws ForecastError("<source>: <field>: <why>") for the first invalid field.
GpuSpec gpuSpecFromJson(const nlohmann::json& j, const std::string& source);
nlohmann::json gpuSpecToJson(const GpuSpec& spec);
GpuSpec loadGpuSpec(const std::string& path);
void saveGpuSpec(const GpuSpec& spec, const std::string& path);

// Checks a spec built in code (e.g. after an edit) with the same rules as the loader.
void validateGpuSpec(const GpuSpec& spec, const std::string& source);

// `sheet` with each resource a kernel can use (SMs, FP32 peak per SM, memory bandwidth, L2, L1
// per SM, memory) the lesser, or the greater, of its own and `other`'s; every other field is
// `sheet`'s. A GPU can run as one with fewer resources (leave SMs idle, issue slower, use less of
// its bandwidth), so no kernel should take longer on it than on the lesser sheet, nor less time
// than on the greater one (Forecaster::predict bounds a what-if variant so).
GpuSpec withLesserResources(const GpuSpec& sheet, const GpuSpec& other);
GpuSpec withGreaterResources(const GpuSpec& sheet, const GpuSpec& other);

// The sheet's own arithmetic: FP32 peak against 2 x SMs x FP32 cores per SM x boost clock. Every
// bundled sheet agrees within 4%; a peak typed with a digit too many or too few does not, and the
// forecast would price it without a word (no forecast reads the clock; cores only to tell
// 128-lane SMs, fp32GemmIssueShare). One line for people
// when the two differ by more than 25%; empty when they agree or a number is missing.
std::optional<std::string> fp32PeakMismatch(const GpuSpec& spec);
// 2 x SMs x FP32 cores per SM x boost clock, in GFLOP/s: the peak the sheet's own counts make
// (0 where one is missing), against which fp32PeakMismatch checks the given one.
double fp32PeakFromCoresGflops(const GpuSpec& spec);

// One line for people when a sheet not of NVIDIA has no FP32 matrix peak above its vector one
// (left out, it is read as the vector peak): its GEMMs are then priced at the vector peak, where
// AMD CDNA's matrix cores run FP32 GEMMs at twice it; an MI300X sheet without the field came out
// 1.8x slower without a word. Judged from the numbers alone, so no edit, undo or save loses it.
// NVIDIA's FP32 GEMMs run on the vector lanes, so there the two peaks are one: a sheet that gives
// them more than 1% apart is named too (halving fp32_gflops alone left every GEMM as it was).
// Empty otherwise.
std::optional<std::string> matrixPeakNote(const GpuSpec& spec);

// A vendor that is neither NVIDIA nor AMD ("Nvdia"): the sheet is read as not NVIDIA's (its GEMMs
// on fp32_matrix_gflops, no FP32 issue share), which moved a misspelt H100's forecast 7% without
// a word. Empty for those two and for a sheet that names no vendor.
std::optional<std::string> vendorNote(const GpuSpec& spec);

// One line for people when the file had fields no forecast reads: each named, with the field it
// most likely meant ("l1_cache_kbb (did you mean l1_cache_kb?)"); empty when every key was read.
std::optional<std::string> unreadFieldsNote(const GpuSpec& spec);

// The fields a forecast reads in which two sheets differ, as "sm_count 216 (108)" (a's value,
// then b's), "l1_cache_kb not given (192)" or "architecture \"Pascal\" (\"Hopper\")".
// For a sheet file that keeps a bundled GPU's id, whose output would otherwise read as that GPU's.
std::vector<std::string> specDifferences(const GpuSpec& a, const GpuSpec& b);

// Reads or sets a field by its key; returns false / throws for unknown keys or out-of-range values.
std::optional<double> specFieldValue(const GpuSpec& spec, const std::string& key);
// Sets a field, checking its range; 0 clears an optional field ("not given").
void setSpecField(GpuSpec& spec, const std::string& key, double value);

} // namespace gpuforecast
