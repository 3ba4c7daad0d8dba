// Fuzzes the GPU spec sheet loader (gpuSpecFromJson). An accepted spec must pass validateGpuSpec,
// survive a save/reload round trip unchanged, and give every sample kernel a finite, positive
// roofline forecast: a spec sheet is the one input users write by hand for GPUs nobody measured.
#include "fuzz_support.h"

#include "gpuforecast/json_fields.h"

#include <nlohmann/json.hpp>

using namespace gpuforecast;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    GpuSpec spec;
    try {
        spec = gpuSpecFromJson(json_fields::parse(fuzz::textOf(data, size), "fuzz.json"), "fuzz.json");
    } catch (const ForecastError&) {
        return 0;
    }
    validateGpuSpec(spec, "fuzz.json"); // throws (= crash) if loader and validator disagree

    const GpuSpec again = gpuSpecFromJson(json_fields::parse(gpuSpecToJson(spec).dump(2), "saved.json"), "saved.json");
    for (const auto& f : specFields()) {
        GF_FUZZ_CHECK(specFieldValue(again, f.key) == specFieldValue(spec, f.key), f.key);
        GpuSpec edited = spec; // the GUI's editor writes values back one field at a time
        if (const auto v = specFieldValue(spec, f.key); v && !(f.optional && *v == 0))
            setSpecField(edited, f.key, *v);
    }
    GF_FUZZ_CHECK(again.id == spec.id && again.name == spec.name, "id/name round trip");

    const Forecaster rooflineOnly({}, nullptr);
    const auto kernels = fuzz::sampleKernels();
    for (const auto& k : kernels)
        fuzz::checkForecast(rooflineOnly.predict(k, spec), "roofline forecast on the fuzzed spec");
    return 0;
}
