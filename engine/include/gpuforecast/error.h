#pragma once
// The one error type every loader and validator throws. Its message always names the file (or input)
// and the field, so the CLI can print it as one line and the GUI can show it without rewording.
#include <stdexcept>
#include <string>

namespace gpuforecast {

// The message with control characters escaped ("\n", "\x1b"): an error is always one line.
std::string oneLine(const std::string& message);

class ForecastError : public std::runtime_error {
public:
    explicit ForecastError(const std::string& message) : std::runtime_error(oneLine(message)) {}
};

// A file that was named well but could not be written to the end (a full disk, an I/O error, a
// rename the file system refused): the machine's failure, not the input's. Same message format.
class OutputError : public ForecastError {
public:
    explicit OutputError(const std::string& message) : ForecastError(message) {}
};

// "<source>: <field>: <what>" — the single format for input errors.
[[noreturn]] void throwInputError(const std::string& source, const std::string& field,
                                  const std::string& what);
// "<path>: <what>", thrown as OutputError.
[[noreturn]] void throwOutputError(const std::string& path, const std::string& what);

} // namespace gpuforecast
