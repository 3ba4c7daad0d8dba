// The training pipeline: exact gradients, and learning on a small slice of real measurements.
#include "gpuforecast/catalog.h"
#include "gpuforecast/error.h"
#include "gpuforecast/trainer.h"
#include "gpuforecast/training_set.h"

#include <QtTest>

#include <algorithm>
#include <random>

using namespace gpuforecast;

namespace {

const std::string kRes = GPUFORECAST_RESOURCES;

Mlp randomNetwork(std::mt19937_64& rng)
{
    std::normal_distribution<double> d(0, 0.5);
    std::vector<DenseLayer> layers(3);
    const int sizes[] = {kFeatureCount, 6, 5, 2};
    const Activation acts[] = {Activation::Tanh, Activation::Relu, Activation::Identity};
    for (int l = 0; l < 3; ++l) {
        layers[l].weights = Eigen::MatrixXd::NullaryExpr(sizes[l + 1], sizes[l], [&] { return d(rng); });
        layers[l].bias = Eigen::VectorXd::NullaryExpr(sizes[l + 1], [&] { return d(rng); });
        layers[l].activation = acts[l];
    }
    return Mlp(layers);
}

// The training samples of one operator on T4 and P100, two hosts with different launch floors.
ClassSamples t4AndP100Samples(const std::string& file, const std::vector<std::string>& ops, std::size_t classIndex)
{
    const auto catalog = loadGpuDirectory(kRes + "/gpus");
    const auto table = readKernelTable(kRes + "/datasets/neusight/train/" + file, TableContent::WithMeasurements);
    KernelTable slice{table.source, table.header, {}, {}};
    for (std::size_t i = 0; i < table.rows.size(); ++i)
        if (std::find(ops.begin(), ops.end(), table.rows[i].kernel.op) != ops.end() && (table.rows[i].gpu == "T4" || table.rows[i].gpu == "P100-PCIE-16GB")) {
            slice.rows.push_back(table.rows[i]);
            slice.measurements.push_back(table.measurements[i]);
        }
    return buildTrainingSamples({slice}, catalog, TileDatabase{}, "", TrainingTiles::Measured)[classIndex];
}

// One epoch of a tiny network: enough to see what training records about the floors.
TrainResult trainBriefly(const ClassSamples& s)
{
    TrainOptions o;
    o.maxEpochs = 1;
    o.hiddenWidth = 4;
    o.hiddenLayers = 1;
    return trainUtilizationModel(s, o, nlohmann::json::object());
}

} // namespace

class TestTrainer : public QObject {
    Q_OBJECT
private slots:
    void gradientMatchesFiniteDifferences()
    {
        std::mt19937_64 rng(7);
        Mlp net = randomNetwork(rng);
        const int n = 12;
        std::uniform_real_distribution<double> u(0.5, 3);
        const Eigen::MatrixXd x = Eigen::MatrixXd::NullaryExpr(kFeatureCount, n, [&] { return u(rng) - 1.5; });
        Eigen::VectorXd waves(n), roof(n), meas(n);
        for (int i = 0; i < n; ++i) {
            waves(i) = std::ceil(u(rng) * 4);
            roof(i) = 1e-5 * u(rng);
            meas(i) = 4e-5 * u(rng);
        }
        Eigen::VectorXd floorSeconds(n); // each sample its own, on for most, so its slope is checked too
        for (int i = 0; i < n; ++i)
            floorSeconds(i) = i % 3 == 0 ? 0.0 : 1e-5 * u(rng);
        Eigen::VectorXd traffic(n); // a DRAM-traffic floor under some samples, above or below their time
        for (int i = 0; i < n; ++i)
            traffic(i) = i % 4 == 1 ? 0.0 : 2e-5 * u(rng);
        // A minimum utilization between the samples' own: half of them are held at it, and those
        // must carry no gradient (what the network says there changes nothing).
        std::vector<double> utilization(n);
        {
            Eigen::MatrixXd ag = net.forward(x);
            applyActivation(Activation::Sigmoid, ag);
            for (int i = 0; i < n; ++i)
                utilization[std::size_t(i)] = utilizationFrom(ag(0, i), ag(1, i), waves(i));
            std::sort(utilization.begin(), utilization.end());
        }
        const double someHeld = 0.5 * (utilization[n / 2 - 1] + utilization[n / 2]);
        // Both ways of meeting the launch floor: the smooth maximum and the floor added to the work.
        const std::vector<std::pair<FloorComposition, double>> cases{
            {FloorComposition::SmoothMaximum, 0.0}, {FloorComposition::Added, 0.0}, {FloorComposition::SmoothMaximum, someHeld}};
        for (const auto& [how, minU] : cases) {
            std::vector<DenseLayer> grads;
            const double loss = forecastLoss(net, x, waves, roof, meas, floorSeconds, traffic, &grads, how, minU);
            double perSample = 0; // each sample under its own floor: the loss is the mean of one-sample losses
            for (int i = 0; i < n; ++i)
                perSample += forecastLoss(net, x.col(i), waves.segment(i, 1), roof.segment(i, 1), meas.segment(i, 1),
                                          floorSeconds.segment(i, 1), traffic.segment(i, 1), nullptr, how, minU) / n;
            QVERIFY(std::abs(loss - perSample) < 1e-12 * std::max(1.0, loss));
            QVERIFY_THROWS_EXCEPTION(ForecastError,
                                     forecastLoss(net, x, waves, roof, meas, floorSeconds.head(n - 1), traffic.head(n - 1), nullptr, how));
            const double h = 1e-6;
            double worst = 0;
            for (std::size_t l = 0; l < net.layers().size(); ++l) {
                auto& layer = net.mutableLayers()[l];
                for (Eigen::Index i = 0; i < layer.weights.size(); ++i) {
                    const double keep = layer.weights.data()[i];
                    layer.weights.data()[i] = keep + h;
                    const double up = forecastLoss(net, x, waves, roof, meas, floorSeconds, traffic, nullptr, how, minU);
                    layer.weights.data()[i] = keep - h;
                    const double down = forecastLoss(net, x, waves, roof, meas, floorSeconds, traffic, nullptr, how, minU);
                    layer.weights.data()[i] = keep;
                    const double numeric = (up - down) / (2 * h);
                    const double analytic = grads[l].weights.data()[i];
                    worst = std::max(worst, std::abs(numeric - analytic) / std::max(1e-6, std::abs(numeric) + std::abs(analytic)));
                }
                for (Eigen::Index i = 0; i < layer.bias.size(); ++i) {
                    const double keep = layer.bias(i);
                    layer.bias(i) = keep + h;
                    const double up = forecastLoss(net, x, waves, roof, meas, floorSeconds, traffic, nullptr, how, minU);
                    layer.bias(i) = keep - h;
                    const double down = forecastLoss(net, x, waves, roof, meas, floorSeconds, traffic, nullptr, how, minU);
                    layer.bias(i) = keep;
                    const double numeric = (up - down) / (2 * h);
                    worst = std::max(worst, std::abs(numeric - grads[l].bias(i)) /
                                                std::max(1e-6, std::abs(numeric) + std::abs(grads[l].bias(i))));
                }
            }
            QVERIFY2(worst < 1e-5, qPrintable(QString("worst relative gradient error %1").arg(worst)));
        }
        // Every sample held at the minimum: the loss is that of roofline / minimum, and flat.
        std::vector<DenseLayer> grads;
        const double allHeld = forecastLoss(net, x, waves, roof, meas, Eigen::VectorXd::Zero(n), Eigen::VectorXd::Zero(n),
                                            &grads, FloorComposition::SmoothMaximum, 0.999);
        double expected = 0;
        for (int i = 0; i < n; ++i)
            expected += std::pow(std::log(roof(i) / 0.999) - std::log(meas(i)), 2) / n;
        QVERIFY(std::abs(allHeld - expected) < 1e-12 * expected);
        for (const auto& g : grads)
            QVERIFY(g.weights.isZero(0) && g.bias.isZero(0));
    }

    void learnsOnRealMeasurements()
    {
        // Softmax kernels of two training GPUs: small enough for CI, real enough to fail if the
        // loss, the gradient or the optimiser is wrong.
        const auto catalog = loadGpuDirectory(kRes + "/gpus");
        const auto table = readKernelTable(kRes + "/datasets/neusight/train/vector.csv.gz", TableContent::WithMeasurements);
        KernelTable slice{table.source, table.header, {}, {}};
        for (std::size_t i = 0; i < table.rows.size(); ++i)
            if (table.rows[i].kernel.op == "softmax" &&
                (table.rows[i].gpu == "T4" || table.rows[i].gpu == "V100-PCIE-32GB")) {
                slice.rows.push_back(table.rows[i]);
                slice.measurements.push_back(table.measurements[i]);
            }
        QCOMPARE(slice.rows.size(), std::size_t(3500));
        const auto samples = buildTrainingSamples({slice}, catalog, TileDatabase{}, "", TrainingTiles::Measured);
        const ClassSamples& s = samples[3];
        QCOMPARE(s.opClass, OpClass::Softmax);
        QCOMPARE(s.size(), Eigen::Index(3500));

        std::vector<EpochReport> reports;
        TrainOptions o;
        o.maxEpochs = 12;
        o.hiddenWidth = 16;
        o.hiddenLayers = 2;
        o.seed = 3;
        o.progress = [&](const EpochReport& r) { reports.push_back(r); };
        const TrainResult r = trainUtilizationModel(s, o, nlohmann::json::object());
        QCOMPARE(int(reports.size()), 12);
        QVERIFY2(reports.back().trainLoss < 0.5 * reports.front().trainLoss,
                 qPrintable(QString("loss %1 -> %2").arg(reports.front().trainLoss).arg(reports.back().trainLoss)));
        QVERIFY2(r.validationMape < 15.0, qPrintable(QString("validation MAPE %1%").arg(r.validationMape)));

        // Same seed, same weights: training is reproducible.
        o.progress = nullptr;
        const TrainResult again = trainUtilizationModel(s, o, nlohmann::json::object());
        QCOMPARE(again.model.toJson().dump(), r.model.toJson().dump());
    }

    void forecastFloorIsTheFastestHosts()
    {
        // P100's host times the same tiny softmax 1.7x slower than T4's. A forecast assumes the
        // faster host (the median of two took P100's), and the trained model carries that floor.
        const ClassSamples s = t4AndP100Samples("vector.csv.gz", {"softmax"}, 3);
        QCOMPARE(s.opClass, OpClass::Softmax);
        const auto floors = estimateLaunchFloors(s);
        QCOMPARE(floors.size(), std::size_t(2));
        const double t4 = floors.at("T4"), p100 = floors.at("P100-PCIE-16GB");
        QVERIFY2(p100 > 1.5 * t4, qPrintable(QString("P100 %1 s, T4 %2 s").arg(p100).arg(t4)));
        QCOMPARE(estimateLaunchFloor(s), t4);
        for (const auto& [gpu, floor] : floors) { // the 1st percentile of that GPU's own times
            int below = 0, n = 0;
            for (Eigen::Index i = 0; i < s.size(); ++i)
                if (s.gpus[std::size_t(i)] == gpu) {
                    ++n;
                    below += s.measuredSeconds(i) < floor;
                }
            QVERIFY2(below <= n / 100 && below >= n / 100 - 1, qPrintable(QString::fromStdString(gpu)));
        }
        const TrainResult r = trainBriefly(s);
        QCOMPARE(r.model.floorSeconds(), t4);
        const Eigen::VectorXd trained = trainingLaunchFloors(s); // one shared floor: the median's
        QVERIFY((trained.array() == p100).all());
        QVERIFY(r.model.provenance().contains("training_floor_seconds"));
        QVERIFY(!r.model.provenance().contains("training_floors_seconds"));
    }

    void bmmIsFittedUnderEachHostsFloor()
    {
        // bmm: each GPU's samples under its own host's floor (P100's is the slower host); the
        // forecast floor is still the fastest host's. Other classes: one median floor.
        const ClassSamples s = t4AndP100Samples("gemm.csv.gz", {"bmm"}, 0);
        QCOMPARE(s.opClass, OpClass::Bmm);
        const auto floors = estimateLaunchFloors(s);
        QVERIFY(floors.at("P100-PCIE-16GB") > 1.3 * floors.at("T4"));
        const Eigen::VectorXd trained = trainingLaunchFloors(s);
        for (Eigen::Index i = 0; i < s.size(); ++i)
            QCOMPARE(trained(i), floors.at(s.gpus[std::size_t(i)]));
        const TrainResult r = trainBriefly(s);
        const nlohmann::json& prov = r.model.provenance();
        QVERIFY(!prov.contains("training_floor_seconds"));
        QCOMPARE(prov.at("training_floors_seconds").at("T4").get<double>(), floors.at("T4"));
        QCOMPARE(prov.at("training_floors_seconds").at("P100-PCIE-16GB").get<double>(), floors.at("P100-PCIE-16GB"));
        QCOMPARE(r.model.floorSeconds(), floors.at("T4"));
    }

    void elementwiseIsFittedUnderEachOperatorsFloor()
    {
        // A scalar add pays a longer launch than an add on the same host, and P100's host is slower
        // at both. Each sample is fitted under its operator's floor on its host; a forecast takes
        // each operator's fastest host, and an operator never measured the class floor.
        const ClassSamples s = t4AndP100Samples("vector.csv.gz", {"add", "addu"}, 2);
        QCOMPARE(s.opClass, OpClass::Elementwise);
        const auto floors = estimateOperatorLaunchFloors(s);
        QCOMPARE(floors.size(), std::size_t(2));
        const auto& add = floors.at("add");
        const auto& addu = floors.at("addu");
        QVERIFY2(addu.at("T4") > 1.1 * add.at("T4"), qPrintable(QString("T4 add %1 s, addu %2 s").arg(add.at("T4")).arg(addu.at("T4"))));
        QVERIFY(add.at("P100-PCIE-16GB") > 1.3 * add.at("T4"));
        const Eigen::VectorXd trained = trainingLaunchFloors(s);
        for (Eigen::Index i = 0; i < s.size(); ++i)
            QCOMPARE(trained(i), floors.at(s.ops[std::size_t(i)]).at(s.gpus[std::size_t(i)]));
        const TrainResult r = trainBriefly(s);
        QCOMPARE(r.model.floorSecondsFor("add"), add.at("T4"));
        QCOMPARE(r.model.floorSecondsFor("addu"), addu.at("T4"));
        QCOMPARE(r.model.floorSecondsFor("gelu"), r.model.floorSeconds());
        QCOMPARE(r.model.floorSeconds(), estimateLaunchFloor(s));
        QCOMPARE(r.model.provenance().at("training_operator_floors_seconds").at("addu").at("P100-PCIE-16GB").get<double>(),
                 addu.at("P100-PCIE-16GB"));
        // The weights carry the class's minimum utilization, so a forecast meets it as training did.
        QVERIFY(minimumUtilization(OpClass::Elementwise) > 0);
        QCOMPARE(r.model.minUtilization(), minimumUtilization(OpClass::Elementwise));
        QCOMPARE(minimumUtilization(OpClass::Softmax), 0.0);
        const UtilizationModel back = UtilizationModel::fromJson(r.model.toJson(), "w.json");
        QCOMPARE(back.minUtilization(), r.model.minUtilization());
        QCOMPARE(back.floorSecondsFor("addu"), addu.at("T4"));
    }

    void layerNormPaysItsOwnHostsFloorOnTopOfItsWork()
    {
        // Layer norm: the floor is added to the work, not rounded into it, and each GPU's samples
        // carry their own host's floor. A forecast still assumes the fastest host's.
        QVERIFY(launchFloorComposition(OpClass::LayerNorm) == FloorComposition::Added);
        QVERIFY(launchFloorComposition(OpClass::Softmax) == FloorComposition::SmoothMaximum);
        QCOMPARE(withLaunchFloor(30e-6, 40e-6, FloorComposition::Added), 70e-6);
        QVERIFY(withLaunchFloor(30e-6, 40e-6) < 45e-6); // the smooth maximum: nearly the larger one
        const ClassSamples s = t4AndP100Samples("vector.csv.gz", {"ln"}, 4);
        QCOMPARE(s.opClass, OpClass::LayerNorm);
        const auto floors = estimateLaunchFloors(s);
        const Eigen::VectorXd trained = trainingLaunchFloors(s);
        for (Eigen::Index i = 0; i < s.size(); ++i)
            QCOMPARE(trained(i), floors.at(s.gpus[std::size_t(i)]));
        const TrainResult r = trainBriefly(s);
        QVERIFY(r.model.floorComposition() == FloorComposition::Added);
        QCOMPARE(r.model.toJson().at("launch_floor").get<std::string>(), std::string("added"));
        QCOMPARE(r.model.floorSeconds(), std::min(floors.at("T4"), floors.at("P100-PCIE-16GB")));
    }
};

QTEST_APPLESS_MAIN(TestTrainer)
#include "test_trainer.moc"
