#include "gpuforecast/trainer.h"

#include "gpuforecast/error.h"

#include <algorithm>
#include <chrono>
#include <map>
#include <cmath>
#include <numeric>
#include <random>

namespace gpuforecast {
namespace {

Eigen::MatrixXd activationDerivative(Activation a, const Eigen::MatrixXd& z, const Eigen::MatrixXd& out)
{
    switch (a) {
    case Activation::Relu: return (z.array() > 0).cast<double>().matrix();
    case Activation::Tanh: return (1.0 - out.array().square()).matrix();
    case Activation::Sigmoid: return (out.array() * (1.0 - out.array())).matrix();
    case Activation::Identity: break;
    }
    return Eigen::MatrixXd::Ones(z.rows(), z.cols());
}

Mlp initialNetwork(int hiddenWidth, int hiddenLayers, std::mt19937_64& rng)
{
    std::vector<DenseLayer> layers;
    int in = kFeatureCount;
    for (int l = 0; l <= hiddenLayers; ++l) {
        const bool last = l == hiddenLayers;
        const int out = last ? 2 : hiddenWidth;
        DenseLayer d;
        d.activation = last ? Activation::Identity : Activation::Tanh;
        // Xavier-uniform keeps tanh units out of saturation at the start.
        const double limit = std::sqrt(6.0 / double(in + out));
        std::uniform_real_distribution<double> u(-limit, limit);
        d.weights = Eigen::MatrixXd::NullaryExpr(out, in, [&] { return u(rng); });
        d.bias = Eigen::VectorXd::Zero(out);
        layers.push_back(std::move(d));
        in = out;
    }
    return Mlp(std::move(layers));
}

struct Adam {
    std::vector<DenseLayer> m, v;
    int t = 0;
    explicit Adam(const Mlp& net)
    {
        for (const auto& l : net.layers()) {
            DenseLayer z;
            z.weights = Eigen::MatrixXd::Zero(l.weights.rows(), l.weights.cols());
            z.bias = Eigen::VectorXd::Zero(l.bias.size());
            m.push_back(z);
            v.push_back(z);
        }
    }
    void step(Mlp& net, const std::vector<DenseLayer>& g, double lr)
    {
        constexpr double b1 = 0.9, b2 = 0.999, eps = 1e-8;
        ++t;
        const double c1 = 1 - std::pow(b1, t), c2 = 1 - std::pow(b2, t);
        auto& layers = net.mutableLayers();
        for (std::size_t i = 0; i < layers.size(); ++i) {
            m[i].weights = b1 * m[i].weights + (1 - b1) * g[i].weights;
            v[i].weights = b2 * v[i].weights + (1 - b2) * g[i].weights.cwiseAbs2();
            layers[i].weights.array() -=
                lr * (m[i].weights.array() / c1) / ((v[i].weights.array() / c2).sqrt() + eps);
            m[i].bias = b1 * m[i].bias + (1 - b1) * g[i].bias;
            v[i].bias = b2 * v[i].bias + (1 - b2) * g[i].bias.cwiseAbs2();
            layers[i].bias.array() -= lr * (m[i].bias.array() / c1) / ((v[i].bias.array() / c2).sqrt() + eps);
        }
    }
};

Eigen::VectorXd forecastSeconds(const Mlp& net, const Eigen::MatrixXd& x, const Eigen::VectorXd& waves,
                                const Eigen::VectorXd& roofline, const Eigen::VectorXd& floorSeconds,
                                const Eigen::VectorXd& trafficFloorSeconds, FloorComposition how, double minUtilization)
{
    Eigen::MatrixXd ag = net.forward(x);
    applyActivation(Activation::Sigmoid, ag);
    Eigen::VectorXd out(waves.size());
    for (Eigen::Index i = 0; i < waves.size(); ++i)
        out(i) = withLaunchFloor(
            withTrafficFloor(roofline(i) / std::max({utilizationFrom(ag(0, i), ag(1, i), waves(i)), 1e-12, minUtilization}),
                             trafficFloorSeconds(i)),
            floorSeconds(i), how);
    return out;
}

template <typename Idx>
Eigen::MatrixXd gatherCols(const Eigen::MatrixXd& m, const Idx& idx)
{
    Eigen::MatrixXd out(m.rows(), Eigen::Index(idx.size()));
    for (std::size_t j = 0; j < idx.size(); ++j)
        out.col(Eigen::Index(j)) = m.col(Eigen::Index(idx[j]));
    return out;
}

template <typename Idx>
Eigen::VectorXd gather(const Eigen::VectorXd& v, const Idx& idx)
{
    Eigen::VectorXd out(Eigen::Index(idx.size()));
    for (std::size_t j = 0; j < idx.size(); ++j)
        out(Eigen::Index(j)) = v(Eigen::Index(idx[j]));
    return out;
}

// A launch floor: the 1st percentile of a group's measured times.
double launchFloorOf(std::vector<double> times)
{
    std::sort(times.begin(), times.end());
    return times[times.size() / 100];
}

} // namespace

std::map<std::string, double> estimateLaunchFloors(const ClassSamples& s)
{
    std::map<std::string, std::vector<double>> perGpu;
    for (Eigen::Index i = 0; i < s.size(); ++i)
        perGpu[s.gpus[std::size_t(i)]].push_back(s.measuredSeconds(i));
    std::map<std::string, double> floors;
    for (auto& [gpu, v] : perGpu)
        floors[gpu] = launchFloorOf(std::move(v));
    return floors;
}

std::map<std::string, std::map<std::string, double>> estimateOperatorLaunchFloors(const ClassSamples& s)
{
    std::map<std::string, std::map<std::string, std::vector<double>>> perOp;
    for (Eigen::Index i = 0; i < s.size(); ++i)
        perOp[s.ops.at(std::size_t(i))][s.gpus[std::size_t(i)]].push_back(s.measuredSeconds(i));
    std::map<std::string, std::map<std::string, double>> floors;
    for (auto& [op, byGpu] : perOp)
        for (auto& [gpu, v] : byGpu)
            floors[op][gpu] = launchFloorOf(std::move(v));
    return floors;
}

namespace {

// Element-wise operators are fitted under each operator's floor on each host. Their launch
// overheads differ by operator (add 26 us, scalar add 31, relu 31 on A100, T4 and P4 alike; V100's
// host adds 6 us to each and P100's 16-23 us to all but gelu). Under one shared floor the networks
// learned the difference as the efficiency of small kernels, and P100's host as that of GPUs
// with P100's SM count: a 256 x 1366 add (4.2 MB) on L4 was forecast at 116 us against T4's 28.
bool fitsEachOperatorsFloor(OpClass c) { return c == OpClass::Elementwise; }

// Every measured GPU's floor, fastest first.
std::vector<double> sortedLaunchFloors(const ClassSamples& s)
{
    std::vector<double> floors;
    for (const auto& [gpu, floor] : estimateLaunchFloors(s))
        floors.push_back(floor);
    std::sort(floors.begin(), floors.end());
    return floors;
}

// The floor the networks are fitted under: the median host's. Fitting each GPU under its own
// floor was tried under the smooth maximum; it moved held-out A100 layer norm on the validation
// set from 11.8% to 28.6%.
double typicalLaunchFloor(const ClassSamples& s)
{
    const std::vector<double> floors = sortedLaunchFloors(s);
    return floors.empty() ? 0 : floors[floors.size() / 2];
}

// bmm kernels are fitted under their own host's floor: an unseen GPU's bmm features are laid out
// by tiles borrowed from one measured GPU (tiling.h), and under a shared floor the networks had
// learned that GPU's host overhead as low utilization of its tiles (P100's host, 51 us against
// 31-40 us for the others, lent its slow tiny kernels to the held-out A100 with P100's tiles).
// Leave-one-out bmm, validation rows, median -> own floors: A100 13.3 -> 14.0% with seed 1 but
// 13.2 -> 12.5% over seeds 1-3, V100 21.2 -> 16.3%, P100 7.9 -> 5.7%, T4 and P4 within 1.2
// points; training rows A100 22.3 -> 19.4%. linear got worse on validation rows (A100 9.0 ->
// 9.7%), so it keeps the median floor. Layer norm, whose floor is added to its work
// (launchFloorComposition), is fitted under each host's own: under the median one a slow host's
// overhead is again learned as efficiency (held-out A100 validation rows 10.7% against 5.2%).
bool fitsEachHostsFloor(OpClass c) { return c == OpClass::Bmm || launchFloorComposition(c) == FloorComposition::Added; }

} // namespace

Eigen::VectorXd trainingLaunchFloors(const ClassSamples& s)
{
    if (fitsEachOperatorsFloor(s.opClass)) {
        const auto own = estimateOperatorLaunchFloors(s);
        Eigen::VectorXd floors(s.size());
        for (Eigen::Index i = 0; i < s.size(); ++i)
            floors(i) = own.at(s.ops.at(std::size_t(i))).at(s.gpus[std::size_t(i)]);
        return floors;
    }
    if (!fitsEachHostsFloor(s.opClass))
        return Eigen::VectorXd::Constant(s.size(), typicalLaunchFloor(s));
    const std::map<std::string, double> own = estimateLaunchFloors(s);
    Eigen::VectorXd floors(s.size());
    for (Eigen::Index i = 0; i < s.size(); ++i)
        floors(i) = own.at(s.gpus[std::size_t(i)]);
    return floors;
}

double estimateLaunchFloor(const ClassSamples& s)
{
    const std::vector<double> floors = sortedLaunchFloors(s);
    return floors.empty() ? 0 : floors.front();
}

double meanAbsolutePercentageError(const Eigen::VectorXd& predicted, const Eigen::VectorXd& measured)
{
    if (predicted.size() == 0)
        return 0;
    return 100.0 * ((predicted.array() - measured.array()).abs() / measured.array()).mean();
}

double forecastLoss(const Mlp& net, const Eigen::MatrixXd& x, const Eigen::VectorXd& waves,
                    const Eigen::VectorXd& roofline, const Eigen::VectorXd& measured,
                    const Eigen::VectorXd& floorSeconds, const Eigen::VectorXd& trafficFloorSeconds,
                    std::vector<DenseLayer>* grads, FloorComposition how, double minUtilization)
{
    const auto& layers = net.layers();
    const Eigen::Index n = x.cols();
    if (waves.size() != n || roofline.size() != n || measured.size() != n || floorSeconds.size() != n ||
        trafficFloorSeconds.size() != n)
        throw ForecastError("forecastLoss: features, waves, rooflines, measurements and floors differ in length");
    std::vector<Eigen::MatrixXd> zs, as{x};
    for (const auto& l : layers) {
        Eigen::MatrixXd z(l.weights.rows(), n);
        z.noalias() = l.weights * as.back();
        z.colwise() += l.bias;
        Eigen::MatrixXd a = z;
        applyActivation(l.activation, a);
        zs.push_back(std::move(z));
        as.push_back(std::move(a));
    }
    Eigen::MatrixXd ag = as.back();
    applyActivation(Activation::Sigmoid, ag);
    double loss = 0;
    Eigen::MatrixXd delta(2, n);
    for (Eigen::Index i = 0; i < n; ++i) {
        const double alpha = ag(0, i), gamma = ag(1, i), w = waves(i);
        const double logModel = std::log(roofline(i)) - std::log(gamma) - std::log1p(-alpha / w);
        // Below the class's minimum utilization the time is the minimum's, whatever the network says.
        const bool capped = minUtilization > 0 && roofline(i) / minUtilization < std::exp(logModel);
        const double model = capped ? roofline(i) / minUtilization : std::exp(logModel);
        const double bounded = withTrafficFloor(model, trafficFloorSeconds(i));
        const double r = std::log(withLaunchFloor(bounded, floorSeconds(i), how)) - std::log(measured(i));
        loss += r * r;
        const double dLogPred = 2.0 * r / double(n) * launchFloorSlope(bounded, floorSeconds(i), how) *
                                trafficFloorSlope(model, trafficFloorSeconds(i)) * (capped ? 0.0 : 1.0);
        delta(0, i) = dLogPred / (w - alpha) * alpha * (1 - alpha);
        delta(1, i) = -dLogPred * (1 - gamma);
    }
    loss /= double(n);
    if (!grads)
        return loss;
    grads->resize(layers.size());
    for (std::size_t l = layers.size(); l-- > 0;) {
        delta = delta.cwiseProduct(activationDerivative(layers[l].activation, zs[l], as[l + 1]));
        (*grads)[l].weights.noalias() = delta * as[l].transpose();
        (*grads)[l].bias = delta.rowwise().sum();
        if (l > 0) {
            Eigen::MatrixXd prev(layers[l].weights.cols(), n);
            prev.noalias() = layers[l].weights.transpose() * delta;
            delta = std::move(prev);
        }
    }
    return loss;
}

TrainResult trainUtilizationModel(const ClassSamples& s, const TrainOptions& o, const nlohmann::json& provenance)
{
    const auto start = std::chrono::steady_clock::now();
    const Eigen::Index n = s.size();
    if (n < 20)
        throw ForecastError("training " + std::string(opClassName(s.opClass)) + ": only " + std::to_string(n) +
                            " measurements (need at least 20)");
    // Normalisation from all training rows of this class.
    FeatureNormalization norm;
    norm.mean = s.features.rowwise().mean();
    norm.scale = ((s.features.colwise() - norm.mean).array().square().rowwise().mean()).sqrt().matrix();
    norm.scale = norm.scale.cwiseMax(1e-6);
    norm.min = s.features.rowwise().minCoeff();
    norm.max = s.features.rowwise().maxCoeff();
    // The floor is the timing host's launch overhead more than the GPU's: P100's host is 1.7x
    // T4's on the same tiny kernels, while A100, T4 and P4 agree. The networks are fitted under
    // the median host's floor (bmm and layer norm: each host's own, fitsEachHostsFloor); a
    // forecast assumes the fastest measured host's, as a GPU bought today sits in a current host
    // (held-out A100: softmax rows of up to 128 +20.5% -> -1.5%).
    const double forecastFloorSeconds = estimateLaunchFloor(s);
    const Eigen::VectorXd sampleFloors = trainingLaunchFloors(s);
    const FloorComposition floorHow = launchFloorComposition(s.opClass);
    const double minUtilization = minimumUtilization(s.opClass);
    const Eigen::MatrixXd x = normalizeFeatures(norm, s.features);

    std::mt19937_64 rng(o.seed);
    std::vector<Eigen::Index> order(static_cast<std::size_t>(n));
    std::iota(order.begin(), order.end(), Eigen::Index(0));
    std::shuffle(order.begin(), order.end(), rng);
    const auto nVal = std::max<std::size_t>(1, std::size_t(double(n) * o.validationFraction));
    const std::vector<Eigen::Index> valIdx(order.begin(), order.begin() + std::ptrdiff_t(nVal));
    std::vector<Eigen::Index> trainIdx(order.begin() + std::ptrdiff_t(nVal), order.end());
    const Eigen::MatrixXd xVal = gatherCols(x, valIdx);
    const Eigen::VectorXd wVal = gather(s.waves, valIdx), rVal = gather(s.rooflineSeconds, valIdx),
                          mVal = gather(s.measuredSeconds, valIdx), fVal = gather(sampleFloors, valIdx),
                          tVal = gather(s.trafficFloorSeconds, valIdx);

    std::vector<Mlp> members;
    double valMapeSum = 0;
    int epochsTotal = 0;
    for (int member = 0; member < o.ensembleSize; ++member) {
        Mlp net = initialNetwork(o.hiddenWidth, o.hiddenLayers, rng);
        Mlp best = net;
        double bestVal = std::numeric_limits<double>::infinity();
        int sinceBest = 0;
        Adam adam(net);
        std::vector<DenseLayer> grads;
        for (int epoch = 1; epoch <= o.maxEpochs; ++epoch) {
            std::shuffle(trainIdx.begin(), trainIdx.end(), rng);
            double lossSum = 0;
            std::size_t batches = 0;
            // Cosine decay lets late epochs settle instead of bouncing around the minimum.
            const double lr = o.learningRate * 0.5 * (1 + std::cos(M_PI * (epoch - 1) / o.maxEpochs));
            for (std::size_t b0 = 0; b0 < trainIdx.size(); b0 += std::size_t(o.batchSize)) {
                const std::size_t b1 = std::min(trainIdx.size(), b0 + std::size_t(o.batchSize));
                const std::vector<Eigen::Index> idx(trainIdx.begin() + std::ptrdiff_t(b0),
                                                    trainIdx.begin() + std::ptrdiff_t(b1));
                lossSum += forecastLoss(net, gatherCols(x, idx), gather(s.waves, idx), gather(s.rooflineSeconds, idx),
                                        gather(s.measuredSeconds, idx), gather(sampleFloors, idx),
                                        gather(s.trafficFloorSeconds, idx), &grads, floorHow, minUtilization);
                adam.step(net, grads, lr);
                ++batches;
            }
            const double val = meanAbsolutePercentageError(forecastSeconds(net, xVal, wVal, rVal, fVal, tVal, floorHow, minUtilization), mVal);
            const bool improved = val < bestVal;
            if (improved) {
                bestVal = val;
                best = net;
                sinceBest = 0;
            } else {
                ++sinceBest;
            }
            ++epochsTotal;
            if (o.progress)
                o.progress({s.opClass, member, epoch, lossSum / double(std::max<std::size_t>(1, batches)), val, improved,
                            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count()});
            if (sinceBest >= o.patience)
                break;
        }
        valMapeSum += bestVal;
        members.push_back(std::move(best));
    }
    TrainResult r;
    r.validationMape = valMapeSum / o.ensembleSize;
    r.epochs = epochsTotal;
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    nlohmann::json prov = provenance;
    prov["validation_mape_percent"] = r.validationMape;
    prov["training_rows"] = n - Eigen::Index(nVal);
    prov["validation_rows"] = nVal;
    prov["epochs"] = o.maxEpochs;   // each network's most (--epochs)
    prov["epochs_run"] = r.epochs; // over every network of the ensemble, early stopping included
    prov["hidden_layers"] = o.hiddenLayers;
    prov["hidden_width"] = o.hiddenWidth;
    prov["floor_seconds"] = forecastFloorSeconds;
    const auto operatorFloors = fitsEachOperatorsFloor(s.opClass) ? estimateOperatorLaunchFloors(s)
                                                                   : std::map<std::string, std::map<std::string, double>>{};
    if (!operatorFloors.empty())
        prov["training_operator_floors_seconds"] = operatorFloors; // per operator, per GPU
    else if (fitsEachHostsFloor(s.opClass))
        prov["training_floors_seconds"] = estimateLaunchFloors(s); // per GPU
    else
        prov["training_floor_seconds"] = typicalLaunchFloor(s);
    r.model = UtilizationModel(s.opClass, std::move(norm), forecastFloorSeconds, std::move(members), prov, floorHow);
    r.model.setMinUtilization(minUtilization);
    std::map<std::string, double, std::less<>> fastestHost; // per operator, as a GPU bought today sits in a current host
    for (const auto& [op, byGpu] : operatorFloors)
        fastestHost[op] = std::min_element(byGpu.begin(), byGpu.end(), [](const auto& a, const auto& b) {
                              return a.second < b.second;
                          })->second;
    r.model.setOperatorFloors(std::move(fastestHost));
    return r;
}

} // namespace gpuforecast
