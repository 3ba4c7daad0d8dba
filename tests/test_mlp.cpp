// MLP inference against a network computed by hand, and weights-file validation.
#include "gpuforecast/error.h"
#include "gpuforecast/mlp.h"
#include "gpuforecast/utilization_model.h"

#include <QtTest>

#include <cmath>

using namespace gpuforecast;
using nlohmann::json;

namespace {

// 2 -> 2 (relu) -> 1 (identity), weights chosen so each step is easy to follow by hand.
Mlp tinyNetwork()
{
    DenseLayer a;
    a.weights.resize(2, 2);
    a.weights << 1, -1, 0.5, 2;
    a.bias.resize(2);
    a.bias << 0, -1;
    a.activation = Activation::Relu;
    DenseLayer b;
    b.weights.resize(1, 2);
    b.weights << 3, -2;
    b.bias.resize(1);
    b.bias << 0.25;
    return Mlp({a, b});
}

UtilizationModel smallModel(FloorComposition floor = FloorComposition::SmoothMaximum)
{
    std::vector<DenseLayer> layers(2);
    layers[0].weights = Eigen::MatrixXd::Constant(3, kFeatureCount, 0.1);
    layers[0].bias = Eigen::VectorXd::Zero(3);
    layers[0].activation = Activation::Tanh;
    layers[1].weights = Eigen::MatrixXd::Constant(2, 3, -0.2);
    layers[1].bias = Eigen::VectorXd::Constant(2, 0.3);
    FeatureNormalization n{Eigen::VectorXd::Zero(kFeatureCount), Eigen::VectorXd::Ones(kFeatureCount),
                           Eigen::VectorXd::Constant(kFeatureCount, -10), Eigen::VectorXd::Constant(kFeatureCount, 10)};
    return UtilizationModel(OpClass::Softmax, n, 2e-5, {Mlp(layers)}, json{{"seed", 1}}, floor);
}

} // namespace

class TestMlp : public QObject {
    Q_OBJECT
private slots:
    void forwardMatchesHandComputation()
    {
        // x = (2, 1): hidden = relu(2-1+0, 1+2-1) = (1, 2); out = 3*1 - 2*2 + 0.25 = -0.75.
        // x = (0, 3): hidden = relu(-3, 0+6-1) = (0, 5); out = 0 - 10 + 0.25 = -9.75.
        Eigen::MatrixXd x(2, 2);
        x << 2, 0, 1, 3;
        const Eigen::MatrixXd y = tinyNetwork().forward(x);
        QCOMPARE(y.rows(), Eigen::Index(1));
        QCOMPARE(y(0, 0), -0.75);
        QCOMPARE(y(0, 1), -9.75);
    }

    void jsonRoundTrip()
    {
        const Mlp a = tinyNetwork();
        const Mlp b = Mlp::fromJson(a.toJson(), "mem", "layers");
        Eigen::MatrixXd x = Eigen::MatrixXd::Random(2, 5);
        QVERIFY((a.forward(x) - b.forward(x)).cwiseAbs().maxCoeff() == 0.0);
    }

    void aFeatureThatNeverVariedIsIgnored()
    {
        // Feature 1 had no spread in training (one softmax operator: one FLOPs-per-byte value).
        FeatureNormalization n{Eigen::VectorXd::Zero(kFeatureCount), Eigen::VectorXd::Ones(kFeatureCount),
                               Eigen::VectorXd::Constant(kFeatureCount, -10), Eigen::VectorXd::Constant(kFeatureCount, 10)};
        n.mean(1) = -0.47;
        n.scale(1) = 1e-6;
        Eigen::MatrixXd raw = Eigen::MatrixXd::Constant(kFeatureCount, 3, 0.5);
        raw(1, 0) = -0.47;
        raw(1, 1) = 0.2; // a fused chain: more arithmetic per byte than the lone operator
        raw(1, 2) = -3.0;
        const Eigen::MatrixXd z = normalizeFeatures(n, raw);
        QCOMPARE(z.row(1).cwiseAbs().maxCoeff(), 0.0); // enters as its training value, not as 7e5
        QCOMPARE(z(0, 1), 0.5);                         // the other features are standardised as usual
        const UtilizationModel m(OpClass::Softmax, n, 2e-5, smallModel().members(), json{{"seed", 1}});
        const Eigen::MatrixXd ag = m.alphaGamma(raw, 0);
        QCOMPARE(ag.col(1), ag.col(0));
        QCOMPARE(ag.col(2), ag.col(0));
    }

    void utilizationStaysBelowOne()
    {
        const UtilizationModel m = smallModel();
        Eigen::MatrixXd f = Eigen::MatrixXd::Random(kFeatureCount, 50) * 100;
        const Eigen::MatrixXd ag = m.alphaGamma(f, 0);
        QVERIFY((ag.array() > 0).all() && (ag.array() < 1).all());
        for (double waves : {1.0, 1.5, 7.0, 1e6})
            for (Eigen::Index i = 0; i < ag.cols(); ++i) {
                const double u = utilizationFrom(ag(0, i), ag(1, i), waves);
                QVERIFY(u > 0 && u < 1);
            }
        // More waves never lower the utilization (the saturating wave law).
        QVERIFY(utilizationFrom(0.4, 0.8, 2) < utilizationFrom(0.4, 0.8, 3));
    }

    void weightsFileRoundTripWithSelfTest()
    {
        const UtilizationModel m = smallModel();
        const UtilizationModel back = UtilizationModel::fromJson(m.toJson(), "w.json");
        QCOMPARE(back.opClass(), OpClass::Softmax);
        QCOMPARE(back.floorSeconds(), 2e-5);
        QCOMPARE(back.provenance()["seed"].get<int>(), 1);
        QVERIFY(back.floorComposition() == FloorComposition::SmoothMaximum);
        // How the floor was met travels with the weights, and files from before the field read as
        // the smooth maximum every class was then fitted under.
        const UtilizationModel added = UtilizationModel::fromJson(smallModel(FloorComposition::Added).toJson(), "w.json");
        QVERIFY(added.floorComposition() == FloorComposition::Added);
        json older = smallModel(FloorComposition::Added).toJson();
        older.erase("launch_floor");
        QVERIFY(UtilizationModel::fromJson(older, "w.json").floorComposition() == FloorComposition::SmoothMaximum);
        // Per-operator floors and the minimum utilization travel too; files without them read as
        // the class floor for every operator and no minimum.
        UtilizationModel withFloors = smallModel();
        withFloors.setOperatorFloors({{"softmax", 3e-5}});
        withFloors.setMinUtilization(0.25);
        const UtilizationModel again = UtilizationModel::fromJson(withFloors.toJson(), "w.json");
        QCOMPARE(again.floorSecondsFor("softmax"), 3e-5);
        QCOMPARE(again.floorSecondsFor("fused"), 2e-5);
        QCOMPARE(again.minUtilization(), 0.25);
        QVERIFY(!m.toJson().contains("operator_floor_seconds") && !m.toJson().contains("min_utilization"));
        QCOMPARE(back.floorSecondsFor("softmax"), 2e-5);
        QCOMPARE(back.minUtilization(), 0.0);
        QVERIFY_THROWS_EXCEPTION(ForecastError, withFloors.setOperatorFloors({{"add", 3e-5}})); // not a softmax operator
        QVERIFY_THROWS_EXCEPTION(ForecastError, withFloors.setMinUtilization(1.0));
    }

    void badWeightsAreNamed_data()
    {
        QTest::addColumn<QString>("pointer"); // JSON pointer to damage
        QTest::addColumn<QString>("value");   // replacement JSON, or "<remove>"
        QTest::addColumn<QString>("expected");
        QTest::newRow("wrong format") << "/format" << "\"other\"" << "format";
        QTest::newRow("unknown class") << "/op_class" << "\"conv\"" << "op_class";
        QTest::newRow("feature renamed") << "/features/0" << "\"x\"" << "features[0]";
        QTest::newRow("scale zero") << "/feature_scale/1" << "0" << "feature_scale[1]";
        QTest::newRow("weights row short") << "/ensemble/0/0/weights/0" << "[1]" << "ensemble[0][0].weights[0]";
        QTest::newRow("weight NaN-like") << "/ensemble/0/1/weights/0/0" << "\"nan\"" << "ensemble[0][1].weights[0][0]";
        QTest::newRow("bias missing") << "/ensemble/0/1/bias" << "<remove>" << "ensemble[0][1].bias";
        QTest::newRow("layer sizes do not chain") << "/ensemble/0/1/in" << "4" << "ensemble[0][1]";
        QTest::newRow("unknown activation") << "/ensemble/0/0/activation" << "\"swish\"" << "activation";
        QTest::newRow("edited weight fails self-test") << "/ensemble/0/1/bias/0" << "0.31" << "self-test";
        QTest::newRow("floor negative") << "/floor_seconds" << "-1" << "floor_seconds";
        QTest::newRow("unknown floor composition") << "/launch_floor" << "\"max\"" << "launch_floor";
        QTest::newRow("no ensemble") << "/ensemble" << "[]" << "ensemble";
        QTest::newRow("operator floor of another class") << "/operator_floor_seconds" << "{\"add\": 3e-5}" << "operator_floor_seconds.add";
        QTest::newRow("operator floor negative") << "/operator_floor_seconds" << "{\"softmax\": -1}" << "operator_floor_seconds.softmax";
        QTest::newRow("operator floors not an object") << "/operator_floor_seconds" << "[1]" << "operator_floor_seconds";
        QTest::newRow("minimum utilization of 1") << "/min_utilization" << "1" << "min_utilization";
    }
    void badWeightsAreNamed()
    {
        QFETCH(QString, pointer);
        QFETCH(QString, value);
        QFETCH(QString, expected);
        json j = smallModel().toJson();
        const json::json_pointer ptr(pointer.toStdString());
        if (value == "<remove>")
            j[ptr.parent_pointer()].erase(ptr.back());
        else
            j[ptr] = json::parse(value.toStdString());
        try {
            UtilizationModel::fromJson(j, "w.json");
            QFAIL("accepted damaged weights");
        } catch (const ForecastError& e) {
            QVERIFY2(QString(e.what()).startsWith("w.json"), e.what());
            QVERIFY2(QString(e.what()).contains(expected), e.what());
        }
    }
};

QTEST_APPLESS_MAIN(TestMlp)
#include "test_mlp.moc"
