// BERT encoder, eager, as the reference traces run it (opgraphs/bert_large-*): inference is
// BertForSequenceClassification (pooler + 2-way classifier), training is BertForPreTraining
// (masked-LM head + next-sentence head), whatever architectures[] in the config says.
#include "model_graph_builder.h"

namespace gpuforecast::graph {
namespace {

// Residual dropout, add and post-LayerNorm: one chain, which fusion merges into one kernel.
void addAndNorm(Builder& g, const std::string& prefix, long long b, long long s, long long h)
{
    g.beginChain();
    g.dropout(prefix + ".dropout", {b, s, h});
    g.vec(prefix + ".residual", "add", b * s, h);
    g.vec(prefix + ".ln", "ln", b * s, h);
    g.endChain();
}

} // namespace

void buildBert(const ModelConfig& c, Builder& g, long long B, long long S)
{
    const long long T = B * S, H = c.hidden, nh = c.heads, d = c.headDim, I = c.intermediate;
    const long long P = c.maxPositions;
    const long long A = nh * d; // attention width: H unsharded, H / tp on one tensor-parallel GPU
    constexpr bool kBias = true;

    g.section(1, false);
    // Buffers of token types and positions sliced to the sequence, and the attention mask
    // broadcast to [B, 1, 1, S] and turned into additive form ((1 - mask) * min; the subtraction
    // is not listed by the trace).
    g.copy("embed.token_type_slice", "getitem", {{1, P}, {1}}, {1, S});
    g.copy("mask.expand", "getitem", {{B, S}}, {B, 1, 1, S});
    g.beginChain();
    g.vec("mask.scale", "mulu", B, S);
    g.endChain();
    g.copy("embed.position_slice", "getitem", {{1, P}, {1}}, {1, S});
    // Word gather (listed), token-type and position gathers (not listed), their adds, LayerNorm.
    g.beginChain();
    g.embedding("embed.words", {B, S}, {B, S, H}, c.vocab, H);
    g.vec("embed.add_token_types", "add", T, H);
    g.vec("embed.add_positions", "add", T, H);
    g.vec("embed.ln", "ln", T, H);
    g.dropout("embed.dropout", {B, S, H});
    g.endChain();

    g.section(c.layers, true);
    g.linear("attn.q", T, H, A, kBias);
    g.linear("attn.k", T, H, A, kBias);
    g.linear("attn.v", T, H, A, kBias);
    g.bmm("attn.scores", B * nh, S, d, S);
    g.beginChain();
    g.vec("attn.scale", "divu", B * nh * S, S);
    g.vec("attn.mask", "add", B * nh * S, S);
    g.vec("attn.softmax", "softmax", B * nh * S, S);
    g.dropout("attn.probs_dropout", {B, nh, S, S}); // not the residual branch's attn.dropout
    g.endChain();
    g.bmm("attn.context", B * nh, S, S, d);
    g.copy("attn.merge_heads", "contiguous", {{B, S, nh, d}}, {B, S, nh, d});
    g.linear("attn.out", T, A, H, kBias);
    addAndNorm(g, "attn", B, S, H);
    g.linear("mlp.fc", T, H, I, kBias);
    g.beginChain();
    activation(g, "mlp.act", c.activation, T, I);
    g.endChain();
    g.linear("mlp.out", T, I, H, kBias);
    addAndNorm(g, "mlp", B, S, H);

    g.section(1, false);
    g.copy("pooler.first_token", "getitem", {{B, S, H}}, {B, H});
    g.linear("pooler.dense", B, H, H, kBias);
    // BertPooler uses tanh; the trace labels it by its module name (an activation module), whose
    // backward is one kernel, so tanh here has a one-kernel backward too.
    g.activationModule("pooler.act", "tanh", B, H);
    if (!g.training()) {
        g.linear("classifier", B, H, 2, kBias);
        return;
    }
    g.linear("mlm.transform", T, H, H, kBias);
    activation(g, "mlm.act", c.activation, T, H);
    g.vec("mlm.ln", "ln", T, H);
    g.linear("mlm.decoder", T, H, c.vocab, kBias, c.tiedHead);
    g.linear("nsp.classifier", B, H, 2, kBias);
}

} // namespace gpuforecast::graph
