#include "gpuforecast/kernel.h"

#include "gpuforecast/error.h"

#include <algorithm>
#include <utility>

namespace gpuforecast {
namespace {

struct NamedTraits {
    std::string_view name;
    VectorOpTraits traits;
};

// Flop counts per element are deliberately rough: these kernels are memory-bound on every GPU we
// know, and what matters is that gelu/tanh are costlier than add so the features can tell them apart.
constexpr NamedTraits kVectorOps[] = {
    // name      class                  inputs flops saved
    {"add",     {OpClass::Elementwise, 2, 1, 0}},  {"sub", {OpClass::Elementwise, 2, 1, 0}},
    {"mul",     {OpClass::Elementwise, 2, 1, 2}},  {"div", {OpClass::Elementwise, 2, 1, 2}},
    {"pow",     {OpClass::Elementwise, 2, 4, 2}},  {"addu", {OpClass::Elementwise, 1, 1, 0}},
    {"mulu",    {OpClass::Elementwise, 1, 1, 0}},  {"divu", {OpClass::Elementwise, 1, 1, 0}},
    {"powu",    {OpClass::Elementwise, 1, 4, 1}},  {"relu", {OpClass::Elementwise, 1, 1, 1}},
    {"gelu",    {OpClass::Elementwise, 1, 16, 1}}, {"tanh", {OpClass::Elementwise, 1, 12, 1}},
    {"silu",    {OpClass::Elementwise, 1, 8, 1}},  {"sigmoid", {OpClass::Elementwise, 1, 8, 1}},
    {"exp",     {OpClass::Elementwise, 1, 8, 1}},  {"softmax", {OpClass::Softmax, 1, 5, 1}},
    {"ln",      {OpClass::LayerNorm, 1, 8, 1}},    {"rmsnorm", {OpClass::LayerNorm, 1, 6, 1}},
    {"maxu",    {OpClass::Elementwise, 1, 1, 1}}, // max with a scalar (clamp_min): priced as addu
};

constexpr long long kMaxDim = 1LL << 31; // beyond this the int32 indexing of real kernels breaks anyway

} // namespace

std::string_view opClassName(OpClass c)
{
    switch (c) {
    case OpClass::Bmm: return "bmm";
    case OpClass::Linear: return "linear";
    case OpClass::Elementwise: return "elementwise";
    case OpClass::Softmax: return "softmax";
    case OpClass::LayerNorm: return "ln";
    case OpClass::Other: return "other";
    }
    return "other";
}

std::optional<OpClass> opClassFromName(std::string_view name)
{
    for (OpClass c : {OpClass::Bmm, OpClass::Linear, OpClass::Elementwise, OpClass::Softmax, OpClass::LayerNorm,
                      OpClass::Other})
        if (opClassName(c) == name)
            return c;
    return std::nullopt;
}

std::optional<VectorOpTraits> vectorOpTraits(std::string_view op)
{
    for (const auto& t : kVectorOps)
        if (t.name == op)
            return t.traits;
    return std::nullopt;
}

std::optional<OpClass> classifyOp(std::string_view op)
{
    if (op == "bmm")
        return OpClass::Bmm;
    if (op == "linear")
        return OpClass::Linear;
    if (auto t = vectorOpTraits(op))
        return t->opClass;
    return std::nullopt;
}

Kernel Kernel::gemm(std::string op, long long b, long long m, long long n, long long k)
{
    Kernel x;
    x.opClass = op == "linear" ? OpClass::Linear : OpClass::Bmm;
    x.op = std::move(op);
    x.b = b;
    x.m = m;
    x.n = n;
    x.k = k;
    return x;
}

Kernel Kernel::vector(std::string op, long long rows, long long h)
{
    Kernel x;
    x.opClass = classifyOp(op).value_or(OpClass::Other);
    x.op = std::move(op);
    x.b = rows;
    x.h = h;
    return x;
}

Kernel Kernel::fused(std::vector<std::string> memberOps, long long rows, long long h)
{
    if (memberOps.empty())
        throwInputError("fused kernel", "members", "expected at least one member operator");
    bool arithmetic = false;
    for (const auto& m : memberOps) {
        if (m == "memory")
            continue;
        if (!vectorOpTraits(m))
            throwInputError("fused kernel", "members", "'" + m + "' is not an element-wise, softmax or norm operator");
        arithmetic = true;
    }
    // A chain of copies alone does no arithmetic: price it as the memory kernel it is.
    if (!arithmetic)
        throwInputError("fused kernel", "members", "a chain of memory members only is a memory kernel, not a fused one");
    Kernel x;
    x.op = "fused";
    x.fusedOps = std::move(memberOps);
    x.b = rows;
    x.h = h;
    x.opClass = traitsOf(x)->opClass;
    return x;
}

std::optional<VectorOpTraits> traitsOf(const Kernel& k)
{
    if (k.op != "fused" || k.fusedOps.empty())
        return vectorOpTraits(k.op);
    // Arithmetic adds up: every member still runs on every element.
    // Tensors read: members pass intermediates in registers, so only the chain's external operands
    // are read from DRAM. Without the data flow we take the largest member's input count: in the
    // chains we see, the second operand of a binary member is either the chain's own input (GELU's
    // x * (1 + tanh(...)) reads x once: 1 tensor, we say 2), a small broadcast mask (attention's
    // scale + mask + softmax: ~1, we say 2) or one genuinely new tensor (residual add + layer norm:
    // 2, we say 2). "max + 1 per binary member" would say 3-4 for all of them, doubling the bytes of
    // the common case. A "memory" member (a gather folded into the chain) reads one tensor and
    // does no arithmetic.
    // Saved for backward: one tensor, the chain's input. The compiler that fused the chain
    // recomputes its intermediates in the backward rather than keep them.
    VectorOpTraits t{OpClass::Elementwise, 0, 0, 1};
    bool softmax = false, norm = false;
    for (const auto& m : k.fusedOps) {
        if (m == "memory") {
            t.tensorInputs = std::max(t.tensorInputs, 1.0);
            continue;
        }
        const auto mt = vectorOpTraits(m);
        if (!mt)
            return std::nullopt;
        t.tensorInputs = std::max(t.tensorInputs, mt->tensorInputs);
        t.flopsPerElement += mt->flopsPerElement;
        softmax = softmax || mt->opClass == OpClass::Softmax;
        norm = norm || mt->opClass == OpClass::LayerNorm;
    }
    // A row-normalising member forces whole-row tiles, so the chain behaves like that kernel.
    t.opClass = softmax ? OpClass::Softmax : norm ? OpClass::LayerNorm : OpClass::Elementwise;
    return t;
}

Kernel Kernel::memory(std::string op, double bytes)
{
    Kernel x;
    x.op = std::move(op);
    x.opClass = OpClass::Other;
    x.fallbackBytes = bytes;
    return x;
}

double Kernel::flops() const
{
    if (isGemm())
        return 2.0 * double(b) * double(m) * double(n) * double(k);
    if (auto t = traitsOf(*this))
        return elements() * t->flopsPerElement;
    return 0;
}

double Kernel::bytes() const
{
    constexpr double kFloat = 4;
    if (isGemm())
        return kFloat * double(b) * (double(m) * n + double(n) * k + double(m) * k);
    if (auto t = traitsOf(*this))
        return kFloat * elements() * (t->tensorInputs + 1);
    return fallbackBytes;
}

void validateKernel(const Kernel& k, const std::string& source, const std::string& fieldPrefix)
{
    // "line 2 m", as every other error about a kernel table's row is named.
    const auto named = [&](const char* field) { return fieldPrefix.empty() ? std::string(field) : fieldPrefix + " " + field; };
    auto check = [&](const char* field, long long v) {
        if (v < 1 || v > kMaxDim)
            throwInputError(source, named(field), "expected a whole number in [1, " + std::to_string(kMaxDim) + "], got " +
                                                      std::to_string(v));
    };
    if (k.opClass == OpClass::Other) {
        if (!(k.fallbackBytes >= 0) || k.fallbackBytes > 1e18)
            throwInputError(source, named("bytes"), "expected a byte count in [0, 1e18]");
        return;
    }
    check("b", k.b);
    if (k.isGemm()) {
        check("m", k.m);
        check("n", k.n);
        check("k", k.k);
    } else {
        check("h", k.h);
    }
    // Total work must stay far inside double's exact integer range for waves to be exact.
    if (k.flops() > 1e21 || k.bytes() > 1e18)
        throwInputError(source, named(k.isGemm() ? "b*m*n*k" : "b*h"), "kernel too large to forecast (over 1e21 FLOPs)");
}

} // namespace gpuforecast
