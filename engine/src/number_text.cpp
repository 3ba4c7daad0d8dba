#include "gpuforecast/number_text.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace gpuforecast {

std::string significantFigures(double v, int figures)
{
    figures = std::max(1, figures);
    char text[64];
    if (v == 0 || !std::isfinite(v)) {
        std::snprintf(text, sizeof text, "%g", v);
        return text;
    }
    // The decimals follow the rounded value: 999.7 to three figures is "1000", not "1000.0".
    const double scale = std::pow(10.0, figures - 1 - std::floor(std::log10(std::abs(v))));
    const double rounded = std::round(v * scale) / scale;
    const int magnitude = int(std::floor(std::log10(std::abs(rounded))));
    if (magnitude < -4 || magnitude >= 9)
        std::snprintf(text, sizeof text, "%.*e", figures - 1, rounded);
    else
        std::snprintf(text, sizeof text, "%.*f", std::max(0, figures - 1 - magnitude), rounded);
    std::string out = text;
    // As %g writes them, without trailing zeros: "4.8", not "4.80".
    if (const auto e = out.find('e'); out.find('.') != std::string::npos) {
        std::string mantissa = out.substr(0, e), exponent = e == std::string::npos ? "" : out.substr(e);
        while (mantissa.back() == '0')
            mantissa.pop_back();
        if (mantissa.back() == '.')
            mantissa.pop_back();
        out = mantissa + exponent;
    }
    return out;
}

} // namespace gpuforecast
