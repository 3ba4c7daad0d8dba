#include "gpuforecast/json_fields.h"

#include "gpuforecast/error.h"
#include "gpuforecast/file_io.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <iomanip>
#include <set>
#include <sstream>
#include <vector>
#include <string_view>

namespace gpuforecast {

namespace json_fields {

std::string plainNumber(double x)
{
    std::ostringstream os;
    if (std::isfinite(x) && std::floor(x) == x && std::fabs(x) < 1e15)
        os << static_cast<long long>(x);
    else {
        os << std::setprecision(15) << x;
        // Fifteen digits made 57.00000000000001 read "57" in "expected a whole number, got 57".
        if (std::isfinite(x) && std::strtod(os.str().c_str(), nullptr) != x) {
            os.str({});
            os << std::setprecision(17) << x;
        }
    }
    return os.str();
}

// A string quoted (cut short, on one line), and one that holds a number said to be one: "got
// string" for "32" left the reader to find the quotes.
std::string describeValue(const nlohmann::json& v)
{
    if (v.is_string()) {
        const std::string& whole = v.get_ref<const std::string&>();
        std::size_t cut = std::min<std::size_t>(whole.size(), 40);
        while (cut > 0 && cut < whole.size() && (static_cast<unsigned char>(whole[cut]) & 0xC0) == 0x80)
            --cut; // not inside a UTF-8 character: a dialog showed half of one as a replacement mark
        std::string shown = whole.substr(0, cut);
        std::replace_if(shown.begin(), shown.end(), [](unsigned char c) { return std::iscntrl(c); }, ' ');
        const std::string quoted = "the string \"" + shown + (whole.size() > shown.size() ? "...\"" : "\"");
        char* end = nullptr;
        const double asNumber = std::strtod(whole.c_str(), &end);
        const bool numeric = !whole.empty() && end == whole.c_str() + whole.size() && std::isfinite(asNumber);
        return numeric ? quoted + " (a number in quotes: write it without them)" : quoted;
    }
    if (v.is_boolean() || v.is_null())
        return v.dump();
    return v.is_array() ? "an array" : v.is_object() ? "an object" : std::string(v.type_name());
}

namespace {

std::string describeRange(double lo, double hi)
{
    return "a number in [" + plainNumber(lo) + ", " + plainNumber(hi) + "]";
}

const nlohmann::json* find(const nlohmann::json& j, const std::string& key)
{
    if (!j.is_object())
        return nullptr;
    auto it = j.find(key);
    if (it == j.end() || it->is_null())
        return nullptr;
    return &*it;
}

// A required field that is not there, with the object's key it was most likely misspelt as, in the
// words a spec sheet uses (gpu_spec.cpp):
// "num_hidden_layers: missing" beside a "num_hiden_layers" left the user to find the typo.
// A key written as null is there, so it is said to be null, as a spec sheet's is (gpu_spec.cpp):
// "hidden_size: missing" sent the user looking for a line that was in the file.
[[noreturn]] void throwMissing(const nlohmann::json& j, const Context& ctx, const std::string& key,
                               const std::string& expected)
{
    if (j.is_object() && j.contains(key) && j.at(key).is_null())
        throwInputError(ctx.source, ctx.name(key), "null (expected " + expected + ")");
    std::vector<std::string> keys;
    if (j.is_object())
        for (const auto& [k, v] : j.items())
            if (k != key)
                keys.push_back(k);
    const std::string near = closestKey(key, keys);
    throwInputError(ctx.source, ctx.name(key),
                    "missing (expected " + expected + (near.empty() ? ")" : "; is the file's \"" + near + "\" meant to be it?)"));
}

double checkedNumber(const nlohmann::json& v, const Context& ctx, const std::string& key, double lo, double hi)
{
    if (!v.is_number())
        throwInputError(ctx.source, ctx.name(key), "expected " + describeRange(lo, hi) + ", got " + describeValue(v));
    const double x = v.get<double>();
    if (!std::isfinite(x) || x < lo || x > hi) {
        throwInputError(ctx.source, ctx.name(key), "expected " + describeRange(lo, hi) + ", got " + plainNumber(x));
    }
    return x;
}

long long checkedInteger(const nlohmann::json& v, const Context& ctx, const std::string& key, long long lo,
                         long long hi)
{
    const double x = checkedNumber(v, ctx, key, double(lo), double(hi));
    if (std::floor(x) != x)
        throwInputError(ctx.source, ctx.name(key), "expected a whole number, got " + v.dump());
    return static_cast<long long>(x);
}

constexpr std::size_t kMaxDepth = 256;

// The deepest nesting of arrays and objects in `text`, brackets inside strings excluded. Malformed
// text gets some number; the parser reports what is wrong with it.
std::size_t nestingDepth(const std::string& text)
{
    std::size_t depth = 0, deepest = 0;
    bool inString = false, escaped = false;
    for (const char c : text) {
        if (inString) {
            if (escaped)
                escaped = false;
            else if (c == '\\')
                escaped = true;
            else if (c == '"')
                inString = false;
        } else if (c == '"') {
            inString = true;
        } else if (c == '[' || c == '{') {
            deepest = std::max(deepest, ++depth);
        } else if ((c == ']' || c == '}') && depth > 0) {
            --depth;
        }
    }
    return deepest;
}

} // namespace

const nlohmann::json& requireObject(const nlohmann::json& j, const Context& ctx, const std::string& key)
{
    const auto* v = find(j, key);
    if (!v)
        throwMissing(j, ctx, key, "an object");
    if (!v->is_object())
        throwInputError(ctx.source, ctx.name(key), "expected an object, got " + describeValue(*v));
    return *v;
}

std::string requireString(const nlohmann::json& j, const Context& ctx, const std::string& key)
{
    auto s = optionalString(j, ctx, key);
    if (!s)
        throwMissing(j, ctx, key, "a string");
    return *s;
}

std::optional<std::string> optionalString(const nlohmann::json& j, const Context& ctx, const std::string& key)
{
    const auto* v = find(j, key);
    if (!v)
        return std::nullopt;
    if (!v->is_string())
        throwInputError(ctx.source, ctx.name(key), "expected a string, got " + describeValue(*v));
    return v->get<std::string>();
}

double requireNumber(const nlohmann::json& j, const Context& ctx, const std::string& key, double lo, double hi)
{
    const auto* v = find(j, key);
    if (!v)
        throwMissing(j, ctx, key, describeRange(lo, hi));
    return checkedNumber(*v, ctx, key, lo, hi);
}

long long requireInteger(const nlohmann::json& j, const Context& ctx, const std::string& key, long long lo,
                         long long hi)
{
    const auto* v = find(j, key);
    if (!v)
        throwMissing(j, ctx, key, "a whole number");
    return checkedInteger(*v, ctx, key, lo, hi);
}

std::optional<double> optionalNumber(const nlohmann::json& j, const Context& ctx, const std::string& key,
                                     double lo, double hi)
{
    const auto* v = find(j, key);
    if (!v)
        return std::nullopt;
    return checkedNumber(*v, ctx, key, lo, hi);
}

std::optional<long long> optionalInteger(const nlohmann::json& j, const Context& ctx, const std::string& key,
                                         long long lo, long long hi)
{
    const auto* v = find(j, key);
    if (!v)
        return std::nullopt;
    return checkedInteger(*v, ctx, key, lo, hi);
}

namespace {

// Levenshtein distance, small strings only (keys).
std::size_t editDistance(std::string_view a, std::string_view b)
{
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j)
        row[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diagonal = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t above = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
            diagonal = above;
        }
    }
    return row[b.size()];
}

} // namespace

std::string lowerCase(std::string text)
{
    std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return text;
}

std::string closestKey(const std::string& key, const std::vector<std::string>& candidates)
{
    const std::string lower = lowerCase(key);
    std::string best;
    std::size_t bestDistance = 3;
    for (const auto& c : candidates) {
        const std::size_t d = editDistance(lower, lowerCase(c)); // ignoring case on both sides: GPU ids are upper case
        if (d < bestDistance && 3 * d < lower.size()) {
            bestDistance = d;
            best = c;
        }
    }
    return best;
}

std::vector<std::string> likelyMeant(const std::string& query, const std::vector<std::string>& known)
{
    const std::string q = lowerCase(query);
    if (q.empty())
        return {};
    std::vector<std::string> containing;
    for (const auto& id : known) {
        const std::string lowerId = lowerCase(id);
        if (lowerId == q)
            return {id};
        if (lowerId.find(q) != std::string::npos)
            containing.push_back(id);
    }
    if (!containing.empty() && containing.size() <= 4)
        return containing;
    if (std::string near = closestKey(query, known); !near.empty())
        return {near};
    return {};
}

std::string didYouMean(const std::string& query, const std::vector<std::string>& known)
{
    const auto meant = likelyMeant(query, known);
    std::string text;
    for (std::size_t i = 0; i < meant.size(); ++i)
        text += (i == 0 ? "" : i + 1 == meant.size() ? " or " : ", ") + meant[i];
    return text.empty() ? "" : " (did you mean " + text + "?)";
}

void restoreUnreadKeys(nlohmann::json& out, const nlohmann::json& kept, const std::string& nested)
{
    if (!kept.is_object())
        return;
    for (const auto& [key, value] : kept.items()) {
        if (key == nested && value.is_object()) {
            if (out.contains(nested) && !out[nested].is_object())
                continue; // what the file is about to say there wins
            for (const auto& [leaf, inner] : value.items())
                if (!out[nested].contains(leaf))
                    out[nested][leaf] = inner;
        } else if (!out.contains(key)) {
            out[key] = value;
        }
    }
}

nlohmann::json parse(const std::string& text, const std::string& source)
{
    // nlohmann parses iteratively but copies and dumps recursively, so a document nested a hundred
    // thousand levels deep (a 200 KB weights file whose "provenance" is [[[[...]]]]) parsed fine and
    // then overflowed the stack when the loader copied it. Our formats nest a few levels.
    refuseNulBytes(text, source);
    if (const std::size_t depth = nestingDepth(text); depth > kMaxDepth)
        throwInputError(source, "", "not valid JSON (nested " + std::to_string(depth) + " levels deep; at most " +
                                        std::to_string(kMaxDepth) + " accepted)");
    // "unexpected end of input; expected '[', '{', or a literal" for a file saved empty.
    if (std::all_of(text.begin(), text.end(), [](unsigned char c) { return std::isspace(c); }))
        throwInputError(source, "", text.empty() ? "the file is empty" : "the file holds only white space");
    // A key given twice in one object is kept once, the last, by the parser: a sheet edited by hand
    // with a second "sm_count" forecast the GPU of whichever came last, without a word.
    struct Frame {
        std::set<std::string> keys;
        std::string path; // "interconnect", "custom_gpus": where in the file, for the message
        bool object = false;
    };
    std::vector<Frame> open;
    std::string lastKey, twice;
    const auto noteDuplicates = [&](int, nlohmann::json::parse_event_t event, nlohmann::json& parsed) {
        using Event = nlohmann::json::parse_event_t;
        if (event == Event::object_start || event == Event::array_start) {
            const std::string parent = open.empty() ? "" : open.back().path;
            const bool keyed = !open.empty() && open.back().object;
            open.push_back({{}, keyed ? (parent.empty() ? lastKey : parent + "." + lastKey) : parent, event == Event::object_start});
        } else if ((event == Event::object_end || event == Event::array_end) && !open.empty()) {
            open.pop_back();
        } else if (event == Event::key && !open.empty() && parsed.is_string()) {
            lastKey = parsed.get<std::string>();
            if (!open.back().keys.insert(lastKey).second && twice.empty())
                twice = open.back().path.empty() ? lastKey : open.back().path + "." + lastKey;
        }
        return true;
    };
    try {
        nlohmann::json j = nlohmann::json::parse(text, noteDuplicates);
        if (!twice.empty())
            throwInputError(source, oneLine(twice.substr(0, 80)), "given twice in one object (JSON keeps only the last; remove one)");
        return j;
    } catch (const nlohmann::json::exception& e) {
        // nlohmann prefixes "[json.exception.parse_error.101] ", which tells a user nothing.
        std::string what = e.what();
        if (const auto end = what.find("] "); what.rfind("[json.exception.", 0) == 0 && end != std::string::npos)
            what.erase(0, end + 2);
        throwInputError(source, "", "not valid JSON (" + what + ")");
    }
}

} // namespace json_fields
} // namespace gpuforecast
