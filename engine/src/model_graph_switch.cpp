// Switch Transformer (SwitchTransformersForConditionalGeneration), eager, as the reference traces
// run it (opgraphs/switchxl4-*): a T5 encoder-decoder whose every sparse_step-th feed-forward layer
// is a top-1 mixture of experts. The traced model gives each expert a fixed buffer of
// batch x expert_capacity rows, so expert GEMMs have that many rows whatever the routing; only the
// copies in and out of the buffer depend on how many tokens the router actually sent.
#include "model_graph_builder.h"

#include <algorithm>

namespace gpuforecast::graph {
namespace {

struct Dims {
    long long B, S, T, H, nh, d, inner, F, E, cap, routed;
};

// T5LayerNorm: x * rsqrt(mean(x^2) + eps) * weight, one kernel per operator.
void t5Norm(Builder& g, const std::string& p, const Dims& x)
{
    g.vec(p + ".square", "powu", x.T, x.H);
    g.copy(p + ".mean", "mean", {{x.B, x.S, x.H}}, {x.B, x.S, 1});
    g.vec(p + ".eps", "addu", x.T, 1);
    g.memory(p + ".rsqrt", "rsqrt", {{x.B, x.S, 1}, {x.B, x.S, 1}}, {{{x.B, x.S, 1}, {x.B, x.S, 1}}});
    g.weightGradient(p + ".weight", x.H);
    g.beginChain();
    g.vec(p + ".normalize", "mul", x.T, x.H);
    g.vec(p + ".scale", "mul", x.T, x.H);
    g.endChain();
}

void residual(Builder& g, const std::string& p, const Dims& x)
{
    g.beginChain();
    g.dropout(p + ".dropout", {x.B, x.S, x.H});
    g.vec(p + ".residual", "add", x.T, x.H);
    g.endChain();
}

// T5's relative position buckets for a [S, S] grid, then the bias lookup. The reference sizes the
// lookup's gradient by the vocabulary (vocab x heads) instead of the buckets; we follow it.
void relativeBias(Builder& g, const std::string& p, const Dims& x, bool bidirectional, long long vocab)
{
    const long long S = x.S;
    g.copy(p + ".positions_q", "getitem", {{S}}, {S, 1});
    g.copy(p + ".positions_k", "getitem", {{S}}, {1, S});
    if (bidirectional) {
        g.vec(p + ".direction", "mulu", S, S);
        g.vec(p + ".direction_add", "addu", S, S);
    }
    g.vec(p + ".log_scale", "divu", S, S);
    g.vec(p + ".log_norm", "divu", S, S);
    g.vec(p + ".log_buckets", "mulu", S, S);
    g.vec(p + ".large_offset", "addu", S, S);
    g.copy(p + ".select", "where", {{S, S}, {S, S}, {S, S}}, {S, S});
    g.vec(p + ".buckets", bidirectional ? "add" : "addu", S, S);
    g.embedding(p + ".lookup", {S, S}, {S, S, x.nh}, vocab, x.nh);
}

void attention(Builder& g, const std::string& p, const Dims& x, bool first, bool selfAttention, bool decoder,
               long long vocab)
{
    const long long rows = x.B * x.nh * x.S;
    t5Norm(g, p + ".norm", x);
    for (const char* proj : {".q", ".k", ".v"})
        g.linear(p + proj, x.T, x.H, x.inner, true);
    g.bmm(p + ".scores", x.B * x.nh, x.S, x.d, x.S);
    if (first) {
        if (selfAttention)
            relativeBias(g, p + ".relative", x, !decoder, vocab);
        g.vec(p + ".bias_mask", "add", rows, x.S); // position bias + attention mask, once per stack
    }
    g.beginChain();
    if (selfAttention) {
        // The relative position bias is the embedding lookup [S, S, heads] permuted to
        // [1, heads, S, S], plus the mask; the sum keeps the permuted layout (heads innermost),
        // so every later `scores += bias` reads it transposed. One pass over the [S, S] keys x
        // queries of one head touches S x S sectors before the next head reuses them.
        g.vec(p + ".add_bias", "add", rows, x.S, 32.0 * double(x.S) * double(x.S));
    } else {
        g.vec(p + ".add_bias", "add", rows, x.S); // cross attention: zeros + mask, contiguous
    }
    g.vec(p + ".softmax", "softmax", rows, x.S);
    g.dropout(p + ".probs_dropout", {x.B, x.nh, x.S, x.S}); // not the residual branch's .dropout
    g.endChain();
    g.bmm(p + ".context", x.B * x.nh, x.S, x.S, x.d);
    g.copy(p + ".merge_heads", "contiguous", {{x.B, x.S, x.nh, x.d}}, {x.B, x.S, x.nh, x.d});
    g.linear(p + ".o", x.T, x.inner, x.H, true);
    residual(g, p, x);
}

void expertMlp(Builder& g, const std::string& p, const Dims& x, long long rows)
{
    g.linear(p + ".wi", rows, x.H, x.F, true);
    g.activationModule(p + ".act", "relu", rows, x.F);
    g.dropout(p + ".act_dropout", {rows, x.F}); // not the residual branch's .dropout
    g.linear(p + ".wo", rows, x.F, x.H, true);
}

// Top-1 routing. `routed` tokens per expert assumes the router spreads tokens evenly (what its
// load-balancing loss trains for); the reference's counts come from one random-weight run.
void sparseMlp(Builder& g, const std::string& p, const Dims& x, long long blocks)
{
    if (g.training())
        g.vec(p + ".jitter", "mul", x.T, x.H);
    g.linear(p + ".router", x.T, x.H, x.E, true);
    g.vec(p + ".router_softmax", "softmax", x.T, x.E);
    g.copy(p + ".capacity_cumsum", "cumsum", {{x.B, x.S, x.E}}, {x.B, x.S, x.E});
    g.vec(p + ".capacity_mask", "mul", x.T, x.E);
    g.section(blocks * x.E, true, 1.0 / double(x.E)); // the same kernels for every expert; top-1
    const std::string e = p + ".expert";
    g.copy(e + ".select_mask", "getitem", {{x.B, x.S, x.E}}, {x.B, x.S});
    g.copy(e + ".count", "count", {{x.B, x.S}}, {1});
    g.copy(e + ".gather", "getitem", {{x.B, x.S, x.H}, {x.B, x.S}}, {x.routed, x.H});
    g.copy(e + ".fill_buffer", "setitem", {{x.cap, x.H}, {1}, {x.routed, x.H}}, {1});
    expertMlp(g, e, x, x.cap);
    g.copy(e + ".take_buffer", "getitem", {{x.cap, x.H}, {1}}, {x.routed, x.H});
    g.copy(e + ".scatter", "setitem", {{x.B, x.S, x.H}, {x.B, x.S}, {x.routed, x.H}}, {1});
    g.section(blocks, true);
    g.vec(p + ".combine", "mul", x.T, x.H);
}

void block(Builder& g, const std::string& p, const Dims& x, bool first, bool sparse, bool decoder, long long vocab,
           long long count)
{
    g.section(count, true);
    attention(g, p + ".self", x, first, true, decoder, vocab);
    if (decoder)
        attention(g, p + ".cross", x, first, false, decoder, vocab);
    t5Norm(g, p + ".mlp.norm", x);
    if (sparse)
        sparseMlp(g, p + ".moe", x, count);
    else
        expertMlp(g, p + ".mlp", x, x.T);
    residual(g, p + ".mlp", x);
}

// Blocks 0 (which owns the relative bias), dense and sparse, each emitted once with its count.
long long stack(Builder& g, const std::string& p, const Dims& x, long long layers, long long step, bool decoder,
                long long vocab)
{
    auto sparseAt = [&](long long i) { return step > 0 && (step == 1 || i % step == 1); };
    long long sparse = 0;
    for (long long i = 1; i < layers; ++i)
        sparse += sparseAt(i) ? 1 : 0;
    block(g, p + ".block0", x, true, sparseAt(0), decoder, vocab, 1);
    block(g, p + ".dense", x, false, false, decoder, vocab, layers - 1 - sparse);
    block(g, p + ".sparse", x, false, true, decoder, vocab, sparse);
    g.section(1, false);
    t5Norm(g, p + ".final_norm", x);
    g.dropout(p + ".final_dropout", {x.B, x.S, x.H});
    return sparse + (sparseAt(0) ? 1 : 0);
}

// Router z-loss and load-balancing loss over all sparse layers of a stack.
void auxLosses(Builder& g, const std::string& p, const Dims& x, long long sparseLayers)
{
    if (sparseLayers == 0)
        return;
    const long long tokens = sparseLayers * x.S;
    g.vec(p + ".z_loss", "powu", x.B, tokens);
    g.vec(p + ".balance_softmax", "softmax", x.B * tokens, x.E);
    g.copy(p + ".tokens_per_expert", "mean", {{x.B, tokens, x.E}}, {x.B, x.E});
    g.copy(p + ".prob_per_expert", "mean", {{x.B, tokens, x.E}}, {x.B, x.E});
    g.vec(p + ".balance", "mul", x.B, x.E);
    g.copy(p + ".balance_mean", "mean", {{x.B, x.E}}, {1});
}

} // namespace

void buildSwitch(const ModelConfig& c, Builder& g, long long B, long long S)
{
    Dims x{B, S, B * S, c.hidden, c.heads, c.headDim, c.attentionWidth(), c.intermediate, c.experts,
           B * c.expertCapacity, 0};
    x.routed = B * std::min(c.expertCapacity, S / c.experts);

    g.section(1, false);
    // Token embeddings (shared, looked up by encoder and decoder) are not listed by the trace.
    g.copy("encoder.mask_expand", "getitem", {{B, S}}, {B, 1, 1, S});
    g.vec("encoder.mask_scale", "mulu", B, S);
    g.dropout("encoder.embed_dropout", {B, S, c.hidden});
    const long long encoderSparse = stack(g, "encoder", x, c.encoderLayers, c.encoderSparseStep, false, c.vocab);

    g.section(1, false);
    g.copy("decoder.causal_q", "getitem", {{S}}, {1, 1, S});
    g.copy("decoder.causal_k", "getitem", {{S}}, {1, S, 1});
    g.copy("decoder.causal_expand", "getitem", {{B, S, S}}, {B, 1, S, S});
    g.copy("decoder.mask_expand", "getitem", {{B, S}}, {B, 1, 1, S});
    g.vec("decoder.mask_combine", "mul", B * S, S);
    g.vec("decoder.mask_scale", "mulu", B * S, S);
    g.copy("decoder.encoder_mask_expand", "getitem", {{B, S}}, {B, 1, 1, S});
    g.vec("decoder.encoder_mask_scale", "mulu", B, S);
    g.dropout("decoder.embed_dropout", {B, S, c.hidden});
    const long long decoderSparse = stack(g, "decoder", x, c.decoderLayers, c.decoderSparseStep, true, c.vocab);

    g.section(1, false);
    g.vec("lm_head.rescale", "mulu", x.T, x.H); // tied embeddings: scale by d_model^-0.5
    g.linear("lm_head", x.T, x.H, c.vocab, true);
    auxLosses(g, "encoder.aux", x, encoderSparse);
    auxLosses(g, "decoder.aux", x, decoderSparse);
}

} // namespace gpuforecast::graph
