#pragma once
#include <string>
#include <vector>

namespace gpuforecast::cli {

// Each returns the process exit code; input errors are thrown (ForecastError / UsageError).
int runGpus(const std::vector<std::string>& args);
int runKernels(const std::vector<std::string>& args);
int runTrain(const std::vector<std::string>& args);
int runEvaluate(const std::vector<std::string>& args);
int runPredict(const std::vector<std::string>& args);
int runModels(const std::vector<std::string>& args);
int runEvaluateModels(const std::vector<std::string>& args);

} // namespace gpuforecast::cli
