#include "arguments.h"
#include "commands.h"
#include "sheet_notes.h"
#include "weights_notes.h"

#include "gpuforecast/catalog.h"
#include "gpuforecast/csv.h"
#include "gpuforecast/error.h"
#include "gpuforecast/evaluation.h"
#include "gpuforecast/file_io.h"
#include "gpuforecast/forecaster.h"
#include "gpuforecast/kernel_table.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <sstream>

namespace gpuforecast::cli {

int runKernels(const std::vector<std::string>& args)
{
    Arguments a(args, {"--in", "--out", "--weights"}, {"--details"});
    const bool details = a.has("--details");
    const std::string dataDir = resourceDirectory();
    // Only op, gpu and the dimensions are read: measured columns are passed through untouched.
    // `--out` naming the input (or a link to it) would replace the measurements with the forecast.
    if (const auto out = a.value("--out"); out && *out != "-" && a.required("--in") != "-") {
        std::error_code ec;
        if (std::filesystem::equivalent(a.required("--in"), *out, ec))
            throw UsageError("--out: " + *out + " is the --in file; write the forecast elsewhere");
    }
    const KernelTable table = readKernelTable(a.required("--in"), TableContent::InputsOnly);
    const auto catalog = loadGpuDirectory((std::filesystem::path(dataDir) / "gpus").string());
    const Forecaster forecaster = Forecaster::loadFromDirectory(
        a.value("--weights").value_or((std::filesystem::path(dataDir) / "weights").string()));

    if (const std::string note = unlearnedNote(forecaster, table, a.value("--weights").value_or("the shipped weights"));
        !note.empty()) // on stderr: the output table is the forecast itself
        std::cerr << "gpuforecast-cli kernels: note: " << note << "\n";

    std::vector<KernelForecast> forecasts(table.rows.size());
    for (const auto& gpu : resolveTableGpus(table, catalog)) {
        if (!findGpu(catalog, gpu.cell)) // a sheet file: what predict would say of it
            for (const auto& note : sheetFileNotes(gpu.spec, catalog, forecaster))
                std::cerr << "gpuforecast-cli kernels: note: " << gpu.cell << ": " << note << "\n";
        std::vector<Kernel> kernels;
        kernels.reserve(gpu.rows.size());
        for (std::size_t i : gpu.rows)
            kernels.push_back(table.rows[i].kernel);
        const auto f = forecaster.predict(kernels, gpu.spec);
        for (std::size_t j = 0; j < gpu.rows.size(); ++j)
            forecasts[gpu.rows[j]] = f[j];
    }

    // Why the forecast is what it is (--details): the tile, the waves, the bound, the utilization.
    // priced_waves: the count the forecast was priced at, more than `waves` where a GEMM's tiles in
    // more waves came out faster (KernelForecast::pricedWaves).
    static const std::vector<std::string> kWritten{"pred_ms", "pred_low_ms", "pred_high_ms", "tile", "waves",
                                                   "priced_waves", "bound", "utilization"};
    const std::vector<std::string> added(kWritten.begin(), details ? kWritten.end() : kWritten.begin() + 1);
    // Columns this command writes, with --details or not, are not passed through: run on its own
    // output (to try other weights, say) it replaces the old forecast, and leaves no stale details.
    std::vector<std::size_t> kept;
    for (std::size_t c = 0; c < table.header.size(); ++c)
        if (std::find(kWritten.begin(), kWritten.end(), table.header[c]) == kWritten.end())
            kept.push_back(c);
    auto keptCells = [&](const std::vector<std::string>& cells) {
        std::vector<std::string> out;
        out.reserve(kept.size());
        for (std::size_t c : kept)
            out.push_back(cells[c]);
        return out;
    };
    std::ostringstream out;
    out.precision(8);
    auto header = keptCells(table.header);
    header.insert(header.end(), added.begin(), added.end());
    out << csv::joinRow(header) << '\n';
    for (std::size_t i = 0; i < table.rows.size(); ++i) {
        const auto& f = forecasts[i];
        out << csv::joinRow(keptCells(table.rows[i].cells)) << ',' << f.ms();
        if (details) {
            const auto& g = f.geometry;
            const std::string tile = table.rows[i].kernel.isGemm()
                                         ? std::to_string(g.gemmTile.alongK) + "x" + std::to_string(g.gemmTile.alongM) +
                                               (g.gemmTile.reductionSplit > 1 ? "/split" + std::to_string(g.gemmTile.reductionSplit) : "") +
                                               (f.paddedM > 0 ? " as m=" + std::to_string(f.paddedM) + " k=" + std::to_string(f.paddedK) +
                                                                     (f.paddedN != table.rows[i].kernel.n ? " n=" + std::to_string(f.paddedN) : "")
                                                                : "")
                                         : std::to_string(static_cast<long long>(g.tileElements));
            out << ',' << f.secondsLow * 1e3 << ',' << f.secondsHigh * 1e3 << ',' << tile << ',' << g.waves << ','
                << f.wavesPricedAt() << ',' << f.boundName() << ',' << f.utilization;
        }
        out << '\n';
    }
    if (auto path = a.value("--out"); path && *path != "-") { // "-": standard output, as for --in
        // What --in reads, --out writes: a .gz name gets gzip, so the file can be read back.
        if (endsWith(*path, ".gz"))
            writeGzipFileAtomically(*path, out.str());
        else
            writeFileAtomically(*path, out.str());
    } else
        std::cout << out.str();
    return 0;
}

} // namespace gpuforecast::cli
