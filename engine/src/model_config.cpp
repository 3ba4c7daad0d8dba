#include "gpuforecast/model_config.h"

#include "gpuforecast/error.h"
#include "gpuforecast/file_io.h"
#include "gpuforecast/json_fields.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <filesystem>
#include <string_view>
#include <utility>

namespace gpuforecast {
namespace {

using json_fields::Context;
using nlohmann::json;

// Maxima far beyond any published model, chosen so that products of dimensions the graph forms
// (batch x seq x width, vocab x width, ...) stay well inside 64-bit integers and doubles' exact range.
constexpr long long kMaxLayers = 1 << 14;
constexpr long long kMaxWidth = 1 << 20;
constexpr long long kMaxHeads = 1 << 14;
constexpr long long kMaxVocab = 1 << 24;
constexpr long long kMaxPositions = 1 << 24;
constexpr long long kMaxExperts = 1 << 12;

struct FamilyName {
    std::string_view modelType; // config.json model_type
    std::string_view archPrefix; // class name prefix in architectures[]
    std::string_view family;
};
constexpr std::array<FamilyName, 11> kFamilies{{{"gpt2", "GPT2", "gpt2"},
                                               {"bert", "Bert", "bert"},
                                               {"opt", "OPT", "opt"},
                                               {"switch_transformers", "SwitchTransformers", "switch"},
                                               {"llama", "Llama", "llama"},
                                               {"mistral", "Mistral", "mistral"},
                                               {"mixtral", "Mixtral", "mixtral"},
                                               {"qwen2", "Qwen2", "qwen2"},
                                               {"qwen3", "Qwen3", "qwen3"},
                                               {"gemma", "Gemma", "gemma"},
                                               {"phi3", "Phi3", "phi3"}}};

std::string supportedList()
{
    std::string s;
    for (const auto& f : kFamilies)
        s += (s.empty() ? "" : ", ") + std::string(f.modelType);
    return s;
}

// The family from model_type, or (older configs) from the architecture class name. Head suffixes
// are matched exactly so that e.g. Qwen2MoeForCausalLM is not mistaken for Qwen2.
std::string detectFamily(const json& j, const Context& ctx)
{
    if (const auto type = json_fields::optionalString(j, ctx, "model_type")) {
        for (const auto& f : kFamilies)
            if (f.modelType == *type)
                return std::string(f.family);
        throwInputError(ctx.source, "model_type", "unsupported model type '" + *type + "' (supported: " +
                                                      supportedList() + ")");
    }
    static constexpr std::array<std::string_view, 7> kHeads{
        "LMHeadModel", "Model", "ForCausalLM", "ForPreTraining", "ForMaskedLM", "ForSequenceClassification",
        "ForConditionalGeneration"};
    if (const auto it = j.find("architectures"); it != j.end() && it->is_array())
        for (const auto& a : *it)
            if (a.is_string())
                for (const auto& f : kFamilies)
                    for (auto head : kHeads)
                        if (a.get<std::string>() == std::string(f.archPrefix) + std::string(head))
                            return std::string(f.family);
    throwInputError(ctx.source, "model_type", "missing (and no supported class in architectures; supported: " +
                                                  supportedList() + ")");
}

bool optionalBool(const json& j, const Context& ctx, const std::string& key, bool fallback)
{
    const auto it = j.find(key);
    if (it == j.end() || it->is_null())
        return fallback;
    if (!it->is_boolean())
        throwInputError(ctx.source, key, "expected true or false, got " + json_fields::describeValue(*it));
    return it->get<bool>();
}

long long width(const json& j, const Context& ctx, const std::string& key)
{
    return json_fields::requireInteger(j, ctx, key, 1, kMaxWidth);
}

std::string activation(const json& j, const Context& ctx, const std::string& key, const std::string& fallback)
{
    const std::string a = json_fields::optionalString(j, ctx, key).value_or(fallback);
    if (a == "gelu_new" || a == "gelu" || a == "relu" || a == "silu")
        return a;
    if (a == "swish")
        return "silu";
    if (a == "gelu_pytorch_tanh" || a == "gelu_fast")
        return "gelu"; // one fused kernel in PyTorch, like exact gelu
    throwInputError(ctx.source, key, "unsupported activation '" + a + "' (supported: gelu_new, gelu, relu, silu)");
}

void readGpt2(ModelConfig& c, const json& j, const Context& ctx)
{
    c.layers = json_fields::requireInteger(j, ctx, "n_layer", 1, kMaxLayers);
    c.hidden = width(j, ctx, "n_embd");
    c.heads = json_fields::requireInteger(j, ctx, "n_head", 1, kMaxHeads);
    c.intermediate = json_fields::optionalInteger(j, ctx, "n_inner", 1, kMaxWidth).value_or(4 * c.hidden);
    c.vocab = json_fields::requireInteger(j, ctx, "vocab_size", 1, kMaxVocab);
    // transformers' GPT2Config defaults n_positions to 1024, and configs written before it had
    // the name give the same table as n_ctx: an old config was refused for a field it can do
    // without (a CLI review). An explicit null is still refused.
    if (j.contains("n_positions")) {
        c.maxPositions = json_fields::requireInteger(j, ctx, "n_positions", 1, kMaxPositions);
    } else if (j.contains("n_ctx")) {
        c.maxPositions = json_fields::requireInteger(j, ctx, "n_ctx", 1, kMaxPositions);
        c.assumed.push_back({"n_positions", c.maxPositions, "n_ctx, its older name"});
    } else {
        c.maxPositions = 1024;
        c.assumed.push_back({"n_positions", c.maxPositions, "transformers' gpt2 default"});
    }
    c.activation = activation(j, ctx, "activation_function", "gelu_new");
    c.learnedPositions = true;
}

void readBertOrOpt(ModelConfig& c, const json& j, const Context& ctx)
{
    c.layers = json_fields::requireInteger(j, ctx, "num_hidden_layers", 1, kMaxLayers);
    c.hidden = width(j, ctx, "hidden_size");
    c.heads = json_fields::requireInteger(j, ctx, "num_attention_heads", 1, kMaxHeads);
    c.vocab = json_fields::requireInteger(j, ctx, "vocab_size", 1, kMaxVocab);
    c.maxPositions = json_fields::requireInteger(j, ctx, "max_position_embeddings", 1, kMaxPositions);
    c.learnedPositions = true;
    if (c.family == "bert") {
        c.intermediate = width(j, ctx, "intermediate_size");
        c.activation = activation(j, ctx, "hidden_act", "gelu");
        c.tokenTypes = json_fields::optionalInteger(j, ctx, "type_vocab_size", 1, kMaxVocab).value_or(2);
    } else {
        c.intermediate = width(j, ctx, "ffn_dim");
        c.activation = activation(j, ctx, "activation_function", "relu");
        c.preLayerNorm = optionalBool(j, ctx, "do_layer_norm_before", true);
        c.wordProjection = json_fields::optionalInteger(j, ctx, "word_embed_proj_dim", 1, kMaxWidth).value_or(c.hidden);
    }
}

// Which blocks of a Switch stack are sparse, as transformers decides: the saved step where the
// file has one (every file transformers writes does), else the stack's layers over its number of
// sparse layers (transformers' default is 3 of them; 0 means a dense stack). More sparse layers
// than layers is refused, where transformers quietly builds a dense stack: it is a typo.
long long sparseStep(const json& j, const Context& ctx, const std::string& stack, long long layers)
{
    if (auto step = json_fields::optionalInteger(j, ctx, stack + "_sparse_step", 0, kMaxLayers))
        return *step;
    const long long sparse =
        json_fields::optionalInteger(j, ctx, "num_sparse_" + stack + "_layers", 0, layers).value_or(3);
    return sparse > 0 ? layers / sparse : 0;
}

void readSwitch(ModelConfig& c, const json& j, const Context& ctx)
{
    c.encoderLayers = json_fields::requireInteger(j, ctx, "num_layers", 1, kMaxLayers);
    // transformers' default when the field is absent is 12 decoder blocks; only an explicit null
    // means "as many as the encoder" (SwitchTransformersConfig.__init__).
    const bool decoderLeftOut = !j.contains("num_decoder_layers");
    const auto decoderLayers = json_fields::optionalInteger(j, ctx, "num_decoder_layers", 1, kMaxLayers);
    c.decoderLayers = decoderLayers.value_or(decoderLeftOut ? 12 : c.encoderLayers);
    if (!decoderLayers)
        c.assumed.push_back({"num_decoder_layers", c.decoderLayers,
                             decoderLeftOut ? "transformers' default" : "null: as many as the encoder, as transformers does"});
    c.layers = c.encoderLayers;
    c.hidden = width(j, ctx, "d_model");
    c.heads = json_fields::requireInteger(j, ctx, "num_heads", 1, kMaxHeads);
    c.headDim = json_fields::requireInteger(j, ctx, "d_kv", 1, kMaxWidth / c.heads);
    c.intermediate = width(j, ctx, "d_ff");
    c.vocab = json_fields::requireInteger(j, ctx, "vocab_size", 1, kMaxVocab);
    c.maxPositions = kMaxPositions; // relative positions: no table limits the length
    c.experts = json_fields::requireInteger(j, ctx, "num_experts", 1, kMaxExperts);
    c.expertsPerToken = 1; // Switch routing is top-1 by definition
    c.expertCapacity = json_fields::requireInteger(j, ctx, "expert_capacity", 1, kMaxPositions);
    c.encoderSparseStep = sparseStep(j, ctx, "encoder", c.encoderLayers);
    c.decoderSparseStep = sparseStep(j, ctx, "decoder", c.decoderLayers);
    c.relativeBuckets =
        json_fields::optionalInteger(j, ctx, "relative_attention_num_buckets", 1, kMaxPositions).value_or(32);
    if (optionalBool(j, ctx, "is_gated_act", false))
        throwInputError(ctx.source, "is_gated_act", "gated Switch feed-forward layers are not supported");
    c.activation = activation(j, ctx, "dense_act_fn", "relu");
}

// transformers' max_position_embeddings for a config that leaves it out (mistral and mixtral: 4096 x 32).
long long defaultPositions(const std::string& family)
{
    if (family == "llama")
        return 2048;
    if (family == "phi3")
        return 4096;
    if (family == "gemma")
        return 8192;
    if (family == "qwen2" || family == "qwen3")
        return 32768;
    return 4096 * 32;
}

// transformers' num_key_value_heads for a config that leaves it out: Llama and Phi-3 take the
// attention heads (no grouping); the others take their config class's default whatever the file's
// head count. A default that does not divide the file's heads would not run in transformers
// either, so such a file is refused rather than guessed at.
long long defaultKeyValueHeads(const std::string& family, long long heads, const Context& ctx)
{
    long long kv = heads;
    if (family == "mistral" || family == "mixtral")
        kv = 8;
    else if (family == "qwen2" || family == "qwen3")
        kv = 32;
    else if (family == "gemma")
        kv = 16;
    if (heads % kv != 0)
        throwInputError(ctx.source, "num_key_value_heads",
                        "missing; transformers' " + family + " default of " + std::to_string(kv) +
                            " key/value heads does not divide the " + std::to_string(heads) +
                            " attention heads: write the field");
    return kv;
}

void readLlamaLike(ModelConfig& c, const json& j, const Context& ctx)
{
    c.layers = json_fields::requireInteger(j, ctx, "num_hidden_layers", 1, kMaxLayers);
    c.hidden = width(j, ctx, "hidden_size");
    c.heads = json_fields::requireInteger(j, ctx, "num_attention_heads", 1, kMaxHeads);
    if (auto kv = json_fields::optionalInteger(j, ctx, "num_key_value_heads", 1, kMaxHeads)) {
        c.kvHeads = *kv;
    } else if (j.contains("num_key_value_heads")) {
        // An explicit null: every one of these config classes but Gemma's turns None into one
        // key/value head per attention head; Gemma's keeps None, which its attention cannot run.
        if (c.family == "gemma")
            throwInputError(ctx.source, "num_key_value_heads", "null; Gemma needs a number here");
        c.kvHeads = c.heads;
        c.assumed.push_back({"num_key_value_heads", c.kvHeads, "null: one per attention head, as transformers does"});
    } else {
        c.kvHeads = defaultKeyValueHeads(c.family, c.heads, ctx);
        c.assumed.push_back({"num_key_value_heads", c.kvHeads,
                             c.family == "llama" || c.family == "phi3" ? "one per attention head, as transformers does"
                                                                       : "transformers' " + c.family + " default"});
    }
    if (auto d = json_fields::optionalInteger(j, ctx, "head_dim", 1, kMaxWidth / c.heads))
        c.headDim = *d; // some configs decouple head size from hidden / heads
    else if ((c.family == "gemma" || c.family == "qwen3") && j.contains("head_dim"))
        // Their configs keep a None, which their attention cannot size; hidden / heads (what a
        // LLaMA config turns None into) and the class default would each be a guess.
        throwInputError(ctx.source, "head_dim", "null; " + c.family + " needs the head size written here");
    else if (c.family == "gemma" || c.family == "qwen3") {
        c.headDim = c.family == "gemma" ? 256 : 128; // their configs' defaults, not hidden / heads
        c.assumed.push_back({"head_dim", c.headDim, "transformers' " + c.family + " default"});
    }
    c.intermediate = width(j, ctx, "intermediate_size");
    c.vocab = json_fields::requireInteger(j, ctx, "vocab_size", 1, kMaxVocab);
    // Rotary positions: no table limits the length, only what the model was trained for. Early
    // LLaMA configs on the Hub say it only as max_sequence_length; transformers ignores that field
    // and loads such a file with its own default. We read the field where it is the only one (it
    // says what the model was trained for), and fall back to transformers' default without it.
    if (auto n = json_fields::optionalInteger(j, ctx, "max_position_embeddings", 1, kMaxPositions))
        c.maxPositions = *n;
    else
        c.maxPositions =
            json_fields::optionalInteger(j, ctx, "max_sequence_length", 1, kMaxPositions)
                .value_or(defaultPositions(c.family));
    // rope_scaling stretches the rotary positions past max_position_embeddings (Qwen2.5's YaRN by
    // 4: 32768 -> 131072; a linear factor the same): the context note counts the stretched length.
    // Llama 3.1's "llama3" scaling already advertises its stretched length there.
    if (const auto it = j.find("rope_scaling"); it != j.end() && it->is_object()) {
        const json_fields::Context scaling = ctx.child("rope_scaling");
        const auto factor = json_fields::optionalNumber(*it, scaling, "factor", 0, 1e6);
        const auto original = json_fields::optionalInteger(*it, scaling, "original_max_position_embeddings", 1, kMaxPositions);
        if (factor && *factor > 1)
            c.scaledPositions = std::max(c.maxPositions,
                                         std::min(kMaxPositions, (long long)(double(original.value_or(c.maxPositions)) * *factor)));
    }
    // Gemma names its activation hidden_activation (older files: hidden_act, whose "gelu" the
    // model ran as the tanh approximation); both are one kernel here.
    if (c.family == "gemma" && j.contains("hidden_activation") && !j["hidden_activation"].is_null())
        c.activation = activation(j, ctx, "hidden_activation", "gelu");
    else
        c.activation = activation(j, ctx, "hidden_act", c.family == "gemma" ? "gelu" : "silu");
    c.gatedMlp = true;
    c.fusedProjections = c.family == "phi3";
    c.scaledEmbedding = c.family == "gemma";
    c.headNorms = c.family == "qwen3";
    if (c.family == "phi3") // Phi-4-mini, also model_type phi3, rotates 3/4 of each head
        c.rotaryFraction = json_fields::optionalNumber(j, ctx, "partial_rotary_factor", 1.0 / 64, 1).value_or(1.0);
    c.rmsNorm = true;
    // Qwen2 has q/k/v biases whatever the file says; Phi-3 none (its config has no such field).
    c.attentionBias = c.family == "qwen2" || (c.family != "phi3" && optionalBool(j, ctx, "attention_bias", false));
    // LlamaConfig's mlp_bias (transformers 4.41 on) puts biases on gate, up and down; no other
    // family here has the field.
    c.mlpBias = c.family == "llama" && optionalBool(j, ctx, "mlp_bias", false);
    if (c.family == "mixtral") {
        c.experts = json_fields::requireInteger(j, ctx, "num_local_experts", 1, kMaxExperts);
        c.expertsPerToken = json_fields::requireInteger(j, ctx, "num_experts_per_tok", 1, c.experts);
    }
}

// quantization_config as people name it ("awq, 4-bit", "bitsandbytes, 8-bit"): read only to be
// named, whatever its shape, so that a quantized checkpoint's forecast says it is priced in FP32.
std::string quantizationOf(const json& j)
{
    const auto it = j.find("quantization_config");
    if (it == j.end() || it->is_null() || (it->is_boolean() && !it->get<bool>()) || (it->is_object() && it->empty()) ||
        (it->is_string() && (it->get<std::string>().empty() || it->get<std::string>() == "none")))
        return ""; // says there is none
    std::string method, bits;
    if (it->is_object()) {
        if (const auto m = it->find("quant_method"); m != it->end() && m->is_string())
            method = m->get<std::string>().substr(0, 40);
        if (const auto b = it->find("bits"); b != it->end() && b->is_number_integer() && b->get<long long>() > 0 &&
                                             b->get<long long>() <= 64)
            bits = std::to_string(b->get<long long>()) + "-bit";
        for (const auto& [flag, width] : {std::pair{"load_in_4bit", "4-bit"}, std::pair{"load_in_8bit", "8-bit"}})
            if (const auto f = it->find(flag); bits.empty() && f != it->end() && f->is_boolean() && f->get<bool>())
                bits = width;
    }
    const std::string both = method + (method.empty() || bits.empty() ? "" : ", ") + bits;
    return both.empty() ? "quantized" : both;
}

} // namespace

ModelConfig modelConfigFromJson(const json& j, const std::string& source)
{
    const Context ctx{source, ""};
    if (!j.is_object())
        throwInputError(source, "", "expected a JSON object (a Hugging Face config.json)");
    ModelConfig c;
    c.id = source;
    c.source = source;
    c.family = detectFamily(j, ctx);
    for (const char* key : {"torch_dtype", "dtype"}) // read only to be named; anything not a string is ignored
        if (const auto it = j.find(key); c.dtype.empty() && it != j.end() && it->is_string())
            c.dtype = it->get<std::string>().substr(0, 40);
    c.quantization = quantizationOf(j);
    if (c.family == "gpt2")
        readGpt2(c, j, ctx);
    else if (c.family == "bert" || c.family == "opt")
        readBertOrOpt(c, j, ctx);
    else if (c.family == "switch")
        readSwitch(c, j, ctx);
    else
        readLlamaLike(c, j, ctx);

    // Hugging Face ties the LM head to the token embedding unless a config says otherwise; the
    // Llama-style configs default to untied, but Gemma's. A tied head's weight is counted once.
    c.tiedHead = optionalBool(j, ctx, "tie_word_embeddings",
                              c.family == "gpt2" || c.family == "bert" || c.family == "opt" || c.family == "gemma");
    if (c.kvHeads == 0)
        c.kvHeads = c.heads;
    if (c.headDim == 0) {
        const char* headsKey = c.family == "gpt2" ? "n_head" : "num_attention_heads";
        if (c.hidden % c.heads != 0)
            throwInputError(source, headsKey, std::to_string(c.heads) + " heads do not divide the hidden size " +
                                                  std::to_string(c.hidden));
        c.headDim = c.hidden / c.heads;
    }
    if (c.rmsNorm && c.headDim % 2 != 0) { // rotary embeddings rotate pairs of dimensions
        // Blame the field the file gives: a config without head_dim had been told "head_dim: ..."
        // when its hidden_size / num_attention_heads made the odd size.
        const bool derived = c.headDim * c.heads == c.hidden && !j.contains("head_dim");
        throwInputError(source, derived ? "hidden_size" : "head_dim",
                        "rotary embeddings need an even head size, got " + std::to_string(c.headDim) +
                            (derived ? " (" + std::to_string(c.hidden) + " / " + std::to_string(c.heads) + " heads)" : ""));
    }
    if (c.rmsNorm && (c.rotatedDims() < 2 || c.rotatedDims() % 2 != 0))
        throwInputError(source, "partial_rotary_factor",
                        "rotates " + std::to_string(c.rotatedDims()) + " of the " + std::to_string(c.headDim) +
                            " dimensions of a head; rotary embeddings need an even number, at least 2");
    if (c.heads % c.kvHeads != 0 || c.kvHeads > c.heads)
        throwInputError(source, "num_key_value_heads", std::to_string(c.kvHeads) +
                                                           " key/value heads do not divide the " +
                                                           std::to_string(c.heads) + " attention heads");
    return c;
}

namespace {

// A dtype as both precision checks read it: lower case, without PyTorch's "torch." prefix.
std::string plainDtype(std::string t)
{
    t = json_fields::lowerCase(std::move(t));
    if (t.rfind("torch.", 0) == 0)
        t.erase(0, 6);
    return t;
}

} // namespace

bool ModelConfig::saysFp32() const
{
    const std::string t = plainDtype(dtype);
    return t.empty() || t == "float32" || t == "float" || t == "fp32" || t == "auto";
}

std::string ModelConfig::precisionDifference() const
{
    if (saysFp32())
        return {};
    const std::string t = plainDtype(dtype);
    const auto has = [&](const char* part) { return t.find(part) != std::string::npos; };
    if (has("64") || has("double"))
        return "twice the bytes; would run slower";
    if (has("16") || has("half"))
        return "tensor-core math, half the bytes; would run faster";
    if (has("8"))
        return "low-precision math, a quarter of the bytes; would run faster";
    if (has("4"))
        return "low-precision math, an eighth of the bytes; would run faster";
    return "a precision this forecast does not know; its speed may differ either way";
}

std::string ModelConfig::beyondContextNote(long long seq) const
{
    const long long context = std::max(maxPositions, scaledPositions);
    if (learnedPositions || context <= 0 || context >= kMaxPositions || seq <= context)
        return {};
    const std::string advertised = scaledPositions > maxPositions
                                       ? " positions the config's rope_scaling stretches its context to"
                                       : " positions the config advertises (max_position_embeddings)";
    return "sequence " + std::to_string(seq) + " is longer than the " + std::to_string(context) + advertised +
           ": its rotary positions run past them, but the model was not trained that long; the forecast is of the "
           "kernels either way";
}

std::string modelNameForFile(const std::string& path, const nlohmann::json& config)
{
    namespace fs = std::filesystem;
    const fs::path file = fs::absolute(fs::path(path)).lexically_normal();
    const std::string stem = file.stem().string();
    if (stem != "config")
        return stem;
    if (const auto it = config.find("_name_or_path"); it != config.end() && it->is_string()) {
        std::string name = it->get<std::string>();
        while (!name.empty() && (name.back() == '/' || name.back() == '\\'))
            name.pop_back();
        if (const auto slash = name.find_last_of("/\\"); slash != std::string::npos) // saved on Windows too
            name = name.substr(slash + 1);
        if (!name.empty() && name != "." && name != "..")
            return name;
    }
    const std::string folder = file.parent_path().filename().string();
    return folder.empty() ? stem : folder;
}

ModelConfig loadModelConfig(const std::string& pathOrFolder)
{
    // A Hugging Face model is a folder (a download, a snapshot) with its config.json in it; given
    // the folder, that is the file meant. A folder without one is named as such, not as "not a
    // regular file".
    std::string path = pathOrFolder;
    std::error_code ec;
    if (std::filesystem::is_directory(pathOrFolder, ec)) {
        const std::filesystem::path inside = std::filesystem::path(pathOrFolder) / "config.json";
        if (!std::filesystem::exists(inside, ec))
            throwInputError(pathOrFolder, "", "a folder with no config.json in it; give a model's config.json "
                                              "(a Hugging Face model's folder holds one)");
        path = inside.lexically_normal().string();
    }
    const json config = json_fields::parse(readFile(path), path);
    ModelConfig c = modelConfigFromJson(config, path);
    c.id = modelNameForFile(path, config);
    return c;
}

} // namespace gpuforecast
