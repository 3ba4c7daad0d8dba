#pragma once
// Shared by the fuzz drivers: what counts as a finding, and fixed inputs the drivers combine with
// whatever the fuzzer produced (a GPU, a handful of kernels).
//
// Contract under test: a loader either returns a value that the rest of the engine can use
// (validate, forecast, save and reload) or throws ForecastError. Any other exception, a sanitizer
// report, an allocation over -malloc_limit_mb, or a failed GF_FUZZ_CHECK is a bug.
#include "gpuforecast/error.h"
#include "gpuforecast/forecaster.h"
#include "gpuforecast/gpu_spec.h"
#include "gpuforecast/kernel.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace gpuforecast::fuzz {

// Aborts (a libFuzzer crash, with the failing input saved) when an invariant does not hold.
#define GF_FUZZ_CHECK(cond, what)                                                                      \
    do {                                                                                               \
        if (!(cond)) {                                                                                 \
            std::fprintf(stderr, "GF_FUZZ_CHECK failed: %s (%s) at %s:%d\n", #cond, what, __FILE__,    \
                         __LINE__);                                                                    \
            std::abort();                                                                              \
        }                                                                                              \
    } while (0)

inline std::string textOf(const std::uint8_t* data, std::size_t size)
{
    return std::string(reinterpret_cast<const char*>(data), size);
}

// A T4-sized GPU built in code, so a driver that fuzzes something else has a valid spec to use.
inline GpuSpec referenceGpu()
{
    GpuSpec s;
    s.id = "fuzz-gpu";
    s.architecture = "Turing"; // a kernel family, so tile lookups take the family branch too
    s.launchYear = 2018;
    s.smCount = 40;
    s.coresPerSm = 64;
    s.boostClockMhz = 1590;
    s.fp32Gflops = s.fp32MatrixGflops = 8141;
    s.memoryGb = 15;
    s.memoryBandwidthGBps = 320;
    s.l2CacheMb = 4;
    return s;
}

// One kernel of every class, small and large (many waves, split-K, one-row-per-block softmax).
inline std::vector<Kernel> sampleKernels()
{
    return {Kernel::gemm("bmm", 384, 128, 64, 128),     Kernel::gemm("bmm", 1, 1, 1, 1),
            Kernel::gemm("linear", 1, 4096, 1280, 3840), Kernel::gemm("linear", 1, 7, 65536, 9),
            Kernel::vector("add", 4096, 1280),          Kernel::vector("gelu", 1, 1),
            Kernel::vector("softmax", 3072, 512),       Kernel::vector("softmax", 16, 50257),
            Kernel::vector("ln", 4096, 1024),           Kernel::vector("rmsnorm", 1, 8192),
            Kernel::fused({"mulu", "add", "softmax"}, 64, 128), Kernel::memory("copy", 1e6)};
}

inline void checkForecast(const KernelForecast& f, const char* what)
{
    GF_FUZZ_CHECK(std::isfinite(f.seconds) && f.seconds > 0, what);
    GF_FUZZ_CHECK(std::isfinite(f.secondsLow) && std::isfinite(f.secondsHigh), what);
    GF_FUZZ_CHECK(f.secondsLow <= f.seconds * (1 + 1e-12) && f.seconds <= f.secondsHigh * (1 + 1e-12), what);
}

} // namespace gpuforecast::fuzz
