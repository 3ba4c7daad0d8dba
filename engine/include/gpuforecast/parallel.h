#pragma once
// One server of N identical GPUs training one model: data, tensor (Megatron) and pipeline
// parallelism, and the communication each adds over the GPUs' link (spec sheet interconnect).
#include "gpuforecast/model_forecast.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpuforecast {

enum class PipelineSchedule { GPipe, OneFOneB };
// "gpipe" and "1f1b", as scenario files and the command line spell them.
const char* pipelineScheduleName(PipelineSchedule s);
std::optional<PipelineSchedule> pipelineScheduleFromName(std::string_view name);

// The largest TP, PP and DP degree and micro-batch count any entry point accepts (see kMaxBatch).
inline constexpr long long kMaxParallelDegree = 4096, kMaxMicrobatches = 1 << 20;

// ZeRO (DeepSpeed; FSDP's full shard is stage 3): what the data-parallel replicas split among
// themselves instead of each holding all of it. 1: Adam's moments; 2: and the gradients; 3: and
// the weights, gathered layer by layer when a pass needs them. Without it, training an 8B model on
// one 8-GPU server at DP 8 could not fit (128 GB of FP32 state per GPU).
inline constexpr long long kMaxZeroStage = 3;

struct ParallelLayout {
    long long dp = 1, tp = 1, pp = 1;
    long long microbatches = 1;
    PipelineSchedule schedule = PipelineSchedule::OneFOneB;
    long long zero = 0; // ZeRO stage over the dp replicas, 0-3 (0: each replica holds everything)
    long long gpus() const { return dp * tp * pp; }
};

// "dp4", "tp2", "pp4_8" (4 stages, 8 micro-batches): the names of NeuSight's labelled runs.
// Throws ForecastError naming `source` for anything else.
ParallelLayout parseParallelLayout(const std::string& text, const std::string& source);

// Throws ForecastError with a message saying what does not divide what.
void validateLayout(const ModelConfig& config, const GraphOptions& options, const ParallelLayout& layout);
// validateLayout's message instead of its exception; none when the layout fits.
std::optional<std::string> layoutProblem(const ModelConfig& config, const GraphOptions& options, const ParallelLayout& layout);
bool layoutFits(const ModelConfig& config, const GraphOptions& options, const ParallelLayout& layout);
// The largest value `degree` can take in any layout that fits: each must divide something (the
// heads, the layers, the batch), so searches need go no further (the micro-batch box reaches 2^20).
long long largestFittingDegree(const ModelConfig& config, const GraphOptions& options, long long ParallelLayout::*degree);

// The layout nearest `wanted` that suits the model and settings: each degree in turn (TP, PP, DP,
// then micro-batches) lowered to the largest value that works with those before it, the schedule
// kept. `wanted` itself when it fits; one GPU at worst, which always fits.
ParallelLayout fitLayout(const ModelConfig& config, const GraphOptions& options, const ParallelLayout& wanted);

// Every GPU of a layout talks over the spec sheet's one link, as inside one server. Most servers
// hold 8 GPUs; past that a real cluster crosses slower network links between servers, which the
// forecast does not price. One line for people when the layout is that large, else nothing.
inline constexpr long long kGpusPerServer = 8;
// The GPUs one of `gpu`'s servers holds: 8, or more where its link joins more (an NVL72-style
// sheet's interconnect.max_gpus).
long long serverGpus(const GpuSpec& gpu);
// The GPUs `gpu`'s link joins at its bandwidth, where `layout` has more of them within one server
// (interconnect.max_gpus: MI210's 4-GPU hives): the path between those groups is not priced.
std::optional<long long> exceededLinkGroup(const ParallelLayout& layout, const GpuSpec& gpu);
std::optional<std::string> beyondOneServerNote(const ParallelLayout& layout, const GpuSpec& gpu);

// Collectives over a ring of n GPUs, each link `bandwidthGBps` per direction, `latencyUs` per step.
double ringAllReduceSeconds(double bytes, long long n, double bandwidthGBps, double latencyUs);
double sendReceiveSeconds(double bytes, double bandwidthGBps, double latencyUs);

// Fraction of a pipeline step lost to the fill and drain bubble: (p - 1) / (m + p - 1).
double pipelineBubbleFraction(long long stages, long long microbatches);

struct ParallelForecast {
    ParallelLayout layout;
    ModelForecast perGpu;       // one GPU's compute for one micro-batch (its TP shard, all layers)
    double computeSeconds = 0;  // all micro-batches, every stage's share, on the busiest GPU
    double tensorCommSeconds = 0;   // TP all-reduces, forward and backward
    double pipelineCommSeconds = 0; // activations and gradients between stages
    double dataCommSeconds = 0;     // DP gradient all-reduce; with ZeRO 3 also the weights' gathers
    double bubbleSeconds = 0;
    std::vector<double> stageSeconds; // compute of each pipeline stage for all micro-batches
    // The busiest GPU's whole step as one model forecast (what a single-GPU view can show): its
    // kernels with their repeats per step, plus its communication and bubble; totals agree.
    ModelForecast step;
    double commSeconds() const { return tensorCommSeconds + pipelineCommSeconds + dataCommSeconds; }
    double totalSeconds() const { return computeSeconds + bubbleSeconds + commSeconds(); }
};

ParallelForecast forecastParallel(const Forecaster& forecaster, const ModelConfig& config, const GraphOptions& options,
                                  const ParallelLayout& layout, const GpuSpec& gpu);

} // namespace gpuforecast
