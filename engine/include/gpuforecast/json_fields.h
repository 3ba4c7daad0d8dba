#pragma once
// Checked accessors for JSON documents written by people: each names the source and the field in
// its error. nlohmann's own accessors would accept nulls, wrap negatives or throw messages that do
// not say which file was wrong.
#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace gpuforecast::json_fields {

struct Context {
    std::string source; // file name or "<input>"
    std::string prefix; // field path prefix, e.g. "interconnect."
    Context child(const std::string& key) const { return {source, prefix + key + "."}; }
    std::string name(const std::string& key) const { return prefix + key; }
};

const nlohmann::json& requireObject(const nlohmann::json& j, const Context& ctx, const std::string& key);
std::string requireString(const nlohmann::json& j, const Context& ctx, const std::string& key);
std::optional<std::string> optionalString(const nlohmann::json& j, const Context& ctx, const std::string& key);

// A finite number within [lo, hi]; integral when asked. Missing or null fields are errors.
double requireNumber(const nlohmann::json& j, const Context& ctx, const std::string& key, double lo,
                     double hi);
long long requireInteger(const nlohmann::json& j, const Context& ctx, const std::string& key, long long lo,
                         long long hi);
std::optional<double> optionalNumber(const nlohmann::json& j, const Context& ctx, const std::string& key,
                                     double lo, double hi);
std::optional<long long> optionalInteger(const nlohmann::json& j, const Context& ctx, const std::string& key,
                                         long long lo, long long hi);

// A number as people write it in messages: 1048576, not 1.04858e+06; 0.5; 1e+308 only when huge.
std::string plainNumber(double x);
// A value of the wrong type as an error shows it: `the string "32" (a number in quotes: ...)`,
// `true`, `null`, `an array`.
std::string describeValue(const nlohmann::json& v);

// `text` in lower case (ASCII): ids, keys and names compared without regard to case.
std::string lowerCase(std::string text);

// The key of `candidates` that `key` most likely meant: within two edits, ignoring case, and at
// most one edit per three letters (so that "note" is not taken for "name"); empty when none is.
std::string closestKey(const std::string& key, const std::vector<std::string>& candidates);

// The ids of `known` that an unknown `query` most likely meant, for "did you mean": the one equal
// to it but for case, else those containing it, ignoring case ("h100": both H100s), at most
// four, else the one within two edits (closestKey). Empty when none is near.
std::vector<std::string> likelyMeant(const std::string& query, const std::vector<std::string>& known);
// " (did you mean A or B?)", or empty: to append to an "unknown ..." message.
std::string didYouMean(const std::string& query, const std::vector<std::string>& known);

// Writes a file's keys that no field reads (`kept`, an object; anything else is ignored) back into
// the JSON about to be saved, never over a key `out` already has. Inside the object `nested`
// ("interconnect", "parallel") the same holds one level down, so a stray key there is kept too.
void restoreUnreadKeys(nlohmann::json& out, const nlohmann::json& kept, const std::string& nested);

// Parses text into JSON, turning every nlohmann exception into a ForecastError naming the source.
nlohmann::json parse(const std::string& text, const std::string& source);

} // namespace gpuforecast::json_fields
