#include "gpuforecast/reference_graph.h"

#include "gpuforecast/csv.h"
#include "gpuforecast/error.h"
#include "gpuforecast/file_io.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <stdexcept>

namespace gpuforecast {
namespace {

// ---- A Python literal subset: integers, quoted strings, lists and tuples (both become lists).

struct Literal {
    bool isInt = false, isString = false;
    long long integer = 0;
    std::string text;
    std::vector<Literal> items;
};

class LiteralParser {
public:
    explicit LiteralParser(std::string_view s) : s_(s) {}

    Literal parseAll()
    {
        Literal v = value(0);
        skipSpace();
        if (pos_ != s_.size())
            fail("unexpected '" + std::string(1, s_[pos_]) + "'");
        return v;
    }

private:
    static constexpr int kMaxDepth = 16;
    static constexpr long long kMaxInt = 1LL << 50;

    [[noreturn]] void fail(const std::string& what) const
    {
        throw std::invalid_argument(what + " at character " + std::to_string(pos_ + 1));
    }
    void skipSpace()
    {
        while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_])))
            ++pos_;
    }

    Literal value(int depth)
    {
        if (depth > kMaxDepth)
            fail("nested too deeply");
        skipSpace();
        if (pos_ >= s_.size())
            fail("unexpected end");
        const char c = s_[pos_];
        if (c == '[' || c == '(')
            return sequence(c == '[' ? ']' : ')', depth);
        if (c == '\'' || c == '"') {
            const auto end = s_.find(c, pos_ + 1);
            if (end == std::string_view::npos)
                fail("unterminated string");
            Literal v;
            v.isString = true;
            v.text = std::string(s_.substr(pos_ + 1, end - pos_ - 1));
            pos_ = end + 1;
            return v;
        }
        if (c == '-' || std::isdigit(static_cast<unsigned char>(c)))
            return integer();
        fail("unexpected '" + std::string(1, c) + "'");
    }

    Literal integer()
    {
        Literal v;
        v.isInt = true;
        const bool negative = s_[pos_] == '-';
        if (negative)
            ++pos_;
        const auto start = pos_;
        while (pos_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[pos_]))) {
            v.integer = v.integer * 10 + (s_[pos_] - '0');
            if (v.integer > kMaxInt)
                fail("number too large");
            ++pos_;
        }
        if (pos_ == start)
            fail("expected a digit");
        if (negative)
            v.integer = -v.integer;
        return v;
    }

    Literal sequence(char close, int depth)
    {
        ++pos_;
        Literal v;
        for (;;) {
            skipSpace();
            if (pos_ < s_.size() && s_[pos_] == close) {
                ++pos_;
                return v;
            }
            v.items.push_back(value(depth + 1));
            skipSpace();
            if (pos_ < s_.size() && s_[pos_] == ',')
                ++pos_;
            else if (pos_ >= s_.size() || s_[pos_] != close)
                fail(std::string("expected ',' or '") + close + "'");
        }
    }

    std::string_view s_;
    std::size_t pos_ = 0;
};

// ---- Interpreting the op lists.

std::vector<long long> dims(const Literal& v, std::size_t count, long long lo, const std::string& op)
{
    if (v.isInt || v.isString || (count && v.items.size() != count))
        throw std::invalid_argument(op + " expects " + std::to_string(count) + " dimensions");
    std::vector<long long> d;
    for (const auto& x : v.items) {
        if (!x.isInt || x.integer < lo)
            throw std::invalid_argument(op + " dimensions must be whole numbers >= " + std::to_string(lo));
        d.push_back(x.integer);
    }
    return d;
}

double shapeElements(const Literal& shape)
{
    double n = 1;
    for (long long d : dims(shape, 0, 0, "a MEM shape"))
        n *= double(d);
    return n;
}

struct ParsedOp {
    Kernel kernel;
    std::string member; // name inside a fused chain: vector op or "memory"
};

ParsedOp parseOp(const Literal& entry, const std::string& memoryKind)
{
    if (entry.items.size() != 2 || !entry.items[0].isString)
        throw std::invalid_argument("each op must be [name, arguments]");
    const std::string& name = entry.items[0].text;
    const Literal& args = entry.items[1];
    if (name == "Linear") {
        const auto d = dims(args, 3, 1, name);
        return {Kernel::gemm("linear", 1, d[0], d[1], d[2]), "linear"};
    }
    if (name == "BMM") {
        const auto d = dims(args, 4, 1, name);
        return {Kernel::gemm("bmm", d[0], d[1], d[2], d[3]), "bmm"};
    }
    if (name.rfind("VEC", 0) == 0) {
        const std::string op = name.substr(3);
        if (!vectorOpTraits(op))
            throw std::invalid_argument("unknown vector operator '" + name + "'");
        const auto d = dims(args, 2, 1, name);
        return {Kernel::vector(op, d[0], d[1]), op};
    }
    if (name == "MEM") {
        if (args.isInt || args.isString)
            throw std::invalid_argument("MEM expects a tuple of shapes");
        double elements = 0;
        for (const auto& shape : args.items)
            elements += shapeElements(shape);
        return {Kernel::memory(memoryKind, 4.0 * elements), "memory"};
    }
    if (name.rfind("ALLREDUCE", 0) == 0 || name == "SENDRECV")
        throw std::invalid_argument("'" + name + "' is multi-GPU communication, which this reader does not take");
    throw std::invalid_argument("unknown operator '" + name + "'");
}

// A fused node's forward list becomes one fused kernel (sized by its last vector member, as the
// reference prices it); lists without arithmetic, and single ops, stay as they are.
std::vector<Kernel> kernelsOf(std::vector<ParsedOp> ops, bool fusedNode)
{
    const auto last = std::find_if(ops.rbegin(), ops.rend(), [](const ParsedOp& p) {
        return p.member != "memory" && p.member != "linear" && p.member != "bmm";
    });
    std::vector<Kernel> out;
    if (fusedNode && ops.size() > 1 && last != ops.rend()) {
        std::vector<std::string> members;
        for (const auto& p : ops)
            members.push_back(p.member);
        out.push_back(Kernel::fused(std::move(members), last->kernel.b, last->kernel.h));
    } else {
        for (auto& p : ops)
            out.push_back(std::move(p.kernel));
    }
    return out;
}

// matmul_4* labelled Linear (m = b x rows, n, k): rebuild the BMM from the node's output shape.
std::optional<Kernel> repairedBmm(const std::string& name, const Kernel& linear, const Literal& output)
{
    const bool matmulName = name == "matmul" || (name.rfind("matmul_", 0) == 0 && name.size() > 7 &&
                                                 std::all_of(name.begin() + 7, name.end(), [](char ch) { return ch >= '0' && ch <= '9'; }));
    if (!matmulName || linear.op != "linear" || output.items.size() < 3)
        return std::nullopt;
    const auto out = dims(output, 0, 1, "OutputShape");
    const long long rows = out[out.size() - 2], cols = out.back();
    long long batch = 1;
    for (std::size_t i = 0; i + 2 < out.size(); ++i)
        batch *= out[i];
    if (cols != linear.k || batch * rows != linear.m)
        return std::nullopt;
    return Kernel::gemm("bmm", batch, rows, linear.n, linear.k);
}

} // namespace

std::optional<ReferenceLayerSpan> neuSightLayerSpan(const std::string& family, long long layers)
{
    if (family == "gpt2")
        return ReferenceLayerSpan{"transformer_h_0_ln_1", "add_15", layers};
    if (family == "bert")
        return ReferenceLayerSpan{"bert_encoder_layer_0_attention_self_query", "bert_encoder_layer_0_output_layer_norm",
                                  layers};
    if (family == "opt")
        return ReferenceLayerSpan{"model_decoder_layers_0_self_attn_layer_norm", "view_11", layers};
    return std::nullopt;
}

std::vector<GraphKernel> parseReferenceGraph(std::string_view text, const std::string& source,
                                             const ReferenceOptions& options)
{
    refuseNulBytes(text, source);
    const auto rows = csv::parse(text, source);
    if (rows.empty())
        throwInputError(source, "", "empty file");
    std::map<std::string, std::size_t> col;
    for (std::size_t i = 0; i < rows[0].size(); ++i)
        col[rows[0][i]] = i;
    for (const char* need : {"Name", "OpName", "FwOps", "BwOps", "AccOps", "OutputShape"})
        if (!col.count(need))
            throwInputError(source, "", std::string("missing column '") + need + "'");

    // Rows inside the traced block run once per layer.
    std::size_t first = 0, last = 0;
    if (const auto& span = options.layerSpan) {
        auto find = [&](const std::string& name) {
            for (std::size_t r = 1; r < rows.size(); ++r)
                if (rows[r].size() > col["Name"] && rows[r][col["Name"]] == name)
                    return r;
            throwInputError(source, "layer span", "node '" + name + "' not found");
        };
        first = find(span->first);
        last = find(span->last);
        if (last < first)
            throwInputError(source, "layer span", "'" + span->last + "' comes before '" + span->first + "'");
    }

    std::vector<GraphKernel> out;
    for (std::size_t r = 1; r < rows.size(); ++r) {
        const auto& row = rows[r];
        if (row.size() == 1 && row[0].empty())
            continue; // blank line
        if (row.size() < rows[0].size())
            throwInputError(source, "line " + std::to_string(r + 1), "expected " + std::to_string(rows[0].size()) +
                                                                      " columns, got " + std::to_string(row.size()));
        const std::string& name = row[col["Name"]];
        const std::string& opName = row[col["OpName"]];
        const bool inBlock = options.layerSpan && r >= first && r <= last;
        const long long count = inBlock ? options.layerSpan->layers : 1;
        std::string kind = opName;
        std::transform(kind.begin(), kind.end(), kind.begin(),
                       [](unsigned char ch) { return char(std::tolower(ch)); });

        std::string field;
        try {
            std::vector<std::pair<Phase, std::vector<Kernel>>> phases;
            for (auto [phase, column] : {std::pair{Phase::Forward, "FwOps"}, std::pair{Phase::Backward, "BwOps"},
                                         std::pair{Phase::Accumulate, "AccOps"}}) {
                field = column;
                std::vector<ParsedOp> ops;
                for (const auto& entry : LiteralParser(row[col[column]]).parseAll().items)
                    ops.push_back(parseOp(entry, phase == Phase::Forward ? kind : kind + "_grad"));
                const bool fusedNode = opName == "fused" && phase == Phase::Forward;
                phases.emplace_back(phase, kernelsOf(std::move(ops), fusedNode));
            }
            field = "OutputShape";
            if (options.repairMatmulLabels && opName == "Linear" && phases[0].second.size() == 1) {
                const auto output = LiteralParser(row[col["OutputShape"]]).parseAll();
                if (auto bmm = repairedBmm(name, phases[0].second[0], output)) {
                    phases[0].second = {*bmm};
                    if (!phases[1].second.empty()) // a training trace: the two BMM gradients
                        phases[1].second = {Kernel::gemm("bmm", bmm->b, bmm->m, bmm->k, bmm->n),
                                            Kernel::gemm("bmm", bmm->b, bmm->n, bmm->m, bmm->k)};
                    phases[2].second.clear(); // no parameters, nothing to accumulate
                }
            }
            for (auto& [phase, kernels] : phases)
                for (auto& k : kernels)
                    out.push_back(GraphKernel{name, phase, std::move(k), count, inBlock});
        } catch (const std::invalid_argument& e) {
            throwInputError(source, "line " + std::to_string(r + 1) + " " + field, e.what());
        } catch (const ForecastError& e) {
            throwInputError(source, "line " + std::to_string(r + 1) + " " + field, e.what());
        }
    }
    return out;
}

std::vector<GraphKernel> loadReferenceGraph(const std::string& path, const ReferenceOptions& options)
{
    return parseReferenceGraph(readFile(path, kMaxTableBytes), path, options);
}

} // namespace gpuforecast
