#include "gpuforecast/error.h"

#include <cstdio>

namespace gpuforecast {

namespace {

// The length of the well-formed UTF-8 character starting at s[i] (a lead byte), or 0 if there is none.
std::size_t utf8SequenceLength(const std::string& s, std::size_t i)
{
    const auto at = [&](std::size_t k) { return i + k < s.size() ? static_cast<unsigned char>(s[i + k]) : 0u; };
    const unsigned lead = at(0);
    std::size_t n = 0;
    unsigned lo = 0x80, hi = 0xbf; // the second byte's range (RFC 3629: no overlongs, no surrogates)
    if (lead >= 0xc2 && lead <= 0xdf)
        n = 2;
    else if (lead >= 0xe0 && lead <= 0xef) {
        n = 3;
        lo = lead == 0xe0 ? 0xa0 : 0x80;
        hi = lead == 0xed ? 0x9f : 0xbf;
    } else if (lead >= 0xf0 && lead <= 0xf4) {
        n = 4;
        lo = lead == 0xf0 ? 0x90 : 0x80;
        hi = lead == 0xf4 ? 0x8f : 0xbf;
    } else
        return 0;
    if (at(1) < lo || at(1) > hi)
        return 0;
    for (std::size_t k = 2; k < n; ++k)
        if (at(k) < 0x80 || at(k) > 0xbf)
            return 0;
    return n;
}

} // namespace

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
        } else if (u < 0x80)
            out += c;
        else if (const std::size_t n = utf8SequenceLength(message, i)) {
            out.append(message, i, n); // a whole UTF-8 character passes through
            i += n - 1;
        } else { // a byte that is no UTF-8 (a binary file's, quoted by a parser): its escape,
            char hex[5]; // so the line stays valid text for a terminal or a script
            std::snprintf(hex, sizeof hex, "\\x%02x", unsigned(u));
            out += hex;
        }
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
