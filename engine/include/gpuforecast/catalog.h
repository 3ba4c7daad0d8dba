#pragma once
// Finding the bundled data (spec sheets, weights, models) wherever the program runs from: the
// source tree during development, <prefix>/share/gpuforecast after install, or an override.
#include "gpuforecast/gpu_spec.h"

#include <optional>
#include <string>
#include <vector>

namespace gpuforecast {

inline constexpr const char* kDataDirEnv = "GPUFORECAST_DATA_DIR";

// Resolution order: $GPUFORECAST_DATA_DIR; <executable dir>/../share/gpuforecast; the source
// tree's resources/ (compiled in for build-tree runs). Throws ForecastError if none has gpus/.
std::string resourceDirectory();

// Every *.json in the folder, sorted by id. Throws on the first invalid file (naming it).
std::vector<GpuSpec> loadGpuDirectory(const std::string& dir);

// Whether a GPU argument or table cell that the catalog lacks is a sheet file's path: it ends in
// .json or holds a folder ("./A10copy" is no GPU id, and "unknown GPU" would hide a missing file).
bool namesSheetFile(const std::string& idOrPath);
// An id from the catalog, or a path to a spec JSON file (its efficiency basis resolved in the catalog).
GpuSpec resolveGpu(const std::vector<GpuSpec>& catalog, const std::string& idOrPath);
// The GPU a kernel table's `gpu` cell names (kernels, evaluate): a catalog id, or, as `predict
// --gpu` takes it, a sheet file (ending in .json or holding a slash; relative to the working
// folder), its basis resolved. An unknown id throws "<table>: line N gpu: unknown GPU ...".
GpuSpec resolveTableGpu(const std::vector<GpuSpec>& catalog, const std::string& cell, const std::string& table,
                        std::size_t line);
// Points spec.efficiencyBasis at the catalog sheet spec.efficiencyBasisId names (that sheet's own
// basis, if it has one), or clears it when no basis is named. A sheet may name its own id: an
// edited bundled sheet read with the bundled one's efficiency. Throws "<source>: efficiency_basis:
// ..." for an id the catalog lacks.
void resolveEfficiencyBasis(GpuSpec& spec, const std::vector<GpuSpec>& catalog, const std::string& source);
const GpuSpec* findGpu(const std::vector<GpuSpec>& catalog, const std::string& id);
// The bundled sheet a sheet file was most likely edited from, when it names no efficiency basis:
// one with the same `name` (case and spacing aside), else the longest bundled id its id starts
// with ("A100-SXM4-80GB-2x"). Null for a sheet with a basis, one under a bundled id (read as
// itself), or one that matches none.
const GpuSpec* editedFromBundled(const GpuSpec& sheet, const std::vector<GpuSpec>& catalog);
// " (did you mean H100-PCIE-80GB or H100-SXM5-80GB?)" for an id no sheet has, or empty.
std::string didYouMeanGpu(const std::string& id, const std::vector<GpuSpec>& catalog);

} // namespace gpuforecast
