#pragma once
// Tiny option parser for the CLI's "--name value" and "--flag" arguments. Each command declares
// what it accepts, so a typo is an error (exit 2) rather than an option silently ignored.
#include "gpuforecast/error.h"

#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace gpuforecast::cli {

// One line whatever the arguments held, as ForecastError is.
class UsageError : public std::runtime_error {
public:
    explicit UsageError(const std::string& message) : std::runtime_error(oneLine(message)) {}
};

class Arguments {
public:
    Arguments(const std::vector<std::string>& args, const std::set<std::string>& valued,
              const std::set<std::string>& flags);

    bool has(const std::string& name) const { return flags_.count(name) || values_.count(name); }
    std::optional<std::string> value(const std::string& name) const;
    std::string required(const std::string& name) const;
    long long integer(const std::string& name, long long fallback, long long lo, long long hi) const;

private:
    std::map<std::string, std::string> values_;
    std::set<std::string> flags_;
};

} // namespace gpuforecast::cli
