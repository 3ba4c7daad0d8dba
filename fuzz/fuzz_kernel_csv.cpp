// Fuzzes the kernel table reader (parseKernelTable, and csv::parse beneath it) in both modes:
// inputs only (gpuforecast-cli kernels) and with measurements (train / evaluate). Accepted rows
// must forecast to a finite, positive time; measured kernel names go through the tile-name parser
// the trainer uses; and csv::joinRow must write back what csv::parse read.
#include "fuzz_support.h"

#include "gpuforecast/csv.h"
#include "gpuforecast/kernel_table.h"
#include "gpuforecast/tiling.h"

#include <algorithm>

using namespace gpuforecast;

namespace {

void csvRoundTrip(const std::string& text)
{
    std::vector<std::vector<std::string>> rows;
    try {
        rows = csv::parse(text, "fuzz.csv");
    } catch (const ForecastError&) {
        return;
    }
    std::string written;
    for (const auto& r : rows)
        written += csv::joinRow(r) + "\n";
    GF_FUZZ_CHECK(csv::parse(written, "written.csv") == rows, "csv::joinRow does not round-trip csv::parse");
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string text = fuzz::textOf(data, size);
    csvRoundTrip(text);

    const Forecaster rooflineOnly({}, nullptr);
    const GpuSpec gpu = fuzz::referenceGpu();
    for (const auto content : {TableContent::InputsOnly, TableContent::WithMeasurements}) {
        KernelTable table;
        try {
            table = parseKernelTable(text, "fuzz.csv", content);
        } catch (const ForecastError&) {
            continue;
        }
        GF_FUZZ_CHECK(content == TableContent::InputsOnly || table.measurements.size() == table.rows.size(),
                      "one measurement per row");
        for (std::size_t i = 0; i < std::min<std::size_t>(table.rows.size(), 64); ++i) {
            const auto& row = table.rows[i];
            GF_FUZZ_CHECK(row.cells.size() == table.header.size(), "row width");
            fuzz::checkForecast(rooflineOnly.predict(row.kernel, gpu), "forecast of an accepted row");
        }
        for (const auto& m : table.measurements) {
            GF_FUZZ_CHECK(std::isfinite(m.latencyMs) && m.latencyMs > 0, "accepted latency");
            if (const auto tile = parseGemmKernelName(m.kernelName))
                GF_FUZZ_CHECK(tile->alongK >= 1 && tile->alongM >= 1, m.kernelName.c_str());
        }
    }
    return 0;
}
