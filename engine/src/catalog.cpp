#include "gpuforecast/catalog.h"

#include "gpuforecast/error.h"
#include "gpuforecast/file_io.h"
#include "gpuforecast/json_fields.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>

#ifndef GPUFORECAST_SOURCE_RESOURCES
#define GPUFORECAST_SOURCE_RESOURCES ""
#endif

namespace gpuforecast {
namespace fs = std::filesystem;

std::string resourceDirectory()
{
    auto usable = [](const fs::path& p) {
        std::error_code ec;
        return !p.empty() && fs::is_directory(p / "gpus", ec);
    };
    if (const char* env = std::getenv(kDataDirEnv); env && *env) {
        if (!usable(env))
            throwInputError(kDataDirEnv, "", std::string("'") + env + "' has no gpus/ folder");
        return env;
    }
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    if (!ec) {
        const fs::path installed = exe.parent_path().parent_path() / "share" / "gpuforecast";
        if (usable(installed))
            return installed.string();
    }
    if (usable(GPUFORECAST_SOURCE_RESOURCES))
        return GPUFORECAST_SOURCE_RESOURCES;
    throw ForecastError("cannot find the gpuforecast data folder (set " + std::string(kDataDirEnv) + ")");
}

std::vector<GpuSpec> loadGpuDirectory(const std::string& dir)
{
    std::vector<GpuSpec> out;
    std::vector<std::string> paths;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(dir, ec)) {
        if (entry.path().extension() != ".json")
            continue;
        out.push_back(loadGpuSpec(entry.path().string()));
        paths.push_back(entry.path().string());
    }
    if (ec)
        throwInputError(dir, "", "cannot list the folder (" + ec.message() + ")");
    // Two sheets under one id: whichever the folder listed last had silently become that GPU (a
    // copy of A10.json with 144 SMs forecast as "A10"), and `gpus` listed the id twice.
    for (std::size_t i = 0; i < out.size(); ++i)
        for (std::size_t j = 0; j < i; ++j)
            if (out[i].id == out[j].id)
                throwInputError(paths[i], "id", "'" + out[i].id + "' is also the id of " + paths[j] + "; each sheet needs its own");
    const std::vector<GpuSpec> sheets = out; // a basis names a sheet as its file gives it
    for (std::size_t i = 0; i < out.size(); ++i) {
        if (out[i].efficiencyBasisId == out[i].id)
            throwInputError(paths[i], "efficiency_basis", "names the sheet itself");
        resolveEfficiencyBasis(out[i], sheets, paths[i]);
    }
    std::sort(out.begin(), out.end(), [](const GpuSpec& a, const GpuSpec& b) { return a.id < b.id; });
    return out;
}

const GpuSpec* findGpu(const std::vector<GpuSpec>& catalog, const std::string& id)
{
    for (const auto& g : catalog)
        if (g.id == id)
            return &g;
    return nullptr;
}

const GpuSpec* editedFromBundled(const GpuSpec& sheet, const std::vector<GpuSpec>& catalog)
{
    if (sheet.efficiencyBasis || !sheet.efficiencyBasisId.empty() || findGpu(catalog, sheet.id))
        return nullptr;
    // Lower case, runs of spaces as one: "NVIDIA  a100 SXM4 80GB" is the bundled name.
    auto folded = [](const std::string& text) {
        std::string out;
        for (const char c : json_fields::lowerCase(text))
            if (!(c == ' ' && (out.empty() || out.back() == ' ')))
                out += c;
        while (!out.empty() && out.back() == ' ')
            out.pop_back();
        return out;
    };
    const std::string name = folded(sheet.name);
    if (!name.empty())
        for (const auto& g : catalog)
            if (folded(g.name) == name)
                return &g;
    // Its id then a separator: "A100 x2" is not the A10's.
    auto extends = [&](const std::string& id) {
        return sheet.id.size() > id.size() && sheet.id.rfind(id, 0) == 0 &&
               !std::isalnum(static_cast<unsigned char>(sheet.id[id.size()]));
    };
    const GpuSpec* longest = nullptr;
    for (const auto& g : catalog)
        if (extends(g.id) && (!longest || g.id.size() > longest->id.size()))
            longest = &g;
    return longest;
}

namespace {

std::string knownIds(const std::vector<GpuSpec>& catalog)
{
    std::string known;
    for (const auto& g : catalog)
        known += (known.empty() ? "" : ", ") + g.id;
    return known.empty() ? "none: the GPU folder has no sheets" : known;
}


} // namespace

std::string didYouMeanGpu(const std::string& id, const std::vector<GpuSpec>& catalog)
{
    std::vector<std::string> ids;
    for (const auto& g : catalog)
        ids.push_back(g.id);
    return json_fields::didYouMean(id, ids);
}

void resolveEfficiencyBasis(GpuSpec& spec, const std::vector<GpuSpec>& catalog, const std::string& source)
{
    spec.efficiencyBasis.reset();
    if (spec.efficiencyBasisId.empty())
        return;
    // Echoed in errors, so a pasted essay does not become a dialog-sized message.
    auto quoted = [](const std::string& id) { return "'" + (id.size() > 80 ? id.substr(0, 80) + "..." : id) + "'"; };
    const GpuSpec* basis = findGpu(catalog, spec.efficiencyBasisId);
    if (!basis)
        throwInputError(source, "efficiency_basis",
                        "unknown GPU " + quoted(spec.efficiencyBasisId) + didYouMeanGpu(spec.efficiencyBasisId, catalog) +
                            " (known: " + knownIds(catalog) + ")");
    // The basis's own basis, so chains of variants all read the sheet the networks can place.
    std::vector<std::string> seen{spec.id, basis->id};
    while (!basis->efficiencyBasis && !basis->efficiencyBasisId.empty() && basis->efficiencyBasisId != basis->id) {
        const GpuSpec* next = findGpu(catalog, basis->efficiencyBasisId);
        if (!next)
            throwInputError(source, "efficiency_basis",
                            quoted(basis->id) + " is read as " + quoted(basis->efficiencyBasisId) + ", which is unknown");
        if (std::find(seen.begin(), seen.end(), next->id) != seen.end())
            throwInputError(source, "efficiency_basis",
                            quoted(basis->id) + " is read as " + quoted(next->id) + ", which leads back to it (a cycle)");
        seen.push_back(next->id);
        basis = next;
    }
    spec.efficiencyBasis = basis->efficiencyBasis ? basis->efficiencyBasis : std::make_shared<const GpuSpec>(*basis);
}

bool namesSheetFile(const std::string& idOrPath)
{
    return endsWith(idOrPath, ".json") || idOrPath.find_first_of("/\\") != std::string::npos;
}

GpuSpec resolveGpu(const std::vector<GpuSpec>& catalog, const std::string& idOrPath)
{
    if (const GpuSpec* g = findGpu(catalog, idOrPath))
        return *g;
    if (namesSheetFile(idOrPath)) {
        GpuSpec spec = loadGpuSpec(idOrPath);
        resolveEfficiencyBasis(spec, catalog, idOrPath);
        return spec;
    }
    throwInputError("--gpu", "", "unknown GPU '" + idOrPath + "'" + didYouMeanGpu(idOrPath, catalog) + " (known: " +
                                     knownIds(catalog) + "; or give a spec file path)");
}

GpuSpec resolveTableGpu(const std::vector<GpuSpec>& catalog, const std::string& cell, const std::string& table,
                        std::size_t line)
{
    if (const GpuSpec* g = findGpu(catalog, cell))
        return *g;
    if (namesSheetFile(cell)) {
        try {
            return resolveGpu(catalog, cell);
        } catch (const ForecastError& e) { // the sheet's own words, after the row that named it
            throwInputError(table, "line " + std::to_string(line) + " gpu", e.what());
        }
    }
    throwInputError(table, "line " + std::to_string(line) + " gpu",
                    "unknown GPU '" + cell + "'" + didYouMeanGpu(cell, catalog) +
                        " (see gpuforecast-cli gpus; or give a spec sheet's path)");
}

} // namespace gpuforecast
