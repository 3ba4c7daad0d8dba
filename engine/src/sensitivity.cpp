#include "gpuforecast/sensitivity.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <memory>

namespace gpuforecast {

std::vector<SpecSensitivity> specSensitivity(const Forecaster& forecaster, const ModelConfig& config,
                                             const GraphOptions& options, const GpuSpec& gpu, double fraction,
                                             const ParallelLayout& layout)
{
    const bool server = layout.gpus() > 1;
    auto stepSeconds = [&](const GpuSpec& g) {
        return server ? forecastParallel(forecaster, config, options, layout, g).totalSeconds()
                      : forecastModel(forecaster, config, options, g).totalSeconds();
    };
    struct Knob {
        const char* field;
        const char* label;
        std::function<double(GpuSpec&, double)> scale; // the factor it really moved the field by
    };
    std::vector<Knob> knobs{
        {"sm_count", "SM count",
         [](GpuSpec& g, double f) {
             // More SMs of the same kind: peak FLOP/s scales with them.
             const double sm = std::max(1.0, std::round(g.smCount * f));
             const double moved = sm / g.smCount;
             g.fp32Gflops *= moved;
             g.fp32MatrixGflops *= moved;
             g.smCount = sm;
             return moved;
         }},
        {"fp32_gflops", "FP32 peak (per SM)",
         [](GpuSpec& g, double f) {
             g.fp32Gflops *= f;
             g.fp32MatrixGflops *= f;
             return f;
         }},
        {"memory_bandwidth_gbps", "Memory bandwidth", [](GpuSpec& g, double f) { g.memoryBandwidthGBps *= f; return f; }},
        {"l2_cache_mb", "L2 cache", [](GpuSpec& g, double f) { g.l2CacheMb *= f; return f; }},
        {"l1_cache_kb", "L1 cache per SM", [](GpuSpec& g, double f) { g.l1CacheKb = g.l1CacheKbOrDefault() * f; return f; }},
        {"memory_gb", "Memory size", [](GpuSpec& g, double f) { g.memoryGb *= f; return f; }},
    };
    if (server)
        knobs.push_back({"interconnect.bandwidth_gbps", "Interconnect bandwidth",
                         [](GpuSpec& g, double f) { g.interconnectBandwidthGBps *= f; return f; }});
    const double base = stepSeconds(gpu);
    // Each variant keeps the GPU's learned efficiency (GpuSpec::efficiencyBasis): the question is
    // what more of one resource buys this GPU, not which other GPU the changed sheet resembles.
    const auto basis = gpu.efficiencyBasis ? gpu.efficiencyBasis : std::make_shared<const GpuSpec>(gpu);
    std::vector<SpecSensitivity> out;
    for (const auto& k : knobs) {
        SpecSensitivity s{k.field, k.label};
        for (const bool higher : {false, true}) {
            GpuSpec g = gpu;
            g.efficiencyBasis = basis;
            const double factor = k.scale(g, higher ? 1 + fraction : 1 - fraction);
            (higher ? s.higherFactor : s.lowerFactor) = factor;
            // Not moved, not forecast: the same sheet's step, to the last bit.
            (higher ? s.higherChange : s.lowerChange) = factor == 1 ? 0.0 : stepSeconds(g) / base - 1;
        }
        out.push_back(s);
    }
    std::stable_sort(out.begin(), out.end(), [](const SpecSensitivity& a, const SpecSensitivity& b) {
        return std::max(std::abs(a.lowerChange), std::abs(a.higherChange)) >
               std::max(std::abs(b.lowerChange), std::abs(b.higherChange));
    });
    return out;
}

} // namespace gpuforecast
