#pragma once
// A transformer's shape, read from a Hugging Face config.json. Only what decides the kernels that
// PyTorch launches is kept; everything is validated on load so the graph builder can multiply
// dimensions without checking again.
#include <nlohmann/json_fwd.hpp>

#include <string>
#include <vector>

namespace gpuforecast {

// A field the file leaves out (or gives as null) whose default changes the kernels, and the value
// taken for it: a config written by hand can mean something else by leaving it out than
// transformers does. Values are the file's, before any tensor-parallel sharding.
struct AssumedField {
    std::string field; // "num_key_value_heads"
    long long value = 0;
    std::string why;   // "transformers' mistral default"
};

struct ModelConfig {
    std::string id;     // file stem, or "<input>"
    std::string family; // gpt2 | bert | opt | switch | llama | mistral | mixtral | qwen2 | qwen3 | gemma | phi3
    std::string source; // where it was read from, for error messages
    // What errors about the model name: for a model read from a file, the file and the name it goes
    // by, "path/config.json (Mixtral-8x7B-v0.1)" (the user typed the path, not the name); else the
    // name (a bundled model is read with its name as its source).
    std::string errorSource() const
    {
        const std::string name = id.empty() ? std::string("<model>") : id;
        return !source.empty() && source != id ? source + " (" + name + ")" : name;
    }

    long long layers = 0;       // transformer blocks (switch: encoder blocks; decoderLayers below)
    long long hidden = 0;       // model width
    long long heads = 0;        // attention heads
    long long kvHeads = 0;      // key/value heads (GQA); equals heads without GQA
    long long headDim = 0;      // hidden / heads (switch: d_kv, independent of hidden)
    long long intermediate = 0; // FFN width (per expert for MoE)
    long long vocab = 0;
    long long maxPositions = 0; // learned position table size (rotary models: advertised context)
    long long scaledPositions = 0; // rotary models: the context rope_scaling stretches it to; 0 without
    std::string activation;     // gelu_new | gelu | relu | silu
    bool gatedMlp = false;      // SwiGLU: down(act(gate(x)) * up(x))
    bool rmsNorm = false;       // RMSNorm instead of LayerNorm
    bool learnedPositions = false; // absolute position table: seq may not exceed maxPositions
    bool attentionBias = false; // q/k/v projections carry biases (Qwen2)
    bool mlpBias = false;       // gate, up and down projections carry biases (Llama's mlp_bias)
    bool tiedHead = false;      // the LM head is the token embedding (tie_word_embeddings)
    bool fusedProjections = false; // one q/k/v and one gate/up projection (Phi-3's qkv_proj, gate_up_proj)
    bool scaledEmbedding = false;  // token embeddings times sqrt(hidden) before the first block (Gemma)
    bool headNorms = false;        // RMSNorm on every query and key head before rotary (Qwen3)
    double rotaryFraction = 1;     // share of each head's dimensions rotated (Phi-3's partial_rotary_factor)

    // Mixture of experts (switch, mixtral). Switch routes top-1 with a fixed capacity per sequence.
    long long experts = 0;
    long long expertsPerToken = 0;
    long long expertCapacity = 0;     // switch: tokens one expert accepts from one sequence
    long long encoderLayers = 0;      // switch
    long long decoderLayers = 0;      // switch
    long long encoderSparseStep = 0;  // switch: every step-th block (index % step == 1) is sparse
    long long decoderSparseStep = 0;
    long long relativeBuckets = 0;    // switch: relative position buckets

    long long tokenTypes = 0;     // BERT type_vocab_size (rows of the token-type table)
    long long wordProjection = 0; // OPT word_embed_proj_dim (project_in/out when != hidden)
    bool preLayerNorm = true;     // OPT do_layer_norm_before

    std::vector<AssumedField> assumed; // defaults taken for fields the file leaves out or nulls
    // The precision the file says the weights are in (torch_dtype, or dtype in newer files:
    // "bfloat16"), empty when it says none. Forecasts are FP32 whatever it says, as NeuSight
    // measured; callers tell the user when the two differ.
    std::string dtype;
    // The file's quantization_config, as "awq, 4-bit" ("quantized" when it says no method or
    // bits); empty when it has none. Not modelled either: the weights are priced in FP32.
    std::string quantization;
    // Whether the file says FP32 or nothing: "float32", "float", "fp32" (any case, with or without
    // "torch.") or "auto".
    bool saysFp32() const;
    // What the file's other precision would change, for the note beside an FP32 forecast:
    // "tensor-core math, half the bytes; would run faster" for bfloat16, a quarter for 8-bit
    // types, twice for float64 ("would run slower"). Empty when the file says FP32.
    std::string precisionDifference() const;

    // A rotary model runs past its advertised context (GPT-2 and BERT, whose position tables end
    // there, refuse), but was not trained that long: one line for the note beside such a
    // forecast, empty within the context or where the file sets no limit.
    std::string beyondContextNote(long long seq) const;

    long long attentionWidth() const { return heads * headDim; } // q projection outputs
    long long rotatedDims() const { return static_cast<long long>(double(headDim) * rotaryFraction); } // int(), as transformers
    long long kvWidth() const { return kvHeads * headDim; }      // k and v projection outputs
};

// Reads a config.json document. `source` names the file in errors ("config.json: n_head: missing").
// Throws ForecastError for an unsupported model_type or a missing, null or out-of-range field.
ModelConfig modelConfigFromJson(const nlohmann::json& j, const std::string& source);

// The name a config file goes by: its file name without ".json", but for Hugging Face's own
// name, config.json, which every downloaded model shares: the model's "_name_or_path" (its last
// part, "Llama-2-7b-hf"), else the folder it is in.
std::string modelNameForFile(const std::string& path, const nlohmann::json& config);

// Reads the file at `path`, or the config.json in the folder `path` names; the id is
// modelNameForFile.
ModelConfig loadModelConfig(const std::string& pathOrFolder);

} // namespace gpuforecast
