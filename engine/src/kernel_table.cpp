#include "gpuforecast/kernel_table.h"

#include "gpuforecast/csv.h"
#include "gpuforecast/error.h"
#include "gpuforecast/file_io.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>

namespace gpuforecast {
namespace {

// Blanks around a cell are the writer's layout ("op, gpu, b"), not its value: " 1" was read as 1
// (strtoll skips them) but " T4" was an unknown GPU and "1 " no number. Only the cells the reader
// reads are trimmed; a row is passed through to the output as it was written.
std::string trimmed(const std::string& cell)
{
    const auto first = cell.find_first_not_of(" \t");
    return first == std::string::npos ? std::string() : cell.substr(first, cell.find_last_not_of(" \t") - first + 1);
}

std::vector<std::string> trimmedCells(const std::vector<std::string>& row)
{
    std::vector<std::string> out;
    out.reserve(row.size());
    for (const auto& cell : row)
        out.push_back(trimmed(cell));
    return out;
}

long long parseDim(const std::string& s, const std::string& source, const std::string& where)
{
    if (s.empty())
        throwInputError(source, where, "missing (expected a whole number)");
    errno = 0;
    char* end = nullptr;
    const long long v = std::strtoll(s.c_str(), &end, 10);
    if (errno == ERANGE || end == s.c_str() || *end != '\0')
        throwInputError(source, where, "expected a whole number, got '" + s + "'");
    return v;
}

double parseNumber(const std::string& s, const std::string& source, const std::string& where)
{
    errno = 0;
    char* end = nullptr;
    const double v = std::strtod(s.c_str(), &end);
    if (s.empty() || end == s.c_str() || *end != '\0' || !std::isfinite(v))
        throwInputError(source, where, "expected a finite number, got '" + s + "'");
    return v;
}

} // namespace

std::optional<std::size_t> KernelTable::column(const std::string& name) const
{
    for (std::size_t i = 0; i < header.size(); ++i)
        if (header[i] == name)
            return i;
    return std::nullopt;
}

KernelTable parseKernelTable(const std::string& text, const std::string& source, TableContent content)
{
    // Spreadsheets save "CSV UTF-8" with a byte-order mark, which would otherwise become part of
    // the first column's name. (A file-level matter: csv::parse itself round-trips every cell.)
    std::string_view body = text;
    if (body.substr(0, 3) == "\xEF\xBB\xBF")
        body.remove_prefix(3);
    refuseNulBytes(body, source);
    auto rows = csv::parse(body, source);
    // A line of blanks is an empty line, which the reader skips ("expected 7 columns, got 1").
    std::erase_if(rows, [](const std::vector<std::string>& row) { return row.size() == 1 && trimmed(row.front()).empty(); });
    if (rows.empty())
        throwInputError(source, "header", "empty file (expected a header op,gpu,b,m,n,k,h)");
    KernelTable t;
    t.source = source;
    t.header = trimmedCells(rows.front());
    // A column that is read must be there once: with two 'm' columns either choice could be the
    // wrong one, and a forecast of the other's shape would look just as plausible.
    auto optional = [&](const char* name) {
        auto c = t.column(name);
        if (c && std::count(t.header.begin(), t.header.end(), name) > 1)
            throwInputError(source, std::string("header"), std::string("column '") + name + "' appears more than once");
        return c;
    };
    auto need = [&](const char* name) {
        auto c = optional(name);
        if (!c)
            throwInputError(source, std::string("header"), std::string("missing column '") + name + "'");
        return *c;
    };
    const std::size_t cOp = need("op"), cGpu = need("gpu"), cB = need("b"), cM = need("m"), cN = need("n"),
                      cK = need("k"), cH = need("h");
    std::size_t cLat = 0, cName = 0;
    std::optional<std::size_t> cGx, cGy, cGz;
    if (content == TableContent::WithMeasurements) {
        cLat = need("latency_ms");
        cName = optional("kernel").value_or(SIZE_MAX);
        cGx = optional("grid_x");
        cGy = optional("grid_y");
        cGz = optional("grid_z");
    }
    t.rows.reserve(rows.size() - 1);
    for (std::size_t r = 1; r < rows.size(); ++r) {
        const std::vector<std::string> cells = trimmedCells(rows[r]);
        const std::string line = "line " + std::to_string(r + 1);
        if (cells.size() != t.header.size())
            throwInputError(source, line, "expected " + std::to_string(t.header.size()) + " columns, got " +
                                              std::to_string(cells.size()));
        KernelRow row;
        const std::string& op = cells[cOp];
        const auto cls = classifyOp(op);
        if (!cls)
            throwInputError(source, line + " op", "unknown operator '" + op +
                                                      "' (expected bmm, linear, add, addu, mul, mulu, div, divu, "
                                                      "pow, powu, relu, gelu, tanh, softmax or ln)");
        row.gpu = cells[cGpu];
        if (row.gpu.empty())
            throwInputError(source, line + " gpu", "missing GPU id");
        // A shape in a column the operator does not read would be priced without it, as a
        // softmax of 4096 rows typed into m came out as one row.
        const bool gemm = *cls == OpClass::Bmm || *cls == OpClass::Linear;
        for (const auto& [column, name] : {std::pair{cM, "m"}, std::pair{cN, "n"}, std::pair{cK, "k"}, std::pair{cH, "h"}})
            if (!cells[column].empty() && gemm == (column == cH))
                throwInputError(source, line + " " + name,
                                "'" + op + "' does not read this column (" +
                                    (gemm ? "GEMMs give b, m, n and k" : "vector operators give b rows of h elements") +
                                    "); leave it empty");
        if (gemm)
            row.kernel = Kernel::gemm(op, parseDim(cells[cB], source, line + " b"), parseDim(cells[cM], source, line + " m"),
                                      parseDim(cells[cN], source, line + " n"), parseDim(cells[cK], source, line + " k"));
        else
            row.kernel = Kernel::vector(op, parseDim(cells[cB], source, line + " b"),
                                        parseDim(cells[cH], source, line + " h"));
        validateKernel(row.kernel, source, line);
        if (content == TableContent::WithMeasurements) {
            Measurement m;
            m.latencyMs = parseNumber(cells[cLat], source, line + " latency_ms");
            // A nanosecond to eleven days: outside that it is a unit slip or a corrupt cell, and a
            // relative error against it would print as a 300-digit percentage.
            if (!(m.latencyMs >= 1e-6 && m.latencyMs <= 1e9))
                throwInputError(source, line + " latency_ms",
                                "expected a latency in milliseconds between 1e-06 and 1e+09, got " + cells[cLat]);
            if (cName != SIZE_MAX)
                m.kernelName = cells[cName];
            if (cGx && cGy && cGz && !cells[*cGx].empty()) {
                m.gridX = parseDim(cells[*cGx], source, line + " grid_x");
                m.gridY = parseDim(cells[*cGy], source, line + " grid_y");
                m.gridZ = parseDim(cells[*cGz], source, line + " grid_z");
            }
            t.measurements.push_back(std::move(m));
        }
        row.cells = std::move(rows[r]); // as written: a note column keeps its spacing
        t.rows.push_back(std::move(row));
    }
    return t;
}

KernelTable readKernelTable(const std::string& path, TableContent content)
{
    if (path == "-")
        return parseKernelTable(readStandardInput(kMaxTableBytes), "standard input", content);
    return parseKernelTable(readFile(path, kMaxTableBytes), path, content);
}

} // namespace gpuforecast
