#include "arguments.h"

#include <cctype>
#include <cerrno>
#include <cstdlib>

namespace gpuforecast::cli {

Arguments::Arguments(const std::vector<std::string>& args, const std::set<std::string>& valued,
                     const std::set<std::string>& flags)
{
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (valued.count(a)) {
            if (i + 1 >= args.size())
                throw UsageError(a + ": missing value");
            if (values_.count(a)) // "--batch 4 ... --batch 8": which one was meant?
                throw UsageError(a + ": given twice");
            if (args[i + 1].empty()) // `--out "$unset"`: no option here takes an empty value
                throw UsageError(a + ": empty value");
            values_[a] = args[++i];
        } else if (flags.count(a)) {
            flags_.insert(a);
        } else {
            throw UsageError("unknown argument '" + a + "'");
        }
    }
}

std::optional<std::string> Arguments::value(const std::string& name) const
{
    auto it = values_.find(name);
    if (it == values_.end())
        return std::nullopt;
    return it->second;
}

std::string Arguments::required(const std::string& name) const
{
    auto v = value(name);
    if (!v || v->empty())
        throw UsageError(name + ": required");
    return *v;
}

long long Arguments::integer(const std::string& name, long long fallback, long long lo, long long hi) const
{
    auto v = value(name);
    if (!v)
        return fallback;
    errno = 0;
    char* end = nullptr;
    const long long x = std::strtoll(v->c_str(), &end, 10);
    // strtoll skips leading blanks; "128 " is refused, so " 128" is too.
    const bool startsLikeANumber = !v->empty() && (std::isdigit((unsigned char)(*v)[0]) || (*v)[0] == '-' || (*v)[0] == '+');
    if (!startsLikeANumber || *end != '\0' || errno == ERANGE)
        throw UsageError(name + ": expected a whole number, got '" + *v + "'");
    if (x < lo || x > hi)
        throw UsageError(name + ": expected a value in [" + std::to_string(lo) + ", " + std::to_string(hi) +
                         "], got " + *v);
    return x;
}

} // namespace gpuforecast::cli
