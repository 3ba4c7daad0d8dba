#include "gpuforecast/error.h"

#include <cstdio>

namespace gpuforecast {

std::string oneLine(const std::string& message)
{
    // Values from files and command lines are quoted in messages as given; a control character
    // among them (an id with a newline, a tab in a field name) would break the one-line format
    // that the CLI prints and scripts read, so it is written as its escape instead.
    std::string out;
    out.reserve(message.size());
    for (std::size_t i = 0; i < message.size(); ++i) {
        const char c = message[i];
        const auto u = static_cast<unsigned char>(c);
        const auto next = i + 1 < message.size() ? static_cast<unsigned char>(message[i + 1]) : 0u;
        if (u == 0xc2 && next >= 0x80 && next <= 0x9f) { // U+0080..U+009F in UTF-8: C1 controls (CSI)
            char hex[7];
            std::snprintf(hex, sizeof hex, "\\u%04x", next);
            out += hex;
            ++i;
        } else if (c == '\n')
            out += "\\n";
        else if (c == '\r')
            out += "\\r";
        else if (c == '\t')
            out += "\\t";
        else if (u < 0x20 || u == 0x7f) {
            char hex[5];
            std::snprintf(hex, sizeof hex, "\\x%02x", unsigned(u));
            out += hex;
        } else
            out += c; // UTF-8 multi-byte sequences pass through whole
    }
    return out;
}

void throwInputError(const std::string& source, const std::string& field, const std::string& what)
{
    std::string msg = source;
    if (!field.empty())
        msg += ": " + field;
    msg += ": " + what;
    throw ForecastError(msg);
}

void throwOutputError(const std::string& path, const std::string& what) { throw OutputError(path + ": " + what); }

} // namespace gpuforecast
