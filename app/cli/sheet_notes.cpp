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
    if (const GpuSpec* bundled = findGpu(catalog, gpu.id)) { // as predict says it
        std::string list;
        for (const auto& d : specDifferences(gpu, *bundled))
            list += (list.empty() ? "" : ", ") + d;
        if (!list.empty())
            notes.push_back("keeps the id of the bundled " + gpu.id + " but differs from it: " + list +
                            "; its rows are forecast with this sheet's numbers. Give it an id of its own to tell the two apart");
    }
    if (auto n = readAsNewNote(gpu, catalog, forecaster))
        notes.push_back(*n);
    if (auto n = unknownArchitectureNote(gpu))
        notes.push_back(*n);
    for (const auto& line : basisStretch(gpu))
        notes.push_back(line);
    return notes;
}

} // namespace gpuforecast::cli
