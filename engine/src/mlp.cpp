#include "gpuforecast/mlp.h"

#include "gpuforecast/error.h"

#include <nlohmann/json.hpp>

#include <cmath>

namespace gpuforecast {
namespace {

// Loader limits that keep every forward pass finite. Inputs reach the first layer standardised
// (|x| <= ~1e12, see UtilizationModel::fromJson); each layer multiplies the largest magnitude by at
// most 4096 x 1e6 (+ 1e6), so 16 layers stay below 1e170, far from overflow. Without them a file
// with weights of 1e300 loaded fine and made every forecast NaN (inf - inf inside the network).
// Trained networks have 4 layers and weights of order 1.
constexpr std::size_t kMaxLayers = 16;
constexpr double kMaxParameter = 1e6;

bool isParameter(const nlohmann::json& v)
{
    return v.is_number() && std::isfinite(v.get<double>()) && std::abs(v.get<double>()) <= kMaxParameter;
}

} // namespace

std::string activationName(Activation a)
{
    switch (a) {
    case Activation::Identity: return "identity";
    case Activation::Relu: return "relu";
    case Activation::Tanh: return "tanh";
    case Activation::Sigmoid: return "sigmoid";
    }
    return "identity";
}

Activation activationFromName(const std::string& name, const std::string& source, const std::string& field)
{
    for (Activation a : {Activation::Identity, Activation::Relu, Activation::Tanh, Activation::Sigmoid})
        if (activationName(a) == name)
            return a;
    throwInputError(source, field, "unknown activation '" + name + "' (expected identity, relu, tanh or sigmoid)");
}

void applyActivation(Activation a, Eigen::MatrixXd& x)
{
    switch (a) {
    case Activation::Identity: break;
    case Activation::Relu: x = x.cwiseMax(0.0); break;
    case Activation::Tanh: {
        // tanh through Eigen's vectorised exp: (e^2x - 1) / (e^2x + 1). libm's scalar tanh was half
        // of a whole-model forecast's time; this agrees with it to about 1e-16 absolute. Beyond
        // |x| = 20, tanh is +-1 to double precision and e^2x would overflow the quotient.
        const auto e = (2.0 * x.array().max(-20.0).min(20.0)).exp();
        x = ((e - 1.0) / (e + 1.0)).matrix();
        break;
    }
    case Activation::Sigmoid: x = (1.0 / (1.0 + (-x.array()).exp())).matrix(); break;
    }
}

Mlp::Mlp(std::vector<DenseLayer> layers) : layers_(std::move(layers))
{
    if (layers_.empty())
        throw ForecastError("MLP: at least one layer is required");
    for (std::size_t i = 0; i < layers_.size(); ++i) {
        const auto& l = layers_[i];
        if (l.weights.rows() != l.bias.size())
            throw ForecastError("MLP layer " + std::to_string(i) + ": bias has " + std::to_string(l.bias.size()) +
                                " entries for " + std::to_string(l.weights.rows()) + " outputs");
        if (i > 0 && l.weights.cols() != layers_[i - 1].weights.rows())
            throw ForecastError("MLP layer " + std::to_string(i) + ": expects " + std::to_string(l.weights.cols()) +
                                " inputs but the previous layer gives " +
                                std::to_string(layers_[i - 1].weights.rows()));
    }
}

Eigen::MatrixXd Mlp::forward(const Eigen::MatrixXd& inputs) const
{
    Eigen::MatrixXd x = inputs;
    for (const auto& l : layers_) {
        Eigen::MatrixXd y(l.weights.rows(), x.cols());
        y.noalias() = l.weights * x;
        y.colwise() += l.bias;
        applyActivation(l.activation, y);
        x = std::move(y);
    }
    return x;
}

int Mlp::inputSize() const { return layers_.empty() ? 0 : int(layers_.front().weights.cols()); }
int Mlp::outputSize() const { return layers_.empty() ? 0 : int(layers_.back().weights.rows()); }

nlohmann::json Mlp::toJson() const
{
    nlohmann::json out = nlohmann::json::array();
    for (const auto& l : layers_) {
        nlohmann::json w = nlohmann::json::array();
        for (Eigen::Index r = 0; r < l.weights.rows(); ++r) {
            nlohmann::json row = nlohmann::json::array();
            for (Eigen::Index c = 0; c < l.weights.cols(); ++c)
                row.push_back(l.weights(r, c));
            w.push_back(row);
        }
        nlohmann::json b = nlohmann::json::array();
        for (Eigen::Index r = 0; r < l.bias.size(); ++r)
            b.push_back(l.bias(r));
        out.push_back({{"in", l.weights.cols()},
                       {"out", l.weights.rows()},
                       {"activation", activationName(l.activation)},
                       {"weights", w},
                       {"bias", b}});
    }
    return out;
}

Mlp Mlp::fromJson(const nlohmann::json& j, const std::string& source, const std::string& field)
{
    if (!j.is_array() || j.empty() || j.size() > kMaxLayers)
        throwInputError(source, field, "expected an array of 1 to " + std::to_string(kMaxLayers) + " layers");
    std::vector<DenseLayer> layers;
    for (std::size_t i = 0; i < j.size(); ++i) {
        const std::string f = field + "[" + std::to_string(i) + "]";
        const auto& lj = j[i];
        if (!lj.is_object())
            throwInputError(source, f, "expected a layer object");
        auto dim = [&](const char* key) {
            if (!lj.contains(key) || !lj[key].is_number_integer() || lj[key].get<long long>() < 1 ||
                lj[key].get<long long>() > 4096)
                throwInputError(source, f + "." + key, "expected a layer size in [1, 4096]");
            return Eigen::Index(lj[key].get<long long>());
        };
        const Eigen::Index in = dim("in"), out = dim("out");
        DenseLayer l;
        if (!lj.contains("activation") || !lj["activation"].is_string())
            throwInputError(source, f + ".activation", "expected a string");
        l.activation = activationFromName(lj["activation"].get<std::string>(), source, f + ".activation");
        const auto& w = lj.contains("weights") ? lj["weights"] : nlohmann::json();
        if (!w.is_array() || Eigen::Index(w.size()) != out)
            throwInputError(source, f + ".weights", "expected " + std::to_string(out) + " rows");
        // Check every row's length before allocating: "in" and "out" are claims, and a 13 KB file
        // of empty rows claiming 4096 x 4096 made the loader allocate 128 MB before failing.
        for (Eigen::Index r = 0; r < out; ++r) {
            const auto& row = w[std::size_t(r)];
            if (!row.is_array() || Eigen::Index(row.size()) != in)
                throwInputError(source, f + ".weights[" + std::to_string(r) + "]",
                                "expected " + std::to_string(in) + " numbers");
        }
        l.weights.resize(out, in);
        for (Eigen::Index r = 0; r < out; ++r) {
            const auto& row = w[std::size_t(r)];
            for (Eigen::Index c = 0; c < in; ++c) {
                const auto& v = row[std::size_t(c)];
                if (!isParameter(v))
                    throwInputError(source, f + ".weights[" + std::to_string(r) + "][" + std::to_string(c) + "]",
                                    "expected a finite number in [-1e6, 1e6]");
                l.weights(r, c) = v.get<double>();
            }
        }
        const auto& b = lj.contains("bias") ? lj["bias"] : nlohmann::json();
        if (!b.is_array() || Eigen::Index(b.size()) != out)
            throwInputError(source, f + ".bias", "expected " + std::to_string(out) + " numbers");
        l.bias.resize(out);
        for (Eigen::Index r = 0; r < out; ++r) {
            if (!isParameter(b[std::size_t(r)]))
                throwInputError(source, f + ".bias[" + std::to_string(r) + "]", "expected a finite number in [-1e6, 1e6]");
            l.bias(r) = b[std::size_t(r)].get<double>();
        }
        if (i > 0 && in != layers.back().weights.rows())
            throwInputError(source, f + ".in",
                            "expected " + std::to_string(layers.back().weights.rows()) + " (the previous layer's out)");
        layers.push_back(std::move(l));
    }
    return Mlp(std::move(layers));
}

} // namespace gpuforecast
