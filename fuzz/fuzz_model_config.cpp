// Fuzzes the Hugging Face config.json reader (modelConfigFromJson) and, for accepted configs, the
// graph builder: an accepted config must build a graph for a small step or refuse it with
// ForecastError (e.g. a 2^24 x 2^20 embedding whose gradient is too large), never overflow or
// crash, and every kernel of a built graph must forecast to a finite time.
#include "fuzz_support.h"

#include "gpuforecast/json_fields.h"
#include "gpuforecast/model_config.h"
#include "gpuforecast/model_graph.h"

#include <algorithm>

using namespace gpuforecast;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    ModelConfig config;
    try {
        config = modelConfigFromJson(json_fields::parse(fuzz::textOf(data, size), "config.json"), "config.json");
    } catch (const ForecastError&) {
        return 0;
    }
    GF_FUZZ_CHECK(config.layers >= 1 && config.hidden >= 1 && config.heads >= 1 && config.headDim >= 1,
                  "accepted config has a zero dimension");
    GF_FUZZ_CHECK(config.kvHeads >= 1 && config.heads % config.kvHeads == 0, "accepted config has bad GQA");

    const Forecaster rooflineOnly({}, nullptr);
    const GpuSpec gpu = fuzz::referenceGpu();
    const long long longest = std::min<long long>(config.maxPositions, 1 << 24);
    // Small steps (forecast every kernel), then the largest step the options allow (UBSan watches
    // the dimension products; the builder must refuse what it cannot represent).
    const GraphOptions steps[] = {
        {1, 1, false, false},
        {2, std::min<long long>(longest, 16), true, false},
        {3, std::min<long long>(longest, 7), true, true},
        {1 << 20, longest, true, true},
    };
    for (const auto& o : steps) {
        std::vector<GraphKernel> graph;
        try {
            graph = buildModelGraph(config, o);
        } catch (const ForecastError&) {
            continue;
        }
        GF_FUZZ_CHECK(!graph.empty(), "empty graph");
        if (o.batch > 3)
            continue;
        for (const auto& g : graph) {
            GF_FUZZ_CHECK(g.count >= 0, g.node.c_str());
            const KernelForecast f = rooflineOnly.predict(g.kernel, gpu);
            GF_FUZZ_CHECK(std::isfinite(f.seconds) && f.seconds >= 0, g.node.c_str());
        }
    }
    return 0;
}
