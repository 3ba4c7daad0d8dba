#pragma once
// Training of one operator class's utilization networks. The loss runs through the whole forecast
// (roofline x utilization x waves), so the gradient reaches alpha and gamma exactly as they are
// used: loss = mean over kernels of (log forecast - log measured)^2, a smooth stand-in for
// relative error that treats a 20 us kernel and a 20 ms kernel alike.
#include "gpuforecast/training_set.h"
#include "gpuforecast/utilization_model.h"

#include <functional>
#include <map>
#include <vector>

namespace gpuforecast {

struct EpochReport {
    OpClass opClass;
    int member = 0;
    int epoch = 0;
    double trainLoss = 0;
    double validationMape = 0; // percent
    bool improved = false;
    double elapsedSeconds = 0;
};

struct TrainOptions {
    int hiddenWidth = 64;
    int hiddenLayers = 3;
    int maxEpochs = 150;
    int batchSize = 256;
    double learningRate = 2e-3;
    int patience = 15;              // epochs without validation improvement before stopping
    double validationFraction = 0.1;
    unsigned long long seed = 1;
    int ensembleSize = 1;
    std::function<void(const EpochReport&)> progress; // may be empty; called from the training thread
};

struct TrainResult {
    UtilizationModel model;
    double validationMape = 0; // percent, on the held-back split of the training GPUs
    int epochs = 0; // run, over every network of the ensemble
    double seconds = 0;
};

TrainResult trainUtilizationModel(const ClassSamples& samples, const TrainOptions& options,
                                  const nlohmann::json& provenance);

// Loss of one network on a batch (features already normalised; floorSeconds: each sample's launch
// floor, met as `how` says; trafficFloorSeconds: its KernelGeometry::trafficFloorSeconds, 0 for
// none) and, if grads is given, its gradient with respect to every weight and bias (same shapes as
// the layers); minUtilization: minimumUtilization() of the class, 0 for none. Exposed for tests.
double forecastLoss(const Mlp& net, const Eigen::MatrixXd& normalizedFeatures, const Eigen::VectorXd& waves,
                    const Eigen::VectorXd& rooflineSeconds, const Eigen::VectorXd& measuredSeconds,
                    const Eigen::VectorXd& floorSeconds, const Eigen::VectorXd& trafficFloorSeconds,
                    std::vector<DenseLayer>* grads, FloorComposition how = FloorComposition::SmoothMaximum,
                    double minUtilization = 0);

// Each sample's launch floor in training: its own GPU's for bmm and layer norm, its operator's on
// its GPU for element-wise, the median GPU's for the other classes (why: trainer.cpp). Exposed
// for tests.
Eigen::VectorXd trainingLaunchFloors(const ClassSamples& samples);

// Each GPU's launch floor for the class: the 1st percentile of its measured times.
std::map<std::string, double> estimateLaunchFloors(const ClassSamples& samples);

// Each operator's floor on each GPU (operator -> GPU -> seconds): the 1st percentile of its times.
std::map<std::string, std::map<std::string, double>> estimateOperatorLaunchFloors(const ClassSamples& samples);

// The floor a forecast assumes (the model's floor_seconds): the fastest measured GPU's.
double estimateLaunchFloor(const ClassSamples& samples);

// Mean absolute percentage error (percent) of forecasts against measurements.
double meanAbsolutePercentageError(const Eigen::VectorXd& predicted, const Eigen::VectorXd& measured);

} // namespace gpuforecast
