// Loader robustness: every seed of the fuzz corpus (tests/fuzz-corpus/<fuzzer>/) either loads or
// fails with ForecastError, and the inputs that crashed a loader while fuzzing stay fixed. Runs in
// every build; the fuzzers themselves (fuzz/, Clang only) search for new such inputs.
#include "gpuforecast/error.h"
#include "gpuforecast/file_io.h"
#include "gpuforecast/forecaster.h"
#include "gpuforecast/gpu_spec.h"
#include "gpuforecast/json_fields.h"
#include "gpuforecast/kernel_table.h"
#include "gpuforecast/model_config.h"
#include "gpuforecast/model_graph.h"
#include "gpuforecast/scenario.h"
#include "gpuforecast/tiling.h"
#include "gpuforecast/utilization_model.h"

#include <nlohmann/json.hpp>

#include <QDir>
#include <QtTest>

#include <cmath>
#include <functional>
#include <memory>
#include <string>

using namespace gpuforecast;

namespace {

const QString kCorpus = GPUFORECAST_FUZZ_CORPUS;

// Loads `text` the way the named fuzzer does; returns normally or throws ForecastError.
void loadAs(const QString& fuzzer, const std::string& text, const std::string& source)
{
    if (fuzzer == "fuzz_gpu_spec") {
        validateGpuSpec(gpuSpecFromJson(json_fields::parse(text, source), source), source);
    } else if (fuzzer == "fuzz_model_config") {
        buildModelGraph(modelConfigFromJson(json_fields::parse(text, source), source), {2, 8, true, true});
    } else if (fuzzer == "fuzz_kernel_csv") {
        parseKernelTable(text, source, TableContent::InputsOnly);
        try { // tables without measured latencies are valid inputs, just not training data
            for (const auto& m : parseKernelTable(text, source, TableContent::WithMeasurements).measurements)
                parseGemmKernelName(m.kernelName);
        } catch (const ForecastError&) {
        }
    } else if (fuzzer == "fuzz_weights") {
        UtilizationModel::fromJson(json_fields::parse(text, source), source);
    } else if (fuzzer == "fuzz_tile_db") {
        TileDatabase::parse(text, source);
    } else if (fuzzer == "fuzz_scenario") {
        scenarioFromJson(json_fields::parse(text, source), source);
    } else if (fuzzer == "fuzz_gunzip") {
        decompressGzip(text, source, kMaxTableBytes);
    } else {
        QFAIL(qPrintable("no loader for corpus folder " + fuzzer));
    }
}

// The message of the ForecastError `load` throws, or "" when it does not throw.
QString errorOf(const std::function<void()>& load)
{
    try {
        load();
    } catch (const ForecastError& e) {
        return QString::fromStdString(e.what());
    }
    return {};
}

std::string tinyWeights(const std::string& provenance, const std::string& scale, const std::string& weight)
{
    return R"({"format":"gpuforecast-utilization-1","op_class":"bmm",
        "features":["log_tile_compute_us","log_tile_memory_us","log_footprint_vs_memory","log_waves"],
        "feature_mean":[0,0,0,0],"feature_scale":[)" + scale + "," + scale + "," + scale + "," + scale + R"(],
        "feature_min":[-1,-1,-1,-1],"feature_max":[1,1,1,1],"floor_seconds":0,
        "ensemble":[[{"in":4,"out":2,"activation":"identity","weights":[[)" + weight + R"(,0,0,0],[0,0,0,0]],
        "bias":[0,0]}]],"provenance":)" + provenance + "}";
}

} // namespace

class TestLoaderRobustness : public QObject {
    Q_OBJECT
private slots:
    void corpusLoadsOrFailsWithForecastError_data()
    {
        QTest::addColumn<QString>("fuzzer");
        QTest::addColumn<QString>("path");
        const QDir corpus(kCorpus);
        QVERIFY2(corpus.exists(), qPrintable(kCorpus));
        for (const QString& fuzzer : corpus.entryList(QDir::Dirs | QDir::NoDotAndDotDot))
            for (const QString& file : QDir(corpus.filePath(fuzzer)).entryList(QDir::Files))
                QTest::newRow(qPrintable(fuzzer + "/" + file)) << fuzzer << corpus.filePath(fuzzer + "/" + file);
    }
    void corpusLoadsOrFailsWithForecastError()
    {
        QFETCH(QString, fuzzer);
        QFETCH(QString, path);
        const std::string source = path.toStdString();
        // fuzz_gunzip's seeds are the compressed bytes themselves, which readFile would inflate.
        const auto bytesOf = [&] {
            QFile f(path);
            return f.open(QIODevice::ReadOnly) ? f.readAll().toStdString() : std::string();
        };
        const QString error =
            errorOf([&] { loadAs(fuzzer, fuzzer == "fuzz_gunzip" ? bytesOf() : readFile(source), source); });
        // Anything else (std::out_of_range, a crash) fails the test. Seeds named broken_* must be
        // refused with a message naming the file; the others must load (regress_* are inputs that
        // once crashed a loader), so the corpus keeps up with format changes.
        if (QFileInfo(path).fileName().startsWith("broken_"))
            QVERIFY2(error.startsWith(path + ": "), qPrintable("expected an error naming the file, got: " + error));
        else if (!QFileInfo(path).fileName().startsWith("regress_"))
            QVERIFY2(error.isEmpty(), qPrintable(error));
    }

    void tileNameWithHugeNumberIsNoTile()
    {
        // std::stoi threw std::out_of_range here, out of `gpuforecast-cli train`.
        QVERIFY(!parseGemmKernelName("sm80_xmma_99999999999x1").has_value());
        QVERIFY(!parseGemmKernelName("sm80_1x99999999999").has_value());
        QCOMPARE(parseGemmKernelName("sm80_2_0128x64_nn").value(), (GemmTile{128, 64, 1}));
        QCOMPARE(parseGemmKernelName("x9_12x_3x4").value(), (GemmTile{3, 4, 1}));
        // std::regex recursed once per character: a long run of digits overflowed the stack.
        QVERIFY(!parseGemmKernelName("k_" + std::string(1 << 20, '7') + "_nn").has_value());
    }

    void deeplyNestedJsonIsRefused()
    {
        const std::string deep = std::string(100000, '[') + std::string(100000, ']');
        const QString error = errorOf([&] { json_fields::parse(deep, "deep.json"); });
        QVERIFY2(error.startsWith("deep.json: ") && error.contains("nested"), qPrintable(error));
        // Copying this provenance when the model was built overflowed the stack.
        const QString weights = errorOf([&] {
            UtilizationModel::fromJson(json_fields::parse(tinyWeights(deep, "1", "0.5"), "w.json"), "w.json");
        });
        QVERIFY2(weights.startsWith("w.json: ") && weights.contains("nested"), qPrintable(weights));
        // Brackets inside strings do not count; ordinary nesting is fine.
        const std::string ok = std::string(200, '[') + "\"[[[[{{{{\"" + std::string(200, ']');
        QCOMPARE(errorOf([&] { json_fields::parse(ok, "ok.json"); }), QString());
    }

    // An empty file is said to be empty, not "unexpected end of input; expected '[', '{', or a
    // literal"; a number a script wrote one ulp off a whole one is quoted as it is, not as "57".
    // The parser keeps the last of two equal keys: a hand-edited sheet with a second sm_count was
    // forecast with whichever came last. Equal keys in different objects are no such thing.
    // A required field spelt wrong is named with the key the file has instead, in a model config
    // as in a spec sheet: "num_hidden_layers: missing" beside "num_hiden_layers" hid the typo.
    void aMisspeltRequiredKeyIsNamed()
    {
        const auto error = [](const std::string& text) {
            try {
                modelConfigFromJson(nlohmann::json::parse(text), "cfg.json");
            } catch (const ForecastError& e) {
                return std::string(e.what());
            }
            return std::string("accepted");
        };
        const std::string base = R"("model_type": "llama", "hidden_size": 512, "num_attention_heads": 8,
                                    "intermediate_size": 1024, "vocab_size": 1000)";
        QCOMPARE(error("{" + base + R"(, "num_hiden_layers": 2})"),
                 std::string("cfg.json: num_hidden_layers: missing (expected a whole number; is the file's "
                             "\"num_hiden_layers\" meant to be it?)"));
        QCOMPARE(error("{" + base + R"(, "notes": 2})"), std::string("cfg.json: num_hidden_layers: missing (expected a whole number)"));
        // Written as null, the key is there: "missing" sent the user looking for a line in the file.
        QCOMPARE(error("{" + base + R"(, "num_hidden_layers": null})"),
                 std::string("cfg.json: num_hidden_layers: null (expected a whole number)"));
    }

    void aKeyGivenTwiceIsRefused()
    {
        QCOMPARE(errorOf([] { json_fields::parse(R"({"id": "X", "sm_count": 80, "sm_count": 8})", "s.json"); }),
                 QString("s.json: sm_count: given twice in one object (JSON keeps only the last; remove one)"));
        QCOMPARE(errorOf([] { json_fields::parse(R"({"interconnect": {"kind": "a", "kind": "b"}})", "s.json"); }),
                 QString("s.json: interconnect.kind: given twice in one object (JSON keeps only the last; remove one)"));
        QCOMPARE(errorOf([] { json_fields::parse(R"({"custom_gpus": [{"id": "a"}, {"id": "b", "id": "c"}]})", "s.json"); }),
                 QString("s.json: custom_gpus.id: given twice in one object (JSON keeps only the last; remove one)"));
        QCOMPARE(errorOf([] { json_fields::parse(R"({"a": {"x": 1}, "b": {"x": 2}, "c": [{"k": 1}, {"k": 2}], "x": 3})", "s.json"); }),
                 QString());
    }

    void emptyFilesAndNearlyWholeNumbersReadPlainly()
    {
        QCOMPARE(errorOf([] { json_fields::parse("", "s.json"); }), QString("s.json: the file is empty"));
        QCOMPARE(errorOf([] { json_fields::parse(" \n\t", "s.json"); }), QString("s.json: the file holds only white space"));
        nlohmann::json sheet = json_fields::parse(readFile(std::string(GPUFORECAST_RESOURCES) + "/gpus/T4.json"), "T4.json");
        sheet["sm_count"] = 57.00000000000001;
        const QString error = errorOf([&] { gpuSpecFromJson(sheet, "t.json"); });
        QVERIFY2(error.contains("sm_count: expected a whole number, got 57.0000000000000") && !error.endsWith("got 57"),
                 qPrintable(error));
        QCOMPARE(QString::fromStdString(json_fields::plainNumber(2.5)), QString("2.5"));
        QCOMPARE(QString::fromStdString(json_fields::plainNumber(0.1)), QString("0.1"));
    }

    void weightsThatCannotStayFiniteAreRefused()
    {
        const auto load = [](const std::string& text) {
            return errorOf([&] { UtilizationModel::fromJson(json_fields::parse(text, "w.json"), "w.json"); });
        };
        // Without its self-test a file's weights could be anything: it is refused (it had loaded).
        QVERIFY2(load(tinyWeights("{}", "1", "0.5")).startsWith("w.json: self_test: missing"), qPrintable(load(tinyWeights("{}", "1", "0.5"))));
        // Both loaded and then forecast NaN for every kernel.
        QVERIFY(load(tinyWeights("{}", "1e-310", "0.5")).startsWith("w.json: feature_scale[0]: "));
        QVERIFY(load(tinyWeights("{}", "1", "1e300")).startsWith("w.json: ensemble[0][0].weights[0][0]: "));
    }

    // Weights from before an input changed would read the old input as the new one: softmax's rows
    // per tile as FLOPs per byte and its tile count as the wave count, element-wise roofline time as
    // the wave count. The first two files carry the inputs all vector classes once shared.
    void weightsWithTheOldInputsAreRefused_data()
    {
        QTest::addColumn<QString>("opClass");
        QTest::addColumn<QString>("second");
        QTest::addColumn<QString>("expected");
        QTest::newRow("softmax") << "softmax" << "log_flops_per_byte"
                                 << R"(softmax.json: features[1]: expected "log_rows_per_tile")";
        QTest::newRow("elementwise") << "elementwise" << "log_flops_per_byte"
                                     << R"(elementwise.json: features[3]: expected "log_roofline_us")";
        QTest::newRow("softmax by waves") << "softmax" << "log_rows_per_tile"
                                          << R"(softmax.json: features[3]: expected "log_tiles")";
    }
    void weightsWithTheOldInputsAreRefused()
    {
        QFETCH(QString, opClass);
        QFETCH(QString, second);
        QFETCH(QString, expected);
        const std::string file = opClass.toStdString() + ".json";
        std::string text = R"({"format":"gpuforecast-utilization-1","op_class":"CLASS",
            "features":["log_tile_bytes","SECOND","log_kernel_bytes","log_waves"],
            "feature_mean":[0,0,0,0],"feature_scale":[1,1,1,1],"feature_min":[-1,-1,-1,-1],
            "feature_max":[1,1,1,1],"floor_seconds":0.00003,"ensemble":[[{"in":4,"out":2,
            "activation":"identity","weights":[[0,0,0,0],[0,0,0,0]],"bias":[0,0]}]],"provenance":{}})";
        text.replace(text.find("CLASS"), 5, opClass.toStdString());
        text.replace(text.find("SECOND"), 6, second.toStdString());
        const QString error = errorOf([&] { UtilizationModel::fromJson(json_fields::parse(text, file), file); });
        QVERIFY2(error.startsWith(expected), qPrintable(error));
    }

    // A file named .gz must hold gzip data (zlib would read anything else as plain text, and the
    // CSV parser then said "header: missing column 'op'"); gzip data under another name is read
    // as what it is.
    void gzipIsTakenByItsBytes()
    {
        QTemporaryDir dir;
        const std::string table = "op,gpu,b,m,n,k,h\nadd,T4,4,,,,64\n";
        const std::string plainAsGz = dir.filePath("plain.csv.gz").toStdString();
        writeFileAtomically(plainAsGz, table);
        QCOMPARE(errorOf([&] { readFile(plainAsGz); }), QString::fromStdString(plainAsGz + ": not gzip data, though the name ends in .gz"));
        const std::string gzAsCsv = dir.filePath("zipped.csv").toStdString();
        writeGzipFileAtomically(gzAsCsv, table);
        QCOMPARE(readFile(gzAsCsv), table);
        const std::string gz = dir.filePath("t.csv.gz").toStdString();
        writeGzipFileAtomically(gz, table);
        QCOMPARE(readFile(gz), table);
    }

    // A softmax file whose largest measured size is absurdly small loads (the bounds allow it), and
    // then every kernel lies beyond it: forecasts priced from that edge must stay finite.
    void absurdLargestMeasuredSizeStaysFinite()
    {
        const std::string text = R"({"format":"gpuforecast-utilization-1","op_class":"softmax",
            "features":["log_tile_bytes","log_rows_per_tile","log_kernel_bytes","log_tiles"],
            "feature_mean":[0,0,0,0],"feature_scale":[1,1,1,1],
            "feature_min":[-1,-1,-1000000,-1],"feature_max":[1,1,-1000000,1],"floor_seconds":0.00003,
            "ensemble":[[{"in":4,"out":2,"activation":"identity","weights":[[0,0,0,0],[0,0,0,0]],
            "bias":[0,0]}]],"provenance":{},
            "self_test":[{"features":[0,0,0,0],"alpha_gamma":[[0.5,0.5]]}]})"; // zero weights: sigmoid(0) = 0.5
        Forecaster::ModelSet models;
        for (std::size_t i = 0; i < kLearnedClasses.size(); ++i)
            if (kLearnedClasses[i] == OpClass::Softmax)
                models[i] = std::make_shared<const UtilizationModel>(
                    UtilizationModel::fromJson(json_fields::parse(text, "w.json"), "w.json"));
        const Forecaster f(models, nullptr);
        GpuSpec gpu;
        gpu.id = "test";
        gpu.smCount = 100;
        gpu.fp32Gflops = gpu.fp32MatrixGflops = 20000;
        gpu.memoryBandwidthGBps = 1500;
        gpu.memoryGb = 40;
        for (long long rows : {1LL, 4096LL, 1LL << 22}) {
            const KernelForecast k = f.predict(Kernel::vector("softmax", rows, 2048), gpu);
            QVERIFY2(std::isfinite(k.seconds) && k.seconds > 0, qPrintable(QString::number(k.seconds)));
            QVERIFY(std::isfinite(k.utilization) && k.utilization > 0 && k.utilization <= 1);
        }
    }
};

QTEST_APPLESS_MAIN(TestLoaderRobustness)
#include "test_loader_robustness.moc"
