#pragma once
// What the CLI says of a GPU given as a sheet file rather than a catalogue id: how the networks
// read it (as a new GPU, or with a basis stretched far), and what an architecture it does not
// know costs. predict prints them among its notes; kernels and evaluate on stderr, per sheet.
#include "gpuforecast/forecaster.h"
#include "gpuforecast/gpu_spec.h"

#include <optional>
#include <string>
#include <vector>

namespace gpuforecast::cli {

// Said of a sheet file that names no efficiency basis: the bundled sheet it was edited from, when
// its name or id gives that away, else the nearest measured GPU (only inside the measured range).
std::optional<std::string> readAsNewNote(const GpuSpec& gpu, const std::vector<GpuSpec>& catalog, const Forecaster& forecaster);

// Every note above for one sheet file, one line each: a bundled id kept with other numbers, read
// as new, an unknown architecture, and the ratios that leave its basis far behind.
std::vector<std::string> sheetFileNotes(const GpuSpec& gpu, const std::vector<GpuSpec>& catalog, const Forecaster& forecaster);

} // namespace gpuforecast::cli
