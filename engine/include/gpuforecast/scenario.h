#pragma once
// A scenario file: the model (bundled id, or a whole config embedded so the file travels), its
// settings, the GPUs compared, and the spec sheets of any GPU that is not bundled or was edited.
// One file a colleague can open and see the same forecasts.
#include "gpuforecast/gpu_spec.h"
#include "gpuforecast/model_graph.h"
#include "gpuforecast/parallel.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace gpuforecast {

struct Scenario {
    std::string model;          // bundled model id, or the embedded config's id
    nlohmann::json modelConfig; // the config.json itself when the model is not bundled; null otherwise
    GraphOptions options;
    ParallelLayout parallel;         // optional in the file: one GPU when absent
    std::vector<std::string> gpus;  // compared GPUs, in chart order
    std::vector<GpuSpec> customGpus; // sheets that are not (or differ from) the bundled ones
    // Keys the file had that no field reads ("paralel", "parallel.pp_size"): a misspelt "parallel"
    // opened as one GPU without a word. They and their values (`unreadJson`, an object, or null when
    // there are none) are written back on save, never over a field the scenario writes: a user's
    // notes in the file survive a round trip, as a spec sheet's do.
    std::vector<std::string> unreadFields;
    nlohmann::json unreadJson;
    // GPU ids the file listed again after their first place: each is compared once (two bars of
    // one GPU were drawn as one without a word).
    std::vector<std::string> repeatedGpus;
};

// One line for people when the file had keys no field reads, each with the key it most likely
// meant ("paralel (did you mean parallel?) is not a scenario field; it was not read, ..."), or
// listed a GPU twice; empty otherwise.
std::optional<std::string> scenarioUnreadNote(const Scenario& s);

// Validates everything a forecast will rely on (names the file and field on error).
Scenario scenarioFromJson(const nlohmann::json& j, const std::string& source);
nlohmann::json scenarioToJson(const Scenario& s);
// {"tp", "pp", "dp", "microbatches", "schedule", "zero"}: a scenario's "parallel", predict's "layout".
nlohmann::json parallelLayoutToJson(const ParallelLayout& l);
Scenario loadScenario(const std::string& path);
void saveScenario(const Scenario& s, const std::string& path); // atomic

} // namespace gpuforecast
