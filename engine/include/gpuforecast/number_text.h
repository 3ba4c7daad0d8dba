#pragma once
// Numbers in the notes a user reads (the CLI's text, the GUI's what-if panel): `%.3g` wrote a
// sheet's 1000 GFLOP/s per SM as "1e+03" and its 10^8 GFLOP/s peak as "1e+08".
#include <string>

namespace gpuforecast {

// At most `figures` significant figures as plain digits from 0.0001 up to a billion ("1000",
// "0.0213", "4.8", "758000", "100000000"), without trailing zeros as %g; an exponent only beyond
// ("1.23e+12").
std::string significantFigures(double v, int figures = 3);

} // namespace gpuforecast
