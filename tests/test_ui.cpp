// The explorer, driven the way a user drives it: edit a spec cell, type a bad value, undo, toggle
// GPUs, export a chart. Runs offscreen.
#include "breakdown_chart.h"
#include "chart_style.h"
#include "compare_chart.h"
#include "csv_export.h"
#include "efficiency_basis_box.h"
#include "forecast_session.h"
#include "gpu_list_model.h"
#include "main_window.h"
#include "operator_table_model.h"
#include "quantity_format.h"
#include "sensitivity_chart.h"
#include "spec_table_model.h"
#include "waves_chart.h"
#include "what_if_panel.h"
#include "roofline_chart.h"

#include "gpuforecast/csv.h"
#include "gpuforecast/file_io.h"
#include "gpuforecast/gpu_spec.h"

#include <nlohmann/json.hpp>

#include <qcustomplot.h>

#include <QAbstractItemModelTester>

#include <set>
#include <QImage>
#include <QProcess>
#include <QSortFilterProxyModel>
#include <QStandardPaths>
#include <QTableView>
#include <QFont>
#include <QUndoStack>
#include <QLabel>
#include <QLineEdit>
#include <QComboBox>
#include <QPushButton>
#include <QCheckBox>
#include <QDirIterator>
#include <QScrollArea>
#include <QSettings>
#include <QtTest>

using namespace gpuforecast;
using namespace gpuforecast::ui;

namespace {

int fieldRow(const char* key)
{
    const auto fields = specFields();
    for (std::size_t i = 0; i < fields.size(); ++i)
        if (std::string(fields[i].key) == key)
            return int(i);
    return -1;
}

// A hand-written file for a test to open (a scenario, a sheet).
bool writeText(const QString& path, const QByteArray& text)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(text) == text.size();
}

// The session forecasts one sequence of `seq` tokens of `model` on `gpu` alone.
bool showOneSequence(ForecastSession& session, const char* model, long long seq, const char* gpu)
{
    if (session.setModel(model))
        return false;
    GraphOptions o = session.options();
    o.batch = 1;
    o.seq = seq;
    if (session.setOptions(o))
        return false;
    session.setSelectedGpus({gpu});
    return true;
}

double classMs(const BreakdownChart& chart, OpClass c, int gpu)
{
    const auto it = std::find(kChartClasses.begin(), kChartClasses.end(), c);
    return chart.shownValues()[std::size_t(it - kChartClasses.begin())][std::size_t(gpu)];
}

} // namespace

class TestUi : public QObject {
    Q_OBJECT
    QTemporaryDir userData_; // every session's user GPUs live here, never in the real user folder
    UserGpuStore store() const { return UserGpuStore(userData_.filePath("gpus")); }

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void init() { QDir(userData_.filePath("gpus")).removeRecursively(); }

    void opensOnTheDefaultScenario()
    {
        ForecastSession session(nullptr, store());
        QCOMPARE(session.modelName(), QString("gpt2_large"));
        QCOMPARE(session.selectedGpus(), (QStringList{"V100-PCIE-32GB", "A100-PCIE-80GB", "H100-SXM5-80GB", "L4"}));
        QCOMPARE(session.forecasts()->size(), std::size_t(4));
        for (const auto& f : *session.forecasts())
            QVERIFY(f.totalSeconds() > 0);
    }

    void modelsPassTheModelTester()
    {
        ForecastSession session(nullptr, store());
        QUndoStack undo;
        GpuListModel gpus(&session);
        SpecTableModel spec(&session, &undo);
        OperatorTableModel ops(&session);
        QAbstractItemModelTester t1(&gpus, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester t2(&spec, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester t3(&ops, QAbstractItemModelTester::FailureReportingMode::QtTest);
        spec.setGpu("H100-SXM5-80GB");
        ops.setGpu("L4");
        QVERIFY(ops.rowCount() > 10);
        gpus.setData(gpus.index(0), Qt::Checked, Qt::CheckStateRole); // A10 joins the comparison
        QCOMPARE(session.selectedGpus().size(), 5);
        QVERIFY(spec.setData(spec.index(fieldRow("sm_count"), SpecTableModel::ValueColumn), "140", Qt::EditRole));
    }

    // A GEMM priced as its tiles in more waves (KernelForecast::pricedWaves) says so in the Waves
    // column: GPT-2's one-token attention product on a V100 runs in one wave, priced as two.
    void wavesColumnSaysWhenPricedAsMoreWaves()
    {
        ForecastSession session(nullptr, store());
        QVERIFY(showOneSequence(session, "gpt2_large", 1, "V100-PCIE-32GB"));
        OperatorTableModel ops(&session);
        ops.setGpu("V100-PCIE-32GB");
        int repriced = 0;
        for (int row = 0; row < ops.rowCount(); ++row)
            repriced += ops.index(row, OperatorTableModel::Waves).data().toString().contains(" (as ");
        QVERIFY(repriced > 0);
    }

    // V100's attention scores (GPT-2 large, 1024 tokens) lie right of the ridge by the whole
    // kernel's traffic, yet each of its tiles is memory-bound: the roofline's hover says why the
    // operator table reads "memory"; a kernel on which the two agree gets no such line.
    void rooflineExplainsWhenTheTablesBoundDiffers()
    {
        ForecastSession session(nullptr, store());
        QVERIFY(showOneSequence(session, "gpt2_large", 1024, "V100-PCIE-32GB"));
        // The table's own header says what its Bound judges, for a reader who never hovers the chart.
        const QString boundTip = OperatorTableModel(&session).headerData(OperatorTableModel::Bound, Qt::Horizontal, Qt::ToolTipRole).toString();
        QVERIFY2(boundTip.contains("one tile") && boundTip.contains("Roofline tab"), qPrintable(boundTip));
        RooflineChart roofline(&session);
        roofline.resize(1200, 700);
        roofline.show();
        QVERIFY(QTest::qWaitForWindowExposed(&roofline));
        auto tipOn = [&](const char* op) {
            roofline.setSelectedOperator(op);
            roofline.plot()->replot();
            const RooflinePoint p = roofline.highlighted().front().point;
            return std::pair{p, roofline.toolTipAt({roofline.plot()->xAxis->coordToPixel(p.intensity),
                                                    roofline.plot()->yAxis->coordToPixel(p.gflops)})};
        };
        const auto [scores, onScores] = tipOn("attn.scores");
        const GpuSpec v100 = session.effectiveGpu("V100-PCIE-32GB");
        QVERIFY(scores.intensity * v100.memoryBandwidthGBps > v100.gemmPeakGflops()); // right of the ridge
        QCOMPARE(scores.tileBound, QString("memory"));
        QVERIFY2(onScores.contains("The table's Bound says memory: it judges one tile"), qPrintable(onScores));
        const auto [fc, onFc] = tipOn("mlp.fc");
        QCOMPARE(fc.tileBound, QString("compute"));
        QVERIFY2(!onFc.contains("The table's Bound"), qPrintable(onFc));
        // One token: the one-row projection sits far left of the ridge, priced as a padded tile
        // that is compute-bound; the reason is the padding, not re-read panels.
        QVERIFY(showOneSequence(session, "gpt2_large", 1, "V100-PCIE-32GB"));
        const auto [proj, onProj] = tipOn("attn.proj");
        QVERIFY(proj.intensity * v100.memoryBandwidthGBps < v100.gemmPeakGflops());
        QCOMPARE(proj.tileBound, QString("compute"));
        QVERIFY2(onProj.contains("The table's Bound says compute: it judges one tile as the GPU runs it, padded rows") &&
                     !onProj.contains("operand panels are read again"),
                 qPrintable(onProj));
    }

    // On a pipeline the table is the busiest stage's GPU (the last, with the head): the embedding
    // runs on the first stage, so its rows show no launches and say where it runs.
    void pipelineTableSaysTheEmbeddingRunsElsewhere()
    {
        ForecastSession session(nullptr, store());
        QVERIFY(showOneSequence(session, "gpt2_large", 1, "A100-PCIE-40GB"));
        QVERIFY(!session.setLayout(ParallelLayout{1, 1, 2})); // pp 2
        OperatorTableModel ops(&session);
        ops.setGpu("A100-PCIE-40GB");
        int embedding = 0, head = 0;
        for (int row = 0; row < ops.rowCount(); ++row) {
            const QString name = ops.index(row, OperatorTableModel::Name).data().toString();
            const QString tip = ops.index(row, OperatorTableModel::Count).data(Qt::ToolTipRole).toString();
            if (name.startsWith("embed.")) {
                ++embedding;
                QCOMPARE(ops.index(row, OperatorTableModel::Count).data(OperatorTableModel::SortRole).toDouble(), 0.0);
                QVERIFY2(tip.contains("Another pipeline stage runs this kernel"), qPrintable(tip));
            }
            if (name == "lm_head") {
                ++head;
                QVERIFY(ops.index(row, OperatorTableModel::Count).data(OperatorTableModel::SortRole).toDouble() > 0);
                QVERIFY(tip.isEmpty());
            }
        }
        QVERIFY(embedding > 0 && head > 0);
    }

    // The Tile column says what one thread block works on: a GEMM tile, 512 elements of an
    // element-wise kernel, or whole rows (softmax packs 4 rows of 1024 into a block).
    void tileColumnShowsWhatOneBlockHolds()
    {
        ForecastSession session(nullptr, store());
        OperatorTableModel ops(&session);
        ops.setGpu("L4");
        QHash<QString, QSet<QString>> tiles;
        for (int row = 0; row < ops.rowCount(); ++row)
            tiles[ops.index(row, OperatorTableModel::Class).data().toString()].insert(
                ops.index(row, OperatorTableModel::Tile).data().toString());
        QCOMPARE(tiles["softmax"], QSet<QString>{"4 x 1024"});     // gpt2_large at seq 1024
        QCOMPARE(tiles["ln"], QSet<QString>{"1 x 1280"});          // hidden size 1280
        QCOMPARE(tiles["elementwise"], QSet<QString>{"512"});
        QVERIFY(tiles["linear"].contains("128x128"));
    }

    // Long softmax rows spill L1 and are read again from DRAM: the table names that bound, and a
    // sheet with more L1 (a user edit) lifts it.
    void rereadBoundKernelsSaySo()
    {
        ForecastSession session(nullptr, store());
        QVERIFY(showOneSequence(session, "llama2_7b", 16384, "A100-PCIE-40GB"));
        OperatorTableModel ops(&session);
        ops.setGpu("A100-PCIE-40GB");
        auto boundOf = [&](const char* cls) {
            QSet<QString> out;
            for (int row = 0; row < ops.rowCount(); ++row)
                if (ops.index(row, OperatorTableModel::Class).data().toString() == cls)
                    out.insert(ops.index(row, OperatorTableModel::Bound).data().toString());
            return out;
        };
        QCOMPARE(boundOf("softmax"), QSet<QString>{"memory (re-reads)"});
        QVERIFY(boundOf("linear").contains("compute"));
        GpuSpec big = *session.gpu("A100-PCIE-40GB");
        big.l1CacheKb = 4096;
        QVERIFY(!session.updateGpu(big));
        ops.setGpu("A100-PCIE-40GB");
        QCOMPARE(boundOf("softmax"), QSet<QString>{"memory"});
    }

    // The operator table shows one compared GPU's kernels, not necessarily the open spec sheet's:
    // it says whose.
    void operatorTableSaysWhoseTimesItShows()
    {
        ForecastSession session(nullptr, store());
        MainWindow window(&session);
        const auto* label = window.findChild<QLabel*>("operatorTableGpu");
        QVERIFY(label);
        QCOMPARE(label->text(), QString("Operators on %1").arg(window.operatorModel()->gpuId()));
        QCOMPARE(window.operatorModel()->gpuId(), session.selectedGpus().front());
        const QStringList compared = session.selectedGpus();
        session.setGpuSelected(compared.front(), false); // the shown GPU leaves: the next one's kernels
        QCOMPARE(label->text(), QString("Operators on %1").arg(compared.at(1)));
        for (const QString& id : session.selectedGpus())
            session.setGpuSelected(id, false);
        QCOMPARE(label->text(), QString("Operators (tick a GPU to compare)"));
        QCOMPARE(window.operatorModel()->rowCount(), 0);
    }

    // A sheet without the L1 fields (one written before they existed) shows them as not given,
    // says what they are for, takes an edit that changes long-row forecasts, and undoes it.
    void optionalL1FieldIsShownAsNotGivenAndEditable()
    {
        ForecastSession session(nullptr, store());
        GpuSpec old = *session.gpu("A100-PCIE-40GB");
        old.id = "old-sheet";
        old.l1CacheKb = 0;
        old.maxThreadsPerSm = 0;
        QVERIFY(!session.addGpu(old));
        QUndoStack undo;
        SpecTableModel spec(&session, &undo);
        spec.setGpu("old-sheet");
        const QModelIndex l1 = spec.index(fieldRow("l1_cache_kb"), SpecTableModel::ValueColumn);
        QCOMPARE(l1.data().toString(), QString("—"));
        QVERIFY(l1.data(Qt::ToolTipRole).toString().contains("softmax"));
        QVERIFY(!l1.data(Qt::FontRole).isValid()); // not "for reference": forecasts read it
        QVERIFY(!spec.setData(l1, "0.5", Qt::EditRole)); // below the range
        QVERIFY(spec.setData(l1, "192", Qt::EditRole));
        QCOMPARE(session.gpu("old-sheet")->l1CacheKb, 192.0);
        QCOMPARE(l1.data().toString(), QString("192"));
        undo.undo(); // back to "not given", which the range alone would refuse
        QCOMPARE(session.gpu("old-sheet")->l1CacheKb, 0.0);
        QCOMPARE(l1.data().toString(), QString("—"));
        undo.redo();
        QVERIFY(spec.setData(l1, "0", Qt::EditRole)); // 0 clears it, as for the price
        QCOMPARE(l1.data().toString(), QString("—"));
    }

    // The clock and the tensor peaks are on the sheet for reference; the table says so, because
    // editing them changes no forecast (the FP32 peak already counts cores and clock).
    void referenceOnlyFieldsSayWhatTheyAreFor()
    {
        ForecastSession session(nullptr, store());
        QUndoStack undo;
        SpecTableModel spec(&session, &undo);
        spec.setGpu("V100-PCIE-32GB");
        const QModelIndex clock = spec.index(fieldRow("boost_clock_mhz"), SpecTableModel::ValueColumn);
        const QModelIndex fp32 = spec.index(fieldRow("fp32_gflops"), SpecTableModel::ValueColumn);
        QVERIFY(clock.data(Qt::ToolTipRole).toString().contains("forecasts use the FP32 peak"));
        QVERIFY(clock.data(Qt::FontRole).value<QFont>().italic());
        QVERIFY(spec.index(fieldRow("launch_year"), SpecTableModel::ValueColumn).data(Qt::FontRole).value<QFont>().italic());
        QVERIFY(!fp32.data(Qt::ToolTipRole).toString().contains("For reference"));
        QVERIFY(fp32.data(Qt::ToolTipRole).toString().contains("matrix peak"));
        QVERIFY(!fp32.data(Qt::FontRole).isValid());
        const double before = session.forecasts()->front().totalSeconds();
        QVERIFY(!fp32.data(Qt::ForegroundRole).isValid());
        QVERIFY(spec.setData(clock, "700", Qt::EditRole));
        QCOMPARE(session.gpu("V100-PCIE-32GB")->boostClockMhz, 700.0);
        QCOMPARE(session.forecasts()->front().totalSeconds(), before);
        // ... but the sheet now disagrees with itself, and the peak's cell says so.
        QVERIFY(fp32.data(Qt::ToolTipRole).toString().contains("Check the sheet: FP32 peak 14029 GFLOP/s is 1.96x"));
        QVERIFY(fp32.data(Qt::ForegroundRole).isValid());
        // The peak is what moves it: the matrix peak, equal on this sheet, follows, in one undo step.
        QVERIFY(spec.setData(fp32, "7000", Qt::EditRole));
        QVERIFY(!fp32.data(Qt::ToolTipRole).toString().contains("Check the sheet"));
        QCOMPARE(session.gpu("V100-PCIE-32GB")->fp32MatrixGflops, 7000.0);
        QVERIFY(session.forecasts()->front().totalSeconds() > 1.5 * before);
        undo.undo();
        QCOMPARE(session.gpu("V100-PCIE-32GB")->fp32Gflops, 14029.0);
        QCOMPARE(session.gpu("V100-PCIE-32GB")->fp32MatrixGflops, 14029.0);
        QCOMPARE(session.forecasts()->front().totalSeconds(), before);
    }

    void editingASpecCellChangesTheBreakdown()
    {
        ForecastSession session(nullptr, store());
        MainWindow window(&session);
        auto* spec = window.specModel();
        spec->setGpu("V100-PCIE-32GB");
        const auto* chart = window.breakdownChart();
        const double elementwiseBefore = classMs(*chart, OpClass::Elementwise, 0);
        const double totalBefore = session.forecasts()->front().totalSeconds();
        const QModelIndex bw = spec->index(fieldRow("memory_bandwidth_gbps"), SpecTableModel::ValueColumn);
        QVERIFY(spec->setData(bw, "1800", Qt::EditRole));
        QCOMPARE(session.gpu("V100-PCIE-32GB")->memoryBandwidthGBps, 1800.0);
        // Element-wise kernels are memory-bound: twice the bandwidth must make them faster, never slower.
        QVERIFY2(classMs(*chart, OpClass::Elementwise, 0) < elementwiseBefore,
                 qPrintable(QString("%1 -> %2").arg(elementwiseBefore).arg(classMs(*chart, OpClass::Elementwise, 0))));
        QVERIFY(session.forecasts()->front().totalSeconds() < totalBefore);

        window.undoStack()->undo(); // undo restores the spec and the forecast exactly
        QCOMPARE(session.gpu("V100-PCIE-32GB")->memoryBandwidthGBps, 900.0);
        QCOMPARE(session.forecasts()->front().totalSeconds(), totalBefore);
        window.undoStack()->redo();
        QCOMPARE(session.gpu("V100-PCIE-32GB")->memoryBandwidthGBps, 1800.0);
    }

    // With no GPU ticked every chart that draws ticked GPUs says so instead of showing bare axes
    // and an empty legend, and the hint goes once a GPU is ticked again.
    void chartsWithoutGpusSayWhy()
    {
        ForecastSession session(nullptr, store());
        MainWindow window(&session);
        CompareChart compare(&session);
        WavesChart waves(&session);
        RooflineChart roofline(&session);
        for (ChartWidget* chart : std::initializer_list<ChartWidget*>{window.breakdownChart(), &compare, &waves, &roofline}) {
            auto hints = [&] {
                int n = 0;
                for (int i = 0; i < chart->plot()->itemCount(); ++i)
                    n += chart->plot()->item(i)->objectName() == "emptyHint";
                return n;
            };
            const char* name = chart->metaObject()->className();
            session.setSelectedGpus({"T4"});
            QVERIFY2(hints() == 0, name);
            session.setSelectedGpus({});
            QVERIFY2(hints() == 1, name);
            QVERIFY2(!chart->plot()->legend->visible(), name);
            session.setSelectedGpus({"T4"});
            QVERIFY2(hints() == 0, name);
            QVERIFY2(chart->plot()->legend->visible() == (chart != &compare), name); // Compare has no legend
        }
    }

    void invalidValuesAreRefusedWithTheReason_data()
    {
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("value");
        QTest::newRow("negative bandwidth") << "memory_bandwidth_gbps" << "-5";
        QTest::newRow("not a number") << "fp32_gflops" << "fast";
        QTest::newRow("fractional SMs") << "sm_count" << "80.5";
        QTest::newRow("zero L2") << "l2_cache_mb" << "0";
    }
    void invalidValuesAreRefusedWithTheReason()
    {
        QFETCH(QString, key);
        QFETCH(QString, value);
        ForecastSession session(nullptr, store());
        QUndoStack undo;
        SpecTableModel spec(&session, &undo);
        spec.setGpu("T4");
        const QModelIndex cell = spec.index(fieldRow(key.toUtf8().constData()), SpecTableModel::ValueColumn);
        const QVariant before = cell.data(Qt::EditRole);
        QSignalSpy rejected(&spec, &SpecTableModel::editRejected);
        QVERIFY(!spec.setData(cell, value, Qt::EditRole));
        QCOMPARE(cell.data(Qt::EditRole), before); // the old value is kept
        QCOMPARE(rejected.size(), 1);
        QVERIFY2(cell.data(Qt::ToolTipRole).toString().contains(key), qPrintable(cell.data(Qt::ToolTipRole).toString()));
        QCOMPARE(undo.count(), 0);
    }

    void sensitivityPointsTheRightWay()
    {
        ForecastSession session(nullptr, store());
        SensitivityChart chart(&session);
        chart.setGpu("L4");
        QCOMPARE(chart.shown().size(), std::size_t(6));
        for (const auto& s : chart.shown()) {
            if (s.field == "memory_bandwidth_gbps" || s.field == "fp32_gflops" || s.field == "sm_count" ||
                s.field == "l1_cache_kb") {
                // More of a resource never slows the model; less never speeds it up.
                QVERIFY2(s.higherChange <= 1e-12 && s.lowerChange >= -1e-12, s.field.c_str());
            }
        }
        const auto& top = chart.shown().front(); // sorted by effect, largest first
        for (const auto& s : chart.shown())
            QVERIFY(std::max(std::abs(top.lowerChange), std::abs(top.higherChange)) >=
                    std::max(std::abs(s.lowerChange), std::abs(s.higherChange)));
        // A field without bars (memory size never changes the time) says so instead of looking empty.
        int none = 0;
        for (const auto& s : chart.shown())
            none += std::max(std::abs(s.lowerChange), std::abs(s.higherChange)) < 5e-4;
        QVERIFY(none >= 1);
        int labels = 0;
        for (int i = 0; i < chart.plot()->itemCount(); ++i)
            labels += chart.plot()->item(i)->objectName() == "noEffect";
        QCOMPARE(labels, none);
        // Where the model does not fit, the memory row says so rather than "no effect" alone.
        auto memoryNote = [&] {
            for (int i = 0; i < chart.plot()->itemCount(); ++i)
                if (auto* t = qobject_cast<QCPItemText*>(chart.plot()->item(i)); t && t->objectName() == "noEffect" &&
                                                                                 t->text().contains("fit"))
                    return t->text();
            return QString();
        };
        QCOMPARE(memoryNote(), QString());
        QVERIFY(!session.setOptions(GraphOptions{256, 1024, true, false}).has_value()); // training, far over 24 GB
        chart.setGpu("L4");
        QVERIFY2(memoryNote().startsWith("no effect on time, but the model does NOT fit (needs "), qPrintable(memoryNote()));
        // Fitting only just (20.8 of L4's 24 GB): 20% less memory would not hold it, and that is said.
        QVERIFY(!session.setOptions(GraphOptions{1, 768, true, false}).has_value());
        chart.setGpu("V100-PCIE-32GB");
        chart.setGpu("L4");
        QVERIFY2(memoryNote().startsWith("no effect on time, but at x 0.8 (19.2 GB) the model no longer fits (needs 20.8 GB)"),
                 qPrintable(memoryNote()));
    }

    void scenarioSavedAndReopenedGivesIdenticalForecasts()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("what-if.json");
        std::vector<double> before;
        {
            ForecastSession session(nullptr, store());
            MainWindow window(&session);
            QVERIFY(!session.setOptions(GraphOptions{2, 512, true, false}).has_value());
            GpuSpec mine = *session.gpu("H100-SXM5-80GB");
            mine.id = "H100 with HBM4";
            mine.memoryBandwidthGBps = 8000;
            QVERIFY(!session.addGpu(mine).has_value());
            session.setSelectedGpus({"A100-PCIE-40GB", "H100 with HBM4"});
            QVERIFY(window.isModified());
            QVERIFY(window.saveScenario(path));
            QVERIFY(!window.isModified());
            for (const auto& f : *session.forecasts())
                before.push_back(f.totalSeconds());
        }
        QDir(userData_.filePath("gpus")).removeRecursively(); // a colleague without my GPUs
        ForecastSession session(nullptr, store());
        MainWindow window(&session);
        QVERIFY(window.openScenario(path));
        QCOMPARE(session.selectedGpus(), (QStringList{"A100-PCIE-40GB", "H100 with HBM4"}));
        QVERIFY(session.options().training);
        QCOMPARE(session.forecasts()->size(), before.size());
        for (std::size_t i = 0; i < before.size(); ++i)
            QCOMPARE((*session.forecasts())[i].totalSeconds(), before[i]);
        QVERIFY(!window.isModified());
    }

    // File > Recent and the scenario reopened at start keep absolute paths (one opened as
    // "what-if.json" from a terminal reopens from anywhere); a render-only run records nothing.
    void recentScenariosAreAbsoluteAndScreenshotsLeaveThemAlone()
    {
        QTemporaryDir dir;
        ForecastSession session(nullptr, store());
        MainWindow window(&session);
        QVERIFY(window.saveScenario(dir.filePath("first.json")));
        QVERIFY(window.saveScenario(dir.filePath("second.json")));
        const QString before = QDir::currentPath();
        QDir::setCurrent(dir.path());
        const bool opened = window.openScenario("first.json");
        QDir::setCurrent(before);
        QVERIFY(opened);
        auto setting = [](const char* key) {
            return QSettings(QCoreApplication::applicationName(), QCoreApplication::applicationName()).value(key);
        };
        QCOMPARE(setting("lastScenario").toString(), QFileInfo(dir.filePath("first.json")).absoluteFilePath());
        QVERIFY(setting("recentScenarios").toStringList().contains(QFileInfo(dir.filePath("first.json")).absoluteFilePath()));
        window.setRemembersScenarios(false);
        QVERIFY(window.openScenario(dir.filePath("second.json")));
        QCOMPARE(setting("lastScenario").toString(), QFileInfo(dir.filePath("first.json")).absoluteFilePath());
    }

    void badScenarioKeepsThePreviousState()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("bad.json");
        QVERIFY(writeText(path, R"({"format": "gpuforecast-scenario-1", "model": "gpt2_large", "batch": 4, "seq": 1024,
                                   "mode": "inference", "gpus": ["T4", "H900"]})"));
        ForecastSession session(nullptr, store());
        MainWindow window(&session);
        const QStringList gpusBefore = session.selectedGpus();
        QVERIFY(!window.openScenario(path));
        QCOMPARE(session.selectedGpus(), gpusBefore);
    }

    // A hand-edited scenario listing a GPU twice compares it once, as ticking it would: it drew two
    // identical bars under one name.
    void scenarioListingAGpuTwiceComparesItOnce()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("twice.json");
        QVERIFY(writeText(path, R"({"format": "gpuforecast-scenario-1", "model": "gpt2_large", "batch": 4, "seq": 128,
                                   "mode": "inference", "gpus": ["T4", "H100-SXM5-80GB", "T4"]})"));
        ForecastSession session(nullptr, store());
        MainWindow window(&session);
        QVERIFY(window.openScenario(path));
        QCOMPARE(session.selectedGpus(), (QStringList{"T4", "H100-SXM5-80GB"}));
        QCOMPARE(session.forecasts()->size(), std::size_t(2));
    }

    // A scenario whose custom sheet names an unknown basis is refused before anything is added or
    // saved, though that sheet is not among the compared GPUs and the ones before it are valid.
    void scenarioWithABadBasisAddsNothing()
    {
        ForecastSession probe(nullptr, store());
        nlohmann::json good = gpuSpecToJson(*probe.gpu("A10")), bad = good;
        good["id"] = "good copy";
        good["efficiency_basis"] = "A10";
        bad["id"] = "hidden";
        bad["efficiency_basis"] = "NOPE";
        const nlohmann::json scenario = {{"format", "gpuforecast-scenario-1"}, {"model", "gpt2_large"}, {"batch", 1},
                                         {"seq", 128}, {"mode", "inference"}, {"gpus", {"A100-PCIE-40GB"}},
                                         {"custom_gpus", {good, bad}}};
        QTemporaryDir dir;
        const QString path = dir.filePath("s.json");
        writeFileAtomically(path.toStdString(), scenario.dump());
        ForecastSession session(nullptr, store());
        MainWindow window(&session);
        const QStringList gpusBefore = session.selectedGpus();
        QString error;
        QVERIFY(!window.openScenario(path, &error));
        QVERIFY2(error.contains("custom_gpus[1] (hidden): efficiency_basis: unknown GPU 'NOPE'"), qPrintable(error));
        QCOMPARE(session.selectedGpus(), gpusBefore);
        QVERIFY(!session.gpu("good copy"));
        QCOMPARE(QDir(userData_.filePath("gpus")).entryList(QDir::Files).size(), 0);
    }

    // Opening a scenario never replaces a sheet already here: a bundled reference or the user's
    // own. A different sheet under a taken id joins under a new one and is compared as such; the
    // same sheet is not added twice.
    void scenarioSheetsNeverReplaceSheetsHere()
    {
        ForecastSession session(nullptr, store());
        GpuSpec mine = *session.gpu("A10");
        mine.id = "mine";
        QVERIFY(!session.addGpu(mine));
        nlohmann::json theirs = gpuSpecToJson(mine), a100 = gpuSpecToJson(*session.gpu("A100-PCIE-40GB")),
                       same = gpuSpecToJson(mine);
        theirs["sm_count"] = 300;
        a100["sm_count"] = 216;
        const nlohmann::json scenario = {{"format", "gpuforecast-scenario-1"}, {"model", "gpt2_large"}, {"batch", 1},
                                         {"seq", 128}, {"mode", "inference"}, {"gpus", {"mine", "A100-PCIE-40GB"}},
                                         {"custom_gpus", {theirs, a100}}};
        QTemporaryDir dir;
        const QString path = dir.filePath("s.json");
        writeFileAtomically(path.toStdString(), scenario.dump());
        MainWindow window(&session);
        QVERIFY(window.openScenario(path));
        QCOMPARE(session.gpu("mine")->smCount, mine.smCount);
        QVERIFY(!session.isUserGpu("A100-PCIE-40GB"));
        QCOMPARE(session.selectedGpus(), (QStringList{"mine (scenario)", "A100-PCIE-40GB (scenario)"}));
        QCOMPARE(session.gpu("mine (scenario)")->smCount, 300.0);
        QCOMPARE(session.gpu("A100-PCIE-40GB (scenario)")->smCount, 216.0);
        // A bundled GPU's id on a sheet means that GPU with these numbers, as predict --gpu reads it
        // and an edit in the spec table keeps it; a user's own id is no such promise.
        QCOMPARE(session.gpu("A100-PCIE-40GB (scenario)")->efficiencyBasisId, std::string("A100-PCIE-40GB"));
        QVERIFY(session.gpu("mine (scenario)")->efficiencyBasisId.empty());
        { // a sheet that differs from T4's in board power alone forecasts as T4 does
            nlohmann::json t4 = gpuSpecToJson(*session.gpu("T4"));
            t4["tdp_w"] = t4["tdp_w"].get<double>() + 1;
            const nlohmann::json power = {{"format", "gpuforecast-scenario-1"}, {"model", "gpt2_large"}, {"batch", 1},
                                          {"seq", 128}, {"mode", "inference"}, {"gpus", {"T4", "T4x"}}, {"custom_gpus", {t4}}};
            writeFileAtomically(path.toStdString(), power.dump());
            QVERIFY(!window.openScenario(path)); // T4x is not known
            nlohmann::json ok = power;
            ok["gpus"] = {"T4"};
            writeFileAtomically(path.toStdString(), ok.dump());
            QVERIFY(window.openScenario(path));
            QCOMPARE(session.selectedGpus(), QStringList{"T4 (scenario)"});
            const double renamed = session.forecasts()->front().totalSeconds();
            session.setSelectedGpus({"T4"});
            const double bundled = session.forecasts()->front().totalSeconds();
            QVERIFY2(std::abs(renamed / bundled - 1) < 1e-9, qPrintable(QString("%1 %2").arg(renamed).arg(bundled)));
        }
        // The same sheet again: nothing new.
        const nlohmann::json again = {{"format", "gpuforecast-scenario-1"}, {"model", "gpt2_large"}, {"batch", 1},
                                      {"seq", 128}, {"mode", "inference"}, {"gpus", {"mine"}}, {"custom_gpus", {same}}};
        writeFileAtomically(path.toStdString(), again.dump());
        QVERIFY(window.openScenario(path));
        QCOMPARE(session.selectedGpus(), QStringList{"mine"});
        QVERIFY(!session.gpu("mine (scenario) 2"));
    }

    void wavesSweepIsAStaircase()
    {
        ForecastSession session(nullptr, store());
        const Kernel qkv = Kernel::gemm("linear", 1, 4096, 1280, 3840);
        const auto sweeps = sweepKernel(session, qkv);
        QCOMPARE(sweeps.size(), std::size_t(4));
        for (const auto& s : sweeps) {
            QVERIFY(s.dimension.back() >= 8192);
            std::set<double> distinct(s.waves.begin(), s.waves.end());
            QVERIFY2(distinct.size() >= 3, qPrintable(s.gpu));
            for (std::size_t i = 1; i < s.waves.size(); ++i) // more rows never means fewer waves
                QVERIFY(s.waves[i] >= s.waves[i - 1]);
        }
        WavesChart chart(&session);
        chart.setSelectedOperator("attn.qkv");
        QCOMPARE(chart.shownOperator(), QString("attn.qkv"));
        QCOMPARE(chart.sweeps().size(), std::size_t(4));
        QCOMPARE(chart.curves().size(), std::size_t(4));
        if (qEnvironmentVariableIsSet("GPUFORECAST_SAVE_CHARTS")) // for looking at it by eye
            chart.plot()->savePng(qEnvironmentVariable("GPUFORECAST_SAVE_CHARTS") + "/waves.png", 1200, 700);
    }

    void kernelsSitUnderTheirRoof()
    {
        ForecastSession session(nullptr, store());
        for (const auto& f : *session.forecasts()) {
            const GpuSpec* g = session.gpu(QString::fromStdString(f.gpu));
            const auto points = rooflinePoints(f);
            QVERIFY(points.size() > 10);
            for (const auto& p : points) // a forecast is never above the spec sheet's roofline
                QVERIFY2(p.gflops <= std::min(g->fp32MatrixGflops, p.intensity * g->memoryBandwidthGBps) * 1.0001,
                         qPrintable(p.name + " on " + QString::fromStdString(f.gpu)));
        }
        RooflineChart chart(&session);
        chart.setGpu("L4");
        QVERIFY(chart.plot()->graphCount() >= 5);
        // The throughput axis spans what is drawn: every roof and kernel, and not decades below
        // them (it ran down to 1 GFLOP/s, a third of the plot empty).
        double lowest = INFINITY;
        for (int i = 0; i < chart.plot()->graphCount(); ++i)
            for (auto it = chart.plot()->graph(i)->data()->constBegin(); it != chart.plot()->graph(i)->data()->constEnd(); ++it)
                lowest = std::min(lowest, it->value);
        const QCPRange y = chart.plot()->yAxis->range();
        QVERIFY2(y.lower <= lowest && y.lower >= lowest / 4, qPrintable(QString("%1 .. %2").arg(y.lower).arg(lowest)));
        if (qEnvironmentVariableIsSet("GPUFORECAST_SAVE_CHARTS"))
            chart.plot()->savePng(qEnvironmentVariable("GPUFORECAST_SAVE_CHARTS") + "/roofline.png", 1200, 700);
        // L4's SMs issue a GEMM's loads in lane-clocks: its GEMMs sit under a dashed ceiling at
        // 90% of the roof, drawn and explained; a V100's, whose schedulers hide them, has none.
        const auto ceilingOf = [](const RooflineChart& c) -> const QCPGraph* {
            for (int i = 0; i < c.plot()->graphCount(); ++i)
                if (c.plot()->graph(i)->name().contains("issue ceiling"))
                    return c.plot()->graph(i);
            return nullptr;
        };
        const QCPGraph* ceiling = ceilingOf(chart);
        QVERIFY(ceiling && ceiling->data()->size() >= 2);
        const GpuSpec* l4 = session.gpu("L4");
        QCOMPARE(ceiling->data()->at(0)->value, 0.9 * l4->gemmPeakGflops());
        const ModelForecast& l4Forecast = *std::find_if(session.forecasts()->begin(), session.forecasts()->end(),
                                                        [](const ModelForecast& f) { return f.gpu == "L4"; });
        int gemms = 0;
        for (const auto& p : rooflinePoints(l4Forecast))
            if (p.opClass == OpClass::Bmm || p.opClass == OpClass::Linear) {
                ++gemms;
                QVERIFY2(p.gflops <= ceiling->data()->at(0)->value * 1.0001, qPrintable(p.name));
            }
        QVERIFY(gemms > 3);
        chart.resize(1200, 700);
        chart.plot()->setGeometry(0, 0, 1200, 700);
        chart.plot()->replot();
        const auto mid = ceiling->data()->at(ceiling->data()->size() / 2);
        const QPointF onLine = ceiling->coordsToPixels(mid->key, mid->value);
        QVERIFY2(chart.toolTipAt(onLine).contains("32 FP32 lanes"), qPrintable(chart.toolTipAt(onLine)));
        chart.setGpu("V100-PCIE-32GB");
        QVERIFY(!ceilingOf(chart));
    }

    // A sheet of yours without a basis, inside the measured range, is a new GPU to the networks:
    // the what-if panel says so beside "Within the range" (an A100 with twice everything came out
    // slower than the A100 with only that line to read).
    void whatIfPanelSaysAUserSheetIsReadAsNew()
    {
        ForecastSession session(nullptr, store());
        GpuSpec twice = *session.gpu("A100-PCIE-40GB");
        twice.id = "A100 x2";
        twice.smCount *= 2;
        twice.fp32Gflops *= 2;
        twice.fp32MatrixGflops *= 2;
        twice.memoryBandwidthGBps *= 2;
        QVERIFY(!session.addGpu(twice));
        WhatIfPanel panel(&session);
        panel.setGpu("A100 x2");
        QVERIFY2(panel.coverageText().contains("A100 x2 is read as a new GPU") &&
                     panel.coverageText().contains("\"efficiency_basis\": \"A100-PCIE-40GB\""),
                 qPrintable(panel.coverageText()));
        panel.setFactor(0, 1.5); // a what-if of the sheet keeps the sheet's reading, and the note
        QVERIFY2(panel.coverageText().contains("A100 x2 is read as a new GPU"), qPrintable(panel.coverageText()));
        panel.setFactor(0, 1.0);
        panel.setGpu("A100-SXM4-40GB"); // bundled sheets are not the user's to fix
        QVERIFY2(!panel.coverageText().contains("read as a new GPU"), qPrintable(panel.coverageText()));
    }

    // An unedited copy forecasts exactly as its source and draws on top of it; the legend says
    // so instead of naming a line nobody can see.
    void identicalForecastsSayWhichLineHidesTheOther()
    {
        ForecastSession session(nullptr, store());
        QVERIFY(showOneSequence(session, "gpt2_large", 512, "T4"));
        GpuSpec copy = *session.gpu("T4");
        copy.id = "T4 twin";
        QVERIFY(!session.addGpu(copy));
        session.setSelectedGpus({"T4", "T4 twin", "L4"});
        auto names = [](const QCustomPlot* plot) {
            QStringList n;
            for (int i = 0; i < plot->graphCount(); ++i)
                n << plot->graph(i)->name();
            return n;
        };
        WavesChart waves(&session);
        waves.setSelectedOperator("mlp.fc");
        QVERIFY2(names(waves.plot()).contains("T4 twin (same as T4)"), qPrintable(names(waves.plot()).join(" | ")));
        QVERIFY(names(waves.plot()).contains("L4")); // different forecasts keep their names
        RooflineChart roofline(&session);
        QVERIFY2(names(roofline.plot()).contains("T4 twin roof (same as T4 roof)"), qPrintable(names(roofline.plot()).join(" | ")));
        QVERIFY(names(roofline.plot()).contains("L4 roof"));
    }

    // The model panel says whose measured runs check the family's graph: NeuSight's traces (GPT-2,
    // BERT, OPT, Switch) or the whole-model times we took on an H200 (the LLaMA-style families).
    void modelPanelSaysWhetherMeasuredRunsCheckTheGraph()
    {
        ForecastSession session(nullptr, store());
        MainWindow window(&session);
        auto* label = window.findChild<QLabel*>("graphCheck");
        QVERIFY(label);
        for (const char* model : {"gpt2_large", "switchxl4"}) {
            QVERIFY(showOneSequence(session, model, 128, "T4"));
            QCOMPARE(label->text(), QString("Graph checked against NeuSight's measured runs"));
        }
        for (const char* model : {"gemma_7b", "mixtral_8x7b"}) { // timed whole on our H200
            QVERIFY(showOneSequence(session, model, 128, "T4"));
            QCOMPARE(label->text(), QString("Graph checked against whole-model runs we timed"));
            QVERIFY2(label->toolTip().contains("H200") && label->toolTip().contains(model == std::string("gemma_7b") ? "gemma" : "mixtral"),
                     qPrintable(label->toolTip()));
        }
    }

    // A config in bfloat16 is forecast in FP32: the model panel says so, as predict does; an FP32
    // (or silent) config shows no such line.
    void modelPanelSaysTheForecastIsFp32()
    {
        ForecastSession session(nullptr, store());
        MainWindow window(&session);
        window.show(); // isVisible() needs a shown window
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        auto* label = window.findChild<QLabel*>("configPrecision");
        QVERIFY(label);
        QVERIFY(showOneSequence(session, "gemma_7b", 128, "T4"));
        QVERIFY2(label->isVisible() && label->text() == "Forecast in FP32; the config says bfloat16" &&
                     label->toolTip().contains("(tensor-core math, half the bytes; would run faster) is not modelled"),
                 qPrintable(label->text()));
        QVERIFY(showOneSequence(session, "gpt2_large", 128, "T4"));
        QVERIFY(!label->isVisible());
        // Past a rotary model's advertised context the same line says so (predict's note too).
        QVERIFY(showOneSequence(session, "gemma_7b", 8193, "T4"));
        QVERIFY2(label->text() == "Forecast in FP32; the config says bfloat16. Longer than the model's 8192 positions" &&
                     label->toolTip().contains("sequence 8193 is longer than the 8192 positions"),
                 qPrintable(label->text()));
    }

    // A config that leaves out a field whose default changes the kernels says which value it took;
    // a bundled one, which has every field, shows no such line.
    void modelPanelSaysWhichDefaultsItTook()
    {
        ForecastSession session(nullptr, store());
        MainWindow window(&session);
        auto* label = window.findChild<QLabel*>("configAssumed");
        QVERIFY(label);
        QVERIFY(showOneSequence(session, "mistral_7b", 128, "T4"));
        QVERIFY(label->isHidden());
        QTemporaryDir dir;
        const QString path = dir.filePath("config.json");
        nlohmann::json config = nlohmann::json::parse(readFile(std::string(GPUFORECAST_RESOURCES) + "/models/mistral_7b.json"));
        config.erase("num_key_value_heads");
        config["num_attention_heads"] = 16;
        config["num_hidden_layers"] = 2;
        writeFileAtomically(path.toStdString(), config.dump());
        QVERIFY(!session.setModel(path));
        QVERIFY(!label->isHidden());
        QCOMPARE(label->text(), QString("Assumed, not given in the file: num_key_value_heads = 8"));
        QVERIFY2(label->toolTip().contains("transformers' mistral default"), qPrintable(label->toolTip()));
        QCOMPARE(session.model().kvHeads, 8LL);
        QVERIFY(!session.setModel("gpt2_large"));
        QVERIFY(label->isHidden());
    }

    void whatIfSlidersMoveTheForecastTheRightWay()
    {
        ForecastSession session(nullptr, store());
        MainWindow window(&session);
        window.whatIfPanel()->setGpu("L4");
        const int l4 = int(session.selectedGpus().indexOf("L4"));
        const double specBw = session.gpu("L4")->memoryBandwidthGBps;
        double previous = (*session.forecasts())[std::size_t(l4)].totalSeconds();
        for (double f : {1.5, 2.0, 4.0}) { // more bandwidth never slows the model down
            window.whatIfPanel()->setFactor(0, f);
            const double t = (*session.forecasts())[std::size_t(l4)].totalSeconds();
            QVERIFY2(t <= previous, qPrintable(QString("x%1: %2 > %3").arg(f).arg(t).arg(previous)));
            previous = t;
        }
        QCOMPARE(session.gpu("L4")->memoryBandwidthGBps, specBw); // the spec sheet itself is untouched
        QCOMPARE(session.effectiveGpu("L4").memoryBandwidthGBps, 4 * specBw);
        window.whatIfPanel()->setFactor(0, 1.0);
        QVERIFY(session.whatIf("L4").isIdentity());

        // The panel says whether the GPU as edited is within what the networks were trained on.
        QVERIFY2(window.whatIfPanel()->coverageText().contains("taken from T4"),
                 qPrintable(window.whatIfPanel()->coverageText()));
        QVERIFY(!window.whatIfPanel()->coverageText().contains("slot alone")); // L4 is slot-powered too
        window.whatIfPanel()->setGpu("L40S"); // 350 W on a 70 W card's efficiency: said to be likely slow
        QVERIFY2(window.whatIfPanel()->coverageText().contains("T4 is a 70 W card powered by its slot alone"),
                 qPrintable(window.whatIfPanel()->coverageText()));
        window.whatIfPanel()->setGpu("A100-PCIE-80GB");
        QVERIFY(window.whatIfPanel()->coverageText().contains("taken from A100-PCIE-40GB"));
        window.whatIfPanel()->setGpu("V100-PCIE-32GB"); // trained on
        QVERIFY(window.whatIfPanel()->coverageText().contains("Within the range"));
        // A V100 with 4x the FP32 is still a V100 to the networks: its learned efficiency, with
        // another roofline. Read as a new GPU, 20% more SMs made GPT-2 large 18% slower.
        const int v100 = int(session.selectedGpus().indexOf("V100-PCIE-32GB"));
        const double before = (*session.forecasts())[std::size_t(v100)].totalSeconds();
        window.whatIfPanel()->setFactor(1, 4.0);
        QVERIFY2(window.whatIfPanel()->coverageText().contains("Within the range") &&
                     window.whatIfPanel()->coverageText().contains("keeps this learned efficiency"),
                 qPrintable(window.whatIfPanel()->coverageText()));
        QVERIFY((*session.forecasts())[std::size_t(v100)].totalSeconds() < before);
        window.whatIfPanel()->setFactor(1, 1.0);
        window.whatIfPanel()->setFactor(2, 1.2); // 20% more SMs
        QVERIFY((*session.forecasts())[std::size_t(v100)].totalSeconds() < before);
        window.whatIfPanel()->setFactor(2, 1.0);
        QCOMPARE((*session.forecasts())[std::size_t(v100)].totalSeconds(), before);
        QCOMPARE(window.whatIfPanel()->coverageText(), QString("Within the range of the measured GPUs."));
    }

    void chartExportWritesImages()
    {
        ForecastSession session(nullptr, store());
        MainWindow window(&session);
        QTemporaryDir dir;
        const QString png = dir.filePath("chart.png");
        QVERIFY(window.exportChart(png));
        const QImage image(png);
        QCOMPARE(image.size(), QSize(1200, 700));
        const QString pdf = dir.filePath("chart.pdf");
        QVERIFY(window.exportChart(pdf));
        QFile f(pdf);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QVERIFY(f.read(5) == "%PDF-");
        QCOMPARE(image.dotsPerMeterX(), int(96 / 0.0254)); // 96 dpi, as QCustomPlot's own savePng records
        // Written atomically: nothing but the two exports is left in the folder.
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden), QStringList({"chart.pdf", "chart.png"}));
        // A folder that is not there: refused, with the path in the status bar, and nothing written.
        const QString nowhere = dir.filePath("missing/chart.png");
        QVERIFY(!window.exportChart(nowhere));
        QVERIFY2(window.statusBar()->currentMessage().contains(nowhere), qPrintable(window.statusBar()->currentMessage()));
        QVERIFY(!QFileInfo::exists(nowhere));
    }

    void comparisonExportsAsCsvWithTheChartsNumbers()
    {
        ForecastSession session(nullptr, store());
        MainWindow window(&session);
        QTemporaryDir dir;
        const QString path = dir.filePath("comparison.csv");
        QVERIFY(window.exportComparisonCsv(path));
        const auto rows = csv::parse(readFile(path.toStdString()), "comparison.csv");
        const auto& f = *session.forecasts();
        QCOMPARE(rows.size(), f.size() + 1);
        const auto& h = rows.front();
        auto col = [&](const char* name) { return std::size_t(std::find(h.begin(), h.end(), name) - h.begin()); };
        for (const char* name : {"gpu", "step_ms", "speedup", "tokens_per_s", "fits", "gemm_efficiency_from"})
            QVERIFY2(col(name) < h.size(), name);
        bool someoneBorrows = false;
        for (std::size_t g = 0; g < f.size(); ++g) {
            const auto& r = rows[g + 1];
            QCOMPARE(r[col("gpu")], f[g].gpu);
            QVERIFY(std::abs(std::stod(r[col("step_ms")]) / (f[g].totalSeconds() * 1e3) - 1) < 1e-5);
            QVERIFY(std::abs(std::stod(r[col("speedup")]) * f[g].totalSeconds() / f[0].totalSeconds() - 1) < 1e-3);
            QCOMPARE(r[col("fits")], std::string(f[g].fits() ? "yes" : "no"));
            const auto donor = session.forecaster().gemmEfficiencyDonor(*session.gpu(QString::fromStdString(f[g].gpu)));
            QCOMPARE(r[col("gemm_efficiency_from")], donor ? donor->gpu.id : std::string());
            QVERIFY(r[col("coverage")] == "within" || r[col("coverage")] == "near_edge" || r[col("coverage")] == "beyond");
            QCOMPARE(r[col("coverage")] == "beyond", bool(donor));
            QVERIFY(donor || r[col("caution")].empty()); // a caution is about the borrowing
            someoneBorrows |= bool(donor);
        }
        QVERIFY(someoneBorrows); // the default comparison has a GPU beyond the measured ones
        int measured = 0; // the Compare chart's diamonds, as numbers
        for (std::size_t g = 0; g < f.size(); ++g) {
            const auto& r = rows[g + 1];
            const MeasuredRun* run = session.measuredRun(QString::fromStdString(f[g].gpu));
            QCOMPARE(r[col("measured_ms")].empty(), !run);
            QCOMPARE(r[col("measured_run")].empty(), !run);
            if (run) {
                QVERIFY(std::abs(std::stod(r[col("measured_ms")]) / run->ms - 1) < 1e-5);
                QCOMPARE(r[col("measured_run")], run->source + ": " + run->name);
                ++measured;
            }
        }
        QVERIFY(measured > 0); // the default scenario was timed on the V100
        QVERIFY(!window.exportComparisonCsv(dir.filePath("no/such/folder/c.csv"))); // refused, not crashed

        // Per watt and per $1k are of every GPU in the layout: a server's throughput over one
        // GPU's power and price came out 8x too high on eight GPUs.
        QVERIFY(!session.setLayout(ParallelLayout{1, 4, 2})); // tp 4 x pp 2
        const QString server = dir.filePath("server.csv");
        QVERIFY(window.exportComparisonCsv(server));
        const auto serverRows = csv::parse(readFile(server.toStdString()), "server.csv");
        int checked = 0;
        for (std::size_t g = 1; g < serverRows.size(); ++g) {
            const auto& r = serverRows[g];
            const GpuSpec* spec = session.gpu(QString::fromStdString(r[col("gpu")]));
            QVERIFY(spec);
            if (r[col("tokens_per_s_per_w")].empty() || r[col("tokens_per_s_per_1k_usd")].empty())
                continue; // the sheet gives no power or price
            const double tokens = std::stod(r[col("tokens_per_s")]);
            QVERIFY2(std::abs(std::stod(r[col("tokens_per_s_per_w")]) * spec->tdpW * 8 / tokens - 1) < 1e-4, spec->id.c_str());
            QVERIFY(std::abs(std::stod(r[col("tokens_per_s_per_1k_usd")]) * *spec->priceUsd * 8 / 1e3 / tokens - 1) < 1e-4);
            ++checked;
        }
        QVERIFY(checked > 0);
        { // the coverage words, one GPU of each kind (the list above is gone with this selection)
            QVERIFY(!session.setLayout(ParallelLayout{}));
            session.setSelectedGpus({"L40S", "P4", "T4"});
            const auto three = csv::parse(comparisonCsv(session, "T4"), "comparison.csv");
            QCOMPARE(three.size(), std::size_t(4));
            QCOMPARE(three[1][col("coverage")], std::string("beyond")); // on T4's efficiency, and cautioned
            QVERIFY2(three[1][col("caution")].find("powered by its slot alone") != std::string::npos, three[1][col("caution")].c_str());
            QCOMPARE(three[2][col("coverage")], std::string("near_edge")); // P4's bandwidth per SM
            QCOMPARE(three[3][col("coverage")], std::string("within"));
        }
    }

    void operatorTableExportsAsShown()
    {
        ForecastSession session(nullptr, store());
        MainWindow window(&session);
        auto* filter = window.findChild<QLineEdit*>("operatorFilter");
        QVERIFY(filter);
        QTemporaryDir dir;
        const QString all = dir.filePath("all.csv"), softmax = dir.filePath("softmax.csv");
        QVERIFY(window.exportOperatorCsv(all));
        filter->setText("softmax");
        QVERIFY(window.exportOperatorCsv(softmax));
        const auto rows = csv::parse(readFile(all.toStdString()), "all.csv");
        const auto& h = rows.front();
        auto col = [&](const char* name) { return std::size_t(std::find(h.begin(), h.end(), name) - h.begin()); };
        const ModelForecast* shown = nullptr;
        for (const auto& m : *session.forecasts())
            if (QString::fromStdString(m.gpu) == window.operatorModel()->shownGpu())
                shown = &m;
        QVERIFY(shown);
        QCOMPARE(rows.size(), shown->ops.size() + 1);
        double sum = 0, previous = INFINITY;
        bool sawCopy = false;
        int repriced = 0;
        for (std::size_t i = 1; i < rows.size(); ++i) {
            QCOMPARE(rows[i][col("gpu")], shown->gpu);
            const double ms = std::stod(rows[i][col("time_ms")]);
            QVERIFY(ms <= previous); // the table's sort: slowest first
            previous = ms;
            sum += ms;
            if (rows[i][col("class")] == "other") { // a copy: no waves, no utilization
                sawCopy = true;
                QVERIFY(rows[i][col("waves")].empty() && rows[i][col("utilization")].empty());
                QVERIFY(rows[i][col("priced_waves")].empty());
            } else {
                // The count it was priced at: its own, or more where its tiles in more waves were faster.
                QVERIFY(std::stod(rows[i][col("priced_waves")]) >= std::stod(rows[i][col("waves")]));
                repriced += std::stod(rows[i][col("priced_waves")]) > std::stod(rows[i][col("waves")]);
                const double u = std::stod(rows[i][col("utilization")]);
                QVERIFY(u > 0 && u < 1); // a fraction, not "89.7%"
            }
        }
        QVERIFY(sawCopy);
        int pricedInMore = 0;
        for (const auto& o : shown->ops)
            pricedInMore += o.forecast.pricedWaves > 0;
        QCOMPARE(repriced, pricedInMore);
        QVERIFY(std::abs(sum / (shown->totalSeconds() * 1e3) - 1) < 1e-4);
        const auto filtered = csv::parse(readFile(softmax.toStdString()), "softmax.csv");
        QVERIFY(filtered.size() > 1 && filtered.size() < rows.size());
        for (std::size_t i = 1; i < filtered.size(); ++i)
            QCOMPARE(filtered[i][col("class")], std::string("softmax"));
    }

    void badModelKeepsThePreviousState()
    {
        ForecastSession session(nullptr, store());
        const double before = session.forecasts()->front().totalSeconds();
        QSignalSpy errors(&session, &ForecastSession::errorOccurred);
        QVERIFY(session.setModel(QString(GPUFORECAST_TEST_DATA) + "/bad_kernels.csv").has_value());
        QVERIFY(session.setOptions(GraphOptions{4, 999999, false, false}).has_value()); // beyond gpt2's positions
        QCOMPARE(errors.size(), 2);
        QCOMPARE(session.modelName(), QString("gpt2_large"));
        QCOMPARE(session.forecasts()->front().totalSeconds(), before);
    }

    // A downloaded config.json goes by its folder's name; one in a folder named like a bundled model
    // must not pass for it. Its errors name the file.
    void configFilesGoByTheirFolderAndNameTheFileInErrors()
    {
        QTemporaryDir dir;
        QVERIFY(QDir(dir.path()).mkpath("bert") && QDir(dir.path()).mkpath("my-llama") && QDir(dir.path()).mkpath("broken"));
        std::string llama = readFile(std::string(GPUFORECAST_RESOURCES) + "/models/llama2_7b.json");
        const std::string hubName = R"("_name_or_path": "meta-llama/Llama-2-7b-hf",)"; // named by its folder alone
        QVERIFY(llama.find(hubName) != std::string::npos);
        llama.erase(llama.find(hubName), hubName.size());
        for (const char* folder : {"bert", "my-llama"})
            writeFileAtomically(dir.filePath(QString(folder) + "/config.json").toStdString(), llama);
        ForecastSession session(nullptr, store());
        QVERIFY(!session.setModel(dir.filePath("my-llama/config.json")).has_value());
        QCOMPARE(session.modelName(), QString("my-llama"));
        QVERIFY(!session.setModel(dir.filePath("bert/config.json")).has_value());
        QCOMPARE(session.modelName(), QString("bert (config.json)"));
        const QString broken = dir.filePath("broken/config.json");
        writeFileAtomically(broken.toStdString(), R"({"model_type": "llama", "num_hidden_layers": 2})");
        const auto error = session.setModel(broken);
        QVERIFY(error.has_value());
        QVERIFY2(error->startsWith(broken + ": "), qPrintable(*error));
    }

    void userGpusPersistAndDeleteRestoresTheShippedSheet()
    {
        {
            ForecastSession session(nullptr, store());
            GpuSpec mine = *session.gpu("H100-SXM5-80GB");
            mine.id = session.uniqueGpuId("H100 2x bandwidth").toStdString();
            mine.memoryBandwidthGBps *= 2;
            QVERIFY(!session.addGpu(mine).has_value());
            GpuSpec edited = *session.gpu("T4");
            edited.tdpW = 140;
            QVERIFY(!session.updateGpu(edited).has_value());
            GpuSpec bad = mine;
            bad.smCount = -1;
            QVERIFY(session.addGpu(bad).has_value()); // refused, nothing written
        }
        ForecastSession again(nullptr, store()); // a new start reads them back
        QVERIFY(again.isUserGpu("H100 2x bandwidth"));
        QCOMPARE(again.gpu("H100 2x bandwidth")->memoryBandwidthGBps, 2 * again.gpu("H100-SXM5-80GB")->memoryBandwidthGBps);
        QCOMPARE(again.gpu("T4")->tdpW, 140.0);
        again.removeGpu("T4"); // the user's edit goes; the shipped T4 comes back
        QVERIFY(again.gpu("T4") && again.gpu("T4")->tdpW != 140.0);
        again.removeGpu("H100 2x bandwidth");
        QVERIFY(!again.gpu("H100 2x bandwidth"));
        QVERIFY(again.loadProblems().isEmpty());
        QCOMPARE(QDir(userData_.filePath("gpus")).entryList(QDir::Files).size(), 0);
    }

    // A sheet the user wrote by hand carries its own notes; editing its clock in the GUI saves the
    // whole sheet again, and the notes must still be in the file (they used to be dropped).
    void editingAUserSheetKeepsItsOwnFields()
    {
        QVERIFY(QDir().mkpath(userData_.filePath("gpus")));
        nlohmann::json sheet = gpuSpecToJson(*ForecastSession(nullptr, store()).gpu("T4"));
        sheet["id"] = "T4 rack 3";
        sheet["notes"] = "rack 3, bought 2021";
        sheet["interconnect"]["switch"] = "ToR-7";
        const QString path = userData_.filePath("gpus/T4 rack 3.json");
        QVERIFY(writeText(path, QByteArray::fromStdString(sheet.dump(2))));
        {
            ForecastSession session(nullptr, store());
            QVERIFY(session.isUserGpu("T4 rack 3"));
            GpuSpec edited = *session.gpu("T4 rack 3");
            edited.boostClockMhz = 1500;
            QVERIFY(!session.updateGpu(edited).has_value());
        }
        const auto saved = nlohmann::json::parse(readFile(path.toStdString()));
        QCOMPARE(saved.value("boost_clock_mhz", 0.0), 1500.0);
        QCOMPARE(saved.value("notes", ""), std::string("rack 3, bought 2021"));
        QCOMPARE(saved["interconnect"].value("switch", ""), std::string("ToR-7"));
        // The edit went into the user's own file, not a second one named after the id, so
        // deleting the sheet deletes it and it does not come back at the next start.
        QCOMPARE(QDir(userData_.filePath("gpus")).entryList(QDir::Files), QStringList{"T4 rack 3.json"});
        ForecastSession(nullptr, store()).removeGpu("T4 rack 3");
        QVERIFY(!ForecastSession(nullptr, store()).gpu("T4 rack 3"));
    }

    // "The A100 with twice the SMs, FP32 peak and bandwidth", made by duplicating the A100 and
    // editing the copy, is faster than the A100: the copy reads the A100's learned efficiency.
    // The box under the sheet says so; reading the sheet as a new GPU is one choice there, and undo
    // brings the basis back. The basis is saved with the sheet.
    void copiedSheetKeepsItsSourcesEfficiency()
    {
        const QString copyId = "A100-PCIE-40GB copy";
        double withBasis = 0;
        {
            ForecastSession session(nullptr, store());
            MainWindow window(&session);
            QVERIFY(showOneSequence(session, "gpt2_large", 512, "A100-PCIE-40GB"));
            const double a100 = session.forecasts()->front().totalSeconds();
            window.specModel()->setGpu("A100-PCIE-40GB");
            auto* basis = window.findChild<QComboBox*>("efficiencyBasis");
            QVERIFY(basis);
            QPushButton* duplicate = nullptr;
            for (auto* b : window.findChildren<QPushButton*>())
                if (b->text() == "Duplicate")
                    duplicate = b;
            QVERIFY(duplicate);
            duplicate->click();
            QVERIFY(session.gpu(copyId));
            QCOMPARE(session.gpu(copyId)->efficiencyBasisId, std::string("A100-PCIE-40GB"));
            QCOMPARE(window.specModel()->gpuId(), copyId);
            QVERIFY(basis->isEnabled());
            QCOMPARE(basis->currentData().toString(), QString("A100-PCIE-40GB"));
            auto* spec = window.specModel();
            for (const char* key : {"sm_count", "fp32_gflops", "memory_bandwidth_gbps"}) {
                const QModelIndex cell = spec->index(fieldRow(key), SpecTableModel::ValueColumn);
                QVERIFY(spec->setData(cell, QString::number(2 * cell.data(Qt::EditRole).toDouble()), Qt::EditRole));
            }
            QCOMPARE(session.gpu(copyId)->fp32MatrixGflops, 2 * session.gpu("A100-PCIE-40GB")->fp32MatrixGflops);
            session.setSelectedGpus({copyId});
            withBasis = session.forecasts()->front().totalSeconds();
            QVERIFY2(withBasis < a100 && withBasis > 0.5 * a100, qPrintable(QString("A100 %1 ms, doubled copy %2 ms").arg(a100 * 1e3).arg(withBasis * 1e3)));
            window.whatIfPanel()->setGpu(copyId);
            QVERIFY2(window.whatIfPanel()->coverageText().startsWith("Read with A100-PCIE-40GB's learned efficiency"),
                     qPrintable(window.whatIfPanel()->coverageText()));

            basis->activated(0); // "This sheet's own numbers": read as a new GPU, and the line says so at once
            QVERIFY(session.gpu(copyId)->efficiencyBasisId.empty());
            QVERIFY(!session.gpu(copyId)->efficiencyBasis);
            QVERIFY(!window.whatIfPanel()->coverageText().contains("learned efficiency of", Qt::CaseInsensitive));
            QVERIFY(!window.whatIfPanel()->coverageText().startsWith("Read with"));
            // Read as a new GPU its memory per SM is below every measured GPU's: slower than the A100 itself.
            QVERIFY2(session.forecasts()->front().totalSeconds() > a100,
                     qPrintable(QString("as a new GPU %1 ms, A100 %2 ms").arg(session.forecasts()->front().totalSeconds() * 1e3).arg(a100 * 1e3)));
            window.undoStack()->undo();
            QCOMPARE(basis->currentData().toString(), QString("A100-PCIE-40GB"));
            QCOMPARE(session.forecasts()->front().totalSeconds(), withBasis);

            // The same edits made to the bundled A100 itself give the same forecast as on the copy.
            window.specModel()->setGpu("A100-PCIE-40GB");
            for (const char* key : {"sm_count", "fp32_gflops", "memory_bandwidth_gbps"}) {
                const QModelIndex cell = spec->index(fieldRow(key), SpecTableModel::ValueColumn);
                QVERIFY(spec->setData(cell, QString::number(2 * cell.data(Qt::EditRole).toDouble()), Qt::EditRole));
            }
            QCOMPARE(session.gpu("A100-PCIE-40GB")->efficiencyBasisId, std::string("A100-PCIE-40GB"));
            session.setSelectedGpus({"A100-PCIE-40GB"});
            QCOMPARE(session.forecasts()->front().totalSeconds(), withBasis);
            session.removeGpu("A100-PCIE-40GB"); // back to the bundled sheet

            // "New" only borrows the sheet as a form: the networks read its own numbers.
            window.specModel()->setGpu("A100-PCIE-40GB");
            for (auto* b : window.findChildren<QPushButton*>())
                if (b->text() == "New")
                    b->click();
            QVERIFY(session.gpu("My GPU"));
            QVERIFY(session.gpu("My GPU")->efficiencyBasisId.empty() && !session.gpu("My GPU")->efficiencyBasis);
            session.removeGpu("My GPU");

            EfficiencyBasisBox bundled(&session, window.undoStack());
            bundled.setGpu("A100-PCIE-40GB"); // a bundled sheet is itself; nothing to choose
            QVERIFY(!bundled.isEnabled());
            QCOMPARE(bundled.combo()->currentData().toString(), QString());
        }
        ForecastSession again(nullptr, store());
        QCOMPARE(again.gpu(copyId)->efficiencyBasisId, std::string("A100-PCIE-40GB"));
        QVERIFY(showOneSequence(again, "gpt2_large", 512, copyId.toUtf8().constData()));
        QCOMPARE(again.forecasts()->front().totalSeconds(), withBasis);
        QVERIFY(again.loadProblems().isEmpty());
    }

    // The first edit of a bundled sheet keeps that GPU's learned efficiency, as a what-if does;
    // a saved sheet whose basis is no longer bundled loads, read as a new GPU, and says why.
    void editedBundledSheetKeepsItsEfficiency()
    {
        {
            ForecastSession session(nullptr, store());
            GpuSpec t4 = *session.gpu("T4");
            t4.memoryBandwidthGBps *= 2;
            QVERIFY(!session.updateGpu(t4).has_value());
            QCOMPARE(session.gpu("T4")->efficiencyBasisId, std::string("T4"));
            QVERIFY(session.gpu("T4")->efficiencyBasis);
            QCOMPARE(session.gpu("T4")->efficiencySheet().memoryBandwidthGBps, t4.memoryBandwidthGBps / 2);
            GpuSpec mine = t4;
            mine.id = "T4 next";
            mine.efficiencyBasisId = "T5";
            const auto refused = session.addGpu(mine);
            QVERIFY(refused && refused->contains("efficiency_basis: unknown GPU 'T5'"));
            QVERIFY(!session.gpu("T4 next"));
        }
        QDir().mkpath(userData_.filePath("gpus"));
        QFile f(userData_.filePath("gpus/orphan.json"));
        QVERIFY(f.open(QIODevice::WriteOnly));
        GpuSpec orphan = *ForecastSession(nullptr, store()).gpu("L4");
        orphan.id = "orphan";
        orphan.efficiencyBasisId = "L5";
        f.write(QByteArray::fromStdString(gpuSpecToJson(orphan).dump()));
        f.close();
        ForecastSession session(nullptr, store());
        QCOMPARE(session.loadProblems().size(), 1);
        QVERIFY2(session.loadProblems().front().startsWith(f.fileName() + ": efficiency_basis: unknown GPU 'L5'"),
                 qPrintable(session.loadProblems().front()));
        QVERIFY(session.gpu("orphan") && !session.gpu("orphan")->efficiencyBasis);
        MainWindow window(&session); // the user sees it, not only the session
        const auto* note = window.findChild<QLabel*>("loadProblems");
        QVERIFY(note);
        QVERIFY(note->toolTip().contains(f.fileName()));
    }

    void brokenUserFileIsReportedNotFatal()
    {
        QDir().mkpath(userData_.filePath("gpus"));
        QVERIFY(writeText(userData_.filePath("gpus/broken.json"), "{\"id\": \"broken\", \"sm_count\": -3}"));
        ForecastSession session(nullptr, store());
        QCOMPARE(session.loadProblems().size(), 1);
        QVERIFY(session.loadProblems().front().contains("broken.json"));
        QVERIFY(!session.gpu("broken"));
        MainWindow window(&session);
        QVERIFY(window.findChild<QLabel*>("loadProblems"));
    }

    void screenshotOptionRendersTheWindow()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath("shot.png");
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("XDG_DATA_HOME", dir.path()); // no user GPUs from the machine running the tests
        p.setProcessEnvironment(env);
        p.start(GPUFORECAST_GUI, {"--screenshot", out});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 0);
        const QImage image(out);
        QVERIFY(image.width() >= 1400 && image.height() >= 900);
        // --chart brings another tab to the front (a different picture); an unknown one is refused.
        const QString sensitivity = dir.filePath("sensitivity.png");
        p.start(GPUFORECAST_GUI, {"--screenshot", sensitivity, "--chart", "Sensitivity"});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 0);
        QVERIFY(QImage(sensitivity).size() == image.size() && QImage(sensitivity) != image);
        p.start(GPUFORECAST_GUI, {"--screenshot", dir.filePath("none.png"), "--chart", "histogram"});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 2);
        QVERIFY(QString::fromUtf8(p.readAllStandardError()).contains("no chart 'histogram'"));
        QVERIFY(!QFile::exists(dir.filePath("none.png")));
        // The format follows the suffix; mistakes are refused (exit 2, one line) before anything renders.
        const QString jpeg = dir.filePath("shot.jpg");
        p.start(GPUFORECAST_GUI, {"--screenshot", jpeg});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 0);
        QFile f(jpeg);
        QVERIFY(f.open(QIODevice::ReadOnly) && f.read(3) == QByteArray("\xFF\xD8\xFF", 3));
        // A scenario's own sheet is drawn, but not saved among the user's sheets: a picture taken
        // leaves nothing behind.
        {
            ForecastSession session(nullptr, store());
            MainWindow window(&session);
            GpuSpec custom = *session.gpu("A10");
            custom.id = "A10 doubled";
            custom.smCount *= 2;
            QVERIFY(!session.addGpu(custom));
            session.setSelectedGpus({"A10 doubled", "A10"});
            QVERIFY(window.saveScenario(dir.filePath("custom.json")));
        }
        p.start(GPUFORECAST_GUI, {"--screenshot", dir.filePath("custom.png"), dir.filePath("custom.json")});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 0);
        QVERIFY(QFile::exists(dir.filePath("custom.png")));
        QDirIterator saved(dir.path(), {"*.json"}, QDir::Files, QDirIterator::Subdirectories);
        QCOMPARE(saved.next(), dir.filePath("custom.json"));
        QVERIFY2(!saved.hasNext(), qPrintable(saved.next()));
        const QList<QPair<QStringList, QString>> mistakes{
            {{"--screenshot", dir.filePath("shot.xyz")}, "name it .png, .jpg"},
            {{"--screenshot", dir.filePath("no/such/dir/shot.png")}, "cannot write the image"},
            {{"--screenshot", out, "a.json", "b.json"}, "one scenario file at most"},
            {{"--screenshot", out, "--chart", "waves", "--chart", "roofline"}, "--chart: given twice"},
            {{"--screenshot", out, dir.filePath("missing.json")}, "missing.json: no such file"},
            {{"--screenshot", out, "--bogus"}, "Unknown option 'bogus'"},
        };
        for (const auto& [args, expected] : mistakes) {
            p.start(GPUFORECAST_GUI, args);
            QVERIFY(p.waitForFinished(60000));
            const QString err = QString::fromUtf8(p.readAllStandardError());
            QVERIFY2(p.exitCode() == 2 && err.contains(expected), qPrintable(args.join(' ') + ": " + err));
        }
    }

    // A scenario named on the command line is what the window shows.
    void scenarioArgumentIsOpened()
    {
        QTemporaryDir dir;
        {
            ForecastSession session(nullptr, store());
            MainWindow window(&session);
            QVERIFY(session.setOptions(GraphOptions{2, 256, false, false}) == std::nullopt);
            QVERIFY(window.saveScenario(dir.filePath("small.json")));
        }
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("XDG_DATA_HOME", dir.path());
        p.setProcessEnvironment(env);
        const QString plain = dir.filePath("plain.png"), small = dir.filePath("small.png");
        p.start(GPUFORECAST_GUI, {"--screenshot", plain});
        QVERIFY(p.waitForFinished(60000) && p.exitCode() == 0);
        p.start(GPUFORECAST_GUI, {"--screenshot", small, dir.filePath("small.json")});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 0);
        QVERIFY(QImage(small).size() == QImage(plain).size() && QImage(small) != QImage(plain));
    }

    // A thin GEMM priced as its padded shape is drawn as that shape: the chart's wave count is the
    // table's, and the kernel's point lies on its staircase.
    void wavesChartDrawsAThinGemmAsPriced()
    {
        ForecastSession session(nullptr, store());
        GraphOptions o = session.options(); // BERT has 512 positions: shorten first
        o.seq = 8;
        QVERIFY(!session.setOptions(o));
        QVERIFY(showOneSequence(session, "bert", 8, "P4"));
        const auto& ops = session.forecasts()->front().ops;
        const auto fc = std::find_if(ops.begin(), ops.end(), [](const OpForecast& op) { return op.op.node == "mlp.fc"; });
        QVERIFY(fc != ops.end());
        QVERIFY2(fc->forecast.paddedM > fc->op.kernel.m, "precondition: one sequence of 8 is priced padded");
        WavesChart chart(&session);
        chart.setSelectedOperator("mlp.fc");
        QCOMPARE(chart.curves().size(), std::size_t(1));
        QCOMPARE(chart.curves().front().ownWaves, fc->forecast.geometry.waves);
        const auto& sweep = chart.sweeps().front();
        const double m = double(fc->forecast.paddedM);
        const auto at = std::upper_bound(sweep.dimension.begin(), sweep.dimension.end(), m);
        QVERIFY(at != sweep.dimension.begin());
        QVERIFY2(std::abs(sweep.ms[std::size_t(at - sweep.dimension.begin()) - 1] / (fc->forecast.seconds * 1e3) - 1) < 1e-9,
                 qPrintable(QString("staircase %1 ms at m = %2, table %3 ms")
                                .arg(sweep.ms[std::size_t(at - sweep.dimension.begin()) - 1]).arg(m).arg(fc->forecast.seconds * 1e3)));
        bool said = false;
        for (int i = 0; i < chart.plot()->itemCount(); ++i)
            if (const auto* text = qobject_cast<QCPItemText*>(chart.plot()->item(i)))
                said = said || (text->text().contains(QString("padded")) && text->text().contains(QString("m 8 → %1").arg(fc->forecast.paddedM)));
        QVERIFY(said);
    }

    // Twenty GPUs: colours come round after twelve, so lines change dash instead; a long id is cut
    // in the middle on axes and legends; the waves axis keeps only 1, 10, 100 where 2 and 5 would
    // run into their neighbours.
    void manyGpusStayLegible()
    {
        QCOMPARE(gpuPen(3, 2).style(), Qt::SolidLine);
        QCOMPARE(gpuPen(12, 2).color(), gpuPen(0, 2).color());
        QVERIFY(gpuPen(12, 2).style() != gpuPen(0, 2).style());
        QVERIFY(gpuMarkerShape(12) != gpuMarkerShape(0)); // wave-count points and rings have no dash
        QCOMPARE(shortGpuName("H100-SXM5-80GB (scenario)"), QString("H100-SXM5-80GB (scenario)"));
        const QString longId = "Hypothetical-Next-Gen-Accelerator-With-Very-Long-Name-2027";
        const QString shortId = shortGpuName(longId);
        QVERIFY2(shortId.size() == 28 && shortId.startsWith("Hypothetical") && shortId.endsWith("Name-2027"), qPrintable(shortId));
        // Cut in UTF-16 units, but never through a character made of two.
        const QString emoji = QString("ABCDEFGHIJKL") + QString::fromUtf8("\xF0\x9F\x98\x80").repeated(10) + "XYZ";
        const QString cut = shortGpuName(emoji);
        QVERIFY(cut.size() <= 28);
        QCOMPARE(QString::fromUtf8(cut.toUtf8()), cut); // no lone surrogate: survives a round trip

        ForecastSession session(nullptr, store());
        GpuSpec custom = *session.gpu("A10");
        custom.id = longId.toStdString();
        QVERIFY(!session.addGpu(custom));
        session.setSelectedGpus({"A10", QString::fromStdString(custom.id)});
        CompareChart compare(&session);
        compare.resize(1200, 600);
        compare.show();
        QVERIFY(QTest::qWaitForWindowExposed(&compare));
        compare.plot()->replot();
        QCOMPARE(compare.plot()->xAxis->tickVectorLabels(), (QVector<QString>{"A10", shortId}));

        WavesChart waves(&session);
        auto* axis = waves.plot()->axisRects().front()->axis(QCPAxis::atBottom);
        QVERIFY(axis->scaleType() == QCPAxis::stLogarithmic);
        waves.show();
        QVERIFY(QTest::qWaitForWindowExposed(&waves));
        for (const int width : {1600, 500, 1600}) { // each decided for its own width, not the one before
            waves.resize(width, 600);
            QTest::qWait(50); // the resize's replot, and the one it queues
            const QVector<QString> labels = axis->tickVectorLabels();
            QVERIFY2(labels.contains("1") && labels.contains("10"), qPrintable(QStringList(labels.begin(), labels.end()).join(' ')));
            QCOMPARE(labels.contains("2"), width == 1600);
        }
    }

    void wavesChartShowsTheLearnedLawAndTheWaveBoundaries()
    {
        ForecastSession session(nullptr, store());
        WavesChart chart(&session);
        // Unpicked, the chart shows the costliest compute kernel of the first GPU.
        const OpForecast* largest = nullptr;
        for (const auto& op : session.forecasts()->front().ops)
            if (op.op.kernel.opClass != OpClass::Other && (!largest || op.totalSeconds() > largest->totalSeconds()))
                largest = &op;
        QVERIFY(largest);
        QCOMPARE(chart.shownOperator(), QString::fromStdString(largest->op.node));
        QCOMPARE(chart.curves().size(), std::size_t(4));
        for (std::size_t g = 0; g < chart.curves().size(); ++g) {
            const auto& c = chart.curves()[g];
            QVERIFY(c.utilization.size() > 10);
            for (std::size_t i = 0; i < c.utilization.size(); ++i) { // saturating, under the roofline
                QVERIFY2(c.utilization[i] > 0 && c.utilization[i] < 1, qPrintable(c.gpu));
                if (i > 0)
                    QVERIFY2(c.utilization[i] >= c.utilization[i - 1] - 1e-12,
                             qPrintable(QString("%1 at %2 waves").arg(c.gpu).arg(c.waves[i])));
            }
            // The marked point is the kernel's own: its wave count, and the learned law there, which
            // the kernel's benchmark forecast lies under (the launch floor can only lower it). In the
            // model the same kernel runs queued, without the launch overhead (queuedInModel).
            const OpForecast& own = *std::find_if((*session.forecasts())[g].ops.begin(), (*session.forecasts())[g].ops.end(),
                                                  [&](const OpForecast& o) { return o.op.node == largest->op.node; });
            QCOMPARE(c.ownWaves, own.forecast.geometry.waves);
            const GpuSpec gpu = session.effectiveGpu(session.selectedGpus()[qsizetype(g)]);
            const KernelForecast isolated = session.forecaster().predict(largest->op.kernel, gpu);
            QVERIFY(isolated.utilization <= c.ownUtilization * (1 + 1e-9));
            const double overhead = session.forecaster().model(largest->op.kernel.opClass)->floorSecondsFor(largest->op.kernel.op);
            QCOMPARE(queuedInModel(isolated, overhead, FloorComposition::SmoothMaximum).seconds, own.forecast.seconds);
            QVERIFY(own.forecast.utilization <= 1);
            QCOMPARE(double(c.fill.fullWaves) + (c.fill.partialFill > 0 ? 1 : 0), c.ownWaves);
        }
        // Each staircase marks the model's kernel at its own time, the operator table's per launch
        // (the dashed line alone can fall on a riser and read as the next step).
        int points = 0;
        for (int i = 0; i < chart.plot()->graphCount(); ++i) {
            const QCPGraph* g = chart.plot()->graph(i);
            if (g->objectName() != "modelPoint")
                continue;
            const auto& ops = (*session.forecasts())[std::size_t(points++)].ops;
            const OpForecast& own = *std::find_if(ops.begin(), ops.end(), [&](const OpForecast& o) { return o.op.node == largest->op.node; });
            QCOMPARE(g->dataCount(), 1);
            const double value = g->data()->begin()->value;
            QVERIFY2(std::abs(value / (own.forecast.seconds * 1e3) - 1) < 1e-9,
                     qPrintable(QString("%1 ms, table %2 ms").arg(value).arg(own.forecast.seconds * 1e3)));
            // ... which, for this full-sized GEMM, lies on its staircase at the model's size.
            const auto& sweep = chart.sweeps()[std::size_t(points - 1)];
            const double own_m = g->data()->begin()->key;
            const auto at = std::upper_bound(sweep.dimension.begin(), sweep.dimension.end(), own_m);
            QVERIFY(at != sweep.dimension.begin());
            QVERIFY2(std::abs(sweep.ms[std::size_t(at - sweep.dimension.begin()) - 1] / value - 1) < 1e-9,
                     qPrintable(sweep.gpu + QString(": staircase %1 ms at the model's size, point %2 ms")
                                                .arg(sweep.ms[std::size_t(at - sweep.dimension.begin()) - 1]).arg(value)));
        }
        QCOMPARE(points, int(session.forecasts()->size()));
        // Boundary markers sit where the first GPU gains a wave.
        QVERIFY(!chart.markedBoundaries().empty());
        const GpuSpec first = session.effectiveGpu(session.selectedGpus().front());
        for (double b : chart.markedBoundaries()) {
            const auto wavesAt = [&](double size) {
                return session.forecaster().geometry(withSweptSize(largest->op.kernel, (long long)size), first).waves;
            };
            QVERIFY2(wavesAt(b) != wavesAt(b - 1), qPrintable(QString::number(b)));
        }
        // The kernel's own position is annotated with how full its last wave is.
        const WaveFill fill = chart.curves().front().fill;
        const QString expected = fill.partialFill > 0 ? QString("partial wave of %1%").arg(100 * fill.partialFill, 0, 'f', 0)
                                                      : QString("no partial wave");
        bool annotated = false;
        for (int i = 0; i < chart.plot()->itemCount(); ++i)
            if (auto* text = qobject_cast<QCPItemText*>(chart.plot()->item(i)))
                annotated |= text->text().contains(expected);
        QVERIFY2(annotated, qPrintable(expected));
    }

    void pickingAnOperatorHighlightsItAcrossCharts()
    {
        ForecastSession session(nullptr, store());
        MainWindow window(&session);
        auto* roofline = window.findChild<RooflineChart*>();
        auto* waves = window.findChild<WavesChart*>();
        auto* breakdown = window.breakdownChart();
        QVERIFY(roofline && waves && breakdown);
        QVERIFY(roofline->highlighted().empty());
        QVERIFY(breakdown->highlightedValues().empty());
        QTableView* table = nullptr;
        for (auto* view : window.findChildren<QTableView*>())
            if (auto* proxy = qobject_cast<QSortFilterProxyModel*>(view->model()); proxy && proxy->sourceModel() == window.operatorModel())
                table = view;
        QVERIFY(table);
        QStringList picked;
        for (int row = table->model()->rowCount() - 1; row >= 0 && picked.size() < 2; --row) { // two compute kernels
            const QString name = table->model()->index(row, OperatorTableModel::Name).data().toString();
            if (table->model()->index(row, OperatorTableModel::Class).data().toString() == "other" || picked.contains(name))
                continue;
            picked << name;
            table->selectionModel()->setCurrentIndex(table->model()->index(row, 0),
                                                     QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
            QCOMPARE(waves->shownOperator(), name);
            QCOMPARE(roofline->selectedOperator(), name);
            QCOMPARE(roofline->highlighted().size(), session.forecasts()->size()); // ringed on every GPU
            for (std::size_t g = 0; g < session.forecasts()->size(); ++g) {
                const auto& h = roofline->highlighted()[g];
                QCOMPARE(h.point.name, name);
                const auto points = rooflinePoints((*session.forecasts())[g]);
                QVERIFY(std::any_of(points.begin(), points.end(), [&](const RooflinePoint& p) {
                    return p.name == name && p.gflops == h.point.gflops && p.intensity == h.point.intensity;
                }));
                // The breakdown outlines the operator's own time inside its class's segment.
                double ms = 0;
                for (const auto& op : (*session.forecasts())[g].ops)
                    if (QString::fromStdString(op.op.node) == name)
                        ms += op.totalSeconds() * 1e3;
                QVERIFY(ms > 0);
                QCOMPARE(breakdown->highlightedValues().at(g), ms);
            }
        }
        QCOMPARE(picked.size(), 2);
        if (qEnvironmentVariableIsSet("GPUFORECAST_SAVE_CHARTS")) // for looking at it by eye
            breakdown->plot()->savePng(qEnvironmentVariable("GPUFORECAST_SAVE_CHARTS") + "/breakdown.png", 1200, 700);
    }

    void breakdownOutlinesEachClassOfALayerInItsOwnSegment()
    {
        ForecastSession session(nullptr, store());
        QVERIFY(!session.setOptions(GraphOptions{2, 256, true, false}).has_value()); // a training step
        // A layer whose launches fall in two classes: its GEMMs, and the element-wise accumulation
        // of its weight gradient under the same name.
        QString name;
        for (const auto& op : session.forecasts()->front().ops) {
            std::set<OpClass> classes;
            for (const auto& other : session.forecasts()->front().ops)
                if (other.op.node == op.op.node)
                    classes.insert(other.op.kernel.opClass);
            if (classes.count(OpClass::Linear) && classes.count(OpClass::Elementwise)) {
                name = QString::fromStdString(op.op.node);
                break;
            }
        }
        QVERIFY2(!name.isEmpty(), "no layer with GEMM and element-wise launches in a training step");
        BreakdownChart chart(&session);
        for (const bool normalized : {false, true}) {
            chart.setNormalized(normalized);
            chart.setSelectedOperator(name);
            const auto& values = chart.shownValues();
            std::vector<double> outlined(session.forecasts()->size(), 0.0);
            std::set<std::pair<std::size_t, std::size_t>> rows;
            for (const auto& o : chart.highlightOutlines()) {
                double base = 0;
                for (std::size_t r = 0; r < o.row; ++r)
                    base += values[r][o.gpu];
                QVERIFY2(o.bottom >= base - 1e-9 && o.top <= base + values[o.row][o.gpu] + 1e-9,
                         qPrintable(QString("%1: outline of row %2 outside its segment").arg(name).arg(o.row)));
                outlined[o.gpu] += o.top - o.bottom;
                rows.insert({o.gpu, o.row});
            }
            for (std::size_t g = 0; g < outlined.size(); ++g) {
                QVERIFY(rows.count({g, 1}) && rows.count({g, 2})); // linear and element-wise, on every GPU
                QVERIFY(std::abs(outlined[g] - chart.highlightedValues().at(g)) <= 1e-9 * (1 + outlined[g]));
            }
        }
    }

    void compareSaysWhoseGemmEfficiencyAGpuBorrows()
    {
        ForecastSession session(nullptr, store());
        session.setSelectedGpus({"L4", "T4"}); // L4's per-SM ratios lie far beyond the measured GPUs'
        CompareChart compare(&session);
        compare.resize(1200, 700);
        compare.show();
        QVERIFY(QTest::qWaitForWindowExposed(&compare));
        compare.plot()->replot();
        auto tipOnBar = [&](int index) {
            const double ms = (*session.forecasts())[std::size_t(index)].totalSeconds() * 1e3;
            return compare.toolTipAt(
                {compare.plot()->xAxis->coordToPixel(index + 1), compare.plot()->yAxis->coordToPixel(ms / 2)});
        };
        const QString onL4 = tipOnBar(0), onT4 = tipOnBar(1);
        QVERIFY2(onL4.contains("L4") && onL4.contains("GEMM efficiency taken from T4"), qPrintable(onL4));
        QVERIFY2(onT4.contains("T4") && !onT4.contains("GEMM efficiency taken"), qPrintable(onT4)); // trained on
        QVERIFY2(!onL4.contains("slot alone"), qPrintable(onL4)); // L4 is slot-powered itself
        session.setSelectedGpus({"L40S", "T4"}); // 350 W on T4's efficiency: likely slow, and said so
        compare.plot()->replot();
        const QString onL40S = tipOnBar(0);
        QVERIFY2(onL40S.contains("T4 is a 70 W card powered by its slot alone"), qPrintable(onL40S));
        QVERIFY2(onL40S.contains("Beyond the measured GPUs, so less certain"), qPrintable(onL40S));
        // P4's per-SM bandwidth lies outside the others' yet it keeps its own efficiency: the chart
        // says "near the edge", as the what-if panel does, not "beyond the measured GPUs".
        session.setSelectedGpus({"P4", "T4"});
        compare.plot()->replot();
        const QString onP4 = tipOnBar(0);
        QVERIFY2(onP4.contains("Near the edge of the measured GPUs") && !onP4.contains("Beyond"), qPrintable(onP4));
        WhatIfPanel panel(&session);
        panel.setGpu("P4");
        QVERIFY2(panel.coverageText().startsWith("Near the edge of the measured GPUs"), qPrintable(panel.coverageText()));
    }

    // Cut short, a bar's label says "beyond measured" or "near the edge" in the words of its hover
    // text and the what-if panel (it said "extrapolated" where they said "beyond").
    void compareShortLabelsUseTheCoverageWords()
    {
        ForecastSession session(nullptr, store());
        session.setSelectedGpus({"H100-SXM5-80GB", "P4", "A100-PCIE-40GB"});
        CompareChart compare(&session);
        compare.resize(640, 500); // too narrow for the full labels, wide enough for the short ones
        compare.show();
        QVERIFY(QTest::qWaitForWindowExposed(&compare));
        compare.plot()->replot();
        QStringList texts;
        for (int i = 0; i < compare.plot()->itemCount(); ++i)
            if (auto* t = qobject_cast<QCPItemText*>(compare.plot()->item(i)))
                texts << t->text();
        QCOMPARE(texts.size(), 3);
        QVERIFY2(!texts[0].contains("fits in memory"), qPrintable(texts.join(" | "))); // the short form
        QVERIFY2(texts[0].endsWith("beyond measured"), qPrintable(texts.join(" | ")));
        QVERIFY2(texts[1].endsWith("near the edge"), qPrintable(texts[1]));
        QVERIFY2(!texts[2].contains("beyond") && !texts[2].contains("edge"), qPrintable(texts[2]));
    }

    void toolTipsNameTheGpuTheKernelAndTheUnit()
    {
        ForecastSession session(nullptr, store());
        const QString gpu0 = session.selectedGpus().front();
        auto shown = [](ChartWidget& chart) { // laid out as on screen, so pixels map to data
            chart.resize(1200, 700);
            chart.show(); // hidden widgets get no resize events
            QVERIFY(QTest::qWaitForWindowExposed(&chart));
            chart.plot()->replot();
        };
        RooflineChart roofline(&session);
        roofline.setSelectedOperator("attn.qkv");
        shown(roofline);
        const RooflinePoint qkv = roofline.highlighted().front().point;
        QCPAxis* x = roofline.plot()->xAxis;
        QCPAxis* y = roofline.plot()->yAxis;
        const QString onKernel = roofline.toolTipAt({x->coordToPixel(qkv.intensity), y->coordToPixel(qkv.gflops)});
        QVERIFY2(onKernel.contains(gpu0) && onKernel.contains("attn.qkv") && onKernel.contains("GFLOP/s"), qPrintable(onKernel));
        // Both shares, which differ for a kernel of partial waves or re-read tiles: of the roof drawn
        // (compulsory traffic) and of its tiles' roofline, the table's Util.
        QVERIFY2(onKernel.contains(QString("%1% of the roofline of its tiles").arg(100 * qkv.utilization, 0, 'f', 0)), qPrintable(onKernel));
        QVERIFY2(onKernel.contains("of this roof"), qPrintable(onKernel));
        const QString sky = roofline.toolTipAt({x->coordToPixel(0.06), y->coordToPixel(y->range().upper * 0.9)});
        QVERIFY2(sky.isEmpty(), qPrintable(sky)); // nothing up there

        WavesChart waves(&session);
        waves.setSelectedOperator("attn.qkv");
        shown(waves);
        const auto& sweep = waves.sweeps()[1];
        const std::size_t mid = sweep.dimension.size() / 2;
        const QString onStep = waves.toolTipAt({waves.plot()->xAxis->coordToPixel(sweep.dimension[mid]),
                                                waves.plot()->yAxis->coordToPixel(sweep.ms[mid])});
        QVERIFY2(onStep.contains(sweep.gpu) && onStep.contains("attn.qkv") && onStep.contains(" ms"), qPrintable(onStep));
        QCPAxisRect* lawRect = waves.plot()->axisRects().front() == waves.plot()->xAxis->axisRect()
                                   ? waves.plot()->axisRects().back()
                                   : waves.plot()->axisRects().front();
        const auto& curve = waves.curves().front();
        const QString onOwn = waves.toolTipAt({lawRect->axis(QCPAxis::atBottom)->coordToPixel(curve.ownWaves),
                                               lawRect->axis(QCPAxis::atLeft)->coordToPixel(curve.ownUtilization)});
        QVERIFY2(onOwn.contains(gpu0) && onOwn.contains("utilization") && onOwn.contains("wave"), qPrintable(onOwn));
        // It also gives the kernel's utilization inside the model, the operator table's "Util.".
        int forwardQkv = 0;
        for (const auto& op : session.forecasts()->front().ops)
            if (op.op.node == "attn.qkv" && op.op.phase == Phase::Forward) {
                const QString util = QString("%1%").arg(100 * op.forecast.utilization, 0, 'f', 1);
                QVERIFY2(onOwn.contains("in the model: " + util), qPrintable(onOwn + " / " + util));
                ++forwardQkv;
            }
        QCOMPARE(forwardQkv, 1);

        CompareChart compare(&session);
        shown(compare);
        const double e2e = session.forecasts()->front().totalSeconds() * 1e3;
        const QString onBar = compare.toolTipAt({compare.plot()->xAxis->coordToPixel(1), compare.plot()->yAxis->coordToPixel(e2e / 2)});
        QVERIFY2(onBar.contains(gpu0) && onBar.contains(QString::number(e2e, 'f', 2) + " ms"), qPrintable(onBar));

        SensitivityChart sensitivity(&session);
        shown(sensitivity);
        const SpecSensitivity top = sensitivity.shown().front(); // drawn as the top row, the last key
        auto* lower = qobject_cast<QCPBars*>(sensitivity.plot()->plottable(0)); // the "x 0.8" bars
        QPointF tip = lower->dataPixelPosition(int(sensitivity.shown().size()) - 1);
        tip.setX((tip.x() + sensitivity.plot()->xAxis->coordToPixel(0)) / 2); // halfway along the bar
        const QString onRow = sensitivity.toolTipAt(tip);
        QVERIFY2(onRow.contains(QString::fromStdString(top.label)) && onRow.contains(QString::number(100 * top.lowerChange, 'f', 1) + "%"),
                 qPrintable(onRow));
    }

    void sensitivityIsTakenAroundTheWhatIfGpu()
    {
        ForecastSession session(nullptr, store());
        const QString gpu = session.selectedGpus().front();
        SensitivityChart chart(&session);
        chart.setGpu(gpu);
        auto bandwidthGain = [&] {
            for (const auto& r : chart.shown())
                if (r.field == "memory_bandwidth_gbps")
                    return -r.higherChange; // time saved by 20% more bandwidth
            return -1.0;
        };
        const double before = bandwidthGain();
        QVERIFY(before > 0);
        ForecastSession::WhatIf w;
        w.bandwidth = 4; // bandwidth is then plentiful: another 20% buys less
        session.setWhatIf(gpu, w);
        QVERIFY(bandwidthGain() < before);
    }

    void compareSpeedUpFollowsTheChosenBaseline()
    {
        ForecastSession session(nullptr, store());
        CompareChart compare(&session);
        compare.resize(1200, 700); // wide enough for the full labels of the default GPUs
        compare.show();
        QVERIFY(QTest::qWaitForWindowExposed(&compare));
        const QStringList gpus = session.selectedGpus();
        QVERIFY(gpus.size() >= 2);
        QCOMPARE(compare.baseline(), gpus.front());
        auto labels = [&] {
            QStringList texts;
            for (int i = 0; i < compare.plot()->itemCount(); ++i)
                if (auto* t = qobject_cast<QCPItemText*>(compare.plot()->item(i)))
                    texts << t->text();
            return texts;
        };
        const QString chosen = gpus.last();
        compare.setBaseline(chosen);
        QCOMPARE(compare.baseline(), chosen);
        const QStringList texts = labels();
        QCOMPARE(texts.size(), gpus.size());
        const auto& f = *session.forecasts();
        const double base = f.back().totalSeconds();
        for (int g = 0; g < gpus.size(); ++g) { // label g: speed-up of GPU g against the chosen one
            const QString expected = QString::number(base / f[std::size_t(g)].totalSeconds(), 'f', 2) + "x vs " + chosen;
            QVERIFY2(texts[g].contains(expected), qPrintable(texts[g] + " / " + expected));
        }
        compare.setBaseline("no such GPU"); // ignored
        QCOMPARE(compare.baseline(), chosen);
        session.setGpuSelected(chosen, false); // the baseline leaves the comparison: back to the first
        QCOMPARE(compare.baseline(), gpus.front());
        session.setGpuSelected(chosen, true); // and comes back as the baseline with it
        QCOMPARE(compare.baseline(), chosen);
        if (qEnvironmentVariableIsSet("GPUFORECAST_SAVE_CHARTS")) // for looking at it by eye
            compare.plot()->savePng(qEnvironmentVariable("GPUFORECAST_SAVE_CHARTS") + "/compare.png", 1200, 700);
    }

    // On a 1366 x 768 screen the left column needs more height than there is: it scrolls, so
    // every panel keeps its size (the what-if note was cut off), and keeps the width it needs.
    void leftColumnScrollsOnAShortScreen()
    {
        ForecastSession session(nullptr, store());
        MainWindow window(&session);
        window.resize(1366, 768);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        auto* column = window.findChild<QScrollArea*>("leftColumn");
        QVERIFY(column && column->widget());
        QCoreApplication::processEvents();
        const QWidget* content = column->widget();
        QVERIFY(content->height() >= content->minimumSizeHint().height());
        QVERIFY(content->width() >= content->minimumSizeHint().width());
        QVERIFY(content->height() > column->viewport()->height()); // it does scroll here
    }

    // The text above the bars stays inside the plot in a short window, where a fixed share of the
    // range left the tallest bar's first line (its time) above the top (a 1366 x 768 screen).
    void labelsAboveBarsFitAShortWindow()
    {
        ForecastSession session(nullptr, store());
        session.setSelectedGpus({"A100-SXM4-80GB", "H100-SXM5-80GB", "L40S", "MI300X", "L4", "H200-SXM-141GB"});
        CompareChart compare(&session);
        BreakdownChart breakdown(&session);
        breakdown.setSelectedOperator("mlp.fc");
        for (ChartWidget* chart : std::initializer_list<ChartWidget*>{&compare, &breakdown})
            for (const QSize size : {QSize(900, 300), QSize(1400, 700)}) {
                chart->resize(size);
                chart->show();
                QVERIFY(QTest::qWaitForWindowExposed(chart));
                QCoreApplication::processEvents(); // the queued replots that make room
                chart->plot()->replot();
                const QRect rect = chart->plot()->axisRect()->rect();
                int labels = 0;
                for (int i = 0; i < chart->plot()->itemCount(); ++i)
                    if (auto* t = qobject_cast<QCPItemText*>(chart->plot()->item(i)); t && !t->text().isEmpty()) {
                        ++labels;
                        QVERIFY2(t->top->pixelPosition().y() >= rect.top() - 1,
                                 qPrintable(QString("%1 at %2x%3: '%4' starts at y %5, the plot at %6")
                                                .arg(chart->metaObject()->className())
                                                .arg(size.width())
                                                .arg(size.height())
                                                .arg(t->text())
                                                .arg(t->top->pixelPosition().y())
                                                .arg(rect.top())));
                    }
                QCOMPARE(labels, 6);
            }
    }

    // On a laptop screen the Waves titles and the note on the staircase take a shorter form that
    // fits their panel, where the full ones ran into each other and off the plot.
    void wavesTextFitsANarrowPanel()
    {
        ForecastSession session(nullptr, store());
        session.setSelectedGpus({"A100-SXM4-80GB", "H100-SXM5-80GB", "L40S", "MI300X", "L4", "H200-SXM-141GB"});
        WavesChart chart(&session);
        chart.setSelectedOperator("mlp.fc");
        for (const QSize size : {QSize(900, 320), QSize(1600, 700)}) {
            chart.resize(size);
            chart.show();
            QVERIFY(QTest::qWaitForWindowExposed(&chart));
            chart.plot()->replot();
            int titles = 0;
            for (QCPLayoutElement* e : chart.plot()->plotLayout()->elements(true))
                if (auto* title = qobject_cast<QCPTextElement*>(e)) {
                    ++titles;
                    QVERIFY2(QFontMetrics(title->font()).horizontalAdvance(title->text()) <= title->outerRect().width(),
                             qPrintable(title->text()));
                    QVERIFY(title->text().contains("vs."));
                }
            QCOMPARE(titles, 2);
            const QCPAxisRect* staircase = chart.plot()->xAxis->axisRect(); // QCustomPlot's own axes
            bool noted = false;
            for (int i = 0; i < chart.plot()->itemCount(); ++i)
                if (auto* t = qobject_cast<QCPItemText*>(chart.plot()->item(i)); t && t->text().startsWith("this model")) {
                    noted = true;
                    QVERIFY(t->visible());
                    QVERIFY2(t->right->pixelPosition().x() <= staircase->rect().right() + 1,
                             qPrintable(QString("%1 (right %2, plot %3..%4, %5 px wide)").arg(t->text()).arg(t->right->pixelPosition().x()).arg(staircase->rect().left()).arg(staircase->rect().right()).arg(size.width())));
                    QCOMPARE(t->text().count('\n'), 6); // the kernel's size, then every GPU
                }
            QVERIFY(noted);
        }
    }

    // Eight GPUs' full labels ran into each other and off the plot. Where a label does not fit its
    // bar's slot, every bar shows time and speed-up only, and the hover has the rest.
    // A log latency axis keeps a P4 and a B200 both readable; every bar starts below the fastest
    // GPU's time and every label sits above its bar, inside the axis.
    void compareHasALogScale()
    {
        ForecastSession session(nullptr, store());
        session.setSelectedGpus({"P4", "B200-SXM-180GB", "H100-SXM5-80GB", "T4"});
        CompareChart compare(&session);
        compare.resize(1400, 700);
        compare.show();
        QVERIFY(QTest::qWaitForWindowExposed(&compare));
        auto* box = compare.findChild<QCheckBox*>("compareLogScale");
        QVERIFY(box);
        for (const bool log : {true, false}) {
            box->setChecked(log);
            QCOMPARE(compare.logScale(), log);
            compare.plot()->replot();
            const QCPAxis* y = compare.plot()->yAxis;
            QCOMPARE(y->scaleType(), log ? QCPAxis::stLogarithmic : QCPAxis::stLinear);
            double fastest = INFINITY;
            for (const auto& f : *session.forecasts())
                fastest = std::min(fastest, f.totalSeconds() * 1e3);
            QVERIFY(log ? y->range().lower > 0 && y->range().lower < fastest : y->range().lower == 0);
            int labels = 0;
            for (int i = 0; i < compare.plot()->itemCount(); ++i)
                if (auto* t = qobject_cast<QCPItemText*>(compare.plot()->item(i))) {
                    ++labels;
                    const double at = t->position->value();
                    QVERIFY2(at > fastest * 0.999 && y->range().contains(at), qPrintable(t->text()));
                }
            QCOMPARE(labels, 4);
            // Each bar's top is its GPU's time (QCPBars draws from its base to base + value).
            auto* bars = qobject_cast<QCPBars*>(compare.plot()->plottable(0));
            QVERIFY(bars);
            for (int g = 0; g < 4; ++g) {
                const double ms = (*session.forecasts())[std::size_t(g)].totalSeconds() * 1e3;
                QVERIFY(std::abs(bars->baseValue() + (bars->data()->constBegin() + g)->value - ms) < 1e-9 * ms);
            }
        }
    }

    // Bars over one axis read in its unit: "2282.3 ms" beside "84.34 s" on a seconds axis made
    // readers compare digits across units. The status bar lists the GPUs the same way, and with
    // many only the fastest and slowest (twenty were cut off mid-id).
    void stepTimesReadInOneUnit()
    {
        ForecastSession session(nullptr, store());
        QVERIFY(!session.setModel("gpt2_large"));
        QVERIFY(!session.setOptions(GraphOptions{16, 1024, true, false}));
        session.setSelectedGpus({"H100-SXM5-80GB", "P4"});
        const auto& f = *session.forecasts();
        QVERIFY(f[0].totalSeconds() < 10 && f[1].totalSeconds() > 10); // one each side of formatMs's switch
        CompareChart compare(&session);
        compare.resize(1400, 700);
        compare.show();
        QVERIFY(QTest::qWaitForWindowExposed(&compare));
        compare.plot()->replot();
        QStringList firstLines;
        for (int i = 0; i < compare.plot()->itemCount(); ++i)
            if (auto* t = qobject_cast<QCPItemText*>(compare.plot()->item(i)))
                firstLines << t->text().section('\n', 0, 0);
        QCOMPARE(firstLines, QStringList({QString("%1 s").arg(f[0].totalSeconds(), 0, 'f', 2),
                                          QString("%1 s").arg(f[1].totalSeconds(), 0, 'f', 2)}));
        QVERIFY(compare.plot()->yAxis->label().contains("(s, FP32)"));
        const QString hover = compare.toolTipAt({compare.plot()->xAxis->coordToPixel(1),
                                                 compare.plot()->yAxis->coordToPixel(f[0].totalSeconds() * 500)});
        QVERIFY2(hover.contains(": " + firstLines[0] + " per step") && !hover.contains(" ms"), qPrintable(hover));

        MainWindow window(&session);
        QCOMPARE(window.statusBar()->currentMessage(),
                 QString("H100-SXM5-80GB: %1   ·   P4: %2").arg(firstLines[0], firstLines[1]));
        session.setSelectedGpus({"H100-SXM5-80GB", "P4", "T4", "V100-PCIE-32GB", "A100-PCIE-40GB", "L4"});
        const QString many = window.statusBar()->currentMessage();
        QVERIFY2(many.startsWith("6 GPUs; fastest H100-SXM5-80GB: ") && many.contains("slowest P4: ") &&
                     !many.contains("T4") && !many.contains(" ms"),
                 qPrintable(many));
    }

    void compareLabelsFitTheirBars()
    {
        ForecastSession session(nullptr, store());
        const QStringList eight{"H100-SXM5-80GB", "A100-SXM4-80GB", "MI300X", "V100-PCIE-32GB", "T4", "L4", "RTX-4090", "A10"};
        session.setSelectedGpus(eight);
        QCOMPARE(session.selectedGpus().size(), eight.size());
        CompareChart compare(&session);
        auto labels = [&] {
            QList<QCPItemText*> items;
            for (int i = 0; i < compare.plot()->itemCount(); ++i)
                if (auto* t = qobject_cast<QCPItemText*>(compare.plot()->item(i)))
                    items << t;
            return items;
        };
        auto widestLine = [](QCPItemText* t) {
            int widest = 0;
            for (const QString& line : t->text().split('\n'))
                widest = std::max(widest, QFontMetrics(t->font()).horizontalAdvance(line));
            return widest;
        };
        for (const int width : {900, 2400}) {
            compare.resize(width, 700);
            compare.show();
            QVERIFY(QTest::qWaitForWindowExposed(&compare));
            QTest::qWait(50);
            compare.plot()->replot();
            const double slot = compare.plot()->xAxis->coordToPixel(2) - compare.plot()->xAxis->coordToPixel(1);
            const QList<QCPItemText*> items = labels();
            QCOMPARE(items.size(), eight.size());
            for (QCPItemText* t : items)
                QVERIFY2(widestLine(t) <= slot, qPrintable(QString("%1 px in a %2 px slot: %3").arg(widestLine(t)).arg(slot).arg(t->text())));
            const double ms = session.forecasts()->front().totalSeconds() * 1e3;
            const QString tip = compare.toolTipAt({compare.plot()->xAxis->coordToPixel(1), compare.plot()->yAxis->coordToPixel(ms / 2)});
            // GPU names slant where they would run into each other.
            QCOMPARE(compare.plot()->xAxis->tickLabelRotation() != 0, width == 900);
            if (width == 900) { // short labels; the details moved to the hover
                QVERIFY2(!items.front()->text().contains("tokens/s"), qPrintable(items.front()->text()));
                QVERIFY2(tip.contains("tokens/s") && tip.contains("x vs H100-SXM5-80GB"), qPrintable(tip));
            } else { // room for everything
                QVERIFY2(items.front()->text().contains("tokens/s"), qPrintable(items.front()->text()));
            }
            if (qEnvironmentVariableIsSet("GPUFORECAST_SAVE_CHARTS")) // for looking at it by eye
                compare.plot()->savePng(qEnvironmentVariable("GPUFORECAST_SAVE_CHARTS") + QString("/compare8-%1.png").arg(width), width, 700);
        }
    }

    // Every bundled GPU at once (a procurement sweep): even the short labels would run into each
    // other, so each bar carries its time alone, upright, inside its own slot; the hover has the rest.
    void compareLabelsOfEveryGpuStayInTheirSlots()
    {
        ForecastSession session(nullptr, store());
        const QStringList all = session.bundledGpuIds();
        QVERIFY(all.size() >= 20);
        session.setSelectedGpus(all);
        CompareChart compare(&session);
        compare.resize(1200, 500);
        compare.show();
        QVERIFY(QTest::qWaitForWindowExposed(&compare));
        compare.plot()->replot();
        const double slot = compare.plot()->xAxis->coordToPixel(2) - compare.plot()->xAxis->coordToPixel(1);
        int labels = 0;
        for (int i = 0; i < compare.plot()->itemCount(); ++i) {
            auto* t = qobject_cast<QCPItemText*>(compare.plot()->item(i));
            if (!t)
                continue;
            ++labels;
            const QFontMetrics metrics(t->font());
            QCOMPARE(t->rotation(), -90.0);
            QVERIFY2(!t->text().contains('\n') && metrics.lineSpacing() <= slot, qPrintable(t->text()));
            // Above its bar, within the plot: the axis grew to hold the upright text.
            const double top = t->position->pixelPosition().y() - metrics.horizontalAdvance(t->text());
            QVERIFY2(top >= compare.plot()->yAxis->axisRect()->top() - 1, qPrintable(t->text()));
        }
        QCOMPARE(labels, int(all.size()));
        const double ms = session.forecasts()->front().totalSeconds() * 1e3;
        const QString tip = compare.toolTipAt({compare.plot()->xAxis->coordToPixel(1), compare.plot()->yAxis->coordToPixel(ms / 2)});
        QVERIFY2(tip.contains("tokens/s") && tip.contains("x vs "), qPrintable(tip)); // the details, on hover
    }

    // Every bundled GPU on Waves: the legend wraps into columns rather than drawing its entries over
    // each other, and the staircase's note lists the first GPUs and counts the rest.
    void wavesWithEveryGpuStaysReadable()
    {
        ForecastSession session(nullptr, store());
        const QStringList all = session.bundledGpuIds();
        session.setSelectedGpus(all);
        WavesChart waves(&session);
        waves.setSelectedOperator("mlp.fc");
        waves.resize(1400, 420);
        waves.show();
        QVERIFY(QTest::qWaitForWindowExposed(&waves));
        waves.plot()->replot(QCustomPlot::rpImmediateRefresh);
        waves.plot()->replot(QCustomPlot::rpImmediateRefresh); // the wrap takes effect in the next layout
        QCPLegend* legend = waves.plot()->legend;
        QVERIFY(legend->wrap() > 0);
        QVERIFY2(legend->outerRect().bottom() <= waves.plot()->viewport().bottom(),
                 qPrintable(QString("legend to %1 px in a %2 px chart").arg(legend->outerRect().bottom()).arg(waves.plot()->viewport().bottom())));
        QList<QRect> entries; // a wrapped grid has empty cells: its elements, not item(i)
        for (QCPLayoutElement* e : legend->elements(false))
            if (e)
                entries << e->outerRect();
        QVERIFY(entries.size() > all.size()); // every GPU, and the roofline and markers
        for (int i = 0; i < entries.size(); ++i) // no entry drawn over another
            for (int j = i + 1; j < entries.size(); ++j)
                QVERIFY2(!entries[i].intersects(entries[j]), qPrintable(QString("entries %1 and %2").arg(i).arg(j)));
        QString note;
        for (int i = 0; i < waves.plot()->itemCount(); ++i)
            if (auto* t = qobject_cast<QCPItemText*>(waves.plot()->item(i)); t && t->text().contains("this model"))
                note = t->text();
        QVERIFY2(note.contains("more GPU") && note.count('\n') < all.size(), qPrintable(note));
        // Each GPU's wave-count point, in the order drawn: GPUs 0 and 12 share a colour, not a shape.
        std::vector<QCPScatterStyle::ScatterShape> marks;
        for (int i = 0; i < waves.plot()->graphCount(); ++i)
            if (waves.plot()->graph(i)->name() == "this kernel's wave count")
                marks.push_back(waves.plot()->graph(i)->scatterStyle().shape());
        QVERIFY(marks.size() > 12);
        QVERIFY(marks[12] != marks[0]);
        session.setSelectedGpus({"T4", "A10"}); // back to a few: one column again
        waves.plot()->replot(QCustomPlot::rpImmediateRefresh);
        waves.plot()->replot(QCustomPlot::rpImmediateRefresh);
        QCOMPARE(legend->wrap(), 0);
        QCOMPARE(legend->columnCount(), 1);
    }

    // Where somebody timed exactly what is compared (model, batch, sequence, mode, layout, GPU), a
    // mark sits at the measured time beside the bar, and the hover says whose run it was and how
    // far the forecast is from it. A what-if or another batch is not what was timed: no mark.
    void compareMarksMeasuredRuns()
    {
        ForecastSession session(nullptr, store()); // GPT-2 large, 4 x 1024, inference
        session.setSelectedGpus({"V100-PCIE-32GB", "H200-SXM-141GB", "L4"});
        CompareChart compare(&session);
        compare.resize(1200, 600);
        compare.show();
        QVERIFY(QTest::qWaitForWindowExposed(&compare));
        compare.plot()->replot();
        auto marks = [&]() -> const QCPGraph* {
            for (int i = 0; i < compare.plot()->graphCount(); ++i)
                if (compare.plot()->graph(i)->objectName() == "measuredRuns")
                    return compare.plot()->graph(i);
            return nullptr;
        };
        const auto measuredMs = [](const char* path) {
            return nlohmann::json::parse(readFile(std::string(GPUFORECAST_RESOURCES) + path))["e2e_latency"].get<double>();
        };
        const QCPGraph* m = marks();
        QVERIFY(m && m->data()->size() == 2); // L4 was never timed
        QCOMPARE(m->data()->at(0)->key, 1.0);
        QCOMPARE(m->data()->at(0)->value, measuredMs("/datasets/neusight/e2e/V100-PCIE-32GB/gpt2_large-inf-1024-4.json"));
        QCOMPARE(m->data()->at(1)->key, 2.0);
        QCOMPARE(m->data()->at(1)->value, measuredMs("/datasets/h200/e2e/H200-SXM-141GB/gpt2_large-inf-1024-4.json"));
        QVERIFY2(compare.plot()->yAxis->label().endsWith("measured run"), qPrintable(compare.plot()->yAxis->label()));
        const auto hover = [&](double key) {
            return compare.toolTipAt({compare.plot()->xAxis->coordToPixel(key), compare.plot()->yAxis->coordToPixel(1)});
        };
        QVERIFY2(hover(1).contains("Measured: ") && hover(1).contains("NeuSight, run gpt2_large-inf-1024-4") &&
                     hover(1).contains("% slower"),
                 qPrintable(hover(1)));
        QVERIFY2(hover(2).contains("our H200 runs"), qPrintable(hover(2)));
        QVERIFY2(!hover(3).contains("Measured"), qPrintable(hover(3)));
        ForecastSession::WhatIf faster;
        faster.bandwidth = 1.2;
        session.setWhatIf("V100-PCIE-32GB", faster); // no longer the V100 that was timed
        QCOMPARE(marks()->data()->size(), 1);
        session.setWhatIf("V100-PCIE-32GB", ForecastSession::WhatIf{});
        GraphOptions o = session.options();
        o.batch = 3;
        QVERIFY(!session.setOptions(o));
        QVERIFY(!marks());
        QVERIFY(!compare.plot()->yAxis->label().contains("measured"));
    }

    // Quantities keep their own unit: a long step reads in seconds or minutes, a slow rate keeps
    // its figures, a small copy its bytes. None is ever printed as zero.
    void quantitiesReadInTheirOwnUnits()
    {
        QCOMPARE(formatMs(61.84), QString("61.8 ms"));
        QCOMPARE(formatMs(9999.94), QString("9999.9 ms"));
        QCOMPARE(formatMs(65005.389), QString("65.01 s"));
        QCOMPARE(formatMs(733166.4), QString("12.2 min"));
        QCOMPARE(formatMs(4e7), QString("11.1 h"));
        QCOMPARE(formatRate(0.02134, "tokens/s"), QString("0.0213 tokens/s"));
        QCOMPARE(formatRate(0.985, "samples/s"), QString("0.985 samples/s"));
        QCOMPARE(formatRate(812.4, "tokens/s"), QString("812 tokens/s"));
        QCOMPARE(formatRate(12345, "tokens/s"), QString("12.3 k tokens/s"));
        QCOMPARE(formatRate(1.234e6, "tokens/s"), QString("1.23 M tokens/s"));
        QCOMPARE(formatBytes(0), QString("0 B"));
        QCOMPARE(formatBytes(4096), QString("4.10 kB"));
        QCOMPARE(formatBytes(999.7e3), QString("1.00 MB"));
        QCOMPARE(formatBytes(16.78e6), QString("16.8 MB"));
        QCOMPARE(formatLatencyIn(61.84, latencyUnitFor(100)), QString("61.8 ms"));
        QCOMPARE(formatLatencyIn(61.84, latencyUnitFor(2e4)), QString("0.0618 s")); // beside a 20 s bar
        QCOMPARE(formatLatencyIn(65005.389, latencyUnitFor(2e4)), QString("65.01 s"));
        QCOMPARE(formatLatencyIn(733166.4, latencyUnitFor(2e4)), QString("733.17 s"));
        QCOMPARE(formatLatencyIn(7331664, latencyUnitFor(2e4)), QString("7332 s"));

        // BERT-large training at batch 64 on a P4: a minute a step, 0.98 samples a second.
        ForecastSession session(nullptr, store());
        QVERIFY(!session.setOptions(GraphOptions{64, 512, true, false}).has_value()); // BERT has 512 positions
        const auto refused = session.setModel("bert_large");
        QVERIFY2(!refused, qPrintable(refused.value_or("")));
        session.setSelectedGpus({"P4", "T4"});
        CompareChart compare(&session);
        compare.resize(2400, 800); // room for the full labels
        compare.show();
        QVERIFY(QTest::qWaitForWindowExposed(&compare));
        compare.plot()->replot();
        const double slowestMs = session.forecasts()->front().totalSeconds() * 1e3;
        QVERIFY2(slowestMs > 2e4 && slowestMs < 6e5, qPrintable(QString::number(slowestMs))); // seconds, not minutes
        QVERIFY2(compare.plot()->yAxis->label().contains("(s, FP32)"), qPrintable(compare.plot()->yAxis->label()));
        for (const QString& tick : compare.plot()->yAxis->tickVectorLabels()) // seconds: 0 to ~100, not 10^5 ms
            QVERIFY2(tick.toDouble() <= 2 * slowestMs / 1e3, qPrintable(tick));
        QStringList texts;
        for (int i = 0; i < compare.plot()->itemCount(); ++i)
            if (auto* t = qobject_cast<QCPItemText*>(compare.plot()->item(i)))
                texts << t->text();
        QCOMPARE(texts.size(), 2);
        QVERIFY2(texts.front().startsWith(formatMs(slowestMs) + '\n') && formatMs(slowestMs).endsWith(" s"),
                 qPrintable(texts.front()));
        QVERIFY2(texts.front().contains("samples/s"), qPrintable(texts.front())); // sized before shown, yet full
        const QRegularExpression zero("(^|[^0-9.])0\\.0* "); // "0.0 k tokens/s", "0.0 samples/s"
        for (const QString& text : texts)
            QVERIFY2(!text.contains(zero), qPrintable(text));
        BreakdownChart breakdown(&session);
        breakdown.show();
        QVERIFY(QTest::qWaitForWindowExposed(&breakdown));
        QVERIFY2(breakdown.plot()->yAxis->label().contains("(s)"), qPrintable(breakdown.plot()->yAxis->label()));
        QCOMPARE(classMs(breakdown, OpClass::Linear, 0) > 1e3, true); // the bars keep milliseconds
    }
};

QTEST_MAIN(TestUi)
#include "test_ui.moc"
