#include "gpuforecast/forecaster.h"

#include "gpuforecast/error.h"

#include <algorithm>
#include <cmath>
#include <filesystem>

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
Eigen::MatrixXd featureMatrix(OpClass c, const std::vector<KernelGeometry>& geometries, const GpuSpec& gpu)
{
    Eigen::MatrixXd features(kFeatureCount, Eigen::Index(geometries.size()));
    for (std::size_t j = 0; j < geometries.size(); ++j) {
        const FeatureVector fv = kernelFeatures(c, geometries[j], gpu);
        for (int r = 0; r < kFeatureCount; ++r)
            features(r, Eigen::Index(j)) = fv[std::size_t(r)];
    }
    return features;
}

// Kept away from zero so that times and logs stay finite.
double safeUtilization(double alpha, double gamma, double waves)
{
    return std::max(utilizationFrom(alpha, gamma, waves), 1e-12);
}

} // namespace

Forecaster::Forecaster(ModelSet models, std::shared_ptr<const TileDatabase> tiles)
    : models_(std::move(models)), tiles_(tiles ? std::move(tiles) : std::make_shared<const TileDatabase>())
{
}

Forecaster Forecaster::loadFromDirectory(const std::string& weightsDir)
{
    namespace fs = std::filesystem;
    ModelSet models;
    for (std::size_t i = 0; i < kLearnedClasses.size(); ++i) {
        const fs::path p = fs::path(weightsDir) / (std::string(opClassName(kLearnedClasses[i])) + ".json");
        if (!fs::exists(p))
            continue;
        auto m = std::make_shared<UtilizationModel>(UtilizationModel::load(p.string()));
        if (m->opClass() != kLearnedClasses[i])
            throwInputError(p.string(), "op_class", "expected \"" + std::string(opClassName(kLearnedClasses[i])) + "\"");
        models[i] = std::move(m);
    }
    auto tiles = std::make_shared<TileDatabase>();
    const fs::path tilePath = fs::path(weightsDir) / "gemm_tiles.csv.gz";
    if (fs::exists(tilePath))
        *tiles = TileDatabase::load(tilePath.string());
    return Forecaster(std::move(models), std::move(tiles));
}

bool Forecaster::isLearned(OpClass c) const { return model(c) != nullptr; }

const UtilizationModel* Forecaster::model(OpClass c) const
{
    const int i = classIndex(c);
    return i < 0 ? nullptr : models_[std::size_t(i)].get();
}

KernelGeometry Forecaster::geometry(const Kernel& kernel, const GpuSpec& gpu, std::optional<GemmTile> pinnedTile) const
{
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
        for (std::size_t i : idx)
            geometries.push_back(out[i].geometry);
        const Eigen::MatrixXd features = featureMatrix(model.opClass(), geometries, gpu);
        Eigen::MatrixXd logSeconds(Eigen::Index(model.memberCount()), features.cols());
        for (std::size_t m = 0; m < model.memberCount(); ++m) {
            const Eigen::MatrixXd ag = model.alphaGamma(features, m);
            for (Eigen::Index j = 0; j < features.cols(); ++j) {
                const KernelGeometry& g = geometries[std::size_t(j)];
                const double u = safeUtilization(ag(0, j), ag(1, j), g.waves);
                logSeconds(Eigen::Index(m), j) = std::log(withLaunchFloor(g.secondsAt(u), model.floorSeconds()));
            }
        }
        for (std::size_t j = 0; j < idx.size(); ++j) {
            auto& f = out[idx[j]];
            const auto col = logSeconds.col(Eigen::Index(j));
            f.seconds = std::exp(col.mean());
            f.secondsLow = std::exp(col.minCoeff());
            f.secondsHigh = std::exp(col.maxCoeff());
            f.utilization = f.geometry.secondsAt(1.0) / f.seconds;
            f.learned = true;
        }
    }
    return out;
}

std::vector<double> Forecaster::utilizationCurve(const Kernel& kernel, const GpuSpec& gpu,
                                                 std::span<const double> waves) const
{
    if (kernel.opClass == OpClass::Other)
        return {};
    const UtilizationModel* learned = model(kernel.opClass);
    if (!learned)
        return std::vector<double>(waves.size(), 1.0);
    const Eigen::MatrixXd features = featureMatrix(kernel.opClass, {geometry(kernel, gpu)}, gpu);
    std::vector<double> logSum(waves.size(), 0.0);
    for (std::size_t m = 0; m < learned->memberCount(); ++m) {
        const Eigen::MatrixXd ag = learned->alphaGamma(features, m);
        for (std::size_t j = 0; j < waves.size(); ++j)
            logSum[j] += std::log(safeUtilization(ag(0, 0), ag(1, 0), waves[j]));
    }
    std::vector<double> out(waves.size());
    for (std::size_t j = 0; j < waves.size(); ++j) // geometric mean: time is proportional to 1 / utilization
        out[j] = std::exp(logSum[j] / double(learned->memberCount()));
    return out;
}

} // namespace gpuforecast
