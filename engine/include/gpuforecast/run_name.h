#pragma once
// NeuSight's run names: <model>-<inf|train>-<seq>-<batch>[-fusion|-dpN|-tpN|-ppN_M], e.g.
// "gpt2_large-train-1024-4-pp4_1". Batch is the global batch; ppN_M is N stages, M micro-batches.
#include <optional>
#include <string>

namespace gpuforecast {

struct RunName {
    std::string model;
    bool training = false;
    long long seq = 0, batch = 0;
    bool fusion = false;
    std::string parallel; // "", "dp4", "tp4", "pp4_1", ...
};

std::optional<RunName> parseRunName(const std::string& name);

} // namespace gpuforecast
