// Scenario files: round trip, and every bad field refused with its name.
#include "gpuforecast/error.h"
#include "gpuforecast/file_io.h"
#include "gpuforecast/scenario.h"

#include <QtTest>

using namespace gpuforecast;
using nlohmann::json;

namespace {

json validScenario()
{
    json j = json::parse(R"({"format": "gpuforecast-scenario-1", "model": "gpt2_large", "batch": 4, "seq": 1024,
                             "mode": "training", "fusion": true, "gpus": ["T4", "mine"]})");
    json mine = json::parse(readFile(std::string(GPUFORECAST_RESOURCES) + "/gpus/T4.json"));
    mine["id"] = "mine";
    j["custom_gpus"] = json::array({mine});
    return j;
}

} // namespace

class TestScenario : public QObject {
    Q_OBJECT
private slots:
    void roundTrip()
    {
        const Scenario s = scenarioFromJson(validScenario(), "s.json");
        QCOMPARE(s.options.batch, 4LL);
        QVERIFY(s.options.training && s.options.fusion);
        QCOMPARE(s.customGpus.size(), std::size_t(1));
        QTemporaryDir dir;
        const std::string path = dir.filePath("s.json").toStdString();
        saveScenario(s, path);
        QCOMPARE(scenarioToJson(loadScenario(path)).dump(), scenarioToJson(s).dump());
    }

    void badFieldsAreNamed_data()
    {
        QTest::addColumn<QString>("pointer");
        QTest::addColumn<QString>("value");
        QTest::addColumn<QString>("expected");
        QTest::newRow("format") << "/format" << "\"other\"" << "format";
        QTest::newRow("batch zero") << "/batch" << "0" << "batch";
        QTest::newRow("seq string") << "/seq" << "\"long\"" << "seq";
        QTest::newRow("mode") << "/mode" << "\"serving\"" << "mode";
        QTest::newRow("fusion") << "/fusion" << "\"yes\"" << "fusion";
        QTest::newRow("gpus not array") << "/gpus" << "\"T4\"" << "gpus";
        QTest::newRow("gpu id number") << "/gpus/0" << "7" << "gpus[0]";
        QTest::newRow("custom spec bad") << "/custom_gpus/0/sm_count" << "-1" << "custom_gpus[0]: sm_count";
        QTest::newRow("embedded config bad") << "/model_config" << R"({"model_type": "gpt2"})" << "model_config";
    }
    void badFieldsAreNamed()
    {
        QFETCH(QString, pointer);
        QFETCH(QString, value);
        QFETCH(QString, expected);
        json j = validScenario();
        j[json::json_pointer(pointer.toStdString())] = json::parse(value.toStdString());
        try {
            scenarioFromJson(j, "s.json");
            QFAIL("accepted");
        } catch (const ForecastError& e) {
            QVERIFY2(QString(e.what()).startsWith("s.json"), e.what());
            QVERIFY2(QString(e.what()).contains(expected), e.what());
        }
    }
};

QTEST_APPLESS_MAIN(TestScenario)
#include "test_scenario.moc"
