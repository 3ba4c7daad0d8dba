// Spec sheets: the bundled ones load and match NeuSight's numbers; each bad field is refused by name.
#include "gpuforecast/catalog.h"
#include "gpuforecast/error.h"
#include "gpuforecast/file_io.h"
#include "gpuforecast/gpu_spec.h"
#include "gpuforecast/json_fields.h"
#include "gpuforecast/number_text.h"

#include <nlohmann/json.hpp>

#include <QtTest>

#include <limits>

using namespace gpuforecast;
using nlohmann::json;

namespace {

const std::string kRes = GPUFORECAST_RESOURCES;

json validSpec()
{
    return json::parse(readFile(kRes + "/gpus/V100-PCIE-32GB.json"));
}

} // namespace

class TestGpuSpec : public QObject {
    Q_OBJECT
private slots:
    void bundledSpecsLoad()
    {
        const auto gpus = loadGpuDirectory(kRes + "/gpus");
        QVERIFY(gpus.size() >= 19);
        for (const char* id : {"H100-PCIE-80GB", "H200-SXM-141GB", "L40S", "A10", "RTX-4090", "MI300X"})
            QVERIFY2(findGpu(gpus, id), id);
        for (const auto& g : gpus) {
            QVERIFY2(!g.source.empty(), g.id.c_str());
            QVERIFY(g.fp32MatrixGflops >= g.fp32Gflops);
        }
    }

    // A copy of a sheet under its old id had silently become that GPU: the folder is refused,
    // naming the second file, the field and the first file.
    void twoSheetsUnderOneIdAreRefused()
    {
        QTemporaryDir dir;
        json copy = validSpec();
        writeFileAtomically(dir.filePath("V100-PCIE-32GB.json").toStdString(), validSpec().dump());
        copy["sm_count"] = 160;
        writeFileAtomically(dir.filePath("V100copy.json").toStdString(), copy.dump());
        try {
            loadGpuDirectory(dir.path().toStdString());
            QFAIL("accepted");
        } catch (const ForecastError& e) {
            const QString what = e.what();
            QVERIFY2(what.contains(": id: 'V100-PCIE-32GB' is also the id of ") && what.contains("V100copy.json") &&
                         what.contains("V100-PCIE-32GB.json"),
                     e.what());
        }
    }

    void neusightNumbersAreExact()
    {
        const json ref = json::parse(readFile(kRes + "/datasets/neusight/gpu_specs_neusight.json"));
        const auto gpus = loadGpuDirectory(kRes + "/gpus");
        QCOMPARE(ref.size(), std::size_t(12));
        for (const auto& [id, r] : ref.items()) {
            const GpuSpec* g = findGpu(gpus, id);
            QVERIFY2(g, id.c_str());
            QCOMPARE(g->memoryGb, r["Dev_Mem"].get<double>());
            QCOMPARE(g->memoryBandwidthGBps, r["Mem_Bw"].get<double>());
            QCOMPARE(g->smCount, r["Num_Sm"].get<double>());
            // NeuSight counts an AMD compute unit's 4 SIMDs; the sheets count its 64 FP32 lanes, as
            // for NVIDIA, so that FP32 = 2 x CUs x lanes x clock holds (fp32PeakMismatch).
            QCOMPARE(g->coresPerSm, r["Core_Per_SM"].get<double>() * (g->vendor == "AMD" ? 16 : 1));
            QCOMPARE(g->boostClockMhz, r["Freq"].get<double>());
            QCOMPARE(g->l2CacheMb, r["L2Cache"].get<double>());
            if (r.contains("SingleFLOPs")) {
                QCOMPARE(g->fp32Gflops, r["SingleFLOPs"].get<double>());
            } else {
                QCOMPARE(g->fp32Gflops, r["SingleFLOPsVEC"].get<double>());
                QCOMPARE(g->fp32MatrixGflops, r["SingleFLOPsMM"].get<double>());
            }
        }
    }

    void fp32PeakAgreesWithCoresAndClock()
    {
        for (const auto& g : loadGpuDirectory(kRes + "/gpus")) // every bundled sheet is consistent
            QVERIFY2(!fp32PeakMismatch(g), fp32PeakMismatch(g).value_or(g.id).c_str());
        GpuSpec v100 = gpuSpecFromJson(validSpec(), "v100");
        QVERIFY(!fp32PeakMismatch(v100));
        v100.fp32Gflops /= 10; // a digit lost
        const auto text = fp32PeakMismatch(v100);
        QVERIFY(text);
        QVERIFY2(text->find("is 0.1x 2 x SMs x cores per SM x boost clock (14029 GFLOP/s)") != std::string::npos, text->c_str());
        v100.coresPerSm = 0; // not given: nothing to check against
        QVERIFY(!fp32PeakMismatch(v100));
    }

    // A misspelt vendor read the sheet as not NVIDIA's: an H100 copy 7% faster, without a word.
    void aVendorNeitherNvidiaNorAmdIsNamed()
    {
        for (const auto& g : loadGpuDirectory(kRes + "/gpus"))
            QVERIFY2(!vendorNote(g), vendorNote(g).value_or(g.id).c_str());
        GpuSpec h100 = gpuSpecFromJson(json::parse(readFile(kRes + "/gpus/H100-SXM5-80GB.json")), "h100.json");
        h100.vendor = "Nvdia";
        const std::string note = vendorNote(h100).value_or("");
        QVERIFY2(note.find("vendor \"Nvdia\" is neither NVIDIA nor AMD") == 0, note.c_str());
        for (const char* fine : {"", "nvidia corporation", "AMD"}) {
            h100.vendor = fine;
            QVERIFY2(!vendorNote(h100), fine);
        }
    }

    // An AMD sheet without its matrix peak was forecast 1.8x slower than with it, without a word.
    void aMatrixPeakTakenFromTheVectorOneIsNamed()
    {
        for (const auto& g : loadGpuDirectory(kRes + "/gpus")) // every bundled sheet gives it, or needs not
            QVERIFY2(!matrixPeakNote(g), matrixPeakNote(g).value_or(g.id).c_str());
        json mi300x = json::parse(readFile(kRes + "/gpus/MI300X.json"));
        mi300x.erase("fp32_matrix_gflops");
        GpuSpec amd = gpuSpecFromJson(mi300x, "mi300x.json");
        QCOMPARE(amd.fp32MatrixGflops, amd.fp32Gflops);
        const std::string note = matrixPeakNote(amd).value_or("");
        QVERIFY2(note.find("fp32_matrix_gflops is not above the vector FP32 peak (fp32_gflops 81700), so GEMMs are priced at that") == 0,
                 note.c_str());
        setSpecField(amd, "fp32_matrix_gflops", 163400); // given by hand in the GUI's sheet
        QVERIFY(!matrixPeakNote(amd));
        // Judged from the numbers, so a save and reload (which writes the key) or an undo keeps it.
        setSpecField(amd, "fp32_matrix_gflops", 81700);
        QVERIFY(matrixPeakNote(gpuSpecFromJson(gpuSpecToJson(amd), "saved.json")));
        amd.vendor.clear(); // no vendor: the check still applies, as to any sheet not of NVIDIA
        QVERIFY(matrixPeakNote(amd));
        json v100 = validSpec(); // NVIDIA runs FP32 GEMMs on its vector lanes: the default is right
        v100.erase("fp32_matrix_gflops");
        QVERIFY(!matrixPeakNote(gpuSpecFromJson(v100, "v100.json")));
        // There the two are one peak: halving fp32_gflops alone by hand left every GEMM as it was.
        json h100 = json::parse(readFile(kRes + "/gpus/H100-SXM5-80GB.json"));
        h100["fp32_gflops"] = h100["fp32_gflops"].get<double>() / 2;
        const std::string halved = matrixPeakNote(gpuSpecFromJson(h100, "h100.json")).value_or("");
        QVERIFY2(halved.find("fp32_matrix_gflops 66908 differs from fp32_gflops 33454, but NVIDIA runs FP32 GEMMs on the "
                             "same FP32 lanes: GEMMs are priced at 66908") == 0,
                 halved.c_str());
        h100["fp32_matrix_gflops"] = h100["fp32_gflops"]; // both edited: nothing to say
        QVERIFY(!matrixPeakNote(gpuSpecFromJson(h100, "h100.json")));
    }

    // Extra fields are allowed (a sheet may carry notes), but each is named, and a misspelt
    // field is named with the one it meant: "l1_cache_kbb" left the default 128 KB in force.
    void fieldsNoForecastReadsAreNamed()
    {
        for (const auto& g : loadGpuDirectory(kRes + "/gpus"))
            QVERIFY2(g.unreadFields.empty(), unreadFieldsNote(g).value_or(g.id).c_str());
        json j = validSpec();
        QVERIFY(!unreadFieldsNote(gpuSpecFromJson(j, "v100")));
        j["L1_cache_kbb"] = 256;
        j["note"] = "bought in 2019";
        j["interconnect"]["bandwith_gbps"] = 64;
        const GpuSpec g = gpuSpecFromJson(j, "v100");
        QCOMPARE(g.l1CacheKb, validSpec()["l1_cache_kb"].get<double>()); // the typo did not set it
        QCOMPARE(g.unreadFields.size(), std::size_t(3));
        const std::string note = unreadFieldsNote(g).value_or("");
        for (const char* part : {"L1_cache_kbb (did you mean l1_cache_kb?)", "note, ", // "note" is no typo of "name"
                                 "interconnect.bandwith_gbps (did you mean interconnect.bandwidth_gbps?)",
                                 "are not spec fields; no forecast reads them"})
            QVERIFY2(note.find(part) != std::string::npos, note.c_str());
        // A nested field written at the top level is not read there: say where it goes. A unit left
        // off names the keys it begins.
        json flat = validSpec();
        flat["interconnect.bandwidth_gbps"] = 600;
        flat["tdp"] = 250;
        const std::string flatNote = unreadFieldsNote(gpuSpecFromJson(flat, "v100")).value_or("");
        for (const char* part : {"interconnect.bandwidth_gbps (write it as \"bandwidth_gbps\" inside \"interconnect\")",
                                 "tdp (did you mean tdp_w?)"})
            QVERIFY2(flatNote.find(part) != std::string::npos, flatNote.c_str());
        // Saved again (the GUI saves each edit), the sheet keeps them, where they were, and a
        // field the sheet itself writes is never overwritten by a kept one.
        const json saved = gpuSpecToJson(g);
        QCOMPARE(saved.value("note", ""), std::string("bought in 2019"));
        QCOMPARE(saved.value("L1_cache_kbb", 0), 256);
        QCOMPARE(saved["interconnect"].value("bandwith_gbps", 0), 64);
        QCOMPARE(saved["interconnect"]["bandwidth_gbps"], validSpec()["interconnect"]["bandwidth_gbps"]);
        QCOMPARE(saved.value("interconnect.bandwidth_gbps", 0), 0); // a flat key stays flat
        QCOMPARE(gpuSpecFromJson(saved, "v100").unreadFields.size(), std::size_t(3));
        const json flatSaved = gpuSpecToJson(gpuSpecFromJson(flat, "v100"));
        QCOMPARE(flatSaved.value("interconnect.bandwidth_gbps", 0), 600);
        QCOMPARE(flatSaved["interconnect"]["bandwidth_gbps"], validSpec()["interconnect"]["bandwidth_gbps"]);
        QVERIFY(!gpuSpecToJson(gpuSpecFromJson(validSpec(), "v100")).contains("note"));
        json one = validSpec();
        one["sm_cont"] = 80;
        QCOMPARE(unreadFieldsNote(gpuSpecFromJson(one, "v100")).value_or(""),
                 std::string("sm_cont (did you mean sm_count?) is not a spec field; no forecast reads it"));
    }

    // What a sheet under a bundled id changes, as a forecast reads it: a field left out is "not
    // given" (read as its default, not as 0), and the text fields that pick tiles and L1 count.
    void specDifferencesNameWhatAForecastReads()
    {
        const GpuSpec v100 = gpuSpecFromJson(validSpec(), "v100");
        QVERIFY(specDifferences(v100, v100).empty());
        json j = validSpec();
        j.erase("l1_cache_kb");
        j["architecture"] = "Pascal";
        j["name"] = "renamed"; // no forecast reads the name or the source
        j["source"] = "my notes";
        const auto d = specDifferences(gpuSpecFromJson(j, "edited"), v100);
        QCOMPARE(d.size(), std::size_t(2));
        QCOMPARE(d[0], std::string("architecture \"Pascal\" (\"Volta\")"));
        QCOMPARE(d[1], std::string("l1_cache_kb not given (128)"));
    }

    void smCacheFieldsAreOptional()
    {
        // Every bundled sheet gives them; a sheet without them loads, saves without them, and
        // forecasts read it as a Volta-like SM.
        for (const auto& g : loadGpuDirectory(kRes + "/gpus")) {
            QVERIFY2(g.l1CacheKb >= 16 && g.l1CacheKb <= 256, g.id.c_str());
            QVERIFY2(g.maxThreadsPerSm >= 1024 && g.maxThreadsPerSm <= 2560, g.id.c_str());
        }
        const GpuSpec v100 = gpuSpecFromJson(validSpec(), "v100");
        QCOMPARE(v100.l1CacheKb, 128.0);
        QCOMPARE(v100.maxThreadsPerSm, 2048.0);
        json j = validSpec();
        j.erase("l1_cache_kb");
        j.erase("max_threads_per_sm");
        const GpuSpec bare = gpuSpecFromJson(j, "bare");
        QCOMPARE(bare.l1CacheKb, 0.0);
        QCOMPARE(bare.l1CacheKbOrDefault(), 128.0);
        QCOMPARE(bare.threadsPerSmOrDefault(), 2048.0);
        QVERIFY(!gpuSpecToJson(bare).contains("l1_cache_kb"));
        validateGpuSpec(bare, "bare"); // "not given" is valid
    }

    void roundTripThroughJson()
    {
        const GpuSpec a = gpuSpecFromJson(validSpec(), "v100");
        const GpuSpec b = gpuSpecFromJson(gpuSpecToJson(a), "again");
        QCOMPARE(gpuSpecToJson(b).dump(), gpuSpecToJson(a).dump());
    }

    void badFieldIsNamed_data()
    {
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("value"); // JSON text, "<remove>", or "<rename:key>" (the field under another key)
        QTest::addColumn<QString>("expected");
        QTest::newRow("sm_count missing") << "sm_count" << "<remove>" << "sm_count: missing";
        // A required field misspelt was only "missing": the key the file has instead is named.
        QTest::newRow("sm_count misspelt") << "sm_count" << "<rename:sm_cont>"
                                           << "sm_count: missing (expected a number; is the file's \"sm_cont\" meant to be it?)";
        QTest::newRow("bandwidth without its unit") << "memory_bandwidth_gbps" << "<rename:Memory_Bandwidth>"
                                                    << "is the file's \"Memory_Bandwidth\" meant to be it?";
        QTest::newRow("unrelated key not blamed") << "sm_count" << "<rename:notes>" << "sm_count: missing (expected a number)";
        QTest::newRow("sm_count zero") << "sm_count" << "0" << "sm_count: expected a number in";
        QTest::newRow("sm_count fractional") << "sm_count" << "10.5" << "sm_count: expected a whole number";
        QTest::newRow("sm_count nearly whole") << "sm_count" << "108.0000001" // printed whole, not as "108"
                                               << "sm_count: expected a whole number, got 108.0000001";
        QTest::newRow("bandwidth negative") << "memory_bandwidth_gbps" << "-900" << "memory_bandwidth_gbps";
        QTest::newRow("bandwidth string") << "memory_bandwidth_gbps" << "\"900\"" // the field's own range, not the parser's
                                              << "memory_bandwidth_gbps: expected a number in [1, 10000000] GB/s, got the string \"900\" (a number in quotes: write it without them)";
        QTest::newRow("fp32 null") << "fp32_gflops" << "null" << "fp32_gflops: null (expected a number in GFLOP/s)";
        QTest::newRow("fp32 absurd") << "fp32_gflops" << "1e300" << "fp32_gflops: expected a number in";
        QTest::newRow("memory past the parser's bound") << "memory_gb" << "1e308" // the field's range, not +-1e300
                                                        << "memory_gb: expected a number in [0.001, 1000000]";
        QTest::newRow("fp32 overflow literal") << "fp32_gflops" << "1e400" << "not valid JSON";
        QTest::newRow("l2 zero") << "l2_cache_mb" << "0" << "l2_cache_mb";
        QTest::newRow("clock array") << "boost_clock_mhz" << "[1]" << "boost_clock_mhz: expected";
        QTest::newRow("id missing") << "id" << "<remove>" << "id: missing";
        QTest::newRow("id with slash") << "id" << "\"a/b\"" << "id: must be";
        QTest::newRow("year too early") << "launch_year" << "1800" << "launch_year";
        QTest::newRow("l1 zero") << "l1_cache_kb" << "0" << "l1_cache_kb: expected a number in [1, 100000] KB, got 0";
        // "No price" is a missing key; a 0 was kept and then reported as "not given" beside the file that gave it.
        QTest::newRow("price zero") << "price_usd" << "0" << "price_usd: expected a number in [1, 1000000000] USD, got 0";
        QTest::newRow("threads fractional") << "max_threads_per_sm" << "1536.5" << "max_threads_per_sm: expected a whole";
    }
    void badFieldIsNamed()
    {
        QFETCH(QString, field);
        QFETCH(QString, value);
        QFETCH(QString, expected);
        std::string text;
        if (value == "<remove>" || value.startsWith("<rename:")) {
            json j = validSpec();
            if (value != "<remove>")
                j[value.mid(8).chopped(1).toStdString()] = j[field.toStdString()];
            j.erase(field.toStdString());
            text = j.dump();
        } else {
            json j = validSpec();
            j[field.toStdString()] = "@@";
            text = j.dump();
            const auto pos = text.find("\"@@\"");
            text.replace(pos, 4, value.toStdString());
        }
        try {
            gpuSpecFromJson(json_fields::parse(text, "bad.json"), "bad.json");
            QFAIL("accepted a bad spec");
        } catch (const ForecastError& e) {
            const QString msg = e.what();
            QVERIFY2(msg.startsWith("bad.json"), qPrintable(msg));
            QVERIFY2(msg.contains(expected), qPrintable(msg));
            QVERIFY2(!msg.contains("json.exception"), qPrintable(msg)); // the parser's jargon stays out
            QVERIFY2(!msg.contains("e+0"), qPrintable(msg));             // 1048576, not 1.04858e+06
        }
    }

    // Another of the app's files given as a sheet says what it looks like: a model's config.json
    // had been refused with "id: missing (expected a string)".
    void otherFilesAreNotTakenForSheets()
    {
        const std::pair<const char*, const char*> files[] = {
            {R"({"model_type": "gpt2", "n_layer": 36, "n_embd": 1280})", "looks like a model's config.json"},
            {R"({"format": "gpuforecast-scenario-1", "model": "gpt2_large", "gpus": ["T4"]})", "looks like a scenario"},
            {R"({"hello": 1})", "not a GPU spec sheet: it has none of a sheet's fields"}};
        for (const auto& [text, expected] : files) {
            try {
                gpuSpecFromJson(json::parse(text), "other.json");
                QFAIL(text);
            } catch (const ForecastError& e) {
                QVERIFY2(QString(e.what()).startsWith("other.json") && QString(e.what()).contains(expected), e.what());
            }
        }
        json noId = validSpec(); // a sheet that only lacks its id is still told so
        noId.erase("id");
        QVERIFY_THROWS_EXCEPTION(ForecastError, gpuSpecFromJson(noId, "x.json"));
        try {
            gpuSpecFromJson(noId, "x.json");
        } catch (const ForecastError& e) {
            QVERIFY2(QString(e.what()).contains("id: missing"), e.what());
        }
    }

    void nestedInterconnectFieldIsNamed()
    {
        json j = validSpec();
        j["interconnect"]["bandwidth_gbps"] = -1;
        try {
            gpuSpecFromJson(j, "bad.json");
            QFAIL("accepted");
        } catch (const ForecastError& e) {
            QVERIFY2(QString(e.what()).contains("interconnect.bandwidth_gbps"), e.what());
        }
    }

    // Numbers in notes read as numbers: "%.3g" had written a sheet's 10^8 GFLOP/s as "1e+08" and
    // 1000 GFLOP/s per SM as "1e+03".
    void notesWriteNumbersAsDigits()
    {
        QCOMPARE(significantFigures(1000), std::string("1000"));
        QCOMPARE(significantFigures(999.7), std::string("1000"));
        QCOMPARE(significantFigures(4.8), std::string("4.8"));
        QCOMPARE(significantFigures(0.0213456), std::string("0.0213"));
        QCOMPARE(significantFigures(758123), std::string("758000"));
        QCOMPARE(significantFigures(-12.34), std::string("-12.3"));
        QCOMPARE(significantFigures(1e8, 6), std::string("100000000"));
        QCOMPARE(significantFigures(1.234e12), std::string("1.23e+12"));
        QCOMPARE(significantFigures(2e-6), std::string("2e-06"));
        QCOMPARE(significantFigures(0), std::string("0"));
        QCOMPARE(significantFigures(9.9995e8), std::string("1e+09")); // rounded into the next power
        QCOMPARE(significantFigures(9.99996e-5), std::string("0.0001"));
        QCOMPARE(significantFigures(1e-310), std::string("1e-310")); // no pow() to overflow
        QCOMPARE(significantFigures(1.7976e308), std::string("1.8e+308"));
        QCOMPARE(significantFigures(std::numeric_limits<double>::infinity()), std::string("inf"));
        GpuSpec absurd = gpuSpecFromJson(validSpec(), "v100.json");
        absurd.fp32Gflops = 1e8;
        const auto note = fp32PeakMismatch(absurd);
        QVERIFY(note);
        QVERIFY2(note->starts_with("FP32 peak 100000000 GFLOP/s is "), note->c_str());
        QVERIFY2(note->find("e+") == std::string::npos, note->c_str());
    }

    void setFieldValidates()
    {
        GpuSpec g = gpuSpecFromJson(validSpec(), "v100");
        setSpecField(g, "memory_bandwidth_gbps", 1800);
        QCOMPARE(g.memoryBandwidthGBps, 1800.0);
        QVERIFY_THROWS_EXCEPTION(ForecastError, setSpecField(g, "memory_bandwidth_gbps", -5));
        QVERIFY_THROWS_EXCEPTION(ForecastError, setSpecField(g, "no_such_field", 5));
        QCOMPARE(g.memoryBandwidthGBps, 1800.0); // refused edits keep the old value
        // Zero clears an optional field and only an optional one.
        QVERIFY_THROWS_EXCEPTION(ForecastError, setSpecField(g, "memory_bandwidth_gbps", 0));
        setSpecField(g, "tdp_w", 0);
        QCOMPARE(g.tdpW, 0.0);
        setSpecField(g, "price_usd", 0);
        QVERIFY(!g.priceUsd);
        QVERIFY(!specFieldValue(g, "price_usd"));
        validateGpuSpec(g, "cleared");
        QVERIFY_THROWS_EXCEPTION(ForecastError, setSpecField(g, "tdp_w", 0.5)); // still its range otherwise
    }

    void saveIsAtomicAndReadable()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath("x.json").toStdString();
        GpuSpec g = gpuSpecFromJson(validSpec(), "v100");
        g.id = "x";
        saveGpuSpec(g, path);
        QCOMPARE(loadGpuSpec(path).memoryBandwidthGBps, g.memoryBandwidthGBps);
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files).size(), 1); // no temporary left behind
    }

    void unknownGpuListsKnownOnes()
    {
        const auto gpus = loadGpuDirectory(kRes + "/gpus");
        try {
            resolveGpu(gpus, "H900");
            QFAIL("accepted");
        } catch (const ForecastError& e) {
            QVERIFY(QString(e.what()).contains("unknown GPU 'H900'"));
            QVERIFY(QString(e.what()).contains("H100-SXM5-80GB"));
        }
        // A path is read as a file whatever it ends with, so the error is about that file.
        QTemporaryDir dir;
        const std::string copy = dir.filePath("A10copy").toStdString();
        saveGpuSpec(*findGpu(gpus, "A10"), copy);
        QCOMPARE(resolveGpu(gpus, copy).smCount, findGpu(gpus, "A10")->smCount);
        try {
            resolveGpu(gpus, copy + "-missing");
            QFAIL("accepted");
        } catch (const ForecastError& e) {
            QVERIFY2(QString(e.what()).startsWith(QString::fromStdString(copy + "-missing")), e.what());
        }
    }

    // A sheet may name whose learned efficiency it reads: it round-trips, resolves among the
    // bundled sheets, and a wrong name is refused naming the file and the field.
    // The lesser sheet is one the GPU could run as on some of its SMs: FP32 is taken per SM.
    void lesserAndGreaterResourcesArePerSm()
    {
        const auto gpus = loadGpuDirectory(kRes + "/gpus");
        const GpuSpec& a100 = *findGpu(gpus, "A100-PCIE-40GB");
        GpuSpec wide = a100; // twice the SMs, the same FP32 in all: half the FP32 per SM
        wide.smCount *= 2;
        wide.memoryBandwidthGBps *= 1.5;
        wide.l2CacheMb /= 2;
        wide.architecture = "Invented";
        const GpuSpec lesser = withLesserResources(wide, a100), greater = withGreaterResources(wide, a100);
        QCOMPARE(lesser.smCount, a100.smCount);
        QCOMPARE(lesser.fp32Gflops, a100.fp32Gflops / 2); // A100's SMs at the wide part's FP32 per SM
        QCOMPARE(lesser.memoryBandwidthGBps, a100.memoryBandwidthGBps);
        QCOMPARE(lesser.l2CacheMb, wide.l2CacheMb);
        QCOMPARE(greater.smCount, wide.smCount);
        QCOMPARE(greater.fp32Gflops, 2 * a100.fp32Gflops); // the wide part's SMs at the A100's per SM
        QCOMPARE(greater.memoryBandwidthGBps, wide.memoryBandwidthGBps);
        QCOMPARE(greater.l2CacheMb, a100.l2CacheMb);
        QCOMPARE(lesser.architecture, std::string("Invented")); // the rest is the sheet's own
        QCOMPARE(greater.architecture, std::string("Invented"));
    }

    void efficiencyBasisIsReadSavedAndResolved()
    {
        const auto gpus = loadGpuDirectory(kRes + "/gpus");
        for (const auto& g : gpus)
            QVERIFY2(!g.efficiencyBasis && g.efficiencyBasisId.empty(), g.id.c_str()); // bundled sheets are themselves
        json j = validSpec();
        j["id"] = "V100 with HBM3";
        j["memory_bandwidth_gbps"] = 3000;
        j["efficiency_basis"] = "V100-PCIE-32GB";
        QTemporaryDir dir;
        const std::string path = dir.filePath("v100-hbm3.json").toStdString();
        writeFileAtomically(path, j.dump());
        const GpuSpec read = resolveGpu(gpus, path);
        QVERIFY(read.efficiencyBasis);
        QCOMPARE(read.efficiencySheet().id, std::string("V100-PCIE-32GB"));
        QCOMPARE(read.efficiencySheet().memoryBandwidthGBps, findGpu(gpus, "V100-PCIE-32GB")->memoryBandwidthGBps);
        QCOMPARE(read.memoryBandwidthGBps, 3000.0); // its own numbers stay its own
        QCOMPARE(gpuSpecToJson(read)["efficiency_basis"], json("V100-PCIE-32GB"));
        QVERIFY(!gpuSpecToJson(*findGpu(gpus, "A10")).contains("efficiency_basis")); // not written when not named

        // A basis that is itself a variant: the chain ends at the sheet the networks can place.
        std::vector<GpuSpec> catalog = gpus;
        GpuSpec middle = read;
        middle.id = "V100 HBM3 refresh";
        middle.efficiencyBasis.reset();
        catalog.push_back(middle);
        GpuSpec last = read;
        last.efficiencyBasisId = "V100 HBM3 refresh";
        resolveEfficiencyBasis(last, catalog, "last.json");
        QCOMPARE(last.efficiencySheet().id, std::string("V100-PCIE-32GB"));

        auto refused = [&](const json& sheet, const QString& expected) {
            writeFileAtomically(path, sheet.dump());
            try {
                resolveGpu(gpus, path);
                QFAIL("accepted");
            } catch (const ForecastError& e) {
                QVERIFY2(QString(e.what()).startsWith(QString::fromStdString(path) + ": efficiency_basis: "), e.what());
                QVERIFY2(QString(e.what()).contains(expected), e.what());
            }
        };
        j["efficiency_basis"] = "V100";
        refused(j, "unknown GPU 'V100' (did you mean V100-PCIE-32GB?) (known: A10, ");
        j["efficiency_basis"] = "";
        refused(j, "must name a bundled GPU");
        j["efficiency_basis"] = 100;
        refused(j, "string");
        // Two sheets naming each other in one folder would be read as neither.
        QTemporaryDir folder;
        json a = validSpec(), b = validSpec();
        a["id"] = "a";
        a["efficiency_basis"] = "b";
        b["id"] = "b";
        b["efficiency_basis"] = "a";
        writeFileAtomically(folder.filePath("a.json").toStdString(), a.dump());
        writeFileAtomically(folder.filePath("b.json").toStdString(), b.dump());
        try {
            loadGpuDirectory(folder.path().toStdString());
            QFAIL("accepted");
        } catch (const ForecastError& e) {
            QVERIFY2(QString(e.what()).contains("which leads back to it (a cycle)"), e.what());
        }
        // An unknown name is echoed, but not a pasted essay.
        j["efficiency_basis"] = std::string(100000, 'x');
        writeFileAtomically(path, j.dump());
        try {
            resolveGpu(gpus, path);
            QFAIL("accepted");
        } catch (const ForecastError& e) {
            QVERIFY2(std::string(e.what()).size() < 2000, "the whole name was echoed");
        }
    }
};

QTEST_APPLESS_MAIN(TestGpuSpec)
#include "test_gpu_spec.moc"
