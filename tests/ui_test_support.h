#pragma once
// What the explorer's test suites share: the user's GPUs in a throwaway folder (never the real
// one), and forecasts reduced to the numbers the tests compare.
#include "forecast_session.h"

#include <QDir>
#include <QTemporaryDir>

#include <vector>

namespace gpuforecast::ui::test {

class UserGpuFolder {
public:
    UserGpuStore store() const { return UserGpuStore(dir_.filePath("gpus")); }
    void clear() const { QDir(dir_.filePath("gpus")).removeRecursively(); } // before each test

private:
    QTemporaryDir dir_;
};

// The session forecasts one sequence of `seq` tokens of `model` on `gpu` alone.
inline bool showOneSequence(ForecastSession& session, const char* model, long long seq, const char* gpu)
{
    if (session.setModel(model))
        return false;
    GraphOptions o = session.options();
    o.batch = 1;
    o.seq = seq;
    if (session.setOptions(o))
        return false;
    session.setSelectedGpus({gpu});
    return true;
}

inline std::vector<double> totals(const ForecastSession& session)
{
    std::vector<double> t;
    for (const auto& f : *session.forecasts())
        t.push_back(f.totalSeconds());
    return t;
}

} // namespace gpuforecast::ui::test
