#include "gpuforecast/measured_runs.h"

#include "gpuforecast/error.h"
#include "gpuforecast/file_io.h"
#include "gpuforecast/json_fields.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>

namespace gpuforecast {

std::vector<MeasuredRun> loadMeasuredRuns(const std::string& dir, const std::string& source)
{
    namespace fs = std::filesystem;
    std::vector<MeasuredRun> out;
    std::error_code ec;
    for (const auto& gpuDir : fs::directory_iterator(dir, ec)) {
        if (!gpuDir.is_directory(ec))
            continue;
        for (const auto& f : fs::directory_iterator(gpuDir.path(), ec)) {
            if (f.path().extension() != ".json")
                continue;
            const std::string path = f.path().string();
            const auto run = parseRunName(f.path().stem().string());
            if (!run)
                throwInputError(path, "", "file name is not a run name like gpt2_large-inf-1024-4");
            const auto j = json_fields::parse(readFile(path), path);
            MeasuredRun r{gpuDir.path().filename().string(), f.path().stem().string(), *run,
                          json_fields::requireNumber(j, {path, ""}, "e2e_latency", 1e-6, 1e9), 0, source, path};
            // NeuSight writes 0 or null where one count would not say which stack (Switch). Anything
            // else that is not a whole count is refused: a 2.5 or a -3 was read as "not given".
            r.layers = json_fields::optionalInteger(j, {path, ""}, "num_layer", 0, 1000000).value_or(0);
            out.push_back(std::move(r));
        }
    }
    std::sort(out.begin(), out.end(), [](const MeasuredRun& a, const MeasuredRun& b) { return a.path < b.path; });
    return out;
}

std::vector<MeasuredRun> loadShippedMeasuredRuns(const std::string& resourceDir, std::vector<std::string>* problems)
{
    std::vector<MeasuredRun> out;
    for (const auto& [folder, source] : {std::pair{"/datasets/neusight/e2e", "NeuSight"}, std::pair{"/datasets/h200/e2e", "our H200 runs"},
                                         std::pair{"/datasets/h200/e2e_hub", "our H200 runs"}}) {
        try {
            auto runs = loadMeasuredRuns(resourceDir + folder, source);
            out.insert(out.end(), runs.begin(), runs.end());
        } catch (const ForecastError& e) {
            if (problems)
                problems->push_back(e.what());
        }
    }
    return out;
}

std::optional<std::string> runParallelName(const ParallelLayout& l)
{
    const int kinds = (l.dp > 1) + (l.tp > 1) + (l.pp > 1);
    if (l.zero > 0) // NeuSight timed plain data parallelism: no run shards the replicas' state
        return std::nullopt;
    if (kinds == 0)
        return std::string();
    if (kinds > 1)
        return std::nullopt;
    if (l.dp > 1)
        return "dp" + std::to_string(l.dp);
    if (l.tp > 1)
        return "tp" + std::to_string(l.tp);
    return "pp" + std::to_string(l.pp) + "_" + std::to_string(l.microbatches);
}

const MeasuredRun* findMeasuredRun(const std::vector<MeasuredRun>& runs, const std::string& gpu, const std::string& model,
                                   const GraphOptions& o, const ParallelLayout& layout, long long layers)
{
    const auto parallel = runParallelName(layout);
    if (!parallel)
        return nullptr;
    for (const auto& r : runs)
        if (r.gpu == gpu && r.run.model == model && r.run.training == o.training && r.run.seq == o.seq &&
            r.run.batch == o.batch && r.run.fusion == o.fusion && !o.checkpointing && r.run.parallel == *parallel &&
            (r.layers == 0 || r.layers == layers))
            return &r;
    return nullptr;
}

} // namespace gpuforecast
