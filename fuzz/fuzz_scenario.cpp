// Fuzzes the scenario reader (scenarioFromJson): the file a colleague sends to reproduce a
// comparison, so it embeds a model config and spec sheets and reaches both of their loaders. An
// accepted scenario must save and reload to the same scenario, its embedded model must build a
// graph for the scenario's own step (or refuse it with ForecastError), and every embedded spec
// sheet must validate and forecast finite, positive times.
#include "fuzz_support.h"

#include "gpuforecast/json_fields.h"
#include "gpuforecast/model_config.h"
#include "gpuforecast/model_graph.h"
#include "gpuforecast/scenario.h"

using namespace gpuforecast;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    Scenario s;
    try {
        s = scenarioFromJson(json_fields::parse(fuzz::textOf(data, size), "s.json"), "s.json");
    } catch (const ForecastError&) {
        return 0;
    }
    const Scenario again = scenarioFromJson(json_fields::parse(scenarioToJson(s).dump(2), "saved.json"), "saved.json");
    GF_FUZZ_CHECK(again.model == s.model && again.gpus == s.gpus && again.modelConfig == s.modelConfig,
                  "save/reload changed the scenario");
    GF_FUZZ_CHECK(again.options.batch == s.options.batch && again.options.seq == s.options.seq &&
                      again.options.training == s.options.training && again.options.fusion == s.options.fusion,
                  "save/reload changed the step");
    GF_FUZZ_CHECK(again.customGpus.size() == s.customGpus.size(), "save/reload lost spec sheets");

    const Forecaster rooflineOnly({}, nullptr);
    if (!s.modelConfig.is_null()) {
        const ModelConfig config = modelConfigFromJson(s.modelConfig, "s.json: model_config"); // accepted above
        try {
            for (const auto& g : buildModelGraph(config, s.options)) {
                const KernelForecast f = rooflineOnly.predict(g.kernel, fuzz::referenceGpu());
                GF_FUZZ_CHECK(std::isfinite(f.seconds) && f.seconds >= 0, g.node.c_str());
            }
        } catch (const ForecastError&) {
        }
    }
    for (const auto& gpu : s.customGpus) {
        validateGpuSpec(gpu, "s.json");
        for (const auto& k : fuzz::sampleKernels())
            fuzz::checkForecast(rooflineOnly.predict(k, gpu), "forecast on an embedded spec sheet");
    }
    return 0;
}
