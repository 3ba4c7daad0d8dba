#include "gpuforecast/parallel.h"

#include "gpuforecast/error.h"
#include "gpuforecast/json_fields.h"

#include <algorithm>
#include <cmath>
#include <regex>
#include <string>
#include <cctype>

namespace gpuforecast {
namespace {

constexpr double kFloatBytes = 4;

// The per-GPU shard of a tensor-parallel model: Megatron splits attention heads, the FFN width
// and the vocabulary (embedding and head) across the tp GPUs; norms and residuals stay whole.
ModelConfig tensorShard(ModelConfig c, long long tp)
{
    c.heads /= tp;
    c.kvHeads = std::max(1LL, c.kvHeads / tp);
    c.intermediate /= tp;
    c.vocab = (c.vocab + tp - 1) / tp;
    return c;
}

// The pipeline stage that runs what comes after `layersBefore` of the model's `totalLayers`
// layers: the stage holding the next layer, the last after the last layer.
std::size_t stageAfter(long long layersBefore, long long totalLayers, long long stages)
{
    return layersBefore >= totalLayers ? std::size_t(stages - 1) : std::size_t(layersBefore * stages / totalLayers);
}

// One GPU's memory in a pipeline, on the stage that holds the most: its 1/p of the layers'
// weights, gradients and optimizer state with what sits outside the layers on that stage (the
// embedding on the first, the head on the last; spread evenly, a 128k vocabulary's table had
// made a stage that holds 40% more look as if it fitted), its layers' KV cache for all m
// micro-batches, and in training the activations of the micro-batches in flight: all m of them
// under GPipe (every forward runs before any backward), at most p under 1F1B.
// `m` is one micro-batch's memory on one GPU of the layout, over every layer of the model.
MemoryEstimate stageMemory(MemoryEstimate m, const ParallelLayout& layout, bool training, long long totalLayers)
{
    const double p = double(layout.pp), micro = double(layout.microbatches);
    if (layout.pp > 1 && m.parametersCount > 0) {
        std::vector<double> held(std::size_t(layout.pp), m.layerParameters / p);
        for (const auto& placed : m.outsideLayers) // a tied head's table too: its stage keeps a copy
            held[stageAfter(placed.layersBefore, totalLayers, layout.pp)] += placed.count;
        const double share = *std::max_element(held.begin(), held.end()) / m.parametersCount;
        m.parametersCount *= share;
        m.weightsBytes *= share;
        m.gradientsBytes *= share;
        m.optimizerBytes *= share;
    }
    // A stage keeps the keys and values of its own layers for every micro-batch: the whole batch's
    // cache, which generation reads next. Taken for one micro-batch, a 13B model at batch 32 in 32
    // micro-batches was said to fit a 40 GB card with 0.84 GB of cache instead of 26.8.
    m.kvCacheBytes = m.kvCacheBytes / p * micro;
    if (training) { // what each micro-batch in flight saved for its backward pass, this stage's layers
        const double inFlight = layout.schedule == PipelineSchedule::GPipe ? micro : std::min(micro, p);
        m.activationsBytes = m.activationsBytes / p * inFlight;
    }
    // Inference keeps no activations past a layer: the peak is one layer's, for one micro-batch, on
    // every stage alike (it had been divided by the stage count, and differed by schedule).
    return m;
}

// What ZeRO leaves each data-parallel replica of the state its stage shards: 1/dp of Adam's
// moments (stage 1), of the gradients too (2), and of the weights (3), which then also holds what
// a pass has gathered whole: the block it runs and the next layer, fetched ahead (FSDP's
// prefetch). The largest block may be the embedding (LLaMA-3's 128k-token table is 2.4 layers).
MemoryEstimate zeroShardedMemory(MemoryEstimate m, const ParallelLayout& layout, long long totalLayers)
{
    const double dp = double(layout.dp);
    if (layout.zero >= 1)
        m.optimizerBytes /= dp;
    if (layout.zero >= 2)
        m.gradientsBytes /= dp;
    if (layout.zero >= 3 && m.parametersCount > 0) {
        const double bytesPerParameter = m.weightsBytes / m.parametersCount;
        const double oneLayer = m.layerParameters / double(std::max(1LL, totalLayers));
        double largest = oneLayer;
        for (const auto& placed : m.outsideLayers)
            largest = std::max(largest, placed.count);
        const double gathered = std::min(m.parametersCount, largest + oneLayer);
        m.weightsBytes = m.weightsBytes / dp + bytesPerParameter * gathered * (1 - 1 / dp);
    }
    return m;
}

} // namespace

const char* pipelineScheduleName(PipelineSchedule s) { return s == PipelineSchedule::GPipe ? "gpipe" : "1f1b"; }

std::optional<PipelineSchedule> pipelineScheduleFromName(std::string_view name)
{
    // Any case: the GUI shows "1F1B" and "GPipe", and a scenario written by hand copied that.
    const std::string lower = json_fields::lowerCase(std::string(name));
    for (const auto s : {PipelineSchedule::GPipe, PipelineSchedule::OneFOneB})
        if (lower == pipelineScheduleName(s))
            return s;
    return std::nullopt;
}

ParallelLayout parseParallelLayout(const std::string& text, const std::string& source)
{
    static const std::regex re(R"(^(dp|tp|pp)(\d+)(?:_(\d+))?$)");
    std::smatch m;
    if (!std::regex_match(text, m, re) || (m[1] != "pp" && m[3].matched))
        throwInputError(source, "", "expected dpN, tpN or ppN_M (N GPUs, M micro-batches), got '" + text + "'");
    // Well formed, but past what one server (or one step) holds: say that, not "expected dpN".
    // The limits are the ones the options and scenario files take (kMaxParallelDegree, ...).
    const auto over = [](const std::string& digits, long long most) {
        return digits.size() > 9 || std::stoll(digits) > most;
    };
    if (over(m[2].str(), kMaxParallelDegree))
        throwInputError(source, "", "'" + text + "': more than " + std::to_string(kMaxParallelDegree) + " GPUs is not one server");
    if (m[3].matched && over(m[3].str(), kMaxMicrobatches))
        throwInputError(source, "", "'" + text + "': at most " + std::to_string(kMaxMicrobatches) + " micro-batches");
    ParallelLayout l;
    const long long n = std::stoll(m[2].str());
    if (n < 1)
        throwInputError(source, "", "the GPU count must be at least 1");
    if (m[1] == "dp")
        l.dp = n;
    else if (m[1] == "tp")
        l.tp = n;
    else {
        l.pp = n;
        l.microbatches = m[3].matched ? std::stoll(m[3].str()) : 1;
        if (l.microbatches < 1)
            throwInputError(source, "", "at least one micro-batch");
    }
    return l;
}

void validateLayout(const ModelConfig& c, const GraphOptions& o, const ParallelLayout& l)
{
    const std::string src = c.id.empty() && c.source.empty() ? "layout" : c.errorSource();
    auto need = [&](bool ok, const std::string& what) {
        if (!ok)
            throwInputError(src, "parallel layout", what);
    };
    need(l.dp >= 1 && l.tp >= 1 && l.pp >= 1 && l.microbatches >= 1, "degrees and micro-batches must be at least 1");
    need(l.gpus() <= kMaxParallelDegree, "more than " + std::to_string(kMaxParallelDegree) + " GPUs is not one server");
    need(c.heads % l.tp == 0, "tp " + std::to_string(l.tp) + " does not divide the " + std::to_string(c.heads) +
                                  " attention heads");
    need(c.kvHeads % l.tp == 0 || l.tp % c.kvHeads == 0,
         "tp " + std::to_string(l.tp) + " does not divide the " + std::to_string(c.kvHeads) + " key/value heads");
    need(c.intermediate % l.tp == 0, "tp " + std::to_string(l.tp) + " does not divide the FFN width " +
                                         std::to_string(c.intermediate));
    const long long layers = c.layers + c.decoderLayers;
    need(layers % l.pp == 0, "pp " + std::to_string(l.pp) + " does not divide the " + std::to_string(layers) + " layers");
    // Replicas splitting an inference batch is serving throughput, not the latency of one step.
    // Said first: a batch that dp does not divide is beside the point at inference.
    need(o.training || l.dp == 1, "data parallelism applies to training (dp 1 for inference)");
    need(o.batch % l.dp == 0, "dp " + std::to_string(l.dp) + " does not divide the global batch " + std::to_string(o.batch));
    // Before their count: pp1_3 over a batch of 4 is wrong for want of a pipeline, not of a 6th sample.
    need(l.pp > 1 || l.microbatches == 1, "micro-batches need pipeline stages (pp > 1)");
    need(l.zero >= 0 && l.zero <= kMaxZeroStage, "ZeRO stage " + std::to_string(l.zero) + " is not 0, 1, 2 or 3");
    need(l.zero == 0 || l.dp > 1, "ZeRO shards state among data-parallel replicas (dp > 1)");
    // DeepSpeed refuses it: a pipeline's micro-batches would each gather, or reduce, the shards.
    need(l.zero <= 1 || l.pp == 1, "ZeRO stage " + std::to_string(l.zero) + " does not run with pipeline stages (pp 1, or stage 1)");
    need((o.batch / l.dp) % l.microbatches == 0, std::to_string(l.microbatches) +
                                                     " micro-batches do not divide the per-replica batch " +
                                                     std::to_string(o.batch / l.dp));
}

std::optional<std::string> layoutProblem(const ModelConfig& config, const GraphOptions& options, const ParallelLayout& layout)
{
    try {
        validateLayout(config, options, layout);
    } catch (const ForecastError& e) {
        return std::string(e.what());
    }
    return std::nullopt;
}

bool layoutFits(const ModelConfig& config, const GraphOptions& options, const ParallelLayout& layout)
{
    return !layoutProblem(config, options, layout);
}

long long largestFittingDegree(const ModelConfig& config, const GraphOptions& options, long long ParallelLayout::*degree)
{
    if (degree == &ParallelLayout::zero)
        return kMaxZeroStage;
    const long long most = degree == &ParallelLayout::tp   ? config.heads
                           : degree == &ParallelLayout::pp ? config.layers + config.decoderLayers
                                                           : options.batch; // dp, and micro-batches of a replica
    return std::clamp(most, 1LL, kMaxParallelDegree * kMaxMicrobatches);
}

ParallelLayout fitLayout(const ModelConfig& config, const GraphOptions& options, const ParallelLayout& wanted)
{
    if (layoutFits(config, options, wanted))
        return wanted;
    ParallelLayout l;
    l.schedule = wanted.schedule;
    // Each degree with the later ones at 1, which every model and batch allows.
    const auto lower = [&](long long ParallelLayout::*degree, long long from) {
        for (long long v = std::clamp(from, 1LL, largestFittingDegree(config, options, degree)); v >= 1; --v) {
            ParallelLayout candidate = l;
            candidate.*degree = v;
            if (layoutFits(config, options, candidate)) {
                l = candidate;
                return;
            }
        }
    };
    lower(&ParallelLayout::tp, wanted.tp);
    lower(&ParallelLayout::pp, wanted.pp);
    lower(&ParallelLayout::dp, wanted.dp);
    lower(&ParallelLayout::microbatches, wanted.microbatches);
    if (wanted.zero > 0) // the lowering stops at 1; no ZeRO is the start
        lower(&ParallelLayout::zero, wanted.zero);
    return l;
}

double ringAllReduceSeconds(double bytes, long long n, double bandwidthGBps, double latencyUs)
{
    if (n <= 1 || bytes <= 0)
        return 0;
    // Reduce-scatter then all-gather: 2(n-1) steps, each moving bytes/n over every link.
    const double steps = 2.0 * double(n - 1);
    return steps * (bytes / double(n)) / (bandwidthGBps * 1e9) + steps * latencyUs * 1e-6;
}

double sendReceiveSeconds(double bytes, double bandwidthGBps, double latencyUs)
{
    return bytes / (bandwidthGBps * 1e9) + latencyUs * 1e-6;
}

long long serverGpus(const GpuSpec& gpu)
{
    return std::max(kGpusPerServer, static_cast<long long>(gpu.interconnectMaxGpus));
}

std::optional<long long> exceededLinkGroup(const ParallelLayout& layout, const GpuSpec& gpu)
{
    const auto group = static_cast<long long>(gpu.interconnectMaxGpus);
    if (group > 0 && layout.gpus() > group && layout.gpus() <= serverGpus(gpu))
        return group;
    return std::nullopt;
}

std::optional<std::string> beyondOneServerNote(const ParallelLayout& layout, const GpuSpec& gpu)
{
    const std::string link = gpu.interconnectKind + (gpu.interconnectKind.empty() ? "" : ", ") +
                             std::to_string(std::lround(gpu.interconnectBandwidthGBps)) + " GB/s";
    const std::string count = std::to_string(layout.gpus());
    // MI210 at TP 8 was priced on its bridges' 150 GB/s with nothing said: they join four.
    if (const auto group = exceededLinkGroup(layout, gpu))
        return count + " GPUs priced all on the sheet's link (" + link + "), which joins " + std::to_string(*group) +
               " at that speed; traffic between the groups crosses a slower path that is not priced, so "
               "communication is likely forecast short";
    if (layout.gpus() <= serverGpus(gpu))
        return std::nullopt;
    // Past a server the link group still counts: MI210 at DP 16 had lost its "joins 4".
    const auto group = static_cast<long long>(gpu.interconnectMaxGpus);
    const std::string joins =
        group > 0 && group < serverGpus(gpu) ? " (the link joins " + std::to_string(group) + " at that speed)" : "";
    return count + " GPUs priced as one server, all on the sheet's link (" + link + "); servers hold " +
           std::to_string(serverGpus(gpu)) + " GPUs at most" + joins +
           ", and the slower paths between them are not priced, so communication is likely forecast short";
}

double pipelineBubbleFraction(long long stages, long long microbatches)
{
    return double(stages - 1) / double(microbatches + stages - 1);
}

ParallelForecast forecastParallel(const Forecaster& forecaster, const ModelConfig& config, const GraphOptions& options,
                                  const ParallelLayout& layout, const GpuSpec& gpu)
{
    validateLayout(config, options, layout);
    if (layout.gpus() > 1 && !(gpu.interconnectBandwidthGBps > 0))
        throwInputError(gpu.id, "interconnect.bandwidth_gbps", "needed for a multi-GPU forecast");
    ParallelForecast r;
    r.layout = layout;
    GraphOptions micro = options;
    micro.batch = options.batch / layout.dp / layout.microbatches;
    const ModelConfig shard = tensorShard(config, layout.tp);
    r.perGpu = forecastModel(forecaster, shard, micro, gpu);

    // Split one micro-batch's compute into the repeated layers, divided among the stages, and the
    // rest, which runs where it sits between the layers: what the graph lists before the first
    // layer (embedding, position and mask work) on the first stage, what comes after the last
    // (final norm, head) on the last, and what an encoder-decoder lists between its stacks
    // (encoder final norm, decoder masks) on the stage where the decoder's layers begin. The
    // step forecast is the busiest stage's kernels, each repeated for every micro-batch; the
    // other stages' non-layer kernels run elsewhere and take no time in it (repeat 0). With one
    // micro-batch the step is the sum of the stages either way; with more, the busiest stage no
    // longer carries the embedding's m launches.
    const double p = double(layout.pp), m = double(layout.microbatches);
    const long long totalLayers = config.layers + config.decoderLayers;
    double layerSeconds = 0;
    std::vector<double> otherSeconds(std::size_t(layout.pp), 0.0);
    std::vector<std::size_t> stageOf;
    stageOf.reserve(r.perGpu.ops.size());
    std::vector<GraphKernel> graph;
    graph.reserve(r.perGpu.ops.size());
    for (const auto& op : r.perGpu.ops)
        graph.push_back(op.op);
    const std::vector<long long> before = layersBefore(graph, config);
    for (std::size_t i = 0; i < r.perGpu.ops.size(); ++i) {
        const auto& op = r.perGpu.ops[i];
        // A non-layer op runs on the stage holding the next layer after it (the last stage after
        // the last layer); a per-layer op's stage is unused (layers are spread over all stages).
        const std::size_t stage = stageAfter(before[i], totalLayers, layout.pp);
        stageOf.push_back(stage);
        if (op.op.perLayer)
            layerSeconds += op.totalSeconds();
        else
            otherSeconds[stage] += op.totalSeconds();
    }
    r.stageSeconds.assign(std::size_t(layout.pp), layerSeconds / p * m);
    for (std::size_t s = 0; s < r.stageSeconds.size(); ++s)
        r.stageSeconds[s] += otherSeconds[s] * m; // with one stage, everything
    const std::size_t busiestStage =
        std::size_t(std::max_element(r.stageSeconds.begin(), r.stageSeconds.end()) - r.stageSeconds.begin());
    r.step = r.perGpu;
    r.step.options = options;
    r.step.forwardSeconds = r.step.backwardSeconds = r.step.accumulateSeconds = 0;
    for (std::size_t i = 0; i < r.step.ops.size(); ++i) {
        auto& op = r.step.ops[i];
        op.repeat = op.op.perLayer ? m / p : stageOf[i] == busiestStage ? m : 0;
        const double s = op.totalSeconds();
        (op.op.phase == Phase::Forward    ? r.step.forwardSeconds
         : op.op.phase == Phase::Backward ? r.step.backwardSeconds
                                          : r.step.accumulateSeconds) += s;
    }
    const double busiest = *std::max_element(r.stageSeconds.begin(), r.stageSeconds.end());
    r.computeSeconds = busiest;
    // Fill and drain: the first micro-batch passes through every stage before the busiest one
    // settles into its rhythm, and the last drains through the rest, so the step is the busiest
    // stage's m slots plus one micro-batch slot of every other stage (GPipe; 1F1B has the same
    // bubble). With equal stages this is the textbook (p - 1) / m of the busiest stage's work; the
    // stages are not equal (the first holds the embedding, the last the head), and with one
    // micro-batch the step is exactly the sum of the stages.
    double stagesTotal = 0;
    for (double s : r.stageSeconds)
        stagesTotal += s;
    r.bubbleSeconds = layout.pp > 1 ? (stagesTotal - busiest) / m : 0;

    const double bw = gpu.interconnectBandwidthGBps, lat = gpu.interconnectLatencyUs;
    const double activationBytes = double(micro.batch) * double(options.seq) * double(config.hidden) * kFloatBytes;
    const long long layersPerStage = (config.layers + config.decoderLayers) / layout.pp;
    if (layout.tp > 1) {
        // Megatron: one all-reduce after attention and one after the MLP, in forward and (for
        // training) again in backward, per layer of a stage, per micro-batch. On the step's path:
        // the busiest stage's m micro-batches, and one micro-batch slot of every other stage in
        // the fill and drain, as the bubble counts their kernels. Counting the busiest stage's
        // alone made a pipeline of one micro-batch faster than no pipeline (gpt3_13 at TP 2 on
        // PCIe: 8.16 s, 7.95 s at PP 2), as if the other stages' all-reduces were free.
        // A checkpointed layer runs its forward twice, and its all-reduces with it.
        const double perPass = 2, passes = options.training ? (options.checkpointing ? 3 : 2) : 1;
        const double perLayer = perPass * passes * ringAllReduceSeconds(activationBytes, layout.tp, bw, lat);
        r.tensorCommSeconds = perLayer * double(layersPerStage) * (m + p - 1);
    }
    if (layout.pp > 1) {
        // Each micro-batch crosses p - 1 stage boundaries forward (and its gradient backward).
        const double hops = (options.training ? 2 : 1) * (p - 1);
        r.pipelineCommSeconds = hops * m * sendReceiveSeconds(activationBytes, bw, lat);
    }
    r.step.memory = zeroShardedMemory(stageMemory(r.perGpu.memory, layout, options.training, totalLayers), layout,
                                      totalLayers);
    if (layout.dp > 1 && options.training) { // each stage's replicas at once: the largest stage's gradients
        const double gradientBytes = r.step.memory.parametersCount * kFloatBytes;
        // An all-reduce is a reduce-scatter and an all-gather. ZeRO 1 and 2 move the same bytes
        // (the gradients' shards reduced, the updated weights gathered); ZeRO 3 gathers the
        // weights twice, for the forward and again for the backward, then reduce-scatters the
        // gradients: half as much again. Like the all-reduce, nothing of it is taken as hidden
        // behind compute.
        r.dataCommSeconds = (layout.zero >= 3 ? 1.5 : 1.0) * ringAllReduceSeconds(gradientBytes, layout.dp, bw, lat);
    }
    r.step.commSeconds = r.commSeconds();
    r.step.bubbleSeconds = r.bubbleSeconds;
    return r;
}

} // namespace gpuforecast
