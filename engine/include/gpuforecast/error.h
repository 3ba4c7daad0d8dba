#pragma once
// The one error type every loader and validator throws. Its message always names the file (or input)
// and the field, so the CLI can print it as one line and the GUI can show it without rewording.
#include <stdexcept>
#include <string>

namespace gpuforecast {

class ForecastError : public std::runtime_error {
public:
    explicit ForecastError(const std::string& message) : std::runtime_error(message) {}
};

// "<source>: <field>: <what>" — the single format for input errors.
[[noreturn]] void throwInputError(const std::string& source, const std::string& field,
                                  const std::string& what);

} // namespace gpuforecast
