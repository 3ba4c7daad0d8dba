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
        json j = validScenario();
        j["checkpointing"] = true;
        const Scenario recomputing = scenarioFromJson(j, "s.json");
        QVERIFY(recomputing.options.checkpointing);
        saveScenario(recomputing, path);
        QVERIFY(loadScenario(path).options.checkpointing);
    }

    // "gpus": ["T4", "T4", "L4"] drew two bars without a word: each GPU is compared once, and
    // the note says which the file repeated, with unread keys or alone.
    void aGpuListedTwiceIsComparedOnceAndNamed()
    {
        json j = validScenario();
        j["gpus"] = json::array({"T4", "L4", "T4", "T4", "L4"});
        const Scenario s = scenarioFromJson(j, "s.json");
        QCOMPARE(s.gpus, (std::vector<std::string>{"T4", "L4"}));
        QCOMPARE(QString::fromStdString(scenarioUnreadNote(s).value_or("")),
                 QString("gpus lists T4, L4 more than once; each is compared once"));
        j["my_notes"] = 1;
        QVERIFY(QString::fromStdString(scenarioUnreadNote(scenarioFromJson(j, "s.json")).value_or(""))
                    .endsWith("(saving the scenario keeps it as it is); gpus lists T4, L4 more than once; each is compared once"));
    }

    // A misspelt field in an embedded sheet ("l1_cache_kbb") was dropped without a word, where
    // the same sheet imported on its own is named; it is now named beside the scenario's own.
    void aSheetFieldNoForecastReadsIsNamed()
    {
        json j = validScenario();
        j["custom_gpus"][0]["l1_cache_kbb"] = 1;
        const Scenario s = scenarioFromJson(j, "s.json");
        QCOMPARE(QString::fromStdString(scenarioUnreadNote(s).value_or("")),
                 QString("custom_gpus[0] (mine): l1_cache_kbb (did you mean l1_cache_kb?) is not a spec field; "
                         "no forecast reads it"));
        j["my_notes"] = 1;
        j["gpus"] = json::array({"T4", "mine", "T4"});
        QCOMPARE(QString::fromStdString(scenarioUnreadNote(scenarioFromJson(j, "s.json")).value_or("")),
                 QString("my_notes is not a scenario field; it was not read (saving the scenario keeps it as it is); "
                         "custom_gpus[0] (mine): l1_cache_kbb (did you mean l1_cache_kb?) is not a spec field; no "
                         "forecast reads it; gpus lists T4 more than once; each is compared once"));
    }

    void parallelLayoutRoundTripsAndDefaultsToOneGpu()
    {
        const Scenario old = scenarioFromJson(validScenario(), "old.json"); // written before multi-GPU
        QCOMPARE(old.parallel.gpus(), 1LL);
        json j = validScenario();
        j["parallel"] = json::parse(R"({"tp": 2, "pp": 4, "dp": 1, "microbatches": 8, "schedule": "gpipe", "zero": 1})");
        const Scenario s = scenarioFromJson(j, "s.json");
        QCOMPARE(s.parallel.tp, 2LL);
        QCOMPARE(s.parallel.pp, 4LL);
        QCOMPARE(s.parallel.microbatches, 8LL);
        QVERIFY(s.parallel.schedule == PipelineSchedule::GPipe);
        QTemporaryDir dir;
        const std::string path = dir.filePath("s.json").toStdString();
        saveScenario(s, path);
        const Scenario back = loadScenario(path);
        QCOMPARE(back.parallel.tp, 2LL);
        QCOMPARE(back.parallel.pp, 4LL);
        QCOMPARE(back.parallel.dp, 1LL);
        QCOMPARE(back.parallel.microbatches, 8LL);
        QVERIFY(back.parallel.schedule == PipelineSchedule::GPipe);
        QCOMPARE(back.parallel.zero, 1LL);
        QCOMPARE(old.parallel.zero, 0LL);
        QVERIFY(!old.options.checkpointing);
        QCOMPARE(scenarioToJson(back).dump(), scenarioToJson(s).dump());
        QVERIFY(s.unreadFields.empty() && !scenarioUnreadNote(s));
        // Keys no field reads are named, with what they likely meant, at both levels.
        json typo = j;
        typo["paralel"] = json::object();
        typo["parallel"]["pp_size"] = 2;
        typo["my_notes"] = "kept for me";
        const Scenario t = scenarioFromJson(typo, "t.json");
        QCOMPARE(t.unreadFields, (std::vector<std::string>{"my_notes", "paralel", "parallel.pp_size"}));
        QCOMPARE(QString::fromStdString(scenarioUnreadNote(t).value_or("")),
                 QString("my_notes, paralel (did you mean parallel?), parallel.pp_size are not scenario fields; they were not read "
                         "(saving the scenario keeps them as they are)"));
        // They go back as they were, at both levels, and never over a field the scenario writes.
        const json saved = scenarioToJson(t);
        QCOMPARE(saved["my_notes"], json("kept for me"));
        QCOMPARE(saved["paralel"], json::object());
        QCOMPARE(saved["parallel"]["pp_size"], json(2));
        QCOMPARE(saved["parallel"]["pp"], json(4));
        QCOMPARE(scenarioFromJson(saved, "saved.json").unreadFields, t.unreadFields);
        Scenario clash = t;
        clash.unreadJson["batch"] = 99;
        clash.unreadJson["parallel"]["tp"] = 99;
        QCOMPARE(scenarioToJson(clash)["batch"], json(t.options.batch));
        QCOMPARE(scenarioToJson(clash)["parallel"]["tp"], json(2));
        // The GUI shows "1F1B" and "GPipe"; a scenario written by hand in those words opens.
        j["parallel"]["schedule"] = "1F1B";
        QVERIFY(scenarioFromJson(j, "s.json").parallel.schedule == PipelineSchedule::OneFOneB);
        j["parallel"]["schedule"] = "GPipe";
        QVERIFY(scenarioFromJson(j, "s.json").parallel.schedule == PipelineSchedule::GPipe);
    }

    void badFieldsAreNamed_data()
    {
        QTest::addColumn<QString>("pointer");
        QTest::addColumn<QString>("value");
        QTest::addColumn<QString>("expected");
        QTest::newRow("format") << "/format" << "\"other\"" << "format: expected \"gpuforecast-scenario-1\", got \"other\"";
        QTest::newRow("format of another version") << "/format" << "\"gpuforecast-scenario-2\""
                                                   << "got \"gpuforecast-scenario-2\" (written by another version";
        QTest::newRow("batch zero") << "/batch" << "0" << "batch";
        QTest::newRow("seq string") << "/seq" << "\"long\"" << "seq";
        QTest::newRow("mode") << "/mode" << "\"serving\"" << "mode";
        QTest::newRow("mode abbreviated") << "/mode" << "\"train\"" << "got \"train\" (did you mean training?)";
        QTest::newRow("fusion") << "/fusion" << "\"yes\"" << "fusion: expected true or false, got the string \"yes\"";
        QTest::newRow("gpus not array") << "/gpus" << "\"T4\"" << "gpus";
        QTest::newRow("gpu id number") << "/gpus/0" << "7" << "gpus[0]";
        QTest::newRow("custom spec bad") << "/custom_gpus/0/sm_count" << "-1" << "custom_gpus[0]: sm_count";
        QTest::newRow("parallel not object") << "/parallel" << "4" << "parallel";
        QTest::newRow("tp zero") << "/parallel" << R"({"tp": 0})" << "parallel.tp";
        QTest::newRow("pp fraction") << "/parallel" << R"({"pp": 1.5})" << "parallel.pp";
        QTest::newRow("dp string") << "/parallel" << R"({"dp": "4"})" << "parallel.dp: expected a number in [1, 4096], got the string \"4\" (a number in quotes";
        QTest::newRow("microbatches negative") << "/parallel" << R"({"microbatches": -2})" << "parallel.microbatches";
        QTest::newRow("schedule unknown") << "/parallel" << R"({"schedule": "zero-bubble"})" << "parallel.schedule";
        QTest::newRow("ZeRO stage 4") << "/parallel" << R"({"dp": 2, "zero": 4})" << "parallel.zero";
        QTest::newRow("checkpointing not a flag") << "/checkpointing" << R"("yes")" << "checkpointing";
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

    // A long value is quoted cut short, never inside a character: a dialog showed half of one.
    void quotedValuesAreCutBetweenCharacters()
    {
        json j = validScenario();
        std::string accents;
        for (int i = 0; i < 45; ++i)
            accents += "\u00e9"; // two bytes each: after "x", 40 bytes would end inside the 20th
        j["fusion"] = "x" + accents;
        try {
            scenarioFromJson(j, "s.json");
            QFAIL("accepted");
        } catch (const ForecastError& e) {
            const QByteArray message(e.what());
            QVERIFY2(message.contains("got the string \"x" + QByteArray(accents.substr(0, 38).c_str()) + "...\""), e.what());
            QCOMPARE(QString::fromUtf8(message).toUtf8(), message); // valid UTF-8 throughout
        }
    }

    void aModelConfigIsNotAScenario()
    {
        // Opened as a scenario by mistake, a config.json must be named for what it is not.
        const json config = json::parse(R"({"model_type": "gpt2", "n_embd": 1280, "n_layer": 36, "n_head": 20})");
        try {
            scenarioFromJson(config, "config.json");
            QFAIL("accepted");
        } catch (const ForecastError& e) {
            QVERIFY2(QString(e.what()).startsWith("config.json: not a GPU Forecast scenario"), e.what());
        }
    }
};

QTEST_APPLESS_MAIN(TestScenario)
#include "test_scenario.moc"
