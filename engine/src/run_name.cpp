#include "gpuforecast/run_name.h"

#include <regex>

namespace gpuforecast {

std::optional<RunName> parseRunName(const std::string& name)
{
    static const std::regex re(R"(^(\w+)-(inf|train)-(\d{1,9})-(\d{1,9})(?:-(fusion|dp\d+|tp\d+|pp\d+_\d+))?$)");
    std::smatch m;
    if (!std::regex_match(name, m, re))
        return std::nullopt;
    RunName r;
    r.model = m[1].str();
    r.training = m[2].str() == "train";
    r.seq = std::stoll(m[3].str());
    r.batch = std::stoll(m[4].str());
    const std::string suffix = m[5].str();
    r.fusion = suffix == "fusion";
    if (!r.fusion)
        r.parallel = suffix;
    if (r.seq < 1 || r.batch < 1)
        return std::nullopt;
    return r;
}

} // namespace gpuforecast
