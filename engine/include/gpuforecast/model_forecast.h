#pragma once
// A whole model on one GPU: every kernel of its graph forecast once, multiplied by how often it
// runs, summed (kernels run one after another), plus whether the model fits in memory.
#include "gpuforecast/forecaster.h"
#include "gpuforecast/model_graph.h"

#include <memory>
#include <string>
#include <vector>

namespace gpuforecast {

struct OpForecast {
    GraphKernel op;
    KernelForecast forecast;             // one launch
    // How often one GPU runs the op's `count` launches per step: 1 on its own; in a pipeline, every
    // micro-batch, and of the repeated layers only its stage's share (parallel.h), so not whole.
    double repeat = 1;
    double totalSeconds() const { return forecast.seconds * double(op.count) * repeat; }
};

struct MemoryEstimate {
    double parametersCount = 0;
    double weightsBytes = 0;
    double gradientsBytes = 0;   // training only
    double optimizerBytes = 0;   // training only: Adam's two moments
    double activationsBytes = 0; // largest live tensors, and in training what is saved for backward
    double kvCacheBytes = 0;     // inference: keys and values of every layer that generates (none for BERT)
    // Where the whole model's parameters sit, for a pipeline's stages (stageMemory in parallel.cpp,
    // whose estimate of one stage leaves these as they were): the layers' share evenly; those
    // outside them where their kernels run, after `layersBefore` layers (the embedding on the first
    // stage, the head on the last). A tied head's table is a copy of the embedding's: counted once
    // on one GPU, again on the last stage of a pipeline.
    struct PlacedParameters {
        long long layersBefore = 0;
        double count = 0;
    };
    double layerParameters = 0;
    std::vector<PlacedParameters> outsideLayers;
    double totalBytes() const
    {
        return weightsBytes + gradientsBytes + optimizerBytes + activationsBytes + kvCacheBytes;
    }
};

struct ModelForecast {
    std::string model, gpu;
    GraphOptions options;
    double forwardSeconds = 0, backwardSeconds = 0, accumulateSeconds = 0;
    // Multi-GPU only (parallel.h): time the GPU waits on its links and for the pipeline to fill and drain.
    double commSeconds = 0, bubbleSeconds = 0;
    double computeSeconds() const { return forwardSeconds + backwardSeconds + accumulateSeconds; }
    double totalSeconds() const { return computeSeconds() + commSeconds + bubbleSeconds; }
    std::vector<OpForecast> ops; // graph order
    MemoryEstimate memory;
    double gpuMemoryBytes = 0;
    bool fits() const { return memory.totalBytes() <= gpuMemoryBytes; }
    // Fits with under kTightMemoryShare of the GPU's memory to spare. The estimate counts the
    // model's tensors only; the CUDA context (a few hundred MiB), the framework's workspaces and
    // the caching allocator's fragmentation live in what is left, so such a run may not fit.
    static constexpr double kTightMemoryShare = 0.05;
    bool fitsTightly() const { return fits() && memory.totalBytes() > (1 - kTightMemoryShare) * gpuMemoryBytes; }
};

ModelForecast forecastModel(const Forecaster& forecaster, const ModelConfig& config, const GraphOptions& options,
                            const GpuSpec& gpu);

MemoryEstimate estimateMemory(const ModelConfig& config, const GraphOptions& options);

// The whole model's parameters (estimateMemory's count on one GPU) and those one token passes
// through: a mixture of experts' routed experts count k of E (Mixtral 8x7B: 46.7 B, 12.9 B
// active), the figure its name and model card quote; a dense model's two are equal.
struct ParameterCount {
    double total = 0, activePerToken = 0;
    bool sparse() const { return activePerToken < total; }
};
ParameterCount countParameters(const ModelConfig& config);
// A count as model cards write it: "46.70 B" (`billionDecimals` decimals), "774 M", "65 k", "512";
// a count that rounds to 1000 of a unit takes the next ("1.00 B", not "1000 M").
std::string parameterCountText(double count, int billionDecimals);

} // namespace gpuforecast
