#include "gpuforecast/utilization_model.h"

#include "gpuforecast/error.h"
#include "gpuforecast/file_io.h"
#include "gpuforecast/json_fields.h"

#include <cmath>
#include <sstream>

namespace gpuforecast {
namespace {

constexpr const char* kFormat = "gpuforecast-utilization-1";
// How the networks met the launch floor in training. Files written before the field existed were
// all fitted under the smooth maximum and are read so.
constexpr const char* kFloorSmoothMaximum = "smooth_maximum";
constexpr const char* kFloorAdded = "added";

nlohmann::json vectorToJson(const Eigen::VectorXd& v)
{
    nlohmann::json a = nlohmann::json::array();
    for (Eigen::Index i = 0; i < v.size(); ++i)
        a.push_back(v(i));
    return a;
}

// Values must lie in [lo, hi]. The normalisation's bounds keep standardised features finite and
// moderate (|x| <= ~1e12 for the log-scale features), which Mlp::fromJson's limits build on: a
// feature_scale of 1e-310 loaded fine and turned every forecast into NaN. The trainer never
// writes a scale below 1e-6.
Eigen::VectorXd vectorFromJson(const nlohmann::json& j, const std::string& source, const std::string& field,
                               Eigen::Index size, double lo, double hi)
{
    if (!j.contains(field) || !j[field].is_array() || Eigen::Index(j[field].size()) != size)
        throwInputError(source, field, "expected an array of " + std::to_string(size) + " numbers");
    Eigen::VectorXd v(size);
    for (Eigen::Index i = 0; i < size; ++i) {
        const auto& x = j[field][std::size_t(i)];
        if (!x.is_number() || !std::isfinite(x.get<double>()) || x.get<double>() < lo || x.get<double>() > hi) {
            std::ostringstream os;
            os << "expected a finite number in [" << lo << ", " << hi << "]";
            throwInputError(source, field + "[" + std::to_string(i) + "]", os.str());
        }
        v(i) = x.get<double>();
    }
    return v;
}

constexpr double kMaxFeature = 1e6;              // |mean|, |min|, |max| of log-scale features
constexpr double kMinScale = 1e-6, kMaxScale = 1e6;

// A few fixed feature vectors whose outputs are stored with the weights: loading recomputes them,
// so a file edited by hand or damaged in transit is caught before it forecasts anything.
Eigen::MatrixXd selfTestInputs(const Eigen::VectorXd& mean, const Eigen::VectorXd& scale)
{
    Eigen::MatrixXd x(mean.size(), 3);
    for (Eigen::Index i = 0; i < mean.size(); ++i) {
        x(i, 0) = mean(i);
        x(i, 1) = mean(i) + scale(i);
        x(i, 2) = mean(i) - 0.5 * scale(i);
    }
    return x;
}

} // namespace

UtilizationModel::UtilizationModel(OpClass opClass, FeatureNormalization normalization, double floorSeconds,
                                   std::vector<Mlp> members, nlohmann::json provenance,
                                   FloorComposition floorComposition)
    : opClass_(opClass), norm_(std::move(normalization)), floorSeconds_(floorSeconds),
      floorComposition_(floorComposition), members_(std::move(members)), provenance_(std::move(provenance))
{
    for (const auto* v : {&norm_.mean, &norm_.scale, &norm_.min, &norm_.max})
        if (v->size() != kFeatureCount)
            throw ForecastError("utilization model: normalisation must have " + std::to_string(kFeatureCount) +
                                " entries");
    if ((norm_.min.array() > norm_.max.array()).any())
        throw ForecastError("utilization model: feature_min exceeds feature_max");
    if (!(floorSeconds_ >= 0 && floorSeconds_ < 1))
        throw ForecastError("utilization model: floor_seconds must be in [0, 1)");
    if (members_.empty())
        throw ForecastError("utilization model: no networks");
    for (const auto& m : members_)
        if (m.inputSize() != kFeatureCount || m.outputSize() != 2)
            throw ForecastError("utilization model: each network must map " + std::to_string(kFeatureCount) +
                                " features to 2 outputs");
}

double UtilizationModel::floorSecondsFor(std::string_view op) const
{
    const auto it = operatorFloors_.find(op);
    return it == operatorFloors_.end() ? floorSeconds_ : it->second;
}

void UtilizationModel::setOperatorFloors(std::map<std::string, double, std::less<>> floors)
{
    for (const auto& [op, seconds] : floors) {
        if (classifyOp(op) != opClass_)
            throw ForecastError("utilization model: operator_floor_seconds names '" + op + "', not a " +
                                std::string(opClassName(opClass_)) + " operator");
        if (!(seconds >= 0 && seconds < 1))
            throw ForecastError("utilization model: operator_floor_seconds." + op + " must be in [0, 1)");
    }
    operatorFloors_ = std::move(floors);
}

void UtilizationModel::setMinUtilization(double u)
{
    if (!(u >= 0 && u < 1))
        throw ForecastError("utilization model: min_utilization must be in [0, 1)");
    minUtilization_ = u;
}

Eigen::MatrixXd normalizeFeatures(const FeatureNormalization& norm, const Eigen::MatrixXd& raw)
{
    Eigen::MatrixXd z = ((raw.colwise() - norm.mean).array().colwise() / norm.scale.array()).matrix();
    // A feature that never varied in training (FLOPs per byte for softmax and layer norm: one
    // operator each) carries no information, and dividing by its near-zero spread would turn any
    // other value into an enormous input: a fused scale + mask + softmax was forecast 2.3x slower
    // than the softmax alone. Such a feature enters as its training value.
    for (Eigen::Index i = 0; i < z.rows(); ++i)
        if (norm.scale(i) <= kDegenerateScale)
            z.row(i).setZero();
    return z;
}

Eigen::MatrixXd UtilizationModel::normalize(const Eigen::MatrixXd& raw) const { return normalizeFeatures(norm_, raw); }

Eigen::MatrixXd UtilizationModel::alphaGamma(const Eigen::MatrixXd& rawFeatures, std::size_t member) const
{
    Eigen::MatrixXd z = members_.at(member).forward(normalize(rawFeatures));
    applyActivation(Activation::Sigmoid, z);
    return z;
}

nlohmann::json UtilizationModel::toJson() const
{
    nlohmann::json j;
    j["format"] = kFormat;
    j["op_class"] = std::string(opClassName(opClass_));
    j["features"] = nlohmann::json::array();
    for (auto n : featureNames(opClass_))
        j["features"].push_back(std::string(n));
    j["feature_mean"] = vectorToJson(norm_.mean);
    j["feature_scale"] = vectorToJson(norm_.scale);
    j["feature_min"] = vectorToJson(norm_.min);
    j["feature_max"] = vectorToJson(norm_.max);
    j["floor_seconds"] = floorSeconds_;
    j["launch_floor"] = floorComposition_ == FloorComposition::Added ? kFloorAdded : kFloorSmoothMaximum;
    if (!operatorFloors_.empty())
        j["operator_floor_seconds"] = operatorFloors_;
    if (minUtilization_ > 0)
        j["min_utilization"] = minUtilization_;
    j["output"] = "utilization = gamma * (1 - alpha / waves); alpha, gamma = sigmoid(network outputs)";
    j["ensemble"] = nlohmann::json::array();
    for (const auto& m : members_)
        j["ensemble"].push_back(m.toJson());
    j["provenance"] = provenance_;
    const Eigen::MatrixXd x = selfTestInputs(norm_.mean, norm_.scale);
    nlohmann::json tests = nlohmann::json::array();
    for (Eigen::Index c = 0; c < x.cols(); ++c) {
        nlohmann::json t;
        t["features"] = vectorToJson(x.col(c));
        nlohmann::json outs = nlohmann::json::array();
        for (std::size_t m = 0; m < members_.size(); ++m)
            outs.push_back(vectorToJson(alphaGamma(x.col(c), m).col(0)));
        t["alpha_gamma"] = outs;
        tests.push_back(t);
    }
    j["self_test"] = tests;
    return j;
}

UtilizationModel UtilizationModel::fromJson(const nlohmann::json& j, const std::string& source)
{
    using namespace json_fields;
    const Context ctx{source, ""};
    if (!j.is_object())
        throwInputError(source, "", "expected a JSON object (utilization weights)");
    if (requireString(j, ctx, "format") != kFormat)
        throwInputError(source, "format", std::string("expected \"") + kFormat + "\"");
    const auto cls = opClassFromName(requireString(j, ctx, "op_class"));
    if (!cls || *cls == OpClass::Other)
        throwInputError(source, "op_class", "expected bmm, linear, elementwise, softmax or ln");
    if (!j.contains("features") || !j["features"].is_array() || j["features"].size() != kFeatureCount)
        throwInputError(source, "features", "expected the " + std::to_string(kFeatureCount) + " feature names");
    const FeatureNames& names = featureNames(*cls);
    for (std::size_t i = 0; i < kFeatureCount; ++i)
        if (!j["features"][i].is_string() || j["features"][i].get<std::string>() != names[i])
            throwInputError(source, "features[" + std::to_string(i) + "]",
                            "expected \"" + std::string(names[i]) + "\" (weights from another version?)");
    FeatureNormalization norm;
    norm.mean = vectorFromJson(j, source, "feature_mean", kFeatureCount, -kMaxFeature, kMaxFeature);
    norm.scale = vectorFromJson(j, source, "feature_scale", kFeatureCount, kMinScale, kMaxScale);
    norm.min = vectorFromJson(j, source, "feature_min", kFeatureCount, -kMaxFeature, kMaxFeature);
    norm.max = vectorFromJson(j, source, "feature_max", kFeatureCount, -kMaxFeature, kMaxFeature);
    for (int i = 0; i < kFeatureCount; ++i)
        if (norm.min(i) > norm.max(i))
            throwInputError(source, "feature_min[" + std::to_string(i) + "]", "exceeds feature_max");
    const double floorSeconds = requireNumber(j, ctx, "floor_seconds", 0, 0.999);
    FloorComposition floorComposition = FloorComposition::SmoothMaximum;
    if (j.contains("launch_floor")) {
        const std::string how = requireString(j, ctx, "launch_floor");
        if (how == kFloorAdded)
            floorComposition = FloorComposition::Added;
        else if (how != kFloorSmoothMaximum)
            throwInputError(source, "launch_floor",
                            std::string("expected \"") + kFloorSmoothMaximum + "\" or \"" + kFloorAdded + "\"");
    }
    if (!j.contains("ensemble") || !j["ensemble"].is_array() || j["ensemble"].empty() || j["ensemble"].size() > 64)
        throwInputError(source, "ensemble", "expected an array of 1 to 64 networks");
    std::vector<Mlp> members;
    for (std::size_t i = 0; i < j["ensemble"].size(); ++i) {
        const std::string f = "ensemble[" + std::to_string(i) + "]";
        Mlp m = Mlp::fromJson(j["ensemble"][i], source, f);
        if (m.inputSize() != kFeatureCount || m.outputSize() != 2)
            throwInputError(source, f, "expected a network from " + std::to_string(kFeatureCount) +
                                           " features to 2 outputs (alpha, gamma)");
        members.push_back(std::move(m));
    }
    UtilizationModel model(*cls, std::move(norm), floorSeconds, std::move(members),
                           j.contains("provenance") ? j["provenance"] : nlohmann::json::object(), floorComposition);
    if (j.contains("min_utilization"))
        model.setMinUtilization(requireNumber(j, ctx, "min_utilization", 0, 0.999));
    if (j.contains("operator_floor_seconds")) { // files written before per-operator floors have none
        const auto& floors = j["operator_floor_seconds"];
        if (!floors.is_object())
            throwInputError(source, "operator_floor_seconds", "expected an object of operator: seconds");
        std::map<std::string, double, std::less<>> parsed;
        const Context floorCtx = ctx.child("operator_floor_seconds");
        for (const auto& [op, value] : floors.items()) {
            if (classifyOp(op) != *cls)
                throwInputError(source, "operator_floor_seconds." + op,
                                "not a " + std::string(opClassName(*cls)) + " operator");
            parsed[op] = requireNumber(floors, floorCtx, op, 0, 0.999);
        }
        model.setOperatorFloors(std::move(parsed));
    }
    // Required: every file `train` writes has it, and a file without it could have been edited
    // at will (weights tripled, the self-test deleted) and forecast from without a word.
    if (!j.contains("self_test"))
        throwInputError(source, "self_test", "missing: every weights file that train writes has its self-test, which "
                                             "shows the weights were not damaged or edited; retrain to get one");
    {
        const auto& tests = j["self_test"];
        if (!tests.is_array())
            throwInputError(source, "self_test", "expected an array");
        for (std::size_t t = 0; t < tests.size(); ++t) {
            const std::string f = "self_test[" + std::to_string(t) + "]";
            if (!tests[t].is_object())
                throwInputError(source, f, "expected an object");
            const Eigen::VectorXd x = vectorFromJson(tests[t], source, "features", kFeatureCount,
                                                     -kMaxFeature - kMaxScale, kMaxFeature + kMaxScale);
            const auto& outs = tests[t].contains("alpha_gamma") ? tests[t]["alpha_gamma"] : nlohmann::json();
            if (!outs.is_array() || outs.size() != model.memberCount())
                throwInputError(source, f + ".alpha_gamma", "expected one pair per network");
            for (std::size_t m = 0; m < outs.size(); ++m) {
                const Eigen::VectorXd got = model.alphaGamma(x, m).col(0);
                for (std::size_t o = 0; o < 2; ++o) {
                    if (!outs[m].is_array() || outs[m].size() != 2 || !outs[m][o].is_number())
                        throwInputError(source, f + ".alpha_gamma", "expected pairs of numbers");
                    // Written so that a NaN on either side fails the test instead of passing it.
                    if (!(std::abs(got(Eigen::Index(o)) - outs[m][o].get<double>()) <= 1e-9))
                        throwInputError(source, f,
                                        "the weights do not reproduce their stored self-test outputs "
                                        "(file damaged or edited)");
                }
            }
        }
    }
    return model;
}

UtilizationModel UtilizationModel::load(const std::string& path)
{
    return fromJson(json_fields::parse(readFile(path), path), path);
}

void UtilizationModel::save(const std::string& path) const { writeFileAtomically(path, toJson().dump() + "\n"); }

} // namespace gpuforecast
