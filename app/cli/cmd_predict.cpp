#include "arguments.h"
#include "commands.h"
#include "sheet_notes.h"
#include "weights_notes.h"

#include "gpuforecast/catalog.h"
#include "gpuforecast/error.h"
#include "gpuforecast/extrapolation.h"
#include "gpuforecast/file_io.h"
#include "gpuforecast/json_fields.h"
#include "gpuforecast/measured_runs.h"
#include "gpuforecast/model_forecast.h"
#include "gpuforecast/parallel.h"
#include "gpuforecast/scenario.h"
#include "gpuforecast/tiling.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <string_view>

namespace gpuforecast::cli {
namespace {

namespace fs = std::filesystem;

ModelConfig resolveModel(const fs::path& dataDir, const std::string& idOrPath)
{
    const fs::path bundled = dataDir / "models" / (idOrPath + ".json");
    if (idOrPath.find('/') == std::string::npos && !endsWith(idOrPath, ".json")) {
        if (!fs::exists(bundled)) {
            std::error_code ec;
            if (fs::is_directory(idOrPath, ec)) // a model's folder here: "--model Llama-2-7b-hf"
                return loadModelConfig(idOrPath);
            std::vector<std::string> ids;
            for (const auto& entry : fs::directory_iterator(dataDir / "models", ec))
                if (entry.path().extension() == ".json")
                    ids.push_back(entry.path().stem().string());
            std::sort(ids.begin(), ids.end());
            throw UsageError("--model: unknown model '" + idOrPath + "'" + json_fields::didYouMean(idOrPath, ids) +
                             " (see gpuforecast-cli models, or give a config.json path)");
        }
        ModelConfig c = loadModelConfig(bundled.string());
        c.source = idOrPath; // named by its id, as it was asked for: the install path is no file of the user's
        return c;
    }
    return loadModelConfig(idOrPath);
}

// Fits a node name into the text table. A fused chain ("a.x+a.y+a.z") keeps its first and last
// member, so a cut name never reads as a complete one.
std::string elideName(const std::string& name, std::size_t width)
{
    if (name.size() <= width)
        return name;
    const auto first = name.find('+'), last = name.rfind('+');
    if (first != std::string::npos) {
        const std::string chain = name.substr(0, first) + "+...+" + name.substr(last + 1);
        if (chain.size() <= width)
            return chain;
    }
    return name.substr(0, width - 3) + "...";
}

nlohmann::json dimsJson(const Kernel& k)
{
    if (k.isGemm())
        return {{"b", k.b}, {"m", k.m}, {"n", k.n}, {"k", k.k}};
    if (k.opClass == OpClass::Other)
        return {{"bytes", k.fallbackBytes}};
    return {{"rows", k.b}, {"h", k.h}};
}

// The GPU's memory: on a multi-GPU layout, the busiest GPU's (its shard and stage).
nlohmann::json memoryJson(const ModelForecast& r)
{
    const auto& m = r.memory;
    // A pipeline stage's share of the parameters need not be whole; a count is printed whole.
    return {{"parameters", std::llround(m.parametersCount)}, {"weights_gb", m.weightsBytes / 1e9},
            {"gradients_gb", m.gradientsBytes / 1e9}, {"optimizer_gb", m.optimizerBytes / 1e9},
            {"activations_gb", m.activationsBytes / 1e9}, {"kv_cache_gb", m.kvCacheBytes / 1e9},
            {"total_gb", m.totalBytes() / 1e9},       {"gpu_gb", r.gpuMemoryBytes / 1e9},
            {"fits", r.fits()}, {"fits_tightly", r.fitsTightly()}};
}

// The whole model's, beside `memory.parameters`, which is the busiest GPU's share on a layout.
void addParameters(nlohmann::json& j, const ParameterCount& p)
{
    j["model_parameters"] = std::llround(p.total);
    j["active_parameters"] = std::llround(p.activePerToken);
}

nlohmann::json toJson(const ModelForecast& r)
{
    nlohmann::json j;
    j["model"] = r.model;
    j["gpu"] = r.gpu;
    j["batch"] = r.options.batch;
    j["seq"] = r.options.seq;
    j["mode"] = r.options.training ? "training" : "inference";
    j["fusion"] = r.options.fusion;
    j["checkpointing"] = r.options.training && r.options.checkpointing;
    j["precision"] = "fp32"; // every forecast: NeuSight's measurements, and so the networks, are FP32
    j["e2e_ms"] = r.totalSeconds() * 1e3;
    j["fw_ms"] = r.forwardSeconds * 1e3;
    j["bw_ms"] = (r.backwardSeconds + r.accumulateSeconds) * 1e3; // NeuSight's "bwall": backward + accumulation
    j["acc_ms"] = r.accumulateSeconds * 1e3;
    j["comm_ms"] = 0.0;
    j["memory"] = memoryJson(r);
    nlohmann::json ops = nlohmann::json::array();
    for (const auto& o : r.ops) {
        const auto& f = o.forecast;
        const auto& g = f.geometry;
        nlohmann::json op{{"name", o.op.node},
                          {"class", std::string(opClassName(o.op.kernel.opClass))},
                          {"op", o.op.kernel.op},
                          {"phase", std::string(phaseName(o.op.phase))},
                          {"part", o.op.part.empty() ? nlohmann::json(nullptr) : nlohmann::json(o.op.part)},
                          {"count", o.op.count},
                          {"repeat", o.repeat}, // per step: 1, a pipeline stage's share of micro-batches, 0 on another stage
                          {"dims", dimsJson(o.op.kernel)},
                          {"kernel_ms", f.ms()},
                          {"kernel_low_ms", f.secondsLow * 1e3},
                          {"kernel_high_ms", f.secondsHigh * 1e3},
                          {"fw_ms", o.op.phase == Phase::Forward ? o.totalSeconds() * 1e3 : 0.0},
                          {"bw_ms", o.op.phase == Phase::Forward ? 0.0 : o.totalSeconds() * 1e3},
                          {"learned", f.learned}};
        if (o.op.kernel.opClass != OpClass::Other) {
            op["waves"] = g.waves;
            if (f.layoutSms > 0) // a what-if kernel held at its basis's resources: waves over these SMs
                op["waves_on_sms"] = f.layoutSms;
            op["utilization"] = f.utilization;
            // Its 1.0 is a floor, not a learned efficiency (KernelForecast::heldAtRoofline), as the
            // GUI's hover says: a script could not tell the two apart.
            op["held_at_roofline"] = f.heldAtRoofline();
            op["bound"] = f.boundName();
            if (o.op.kernel.isGemm()) {
                op["tile"] = {g.gemmTile.alongK, g.gemmTile.alongM, g.gemmTile.reductionSplit};
                if (f.pricedWaves > 0) // its tiles priced in more waves, which was faster
                    op["priced_waves"] = f.pricedWaves;
            }
        }
        ops.push_back(std::move(op));
    }
    j["ops"] = std::move(ops);
    return j;
}

// The layout keys, in every forecast's JSON so that its shape does not depend on the layout: one
// GPU is a layout of one stage with no communication and no bubble. The communication keys start
// at zero; a multi-GPU forecast sets them.
void addLayoutJson(nlohmann::json& j, const ParallelLayout& layout, double microbatchSeconds,
                   const std::vector<double>& stageSeconds)
{
    j["gpus"] = layout.gpus();
    j["layout"] = parallelLayoutToJson(layout);
    j["per_gpu_microbatch_ms"] = microbatchSeconds * 1e3;
    j["compute_ms"] = j["fw_ms"].get<double>() + j["bw_ms"].get<double>();
    for (const char* key : {"comm_ms", "tp_comm_ms", "pp_comm_ms", "dp_comm_ms", "bubble_ms"})
        j[key] = 0.0;
    j["stage_ms"] = nlohmann::json::array();
    for (double s : stageSeconds)
        j["stage_ms"].push_back(s * 1e3);
}

struct Notes {
    SpecCoverage coverage; // the ratios outside the measured range, and the donor beyond it
    std::string sheet; // --gpu was a spec file: its path (its id may also name a bundled GPU)
    std::string efficiencyBasis; // the sheet's "efficiency_basis": whose learned efficiency it reads
    // The FP32 peak disagrees with SMs x cores x clock, or a sheet not of NVIDIA has no matrix peak
    // above it (sheetCheck below)
    std::optional<std::string> sheetCheck;
    std::vector<std::string> unreadFields;  // keys in the sheet file that no forecast reads (typos)
    std::optional<std::string> unreadNote;  // the same, for people, with the field each likely meant
    // A sheet file that keeps a bundled GPU's id but not its numbers: "sm_count 216 (108)", ...
    std::string sameIdAs;
    std::vector<std::string> differences;
    // Classes the weights folder has no file for (train on a subset writes only some): their
    // kernels are priced at the roofline, which must not pass for a learned forecast.
    std::vector<std::string> unlearned;
    std::string weightsDir;
    GraphCheck graphCheck = GraphCheck::NeuSightRuns; // whose measured runs check the model's graph
    std::vector<AssumedField> assumed; // defaults taken for fields the config leaves out or nulls
    std::string configSource;          // the config's path (or model id), to name it in those notes
    std::optional<std::string> donorCaution; // the donor is a slot-powered card and this GPU is not
    std::optional<std::string> readAsNew;    // a sheet file read as a GPU no network has seen
    // The config's torch_dtype when it is not FP32. Half-precision configs (most LLMs on the Hub
    // say bfloat16) run on tensor cores in practice; the forecast is FP32 throughout, and a reader
    // comparing with a bf16 benchmark must know.
    std::string configDtype;
    std::string precisionDifference; // what that precision would change (ModelConfig::precisionDifference)
    // The share of the FP32 peak its GEMMs are priced at (fp32GemmIssueShare): below 1 on 128-lane
    // SMs, which a reader comparing with the sheet's peak would otherwise not see.
    double gemmIssueShare = 1;
    // The timed run of exactly this forecast (bundled model and GPU, same settings), if any.
    std::optional<MeasuredRun> measured;
    double forecastMs = 0; // set beside `measured`, for the note's error
    std::string beyondContext; // ModelConfig::beyondContextNote: longer than a rotary model was trained
    std::vector<std::string> basisStretch; // ratios far from the basis whose efficiency the sheet reads
    std::optional<std::string> unknownArchitecture; // an NVIDIA generation the tile rule does not know
    std::string configQuantization; // the config's quantization_config ("awq, 4-bit"): weights priced in FP32 anyway
    std::string gemmTilesFrom;       // the measured GPU whose bmm tiles the forecast takes (TileDatabase::referenceFor)
    std::optional<std::string> ownTiles; // a measured GPU's own tiles passed over (TileDatabase::ownTilesNote)
    std::string trainedWithout;          // the measured GPU whose rows the networks left out (Forecaster::heldOutFor)
    std::optional<std::string> ownMeasurements; // what of them is passed over (Forecaster::ownMeasurementsNote)
};

// The sheet's own arithmetic, and a matrix peak taken from the vector one where that may be wrong.
std::optional<std::string> sheetCheck(const GpuSpec& gpu)
{
    std::string text;
    for (const auto& note : {vendorNote(gpu), fp32PeakMismatch(gpu), matrixPeakNote(gpu)})
        if (note)
            text += (text.empty() ? "" : "; ") + *note;
    return text.empty() ? std::nullopt : std::optional<std::string>(text);
}

void addNotes(nlohmann::json& j, const Notes& notes)
{
    nlohmann::json a = nlohmann::json::array();
    for (const auto& e : notes.coverage.outside)
        a.push_back({{"quantity", e.quantity}, {"unit", e.unit}, {"value", e.value}, {"measured_min", e.measuredMin},
                     {"measured_max", e.measuredMax}, {"factor", e.factor}, {"text", e.text}});
    j["extrapolation"] = std::move(a);
    j["coverage"] = coverageName(notes.coverage.level); // the comparison CSV's word
    j["gpu_sheet"] = notes.sheet.empty() ? nlohmann::json(nullptr) : nlohmann::json(notes.sheet);
    j["efficiency_basis"] = notes.efficiencyBasis.empty() ? nlohmann::json(nullptr) : nlohmann::json(notes.efficiencyBasis);
    j["sheet_check"] = notes.sheetCheck ? nlohmann::json(*notes.sheetCheck) : nlohmann::json(nullptr);
    j["sheet_unread_fields"] = notes.unreadFields;
    j["differs_from_bundled"] = notes.differences.empty() ? nlohmann::json(nullptr) : nlohmann::json(notes.differences);
    j["gemm_efficiency_from"] = nullptr;
    if (const auto& donor = notes.coverage.donor)
        j["gemm_efficiency_from"] = {
            {"gpu", donor->gpu.id},
            {"weight", donor->weight},
            {"text", describeDonor(*donor)},
            {"caution", notes.donorCaution ? nlohmann::json(*notes.donorCaution) : nlohmann::json(nullptr)}};
    j["fp32_gemm_issue_share"] = notes.gemmIssueShare;
    j["gemm_tiles_from"] = notes.gemmTilesFrom.empty() ? nlohmann::json(nullptr) : nlohmann::json(notes.gemmTilesFrom);
    j["own_tiles_note"] = notes.ownTiles ? nlohmann::json(*notes.ownTiles) : nlohmann::json(nullptr);
    j["trained_without"] = notes.trainedWithout.empty() ? nlohmann::json(nullptr) : nlohmann::json(notes.trainedWithout);
    j["read_as_new_gpu"] = notes.readAsNew ? nlohmann::json(*notes.readAsNew) : nlohmann::json(nullptr);
    j["basis_stretch"] = notes.basisStretch;
    j["architecture_unknown"] = notes.unknownArchitecture ? nlohmann::json(*notes.unknownArchitecture) : nlohmann::json(nullptr);
    j["unlearned_classes"] = notes.unlearned;
    j["graph_checked_by_measured_runs"] = true; // every family's graph now is (kept for scripts)
    j["graph_checked_by"] = notes.graphCheck == GraphCheck::NeuSightRuns ? "neusight" : "ours_h200";
    nlohmann::json assumed = nlohmann::json::array();
    for (const auto& f : notes.assumed)
        assumed.push_back({{"field", f.field}, {"value", f.value}, {"why", f.why}});
    j["config_assumed"] = std::move(assumed);
    j["config_dtype"] = notes.configDtype.empty() ? nlohmann::json(nullptr) : nlohmann::json(notes.configDtype);
    j["config_quantization"] = notes.configQuantization.empty() ? nlohmann::json(nullptr) : nlohmann::json(notes.configQuantization);
    j["beyond_context"] = notes.beyondContext.empty() ? nlohmann::json(nullptr) : nlohmann::json(notes.beyondContext);
    j["measured"] = notes.measured ? nlohmann::json{{"ms", notes.measured->ms}, {"run", notes.measured->name},
                                                    {"gpu", notes.measured->gpu}, {"source", notes.measured->source}}
                                   : nlohmann::json(nullptr);
}

// Right under "end to end", so the two numbers a reader compares sit one above the other.
void printMeasured(const Notes& notes)
{
    if (notes.measured)
        std::printf("  measured   %10.3f ms   (%s, run %s: the forecast is %.1f%% %s)\n", notes.measured->ms,
                    notes.measured->source.c_str(), notes.measured->name.c_str(),
                    std::abs(100 * (notes.forecastMs / notes.measured->ms - 1)),
                    notes.forecastMs >= notes.measured->ms ? "slower" : "faster");
}

void printNotes(const Notes& notes)
{
    if (!notes.sheet.empty()) // an edited copy may keep a bundled GPU's id
        std::printf("  note: spec sheet read from %s\n", oneLine(notes.sheet).c_str());
    if (!notes.efficiencyBasis.empty())
        std::printf("  note: learned efficiency of %s (efficiency_basis); this sheet's numbers set the roofline, tiles and waves\n",
                    notes.efficiencyBasis.c_str());
    if (notes.sheetCheck)
        std::printf("  note: check the spec sheet: %s\n", notes.sheetCheck->c_str());
    if (!notes.differences.empty()) {
        std::string list;
        for (const auto& d : notes.differences)
            list += (list.empty() ? "" : ", ") + d;
        std::printf("  note: %s keeps the id of the bundled %s but differs from it: %s; the forecast above is this "
                    "sheet's, under that id. Give it an id of its own to tell the two apart\n",
                    oneLine(notes.sheet).c_str(), notes.sameIdAs.c_str(), list.c_str());
    }
    if (notes.unreadNote)
        std::printf("  note: %s: %s\n", oneLine(notes.sheet).c_str(), oneLine(*notes.unreadNote).c_str());
    // Far enough out to borrow a measured GPU's GEMM efficiency is "beyond"; outside a range
    // without borrowing (P4's bandwidth per SM) is "near the edge", the GUI's words for the same.
    // With a basis the coverage is the basis's sheet, not this one: say whose ratios these are.
    const std::string through = notes.efficiencyBasis.empty() ? "" : " (of " + notes.efficiencyBasis + ", the basis)";
    for (const auto& e : notes.coverage.outside)
        std::printf("  note: %s%s, %s\n",
                    notes.coverage.level == Coverage::Beyond ? "beyond the measured GPUs" : "near the edge of the measured GPUs",
                    through.c_str(), e.text.c_str());
    for (const auto& line : notes.basisStretch)
        std::printf("  note: %s\n", line.c_str());
    if (notes.unknownArchitecture)
        std::printf("  note: %s\n", notes.unknownArchitecture->c_str());
    if (notes.coverage.donor)
        std::printf("  note: %s%s\n", notes.efficiencyBasis.empty() ? "" : (notes.efficiencyBasis + " in turn: ").c_str(),
                    describeDonor(*notes.coverage.donor).c_str());
    if (notes.donorCaution)
        std::printf("  note: %s\n", notes.donorCaution->c_str());
    if (notes.readAsNew)
        std::printf("  note: %s\n", oneLine(*notes.readAsNew).c_str());
    if (notes.ownMeasurements)
        std::printf("  note: %s\n", notes.ownMeasurements->c_str());
    if (notes.gemmIssueShare < 1)
        std::printf("  note: FP32 GEMMs are priced at %.0f%% of the sheet's FP32 peak: each scheduler of these SMs feeds 32 "
                    "FP32 lanes, which spend lane-clocks on a GEMM's loads (docs/method.md, section 2)\n",
                    100 * notes.gemmIssueShare);
    if (!notes.unlearned.empty())
        std::printf("  note: %s\n", unlearnedNote(notes.unlearned, notes.weightsDir).c_str());
    for (const auto& f : notes.assumed)
        std::printf("  note: %s does not give %s; taking %lld (%s)\n", oneLine(notes.configSource).c_str(), f.field.c_str(), f.value,
                    f.why.c_str());
    if (!notes.configDtype.empty())
        std::printf("  note: forecast in FP32, as NeuSight measured; the config's torch_dtype %s (%s) is not modelled\n",
                    oneLine(notes.configDtype).c_str(), notes.precisionDifference.c_str());
    if (!notes.configQuantization.empty())
        std::printf("  note: the config's quantization_config (%s) is not modelled: weights are priced and sized in FP32; "
                    "quantized weights take a fraction of the memory and of the GEMMs' weight traffic\n",
                    oneLine(notes.configQuantization).c_str());
    if (!notes.beyondContext.empty())
        std::printf("  note: %s\n", notes.beyondContext.c_str());
}

// The whole model's size, as model cards give it: "774 M", "46.70 B (12.88 B active per token)".
void printParameters(const ParameterCount& p)
{
    const std::string active =
        p.sparse() ? " (" + parameterCountText(p.activePerToken, 2) + " active per token)" : "";
    std::printf("  parameters %10s%s\n", parameterCountText(p.total, 2).c_str(), active.c_str());
}

// `forecast`'s memory against its GPU's; `whose` names the GPU on a multi-GPU layout.
void printMemory(const ModelForecast& r, const char* whose)
{
    // In GiB, the unit the sheet's size is sold in, so an H100 reads "of 80 GiB". Whole numbers
    // for real cards; a what-if sheet of 0.5 GB must not print "of 0 GiB".
    const double capacity = r.gpuMemoryBytes / GpuSpec::kBytesPerGiB;
    // "178.98 GiB of 180 GiB: fits" had read as room to spare.
    char spare[160];
    std::snprintf(spare, sizeof spare, ", tightly: %.1f%% spare, where the CUDA context and the allocator's slack must fit too",
                  100 * (1 - r.memory.totalBytes() / r.gpuMemoryBytes));
    std::printf(capacity >= 10 ? "  memory     %10.2f GiB of %.0f GiB%s: %s%s\n" : "  memory     %10.2f GiB of %.3g GiB%s: %s%s\n",
                r.memory.totalBytes() / GpuSpec::kBytesPerGiB, capacity, whose, r.fits() ? "fits" : "DOES NOT FIT",
                r.fitsTightly() ? spare : "");
}

// The ten costliest operators of a step, with their launches on this GPU per step (in a pipeline,
// its stage's layers for every micro-batch, as the GUI's Count column) and their share of
// `stepSeconds`, which includes any communication and bubble.
void printLargestOperators(const ModelForecast& r, double stepSeconds)
{
    std::vector<const OpForecast*> top;
    for (const auto& o : r.ops)
        top.push_back(&o);
    std::sort(top.begin(), top.end(), [](auto* a, auto* b) { return a->totalSeconds() > b->totalSeconds(); });
    std::printf("  %-32s %-11s %-5s %6s %10s %7s\n", "largest operators", "class", "phase", "count", "total ms", "share");
    for (std::size_t i = 0; i < std::min<std::size_t>(10, top.size()); ++i)
        // The part beside the name keeps the phase column narrow: "mlp.fc (grad weight)" and
        // "mlp.fc (grad input)" had both read "mlp.fc ... bw".
        std::printf("  %-32s %-11s %-5s %6.0f %10.3f %6.1f%%\n",
                    elideName(top[i]->op.part.empty() ? top[i]->op.node : top[i]->op.node + " (" + top[i]->op.part + ")", 32).c_str(),
                    std::string(opClassName(top[i]->op.kernel.opClass)).c_str(),
                    std::string(phaseName(top[i]->op.phase)).c_str(), double(top[i]->op.count) * top[i]->repeat,
                    top[i]->totalSeconds() * 1e3, 100 * top[i]->totalSeconds() / stepSeconds);
}

void printText(const ModelForecast& r, const ParameterCount& parameters, const Notes& notes)
{
    // The names come from the user's files: a newline or an escape sequence in a config's
    // "_name_or_path" must not split the line or recolour the terminal.
    std::printf("%s on %s, batch %lld x seq %lld, %s%s%s, FP32\n", oneLine(r.model).c_str(), oneLine(r.gpu).c_str(),
                r.options.batch, r.options.seq, r.options.training ? "training step" : "inference",
                r.options.fusion ? ", fused" : "", r.options.training && r.options.checkpointing ? ", checkpointed" : "");
    std::printf("  end to end %10.3f ms   (forward %.3f, backward %.3f, accumulate %.3f)\n", r.totalSeconds() * 1e3,
                r.forwardSeconds * 1e3, r.backwardSeconds * 1e3, r.accumulateSeconds * 1e3);
    printMeasured(notes);
    printParameters(parameters);
    printMemory(r, "");
    printLargestOperators(r, r.totalSeconds());
}

} // namespace

int runPredict(const std::vector<std::string>& args)
{
    Arguments a(args,
                {"--model", "--gpu", "--batch", "--seq", "--mode", "--parallel", "--weights", "--dp", "--tp", "--pp",
                 "--microbatches", "--schedule", "--zero"},
                {"--fusion", "--checkpointing", "--json"});
    const fs::path dataDir = resourceDirectory();
    const std::string mode = a.value("--mode").value_or("inference");
    if (mode != "inference" && mode != "training")
        throw UsageError("--mode: expected inference or training, got '" + mode + "'" +
                         json_fields::didYouMean(mode, {"inference", "training"}));
    GraphOptions options;
    options.batch = a.integer("--batch", 1, 1, kMaxBatch);
    options.seq = a.integer("--seq", 0, 1, kMaxSeq);
    std::string missing; // all of them at once: one run per missing option is two runs too many
    for (const char* option : {"--model", "--gpu", "--seq"})
        if (!a.has(option))
            missing += (missing.empty() ? "" : ", ") + std::string(option);
    if (!missing.empty())
        throw UsageError(missing + ": required");
    options.training = mode == "training";
    options.fusion = a.has("--fusion");
    options.checkpointing = a.has("--checkpointing");
    if (options.checkpointing && !options.training) // it would change nothing; say so rather than ignore it
        throw UsageError("--checkpointing: applies to training (--mode training)");
    const ModelConfig config = resolveModel(dataDir, a.required("--model"));
    const auto catalog = loadGpuDirectory((dataDir / "gpus").string());
    const std::string gpuArg = a.required("--gpu");
    // An id that names no GPU is a mistake in the arguments, said with the command like the rest;
    // a sheet file's errors name the file.
    const GpuSpec gpu = [&] {
        try {
            return resolveGpu(catalog, gpuArg);
        } catch (const ForecastError& e) {
            if (std::string_view(e.what()).starts_with("--gpu: "))
                throw UsageError(e.what());
            throw;
        }
    }();
    const bool fromFile = !findGpu(catalog, gpuArg);
    // A sheet file under a bundled id: its results carry that id, so say when the numbers differ.
    const GpuSpec* bundledSameId = fromFile ? findGpu(catalog, gpu.id) : nullptr;
    if (bundledSameId && specDifferences(gpu, *bundledSameId).empty())
        bundledSameId = nullptr;
    const std::string weightsDir = a.value("--weights").value_or((dataDir / "weights").string());
    const Forecaster forecaster = Forecaster::loadFromDirectory(weightsDir);
    ParallelLayout layout;
    if (auto p = a.value("--parallel")) {
        try { // the value is a command-line word: the error is a usage error, prefixed by the command
            layout = parseParallelLayout(*p, "--parallel");
        } catch (const ForecastError& e) {
            throw UsageError(e.what());
        }
        // --parallel pp4_8 --dp 2 adds a dimension; --parallel tp4 --tp 2 contradicts itself.
        const std::pair<const char*, long long> set[] = {
            {"--dp", layout.dp}, {"--tp", layout.tp}, {"--pp", layout.pp}, {"--microbatches", layout.microbatches}};
        for (const auto& [flag, degree] : set)
            if (degree > 1 && a.value(flag))
                throw UsageError(std::string(flag) + ": already set by --parallel " + *p);
        // pp4_1 says one micro-batch as plainly as pp4_8 says eight; pp4 leaves the count open.
        if (p->find('_') != std::string::npos && a.value("--microbatches"))
            throw UsageError("--microbatches: already set by --parallel " + *p);
    }
    layout.dp = a.integer("--dp", layout.dp, 1, kMaxParallelDegree);
    layout.tp = a.integer("--tp", layout.tp, 1, kMaxParallelDegree);
    layout.pp = a.integer("--pp", layout.pp, 1, kMaxParallelDegree);
    layout.microbatches = a.integer("--microbatches", layout.microbatches, 1, kMaxMicrobatches);
    // Micro-batches and their schedule belong to a pipeline; without one they would be ignored.
    for (const char* flag : {"--microbatches", "--schedule"})
        if (a.value(flag) && layout.pp == 1)
            throw UsageError(std::string(flag) + ": needs a pipeline (--pp 2 or more, or --parallel ppN_M)");
    layout.zero = a.integer("--zero", 0, 0, kMaxZeroStage);
    if (auto s = a.value("--schedule")) {
        const auto schedule = pipelineScheduleFromName(*s);
        if (!schedule)
            throw UsageError("--schedule: expected gpipe or 1f1b, got '" + *s + "'");
        layout.schedule = *schedule;
    }
    // Said next to every forecast: how far this GPU's per-SM ratios are from any measured GPU's,
    // and whose GEMM efficiency it borrows because of that. A sheet with an efficiency basis is
    // read as that basis, so the basis's coverage is what counts.
    SpecCoverage coverage = forecaster.coverage(gpu);
    const auto donor = coverage.donor;
    const GpuSpec* donorSheet = donor ? findGpu(catalog, donor->gpu.id) : nullptr;
    Notes notes{std::move(coverage),
                      fromFile ? gpuArg : std::string(), gpu.efficiencyBasis ? gpu.efficiencyBasis->id : std::string(),
                      sheetCheck(gpu), gpu.unreadFields, unreadFieldsNote(gpu), bundledSameId ? gpu.id : "",
                      bundledSameId ? specDifferences(gpu, *bundledSameId) : std::vector<std::string>{},
                      unlearnedClasses(forecaster), weightsDir,
                      graphCheckOf(config), config.assumed,
                      config.source, donorSheet ? slotPoweredDonorCaution(gpu, *donorSheet, donor->weight) : std::nullopt,
                      fromFile ? readAsNewNote(gpu, catalog, forecaster) : std::nullopt,
                      config.saysFp32() ? std::string() : config.dtype, config.precisionDifference(),
                      fp32GemmIssueShare(gpu), std::nullopt, 0, config.beyondContextNote(options.seq), basisStretch(gpu),
                      unknownArchitectureNote(gpu), config.quantization, forecaster.tiles().referenceFor(gpu),
                      forecaster.tiles().ownTilesNote(gpu), forecaster.heldOutFor(gpu),
                      forecaster.ownMeasurementsNote(gpu)};
    // Beside a forecast of a bundled model on a bundled GPU, what was measured of exactly that.
    const std::string modelArg = a.required("--model");
    if (!fromFile && modelArg == config.id && fs::exists(dataDir / "models" / (modelArg + ".json")))
        if (const auto runs = loadShippedMeasuredRuns(dataDir.string());
            const MeasuredRun* run = findMeasuredRun(runs, gpu.id, modelArg, options, layout, config.layers))
            notes.measured = *run;
    const ParameterCount parameters = countParameters(config);
    // A one-GPU layout is forecast without the layout code, which checks it: --parallel pp1_3 was
    // accepted, and its three micro-batches quietly ignored.
    validateLayout(config, options, layout);
    if (layout.gpus() == 1) {
        const ModelForecast r = forecastModel(forecaster, config, options, gpu);
        notes.forecastMs = r.totalSeconds() * 1e3;
        if (a.has("--json")) {
            nlohmann::json j = toJson(r);
            addLayoutJson(j, layout, r.totalSeconds(), {r.totalSeconds()});
            addNotes(j, notes);
            addParameters(j, parameters);
            j["layout_note"] = nullptr; // one GPU: one server
            std::cout << j.dump(2) << "\n";
        } else {
            printText(r, parameters, notes);
            printNotes(notes);
        }
        return 0;
    }
    // Name the file the link is missing from, not only the sheet's id (the engine knows no paths).
    if (!(gpu.interconnectBandwidthGBps > 0))
        throwInputError(fromFile ? gpuArg : gpu.id, "interconnect.bandwidth_gbps",
                        "needed for a multi-GPU forecast (the sheet gives no GPU-to-GPU link)");
    const ParallelForecast p = forecastParallel(forecaster, config, options, layout, gpu);
    notes.forecastMs = p.totalSeconds() * 1e3;
    if (a.has("--json")) {
        // The busiest GPU's whole step, as for one GPU: fw_ms + bw_ms + comm_ms + bubble_ms = e2e_ms,
        // and its ops (each with its repeats) add up to fw_ms and bw_ms.
        nlohmann::json j = toJson(p.step);
        addLayoutJson(j, layout, p.perGpu.totalSeconds(), p.stageSeconds);
        j["e2e_ms"] = p.totalSeconds() * 1e3;
        j["comm_ms"] = p.commSeconds() * 1e3;
        j["tp_comm_ms"] = p.tensorCommSeconds * 1e3;
        j["pp_comm_ms"] = p.pipelineCommSeconds * 1e3;
        j["dp_comm_ms"] = p.dataCommSeconds * 1e3;
        j["bubble_ms"] = p.bubbleSeconds * 1e3;
        addNotes(j, notes);
        addParameters(j, parameters);
        const auto servers = beyondOneServerNote(layout, gpu);
        j["layout_note"] = servers ? nlohmann::json(*servers) : nlohmann::json(nullptr);
        std::cout << j.dump(2) << "\n";
    } else {
        // A pipeline says its schedule: GPipe and 1F1B have the same bubble but not the same memory.
        std::string schedule = layout.pp > 1 ? std::string(", ") + pipelineScheduleName(layout.schedule) : "";
        if (layout.zero > 0)
            schedule += ", ZeRO " + std::to_string(layout.zero);
        // As one GPU's header says it: fused and checkpointed steps are other steps.
        std::printf("%s on %lld x %s (dp %lld, tp %lld, pp %lld, %lld micro-batch%s%s), global batch %lld x seq %lld, %s%s%s, FP32\n",
                    config.id.c_str(), layout.gpus(), gpu.id.c_str(), layout.dp, layout.tp, layout.pp,
                    layout.microbatches, layout.microbatches == 1 ? "" : "es", schedule.c_str(), options.batch, options.seq,
                    options.training ? "training step" : "inference", options.fusion ? ", fused" : "",
                    options.checkpointing ? ", checkpointed" : "");
        std::printf("  end to end %10.3f ms   (compute %.3f, bubble %.3f, communication %.3f: tp %.3f, pp %.3f, dp %.3f)\n",
                    p.totalSeconds() * 1e3, p.computeSeconds * 1e3, p.bubbleSeconds * 1e3, p.commSeconds() * 1e3,
                    p.tensorCommSeconds * 1e3, p.pipelineCommSeconds * 1e3, p.dataCommSeconds * 1e3);
        printMeasured(notes);
        // The compute split as one GPU's output gives it: going from one GPU to two lost it.
        std::printf("  compute    %10.3f ms   (forward %.3f, backward %.3f, accumulate %.3f; the busiest GPU)\n",
                    p.computeSeconds * 1e3, p.step.forwardSeconds * 1e3, p.step.backwardSeconds * 1e3,
                    p.step.accumulateSeconds * 1e3);
        printParameters(parameters); // the whole model's, where memory below is one GPU's share
        // The busiest GPU's shard and stage, as in the JSON: a layout that does not fit must say so.
        printMemory(p.step, " per GPU (the busiest)");
        printLargestOperators(p.step, p.totalSeconds());
        if (const auto servers = beyondOneServerNote(layout, gpu))
            std::printf("  note: %s\n", oneLine(*servers).c_str());
        printNotes(notes);
    }
    return 0;
}

int runModels(const std::vector<std::string>& args)
{
    Arguments a(args, {}, {"--json"});
    const fs::path dir = fs::path(resourceDirectory()) / "models";
    if (std::error_code ec; !fs::is_directory(dir, ec))
        throwInputError(dir.string(), "", "no such folder (the bundled models; see GPUFORECAST_DATA_DIR)");
    std::vector<fs::path> files;
    for (const auto& e : fs::directory_iterator(dir))
        if (e.path().extension() == ".json")
            files.push_back(e.path());
    std::sort(files.begin(), files.end());
    const bool json = a.has("--json");
    nlohmann::json out = nlohmann::json::array();
    if (!json)
        std::printf("%-14s %-8s %6s %7s %6s %8s %9s %9s\n", "id", "family", "layers", "hidden", "heads", "kv heads",
                    "params", "active");
    for (const auto& f : files) {
        const ModelConfig c = loadModelConfig(f.string());
        const ParameterCount p = countParameters(c); // active: per token, below params for a mixture of experts
        if (json) { // whole counts, where the table rounds to 0.01 B
            out.push_back({{"id", c.id}, {"family", c.family}, {"layers", c.layers + c.decoderLayers},
                           {"hidden", c.hidden}, {"heads", c.heads}, {"kv_heads", c.kvHeads},
                           {"parameters", std::llround(p.total)}, {"active_parameters_per_token", std::llround(p.activePerToken)},
                           {"config", f.string()}});
            continue;
        }
        std::printf("%-14s %-8s %6lld %7lld %6lld %8lld %8.2fB %8.2fB\n", c.id.c_str(), c.family.c_str(),
                    c.layers + c.decoderLayers, c.hidden, c.heads, c.kvHeads, p.total / 1e9, p.activePerToken / 1e9);
    }
    if (json)
        std::printf("%s\n", out.dump(2).c_str());
    return 0;
}

} // namespace gpuforecast::cli
