#pragma once
// A kernel is one operator instance with its dimensions: what the forecaster prices.
#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpuforecast {

// The five learned classes plus the memory-bound fallback. The order is the order of weights files.
enum class OpClass { Bmm, Linear, Elementwise, Softmax, LayerNorm, Other };
inline constexpr std::array<OpClass, 5> kLearnedClasses{OpClass::Bmm, OpClass::Linear, OpClass::Elementwise,
                                                        OpClass::Softmax, OpClass::LayerNorm};

std::string_view opClassName(OpClass c);              // "bmm", "linear", "elementwise", "softmax", "ln", "other"
std::optional<OpClass> opClassFromName(std::string_view name);

// Per-element traits of the vector operators (element-wise, softmax, ln).
struct VectorOpTraits {
    OpClass opClass;
    double tensorInputs;    // tensors read per element (a scalar operand reads nothing)
    double flopsPerElement; // rough arithmetic cost; the learned residual absorbs the rest
    // Element-sized tensors eager autograd keeps from the forward launch until its backward: what
    // the backward formula reads (PyTorch's derivatives.yaml), not the output. A product keeps
    // both factors, softmax and tanh their output, layer norm and the nonlinearities their input;
    // sums and scalar arithmetic keep nothing. Training memory adds these up (estimateMemory).
    double savedTensors;
};

// Known operator names: bmm, linear, add, addu, sub, mul, mulu, div, divu, pow, powu, relu, gelu,
// tanh, silu, sigmoid, exp, softmax, ln, rmsnorm. Returns nullopt for anything else.
std::optional<OpClass> classifyOp(std::string_view op);
std::optional<VectorOpTraits> vectorOpTraits(std::string_view op);

struct Kernel {
    std::string op;               // operator name as in the kernel CSVs
    OpClass opClass = OpClass::Other;
    long long b = 1;              // batch (GEMM) or rows (vector)
    long long m = 0, n = 0, k = 0; // GEMM: C[b,m,k] = A[b,m,n] x B[b,n,k]; n is the reduction
    long long h = 0;              // vector: row length
    double fallbackBytes = 0;     // Other: bytes moved (read + write)
    std::vector<std::string> fusedOps; // op == "fused": the member operators, in execution order
    // Element-wise only: one operand is read in a transposed layout (T5's relative position bias has
    // the heads innermost while the scores it is added to have keys innermost). Each 4-byte element
    // then costs a 32-byte sector unless the sectors touched by one pass over the other dimensions,
    // this many bytes, stay in L2 until the neighbouring elements are read (transposedOperandSeconds).
    double transposedReuseBytes = 0;

    static Kernel gemm(std::string op, long long b, long long m, long long n, long long k);
    static Kernel vector(std::string op, long long rows, long long h);
    static Kernel memory(std::string op, double bytes);
    // One kernel that runs an element-wise chain (what a fusing compiler emits) over a [rows, h]
    // tensor. Members are vector operator names, or "memory" for a gather/copy folded into the
    // chain (an embedding lookup feeding an add). The class is Softmax or LayerNorm when a member
    // normalises rows (such a kernel must keep whole rows per tile), Elementwise otherwise.
    // Throws ForecastError on an empty list or an unknown member.
    static Kernel fused(std::vector<std::string> memberOps, long long rows, long long h);

    bool isGemm() const { return opClass == OpClass::Bmm || opClass == OpClass::Linear; }
    // Softmax and layer norm normalise each of the b rows of length h; a tile holds whole rows.
    bool isRowWise() const { return opClass == OpClass::Softmax || opClass == OpClass::LayerNorm; }
    double elements() const { return double(b) * double(h); }
    double flops() const;    // useful arithmetic of the whole kernel
    double bytes() const;    // compulsory DRAM traffic of the whole kernel (FP32)
};

// Per-element traits of a vector kernel, fused or not; nullopt for GEMMs and memory kernels.
std::optional<VectorOpTraits> traitsOf(const Kernel& k);

// Throws ForecastError naming `source` and the field when dimensions are missing, non-positive or
// so large that tile x wave arithmetic would lose precision.
void validateKernel(const Kernel& k, const std::string& source, const std::string& fieldPrefix = {});

} // namespace gpuforecast
