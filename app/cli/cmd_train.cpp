#include "arguments.h"
#include "commands.h"

#include "gpuforecast/catalog.h"
#include "gpuforecast/error.h"
#include "gpuforecast/file_io.h"
#include "gpuforecast/trainer.h"
#include "gpuforecast/training_set.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <mutex>
#include <set>
#include <thread>

namespace gpuforecast::cli {

int runTrain(const std::vector<std::string>& args)
{
    namespace fs = std::filesystem;
    Arguments a(args,
                {"--data", "--out", "--holdout", "--seed", "--epochs", "--ensemble", "--hidden", "--layers", "--tiles",
                 "--threads"},
                {"--quiet"});
    const std::string dataDir = a.required("--data");
    const std::string outDir = a.required("--out");
    const std::string holdout = a.value("--holdout").value_or("");
    const std::string tileMode = a.value("--tiles").value_or("measured");
    if (tileMode != "measured" && tileMode != "reference")
        throw UsageError("--tiles: expected measured or reference, got '" + tileMode + "'");
    TrainOptions opt;
    opt.seed = static_cast<unsigned long long>(a.integer("--seed", 1, 0, 1LL << 62));
    opt.maxEpochs = int(a.integer("--epochs", opt.maxEpochs, 1, 100000));
    opt.ensembleSize = int(a.integer("--ensemble", 3, 1, 64));
    opt.hiddenWidth = int(a.integer("--hidden", opt.hiddenWidth, 1, 4096));
    opt.hiddenLayers = int(a.integer("--layers", opt.hiddenLayers, 0, 16));
    const int threads = int(a.integer("--threads", 2, 1, 64));
    const bool quiet = a.has("--quiet");

    // Where the weights go is known before minutes of training, so a bad --out fails first.
    {
        std::error_code ec;
        fs::create_directories(outDir, ec);
        if (ec || !fs::is_directory(outDir))
            throw UsageError("--out: cannot create the folder " + outDir + (ec ? ": " + ec.message() : std::string()));
        // Every .csv.gz in --data is read as measurements, the tile table written here too: the
        // next training from that folder failed on gemm_tiles.csv.gz's header.
        if (fs::equivalent(outDir, dataDir, ec))
            throw UsageError("--out: " + outDir + " is the --data folder; the weights' gemm_tiles.csv.gz would be read "
                             "as measurements the next time: give another folder");
    }
    const auto start = std::chrono::steady_clock::now();
    const auto catalog = loadGpuDirectory((fs::path(resourceDirectory()) / "gpus").string());
    const auto tables = loadMeasurementDirectory(dataDir);
    if (!holdout.empty()) {
        bool seen = false;
        for (const auto& t : tables)
            for (const auto& r : t.rows)
                seen = seen || r.gpu == holdout;
        if (!seen)
            throw UsageError("--holdout: GPU '" + holdout + "' does not occur in " + dataDir);
    }
    const TileDatabase tiles = buildTileDatabase(tables, catalog, holdout);
    const auto samples = buildTrainingSamples(tables, catalog, tiles, holdout,
                                              tileMode == "measured" ? TrainingTiles::Measured : TrainingTiles::Reference);
    std::fprintf(stderr, "loaded %s in %.1f s; training GPUs: ", dataDir.c_str(),
                 std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    // The GPUs measured in the data (not only those with GEMM rows, which the tile database holds).
    std::set<std::string> trainedOn;
    for (const auto& t : tables)
        for (const auto& r : t.rows)
            if (r.gpu != holdout)
                trainedOn.insert(r.gpu);
    for (const auto& id : trainedOn)
        std::fprintf(stderr, "%s ", id.c_str());
    std::fprintf(stderr, "%s\n", holdout.empty() ? "" : ("(held out: " + holdout + ")").c_str());

    nlohmann::json provenance;
    // Only NeuSight's folders are called NeuSight's measurements: any --data folder had been.
    const fs::path neusight = fs::weakly_canonical(fs::path(resourceDirectory()) / "datasets" / "neusight");
    const fs::path data = fs::weakly_canonical(fs::path(dataDir));
    const bool bundled = std::mismatch(neusight.begin(), neusight.end(), data.begin(), data.end()).first == neusight.end();
    provenance["dataset"] = fs::path(dataDir).filename().string() + (bundled ? " (NeuSight public measurements, MIT licence)" : "");
    provenance["trained_on"] = std::vector<std::string>(trainedOn.begin(), trainedOn.end());
    provenance["held_out"] = holdout;
    provenance["seed"] = opt.seed;
    provenance["ensemble"] = opt.ensembleSize;
    provenance["training_tiles"] = tileMode;
    // How many measured tiles gemm_tiles.csv.gz holds beside these networks: a table found empty
    // where bmm.json says it had rows was cut short (the forecaster refuses it). Data without
    // kernel names, or --tiles reference, legitimately leave it empty.
    provenance["tile_rows"] = tiles.size();
    // Every option that shapes the weights, so the command reproduces them: --epochs had been left
    // out, and the default (150) trains other weights than the shipped 80.
    const TrainOptions defaults;
    provenance["command"] =
        "gpuforecast-cli train --data <dir> --out <dir>" + (holdout.empty() ? std::string() : " --holdout " + holdout) +
        " --seed " + std::to_string(opt.seed) + " --ensemble " + std::to_string(opt.ensembleSize) + " --epochs " +
        std::to_string(opt.maxEpochs) +
        (opt.hiddenWidth != defaults.hiddenWidth ? " --hidden " + std::to_string(opt.hiddenWidth) : std::string()) +
        (opt.hiddenLayers != defaults.hiddenLayers ? " --layers " + std::to_string(opt.hiddenLayers) : std::string()) +
        (tileMode != "measured" ? " --tiles " + tileMode : std::string());

    std::mutex printMutex;
    opt.progress = [&](const EpochReport& r) {
        if (quiet)
            return;
        std::lock_guard lock(printMutex);
        std::fprintf(stderr, "[%-11s net %d] epoch %3d  loss %.5f  validation MAPE %6.2f%%%s  (%.0f s)\n",
                     std::string(opClassName(r.opClass)).c_str(), r.member + 1, r.epoch, r.trainLoss, r.validationMape,
                     r.improved ? " *" : "  ", r.elapsedSeconds);
    };

    // Classes are independent: train them on parallel threads. Each has its own seeded generator,
    // so the result does not depend on scheduling.
    std::vector<std::optional<TrainResult>> results(samples.size());
    std::atomic<std::size_t> next{0};
    std::exception_ptr failure;
    std::mutex failureMutex;
    auto worker = [&] {
        for (std::size_t c; (c = next++) < samples.size();) {
            if (samples[c].size() == 0) // a dataset of GEMMs only (or vectors only) trains what it has
                continue;
            try {
                TrainOptions o = opt;
                o.seed = opt.seed * 1000003ULL + c;
                results[c] = trainUtilizationModel(samples[c], o, provenance);
            } catch (...) {
                std::lock_guard lock(failureMutex);
                failure = std::current_exception();
            }
        }
    };
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; ++t)
        pool.emplace_back(worker);
    for (auto& t : pool)
        t.join();
    if (failure)
        std::rethrow_exception(failure);

    if (std::none_of(results.begin(), results.end(), [](const auto& r) { return r.has_value(); }))
        throwInputError(dataDir, "", "no measurements of any learned operator class");
    // The networks and their tile table are one set: written together or not at all, so a failure
    // half way (a full disk, a folder named ln.json) cannot leave new networks beside old ones,
    // which a forecast would read without a word.
    // What each class did, printed once the set is written.
    std::vector<std::pair<std::string, std::string>> files;
    std::vector<std::string> report;
    for (std::size_t c = 0; c < results.size(); ++c) {
        const std::string cls(opClassName(samples[c].opClass));
        char line[192];
        if (!results[c]) {
            // A network left in --out from an earlier training would be read beside the new ones.
            const bool stale = fs::exists(fs::path(outDir) / (cls + ".json"));
            std::snprintf(line, sizeof line, "%-11s skipped: no measurements of this class in ", cls.c_str());
            report.push_back(line + dataDir +
                             (stale ? "; the " + cls + ".json already in " + outDir +
                                          " is from an earlier training and is kept: forecasts will read it"
                                    : std::string()));
            continue;
        }
        const auto& r = results[c];
        files.emplace_back((fs::path(outDir) / (cls + ".json")).string(), r->model.toJson().dump() + "\n");
        std::snprintf(line, sizeof line, "%-11s validation MAPE %6.2f%%  (%d epochs over %d networks, at most %d each; %.0f s)",
                      cls.c_str(), r->validationMape, r->epochs, opt.ensembleSize, opt.maxEpochs, r->seconds);
        report.emplace_back(line);
    }
    const std::string tilePath = (fs::path(outDir) / "gemm_tiles.csv.gz").string();
    files.emplace_back(tilePath, gzipCompress(tilePath, tiles.serialize()));
    fs::create_directories(outDir);
    writeFilesAtomically(files);
    for (const auto& line : report)
        std::printf("%s\n", line.c_str());
    std::printf("wrote %s in %.0f s\n", outDir.c_str(),
                std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    return 0;
}

} // namespace gpuforecast::cli
