#pragma once
// Private to the model_graph*.cpp files: a recorder that family builders call once per forward
// operator. It derives the backward and gradient-accumulation kernels from the forward one, using
// the rules of the reference traces (NeuSight's tracer, parse.py), and merges element-wise chains
// when fusion is on. Family code therefore reads like the model's forward().
#include "gpuforecast/model_graph.h"

#include <array>
#include <string>
#include <vector>

namespace gpuforecast::graph {

using Shape = std::vector<long long>;
double elements(const Shape& s);

class Builder {
public:
    explicit Builder(const GraphOptions& options) : options_(options) {}

    bool training() const { return options_.training; }
    bool fusion() const { return options_.fusion; }

    // Kernels recorded from here on run `count` times per step (0: not at all); `tokenShare` is
    // GraphKernel::tokenShare, below 1 for a routed expert's kernels.
    void section(long long count, bool perLayer, double tokenShare = 1);

    // y[m,k] = x[m,n] W[n,k]. Backward: grad input (m,k,n) and grad weight (k,m,n); accumulation
    // adds the weight gradient and, when `bias`, the bias gradient. `tiedWeight`: the weight is the
    // token embedding's (GraphKernel::sharedParameter).
    void linear(const std::string& node, long long m, long long n, long long k, bool bias, bool tiedWeight = false);
    // C[b,m,k] = A[b,m,n] B[b,n,k]. Backward: (b,m,k,n) for grad A and (b,n,m,k) for grad B.
    void bmm(const std::string& node, long long b, long long m, long long n, long long k);

    // Element-wise, softmax or norm over [rows, h], with the reference's backward per operator:
    // add/addu pass the gradient on (one copy per tensor input), mul/div repeat once per tensor
    // input, pow = pow + mul + mulu, tanh = mulu + addu, softmax = mul + softmax, ln/rmsnorm = mul
    // (plus weight and bias gradients), activations repeat themselves. A 1 x 1 operator is scalar
    // arithmetic the reference does not count.
    // `transposedReuseBytes`: an operand is read in a transposed layout (Kernel::transposedReuseBytes).
    void vec(const std::string& node, const std::string& op, long long rows, long long h,
             double transposedReuseBytes = 0);
    // An activation module (nn.Tanh, nn.ReLU, ...): its backward is one kernel of the same op.
    void activationModule(const std::string& node, const std::string& op, long long rows, long long h);

    // A data-movement operator reading `inputs` and writing `output` (getitem, where, contiguous,
    // cumsum, mean, ...). Backward: two passes over the inputs (fill and gradient).
    void copy(const std::string& node, const std::string& kind, const std::vector<Shape>& inputs, const Shape& output);
    // Dropout: a copy in training; nothing at inference.
    void dropout(const std::string& node, const Shape& shape);
    // Embedding gather: forward reads ids and writes rows; backward fills and scatters a table of
    // tableRows x width, and accumulation adds that table's gradient.
    void embedding(const std::string& node, const Shape& ids, const Shape& output, long long tableRows,
                   long long width);
    // Any memory operator with explicit backward passes (each pass: the shapes it touches). Two
    // passes are the kernels' parts (GraphKernel::part): a copy fills its inputs' gradient, then
    // writes it.
    void memory(const std::string& node, const std::string& kind, const std::vector<Shape>& forward,
                const std::vector<std::vector<Shape>>& backwardPasses,
                std::array<const char*, 2> passNames = {"fill", "gradient"});
    // A parameter whose gradient is accumulated although no listed kernel owns it (T5 norm weights).
    void weightGradient(const std::string& node, long long n);

    // In fusion mode the forward vector kernels (and folded copies) recorded between the two calls
    // become one fused kernel; backward kernels are not fused, as in the reference.
    void beginChain();
    void endChain();

    std::vector<GraphKernel> take();

private:
    struct Pending {
        std::string node;
        Kernel kernel;
        std::string member; // vector op, or "memory"
    };
    void add(const std::string& node, Phase phase, Kernel kernel, const char* part = "");
    void forward(const std::string& node, Kernel kernel, const std::string& member);
    void backwardVec(const std::string& node, const std::string& op, long long rows, long long h);

    GraphOptions options_;
    long long count_ = 1;
    bool perLayer_ = false;
    double tokenShare_ = 1;
    bool inChain_ = false;
    std::vector<Pending> chain_;
    std::vector<GraphKernel> out_;
};

// Emits the FFN activation of the config as PyTorch runs it (gelu_new is eight kernels).
void activation(Builder& g, const std::string& node, const std::string& act, long long rows, long long h);

void buildGpt2(const ModelConfig& c, Builder& g, long long batch, long long seq);
void buildBert(const ModelConfig& c, Builder& g, long long batch, long long seq);
void buildOpt(const ModelConfig& c, Builder& g, long long batch, long long seq);
void buildSwitch(const ModelConfig& c, Builder& g, long long batch, long long seq);
void buildLlama(const ModelConfig& c, Builder& g, long long batch, long long seq);

} // namespace gpuforecast::graph
