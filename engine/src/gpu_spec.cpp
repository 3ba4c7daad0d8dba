#include "gpuforecast/gpu_spec.h"

#include "gpuforecast/error.h"
#include "gpuforecast/file_io.h"
#include "gpuforecast/json_fields.h"
#include "gpuforecast/number_text.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cctype>
#include <string_view>
#include <vector>
#include <cmath>
#include <limits>
#include <cstdio>
#include <sstream>

namespace gpuforecast {
namespace {

using json = nlohmann::json;

// Ranges are wide enough for any plausible future part and narrow enough to catch unit mistakes
// (GB/s typed as TB/s) and overflow in the tile x wave arithmetic downstream.
const std::array<SpecField, 18> kFields{{
    {"launch_year", "Launch year", "", 1990, 2100, true, false, &GpuSpec::launchYear},
    {"sm_count", "SMs / CUs", "", 1, 100000, true, false, &GpuSpec::smCount},
    {"cores_per_sm", "FP32 cores per SM", "", 1, 4096, true, false, &GpuSpec::coresPerSm},
    {"boost_clock_mhz", "Boost clock", "MHz", 1, 100000, false, false, &GpuSpec::boostClockMhz},
    {"fp32_gflops", "FP32 peak", "GFLOP/s", 1, 1e8, false, false, &GpuSpec::fp32Gflops},
    {"fp32_matrix_gflops", "FP32 matrix peak", "GFLOP/s", 1, 1e8, false, true, &GpuSpec::fp32MatrixGflops},
    {"fp16_tensor_gflops", "FP16 tensor peak", "GFLOP/s", 0, 1e9, false, true, &GpuSpec::fp16TensorGflops},
    {"bf16_tensor_gflops", "BF16 tensor peak", "GFLOP/s", 0, 1e9, false, true, &GpuSpec::bf16TensorGflops},
    {"memory_gb", "Memory", "GB", 0.001, 1e6, false, false, &GpuSpec::memoryGb},
    {"memory_bandwidth_gbps", "Memory bandwidth", "GB/s", 1, 1e7, false, false, &GpuSpec::memoryBandwidthGBps},
    {"l2_cache_mb", "L2 cache", "MB", 0.001, 1e6, false, false, &GpuSpec::l2CacheMb},
    {"l1_cache_kb", "L1 cache per SM", "KB", 1, 1e5, false, true, &GpuSpec::l1CacheKb},
    {"max_threads_per_sm", "Threads per SM", "", 32, 1e5, true, true, &GpuSpec::maxThreadsPerSm},
    {"tdp_w", "Board power", "W", 1, 1e6, false, true, &GpuSpec::tdpW},
    {"price_usd", "Price", "USD", 1, 1e9, false, true, nullptr}, // no price: leave the key out
    {"interconnect.bandwidth_gbps", "Link bandwidth", "GB/s", 0.001, 1e6, false, true,
     &GpuSpec::interconnectBandwidthGBps},
    {"interconnect.latency_us", "Link latency", "us", 0, 1e6, false, true, &GpuSpec::interconnectLatencyUs},
    {"interconnect.max_gpus", "GPUs on the link", "", 2, 100000, true, true, &GpuSpec::interconnectMaxGpus},
}};

std::span<const SpecField> fieldTable() { return kFields; }

const SpecField* findField(const std::string& key)
{
    for (const auto& f : fieldTable())
        if (key == f.key)
            return &f;
    return nullptr;
}

// The keys a sheet file may carry besides the numeric fields of kFields.
constexpr std::array<std::string_view, 7> kTextKeys{"id", "name", "vendor", "architecture", "source",
                                                   "efficiency_basis", "interconnect"};

// Whether the loader reads `key`: at the top level a text key or an undotted field; inside
// "interconnect" (key given as "interconnect.<leaf>") its kind or one of its fields. A top-level
// "interconnect.bandwidth_gbps" is not read: the loader looks for it inside the object.
bool isKnownKey(const std::string& key, bool nested)
{
    if (nested)
        return key == "interconnect.kind" || findField(key);
    return std::find(kTextKeys.begin(), kTextKeys.end(), key) != kTextKeys.end() ||
           (key.find('.') == std::string::npos && findField(key));
}

// What an unread key most likely meant, for the note: a nested field written at the top level;
// the known key within two edits (one per three letters, so that "note" is not taken for
// "name"), ignoring case; or the keys it begins with its unit left off ("tdp" for "tdp_w").
// Empty when nothing is near.
std::string unreadHint(const std::string& key)
{
    if (key.rfind("interconnect.", 0) == 0 && isKnownKey(key, true)) // nested keys are never unread
        return "write it as \"" + key.substr(13) + "\" inside \"interconnect\"";
    const std::string lower = json_fields::lowerCase(key);
    std::vector<std::string> candidates(kTextKeys.begin(), kTextKeys.end());
    candidates.push_back("interconnect.kind");
    for (const auto& f : fieldTable())
        candidates.push_back(f.key);
    if (const std::string best = json_fields::closestKey(key, candidates); !best.empty())
        return "did you mean " + best + "?";
    std::string starts;
    for (const auto& c : candidates)
        if (c.rfind(lower + "_", 0) == 0)
            starts += (starts.empty() ? "" : " or ") + c;
    return starts.empty() ? "" : "did you mean " + starts + "?";
}

// The key of `obj` that no field reads and that most likely meant the missing field `leaf`
// ("sm_cont" for sm_count, "memory_bandwidth" for memory_bandwidth_gbps); empty when none is near.
// A required field misspelt was reported only as missing, the typo left for the user to find.
std::string misspellingOf(const json& obj, const std::string& leaf, bool nested)
{
    for (const auto& item : obj.items()) {
        const std::string& key = item.key();
        if (isKnownKey(nested ? "interconnect." + key : key, nested))
            continue;
        const std::string lower = json_fields::lowerCase(key);
        if (!json_fields::closestKey(key, {leaf}).empty() || leaf.rfind(lower + "_", 0) == 0)
            return key;
    }
    return "";
}

std::string expectedRange(const SpecField& f)
{
    std::ostringstream os;
    os << "expected a number in [" << json_fields::plainNumber(f.lo) << ", " << json_fields::plainNumber(f.hi) << "]"
       << (*f.unit ? " " : "") << f.unit;
    return os.str();
}

void checkRange(const SpecField& f, double v, const std::string& source)
{
    std::ostringstream os;
    if (!std::isfinite(v))
        os << "expected a finite number, got " << v;
    else if (v < f.lo || v > f.hi)
        os << expectedRange(f) << ", got " << json_fields::plainNumber(v);
    else if (f.integral && std::floor(v) != v)
        os << "expected a whole number, got " << json_fields::plainNumber(v);
    else
        return;
    throwInputError(source, f.key, os.str());
}

} // namespace

std::span<const SpecField> specFields() { return fieldTable(); }

GpuSpec gpuSpecFromJson(const json& j, const std::string& source)
{
    using namespace json_fields;
    const Context ctx{source, ""};
    if (!j.is_object())
        throwInputError(source, "", "expected a JSON object with the GPU's spec fields");
    // Another of the app's files given as a sheet: "id: missing" did not say what the file was.
    if (!j.contains("id") && std::none_of(fieldTable().begin(), fieldTable().end(),
                                          [&](const SpecField& f) { return j.contains(f.key); })) {
        const std::string what = j.contains("model_type") || j.contains("architectures")
                                     ? " (it looks like a model's config.json: give it as the model)"
                                 : j.contains("format") ? " (it looks like a scenario or another GPU Forecast file)"
                                                        : "";
        throwInputError(source, "", "not a GPU spec sheet: it has none of a sheet's fields (id, sm_count, fp32_gflops, ...)" + what);
    }
    GpuSpec s;
    s.id = requireString(j, ctx, "id");
    if (s.id.empty() || s.id.find_first_of("/\\\n") != std::string::npos)
        throwInputError(source, "id", "must be a non-empty name without slashes");
    s.name = optionalString(j, ctx, "name").value_or(s.id);
    s.vendor = optionalString(j, ctx, "vendor").value_or("");
    s.architecture = optionalString(j, ctx, "architecture").value_or("");
    s.source = optionalString(j, ctx, "source").value_or("");
    s.efficiencyBasisId = optionalString(j, ctx, "efficiency_basis").value_or("");
    if (j.contains("efficiency_basis") && !j["efficiency_basis"].is_null() && s.efficiencyBasisId.empty())
        throwInputError(source, "efficiency_basis", "must name a bundled GPU (or be left out)");

    const json* link = nullptr;
    if (j.contains("interconnect") && !j["interconnect"].is_null()) {
        link = &requireObject(j, ctx, "interconnect");
        s.interconnectKind = optionalString(*link, ctx.child("interconnect"), "kind").value_or("");
    }
    for (const auto& f : fieldTable()) {
        const std::string key = f.key;
        const bool nested = key.rfind("interconnect.", 0) == 0;
        const json* obj = nested ? link : &j;
        const Context c = nested ? ctx.child("interconnect") : ctx;
        const std::string leaf = nested ? key.substr(13) : key;
        std::optional<double> v;
        if (obj && obj->contains(leaf) && !(*obj)[leaf].is_null() && !(*obj)[leaf].is_number())
            throwInputError(source, key, expectedRange(f) + ", got " + json_fields::describeValue((*obj)[leaf])); // "3350"
        if (obj) // any finite number here; checkRange below names the field's own range
            v = optionalNumber(*obj, c, leaf, -std::numeric_limits<double>::max(), std::numeric_limits<double>::max());
        if (!v) {
            if (!f.optional) {
                const std::string typo = obj ? misspellingOf(*obj, leaf, nested) : "";
                const bool null = obj && obj->contains(leaf); // present, but null
                throwInputError(source, key, std::string(null ? "null" : "missing") + " (expected a number" +
                                                 (*f.unit ? std::string(" in ") + f.unit : "") +
                                                 (typo.empty() ? ")" : "; is the file's \"" + typo + "\" meant to be it?)"));
            }
            continue;
        }
        checkRange(f, *v, source);
        if (f.member)
            s.*(f.member) = *v;
        else
            s.priceUsd = *v;
    }
    if (s.fp32MatrixGflops <= 0)
        s.fp32MatrixGflops = s.fp32Gflops;
    json kept = json::object();
    for (const auto& [key, value] : j.items())
        if (!isKnownKey(key, false)) {
            s.unreadFields.push_back(key);
            kept[key] = value;
        }
    if (link)
        for (const auto& [key, value] : link->items())
            if (!isKnownKey("interconnect." + key, true)) {
                s.unreadFields.push_back("interconnect." + key);
                kept["interconnect"][key] = value;
            }
    if (!kept.empty())
        s.unreadFieldsJson = kept.dump();
    return s;
}

json gpuSpecToJson(const GpuSpec& s)
{
    json j;
    j["id"] = s.id;
    j["name"] = s.name;
    j["vendor"] = s.vendor;
    j["architecture"] = s.architecture;
    for (const auto& f : fieldTable()) {
        const std::string key = f.key;
        double v = 0;
        if (f.member && f.optional && s.*(f.member) == 0)
            continue;
        if (f.member)
            v = s.*(f.member);
        else if (s.priceUsd)
            v = *s.priceUsd;
        else
            continue;
        const json value = f.integral ? json(static_cast<long long>(v)) : json(v);
        if (key.rfind("interconnect.", 0) == 0)
            j["interconnect"][key.substr(13)] = value;
        else
            j[key] = value;
    }
    j["interconnect"]["kind"] = s.interconnectKind;
    j["source"] = s.source;
    if (!s.efficiencyBasisId.empty())
        j["efficiency_basis"] = s.efficiencyBasisId;
    // The file's own extra fields go back as they were, but never over a field the sheet writes.
    if (!s.unreadFieldsJson.empty())
        json_fields::restoreUnreadKeys(j, json::parse(s.unreadFieldsJson, nullptr, false), "interconnect");
    return j;
}

GpuSpec loadGpuSpec(const std::string& path)
{
    return gpuSpecFromJson(json_fields::parse(readFile(path), path), path);
}

void saveGpuSpec(const GpuSpec& spec, const std::string& path)
{
    validateGpuSpec(spec, path);
    writeFileAtomically(path, gpuSpecToJson(spec).dump(2) + "\n");
}

void validateGpuSpec(const GpuSpec& spec, const std::string& source)
{
    // As a file's id is read (gpuSpecFromJson): a sheet saved under an id with a slash could not
    // be read back at the next start.
    if (spec.id.empty() || spec.id.find_first_of("/\\\n") != std::string::npos)
        throwInputError(source, "id", "must be a non-empty name without slashes");
    for (const auto& f : fieldTable()) {
        // An optional field left at zero means "not given" (a spec sheet without a price or a link).
        if (f.member && !(f.optional && spec.*(f.member) == 0))
            checkRange(f, spec.*(f.member), source);
        else if (!f.member && spec.priceUsd)
            checkRange(f, *spec.priceUsd, source);
    }
}

bool GpuSpec::vendorIsNvidia() const
{
    return json_fields::lowerCase(vendor).find("nvidia") != std::string::npos;
}

namespace {

GpuSpec withResourcesBy(const GpuSpec& sheet, const GpuSpec& other, bool greater)
{
    const auto pick = [greater](double a, double b) { return greater ? std::max(a, b) : std::min(a, b); };
    GpuSpec g = sheet;
    const double sms = pick(sheet.smCount, other.smCount);
    // Per SM, so that the lesser sheet is one the GPU could run as on some of its SMs.
    g.fp32Gflops = sms * pick(sheet.fp32Gflops / sheet.smCount, other.fp32Gflops / other.smCount);
    g.fp32MatrixGflops = sms * pick(sheet.fp32MatrixGflops / sheet.smCount, other.fp32MatrixGflops / other.smCount);
    g.smCount = sms;
    g.memoryBandwidthGBps = pick(sheet.memoryBandwidthGBps, other.memoryBandwidthGBps);
    g.l2CacheMb = pick(sheet.l2CacheMb, other.l2CacheMb);
    g.l1CacheKb = pick(sheet.l1CacheKbOrDefault(), other.l1CacheKbOrDefault());
    g.memoryGb = pick(sheet.memoryGb, other.memoryGb);
    return g;
}

} // namespace

GpuSpec withLesserResources(const GpuSpec& sheet, const GpuSpec& other)
{
    return withResourcesBy(sheet, other, false);
}

GpuSpec withGreaterResources(const GpuSpec& sheet, const GpuSpec& other)
{
    return withResourcesBy(sheet, other, true);
}

double fp32PeakFromCoresGflops(const GpuSpec& spec) { return 2 * spec.smCount * spec.coresPerSm * spec.boostClockMhz / 1e3; }

std::optional<std::string> fp32PeakMismatch(const GpuSpec& spec)
{
    const double product = fp32PeakFromCoresGflops(spec);
    if (!(product > 0) || !(spec.fp32Gflops > 0))
        return std::nullopt;
    const double ratio = spec.fp32Gflops / product;
    if (ratio >= 0.8 && ratio <= 1.25)
        return std::nullopt;
    return "FP32 peak " + significantFigures(spec.fp32Gflops, 6) + " GFLOP/s is " + significantFigures(ratio) +
           "x 2 x SMs x cores per SM x boost clock (" + significantFigures(product, 5) + " GFLOP/s); forecasts use the peaks as given";
}

std::optional<std::string> matrixPeakNote(const GpuSpec& spec)
{
    if (spec.vendorIsNvidia()) {
        // One peak written twice: an edit of one alone moves vector kernels but not GEMMs (or,
        // lowering the matrix one, nothing), and a sheet edited by hand gave no sign of it.
        const double gemm = spec.gemmPeakGflops();
        if (!(spec.fp32Gflops > 0) || std::abs(spec.fp32MatrixGflops / spec.fp32Gflops - 1) <= 0.01)
            return std::nullopt;
        return "fp32_matrix_gflops " + json_fields::plainNumber(spec.fp32MatrixGflops) + " differs from fp32_gflops " +
               json_fields::plainNumber(spec.fp32Gflops) +
               ", but NVIDIA runs FP32 GEMMs on the same FP32 lanes: GEMMs are priced at " + json_fields::plainNumber(gemm) +
               " (the higher), vector kernels at " + json_fields::plainNumber(spec.fp32Gflops) + "; give both the same value";
    }
    if (spec.fp32MatrixGflops > spec.fp32Gflops)
        return std::nullopt;
    return "fp32_matrix_gflops is not above the vector FP32 peak (fp32_gflops " + json_fields::plainNumber(spec.fp32Gflops) +
           "), so GEMMs are priced at that; if this GPU has FP32 matrix units, give their peak (AMD CDNA: twice the "
           "vector peak, MI300X 163400 against 81700 GFLOP/s)";
}

std::optional<std::string> vendorNote(const GpuSpec& spec)
{
    const std::string lower = json_fields::lowerCase(spec.vendor);
    if (lower.empty() || spec.vendorIsNvidia() || lower.find("amd") != std::string::npos)
        return std::nullopt;
    return "vendor \"" + spec.vendor +
           "\" is neither NVIDIA nor AMD, so the sheet is read as not NVIDIA's (GEMMs at fp32_matrix_gflops, no FP32 "
           "issue share); write NVIDIA if it is one";
}

std::optional<std::string> unreadFieldsNote(const GpuSpec& spec)
{
    if (spec.unreadFields.empty())
        return std::nullopt;
    std::string text;
    for (const auto& key : spec.unreadFields) {
        text += (text.empty() ? "" : ", ") + key;
        if (const std::string hint = unreadHint(key); !hint.empty())
            text += " (" + hint + ")";
    }
    const bool one = spec.unreadFields.size() == 1;
    return text + (one ? " is not a spec field" : " are not spec fields") + "; no forecast reads " +
           (one ? "it" : "them");
}

std::vector<std::string> specDifferences(const GpuSpec& a, const GpuSpec& b)
{
    std::vector<std::string> out;
    // The text fields a forecast reads: the architecture picks the GEMM tile family and the L1
    // layout, the vendor the L1 layout when no family is named, the basis the learned efficiency.
    const std::pair<const char*, const std::string GpuSpec::*> texts[] = {
        {"vendor", &GpuSpec::vendor}, {"architecture", &GpuSpec::architecture}, {"efficiency_basis", &GpuSpec::efficiencyBasisId}};
    for (const auto& [key, member] : texts)
        if (a.*member != b.*member)
            out.push_back(std::string(key) + " \"" + a.*member + "\" (\"" + b.*member + "\")");
    // An optional field left out is stored as 0 but read as its default: say "not given".
    const auto shown = [](const SpecField& f, std::optional<double> v) {
        return !v || (f.optional && *v == 0) ? std::string("not given") : json_fields::plainNumber(*v);
    };
    for (const auto& f : fieldTable()) {
        const auto x = specFieldValue(a, f.key), y = specFieldValue(b, f.key);
        if (shown(f, x) != shown(f, y))
            out.push_back(std::string(f.key) + " " + shown(f, x) + " (" + shown(f, y) + ")");
    }
    return out;
}

std::optional<double> specFieldValue(const GpuSpec& spec, const std::string& key)
{
    const SpecField* f = findField(key);
    if (!f)
        return std::nullopt;
    if (f->member)
        return spec.*(f->member);
    return spec.priceUsd;
}

void setSpecField(GpuSpec& spec, const std::string& key, double value)
{
    const SpecField* f = findField(key);
    if (!f)
        throwInputError(spec.id, key, "unknown spec field");
    if (!(f->optional && value == 0))
        checkRange(*f, value, spec.id);
    // Zero clears an optional field, as a sheet without it reads: undoing an edit of a field the
    // sheet did not give restores "not given", which the field's range would otherwise refuse.
    if (f->optional && value == 0) {
        if (f->member)
            spec.*(f->member) = 0;
        else
            spec.priceUsd.reset();
        return;
    }
    if (f->member)
        spec.*(f->member) = value;
    else
        spec.priceUsd = value;
}

} // namespace gpuforecast
