#pragma once
// What a --weights folder lacks. `train` on a subset of the classes writes only their networks, and
// the kernels of the others are priced at their roofline, which must not pass for a learned forecast.
#include "gpuforecast/forecaster.h"
#include "gpuforecast/kernel_table.h"

#include <string>
#include <vector>

namespace gpuforecast::cli {

// The learned classes (their names, as in the tables) with no network in `forecaster`; with
// `only`, those of them among `only`.
std::vector<std::string> unlearnedClasses(const Forecaster& forecaster, const std::vector<OpClass>* only = nullptr);

// "no learned weights for ln, softmax in DIR: those kernels are priced at their roofline
// (utilization 1)"; empty when `classes` is.
std::string unlearnedNote(const std::vector<std::string>& classes, const std::string& weightsDir);

// The note for the classes `table` has rows of (kernels, evaluate); empty when all are learned.
std::string unlearnedNote(const Forecaster& forecaster, const KernelTable& table, const std::string& weightsDir);

} // namespace gpuforecast::cli
