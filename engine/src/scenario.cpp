#include "gpuforecast/scenario.h"

#include "gpuforecast/error.h"
#include "gpuforecast/file_io.h"
#include "gpuforecast/json_fields.h"
#include "gpuforecast/model_config.h"

#include <algorithm>

namespace gpuforecast {
namespace {

constexpr const char* kFormat = "gpuforecast-scenario-1";
constexpr const char* kScenarioKeys[] = {"format", "model", "model_config", "batch", "seq", "mode",
                                         "fusion", "checkpointing", "parallel", "gpus", "custom_gpus"};
constexpr const char* kParallelKeys[] = {"tp", "pp", "dp", "microbatches", "schedule", "zero"};

// The keys of `j` that are not in `known`, with their values.
template <std::size_t N>
nlohmann::json unreadKeys(const nlohmann::json& j, const char* const (&known)[N])
{
    nlohmann::json out = nlohmann::json::object();
    for (const auto& item : j.items())
        if (std::find_if(std::begin(known), std::end(known), [&](const char* k) { return item.key() == k; }) == std::end(known))
            out[item.key()] = item.value();
    return out;
}

// Every field optional (files written before multi-GPU forecasts have no "parallel" at all); whether
// the layout suits the model is checked where the model is known, by validateLayout.
ParallelLayout parallelFromJson(const nlohmann::json& j, const json_fields::Context& ctx)
{
    using namespace json_fields;
    ParallelLayout l;
    l.tp = optionalInteger(j, ctx, "tp", 1, kMaxParallelDegree).value_or(1);
    l.pp = optionalInteger(j, ctx, "pp", 1, kMaxParallelDegree).value_or(1);
    l.dp = optionalInteger(j, ctx, "dp", 1, kMaxParallelDegree).value_or(1);
    l.microbatches = optionalInteger(j, ctx, "microbatches", 1, kMaxMicrobatches).value_or(1);
    const std::string schedule = optionalString(j, ctx, "schedule").value_or("1f1b");
    const auto parsed = pipelineScheduleFromName(schedule);
    if (!parsed)
        throwInputError(ctx.source, ctx.name("schedule"), "expected \"gpipe\" or \"1f1b\", got \"" + schedule + "\"");
    l.schedule = *parsed;
    l.zero = optionalInteger(j, ctx, "zero", 0, kMaxZeroStage).value_or(0);
    return l;
}

} // namespace

Scenario scenarioFromJson(const nlohmann::json& j, const std::string& source)
{
    using namespace json_fields;
    const Context ctx{source, ""};
    if (!j.is_object())
        throwInputError(source, "", "expected a JSON object (a GPU Forecast scenario)");
    // A model's config.json or a spec sheet opened by mistake has no "format": say what the file is
    // not, rather than that one field is missing.
    if (!j.contains("format"))
        throwInputError(source, "", std::string("not a GPU Forecast scenario (it has no \"format\": \"") + kFormat +
                                        "\"; model configs and spec sheets are opened from the Model and GPU panels)");
    if (const std::string format = requireString(j, ctx, "format"); format != kFormat) {
        // A later format number is a newer release's file, not a typo: say which to expect.
        const bool newer = format.rfind("gpuforecast-scenario-", 0) == 0;
        throwInputError(source, "format",
                        std::string("expected \"") + kFormat + "\", got \"" + oneLine(format.substr(0, 80)) + "\"" +
                            (newer ? " (written by another version of GPU Forecast; this one reads only its own format)" : ""));
    }
    Scenario s;
    s.model = requireString(j, ctx, "model");
    if (s.model.empty())
        throwInputError(source, "model", "must not be empty");
    if (j.contains("model_config") && !j["model_config"].is_null()) {
        s.modelConfig = requireObject(j, ctx, "model_config");
        modelConfigFromJson(s.modelConfig, source + ": model_config"); // must be a config we can forecast
    }
    s.options.batch = requireInteger(j, ctx, "batch", 1, kMaxBatch);
    s.options.seq = requireInteger(j, ctx, "seq", 1, kMaxSeq);
    const std::string mode = requireString(j, ctx, "mode");
    if (mode != "inference" && mode != "training")
        throwInputError(source, "mode", "expected \"inference\" or \"training\", got \"" + mode + "\"" +
                                             json_fields::didYouMean(mode, {"inference", "training"}));
    s.options.training = mode == "training";
    if (j.contains("fusion") && !j["fusion"].is_boolean())
        throwInputError(source, "fusion", "expected true or false, got " + json_fields::describeValue(j["fusion"]));
    s.options.fusion = j.value("fusion", false);
    if (j.contains("checkpointing") && !j["checkpointing"].is_boolean())
        throwInputError(source, "checkpointing", "expected true or false, got " + json_fields::describeValue(j["checkpointing"]));
    s.options.checkpointing = j.value("checkpointing", false); // read for training steps only
    if (j.contains("parallel") && !j["parallel"].is_null())
        s.parallel = parallelFromJson(requireObject(j, ctx, "parallel"), ctx.child("parallel"));
    if (!j.contains("gpus") || !j["gpus"].is_array() || j["gpus"].size() > 256)
        throwInputError(source, "gpus", "expected an array of at most 256 GPU ids");
    for (std::size_t i = 0; i < j["gpus"].size(); ++i) {
        if (!j["gpus"][i].is_string())
            throwInputError(source, "gpus[" + std::to_string(i) + "]", "expected a GPU id string");
        const std::string id = j["gpus"][i].get<std::string>();
        if (std::find(s.gpus.begin(), s.gpus.end(), id) == s.gpus.end())
            s.gpus.push_back(id);
        else if (std::find(s.repeatedGpus.begin(), s.repeatedGpus.end(), id) == s.repeatedGpus.end())
            s.repeatedGpus.push_back(id);
    }
    nlohmann::json unread = unreadKeys(j, kScenarioKeys);
    for (const auto& item : unread.items())
        s.unreadFields.push_back(item.key());
    if (j.contains("parallel") && j["parallel"].is_object()) {
        const nlohmann::json inParallel = unreadKeys(j["parallel"], kParallelKeys); // named: items() refers to it
        for (const auto& item : inParallel.items()) {
            s.unreadFields.push_back("parallel." + item.key());
            unread["parallel"][item.key()] = item.value();
        }
    }
    if (!unread.empty())
        s.unreadJson = std::move(unread);
    if (j.contains("custom_gpus")) {
        const auto& c = j["custom_gpus"];
        if (!c.is_array() || c.size() > 256)
            throwInputError(source, "custom_gpus", "expected an array of at most 256 spec sheets");
        for (std::size_t i = 0; i < c.size(); ++i)
            s.customGpus.push_back(gpuSpecFromJson(c[i], source + ": custom_gpus[" + std::to_string(i) + "]"));
    }
    return s;
}

std::optional<std::string> scenarioUnreadNote(const Scenario& s)
{
    std::string repeated;
    for (const auto& id : s.repeatedGpus)
        repeated += (repeated.empty() ? "" : ", ") + id;
    if (!repeated.empty())
        repeated = "gpus lists " + repeated + " more than once; each is compared once";
    // A misspelt field in an embedded sheet was dropped without a word where the same sheet
    // imported on its own is named (a GUI review: "l1_cache_kbb" in custom_gpus).
    std::string sheets;
    for (std::size_t i = 0; i < s.customGpus.size(); ++i)
        if (const auto note = unreadFieldsNote(s.customGpus[i]))
            sheets += (sheets.empty() ? "" : "; ") + std::string("custom_gpus[") + std::to_string(i) + "] (" +
                      s.customGpus[i].id + "): " + *note;
    const auto join = [](std::string a, const std::string& b) { return a.empty() ? b : b.empty() ? a : a + "; " + b; };
    if (s.unreadFields.empty()) {
        const std::string text = join(sheets, repeated);
        return text.empty() ? std::nullopt : std::optional<std::string>(text);
    }
    std::vector<std::string> all(std::begin(kScenarioKeys), std::end(kScenarioKeys));
    for (const char* key : kParallelKeys)
        all.push_back(std::string("parallel.") + key);
    std::string text;
    for (const auto& key : s.unreadFields) {
        text += (text.empty() ? "" : ", ") + key;
        if (const std::string meant = json_fields::closestKey(key, all); !meant.empty())
            text += " (did you mean " + meant + "?)";
    }
    const bool one = s.unreadFields.size() == 1;
    return text + (one ? " is not a scenario field; it was not read (saving the scenario keeps it as it is)"
                       : " are not scenario fields; they were not read (saving the scenario keeps them as they are)") +
           (sheets.empty() ? "" : "; " + sheets) + (repeated.empty() ? "" : "; " + repeated);
}

nlohmann::json parallelLayoutToJson(const ParallelLayout& l)
{
    return {{"tp", l.tp},
            {"pp", l.pp},
            {"dp", l.dp},
            {"microbatches", l.microbatches},
            {"schedule", pipelineScheduleName(l.schedule)},
            {"zero", l.zero}};
}

nlohmann::json scenarioToJson(const Scenario& s)
{
    nlohmann::json j;
    j["format"] = kFormat;
    j["model"] = s.model;
    j["model_config"] = s.modelConfig;
    j["batch"] = s.options.batch;
    j["seq"] = s.options.seq;
    j["mode"] = s.options.training ? "training" : "inference";
    j["fusion"] = s.options.fusion;
    j["checkpointing"] = s.options.checkpointing;
    j["parallel"] = parallelLayoutToJson(s.parallel);
    j["gpus"] = s.gpus;
    j["custom_gpus"] = nlohmann::json::array();
    for (const auto& g : s.customGpus)
        j["custom_gpus"].push_back(gpuSpecToJson(g));
    json_fields::restoreUnreadKeys(j, s.unreadJson, "parallel");
    return j;
}

Scenario loadScenario(const std::string& path)
{
    return scenarioFromJson(json_fields::parse(readFile(path), path), path);
}

void saveScenario(const Scenario& s, const std::string& path)
{
    writeFileAtomically(path, scenarioToJson(s).dump(2) + "\n");
}

} // namespace gpuforecast
