#pragma once
// Prices kernels on a GPU: tiles and waves (exact), roofline (spec sheet), utilization (learned).
// Immutable after construction; predict() is const and thread-safe, so a GUI can share one
// instance between its threads as std::shared_ptr<const Forecaster>.
#include "gpuforecast/extrapolation.h"
#include "gpuforecast/geometry.h"
#include "gpuforecast/gpu_spec.h"
#include "gpuforecast/kernel.h"
#include "gpuforecast/tiling.h"
#include "gpuforecast/utilization_model.h"

#include <array>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace gpuforecast {

struct KernelForecast {
    double seconds = 0;     // central forecast (geometric mean over the ensemble)
    double secondsLow = 0;  // fastest ensemble member
    double secondsHigh = 0; // slowest ensemble member
    double utilization = 1; // of the roofline, central
    KernelGeometry geometry;
    bool learned = false;   // false: roofline-only (no weights) or memory-bound fallback
    std::string efficiencyFrom; // GEMMs on a GPU outside the measured range: the measured GPU whose
    double efficiencyWeight = 0; // learned efficiency was borrowed, and how much (extrapolation.h)
    bool queued = false;    // true: time inside a model, back to back in a stream (see queuedInModel)
    // A thin GEMM forecast as the same GEMM padded to more output rows (m) or columns (k), or to a
    // longer reduction (n), which was faster (Forecaster::predict): the geometry, tile and
    // utilization are the padded run's.
    long long paddedM = 0, paddedK = 0, paddedN = 0; // 0: not padded
    // A GEMM priced as its tiles in more waves than it has (on fewer of the SMs), which the
    // networks made faster (engine/src/alternative_schedules.cpp), or softmax / layer-norm rows
    // longer than any measured one, priced as measured-length pieces, which fill more waves: that
    // wave count; 0: its own.
    double pricedWaves = 0;
    double wavesPricedAt() const { return pricedWaves > 0 ? pricedWaves : geometry.waves; }
    // A what-if variant's kernel held at its forecast on the sheet with the lesser of the variant's
    // and its basis's resources (Forecaster::withinBasisBounds), where that sheet has other SMs: its
    // SM count, over which these tiles and waves are laid out (an L4 with twice the SMs shows L4's
    // waves). 0: laid out on the forecast GPU's own SMs.
    double layoutSms = 0;
    // How much of the class's launch overhead this forecast carries. A GPU that borrows a measured
    // GPU's efficiency is that GPU's time scaled by their rooflines, overhead included: a 3.4x
    // faster H100 carries a third of the A100's 54 us, not all of it. Element-wise and softmax
    // efficiencies are learned from sizes alone, at the measured GPUs' typical speed, so a GPU with
    // more bandwidth than their geometric mean carries that share of the overhead. Layer norm's
    // floor is added to its work (UtilizationModel::floorComposition): 1, it sheds all of it.
    double overheadScale = 1;
    double ms() const { return seconds * 1e3; }
    // The DRAM traffic of rows re-read after spilling L1 sets the time (KernelGeometry::
    // trafficFloorSeconds within 5% of it): softmax and layer norm over long rows.
    bool boundByRereads() const
    {
        return geometry.trafficFloorSeconds > 0 && geometry.trafficFloorSeconds >= 0.95 * seconds;
    }
    // Inside a model, shedding the launch overhead left less time than the roofline allows, so the
    // kernel is priced at its roofline (queuedInModel): its "100%" is a floor the forecast will not
    // go under, not an efficiency any network learned. Tiny kernels of a model land here.
    bool heldAtRoofline() const { return queued && utilization >= 1 - 1e-9; }
    // "compute", "memory" or "memory (re-reads)", as the CLI and the GUI's operator table say it.
    const char* boundName() const
    {
        return boundByRereads() ? "memory (re-reads)" : geometry.memoryBound ? "memory" : "compute";
    }
};

// Kernel benchmarks launch and time each kernel on its own, and what they measure is the kernel plus
// a fixed launch-and-timing overhead that adds to it: A100 element-wise `add` takes 27 us at every
// size up to 16 MB and 27 us + bytes / 1.15 TB/s from 32 MB to 512 MB; V100 32 us + bytes / 0.72
// TB/s. The networks learn kernel times with that overhead in them. Inside a model, PyTorch queues
// kernels back to back and the overhead hides behind the kernel before: NeuSight's per-operator
// traces of the V100 runs add up to more than the same runs timed whole in 12 of 13 runs (by up
// to 31%, 12-35 us per launched operator; tools/launch_overhead.py).
// So a kernel inside a model is its forecast less the class's launch floor (the shortest time any
// kernel of the class was measured to take, our estimate of the overhead; scaled by overheadScale),
// but never faster than its roofline or than the launch interval of eager PyTorch.
// `how` is how the class's networks met the floor (UtilizationModel::floorComposition): an added
// floor is in every ensemble member's time alike, so the band sheds it too and keeps its width;
// under the smooth maximum the band is scaled with the time.
inline constexpr double kQueuedLaunchSeconds = 5e-6;
KernelForecast queuedInModel(const KernelForecast& isolated, double launchOverheadSeconds, FloorComposition how);

class Forecaster {
public:
    using ModelSet = std::array<std::shared_ptr<const UtilizationModel>, kLearnedClasses.size()>;

    Forecaster(ModelSet models, std::shared_ptr<const TileDatabase> tiles);

    // Loads <dir>/{bmm,linear,elementwise,softmax,ln}.json and <dir>/gemm_tiles.csv.gz. A missing
    // weights file leaves that class in roofline-only mode (reported by isLearned); a present but
    // invalid one throws ForecastError. Each <dir>/holdout/<GPU id>/ holds the networks trained
    // without that measured GPU (`train --holdout`), which forecast it (forGpu; read, and checked,
    // on that GPU's first forecast); its tile table, when absent, is this one's without that GPU
    // (TileDatabase::without).
    static Forecaster loadFromDirectory(const std::string& weightsDir);

    // The forecaster for `gpu`: for a sheet read as a measured GPU (GpuSpec::efficiencySheet) that
    // has networks trained without it, those, so that no forecast reads measurements of the GPU it
    // forecasts (networks trained on a low-power card's back-to-back kernel timings forecast its
    // whole models 23% slow, held out 7.5%: docs/accuracy.md); else this one. Every method below
    // that takes a GPU answers with it.
    const Forecaster& forGpu(const GpuSpec& gpu) const;
    // Reads every folder of networks trained without a measured GPU now, not on its first forecast,
    // and throws ForecastError for the first that cannot be read: a window that paints from many
    // places checks them once, at start, where its error can be shown.
    void readHeldOutNetworks() const;
    // The measured GPU whose rows the networks forecasting `gpu` left out; empty when none did.
    std::string heldOutFor(const GpuSpec& gpu) const;
    // Said beside a forecast of a measured GPU (or of a sheet read as one): which of its own
    // measurements the forecast passes over (the networks' rows, heldOutFor; its bmm tiles,
    // TileDatabase::ownTilesNote), and that a sheet of the same chip under another id reads them,
    // so the two can differ; or, for weights with no networks trained without it, that its own
    // rows trained the networks that forecast it. Empty for every other GPU.
    std::optional<std::string> ownMeasurementsNote(const GpuSpec& gpu) const;

    // `pinnedTile`: GEMMs use this tile instead of the one the forecaster would choose for each
    // shape (a chart sweeping one kernel's size keeps that kernel's tile, so the wave staircase
    // shows quantization alone, not the library switching tiles); the padded shapes below are
    // priced with it too, or the staircase fell where rows were added (RTX 4090, GPT-2's LM head
    // pinned at 32x32: 1.11 ms for 32 rows, 0.97 ms for 33).
    // A GEMM whose output has fewer than 256 rows or columns is never forecast slower
    // than the same GEMM padded to 64, 128 or 256 of them (it is then given that shape's forecast):
    // the library could run the padded problem, and the tile rule for thin outputs, priced by
    // networks that saw few such tiles, put a one-row 4096x4096 layer on an RTX 4090 at twice the
    // time of a 256-row one.
    // A wider GEMM is also priced padded to the next multiple of 128 rows and columns, so that the
    // tile rule's cliffs do not make more rows cost less (T4: a 4096 x 14336 layer at 320 rows had cost more than at 384).
    // A large batch is priced this many kernels at a time: each kernel's forecast depends on no
    // other's, and the networks' activations for a chunk's padded shapes and alternative
    // schedules stay in cache. `kernels --in` on the 120k-row training GEMM table: 4096 at a
    // time, 1.48 GB -> 0.60 GB and 66 s; 256 at a time, 0.32 GB and 52 s.
    static constexpr std::size_t kBatchChunk = 256;
    std::vector<KernelForecast> predict(std::span<const Kernel> kernels, const GpuSpec& gpu,
                                        std::optional<GemmTile> pinnedTile = std::nullopt) const;
    KernelForecast predict(const Kernel& kernel, const GpuSpec& gpu) const;

    // Geometry only (tile choice included), e.g. for charts that sweep a dimension.
    KernelGeometry geometry(const Kernel& kernel, const GpuSpec& gpu,
                            std::optional<GemmTile> pinnedTile = std::nullopt) const;

    // The wave law the networks predict for this kernel: utilization = gamma * (1 - alpha / waves)
    // with the kernel's own (alpha, gamma), at other wave counts — the saturating curve its forecast
    // sits on (charts plot it), unless it was priced at another wave count
    // (KernelForecast::pricedWaves), where the networks read other features. Geometric mean over
    // the ensemble as in predict(), without the launch floor. (A kernel that really had more waves
    // would also have other features, hence another alpha and gamma; sweep its dimensions with
    // predict() for that.) Classes without weights give 1, the roofline, at every wave count;
    // memory-bound fallback kernels have no waves: {}.
    std::vector<double> utilizationCurve(const Kernel& kernel, const GpuSpec& gpu, std::span<const double> waves) const;

    // The same kernels as they run inside a model (queuedInModel with each class's launch floor).
    std::vector<KernelForecast> predictQueued(std::span<const Kernel> kernels, const GpuSpec& gpu,
                                              std::optional<GemmTile> pinnedTile = std::nullopt) const;

    bool isLearned(OpClass c) const;
    const UtilizationModel* model(OpClass c) const;
    const TileDatabase& tiles() const { return *tiles_; }

    // The measured GPU whose GEMM efficiency `gpu` borrows, if its spec lies outside the range the
    // networks were trained on (gemmEfficiencyDonor over the tile database's GPUs). A what-if
    // variant is judged by the sheet it came from (GpuSpec::efficiencySheet), as its forecast is.
    std::optional<GemmEfficiencyDonor> gemmEfficiencyDonor(const GpuSpec& gpu) const;
    // Where `gpu` lies against the networks' training GPUs (specCoverage over the tile database's
    // GPUs), judged by the sheet it is read as, like gemmEfficiencyDonor.
    SpecCoverage coverage(const GpuSpec& gpu) const;

private:
    // predict() without the bounds below: a sheet's own forecast.
    std::vector<KernelForecast> predictUnbounded(std::span<const Kernel> kernels, const GpuSpec& gpu,
                                                 std::optional<GemmTile> pinnedTile) const;
    // `price` on `gpu`; for a what-if variant (GpuSpec::efficiencyBasis) each kernel is held between
    // its `price` on the sheets with the greater and the lesser of the variant's and its basis's
    // resources (withGreaterResources, withLesserResources): more of a resource never slows it.
    std::vector<KernelForecast> withinBasisBounds(const GpuSpec& gpu,
                                                  const std::function<std::vector<KernelForecast>(const GpuSpec&)>& price) const;
    // The forecasts as the kernels run inside a model (queuedInModel with each class's floor).
    std::vector<KernelForecast> queued(std::span<const Kernel> kernels, std::vector<KernelForecast> out) const;
    std::vector<KernelForecast> predictAsGiven(std::span<const Kernel> kernels, const GpuSpec& gpu,
                                               std::optional<GemmTile> pinnedTile) const;
    // log utilization (members x kernels) of one class's kernels at the given wave counts: the
    // networks read `gpu`'s own features, blended for GEMMs with those of the donor's sheet (the
    // donor's per-SM rates, the kernel's own tiles and waves, as in `own`). With a
    // donor, `overheadScale` (when given) receives each kernel's KernelForecast::overheadScale.
    Eigen::MatrixXd logUtilization(const UtilizationModel& model, std::span<const Kernel> kernels,
                                   std::span<const KernelGeometry> own, std::span<const double> waves,
                                   const GpuSpec& gpu, std::optional<GemmEfficiencyDonor>& donor,
                                   std::vector<double>* overheadScale = nullptr) const;

    ModelSet models_;
    std::shared_ptr<const TileDatabase> tiles_;
    // GPU id -> the networks trained without it, read on that GPU's first forecast: five folders
    // of them took 0.3 s to parse at every start of the CLI, whatever GPU it was asked for.
    struct HeldOut;
    std::map<std::string, std::shared_ptr<HeldOut>> heldOut_;
    static std::shared_ptr<const Forecaster> loadHeldOut(const HeldOut& h);
    // Geometric mean of the measured GPUs' bandwidths: the speed at which the size-only vector
    // networks saw the launch overhead (KernelForecast::overheadScale); 0 when none is recorded.
    double measuredBandwidthGBps_ = 0;
};

} // namespace gpuforecast
