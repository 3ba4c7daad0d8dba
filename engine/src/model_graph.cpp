// The recorder shared by all families, and the entry point that picks a family.
#include "gpuforecast/error.h"
#include "model_graph_builder.h"

#include <array>
#include <numeric>
#include <utility>

namespace gpuforecast {
namespace graph {
namespace {

constexpr double kFloat = 4; // FP32, as in every reference measurement

double bytesOf(const std::vector<Shape>& shapes)
{
    double n = 0;
    for (const auto& s : shapes)
        n += elements(s);
    return kFloat * n;
}

bool isUnary(const std::string& op) { return !op.empty() && op.back() == 'u'; } // addu, mulu, divu, powu

} // namespace

double elements(const Shape& s)
{
    return std::accumulate(s.begin(), s.end(), 1.0, [](double a, long long d) { return a * double(d); });
}

void Builder::section(long long count, bool perLayer, double tokenShare)
{
    count_ = count;
    perLayer_ = perLayer;
    tokenShare_ = tokenShare;
}

void Builder::add(const std::string& node, Phase phase, Kernel kernel, const char* part)
{
    if (count_ > 0)
        out_.push_back(GraphKernel{node, phase, std::move(kernel), count_, perLayer_, false, tokenShare_, part});
}

void Builder::forward(const std::string& node, Kernel kernel, const std::string& member)
{
    if (inChain_ && fusion())
        chain_.push_back(Pending{node, std::move(kernel), member});
    else
        add(node, Phase::Forward, std::move(kernel));
}

void Builder::linear(const std::string& node, long long m, long long n, long long k, bool bias, bool tiedWeight)
{
    add(node, Phase::Forward, Kernel::gemm("linear", 1, m, n, k));
    if (!training())
        return;
    add(node, Phase::Backward, Kernel::gemm("linear", 1, m, k, n), "grad input");
    add(node, Phase::Backward, Kernel::gemm("linear", 1, k, m, n), "grad weight");
    const std::size_t before = out_.size(); // add() records nothing in a section that runs 0 times
    add(node, Phase::Accumulate, Kernel::vector("add", 1, n * k), bias ? "weight" : "");
    if (tiedWeight && out_.size() > before)
        out_.back().sharedParameter = true;
    if (bias)
        add(node, Phase::Accumulate, Kernel::vector("add", 1, k), "bias");
}

void Builder::bmm(const std::string& node, long long b, long long m, long long n, long long k)
{
    add(node, Phase::Forward, Kernel::gemm("bmm", b, m, n, k));
    if (!training())
        return;
    add(node, Phase::Backward, Kernel::gemm("bmm", b, m, k, n), "grad A");
    add(node, Phase::Backward, Kernel::gemm("bmm", b, n, m, k), "grad B");
}

void Builder::vec(const std::string& node, const std::string& op, long long rows, long long h,
                  double transposedReuseBytes)
{
    if (rows == 1 && h == 1)
        return;
    Kernel k = Kernel::vector(op, rows, h);
    k.transposedReuseBytes = transposedReuseBytes;
    forward(node, std::move(k), op);
    if (training())
        backwardVec(node, op, rows, h);
}

void Builder::backwardVec(const std::string& node, const std::string& op, long long rows, long long h)
{
    // A binary operator's two backward kernels, one per tensor input, are alike but for which input
    // they serve; a chain of different operators is told apart by the operator (a `mul`'s two had
    // both read "bw", a softmax's "bw" beside "bw").
    static const char* const perInput[] = {"grad A", "grad B"};
    const int inputs = isUnary(op) ? 1 : 2;
    auto part = [&](int i) { return inputs > 1 ? perInput[i] : ""; };
    auto bw = [&](const char* o, const char* which) { add(node, Phase::Backward, Kernel::vector(o, rows, h), which); };
    auto chain = [&](std::initializer_list<const char*> ops) {
        for (const char* o : ops)
            bw(o, o);
    };
    if (op == "add" || op == "addu") {
        for (int i = 0; i < inputs; ++i)
            add(node, Phase::Backward, Kernel::memory("add_grad", kFloat * double(rows) * double(h)), part(i));
    } else if (op == "mul" || op == "mulu" || op == "div" || op == "divu") {
        for (int i = 0; i < inputs; ++i)
            bw(op.c_str(), part(i));
    } else if (op == "pow" || op == "powu") {
        chain({op.c_str(), "mul", "mulu"});
    } else if (op == "tanh") {
        chain({"mulu", "addu"});
    } else if (op == "softmax") {
        chain({"mul", "softmax"});
    } else if (op == "ln" || op == "rmsnorm") {
        bw("mul", "");
        add(node, Phase::Accumulate, Kernel::vector("add", 1, h), op == "ln" ? "weight" : "");
        if (op == "ln")
            add(node, Phase::Accumulate, Kernel::vector("add", 1, h), "bias");
    } else {
        bw(op.c_str(), ""); // gelu, relu, silu, ...: one kernel of the same kind
    }
}

void Builder::activationModule(const std::string& node, const std::string& op, long long rows, long long h)
{
    forward(node, Kernel::vector(op, rows, h), op);
    if (training())
        add(node, Phase::Backward, Kernel::vector(op, rows, h));
}

void Builder::memory(const std::string& node, const std::string& kind, const std::vector<Shape>& fw,
                     const std::vector<std::vector<Shape>>& backwardPasses, std::array<const char*, 2> passNames)
{
    forward(node, Kernel::memory(kind, bytesOf(fw)), "memory");
    if (!training())
        return;
    for (std::size_t i = 0; i < backwardPasses.size(); ++i)
        add(node, Phase::Backward, Kernel::memory(kind + "_grad", bytesOf(backwardPasses[i])),
            backwardPasses.size() == 2 ? passNames[i] : "");
}

void Builder::copy(const std::string& node, const std::string& kind, const std::vector<Shape>& inputs,
                   const Shape& output)
{
    std::vector<Shape> fw = inputs;
    fw.push_back(output);
    memory(node, kind, fw, {inputs, inputs});
}

void Builder::dropout(const std::string& node, const Shape& shape)
{
    if (training())
        copy(node, "dropout", {shape}, shape);
}

void Builder::embedding(const std::string& node, const Shape& ids, const Shape& output, long long tableRows,
                        long long width)
{
    const Shape table{tableRows, width};
    memory(node, "embedding", {ids, output}, {{table}, {table}}, {"fill", "scatter"});
    if (training())
        add(node, Phase::Accumulate, Kernel::vector("add", 1, tableRows * width));
}

void Builder::weightGradient(const std::string& node, long long n)
{
    if (training())
        add(node, Phase::Accumulate, Kernel::vector("add", 1, n));
}

void Builder::beginChain()
{
    inChain_ = true;
    chain_.clear();
}

void Builder::endChain()
{
    inChain_ = false;
    std::vector<std::string> members;
    const Kernel* last = nullptr; // the last arithmetic member sets the fused kernel's [rows, h]
    std::string node;
    for (const auto& p : chain_) {
        members.push_back(p.member);
        if (p.member != "memory")
            last = &p.kernel;
        node += (node.empty() ? "" : "+") + p.node;
    }
    if (members.size() < 2 || !last) {
        for (auto& p : chain_)
            add(p.node, Phase::Forward, std::move(p.kernel));
    } else {
        add(node, Phase::Forward, Kernel::fused(std::move(members), last->b, last->h));
    }
    chain_.clear();
}

std::vector<GraphKernel> Builder::take()
{
    return std::move(out_);
}

void activation(Builder& g, const std::string& node, const std::string& act, long long rows, long long h)
{
    if (act != "gelu_new") {
        g.vec(node, act, rows, h);
        return;
    }
    // 0.5 * x * (1 + tanh(sqrt(2 / pi) * (x + 0.044715 * x^3))), one kernel per operator.
    g.vec(node + ".half", "mulu", rows, h);
    g.vec(node + ".cube", "powu", rows, h);
    g.vec(node + ".cube_scale", "mulu", rows, h);
    g.vec(node + ".inner", "add", rows, h);
    g.vec(node + ".inner_scale", "mulu", rows, h);
    g.vec(node + ".tanh", "tanh", rows, h);
    g.vec(node + ".one_plus", "addu", rows, h);
    g.vec(node + ".product", "mul", rows, h);
}

} // namespace graph

std::string_view phaseName(Phase p)
{
    switch (p) {
    case Phase::Forward: return "fw";
    case Phase::Backward: return "bw";
    case Phase::Accumulate: return "acc";
    }
    return "fw";
}

std::string phaseLabel(const GraphKernel& k)
{
    return k.part.empty() ? std::string(phaseName(k.phase)) : std::string(phaseName(k.phase)) + ": " + k.part;
}

GraphCheck graphCheckOf(const ModelConfig& c)
{
    if (c.family == "gpt2" || c.family == "bert" || c.family == "opt" || c.family == "switch")
        return GraphCheck::NeuSightRuns;
    return GraphCheck::OurH200Runs; // the LLaMA-style builder (buildModelGraph refuses any other family)
}

std::vector<GraphKernel> buildModelGraph(const ModelConfig& c, const GraphOptions& o)
{
    const std::string where = c.id.empty() ? std::string("<model>") : c.id;
    if (o.batch < 1 || o.batch > kMaxBatch)
        throwInputError(where, "batch", "expected a whole number in [1, " + std::to_string(kMaxBatch) + "], got " + std::to_string(o.batch));
    if (o.seq < 1 || o.seq > kMaxSeq)
        throwInputError(where, "seq", "expected a whole number in [1, " + std::to_string(kMaxSeq) + "], got " + std::to_string(o.seq));
    if (c.learnedPositions && o.seq > c.maxPositions) {
        // A config read from a file is named by it, as every other error about the file is (the
        // model's name alone, "mybert", left the user to find which file said 512).
        throwInputError(c.errorSource(), "seq",
                        std::to_string(o.seq) + " tokens exceed the model's " + std::to_string(c.maxPositions) +
                            " learned positions (its " + (c.family == "gpt2" ? "n_positions" : "max_position_embeddings") + ")");
    }

    graph::Builder g(o);
    if (c.family == "gpt2")
        graph::buildGpt2(c, g, o.batch, o.seq);
    else if (c.family == "bert")
        graph::buildBert(c, g, o.batch, o.seq);
    else if (c.family == "opt")
        graph::buildOpt(c, g, o.batch, o.seq);
    else if (c.family == "switch")
        graph::buildSwitch(c, g, o.batch, o.seq);
    else if (c.family == "llama" || c.family == "mistral" || c.family == "mixtral" || c.family == "qwen2" ||
             c.family == "qwen3" || c.family == "gemma" || c.family == "phi3")
        graph::buildLlama(c, g, o.batch, o.seq);
    else
        throwInputError(where, "family", "no graph builder for model family '" + c.family + "'");

    auto kernels = g.take();
    // Dimensions are products of validated config fields and batch x seq; a kernel that still
    // falls outside what the forecaster handles means the step itself is too large.
    for (const auto& k : kernels) {
        try {
            validateKernel(k.kernel, k.node);
        } catch (const ForecastError& e) {
            // Too large at one token, it is the model (a 10^6-wide embedding table), not the step.
            // Named by the fields that size it: "model" and a kernel's dimension left the user to
            // work out that a 16M vocabulary times the width was the cause.
            if (o.batch == 1 && o.seq == 1) {
                const bool table = k.node.rfind("embed", 0) == 0 || k.node == "lm_head";
                const char* width = c.family == "gpt2"     ? "n_embd"
                                    : c.family == "opt"    ? "word_embed_proj_dim"
                                    : c.family == "switch" ? "d_model"
                                                           : "hidden_size";
                throwInputError(c.errorSource(), table ? std::string("vocab_size x ") + width : std::string("its widths"),
                                std::string("the model is too large to forecast, even for one token (") + e.what() + ")");
            }
            GraphOptions oneToken = o;
            oneToken.batch = oneToken.seq = 1;
            buildModelGraph(c, oneToken); // throws the message above when the model is the cause
            // Said in the numbers the user gave: the kernel dimension alone ("attn.scale: b: ...
            // got 10240000000") named nothing they had typed.
            throwInputError(c.errorSource(), "batch x seq",
                            "batch " + std::to_string(o.batch) + " x seq " + std::to_string(o.seq) +
                                " is too large to forecast: a kernel of the step would exceed what one kernel "
                                "can address; lower the batch or the sequence (" + e.what() + ")");
        }
    }
    if (o.training && o.checkpointing) {
        // Each layer's forward launches again, as launched (fused or not), before its backward;
        // placed beside the forward so the layers stay one run for the pipeline's stages.
        std::vector<GraphKernel> withRecompute;
        withRecompute.reserve(kernels.size() * 2);
        for (auto& k : kernels) {
            const bool again = k.perLayer && k.phase == Phase::Forward;
            withRecompute.push_back(k);
            if (again) {
                GraphKernel recompute = k;
                recompute.phase = Phase::Backward;
                recompute.part = k.part.empty() ? "recompute" : "recompute: " + k.part;
                withRecompute.push_back(std::move(recompute));
            }
        }
        kernels = std::move(withRecompute);
    }
    return kernels;
}

std::vector<long long> layersBefore(const std::vector<GraphKernel>& graph, const ModelConfig& config)
{
    const long long stackLayers[] = {config.layers, config.decoderLayers}; // runs of layers, in graph order
    std::vector<long long> out;
    out.reserve(graph.size());
    long long stacksBegun = 0, layersEnded = 0;
    bool inStack = false;
    for (const auto& k : graph) {
        if (k.perLayer && !inStack) // a stack begins
            ++stacksBegun;
        if (!k.perLayer && inStack) // a stack ends
            layersEnded += stackLayers[std::min<long long>(stacksBegun - 1, 1)];
        inStack = k.perLayer;
        out.push_back(layersEnded);
    }
    return out;
}

ParametersBesideTheGraph parametersBesideTheGraph(const ModelConfig& c)
{
    if (c.family == "gpt2") // wpe; the LM head has no bias
        return {c.maxPositions * c.hidden, -c.vocab};
    if (c.family == "bert") // position and token-type tables
        return {(c.maxPositions + c.tokenTypes) * c.hidden, 0};
    if (c.family == "opt") { // OPT's position table keeps two rows more (its padding offset)
        const bool projected = c.wordProjection != c.hidden; // project_in/out have no biases
        return {(c.maxPositions + 2) * c.hidden - (projected ? c.hidden : 0), -c.vocab - (projected ? c.wordProjection : 0)};
    }
    return {};
}

} // namespace gpuforecast
