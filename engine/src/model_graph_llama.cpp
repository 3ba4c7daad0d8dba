// LLaMA-style decoders (llama, mistral, qwen2, qwen3, mixtral, gemma, phi3): Hugging Face eager
// attention, FP32. No reference trace exists for them; the graph follows the modelling code
// operator by operator and applies the same backward rules as the traced families. Mistral's and
// Phi-3's sliding windows only change the mask in eager mode, not the shapes, so they need nothing
// here. Gemma differs from Llama in its GeGLU activation and its embeddings scaled by
// sqrt(hidden); Phi-3 in its fused projections (qkv_proj, gate_up_proj), whose outputs the model
// slices as views; Qwen3 in an RMSNorm over each query and key head (q_norm, k_norm) before rotary.
#include "model_graph_builder.h"

#include <utility>

namespace gpuforecast::graph {
namespace {

// q * cos + rotate_half(q) * sin, rotate_half(x) = cat(-x2, x1): five kernels on [rows, d].
// Phi-3 rotates the first rotaryFraction of each head and joins the rest back with one more cat,
// which copies the whole head even when nothing passes through (all of Phi-3-mini's dimensions).
void rotary(Builder& g, const std::string& p, const ModelConfig& c, long long rows)
{
    const long long d = c.headDim, r = c.rotatedDims();
    g.beginChain();
    g.vec(p + ".cos", "mul", rows, r);
    g.vec(p + ".negate_half", "mulu", rows, r / 2);
    g.copy(p + ".rotate_half", "cat", {{rows, r / 2}, {rows, r / 2}}, {rows, r});
    g.vec(p + ".sin", "mul", rows, r);
    g.vec(p + ".add", "add", rows, r);
    g.endChain();
    if (c.family == "phi3")
        g.copy(p + ".join_pass", "cat", {{rows, r}, {rows, d - r}}, {rows, d});
}

// SwiGLU feed-forward on `rows` tokens: down(act(gate(x)) * up(x)).
void gatedMlp(Builder& g, const std::string& p, const ModelConfig& c, long long rows)
{
    if (c.fusedProjections) { // Phi-3: one GEMM, chunked in two views
        g.linear(p + ".gate_up", rows, c.hidden, 2 * c.intermediate, c.mlpBias);
    } else {
        g.linear(p + ".gate", rows, c.hidden, c.intermediate, c.mlpBias);
        g.linear(p + ".up", rows, c.hidden, c.intermediate, c.mlpBias);
    }
    g.beginChain();
    activation(g, p + ".act", c.activation, rows, c.intermediate);
    g.vec(p + ".gate_mul", "mul", rows, c.intermediate);
    g.endChain();
    g.linear(p + ".down", rows, c.intermediate, c.hidden, c.mlpBias);
}

// Mixtral's sparse block: softmax router, top-k, then a loop over experts that gathers the
// tokens routed to each, runs its SwiGLU MLP, weights and scatter-adds the result. Routing is
// assumed balanced: each expert receives tokens * k / experts rows (the remainder spread one row
// at a time), which is what the load-balancing loss trains for; real batches are uneven.
void moe(Builder& g, const ModelConfig& c, long long T, long long layers)
{
    const long long E = c.experts, k = c.expertsPerToken, H = c.hidden;
    g.linear("moe.router", T, H, E, false);
    g.vec("moe.router_softmax", "softmax", T, E);
    g.copy("moe.topk", "topk", {{T, E}}, {T, k});
    g.vec("moe.renormalize", "div", T, k);
    g.copy("moe.expert_mask", "one_hot", {{T, k}}, {E, k, T});
    const long long assigned = T * k, base = assigned / E, extra = assigned % E;
    for (auto [rows, experts] : {std::pair{base + 1, extra}, std::pair{base, E - extra}}) {
        if (rows == 0 || experts == 0)
            continue;
        g.section(layers * experts, true, double(k) / double(E));
        g.copy("moe.expert.gather", "index_select", {{rows, H}}, {rows, H});
        gatedMlp(g, "moe.expert", c, rows);
        g.vec("moe.expert.weight", "mul", rows, H);
        g.copy("moe.expert.scatter_add", "index_add", {{rows, H}}, {rows, H});
    }
    g.section(layers, true);
}

} // namespace

void buildLlama(const ModelConfig& c, Builder& g, long long B, long long S)
{
    const long long T = B * S, H = c.hidden, nh = c.heads, kv = c.kvHeads, d = c.headDim;
    const long long rows = B * nh * S;
    // Llama's attention_bias covers all four projections; Qwen2 has biases on q, k, v only.
    const bool oBias = c.attentionBias && c.family != "qwen2";

    g.section(1, false);
    g.embedding("embed.tokens", {B, S}, {B, S, H}, c.vocab, H);
    if (c.scaledEmbedding) // Gemma: times a 0-d tensor, sqrt(hidden)
        g.vec("embed.scale", "mulu", T, H);
    // The additive causal mask is built once per step; it is not differentiated.
    g.memory("mask.causal", "causal_mask", {{B, S}, {B, 1, S, S}}, {});

    g.section(c.layers, true);
    g.vec("attn.norm", "rmsnorm", T, H);
    if (c.fusedProjections) {
        g.linear("attn.qkv", T, H, (nh + 2 * kv) * d, c.attentionBias);
    } else {
        g.linear("attn.q", T, H, nh * d, c.attentionBias);
        g.linear("attn.k", T, H, kv * d, c.attentionBias);
        g.linear("attn.v", T, H, kv * d, c.attentionBias);
    }
    if (c.headNorms) {
        g.vec("attn.q_norm", "rmsnorm", T * nh, d);
        g.vec("attn.k_norm", "rmsnorm", T * kv, d);
    }
    rotary(g, "attn.rope_q", c, rows);
    rotary(g, "attn.rope_k", c, B * kv * S);
    if (kv < nh) { // repeat_kv: expand + reshape copies each kv head to its query group
        g.copy("attn.repeat_k", "repeat_kv", {{B, kv, S, d}}, {B, nh, S, d});
        g.copy("attn.repeat_v", "repeat_kv", {{B, kv, S, d}}, {B, nh, S, d});
    }
    g.bmm("attn.scores", B * nh, S, d, S);
    g.beginChain();
    g.vec("attn.scale", "divu", rows, S);
    g.vec("attn.mask", "add", rows, S);
    g.vec("attn.softmax", "softmax", rows, S);
    g.endChain();
    g.bmm("attn.context", B * nh, S, S, d);
    g.copy("attn.merge_heads", "contiguous", {{B, S, nh, d}}, {B, S, nh, d});
    g.linear("attn.o", T, nh * d, H, oBias);
    g.vec("attn.residual", "add", T, H);
    g.vec("mlp.norm", "rmsnorm", T, H);
    if (c.experts > 0)
        moe(g, c, T, c.layers);
    else
        gatedMlp(g, "mlp", c, T);
    g.vec("mlp.residual", "add", T, H);

    g.section(1, false);
    g.vec("final_norm", "rmsnorm", T, H);
    g.linear("lm_head", T, H, c.vocab, false, c.tiedHead);
}

} // namespace gpuforecast::graph
