#pragma once
// A small dense network evaluated on a whole batch at once: inputs are columns, so one matrix
// product per layer prices every kernel of a model. Immutable after construction, so predict()
// is const and safe to call from several threads.
#include <Eigen/Dense>
#include <nlohmann/json_fwd.hpp>

#include <string>
#include <vector>

namespace gpuforecast {

enum class Activation { Identity, Relu, Tanh, Sigmoid };

std::string activationName(Activation a);
Activation activationFromName(const std::string& name, const std::string& source, const std::string& field);

struct DenseLayer {
    Eigen::MatrixXd weights; // out x in
    Eigen::VectorXd bias;    // out
    Activation activation = Activation::Identity;
};

void applyActivation(Activation a, Eigen::MatrixXd& x);

class Mlp {
public:
    Mlp() = default;
    explicit Mlp(std::vector<DenseLayer> layers); // checks that shapes chain; throws ForecastError

    // inputs: inputSize() x batch; returns outputSize() x batch.
    Eigen::MatrixXd forward(const Eigen::MatrixXd& inputs) const;

    int inputSize() const;
    int outputSize() const;
    const std::vector<DenseLayer>& layers() const { return layers_; }
    std::vector<DenseLayer>& mutableLayers() { return layers_; } // for the trainer

    nlohmann::json toJson() const;
    static Mlp fromJson(const nlohmann::json& j, const std::string& source, const std::string& field);

private:
    std::vector<DenseLayer> layers_;
};

} // namespace gpuforecast
