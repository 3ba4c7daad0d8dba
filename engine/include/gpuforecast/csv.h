#pragma once
// Minimal RFC 4180 CSV: quoted fields (kernel names contain commas), doubled quotes, CRLF.
#include <string>
#include <string_view>
#include <vector>

namespace gpuforecast::csv {

// Splits text into rows of cells. Throws ForecastError naming `source` and the line on an
// unterminated quote.
std::vector<std::vector<std::string>> parse(std::string_view text, const std::string& source);

std::string quote(const std::string& cell); // quotes only when needed
std::string joinRow(const std::vector<std::string>& cells);

} // namespace gpuforecast::csv
