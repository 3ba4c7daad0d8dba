#pragma once
// From a model config to the kernels PyTorch (eager, FP32) launches for one step: forward, and
// for training also backward and gradient accumulation. The kernels and their dimensions follow
// the operator graphs NeuSight traced with torch.fx (shared/data/neusight/opgraphs), including
// their conventions for backward kernels, so forecasts can be checked against its measurements.
#include "gpuforecast/kernel.h"
#include "gpuforecast/model_config.h"

#include <string>
#include <vector>

namespace gpuforecast {

enum class Phase { Forward, Backward, Accumulate };
std::string_view phaseName(Phase p); // "fw", "bw", "acc"

struct GraphKernel {
    std::string node;       // where it comes from, e.g. "attn.qkv", "mlp.fc1"
    Phase phase = Phase::Forward;
    Kernel kernel;
    long long count = 1;    // launches per step: per-layer kernels appear once with count = layers
    bool perLayer = false;  // part of the repeated transformer block
    // The gradient of a weight that another kernel's accumulation also adds (a tied LM head, which
    // is the token embedding): timed as the reference lists it, but not a parameter of its own.
    bool sharedParameter = false;
    // The share of the step's tokens that pass through this kernel's parameters: k of E for a
    // routed expert's (Mixtral's 2 of 8), 1 elsewhere. What a model's active parameters count.
    double tokenShare = 1;
    // Which of a node's kernels of one phase this is, where it has several: "grad input" and
    // "grad weight" (a linear layer's backward GEMMs), "grad A" and "grad B" (a batched product
    // C = A B, or a binary element-wise operator's two inputs), the operator in a chain of different
    // ones (softmax's backward: "mul", "softmax"), "fill" and "gradient" (a copy's two passes;
    // "fill" and "scatter" for an embedding), "weight" and "bias" (accumulation). Empty where the
    // phase has one kernel.
    std::string part = {};
};
// The phase with the part where there is one: "bw: grad weight", "fw" (the operator table, the
// Waves title and predict's text, where a linear layer's two backward GEMMs had read "bw" twice).
std::string phaseLabel(const GraphKernel& k);

// The largest batch and sequence any entry point accepts: the CLI, scenario files and the GUI's
// boxes share them, so a scenario the GUI opens is one its boxes can show.
inline constexpr long long kMaxBatch = 1 << 20, kMaxSeq = 1 << 24;

struct GraphOptions {
    long long batch = 1;    // sequences per step
    long long seq = 1;      // tokens per sequence
    bool training = false;  // add backward and gradient accumulation
    bool fusion = false;    // merge forward element-wise chains into one kernel each
    // Activation checkpointing (training): each layer keeps only its input, and its forward runs
    // again in the backward ("recompute" kernels) to rebuild what the backward reads. Without it an
    // 8B model's FP32 training step at 8 x 4096 tokens held 180 GB of activations per replica.
    bool checkpointing = false;
};

// Whose measured whole-model runs check this family's graph (docs/accuracy.md): NeuSight traced
// and timed GPT-2 and GPT-3, BERT, OPT and Switch; we timed the LLaMA-style families (Llama 2 and
// 3, Mistral, Mixtral, Qwen2, Qwen3, Gemma, Phi-3) on an H200 (resources/datasets/h200/e2e_hub:
// whole-model times within 5%; Llama 2 70B and Mixtral cut to their first blocks to fit the
// card; no per-operator trace). A family added later must say who checked it.
enum class GraphCheck { NeuSightRuns, OurH200Runs };
GraphCheck graphCheckOf(const ModelConfig& config);

// The model's parameters that its training graph's gradient accumulation does not count: the
// position tables (and BERT's token-type table) whose lookups the reference trace does not list,
// less the biases the trace lists for every Linear where the model has none (GPT-2's and OPT's
// LM head, OPT's word projections). estimateMemory adds it to the accumulated elements, which
// were 0.16% short for GPT-2. Signed; 0 for families whose graph lists every parameter. Split by
// where they sit, for a pipeline's stages: the tables and OPT's input projection before the
// layers, the head and OPT's output projection after them.
struct ParametersBesideTheGraph {
    long long beforeLayers = 0, afterLayers = 0;
    long long total() const { return beforeLayers + afterLayers; }
};
ParametersBesideTheGraph parametersBesideTheGraph(const ModelConfig& config);

// Throws ForecastError naming the field when batch or seq is out of range (seq beyond the learned
// position table, or token counts whose kernels could not be forecast).
std::vector<GraphKernel> buildModelGraph(const ModelConfig& config, const GraphOptions& options);

// For each kernel of `graph`, in graph order, how many of the model's repeated layers (encoder's,
// then decoder's) end before it: 0 before the first layer (the embedding), all of them after the
// last (the final norm, the head), the encoder's between an encoder-decoder's stacks. What a
// pipeline's stages split (parallel.cpp) and where the kernels outside the layers run.
std::vector<long long> layersBefore(const std::vector<GraphKernel>& graph, const ModelConfig& config);

} // namespace gpuforecast
