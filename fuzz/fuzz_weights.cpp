// Fuzzes the utilization weights loader (UtilizationModel::fromJson, Mlp::fromJson beneath it).
// An accepted file must save and reload (its regenerated self-test included) and, plugged into a
// Forecaster, give finite positive forecasts that never beat the roofline: weights are shared
// between users, and a damaged or hostile file must be refused, not turned into NaN charts.
#include "fuzz_support.h"

#include "gpuforecast/json_fields.h"
#include "gpuforecast/utilization_model.h"

#include <memory>

using namespace gpuforecast;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    std::shared_ptr<const UtilizationModel> model;
    try {
        model = std::make_shared<const UtilizationModel>(
            UtilizationModel::fromJson(json_fields::parse(fuzz::textOf(data, size), "w.json"), "w.json"));
    } catch (const ForecastError&) {
        return 0;
    }
    const UtilizationModel again =
        UtilizationModel::fromJson(json_fields::parse(model->toJson().dump(), "saved.json"), "saved.json");
    GF_FUZZ_CHECK(again.memberCount() == model->memberCount() && again.opClass() == model->opClass(),
                  "save/reload changed the model");

    Forecaster::ModelSet models;
    for (std::size_t i = 0; i < kLearnedClasses.size(); ++i)
        if (kLearnedClasses[i] == model->opClass())
            models[i] = model;
    const Forecaster learned(models, nullptr);
    const Forecaster rooflineOnly({}, nullptr);
    const GpuSpec gpu = fuzz::referenceGpu();
    const auto kernels = fuzz::sampleKernels();
    const auto forecasts = learned.predict(kernels, gpu);
    for (std::size_t i = 0; i < kernels.size(); ++i) {
        fuzz::checkForecast(forecasts[i], "learned forecast");
        // The utilization law only discounts the roofline (the launch floor can only add time).
        GF_FUZZ_CHECK(forecasts[i].seconds >= rooflineOnly.predict(kernels[i], gpu).seconds * (1 - 1e-9),
                      "learned forecast faster than the roofline");
    }
    return 0;
}
