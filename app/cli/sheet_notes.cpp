#include "sheet_notes.h"

#include "gpuforecast/catalog.h"
#include "gpuforecast/extrapolation.h"

namespace gpuforecast::cli {

std::optional<std::string> readAsNewNote(const GpuSpec& gpu, const std::vector<GpuSpec>& catalog, const Forecaster& forecaster)
{
    if (const GpuSpec* bundled = editedFromBundled(gpu, catalog))
        return editedWithoutBasisNote(gpu, *bundled);
    return readAsNewGpuNote(gpu, forecaster.tiles().gpus());
}

std::vector<std::string> sheetFileNotes(const GpuSpec& gpu, const std::vector<GpuSpec>& catalog, const Forecaster& forecaster)
{
    std::vector<std::string> notes;
    if (auto n = readAsNewNote(gpu, catalog, forecaster))
        notes.push_back(*n);
    if (auto n = unknownArchitectureNote(gpu))
        notes.push_back(*n);
    for (const auto& line : basisStretch(gpu))
        notes.push_back(line);
    return notes;
}

} // namespace gpuforecast::cli
