#pragma once
// The learned part of one operator class: feature normalisation plus an ensemble of small MLPs,
// each mapping features to (alpha, gamma) through sigmoids. Loaded from resources/weights/<class>.json.
#include "gpuforecast/features.h"
#include "gpuforecast/kernel.h"
#include "gpuforecast/mlp.h"

#include <nlohmann/json.hpp>

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace gpuforecast {

// How raw features enter the networks: standardised with the training mean and scale. The range
// seen in training (min, max) is kept so callers can tell when a forecast extrapolates. It is not
// clipped to: model-sized kernels are larger than the measured ones, and leave-one-GPU-out
// validation was far worse with clipping (validation ln 23% -> 59%, softmax 34% -> 66%).
struct FeatureNormalization {
    Eigen::VectorXd mean, scale, min, max;
};

// Features whose spread in training was below this are constants: they enter the networks as 0.
inline constexpr double kDegenerateScale = 1e-4;
// (raw - mean) / scale per feature (kFeatureCount x N), degenerate features 0. Training and
// forecasting both normalise through this, so they can never disagree.
Eigen::MatrixXd normalizeFeatures(const FeatureNormalization& norm, const Eigen::MatrixXd& raw);

class UtilizationModel {
public:
    UtilizationModel() = default;
    UtilizationModel(OpClass opClass, FeatureNormalization normalization, double floorSeconds,
                     std::vector<Mlp> members, nlohmann::json provenance,
                     FloorComposition floorComposition = FloorComposition::SmoothMaximum);

    OpClass opClass() const { return opClass_; }
    std::size_t memberCount() const { return members_.size(); }
    const std::vector<Mlp>& members() const { return members_; }
    const FeatureNormalization& normalization() const { return norm_; }
    // The shortest time any kernel of this class was measured to take on the training GPUs (launch
    // and timing overhead), and how the networks were fitted to meet it (withLaunchFloor()): stored
    // in the weights ("launch_floor"), so a file trained one way is never forecast the other way.
    double floorSeconds() const { return floorSeconds_; }
    FloorComposition floorComposition() const { return floorComposition_; }
    // The launch floor of one operator. Element-wise operators pay different launch overheads on
    // the same host (add 26 us, a scalar add 31 us, relu 31 us on A100, T4 and P4 alike), and a
    // floor per operator keeps the networks from learning that difference as efficiency. Operators
    // without one of their own (fused chains, silu, ...) take the class floor.
    double floorSecondsFor(std::string_view op) const;
    // The lowest utilization the wave law gives (minimumUtilization() of the class when trained);
    // stored in the weights ("min_utilization", absent: 0) so a file is forecast as it was fitted.
    double minUtilization() const { return minUtilization_; }
    void setMinUtilization(double u); // throws ForecastError outside [0, 1)
    const std::map<std::string, double, std::less<>>& operatorFloors() const { return operatorFloors_; }
    // Throws ForecastError unless every floor is in [0, 1) s and every name an operator of the class.
    void setOperatorFloors(std::map<std::string, double, std::less<>> floors);
    const nlohmann::json& provenance() const { return provenance_; }

    Eigen::MatrixXd normalize(const Eigen::MatrixXd& rawFeatures) const; // kFeatureCount x N

    // Rows 0 and 1 of the result are alpha and gamma (each in (0, 1)) of one ensemble member.
    Eigen::MatrixXd alphaGamma(const Eigen::MatrixXd& rawFeatures, std::size_t member) const;

    nlohmann::json toJson() const; // includes self-test vectors computed from the current weights
    static UtilizationModel fromJson(const nlohmann::json& j, const std::string& source);
    static UtilizationModel load(const std::string& path);
    void save(const std::string& path) const;

private:
    OpClass opClass_ = OpClass::Bmm;
    FeatureNormalization norm_;
    double floorSeconds_ = 0;
    FloorComposition floorComposition_ = FloorComposition::SmoothMaximum;
    std::map<std::string, double, std::less<>> operatorFloors_;
    double minUtilization_ = 0;
    std::vector<Mlp> members_;
    nlohmann::json provenance_;
};

} // namespace gpuforecast
