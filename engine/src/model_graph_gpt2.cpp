// GPT-2 (and the GPT-3 shapes written as GPT-2 configs): Hugging Face GPT2LMHeadModel, eager.
// Kernel for kernel what the reference traces list (opgraphs/gpt2_large-*, gpt3_*): Conv1D
// projections as addmm, attention scaled by a 0-d tensor (the trace's two-input div, which reads
// one full tensor: NeuSight's own traces time it like the softmax), the causal mask applied
// with torch.where on a slice of the (n_positions x n_positions) bias buffer.
#include "model_graph_builder.h"

namespace gpuforecast::graph {
namespace {

// The residual branch's dropout and add. Kept together because fusion merges them.
void residual(Builder& g, const std::string& prefix, long long b, long long s, long long h)
{
    g.dropout(prefix + ".dropout", {b, s, h});
    g.vec(prefix + ".residual", "add", b * s, h);
}

} // namespace

void buildGpt2(const ModelConfig& c, Builder& g, long long B, long long S)
{
    const long long T = B * S, H = c.hidden, nh = c.heads, d = c.headDim, I = c.intermediate;
    const long long P = c.maxPositions;
    const long long A = nh * d; // attention width: H unsharded, H / tp on one tensor-parallel GPU
    // NeuSight lists a bias gradient for every Linear; GPT-2's lm_head has none, but we keep the
    // reference's convention so graphs and measured step times stay comparable.
    constexpr bool kBias = true;

    g.section(1, false);
    // Token lookup; the position lookup (wpe) is a gather the trace does not list (its module
    // name matches no rule there), the add of the two is.
    g.beginChain();
    g.embedding("embed.tokens", {B, S}, {B, S, H}, c.vocab, H);
    g.vec("embed.add_positions", "add", T, H);
    g.dropout("embed.dropout", {B, S, H});
    g.endChain();

    g.section(c.layers, true);
    g.vec("ln_1", "ln", T, H);
    g.linear("attn.qkv", T, H, 3 * A, kBias);
    // split() returns views, yet the trace lists each getitem of the split as a copy of its
    // output; we keep them so memory traffic matches the reference.
    for (const char* part : {"attn.split_q", "attn.split_k", "attn.split_v"})
        g.copy(part, "getitem", {{1}}, {B, S, A});
    g.bmm("attn.scores", B * nh, S, d, S);
    // torch.compile turns scale, causal mask and softmax into one kernel that reads the scores once
    // (inductor's fused softmax-div-where reduction). NeuSight's reference fusion graphs end the
    // chain at the `where` and list three kernels; the measured -fusion runs are 11% faster than
    // eager, which three kernels would not explain (docs/accuracy.md).
    g.beginChain();
    g.vec("attn.scale", "divu", B * nh * S, S); // / torch.full([], sqrt(d)): a scalar operand
    g.copy("attn.causal_slice", "getitem", {{1, 1, P, P}, {1}, {1}}, {1, 1, S, S});
    g.copy("attn.causal_mask", "where", {{1, 1, S, S}, {B, nh, S, S}, {1}}, {B, nh, S, S});
    g.vec("attn.softmax", "softmax", B * nh * S, S);
    g.dropout("attn.probs_dropout", {B, nh, S, S}); // not the residual branch's attn.dropout
    g.endChain();
    g.bmm("attn.context", B * nh, S, S, d);
    g.copy("attn.merge_heads", "contiguous", {{B, S, nh, d}}, {B, S, nh, d});
    g.linear("attn.proj", T, A, H, kBias);
    g.beginChain();
    residual(g, "attn", B, S, H);
    g.endChain();
    g.vec("ln_2", "ln", T, H);
    g.linear("mlp.fc", T, H, I, kBias);
    g.beginChain();
    activation(g, "mlp.act", c.activation, T, I);
    g.endChain();
    g.linear("mlp.proj", T, I, H, kBias);

    if (g.fusion()) {
        // The last block's residual add has one consumer, the final norm, so fusion merges them;
        // every other block's add also feeds the next residual and stays alone.
        g.section(c.layers - 1, true);
        g.beginChain();
        residual(g, "mlp", B, S, H);
        g.endChain();
        g.section(1, false);
        g.beginChain();
        residual(g, "mlp", B, S, H);
        g.vec("ln_f", "ln", T, H);
        g.endChain();
    } else {
        residual(g, "mlp", B, S, H);
        g.section(1, false);
        g.vec("ln_f", "ln", T, H);
    }
    g.linear("lm_head", T, H, c.vocab, kBias, c.tiedHead);
}

} // namespace gpuforecast::graph
