#pragma once
// How libraries cut a kernel into tiles, and the waves those tiles run in.
//
// GEMMs: cuBLAS picks a tile (and sometimes splits the reduction) by heuristics that differ per GPU.
// We learn them from what the training GPUs really ran (kernel names + launch grids) and, for a GPU
// nobody measured, borrow the choices of a measured GPU of its kernel family: cuBLAS ships FP32
// GEMM kernels per SM generation and newer architectures inherit the latest family (an H100 or an
// L4 runs Ampere's sgemm kernels), so the family predicts the tile far better than spec-sheet
// similarity does (a T4 borrowing a P100's tiles looks memory-bound). Spec similarity only decides
// among a family's GPUs, or when no GPU of the family was measured (see referenceFor).
// Vector kernels: PyTorch's launch rules are the same on every GPU, so they are written out here.
#include "gpuforecast/gpu_spec.h"
#include "gpuforecast/kernel.h"

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <tuple>
#include <string>
#include <vector>

namespace gpuforecast {

struct GemmTile {
    int alongK = 128;       // output columns per tile (first number of "sgemm_128x64")
    int alongM = 128;       // output rows per tile (second number)
    int reductionSplit = 1; // split-K factor: the reduction n is cut into this many slices
    bool operator==(const GemmTile&) const = default;
};

// Parses "ampere_sgemm_128x64_tn" -> {128, 64}. Returns nullopt for names without a tile.
std::optional<GemmTile> parseGemmKernelName(const std::string& kernelName);

// A rule that reads no measurement: the tile (128x128 ... 32x32) and split-K factor a small cost model of
// waves x per-tile work finds cheapest on the GPU's SMs, no tile cheaper than its own roofline.
// Used for linear layers (see tileFor).
GemmTile heuristicGemmTile(const Kernel& k, const GpuSpec& gpu);

// Elements per tile of a vector kernel, following PyTorch 2.1's launch configuration.
double vectorTileElements(const Kernel& k);

// The family of cuBLAS FP32 GEMM kernels an architecture runs, named by the kernels' prefix:
// "maxwell" (Maxwell, Pascal), "volta" (Volta, Turing), "ampere" (Ampere, Ada, Hopper, Blackwell);
// "" when unknown (AMD, or no architecture given).
std::string gemmKernelFamily(const std::string& architecture);

// The share of the FP32 peak a GEMM on the FP32 cores can issue. An SM whose four schedulers each
// dispatch one warp instruction per clock to 32 FP32 lanes (128 lanes: Ampere GA10x, Ada, Hopper,
// Blackwell) spends a lane-clock on every load, address and loop instruction between its FMAs;
// one with 16 lanes per scheduler (V100, T4, A100) or two dispatch units (Pascal) issues those in
// the FMAs' shadow. Every measured GPU is of the second kind, so the networks cannot learn this.
// Measured on an H200 (docs/accuracy.md, "An H200 we measured"): an FMA-only loop issued 231 of
// 256 FLOP per SM per clock, and an 8192^3 SGEMM ran at 0.762 of the peak at a held 1980 MHz, where
// the A100 runs large SGEMMs at 0.835 of its peak (0.762 / 0.835 = 0.91). 1 for any other sheet,
// and for a measured GPU's rates as the networks read them (GpuSpec::readAsMeasuredGpu).
// The roofline (geometry.cpp) and the linear tile rule (heuristicGemmTile) both price with it.
double fp32GemmIssueShare(const GpuSpec& gpu);

// What the spec sheet says about a GPU, reduced to what picks a similar reference GPU.
struct ReferenceGpu {
    std::string id;
    double smCount = 0, fp32Gflops = 0, bandwidthGBps = 0, l2CacheMb = 0;
    double launchYear = 0;
    double memoryGb = 0;        // 0 in tile files written before it was recorded
    std::string architecture{}; // "" in tile files written before it was recorded
    double tdpW = 0;            // board power; 0 in tile files written before it was recorded
};

class TileDatabase {
public:
    void addGpu(const ReferenceGpu& gpu);
    void add(const std::string& gpuId, OpClass opClass, long long b, long long m, long long n, long long k,
             const GemmTile& tile);

    // The measured GPU whose bmm tiles the target takes: the one whose GEMM efficiency it borrows,
    // when it borrows at least half of it (efficiencyDonorForTiles); otherwise the one whose
    // library most likely chooses the target's tiles: one of the target's GEMM kernel family if
    // any was measured, else any; among those the nearest in FP32 and bandwidth per SM. Never
    // `target.id` itself, so a forecast never reads measurements of the GPU it forecasts. Empty
    // when the database is empty.
    std::string referenceFor(const GpuSpec& target) const;
    // The GEMM efficiency donor (gemmEfficiencyDonor over these GPUs, weight at least 0.5) when
    // its bmm tiles are here: the efficiency was learned on them, so the tiles go with it.
    std::optional<std::string> efficiencyDonorForTiles(const GpuSpec& target) const;
    // Said beside a forecast of a measured GPU (or of a sheet read as one): its own tiles are in the
    // data and referenceFor() passes them over, so its GEMMs take another GPU's tiles, while a sheet
    // of the same chip under another id (A100-SXM4-40GB) reads them and may come out faster or
    // slower. Empty for every other GPU.
    std::optional<std::string> ownTilesNote(const GpuSpec& target) const;

    // The tile the reference GPU's library chose for the most similar GEMM shape.
    GemmTile lookup(const std::string& referenceId, OpClass opClass, long long b, long long m, long long n,
                    long long k) const;

    // The tile a forecast uses: for bmm, referenceFor() then lookup() (128x128 when nothing is
    // known); for linear, heuristicGemmTile().
    GemmTile tileFor(const GpuSpec& target, const Kernel& k) const;

    std::vector<std::string> gpuIds() const;
    const std::vector<ReferenceGpu>& gpus() const { return gpus_; } // the measured GPUs
    // The table as `train --holdout gpuId` writes it: that GPU and its shapes left out.
    TileDatabase without(const std::string& gpuId) const;
    std::size_t size() const;
    bool empty() const { return size() == 0; }

    // Compact text form: "#gpu,<id>,<sm>,<fp32>,<bw>,<l2>,<year>,<memory>,<architecture>" lines, then
    // "gpu,op,b,m,n,k,along_k,along_m,split".
    std::string serialize() const;
    static TileDatabase parse(const std::string& text, const std::string& source);
    static TileDatabase load(const std::string& path);

private:
    struct Entry {
        std::array<float, 4> logShape; // log2 of b, m, n, k
        GemmTile tile;
        long long b, m, n, k;
    };
    using ShapesKey = std::pair<std::string, OpClass>; // GPU, class
    // One GPU's measured shapes of one class, with their range (kept as shapes are added, so a
    // lookup, which clamps its query to the range, does not scan the shapes twice).
    struct Shapes {
        std::vector<Entry> entries;
        std::array<float, 4> lo{}, hi{}; // set by the first add()
    };
    // Adds one shape to a GPU's and class's list and widens its range (add() without clearing the cache).
    static void addShape(Shapes& shapes, long long b, long long m, long long n, long long k, const GemmTile& tile);
    std::vector<ReferenceGpu> gpus_;
    std::vector<std::string> families_; // gemmKernelFamily of each of gpus_ (referenceFor runs per kernel)
    std::map<ShapesKey, Shapes> entries_;

    // Lookups scan thousands of shapes; a model has a few dozen distinct GEMMs and the GUI asks for
    // the same ones on every edit, so answers are memoised (thread-safe; shared by copies, which
    // hold the same entries; cleared by add()).
    using LookupKey = std::tuple<std::string, OpClass, long long, long long, long long, long long>;
    struct LookupCache {
        std::mutex mutex;
        std::map<LookupKey, GemmTile> tiles;
        // Each Shapes' entries in order of log m (by index, so copies holding the same entries can
        // share it): a lookup scans outwards from the query's m and stops where m alone is too far.
        std::map<ShapesKey, std::vector<std::uint32_t>> byM;
    };
    std::shared_ptr<LookupCache> cache_ = std::make_shared<LookupCache>();
    static const std::vector<std::uint32_t>& orderByM(LookupCache& cache, const ShapesKey& key, const Shapes& shapes);
    GemmTile lookupUncached(const std::string& referenceId, OpClass opClass, long long b, long long m, long long n,
                            long long k) const;
};

} // namespace gpuforecast
