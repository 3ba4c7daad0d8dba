#include "gpuforecast/model_forecast.h"

#include <algorithm>
#include <cstdio>
#include <map>

namespace gpuforecast {
namespace {

constexpr double kFloatBytes = 4; // the NeuSight measurements, and this forecaster, are FP32

double outputElements(const Kernel& k)
{
    if (k.isGemm())
        return double(k.b) * double(k.m) * double(k.k);
    if (k.opClass == OpClass::Other)
        return k.fallbackBytes / kFloatBytes / 2; // a copy reads and writes the same amount
    return k.elements();
}

// Bytes eager PyTorch's autograd keeps from one forward launch until its backward: what the
// operator's backward formula reads, not its output. A GEMM keeps its inputs (a linear layer's
// weight is a parameter, counted already), a vector operator its traits' saved tensors, dropout
// its one-byte mask; views and other copies keep nothing. A tensor that two launches keep (GELU's
// input, by its cube and its product) is counted by both, a small excess. Counting every forward
// output instead took GPT-2 large's training step at 1 x 1024 to 37 GB, so a V100-32GB, on which
// it was measured, was said not to fit.
double savedForBackwardBytes(const Kernel& k)
{
    if (k.opClass == OpClass::Linear)
        return kFloatBytes * double(k.b) * double(k.m) * double(k.n);
    if (k.opClass == OpClass::Bmm)
        return kFloatBytes * double(k.b) * double(k.n) * (double(k.m) + double(k.k));
    if (k.op == "dropout") // a copy in the graph (8 bytes moved per element)
        return k.fallbackBytes / 8;
    // (`where`, a copy, keeps only its condition: the causal mask, one small tensor for every layer.)
    if (const auto traits = traitsOf(k))
        return traits->savedTensors * kFloatBytes * k.elements();
    return 0;
}

// Gradient accumulation touches every parameter exactly once, so the training graph's accumulate
// kernels count the parameters without a per-family formula.
std::vector<GraphKernel> parameterGraph(const ModelConfig& config)
{
    GraphOptions training;
    training.training = true;
    training.batch = std::max(1LL, config.experts); // enough tokens that every expert receives some
    training.seq = 1;
    return buildModelGraph(config, training);
}

ParameterCount countIn(const std::vector<GraphKernel>& trainingGraph, const ModelConfig& config)
{
    ParameterCount p;
    for (const GraphKernel& op : trainingGraph)
        if (op.phase == Phase::Accumulate && !op.sharedParameter) {
            const double elements = op.kernel.elements() * double(op.count);
            p.total += elements;
            p.activePerToken += elements * op.tokenShare;
        }
    const double beside = double(parametersBesideTheGraph(config).total());
    p.total += beside;
    p.activePerToken += beside;
    return p;
}

} // namespace

ParameterCount countParameters(const ModelConfig& config)
{
    return countIn(parameterGraph(config), config);
}

std::string parameterCountText(double count, int billionDecimals)
{
    char text[48];
    if (count >= 999.5e6)
        std::snprintf(text, sizeof text, "%.*f B", billionDecimals, count / 1e9);
    else if (count >= 999.5e3)
        std::snprintf(text, sizeof text, "%.0f M", count / 1e6);
    else if (count >= 999.5)
        std::snprintf(text, sizeof text, "%.0f k", count / 1e3);
    else
        std::snprintf(text, sizeof text, "%.0f", count);
    return text;
}

MemoryEstimate estimateMemory(const ModelConfig& config, const GraphOptions& options)
{
    MemoryEstimate m;
    const auto trainingGraph = parameterGraph(config);
    m.parametersCount = countIn(trainingGraph, config).total;
    const auto before = layersBefore(trainingGraph, config);
    for (std::size_t i = 0; i < trainingGraph.size(); ++i) {
        const GraphKernel& op = trainingGraph[i];
        if (op.phase != Phase::Accumulate)
            continue;
        const double elements = op.kernel.elements() * double(op.count);
        if (op.perLayer)
            m.layerParameters += elements;
        else
            m.outsideLayers.push_back({before[i], elements}); // a tied head's copy too
    }
    const ParametersBesideTheGraph beside = parametersBesideTheGraph(config);
    m.outsideLayers.push_back({0, double(beside.beforeLayers)});
    m.outsideLayers.push_back({config.layers + config.decoderLayers, double(beside.afterLayers)});
    m.weightsBytes = m.parametersCount * kFloatBytes;

    const auto graph = buildModelGraph(config, options);
    // Only a layer's tensors are alive at once beyond what is kept; the largest output bounds that
    // working set (twice: its input, or in training its gradient, is still held).
    double largest = 0;
    for (const auto& op : graph)
        largest = std::max(largest, outputElements(op.kernel) * kFloatBytes);
    m.activationsBytes = 2 * largest;
    if (options.training) {
        m.gradientsBytes = m.weightsBytes;
        m.optimizerBytes = 2 * m.weightsBytes;
        // Checkpointed, each layer keeps its input through the step, and only one layer's saved
        // tensors live at a time, while its backward runs on the recomputed forward (one of each
        // stack: an encoder-decoder's two layer kinds are not told apart); outside the layers, all
        // they save either way.
        if (options.checkpointing)
            m.activationsBytes += double(config.layers + config.decoderLayers) * double(options.batch) *
                                  double(options.seq) * double(config.hidden) * kFloatBytes;
        for (const auto& op : graph)
            if (op.phase == Phase::Forward)
                m.activationsBytes +=
                    savedForBackwardBytes(op.kernel) * (options.checkpointing && op.perLayer ? 1.0 : double(op.count));
    } else {
        // Keys and values kept for the next token: by every decoder layer of a decoder-only model;
        // by an encoder-decoder's decoder layers twice, their own and the encoder's (cross-attention);
        // by no layer of an encoder, which generates nothing (BERT had been charged 0.2 GB).
        const double layers = config.family == "bert"     ? 0.0
                              : config.decoderLayers > 0 ? 2.0 * double(config.decoderLayers)
                                                         : double(config.layers);
        m.kvCacheBytes = 2 * layers * double(options.batch) * double(options.seq) * double(config.kvWidth()) * kFloatBytes;
    }
    return m;
}

ModelForecast forecastModel(const Forecaster& forecaster, const ModelConfig& config, const GraphOptions& options,
                            const GpuSpec& gpu)
{
    ModelForecast r;
    r.model = config.id;
    r.gpu = gpu.id;
    r.options = options;
    const auto graph = buildModelGraph(config, options);
    // Forward and backward share many shapes (a layer's GEMMs reappear transposed, element-wise
    // ops repeat): forecast each distinct kernel once, in one batched pass.
    std::map<std::string, std::size_t> distinct;
    std::vector<Kernel> kernels;
    std::vector<std::size_t> slot(graph.size());
    for (std::size_t i = 0; i < graph.size(); ++i) {
        const Kernel& k = graph[i].kernel;
        std::string key = k.op + '|' + std::to_string(k.b) + ',' + std::to_string(k.m) + ',' + std::to_string(k.n) +
                          ',' + std::to_string(k.k) + ',' + std::to_string(k.h) + ',' + std::to_string(k.fallbackBytes) +
                          ',' + std::to_string(k.transposedReuseBytes);
        for (const auto& f : k.fusedOps)
            key += '|' + f;
        const auto [it, added] = distinct.emplace(std::move(key), kernels.size());
        if (added)
            kernels.push_back(k);
        slot[i] = it->second;
    }
    const auto forecasts = forecaster.predictQueued(kernels, gpu); // as they run inside the model
    r.ops.reserve(graph.size());
    for (std::size_t i = 0; i < graph.size(); ++i) {
        OpForecast o{graph[i], forecasts[slot[i]], 1.0};
        const double s = o.totalSeconds();
        switch (o.op.phase) {
        case Phase::Forward: r.forwardSeconds += s; break;
        case Phase::Backward: r.backwardSeconds += s; break;
        case Phase::Accumulate: r.accumulateSeconds += s; break;
        }
        r.ops.push_back(std::move(o));
    }
    r.memory = estimateMemory(config, options);
    r.gpuMemoryBytes = gpu.memoryCapacityBytes();
    return r;
}

} // namespace gpuforecast
