#include "gpuforecast/training_set.h"

#include "gpuforecast/catalog.h"
#include "gpuforecast/error.h"
#include "gpuforecast/file_io.h"
#include "gpuforecast/geometry.h"

#include <algorithm>
#include <cmath>
#include <filesystem>

namespace gpuforecast {

std::vector<KernelTable> loadMeasurementDirectory(const std::string& dir)
{
    namespace fs = std::filesystem;
    std::vector<std::string> paths;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(dir, ec)) {
        const std::string p = e.path().string();
        if (endsWith(p, ".csv") || endsWith(p, ".csv.gz"))
            paths.push_back(p);
    }
    if (ec)
        throwInputError(dir, "", "cannot list the folder (" + ec.message() + ")");
    if (paths.empty())
        throwInputError(dir, "", "no .csv or .csv.gz kernel measurements in this folder");
    std::sort(paths.begin(), paths.end());
    std::vector<KernelTable> tables;
    for (const auto& p : paths)
        tables.push_back(readKernelTable(p, TableContent::WithMeasurements));
    return tables;
}

TileDatabase buildTileDatabase(const std::vector<KernelTable>& tables, const std::vector<GpuSpec>& catalog,
                               const std::string& holdoutGpu)
{
    TileDatabase db;
    for (const auto& t : tables) {
        for (std::size_t i = 0; i < t.rows.size(); ++i) {
            const auto& row = t.rows[i];
            if (!row.kernel.isGemm() || row.gpu == holdoutGpu)
                continue;
            const auto& meas = t.measurements[i];
            auto tile = parseGemmKernelName(meas.kernelName);
            if (!tile)
                continue;
            if (meas.gridZ > 0 && meas.gridZ % row.kernel.b == 0)
                tile->reductionSplit = int(std::clamp<long long>(meas.gridZ / row.kernel.b, 1, 1024));
            if (const GpuSpec* g = findGpu(catalog, row.gpu))
                db.addGpu({g->id, g->smCount, g->fp32Gflops, g->memoryBandwidthGBps, g->l2CacheMb, g->launchYear, g->memoryGb,
                           g->architecture, g->tdpW});
            db.add(row.gpu, row.kernel.opClass, row.kernel.b, row.kernel.m, row.kernel.n, row.kernel.k, *tile);
        }
    }
    return db;
}

std::array<ClassSamples, kLearnedClasses.size()> buildTrainingSamples(const std::vector<KernelTable>& tables,
                                                                      const std::vector<GpuSpec>& catalog,
                                                                      const TileDatabase& tiles,
                                                                      const std::string& holdoutGpu,
                                                                      TrainingTiles tileSource)
{
    struct Row {
        FeatureVector f;
        double waves, roofline, measured, trafficFloor;
        std::string gpu;
        std::string op;
    };
    std::array<std::vector<Row>, kLearnedClasses.size()> rows;
    for (const auto& t : tables) {
        for (std::size_t i = 0; i < t.rows.size(); ++i) {
            const auto& row = t.rows[i];
            if (row.gpu == holdoutGpu)
                continue;
            const GpuSpec* gpu = findGpu(catalog, row.gpu);
            if (!gpu)
                throwInputError(t.source, "gpu", "no spec sheet for GPU '" + row.gpu + "' in the catalog");
            KernelGeometry g;
            if (row.kernel.isGemm()) {
                std::optional<GemmTile> tile;
                // Linear layers always use the rule the forecaster uses for them (tiling.h).
                if (tileSource == TrainingTiles::Measured && row.kernel.opClass == OpClass::Bmm) {
                    tile = parseGemmKernelName(t.measurements[i].kernelName);
                    const auto& m = t.measurements[i];
                    if (tile && m.gridZ > 0 && m.gridZ % row.kernel.b == 0)
                        tile->reductionSplit = int(std::clamp<long long>(m.gridZ / row.kernel.b, 1, 1024));
                }
                g = gemmGeometry(row.kernel, tile ? *tile : tiles.tileFor(*gpu, row.kernel), *gpu);
            } else {
                g = vectorGeometry(row.kernel, *gpu);
            }
            const auto c = std::find(kLearnedClasses.begin(), kLearnedClasses.end(), row.kernel.opClass);
            if (c == kLearnedClasses.end())
                continue;
            rows[std::size_t(c - kLearnedClasses.begin())].push_back(
                {kernelFeatures(row.kernel.opClass, g, *gpu), g.waves, g.secondsAt(1.0), t.measurements[i].latencyMs * 1e-3,
                 g.trafficFloorSeconds, row.gpu, row.kernel.op});
        }
    }
    std::array<ClassSamples, kLearnedClasses.size()> out;
    for (std::size_t c = 0; c < kLearnedClasses.size(); ++c) {
        auto& s = out[c];
        const auto& r = rows[c];
        const auto n = Eigen::Index(r.size());
        s.opClass = kLearnedClasses[c];
        s.features.resize(kFeatureCount, n);
        s.waves.resize(n);
        s.rooflineSeconds.resize(n);
        s.measuredSeconds.resize(n);
        s.trafficFloorSeconds.resize(n);
        for (Eigen::Index i = 0; i < n; ++i) {
            const auto& x = r[std::size_t(i)];
            for (int f = 0; f < kFeatureCount; ++f)
                s.features(f, i) = x.f[std::size_t(f)];
            s.waves(i) = x.waves;
            s.rooflineSeconds(i) = x.roofline;
            s.measuredSeconds(i) = x.measured;
            s.trafficFloorSeconds(i) = x.trafficFloor;
            s.gpus.push_back(x.gpu);
            s.ops.push_back(x.op);
        }
    }
    return out;
}

} // namespace gpuforecast
