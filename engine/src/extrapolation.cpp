#include "gpuforecast/extrapolation.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>

namespace gpuforecast {

std::vector<SpecExtrapolation> specExtrapolation(const GpuSpec& gpu, const std::vector<ReferenceGpu>& measured,
                                                 double tolerance)
{
    struct Ratio {
        const char* quantity;
        const char* unit;
        std::function<double(double sm, double fp32, double bw)> of;
    };
    static const Ratio kRatios[] = {
        {"FP32 per SM", "GFLOP/s", [](double sm, double fp32, double) { return fp32 / sm; }},
        {"memory bandwidth per SM", "GB/s", [](double sm, double, double bw) { return bw / sm; }},
        {"FP32 FLOP per byte of bandwidth", "FLOP/B", [](double, double fp32, double bw) { return fp32 / bw; }},
    };
    std::vector<SpecExtrapolation> out;
    for (const auto& r : kRatios) {
        double lo = INFINITY, hi = -INFINITY;
        for (const auto& m : measured) {
            if (m.id == gpu.id || !(m.smCount > 0) || !(m.bandwidthGBps > 0))
                continue;
            const double v = r.of(m.smCount, m.fp32Gflops, m.bandwidthGBps);
            lo = std::min(lo, v);
            hi = std::max(hi, v);
        }
        if (!(lo <= hi) || !(gpu.smCount > 0) || !(gpu.memoryBandwidthGBps > 0))
            continue;
        const double v = r.of(gpu.smCount, gpu.fp32Gflops, gpu.memoryBandwidthGBps);
        if (v <= hi * tolerance && v >= lo / tolerance)
            continue;
        SpecExtrapolation e{r.quantity, r.unit, v, lo, hi, v > hi ? v / hi : v / lo, {}};
        char text[200];
        if (v > hi)
            std::snprintf(text, sizeof text, "%s %.3g %s is %.1fx the highest measured (measured %.3g-%.3g)",
                          r.quantity, v, r.unit, v / hi, lo, hi);
        else
            std::snprintf(text, sizeof text, "%s %.3g %s is %.1fx below the lowest measured (measured %.3g-%.3g)",
                          r.quantity, v, r.unit, lo / v, lo, hi);
        e.text = text;
        out.push_back(std::move(e));
    }
    return out;
}

} // namespace gpuforecast
