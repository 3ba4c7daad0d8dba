#include "weights_notes.h"

#include <algorithm>

namespace gpuforecast::cli {

std::vector<std::string> unlearnedClasses(const Forecaster& forecaster, const std::vector<OpClass>* only)
{
    std::vector<std::string> out;
    for (OpClass c : kLearnedClasses)
        if (!forecaster.isLearned(c) && (!only || std::find(only->begin(), only->end(), c) != only->end()))
            out.emplace_back(opClassName(c));
    return out;
}

std::string unlearnedNote(const std::vector<std::string>& classes, const std::string& weightsDir)
{
    if (classes.empty())
        return {};
    std::string list;
    for (const auto& c : classes)
        list += (list.empty() ? "" : ", ") + c;
    return "no learned weights for " + list + " in " + weightsDir +
           ": those kernels are priced at their roofline (utilization 1)";
}

std::string unlearnedNote(const Forecaster& forecaster, const KernelTable& table, const std::string& weightsDir)
{
    std::vector<OpClass> present;
    for (const auto& row : table.rows)
        if (std::find(present.begin(), present.end(), row.kernel.opClass) == present.end())
            present.push_back(row.kernel.opClass);
    return unlearnedNote(unlearnedClasses(forecaster, &present), weightsDir);
}

} // namespace gpuforecast::cli
