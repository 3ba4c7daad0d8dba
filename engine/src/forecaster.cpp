#include "gpuforecast/forecaster.h"

#include "alternative_schedules.h"
#include "gpuforecast/error.h"
#include "gpuforecast/extrapolation.h"

#include <algorithm>
#include <cmath>
#include <exception>
#include <filesystem>
#include <mutex>

namespace gpuforecast {
namespace {

int classIndex(OpClass c)
{
    for (std::size_t i = 0; i < kLearnedClasses.size(); ++i)
        if (kLearnedClasses[i] == c)
            return int(i);
    return -1;
}

// The networks' input: one column of features per kernel geometry.
Eigen::MatrixXd featureMatrix(OpClass c, std::span<const KernelGeometry> geometries, const GpuSpec& gpu)
{
    Eigen::MatrixXd features(kFeatureCount, Eigen::Index(geometries.size()));
    for (std::size_t j = 0; j < geometries.size(); ++j) {
        const FeatureVector fv = kernelFeatures(c, geometries[j], gpu);
        for (int r = 0; r < kFeatureCount; ++r)
            features(r, Eigen::Index(j)) = fv[std::size_t(r)];
    }
    return features;
}

// Kept away from zero so that times and logs stay finite, and at or above the class's minimum.
double safeUtilization(double alpha, double gamma, double waves, double minimum)
{
    return std::max({utilizationFrom(alpha, gamma, waves), 1e-12, minimum});
}

// The classes whose rows splitRowsLongerThanMeasured cuts.
bool splitsLongRows(const UtilizationModel& model)
{
    return model.opClass() == OpClass::Softmax || model.opClass() == OpClass::LayerNorm;
}

// How many times a row-wise kernel's waves grow when its rows are cut to the longest measured
// one: the pieces over the SMs, never fewer than the rows' own waves; 1 for rows within the
// measured lengths. Not rounded up to whole waves: rows of 4096 floats are 0.05% longer than the
// longest measured softmax row (4094), and the ceiling priced a row padded to fill one wave of
// 4096-float tiles as two waves, which the wave law made faster.
double splitRowWaveFactor(const UtilizationModel& model, double tileBytesFeature, double tiles, double smCount)
{
    const double over = tileBytesFeature - model.normalization().max(kTileBytesFeature);
    if (over <= 0)
        return 1;
    const double sm = std::max(1.0, smCount);
    const double ownWaves = std::max(1.0, std::ceil(tiles / sm));
    return std::max(ownWaves, tiles * std::exp(over) / sm) / ownWaves;
}

// Softmax and layer norm give each row a block, so a row longer than any measured one (a softmax
// over a 32768-token context has rows 8x the longest) is a tile the networks never saw. Their
// extrapolation in tile bytes collapsed: LLaMA-3 8B at 480k tokens on an H200 ran its softmax at
// 0.06% of the bandwidth, a step of 176 h. A block streams its row at the same rate however long
// it is, so such a row is priced as pieces of the longest measured row: the same bytes in more,
// measured-length tiles, which fill their SMs' waves as such tiles would (a few long rows fill
// one wave, not one per piece). (Element-wise tiles are a fixed 512 elements, always in range.)
void splitRowsLongerThanMeasured(const UtilizationModel& model, std::span<const KernelGeometry> own, double smCount,
                                 Eigen::MatrixXd& features, std::vector<double>& lawWaves)
{
    if (!splitsLongRows(model))
        return;
    const double edgeTileBytes = model.normalization().max(kTileBytesFeature);
    for (Eigen::Index col = 0; col < features.cols(); ++col) {
        const double over = features(kTileBytesFeature, col) - edgeTileBytes;
        if (over <= 0)
            continue;
        const double tiles = own[own.size() == 1 ? 0 : std::size_t(col)].numTiles;
        const double moreWaves = splitRowWaveFactor(model, features(kTileBytesFeature, col), tiles, smCount);
        features(kTileBytesFeature, col) = edgeTileBytes;
        // Softmax reads its tile count (exp(over) times as many), layer norm its waves.
        features(kWavesFeature, col) += model.opClass() == OpClass::Softmax ? over : std::log(moreWaves);
        if (features.cols() == 1) { // one kernel at many wave counts
            for (double& w : lawWaves)
                w *= moreWaves;
        } else {
            lawWaves[std::size_t(col)] *= moreWaves;
        }
    }
}

// Element-wise, softmax and layer-norm kernels larger than any measured one (model-sized
// attention tensors reach 64x the largest training kernel). Left to themselves the networks
// extrapolate their size features in whichever direction the training GPUs' mix suggests, and
// held-out A100 softmax lost a quarter of its efficiency between the largest measured size and
// 16 GB, where the measurements stay flat (time = launch overhead + bytes / 1.3 TB/s). Such a
// kernel is priced as the largest measured kernel of its shape (same tile, the same fraction of
// its waves) plus the extra bytes at that kernel's marginal rate: its time less the launch floor.
//
// Step 1 points the networks at that edge kernel: its features replace the kernel's, and the wave
// law is evaluated at the edge's share of `lawWaves`. Returns each output column's share of the
// kernel's bytes that the edge kernel has (1: within the measured sizes).
//
// `sizeScale[j]`: the size of the kernel that output column j prices, relative to its features'
// kernel; 1 in a forecast. A utilization curve (one kernel at many wave counts) prices the kernel
// at w waves as one of w / its own waves its bytes, so that a kernel beyond the edge at a few
// hundred waves keeps the edge's share of them at every point: with its own share (1/300) at 2
// waves, the law was asked about a hundredth of a wave and the curve read 0 below 25 waves.
std::vector<double> pointAtLargestMeasured(const UtilizationModel& model, Eigen::MatrixXd& features,
                                           std::vector<double>& lawWaves, std::span<const double> sizeScale)
{
    const double edgeBytes = model.normalization().max(kKernelBytesFeature);
    std::vector<double> columnOver(std::size_t(features.cols()), 0.0);
    for (Eigen::Index col = 0; col < features.cols(); ++col) {
        const double over = features(kKernelBytesFeature, col) - edgeBytes;
        if (over <= 0)
            continue;
        columnOver[std::size_t(col)] = over;
        features(kKernelBytesFeature, col) = edgeBytes;
        features(kWavesFeature, col) = std::max(0.0, features(kWavesFeature, col) - over);
    }
    std::vector<double> fraction(lawWaves.size(), 1.0);
    for (std::size_t j = 0; j < lawWaves.size(); ++j) { // one column: one kernel at many wave counts
        const double over = columnOver[features.cols() == 1 ? 0 : j];
        if (over <= 0)
            continue;
        // Kept above zero so that weights with an absurd feature_max still give finite times.
        fraction[j] = std::clamp(std::exp(-over) / sizeScale[j], 1e-12, 1.0);
        if (fraction[j] < 1)
            lawWaves[j] = std::max(1.0, lawWaves[j] * fraction[j]);
    }
    return fraction;
}

// Step 2 turns the edge kernel's utilization into the whole kernel's: edge time, then the rest of
// the roofline time at the edge's marginal rate.
void extendFromLargestMeasured(const UtilizationModel& model, std::span<const Kernel> kernels,
                               std::span<const KernelGeometry> geometries, std::span<const double> sizeScale,
                               const std::vector<double>& fraction, Eigen::MatrixXd& logU)
{
    // A floor added to the work stays outside the utilization (the forecast adds it once), and the
    // work beyond the edge runs at the edge's rate already: nothing to change.
    if (model.floorComposition() == FloorComposition::Added)
        return;
    for (Eigen::Index j = 0; j < logU.cols(); ++j) {
        const double r = fraction[std::size_t(j)];
        if (r >= 1)
            continue;
        const double floor = model.floorSecondsFor(kernels[kernels.size() == 1 ? 0 : std::size_t(j)].op);
        const double roofline = geometries[geometries.size() == 1 ? 0 : std::size_t(j)].secondsAt(1.0) * sizeScale[std::size_t(j)];
        const double edgeRoofline = roofline * r;
        for (Eigen::Index m = 0; m < logU.rows(); ++m) {
            const double edgeSeconds = withLaunchFloor(edgeRoofline / std::exp(logU(m, j)), floor);
            const double marginal = std::max(edgeSeconds - floor, edgeRoofline) / edgeRoofline; // s per roofline s
            logU(m, j) = std::log(roofline / (edgeSeconds + (roofline - edgeRoofline) * marginal));
        }
    }
}

} // namespace

Forecaster::Forecaster(ModelSet models, std::shared_ptr<const TileDatabase> tiles)
    : models_(std::move(models)), tiles_(tiles ? std::move(tiles) : std::make_shared<const TileDatabase>())
{
    double logSum = 0;
    int n = 0;
    for (const ReferenceGpu& r : tiles_->gpus())
        if (r.bandwidthGBps > 0) {
            logSum += std::log(r.bandwidthGBps);
            ++n;
        }
    measuredBandwidthGBps_ = n > 0 ? std::exp(logSum / n) : 0;
}

namespace {

// The networks and tile table of one weights folder; `fallbackTiles` serves when the folder has no
// table (a holdout/<id>/ folder: its parent's without that GPU).
Forecaster loadWeightsFolder(const std::filesystem::path& dir, const TileDatabase* fallbackTiles)
{
    namespace fs = std::filesystem;
    // A mistyped --weights must not quietly fall back to the roofline: the numbers would look like
    // forecasts. A folder with some classes only (train on a subset) is fine; one with none is not.
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) // "no such folder" for a file had sent users looking for a typo
        throwInputError(dir.string(), "weights",
                        fs::exists(dir, ec) ? "a file, not a folder; give the folder of weights it is in (" +
                                                  (dir.has_parent_path() ? dir.parent_path().string() : ".") + ")"
                                            : "no such folder");
    const fs::path tilePath = dir / "gemm_tiles.csv.gz";
    const bool hasTiles = fs::exists(tilePath, ec);
    bool any = hasTiles;
    Forecaster::ModelSet models;
    for (std::size_t i = 0; i < kLearnedClasses.size(); ++i) {
        const fs::path p = dir / (std::string(opClassName(kLearnedClasses[i])) + ".json");
        if (!fs::exists(p, ec))
            continue;
        any = true;
        auto m = std::make_shared<UtilizationModel>(UtilizationModel::load(p.string()));
        if (m->opClass() != kLearnedClasses[i])
            throwInputError(p.string(), "op_class", "expected \"" + std::string(opClassName(kLearnedClasses[i])) + "\"");
        models[i] = std::move(m);
    }
    if (!any)
        throwInputError(dir.string(), "weights",
                        "no weight files here (bmm.json ... softmax.json, gemm_tiles.csv.gz; `train --out` writes them)");
    auto tiles = std::make_shared<TileDatabase>();
    if (hasTiles)
        *tiles = TileDatabase::load(tilePath.string());
    else if (fallbackTiles)
        *tiles = *fallbackTiles;
    // bmm's networks learned the measured GPUs' own tiles: a table cut to its header had been read
    // as "no tiles known" and every bmm priced as 128x128, with nothing said. train records how many
    // rows the table had (none is right for data without kernel names, or --tiles reference).
    if (const auto& model = models[std::size_t(classIndex(OpClass::Bmm))]; model && tiles->empty()) {
        const auto rows = model->provenance().value("tile_rows", nlohmann::json(0));
        if (rows.is_number_unsigned() && rows.get<std::size_t>() > 0)
            throwInputError(tilePath.string(), "tiles",
                            std::string(hasTiles ? "no tile rows" : "missing") +
                                ", but bmm.json beside it was trained beside " + std::to_string(rows.get<std::size_t>()) +
                                " tile rows (a file cut short?)");
    }
    return Forecaster(std::move(models), std::move(tiles));
}

} // namespace

struct Forecaster::HeldOut {
    std::filesystem::path dir;
    std::string id;
    std::shared_ptr<const TileDatabase> parentTiles; // its table is this one less the GPU
    std::array<bool, kLearnedClasses.size()> parentLearned{};
    std::once_flag once;
    std::shared_ptr<const Forecaster> forecaster; // set by the first forGpu(), or
    std::exception_ptr error;                     // what reading it threw, thrown again each time
};

Forecaster Forecaster::loadFromDirectory(const std::string& weightsDir)
{
    namespace fs = std::filesystem;
    Forecaster out = loadWeightsFolder(weightsDir, nullptr);
    const fs::path holdouts = fs::path(weightsDir) / "holdout";
    std::error_code ec;
    if (!fs::is_directory(holdouts, ec))
        return out;
    std::vector<fs::path> dirs;
    for (const auto& entry : fs::directory_iterator(holdouts, ec))
        if (entry.is_directory(ec))
            dirs.push_back(entry.path());
    if (ec)
        throwInputError(holdouts.string(), "", "cannot list the folder (" + ec.message() + ")");
    for (const fs::path& dir : dirs) {
        auto h = std::make_shared<HeldOut>();
        h->dir = dir;
        h->id = dir.filename().string();
        h->parentTiles = out.tiles_;
        for (std::size_t i = 0; i < kLearnedClasses.size(); ++i)
            h->parentLearned[i] = out.models_[i] != nullptr;
        out.heldOut_.emplace(h->id, std::move(h));
    }
    return out;
}

std::shared_ptr<const Forecaster> Forecaster::loadHeldOut(const HeldOut& h)
{
    const TileDatabase without = h.parentTiles->without(h.id);
    auto heldOut = std::make_shared<Forecaster>(loadWeightsFolder(h.dir, &without));
    const auto file = [&](OpClass c) { return (h.dir / (std::string(opClassName(c)) + ".json")).string(); };
    for (std::size_t i = 0; i < kLearnedClasses.size(); ++i)
        if (h.parentLearned[i] && !heldOut->models_[i]) // it would forecast that class by the roofline alone
            throwInputError(file(kLearnedClasses[i]), "weights", "missing, while the folder above has it");
    // The folder's name says which GPU it forecasts: networks that did read that GPU's rows (a
    // folder renamed or copied) would forecast it from its own measurements.
    for (const auto& m : heldOut->models_)
        if (m && m->provenance().value("held_out", std::string()) != h.id)
            throwInputError(file(m->opClass()), "provenance.held_out",
                            "expected \"" + h.id + "\", the folder's name: these networks must be trained without it "
                            "(`train --holdout " + h.id + "`)");
    return heldOut;
}

const Forecaster& Forecaster::forGpu(const GpuSpec& gpu) const
{
    const auto it = heldOut_.find(gpu.efficiencySheet().id);
    if (it == heldOut_.end())
        return *this;
    HeldOut& h = *it->second;
    std::call_once(h.once, [&h] {
        try {
            h.forecaster = loadHeldOut(h);
        } catch (...) {
            h.error = std::current_exception();
        }
    });
    if (h.error)
        std::rethrow_exception(h.error);
    return *h.forecaster;
}

void Forecaster::readHeldOutNetworks() const
{
    for (const auto& [id, h] : heldOut_) {
        GpuSpec sheet;
        sheet.id = id;
        forGpu(sheet);
    }
}

std::string Forecaster::heldOutFor(const GpuSpec& gpu) const
{
    const auto it = heldOut_.find(gpu.efficiencySheet().id);
    return it == heldOut_.end() ? std::string() : it->first;
}

std::optional<std::string> Forecaster::ownMeasurementsNote(const GpuSpec& gpu) const
{
    const std::string heldOut = heldOutFor(gpu);
    if (heldOut.empty()) {
        // Weights without networks trained without it (a folder `train` wrote without --holdout):
        // the forecast reads the GPU's own rows, and the tile note's "no forecast reads
        // measurements of the GPU it forecasts" was false beside it.
        const std::string& id = gpu.efficiencySheet().id;
        for (const auto& m : models_)
            if (m)
                for (const auto& trained : m->provenance().value("trained_on", std::vector<std::string>{}))
                    if (trained == id)
                        return id + "'s efficiencies come from networks trained on its own measurements (these weights "
                                    "hold none trained without it, holdout/" + id + "/): this forecast reads them, "
                                    "as one with the shipped weights does not";
        return tiles_->ownTilesNote(gpu);
    }
    const Forecaster& own = forGpu(gpu);
    std::string others;
    for (const auto& m : own.models_)
        if (m && others.empty())
            for (const auto& id : m->provenance().value("trained_on", std::vector<std::string>{}))
                others += (others.empty() ? "" : ", ") + id;
    // Its own bmm tiles are passed over only where the data has them.
    const std::string tilesFrom = tiles_->ownTilesNote(gpu) ? own.tiles_->referenceFor(gpu) : std::string();
    return heldOut + "'s own measurements are not read, as no forecast reads measurements of the GPU it forecasts: " +
           "its efficiencies come from networks trained without them" + (others.empty() ? "" : " (on " + others + ")") +
           (tilesFrom.empty() ? std::string() : ", and its attention GEMMs (bmm) take " + tilesFrom + "'s tiles") +
           " (a sheet of the same chip under another id, not read as this one, reads them, so the two can differ)";
}

std::optional<GemmEfficiencyDonor> Forecaster::gemmEfficiencyDonor(const GpuSpec& gpu) const
{
    if (const Forecaster& f = forGpu(gpu); &f != this)
        return f.gemmEfficiencyDonor(gpu);
    return gpuforecast::gemmEfficiencyDonor(gpu.efficiencySheet(), tiles_->gpus());
}

SpecCoverage Forecaster::coverage(const GpuSpec& gpu) const
{
    if (const Forecaster& f = forGpu(gpu); &f != this)
        return f.coverage(gpu);
    return specCoverage(gpu.efficiencySheet(), tiles_->gpus());
}

Eigen::MatrixXd Forecaster::logUtilization(const UtilizationModel& model, std::span<const Kernel> kernels,
                                           std::span<const KernelGeometry> own, std::span<const double> waves,
                                           const GpuSpec& gpu, std::optional<GemmEfficiencyDonor>& donor,
                                           std::vector<double>* overheadScale) const
{
    const Eigen::Index n = Eigen::Index(waves.size());
    auto logU = [&](const Eigen::MatrixXd& features, std::span<const double> lawWaves) {
        Eigen::MatrixXd out(Eigen::Index(model.memberCount()), n);
        for (std::size_t m = 0; m < model.memberCount(); ++m) {
            const Eigen::MatrixXd ag = model.alphaGamma(features, m);
            for (Eigen::Index j = 0; j < n; ++j) {
                const Eigen::Index col = features.cols() == 1 ? 0 : j; // one kernel at many wave counts
                out(Eigen::Index(m), j) = std::log(safeUtilization(ag(0, col), ag(1, col), lawWaves[std::size_t(j)], model.minUtilization()));
            }
        }
        return out;
    };
    const OpClass c = model.opClass();
    donor.reset();
    if (c != OpClass::Bmm && c != OpClass::Linear) {
        Eigen::MatrixXd features = featureMatrix(c, own, gpu);
        std::vector<double> lawWaves(waves.begin(), waves.end());
        // Each output's kernel relative to its features' (exactly 1 in a forecast, which prices
        // every kernel at its own waves; w / own waves along a utilization curve).
        std::vector<double> sizeScale(waves.size());
        for (std::size_t j = 0; j < waves.size(); ++j) {
            const double ownWaves = own[own.size() == 1 ? 0 : j].waves;
            sizeScale[j] = ownWaves > 0 ? waves[j] / ownWaves : 1.0;
        }
        splitRowsLongerThanMeasured(model, own, gpu.smCount, features, lawWaves);
        const std::vector<double> fraction = pointAtLargestMeasured(model, features, lawWaves, sizeScale);
        Eigen::MatrixXd out = logU(features, lawWaves);
        extendFromLargestMeasured(model, kernels, own, sizeScale, fraction, out);
        return out;
    }
    // The kernels' own tiles and waves, on an SM described by `sheet`. With the donor's SM count
    // instead, the features described other tiles and waves than the roofline and the wave law
    // price (H100 linear, m = 2048: one wave of 128x128 tiles priced at the utilization of five-way
    // split tiles in six waves, 0.27), and a larger GEMM could be forecast faster than a smaller one.
    auto seenOn = [&](const GpuSpec& sheet) {
        std::vector<KernelGeometry> geometries;
        geometries.reserve(kernels.size());
        for (std::size_t j = 0; j < kernels.size(); ++j) {
            KernelGeometry g = geometry(kernels[j], sheet, own[j].gemmTile);
            g.waves = own[j].waves;
            geometries.push_back(g);
        }
        return geometries;
    };
    // A what-if variant is read as the sheet it came from (GpuSpec::efficiencyBasis).
    const bool variant = gpu.efficiencyBasis != nullptr;
    const GpuSpec& basis = gpu.efficiencySheet();
    donor = gemmEfficiencyDonor(basis);
    const double w = donor ? donor->weight : 0.0;
    std::vector<KernelGeometry> basisGeometries;
    Eigen::MatrixXd basisLogU;
    if (w < 1) {
        if (variant)
            basisGeometries = seenOn(basis);
        basisLogU = logU(featureMatrix(c, variant ? std::span<const KernelGeometry>(basisGeometries) : own, basis), waves);
    }
    // The networks learned the launch overhead at the speed of the sheet they read.
    auto speedRatio = [&](const std::vector<KernelGeometry>& seen, std::size_t j) {
        return seen.empty() ? 1.0 : own[j].secondsAt(1.0) / seen[j].secondsAt(1.0);
    };
    if (overheadScale && (donor || variant)) {
        overheadScale->assign(kernels.size(), 1.0);
        for (std::size_t j = 0; j < kernels.size(); ++j)
            (*overheadScale)[j] = (1 - w) * speedRatio(basisGeometries, j);
    }
    if (!donor)
        return basisLogU;
    const GpuSpec seen = asSeenByNetworks(basis, donor->gpu);
    const std::vector<KernelGeometry> donorGeometries = seenOn(seen);
    const Eigen::MatrixXd donorLogU = logU(featureMatrix(c, donorGeometries, seen), waves);
    if (overheadScale)
        for (std::size_t j = 0; j < kernels.size(); ++j)
            (*overheadScale)[j] += w * speedRatio(donorGeometries, j);
    if (w >= 1) // far outside: the GPU's own features would not count at all
        return donorLogU;
    return (1 - w) * basisLogU + w * donorLogU;
}

bool Forecaster::isLearned(OpClass c) const { return model(c) != nullptr; }

const UtilizationModel* Forecaster::model(OpClass c) const
{
    const int i = classIndex(c);
    return i < 0 ? nullptr : models_[std::size_t(i)].get();
}

KernelGeometry Forecaster::geometry(const Kernel& kernel, const GpuSpec& gpu, std::optional<GemmTile> pinnedTile) const
{
    if (const Forecaster& f = forGpu(gpu); &f != this)
        return f.geometry(kernel, gpu, pinnedTile);
    if (kernel.isGemm())
        return gemmGeometry(kernel, pinnedTile ? *pinnedTile : tiles_->tileFor(gpu, kernel), gpu);
    return vectorGeometry(kernel, gpu);
}

KernelForecast Forecaster::predict(const Kernel& kernel, const GpuSpec& gpu) const
{
    return predict(std::span<const Kernel>(&kernel, 1), gpu).front();
}

std::vector<KernelForecast> Forecaster::predict(std::span<const Kernel> kernels, const GpuSpec& gpu,
                                                std::optional<GemmTile> pinnedTile) const
{
    if (const Forecaster& f = forGpu(gpu); &f != this)
        return f.predict(kernels, gpu, pinnedTile);
    return withinBasisBounds(gpu, [&](const GpuSpec& sheet) { return predictUnbounded(kernels, sheet, pinnedTile); });
}

namespace {

bool sameResources(const GpuSpec& a, const GpuSpec& b)
{
    return a.smCount == b.smCount && a.fp32Gflops == b.fp32Gflops && a.fp32MatrixGflops == b.fp32MatrixGflops &&
           a.memoryBandwidthGBps == b.memoryBandwidthGBps && a.l2CacheMb == b.l2CacheMb &&
           a.l1CacheKbOrDefault() == b.l1CacheKbOrDefault() && a.memoryGb == b.memoryGb;
}

// The forecast at a longer time, its band and utilization scaled alike; tiles and waves are its own.
void retime(KernelForecast& f, double seconds)
{
    const double scale = seconds / f.seconds;
    f.seconds = seconds;
    f.secondsLow *= scale;
    f.secondsHigh *= scale;
    f.utilization /= scale;
}

} // namespace

std::vector<KernelForecast> Forecaster::withinBasisBounds(
    const GpuSpec& gpu, const std::function<std::vector<KernelForecast>(const GpuSpec&)>& price) const
{
    std::vector<KernelForecast> out = price(gpu);
    if (!gpu.efficiencyBasis)
        return out;
    // A variant reads its basis's efficiency at its own tiles and waves, and the networks need not
    // agree with themselves across sheets: L4 with 20% more SMs took GPT-2 large 13% longer at one
    // sequence of 128 (the tile rule chose smaller tiles, which the networks price lower), and
    // with 20% less FP32 6% less. So no kernel of the variant is slower than on the sheet with
    // the lesser of its and its basis's resources, nor faster than on the greater.
    const GpuSpec& basis = *gpu.efficiencyBasis;
    const GpuSpec greater = withGreaterResources(gpu, basis), lesser = withLesserResources(gpu, basis);
    if (!sameResources(greater, gpu)) {
        const auto floor = price(greater);
        for (std::size_t i = 0; i < out.size(); ++i)
            if (out[i].seconds < floor[i].seconds)
                retime(out[i], floor[i].seconds);
    }
    if (!sameResources(lesser, gpu)) {
        const auto ceiling = price(lesser);
        // Priced as on the lesser sheet, tiles and waves too: the variant's own tiles (the tile rule
        // splits more with more SMs) may not reach that time even at their roofline.
        for (std::size_t i = 0; i < out.size(); ++i)
            if (out[i].seconds > ceiling[i].seconds) {
                out[i] = ceiling[i];
                if (lesser.smCount != gpu.smCount)
                    out[i].layoutSms = lesser.smCount;
            }
    }
    return out;
}

std::vector<KernelForecast> Forecaster::predictUnbounded(std::span<const Kernel> kernels, const GpuSpec& gpu,
                                                         std::optional<GemmTile> pinnedTile) const
{
    // In chunks (kBatchChunk): at once, the networks' activations for every kernel, its padded
    // shapes and its alternative schedules took 1.5 GB for the 120k-row training GEMM table.
    if (constexpr std::size_t kChunk = kBatchChunk; kernels.size() > kChunk) {
        std::vector<KernelForecast> out;
        out.reserve(kernels.size());
        for (std::size_t i = 0; i < kernels.size(); i += kChunk) {
            const auto part = predictUnbounded(kernels.subspan(i, std::min(kChunk, kernels.size() - i)), gpu, pinnedTile);
            out.insert(out.end(), part.begin(), part.end());
        }
        return out;
    }
    // The padded shapes of thin GEMMs go through the networks with the kernels themselves: to 64,
    // 128 and 256, and to each power of two below 64. The tile rule picks its split by its own
    // costs, and the networks need not agree: LLaMA's 32000-wide head took 0.81 ms on the A100 for
    // one or two rows (split 19 ways, 44 waves) and 0.75 ms for three (split 3 ways, 7 waves).
    // A wider GEMM is padded to the next multiple of 128, the tile the library rounds to: by the
    // tile rule and the networks alone, T4 took 9.2 ms for a 256 x 4096 x 14336 layer, 16.1 ms
    // for 257 to 320 rows and 14.0 ms for 321 to 384, so LLaMA-3 8B at 320 tokens came out slower
    // than at 352.
    auto padded = [](long long dim) {
        std::vector<long long> out{dim};
        for (long long to = 2; to < 64; to *= 2)
            if (dim < to)
                out.push_back(to);
        for (long long to : {64LL, 128LL, 256LL})
            if (dim < to)
                out.push_back((dim + to - 1) / to * to);
        if (dim >= 256 && dim % 128 != 0)
            out.push_back((dim + 127) / 128 * 128);
        return out;
    };
    // The reduction too: a GEMM never takes longer than the same GEMM with a longer reduction,
    // which it could run padded with zeros. The networks' efficiency is not monotone in short
    // reductions: a 14336 x 4096 output with n = 1 on T4 was forecast at 1.5x the time of n = 8,
    // and 2048 x 2048 with n = 13 on A10 slower than with n = 100.
    auto longerReductions = [](long long n) {
        std::vector<long long> out{n};
        for (long long to : {8LL, 16LL, 32LL, 64LL, 128LL, 256LL})
            if (n < to)
                out.push_back(to);
        return out;
    };
    std::vector<Kernel> all(kernels.begin(), kernels.end());
    std::vector<std::pair<std::size_t, std::size_t>> candidates; // (kernel, index in `all`)
    for (std::size_t i = 0; i < kernels.size(); ++i) {
        const Kernel& k = kernels[i];
        if (!k.isGemm())
            continue;
        for (long long m : padded(k.m))
            for (long long cols : padded(k.k))
                for (long long n : longerReductions(k.n)) {
                    if (m == k.m && cols == k.k && n == k.n)
                        continue;
                    Kernel p = k;
                    p.m = m;
                    p.k = cols;
                    p.n = n;
                    candidates.emplace_back(i, all.size());
                    all.push_back(p);
                }
    }
    std::vector<KernelForecast> out = predictAsGiven(all, gpu, pinnedTile);
    for (const auto& [i, j] : candidates)
        if (out[j].seconds < out[i].seconds) {
            out[i] = out[j];
            out[i].paddedM = all[j].m;
            out[i].paddedK = all[j].k;
            out[i].paddedN = all[j].n;
        }
    out.resize(kernels.size());
    return out;
}

std::vector<KernelForecast> Forecaster::predictAsGiven(std::span<const Kernel> kernels, const GpuSpec& gpu,
                                                       std::optional<GemmTile> pinnedTile) const
{
    std::vector<KernelForecast> out(kernels.size());
    // Group kernels by class so each class's networks run once over one feature matrix.
    std::array<std::vector<std::size_t>, kLearnedClasses.size()> byClass;
    for (std::size_t i = 0; i < kernels.size(); ++i) {
        const Kernel& k = kernels[i];
        auto& f = out[i];
        if (k.opClass == OpClass::Other) {
            f.seconds = f.secondsLow = f.secondsHigh = fallbackSeconds(k, gpu);
            continue;
        }
        f.geometry = geometry(k, gpu, pinnedTile);
        f.utilization = 1;
        f.seconds = f.secondsLow = f.secondsHigh = f.geometry.secondsAt(1.0);
        if (const int c = classIndex(k.opClass); c >= 0 && models_[std::size_t(c)])
            byClass[std::size_t(c)].push_back(i);
    }
    for (std::size_t c = 0; c < kLearnedClasses.size(); ++c) {
        const auto& idx = byClass[c];
        if (idx.empty())
            continue;
        const UtilizationModel& model = *models_[c];
        std::vector<KernelGeometry> geometries;
        std::vector<Kernel> classKernels;
        for (std::size_t i : idx) {
            geometries.push_back(out[i].geometry);
            classKernels.push_back(kernels[i]);
        }
        const FloorComposition floorHow = model.floorComposition();
        // Log seconds of every ensemble member (rows) for every kernel (columns) of `kernelsAt`,
        // priced in the waves the geometries say.
        auto logSecondsOf = [&](std::span<const Kernel> kernelsAt, const std::vector<KernelGeometry>& at,
                                std::optional<GemmEfficiencyDonor>& donorOut, std::vector<double>* overheadScaleOut) {
            std::vector<double> waves;
            for (const auto& g : at)
                waves.push_back(g.waves);
            const Eigen::MatrixXd logU = logUtilization(model, kernelsAt, at, waves, gpu, donorOut, overheadScaleOut);
            Eigen::MatrixXd logSecondsAt(logU.rows(), logU.cols());
            for (Eigen::Index j = 0; j < logU.cols(); ++j) {
                const KernelGeometry& g = at[std::size_t(j)];
                const double launchFloor = model.floorSecondsFor(kernelsAt[std::size_t(j)].op);
                for (Eigen::Index m = 0; m < logU.rows(); ++m) {
                    const double seconds = withTrafficFloor(g.secondsAt(std::exp(logU(m, j))), g.trafficFloorSeconds);
                    logSecondsAt(m, j) = std::log(withLaunchFloor(seconds, launchFloor, floorHow));
                }
            }
            return logSecondsAt;
        };
        std::optional<GemmEfficiencyDonor> donor;
        std::vector<double> overheadScale;
        Eigen::MatrixXd logSeconds = logSecondsOf(classKernels, geometries, donor, &overheadScale);
        // Each kernel also takes the fastest of the other ways a GPU could run it (whole columns:
        // every member priced the same way, so the band stays one law's).
        // Long rows priced as measured-length pieces fill more waves (splitRowsLongerThanMeasured).
        auto splitRowWaves = [&](const std::vector<KernelGeometry>& at) {
            std::vector<double> priced(at.size(), 0.0);
            if (!splitsLongRows(model))
                return priced;
            for (std::size_t j = 0; j < at.size(); ++j)
                if (const double factor =
                        splitRowWaveFactor(model, kernelFeatures(model.opClass(), at[j], gpu)[kTileBytesFeature],
                                           at[j].numTiles, gpu.smCount);
                    at[j].waves * factor >= at[j].waves + 0.5) // what the table would show as another count
                    priced[j] = at[j].waves * factor;
            return priced;
        };
        std::vector<double> pricedWaves = splitRowWaves(geometries);
        if (const auto alternatives = detail::alternativeSchedules(model.opClass(), classKernels, geometries, gpu);
            !alternatives.empty()) {
            std::vector<Kernel> altKernels;
            std::vector<KernelGeometry> altGeometries;
            for (const auto& a : alternatives) {
                altKernels.push_back(a.kernel);
                altGeometries.push_back(a.geometry);
            }
            std::optional<GemmEfficiencyDonor> ignored;
            const Eigen::MatrixXd altLogSeconds = logSecondsOf(altKernels, altGeometries, ignored, nullptr);
            const std::vector<double> altSplitWaves = splitRowWaves(altGeometries); // padded long rows split too
            for (std::size_t col = 0; col < alternatives.size(); ++col) {
                const auto j = Eigen::Index(alternatives[col].of);
                if (altLogSeconds.col(Eigen::Index(col)).mean() < logSeconds.col(j).mean()) {
                    logSeconds.col(j) = altLogSeconds.col(Eigen::Index(col));
                    pricedWaves[std::size_t(j)] = std::max(alternatives[col].pricedWaves, altSplitWaves[col]);
                }
            }
        }
        for (std::size_t j = 0; j < idx.size(); ++j) {
            auto& f = out[idx[j]];
            const auto col = logSeconds.col(Eigen::Index(j));
            f.seconds = std::exp(col.mean());
            f.secondsLow = std::exp(col.minCoeff());
            f.secondsHigh = std::exp(col.maxCoeff());
            f.utilization = f.geometry.secondsAt(1.0) / f.seconds;
            f.pricedWaves = pricedWaves[j];
            f.learned = true;
            if (donor) {
                f.efficiencyFrom = donor->gpu.id;
                f.efficiencyWeight = donor->weight;
            }
            if (!overheadScale.empty()) // GEMMs read on another sheet
                f.overheadScale = overheadScale[j];
            else if (floorHow == FloorComposition::Added) // the networks learned no overhead: the floor is all of it
                f.overheadScale = 1;
            else if (!kernels[idx[j]].isGemm() && measuredBandwidthGBps_ > 0 && gpu.memoryBandwidthGBps > 0)
                f.overheadScale = std::min(1.0, measuredBandwidthGBps_ / gpu.memoryBandwidthGBps);
        }
    }
    // A transposed operand wastes most of every sector it reads: layout, not the learned efficiency.
    for (std::size_t i = 0; i < kernels.size(); ++i)
        if (const double extra = transposedOperandSeconds(kernels[i], gpu); extra > 0) {
            auto& f = out[i];
            f.seconds += extra;
            f.secondsLow += extra;
            f.secondsHigh += extra;
            f.utilization = f.geometry.secondsAt(1.0) / f.seconds;
        }
    return out;
}

KernelForecast queuedInModel(const KernelForecast& isolated, double launchOverheadSeconds, FloorComposition how)
{
    KernelForecast f = isolated;
    if (!f.learned || f.queued || !(f.seconds > 0))
        return f;
    const double roofline = f.geometry.secondsAt(1.0);
    // overheadScale is about the overhead the networks learned inside a kernel's efficiency. Where
    // the floor itself sets the time (one token's GELU: the floor, whatever the GPU), all of it
    // is overhead, and a GPU that sheds only part of it came out slower than a slower GPU: GPT-2 at
    // batch 1 x 1 token, H100 18.7 ms against V100 12.5. The floor's share of the smooth maximum
    // (its s-th power over the time's) moves the scale to 1 as the floor takes over.
    const double floorShare = launchOverheadSeconds > 0 ? std::pow(std::min(1.0, launchOverheadSeconds / f.seconds), kFloorSharpness) : 0.0;
    const double shed = launchOverheadSeconds * (f.overheadScale + (1 - f.overheadScale) * floorShare);
    // Shedding the launch overhead never takes a kernel below the DRAM time of the bytes it moves,
    // re-reads included (KernelGeometry::trafficFloorSeconds), nor below its roofline.
    const double bound = std::max(roofline, f.geometry.trafficFloorSeconds);
    const double queued = std::max({f.seconds - shed, bound, kQueuedLaunchSeconds});
    if (how == FloorComposition::Added) {
        // Scaling would narrow the band by the floor's share: a 2-floor layer norm's members,
        // floor + work each, would keep half their spread.
        f.secondsLow = std::max({f.secondsLow - shed, bound, kQueuedLaunchSeconds});
        f.secondsHigh = std::max({f.secondsHigh - shed, bound, kQueuedLaunchSeconds});
    } else {
        const double scale = queued / f.seconds;
        f.secondsLow = std::max(f.secondsLow * scale, std::min(bound, queued));
        f.secondsHigh *= scale;
    }
    f.seconds = queued;
    f.utilization = roofline / queued;
    f.queued = true;
    return f;
}

std::vector<KernelForecast> Forecaster::predictQueued(std::span<const Kernel> kernels, const GpuSpec& gpu,
                                                      std::optional<GemmTile> pinnedTile) const
{
    if (const Forecaster& f = forGpu(gpu); &f != this)
        return f.predictQueued(kernels, gpu, pinnedTile);
    // Bounded as queued: each sheet sheds the launch overhead its own forecast carries.
    return withinBasisBounds(gpu, [&](const GpuSpec& sheet) { return queued(kernels, predictUnbounded(kernels, sheet, pinnedTile)); });
}

std::vector<KernelForecast> Forecaster::queued(std::span<const Kernel> kernels, std::vector<KernelForecast> out) const
{
    for (std::size_t i = 0; i < out.size(); ++i) {
        if (const UtilizationModel* m = model(kernels[i].opClass))
            out[i] = queuedInModel(out[i], m->floorSecondsFor(kernels[i].op), m->floorComposition());
        else if (kernels[i].opClass == OpClass::Other && kernels[i].bytes() > 0) { // a copy or gather is a launch too
            auto& f = out[i];
            f.seconds = f.secondsLow = f.secondsHigh = std::max(f.seconds, kQueuedLaunchSeconds);
            f.queued = true;
        }
    }
    return out;
}

std::vector<double> Forecaster::utilizationCurve(const Kernel& kernel, const GpuSpec& gpu,
                                                 std::span<const double> waves) const
{
    if (const Forecaster& f = forGpu(gpu); &f != this)
        return f.utilizationCurve(kernel, gpu, waves);
    if (kernel.opClass == OpClass::Other)
        return {};
    const UtilizationModel* learned = model(kernel.opClass);
    if (!learned)
        return std::vector<double>(waves.size(), 1.0);
    const KernelGeometry own = geometry(kernel, gpu);
    std::optional<GemmEfficiencyDonor> donor;
    const Eigen::MatrixXd logU = logUtilization(*learned, std::span<const Kernel>(&kernel, 1),
                                                std::span<const KernelGeometry>(&own, 1), waves, gpu, donor);
    // Geometric mean (time is proportional to 1 / utilization), summed in member order: Eigen's
    // vectorised mean rounds each column differently with its alignment, and wave counts that the
    // law clamps to the same value must give the same utilization, not one a unit lower.
    // The DRAM-traffic floor caps it as it caps the forecast (per member, as predict applies it).
    const double roofline = own.secondsAt(1.0);
    std::vector<double> out(waves.size());
    for (std::size_t j = 0; j < waves.size(); ++j) {
        double sum = 0;
        for (Eigen::Index m = 0; m < logU.rows(); ++m) {
            const double logu = logU(m, Eigen::Index(j));
            sum += own.trafficFloorSeconds > 0
                       ? std::log(roofline / withTrafficFloor(roofline / std::exp(logu), own.trafficFloorSeconds))
                       : logu;
        }
        out[j] = std::exp(sum / double(logU.rows()));
    }
    return out;
}

} // namespace gpuforecast
