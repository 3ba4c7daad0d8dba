#include "gpuforecast/number_text.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>

namespace gpuforecast {

namespace {

// Trailing zeros off the mantissa, as %g writes it: "4.80" -> "4.8", "1.00e+12" -> "1e+12".
std::string withoutTrailingZeros(std::string text)
{
    const std::size_t e = text.find('e');
    std::string mantissa = text.substr(0, e), exponent = e == std::string::npos ? "" : text.substr(e);
    if (mantissa.find('.') != std::string::npos) {
        while (mantissa.back() == '0')
            mantissa.pop_back();
        if (mantissa.back() == '.')
            mantissa.pop_back();
    }
    return mantissa + exponent;
}

} // namespace

std::string significantFigures(double v, int figures)
{
    figures = std::clamp(figures, 1, 17);
    if (v == 0)
        return "0";
    if (!std::isfinite(v))
        return std::isnan(v) ? "nan" : v > 0 ? "inf" : "-inf";
    // std::to_chars, not printf: the same digits under any locale (a GUI's de_DE wrote "4,80"), and
    // the exponent of the value as rounded, with no pow() to overflow at the ends of the range.
    char text[400];
    const auto sci = std::to_chars(text, text + sizeof text, v, std::chars_format::scientific, figures - 1);
    const std::string scientific(text, sci.ptr);
    const int exponent = std::atoi(scientific.c_str() + scientific.find('e') + 1);
    if (exponent < -4 || exponent >= 9)
        return withoutTrailingZeros(scientific);
    // The rounded value, read back (758123 to three figures is 758000, which "fixed" alone keeps).
    double rounded = v;
    std::from_chars(scientific.data(), scientific.data() + scientific.size(), rounded);
    const auto fixed = std::to_chars(text, text + sizeof text, rounded, std::chars_format::fixed, std::max(0, figures - 1 - exponent));
    return withoutTrailingZeros(std::string(text, fixed.ptr));
}

} // namespace gpuforecast
