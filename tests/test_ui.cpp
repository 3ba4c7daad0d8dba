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
#include "model_panel.h"
#include "operator_table_model.h"
#include "quantity_format.h"
#include "sensitivity_chart.h"
#include "spec_table_model.h"
#include "waves_chart.h"
#include "what_if_panel.h"
#include "roofline_chart.h"
#include "ui_test_support.h"

#include "gpuforecast/csv.h"
#include "gpuforecast/file_io.h"
#include "gpuforecast/gpu_spec.h"

#include <nlohmann/json.hpp>

#include <qcustomplot.h>

#include <QAbstractItemModelTester>
#include <QTabWidget>

#include <memory>
#include <set>
#include <QImage>
#include <QTimer>
#include <QMessageBox>
#include <QSortFilterProxyModel>
#include <QStandardPaths>
#include <QHeaderView>
#include <QScrollBar>
#include <QTableView>
#include <QFont>
#include <QUndoStack>
#include <QLabel>
#include <QListView>
#include <QMap>
#include <QLineEdit>
#include <QStyledItemDelegate>
#include <QComboBox>
#include <QPushButton>
#include <QCheckBox>
#include <QDirIterator>
#include <QScrollArea>
#include <QSettings>
#include <QtTest>

using namespace gpuforecast;
using namespace gpuforecast::ui;
using gpuforecast::ui::test::shownAt;
using gpuforecast::ui::test::showOneSequence;
using gpuforecast::ui::test::DataWithoutHeldOutNetworks;
using gpuforecast::ui::test::itemTexts;
using gpuforecast::ui::test::writeText;

namespace {

int fieldRow(const char* key)
{
    const auto fields = specFields();
    for (std::size_t i = 0; i < fields.size(); ++i)
        if (std::string(fields[i].key) == key)
            return int(i);
    return -1;
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
        // Whole numbers in full at any size: LLaMA-3 8B's softmax over 131072 tokens read "1.62688e+07".
        QVERIFY(showOneSequence(session, "llama3_8b", 131072, "V100-PCIE-32GB"));
        ops.setGpu("V100-PCIE-32GB");
        double most = 0;
        for (int row = 0; row < ops.rowCount(); ++row) {
            const QString waves = ops.index(row, OperatorTableModel::Waves).data().toString();
            QVERIFY2(!waves.contains('e'), qPrintable(waves));
            most = std::max(most, ops.index(row, OperatorTableModel::Waves).data(OperatorTableModel::SortRole).toDouble());
        }
        QVERIFY(most > 1e6);
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
        // So does Tile of its shorthand ("128x128 /5 (as 256x4096)"), which is the library's.
        const QString tileTip = OperatorTableModel(&session).headerData(OperatorTableModel::Tile, Qt::Horizontal, Qt::ToolTipRole).toString();
        QVERIFY2(tileTip.contains("\"/5\"") && tileTip.contains("split-K") && tileTip.contains("padded"), qPrintable(tileTip));
        RooflineChart roofline(&session);
        QVERIFY(shownAt(roofline, 1200, 700));
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
        QVERIFY(showOneSequence(session, "gpt2_large", 1, "T4"));
        const auto [proj, onProj] = tipOn("attn.proj");
        const GpuSpec t4 = session.effectiveGpu("T4");
        QVERIFY(proj.intensity * t4.memoryBandwidthGBps < t4.gemmPeakGflops());
        QCOMPARE(proj.tileBound, QString("compute"));
        QVERIFY2(onProj.contains("The table's Bound says compute: it judges one tile as the GPU runs it, padded rows") &&
                     !onProj.contains("operand panels are read again"),
                 qPrintable(onProj));
    }

    // One token on an H100: shedding the launch overhead leaves the QKV projection less time than
    // its roofline allows, so it is priced at the roofline. Its "100%" is that floor, and both the
    // Roofline's hover and the table's Util. say so; a kernel the networks priced says nothing.
    void kernelsHeldAtTheirRooflineSaySo()
    {
        ForecastSession session(nullptr, store());
        QVERIFY(showOneSequence(session, "gpt2_large", 1, "H100-SXM5-80GB"));
        RooflineChart roofline(&session);
        QVERIFY(shownAt(roofline, 1200, 700));
        OperatorTableModel table(&session);
        table.setGpu("H100-SXM5-80GB");
        auto tips = [&](const char* op) {
            roofline.setSelectedOperator(op);
            roofline.plot()->replot();
            const RooflinePoint p = roofline.highlighted().front().point;
            const QString onPoint = roofline.toolTipAt({roofline.plot()->xAxis->coordToPixel(p.intensity),
                                                        roofline.plot()->yAxis->coordToPixel(p.gflops)});
            QString onUtil;
            for (int row = 0; row < table.rowCount(); ++row)
                if (table.index(row, OperatorTableModel::Name).data().toString() == op)
                    onUtil = table.index(row, OperatorTableModel::Utilization).data(Qt::ToolTipRole).toString();
            return std::tuple{p, onPoint, onUtil};
        };
        const auto [qkv, onQkv, qkvUtil] = tips("attn.qkv");
        QVERIFY(qkv.heldAtRoofline);
        QCOMPARE(qkv.utilization, 1.0);
        QVERIFY2(onQkv.contains("Held at its roofline"), qPrintable(onQkv));
        QVERIFY2(qkvUtil.contains("Held at its roofline"), qPrintable(qkvUtil));
        QVERIFY(showOneSequence(session, "gpt2_large", 1024, "H100-SXM5-80GB"));
        table.setGpu("H100-SXM5-80GB");
        const auto [fc, onFc, fcUtil] = tips("mlp.fc");
        QVERIFY(!fc.heldAtRoofline && fc.utilization < 1);
        QVERIFY2(!onFc.contains("Held at its roofline") && !fcUtil.contains("Held"), qPrintable(onFc));
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

    // The what-if SM slider at x2 on L4: kernels no faster than on L4 itself take L4's forecast,
    // tiles and waves included, and the Waves column says over how many SMs.
    void heldWhatIfKernelsSayWhoseWaves()
    {
        ForecastSession session(nullptr, store());
        QVERIFY(showOneSequence(session, "gpt2_large", 128, "L4"));
        ForecastSession::WhatIf twice;
        twice.sms = 2;
        session.setWhatIf("L4", twice);
        OperatorTableModel ops(&session);
        ops.setGpu("L4");
        const double l4Sms = session.gpu("L4")->smCount;
        int held = 0;
        for (int row = 0; row < ops.rowCount(); ++row) {
            const QModelIndex waves = ops.index(row, OperatorTableModel::Waves);
            if (!waves.data().toString().endsWith(QString(" on %1 SMs").arg(l4Sms)))
                continue;
            ++held;
            QVERIFY2(waves.data(Qt::ToolTipRole).toString().contains(QString("laid out on %1 SMs").arg(l4Sms)),
                     qPrintable(waves.data(Qt::ToolTipRole).toString()));
        }
        QVERIFY(held > 0);
        // The CSV export says so too, in its own column, as predict's JSON does (waves_on_sms).
        const auto rows = csv::parse(operatorTableCsv(ops, "L4"), "ops.csv");
        const auto smsColumn = std::size_t(std::find(rows.front().begin(), rows.front().end(), "waves_on_sms") - rows.front().begin());
        QVERIFY(smsColumn < rows.front().size());
        int exported = 0;
        for (std::size_t r = 1; r < rows.size(); ++r)
            exported += rows[r][smsColumn] == QString::number(l4Sms).toStdString();
        QCOMPARE(exported, held);
        session.setWhatIf("L4", ForecastSession::WhatIf{}); // L4 itself: its own SMs, nothing to say
        ops.setGpu("L4");
        for (int row = 0; row < ops.rowCount(); ++row)
            QVERIFY(!ops.index(row, OperatorTableModel::Waves).data().toString().contains("SMs"));
    }

    // A training step's two backward GEMMs of one layer had both read "bw": the Phase column names
    // the part, and the CSV keeps the phase and the part in columns of their own.
    void operatorTableNamesEachKernelsPart()
    {
        ForecastSession session(nullptr, store());
        QVERIFY(showOneSequence(session, "gpt2_large", 128, "T4"));
        QVERIFY(!session.setOptions(GraphOptions{1, 128, true, false}));
        OperatorTableModel ops(&session);
        ops.setGpu("T4");
        QStringList fcPhases;
        for (int row = 0; row < ops.rowCount(); ++row)
            if (ops.index(row, OperatorTableModel::Name).data().toString() == "mlp.fc")
                fcPhases << ops.index(row, OperatorTableModel::Phase).data().toString();
        fcPhases.sort();
        QCOMPARE(fcPhases, (QStringList{"acc: bias", "acc: weight", "bw: grad input", "bw: grad weight", "fw"}));
        const auto rows = csv::parse(operatorTableCsv(ops, "T4"), "ops.csv");
        const auto column = [&](const char* name) {
            return std::size_t(std::find(rows.front().begin(), rows.front().end(), name) - rows.front().begin());
        };
        QVERIFY(column("phase") + 1 == column("part"));
        QStringList exported;
        for (std::size_t r = 1; r < rows.size(); ++r)
            if (rows[r][column("operator")] == "mlp.fc")
                exported << QString::fromStdString(rows[r][column("phase")] + "|" + rows[r][column("part")]);
        exported.sort();
        QCOMPARE(exported, (QStringList{"acc|bias", "acc|weight", "bw|grad input", "bw|grad weight", "fw|"}));
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

    // On a 1366 x 768 laptop every column is in view without scrolling sideways: Dims, sized to
    // its contents, had pushed Util. and Bound off the right edge. Dims gives way, and shows a
    // single product's operands whole.
    void operatorTableFitsALaptopScreen()
    {
        ForecastSession session(nullptr, store());
        MainWindow window(&session);
        QVERIFY(shownAt(window, 1366, 768));
        auto* table = window.findChild<QTableView*>("operatorTable");
        QVERIFY(table);
        const QHeaderView* header = table->horizontalHeader();
        const int right = header->sectionViewportPosition(OperatorTableModel::Bound) + header->sectionSize(OperatorTableModel::Bound);
        QVERIFY2(right <= table->viewport()->width(),
                 qPrintable(QString("Bound ends at %1 px of a %2 px table").arg(right).arg(table->viewport()->width())));
        QVERIFY(!table->horizontalScrollBar()->isVisible());
        const QAbstractItemModel* ops = table->model();
        bool sawLmHead = false;
        for (int row = 0; row < ops->rowCount(); ++row) {
            if (ops->index(row, OperatorTableModel::Name).data().toString() != "lm_head")
                continue;
            sawLmHead = true; // GPT-2's head: one product, 4096 tokens of 1280 into 50257 words
            const QString dims = ops->index(row, OperatorTableModel::Dims).data().toString();
            QCOMPARE(dims, QString("4096x1280 · 1280x50257"));
            QVERIFY2(table->fontMetrics().horizontalAdvance(dims) + 8 <= header->sectionSize(OperatorTableModel::Dims),
                     qPrintable(QString("Dims is %1 px").arg(header->sectionSize(OperatorTableModel::Dims))));
        }
        QVERIFY(sawLmHead);
        QVERIFY(table->isColumnHidden(OperatorTableModel::Phase)); // "fw" on every row
        QVERIFY(!session.setOptions(GraphOptions{1, 128, true, false}).has_value()); // a training step
        QVERIFY(!table->isColumnHidden(OperatorTableModel::Phase));
        const int trainingRight = header->sectionViewportPosition(OperatorTableModel::Bound) + header->sectionSize(OperatorTableModel::Bound);
        QVERIFY2(trainingRight <= table->viewport()->width(), qPrintable(QString("training: Bound ends at %1 px").arg(trainingRight)));
        // A column the user widened stays as wide when the forecasts change, where fitting it to
        // the new rows would undo the drag on every edit.
        table->horizontalHeader()->resizeSection(OperatorTableModel::Name, 320); // as a drag of the header does
        QVERIFY(!session.setOptions(GraphOptions{2, 128, true, false}).has_value());
        QCOMPARE(header->sectionSize(OperatorTableModel::Name), 320);
    }

    // The GPU list shows the GPU whose sheet is open: scrolled to it at one height, a window
    // opened at 1600 x 1000 and placed at 1366 x 768 (as the app opens on a laptop) showed MI210-P4
    // with the open V100 out of view.
    void gpuListShowsTheOpenSheetsGpu()
    {
        ForecastSession session(nullptr, store());
        MainWindow window(&session);
        QVERIFY(shownAt(window, 1600, 1000));
        QTest::qWait(50);
        window.resize(1366, 768);
        auto* list = window.findChild<QListView*>("gpuList");
        QVERIFY(list && list->currentIndex().isValid());
        QCOMPARE(list->currentIndex().data(GpuListModel::IdRole).toString(), QString("V100-PCIE-32GB"));
        QTRY_VERIFY2(list->viewport()->rect().contains(list->visualRect(list->currentIndex())),
                     qPrintable(QString("row at %1 px of a %2 px list").arg(list->visualRect(list->currentIndex()).top()).arg(list->viewport()->height())));
    }

    // On a wide screen nothing is cut: Switch's "decoder.sparse.moe.expert.wo" read
    // "encoder.sp...expert.wo" at 1920 x 1080 beside an 800 px Dims column. On a narrow one Dims
    // keeps a readable width and the table scrolls, where it had shrunk to "...".
    void operatorTableCutsNothingWhenItFits()
    {
        ForecastSession session(nullptr, store());
        QVERIFY(!session.setModel("switchxl4"));
        QVERIFY(!session.setOptions(GraphOptions{8, 512, false, false}));
        MainWindow window(&session);
        QVERIFY(shownAt(window, 1920, 1080));
        auto* table = window.findChild<QTableView*>("operatorTable");
        QVERIFY(table);
        const QHeaderView* header = table->horizontalHeader();
        for (const int column : {int(OperatorTableModel::Name), int(OperatorTableModel::Dims), int(OperatorTableModel::Tile)})
            for (int row = 0; row < table->model()->rowCount(); ++row) {
                const QString text = table->model()->index(row, column).data().toString();
                QVERIFY2(table->fontMetrics().horizontalAdvance(text) < header->sectionSize(column),
                         qPrintable(QString("%1 in %2 px").arg(text).arg(header->sectionSize(column))));
            }
        QVERIFY(!session.setOptions(GraphOptions{8, 512, true, false})); // training: Phase comes back
        window.resize(1100, 700);
        QTest::qWait(50);
        const int dims = header->sectionSize(OperatorTableModel::Dims);
        QVERIFY2(dims >= table->fontMetrics().horizontalAdvance("16384x4096"), qPrintable(QString("Dims is %1 px").arg(dims)));
        QVERIFY(table->horizontalScrollBar()->maximum() > 0); // the rest is a scroll away
    }

    // Widths come from every row, not the filtered ones: measured while a filter showed only the
    // softmax rows and shown without it, Switch's table cut "memory (copy)" and "bw: grad input".
    void operatorTableMeasuresRowsTheFilterHides()
    {
        ForecastSession session(nullptr, store());
        QVERIFY(!session.setModel("switchxl4"));
        QVERIFY(!session.setOptions(GraphOptions{8, 512, true, false}));
        MainWindow window(&session);
        QVERIFY(shownAt(window, 1920, 1080));
        auto* table = window.findChild<QTableView*>("operatorTable");
        auto* filter = window.findChild<QLineEdit*>("operatorFilter");
        QVERIFY(table && filter);
        filter->setText("softmax");
        QVERIFY(!session.setOptions(GraphOptions{4, 512, true, false})); // new rows, measured under the filter
        filter->clear();
        const QHeaderView* header = table->horizontalHeader();
        for (const int column : {int(OperatorTableModel::Phase), int(OperatorTableModel::Bound), int(OperatorTableModel::Tile)})
            for (int row = 0; row < table->model()->rowCount(); ++row) {
                const QString text = table->model()->index(row, column).data().toString();
                QVERIFY2(table->fontMetrics().horizontalAdvance(text) < header->sectionSize(column),
                         qPrintable(QString("%1 in %2 px").arg(text).arg(header->sectionSize(column))));
            }
    }

    // A table a few pixels too wide gives those pixels, not a whole column's worth: Switch's
    // training step at 1500 px cut 767 names to 149 px beside a Dims column 45 px wider than its
    // text. While any name is cut, Dims is no wider than its text, and the columns fill the
    // viewport exactly where they can.
    void operatorTableGivesWayByThePixelsMissing()
    {
        ForecastSession session(nullptr, store());
        QVERIFY(!session.setModel("switchxl4"));
        QVERIFY(!session.setOptions(GraphOptions{8, 512, true, false}));
        MainWindow window(&session);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        auto* table = window.findChild<QTableView*>("operatorTable");
        QVERIFY(table);
        const QHeaderView* header = table->horizontalHeader();
        const auto widest = [table](int column) {
            int w = 0;
            for (int row = 0; row < table->model()->rowCount(); ++row)
                w = std::max(w, table->fontMetrics().horizontalAdvance(table->model()->index(row, column).data().toString()));
            return w;
        };
        const int nameText = widest(OperatorTableModel::Name), dimsText = widest(OperatorTableModel::Dims);
        for (const int width : {1366, 1440, 1500, 1600, 1700}) {
            window.resize(width, 900);
            QTest::qWait(30);
            const int name = header->sectionSize(OperatorTableModel::Name), dims = header->sectionSize(OperatorTableModel::Dims);
            if (name < nameText)
                QVERIFY2(dims <= dimsText + 24, qPrintable(QString("at %1 px: names in %2 px for %3, Dims %4 px for %5")
                                                              .arg(width).arg(name).arg(nameText).arg(dims).arg(dimsText)));
            if (table->horizontalScrollBar()->maximum() == 0)
                QCOMPARE(header->length(), table->viewport()->width());
        }
        window.resize(1366, 768); // a laptop: every column in view
        QTest::qWait(30);
        QCOMPARE(table->horizontalScrollBar()->maximum(), 0);
    }

    // Dragging Tile's right border moves it: Dims, left of Tile, had given up what Tile took, and
    // the border stood still under the pointer.
    void operatorTableDragMovesTheBorder()
    {
        ForecastSession session(nullptr, store());
        MainWindow window(&session);
        QVERIFY(shownAt(window, 1600, 1000));
        auto* table = window.findChild<QTableView*>("operatorTable");
        QVERIFY(table);
        QHeaderView* header = table->horizontalHeader();
        const auto rightOf = [header](int column) { return header->sectionPosition(column) + header->sectionSize(column); };
        const int before = rightOf(OperatorTableModel::Tile), dims = header->sectionSize(OperatorTableModel::Dims);
        header->resizeSection(OperatorTableModel::Tile, header->sectionSize(OperatorTableModel::Tile) + 60); // as a drag does
        QTest::qWait(30); // the horizontal scroll bar it brings must not refit the columns
        QCOMPARE(rightOf(OperatorTableModel::Tile), before + 60);
        QCOMPARE(header->sectionSize(OperatorTableModel::Dims), dims);
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
        QSignalSpy disagrees(&spec, &SpecTableModel::sheetDisagrees);
        QVERIFY(spec.setData(clock, "700", Qt::EditRole));
        QCOMPARE(session.gpu("V100-PCIE-32GB")->boostClockMhz, 700.0);
        QCOMPARE(session.forecasts()->front().totalSeconds(), before);
        // Said where the user looks after an edit, with the peak that would agree (80 x 64 x 2 x 0.7).
        QCOMPARE(disagrees.count(), 1);
        QVERIFY2(disagrees.front().front().toString().contains("the FP32 peak stays 14029 GFLOP/s") &&
                     disagrees.front().front().toString().contains("now make 7168 GFLOP/s"),
                 qPrintable(disagrees.front().front().toString()));
        QVERIFY(spec.setData(spec.index(fieldRow("sm_count"), SpecTableModel::ValueColumn), "90", Qt::EditRole));
        QCOMPARE(disagrees.count(), 1); // already disagreeing: said once
        undo.undo();
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
            // Which axes show, left and bottom of each panel (Waves has two): with no data there is
            // no range to draw, and a made-up 0-1 ms behind the hint read as a forecast.
            auto shownAxes = [&] {
                int n = 0;
                for (QCPAxisRect* rect : chart->plot()->axisRects())
                    for (QCPAxis* axis : rect->axes())
                        n += axis->visible() && axis->grid()->visible();
                return n;
            };
            const char* name = chart->metaObject()->className();
            session.setSelectedGpus({"T4"});
            QVERIFY2(hints() == 0, name);
            const int axesWithData = shownAxes();
            QVERIFY2(axesWithData >= 2, name);
            session.setSelectedGpus({});
            QVERIFY2(hints() == 1, name);
            QVERIFY2(!chart->plot()->legend->visible(), name);
            QVERIFY2(shownAxes() == 0, name);
            session.setSelectedGpus({"T4"});
            QVERIFY2(hints() == 0, name);
            QVERIFY2(chart->plot()->legend->visible() == (chart != &compare), name); // Compare has no legend
            QVERIFY2(shownAxes() == axesWithData, name);
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

    // A cell is edited as its text: the default editor for a double had been a spin box with two
    // decimals ("72.00" SMs) that clamped what it did not accept instead of saying why.
    void specCellsAreEditedAsText()
    {
        ForecastSession session(nullptr, store());
        QUndoStack undo;
        SpecTableModel spec(&session, &undo);
        spec.setGpu("T4");
        QTableView view;
        view.setModel(&spec);
        for (const char* key : {"sm_count", "memory_bandwidth_gbps"}) {
            const QModelIndex cell = spec.index(fieldRow(key), SpecTableModel::ValueColumn);
            QStyleOptionViewItem option;
            std::unique_ptr<QWidget> editor(view.itemDelegateForIndex(cell)->createEditor(view.viewport(), option, cell));
            view.itemDelegateForIndex(cell)->setEditorData(editor.get(), cell);
            auto* line = qobject_cast<QLineEdit*>(editor.get());
            QVERIFY2(line, editor->metaObject()->className());
            QCOMPARE(line->text().toDouble(), *specFieldValue(*session.gpu("T4"), key)); // exactly: Enter changes nothing
        }
        QCOMPARE(spec.index(fieldRow("sm_count"), SpecTableModel::ValueColumn).data(Qt::EditRole).toString(), QString("40"));
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
        // Fitting only just (19.3 of L4's 24 GiB): 20% less memory would not hold it, and that is said.
        QVERIFY(!session.setOptions(GraphOptions{1, 768, true, false}).has_value());
        chart.setGpu("V100-PCIE-32GB");
        chart.setGpu("L4");
        QVERIFY2(memoryNote().startsWith("no effect on time, but at x 0.8 (19.2 GiB) the model no longer fits (needs 19.3 GiB)"),
                 qPrintable(memoryNote()));
    }

    // A sheet of one SM cannot lose or gain a fifth of one: its SM row had said "no effect (under
    // 0.05%)", as if SMs did not matter to it. Three SMs move by a third, and the row says by how much.
    void sensitivityOfAWholeNumberOfSms()
    {
        ForecastSession session(nullptr, store());
        GpuSpec tiny = *session.gpu("T4");
        tiny.id = "T4 of one SM";
        tiny.fp32Gflops = tiny.fp32MatrixGflops = tiny.fp32Gflops / tiny.smCount;
        tiny.smCount = 1;
        QVERIFY(!session.addGpu(tiny));
        SensitivityChart chart(&session);
        chart.setGpu("T4 of one SM");
        const auto sm = std::find_if(chart.shown().begin(), chart.shown().end(), [](const SpecSensitivity& s) { return s.field == "sm_count"; });
        QVERIFY(sm != chart.shown().end());
        QVERIFY(!sm->moved());
        QCOMPARE(sm->lowerChange, 0.0);
        QStringList notes;
        for (int i = 0; i < chart.plot()->itemCount(); ++i)
            if (auto* t = qobject_cast<QCPItemText*>(chart.plot()->item(i)); t && t->objectName() == "noEffect")
                notes << t->text();
        QVERIFY2(notes.contains("cannot move by 20%: SMs are whole (1 here)"), qPrintable(notes.join(" | ")));
        tiny.id = "T4 of three SMs";
        tiny.fp32Gflops = tiny.fp32MatrixGflops = tiny.fp32Gflops * 3;
        tiny.smCount = 3;
        QVERIFY(!session.addGpu(tiny));
        chart.setGpu("T4 of three SMs");
        const auto three = std::find_if(chart.shown().begin(), chart.shown().end(), [](const SpecSensitivity& s) { return s.field == "sm_count"; });
        QCOMPARE(three->lowerFactor, 2.0 / 3);
        QCOMPARE(three->higherFactor, 4.0 / 3);
        QVERIFY(three->lowerChange > 0.05 && three->higherChange < -0.05);
        const int row = int(std::distance(chart.shown().begin(), three));
        chart.resize(900, 500);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        chart.plot()->replot(QCustomPlot::rpImmediateRefresh);
        auto* lower = qobject_cast<QCPBars*>(chart.plot()->plottable(0)); // the lower bars, keyed from the bottom row
        QPointF at = lower->dataPixelPosition(int(chart.shown().size()) - 1 - row);
        at.setX((at.x() + chart.plot()->xAxis->coordToPixel(0)) / 2); // halfway along the bar
        const QString tip = chart.toolTipAt(at);
        QVERIFY2(tip.contains("SM count x 0.67: step time ") && tip.contains("SM count x 1.33: step time -"), qPrintable(tip));
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
        twice.name = "A card of my own"; // nothing says which bundled sheet it came from
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
        // One that keeps a bundled sheet's name (an edited file imported) is told to name that
        // sheet, even beyond the measured range, where it borrows whichever GPU is nearest.
        GpuSpec slower = *session.gpu("A100-SXM4-80GB");
        slower.id = "my-a100";
        slower.memoryBandwidthGBps *= 0.6;
        QVERIFY(!session.addGpu(slower));
        panel.setGpu("my-a100");
        QVERIFY2(panel.coverageText().contains("my-a100 has the name of the bundled A100-SXM4-80GB") &&
                     panel.coverageText().contains("\"efficiency_basis\": \"A100-SXM4-80GB\""),
                 qPrintable(panel.coverageText()));
    }

    // A what-if far from its sheet is still "within" the measured GPUs (its basis is), but the
    // panel says the forecast extrapolates and names the ratios in its tooltip.
    void whatIfPanelSaysWhenAVariantLeavesItsBasisFarBehind()
    {
        ForecastSession session(nullptr, store());
        WhatIfPanel panel(&session);
        panel.setGpu("A100-PCIE-40GB");
        QVERIFY(!panel.coverageText().contains("extrapolates"));
        panel.setFactor(0, 1.5); // bandwidth: within a factor of 2 of the A100's ratios
        QVERIFY2(!panel.coverageText().contains("extrapolates"), qPrintable(panel.coverageText()));
        panel.setFactor(0, 4.0);
        QVERIFY2(panel.coverageText().contains("Within the range") && panel.coverageText().contains("extrapolates"),
                 qPrintable(panel.coverageText()));
        bool named = false;
        for (auto* label : panel.findChildren<QLabel*>())
            named = named || (label->text() == panel.coverageText() && label->toolTip().contains("memory bandwidth per SM"));
        QVERIFY(named);
    }

    // An unedited copy forecasts exactly as its source and draws on top of it; the legend says
    // so instead of naming a line nobody can see.
    void identicalForecastsSayWhichLineHidesTheOther()
    {
        ForecastSession session(nullptr, store());
        QVERIFY(showOneSequence(session, "gpt2_large", 512, "T4"));
        GpuSpec copy = *session.gpu("T4");
        copy.id = "T4 twin";
        copy.efficiencyBasisId = "T4"; // as the GUI's Duplicate sets it: T4's learned efficiency
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
        // Where the legend beside the plots takes its short names (too short a chart for rows above
        // them), a twin's is its own name and "(same)": with twenty GPUs "A100-SXM4-40GB (same as
        // A100-PCIE-40GB)" held a laptop's legend column twice as wide as the others.
        for (ChartWidget* chart : std::initializer_list<ChartWidget*>{&waves, &roofline}) {
            chart->resize(420, 150);
            chart->show();
            QVERIFY(QTest::qWaitForWindowExposed(chart));
            QTest::qWait(50);
            chart->plot()->replot(QCustomPlot::rpImmediateRefresh);
            QVERIFY2(names(chart->plot()).contains("T4 twin (same)"), qPrintable(names(chart->plot()).join(" | ")));
        }
    }

    // An H100 and an H200 run a compute-bound GEMM alike (the same SMs, the same borrowed
    // efficiency), and the H100's utilization curve and staircase vanished under the H200's. The
    // later of two lines within 1% of each other is dashed, so the one below shows through; lines
    // apart keep their solid pens.
    void wavesDashALineDrawnOverAnother()
    {
        ForecastSession session(nullptr, store());
        session.setSelectedGpus({"H100-SXM5-80GB", "H200-SXM-141GB", "A100-PCIE-40GB"});
        WavesChart waves(&session);
        waves.setSelectedOperator("mlp.proj"); // GPT-2 large's, compute-bound at batch 4 x 1024
        QMap<QString, QList<Qt::PenStyle>> styles; // per GPU: its utilization curve and its staircase
        for (int i = 0; i < waves.plot()->graphCount(); ++i) {
            const QCPGraph* g = waves.plot()->graph(i);
            if (g->lineStyle() != QCPGraph::lsNone && session.gpu(g->name()))
                styles[g->name()] << g->pen().style();
        }
        const QList<Qt::PenStyle> solid{Qt::SolidLine, Qt::SolidLine};
        QCOMPARE(styles.value("H100-SXM5-80GB"), solid);
        QCOMPARE(styles.value("H200-SXM-141GB"), (QList<Qt::PenStyle>{Qt::CustomDashLine, Qt::CustomDashLine}));
        QCOMPARE(styles.value("A100-PCIE-40GB"), solid);
    }

    // A third line over the same points took the second's {3, 3} dashes and covered them: the
    // H200 between an H100 and a copy of it vanished while the legend named it. The third line's
    // gaps are twice as long, so each of the three keeps a share.
    void wavesThirdLineLeavesTheSecondItsShare()
    {
        ForecastSession session(nullptr, store());
        GpuSpec copy = *session.gpu("H100-SXM5-80GB");
        copy.id = "H100-copy";
        QVERIFY(!session.addGpu(copy));
        session.setSelectedGpus({"H100-SXM5-80GB", "H200-SXM-141GB", "H100-copy"});
        WavesChart waves(&session);
        waves.setSelectedOperator("mlp.proj");
        QMap<QString, QList<QVector<qreal>>> dashes; // per GPU: its curve's and its staircase's pattern
        for (int i = 0; i < waves.plot()->graphCount(); ++i) {
            const QCPGraph* g = waves.plot()->graph(i);
            const QString id = g->property(kTwinOwnName).isValid() ? g->property(kTwinOwnName).toString() : g->name();
            if (g->lineStyle() != QCPGraph::lsNone && session.gpu(id))
                dashes[id] << (g->pen().style() == Qt::CustomDashLine ? g->pen().dashPattern() : QVector<qreal>{});
        }
        const QList<QVector<qreal>> solid{{}, {}}, over1{{3, 3}, {3, 3}}, over2{{3, 6}, {3, 6}};
        QCOMPARE(dashes.value("H100-SXM5-80GB"), solid);
        QCOMPARE(dashes.value("H200-SXM-141GB"), over1);
        QCOMPARE(dashes.value("H100-copy"), over2);
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
            QCOMPARE(label->text(), QString("Graph checked against whole-model runs on an H200"));
            QVERIFY2(label->toolTip().contains("H200") && label->toolTip().contains(model == std::string("gemma_7b") ? "gemma" : "mixtral"),
                     qPrintable(label->toolTip()));
        }
    }

    // The model panel gives the size a model card quotes, and a mixture of experts' active share.
    void modelPanelGivesTheModelsSize()
    {
        ForecastSession session(nullptr, store());
        MainWindow window(&session);
        auto* label = window.findChild<QLabel*>("modelSize");
        QVERIFY(label);
        QVERIFY(showOneSequence(session, "gpt2_large", 128, "T4"));
        QCOMPARE(label->text(), QString("774 M parameters, 36 layers"));
        QVERIFY(showOneSequence(session, "mixtral_8x7b", 128, "T4"));
        QCOMPARE(label->text(), QString("46.7 B parameters, 32 layers\n12.9 B active per token"));
        QVERIFY2(label->toolTip().contains("2 of the 8 experts"), qPrintable(label->toolTip()));
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
        // So does the caption under the bars, which an exported chart carries without the panel.
        window.resize(1600, 1000);
        const auto caption = [&] {
            window.breakdownChart()->plot()->replot(QCustomPlot::rpImmediateRefresh);
            return window.breakdownChart()->plot()->xAxis->label();
        };
        QVERIFY2(caption().endsWith(", inference, FP32 (config: bfloat16)"), qPrintable(caption()));
        QVERIFY(showOneSequence(session, "gpt2_large", 128, "T4"));
        QVERIFY(!label->isVisible());
        QVERIFY2(caption().endsWith(", inference, FP32"), qPrintable(caption()));
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

    // A config.json that cannot be read is refused in a dialog naming the file and field, as a
    // scenario or a GPU sheet is; the status bar alone was easily missed. The model stays.
    void badConfigIsRefusedInADialog()
    {
        ForecastSession session(nullptr, store());
        MainWindow window(&session);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        auto* panel = window.findChild<ModelPanel*>();
        QVERIFY(panel);
        QTemporaryDir dir;
        const QString path = dir.filePath("config.json");
        nlohmann::json config = nlohmann::json::parse(readFile(std::string(GPUFORECAST_RESOURCES) + "/models/mistral_7b.json"));
        config.erase("intermediate_size");
        writeFileAtomically(path.toStdString(), config.dump());
        const QString before = session.modelName();
        QString shown;
        QTimer::singleShot(50, [&] {
            if (auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget())) {
                shown = box->text();
                box->close();
            }
        });
        panel->openConfig(path);
        QVERIFY2(shown.contains(path) && shown.contains("intermediate_size"), qPrintable(shown));
        QCOMPARE(session.modelName(), before);
    }

    // A what-if, or an edit of a bundled sheet, is compared with the sheet unchanged: made the
    // baseline, a what-if bar read "1.00x vs H100-SXM5-80GB", against itself, and the stock H100
    // was gone from the chart.
    void changedGpuIsComparedWithItselfUnchanged()
    {
        ForecastSession session(nullptr, store());
        session.setSelectedGpus({"H100-SXM5-80GB", "A100-SXM4-80GB"});
        const double h100 = (*session.forecasts())[0].totalSeconds(), a100 = (*session.forecasts())[1].totalSeconds();
        QVERIFY(!session.unchangedSeconds("H100-SXM5-80GB") && !session.unchangedSeconds("A100-SXM4-80GB"));
        ForecastSession::WhatIf twice;
        twice.bandwidth = 2;
        session.setWhatIf("H100-SXM5-80GB", twice);
        const double faster = (*session.forecasts())[0].totalSeconds();
        QVERIFY(faster < h100);
        QCOMPARE(session.unchangedSeconds("H100-SXM5-80GB").value_or(0), h100);
        QVERIFY(!session.unchangedSeconds("A100-SXM4-80GB"));
        {
            CompareChart compare(&session);
            compare.resize(1600, 700); // room for the full labels
            compare.show();
            QVERIFY(QTest::qWaitForWindowExposed(&compare));
            const QStringList labels = itemTexts(compare.plot());
            QCOMPARE(labels.size(), 2);
            const QString gain = formatRatio(h100 / faster) + " vs H100-SXM5-80GB unchanged";
            QVERIFY2(labels[0].contains("1.00x vs H100-SXM5-80GB\n" + gain), qPrintable(labels[0]));
            QVERIFY2(!labels[1].contains("unchanged"), qPrintable(labels[1]));
        }
        // An edited bundled sheet: against the bundled one. Sliders back: nothing to compare.
        session.setWhatIf("H100-SXM5-80GB", ForecastSession::WhatIf{});
        QVERIFY(!session.unchangedSeconds("H100-SXM5-80GB"));
        GpuSpec halved = *session.gpu("A100-SXM4-80GB");
        halved.memoryBandwidthGBps /= 2;
        QVERIFY(!session.updateGpu(halved));
        QVERIFY((*session.forecasts())[1].totalSeconds() > a100);
        QCOMPARE(session.unchangedSeconds("A100-SXM4-80GB").value_or(0), a100);
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
        QVERIFY2(window.whatIfPanel()->coverageText().contains("like this one, draws 75 W or less"),
                 qPrintable(window.whatIfPanel()->coverageText()));
        window.whatIfPanel()->setGpu("L40S"); // 350 W: the A100's efficiency, whose kernels Ada runs
        QVERIFY2(window.whatIfPanel()->coverageText().contains("taken from A100-PCIE-40GB, the measured GPU of its GEMM kernel family"),
                 qPrintable(window.whatIfPanel()->coverageText()));
        QVERIFY(!window.whatIfPanel()->coverageText().contains("slot alone"));
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

    // A file has no mouse: an exported Compare chart does not point to its hover text, and the
    // window's chart still does after the export.
    void exportedChartsDoNotPointToTheHover()
    {
        ForecastSession session(nullptr, store());
        session.setSelectedGpus({"H100-SXM5-80GB", "V100-PCIE-32GB"}); // the H100 is beyond the measured GPUs
        MainWindow window(&session);
        QVERIFY(window.showChart("Compare"));
        auto* plot = qobject_cast<ChartWidget*>(window.findChild<QTabWidget*>()->currentWidget())->plot();
        QStringList drawn; // the labels as last laid out
        connect(plot, &QCustomPlot::afterLayout, this, [&] {
            drawn.clear();
            for (int i = 0; i < plot->itemCount(); ++i)
                if (auto* t = qobject_cast<QCPItemText*>(plot->item(i)))
                    drawn << t->text();
        });
        QTemporaryDir dir;
        QVERIFY(window.exportChart(dir.filePath("compare.png")));
        QVERIFY2(drawn.join('|').contains("beyond the measured GPUs") && !drawn.join('|').contains("hover"), qPrintable(drawn.join('|')));
        plot->toPixmap(1200, 700); // the same size for the window: the pointer is back
        QVERIFY2(drawn.join('|').contains("beyond the measured GPUs") && drawn.join('|').contains("(hover)"), qPrintable(drawn.join('|')));
    }

    // Without a saved layout the window opens at 1600 x 1000, or within the screen where that is
    // smaller: on a 1366 x 768 laptop it had opened past the screen's right and bottom edges.
    void windowOpensWithinTheScreen()
    {
        QCOMPARE(MainWindow::initialSize(QSize(2560, 1400)), QSize(1600, 1000));
        const QSize laptop = MainWindow::initialSize(QSize(1366, 728)); // less a task bar
        QVERIFY(laptop.width() <= 1366 && laptop.height() <= 728);
        QVERIFY(laptop.width() >= 1200 && laptop.height() >= 650); // and not needlessly small
        QCOMPARE(MainWindow::initialSize(QSize()), QSize(1600, 1000)); // no screen known: as before
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
            QCOMPARE(r[col("fits_tightly")], std::string(f[g].fitsTightly() ? "yes" : "no"));
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
        { // A GPU the model does not fit gets no rate per W or per $: an L4 that cannot hold
          // LLaMA-3 8B read 206 prompt tokens/s per $1k, first when the column was sorted.
            QVERIFY(!session.setLayout(ParallelLayout{}));
            const QString model = session.modelName();
            const GraphOptions options = session.options();
            QVERIFY(!session.setModel("llama3_8b"));
            QVERIFY(!session.setOptions(GraphOptions{1, 2048, false, false}));
            session.setSelectedGpus({"H100-SXM5-80GB", "L4"});
            const auto two = csv::parse(comparisonCsv(session, "H100-SXM5-80GB"), "comparison.csv");
            QCOMPARE(two.size(), std::size_t(3));
            QCOMPARE(two[1][col("fits")], std::string("yes"));
            QVERIFY(!two[1][col("tokens_per_s_per_w")].empty() && !two[1][col("tokens_per_s_per_1k_usd")].empty());
            QCOMPARE(two[2][col("fits")], std::string("no"));
            QCOMPARE(two[2][col("fits_tightly")], std::string("no"));
            QVERIFY(two[2][col("tokens_per_s_per_w")].empty() && two[2][col("tokens_per_s_per_1k_usd")].empty());
            QVERIFY(!two[2][col("tokens_per_s")].empty()); // how fast it would be, beside the fit
            CompareChart compare(&session);
            compare.resize(1600, 700); // wide enough for the full labels
            compare.show();
            QVERIFY(QTest::qWaitForWindowExposed(&compare));
            const QStringList labels = itemTexts(compare.plot());
            QCOMPARE(labels.size(), 2);
            QVERIFY2(labels[0].contains("per $1k") && labels[0].contains("fits in memory"), qPrintable(labels[0]));
            QVERIFY2(!labels[1].contains("per $1k") && !labels[1].contains("per W\n") && labels[1].contains("does NOT fit") &&
                         labels[1].contains("no rate per W or per $"),
                     qPrintable(labels[1]));
            // Mixtral at 4096 tokens takes 179 of a B200's 180 GiB: it fits, with no room for the
            // CUDA context, and the column says so as the chart does.
            QVERIFY(!session.setModel("mixtral_8x7b"));
            QVERIFY(!session.setOptions(GraphOptions{1, 4096, false, false}));
            session.setSelectedGpus({"B200-SXM-180GB"});
            const auto tight = csv::parse(comparisonCsv(session, "B200-SXM-180GB"), "comparison.csv");
            QCOMPARE(tight[1][col("fits")], std::string("yes"));
            QCOMPARE(tight[1][col("fits_tightly")], std::string("yes"));
            QVERIFY(!session.setOptions(options));
            QVERIFY(!session.setModel(model));
        }
        { // the coverage words, one GPU of each kind (the list above is gone with this selection)
            QVERIFY(!session.setLayout(ParallelLayout{}));
            session.setSelectedGpus({"L40S", "P4", "T4"});
            auto three = csv::parse(comparisonCsv(session, "T4"), "comparison.csv");
            QCOMPARE(three.size(), std::size_t(4));
            QCOMPARE(three[1][col("coverage")], std::string("beyond")); // on the A100's efficiency: no caution
            QCOMPARE(three[1][col("gemm_efficiency_from")], std::string("A100-PCIE-40GB"));
            QVERIFY2(three[1][col("caution")].empty(), three[1][col("caution")].c_str());
            // P4, forecast by networks trained without it, lies beyond the other four: on T4's too.
            QCOMPARE(three[2][col("coverage")], std::string("beyond"));
            QCOMPARE(three[3][col("coverage")], std::string("within"));
            // With networks that trained on P4 it keeps them, outside the others' bandwidth per SM.
            const DataWithoutHeldOutNetworks trainedOnP4;
            ForecastSession trained(nullptr, store());
            trained.setSelectedGpus({"L40S", "P4", "T4"});
            three = csv::parse(comparisonCsv(trained, "T4"), "comparison.csv");
            QCOMPARE(three[2][col("coverage")], std::string("near_edge"));
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
                QVERIFY(rows[i][col("waves_on_sms")].empty()); // a bundled GPU: over its own SMs
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
            // Its source names the copy, not NVIDIA's datasheet alone, so an exported sheet is honest.
            const QString source = QString::fromStdString(session.gpu(copyId)->source);
            QVERIFY2(source.startsWith("Copied from A100-PCIE-40GB in GPU Forecast") &&
                         source.endsWith(QString::fromStdString(session.gpu("A100-PCIE-40GB")->source)),
                     qPrintable(source));
            QCOMPARE(window.specModel()->gpuId(), copyId);
            {
                // A copy of the copy names the copy, and the original's source once.
                ForecastSession other(nullptr, store());
                MainWindow second(&other);
                second.specModel()->setGpu(copyId);
                for (auto* b : second.findChildren<QPushButton*>())
                    if (b->text() == "Duplicate")
                        b->click();
                QVERIFY(other.gpu(copyId + " copy"));
                const QString twice = QString::fromStdString(other.gpu(copyId + " copy")->source);
                QVERIFY2(twice.startsWith("Copied from " + copyId + " in GPU Forecast") &&
                             twice.count(QString::fromStdString(other.gpu("A100-PCIE-40GB")->source)) == 1 &&
                             twice.count("Copied from") == 1,
                         qPrintable(twice));
                other.removeGpu(copyId + " copy");
            }
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
        const auto* note = window.findChild<QLabel*>("loadProblems");
        QVERIFY(note);
        // The file by name in the status bar, not only in a tooltip a keyboard user cannot open.
        QCOMPARE(note->text(), QString("Your GPU sheets: a problem with broken.json (hover for details)"));
    }


    // Quantities keep their own unit: a long step reads in seconds or minutes, a slow rate keeps
    // its figures, a small copy its bytes. None is ever printed as zero.
    void quantitiesReadInTheirOwnUnits()
    {
        QCOMPARE(formatMs(61.84), QString("61.8 ms"));
        QCOMPARE(formatMs(0.1504), QString("0.150 ms")); // "0.2 ms" labelled a 0.15 ms bar
        QCOMPARE(formatMs(5.3), QString("5.30 ms"));
        QCOMPARE(formatMs(1415.24, 2), QString("1415.24 ms"));
        QCOMPARE(formatLatencyIn(0.1504, latencyUnitFor(1)), QString("0.150 ms"));
        QCOMPARE(formatMs(9999.94), QString("9999.9 ms"));
        QCOMPARE(formatMs(65005.389), QString("65.01 s"));
        QCOMPARE(formatMs(733166.4), QString("12.2 min"));
        QCOMPARE(formatMs(4e7), QString("11.1 h"));
        QCOMPARE(formatRate(0.02134, "tokens/s"), QString("0.0213 tokens/s"));
        QCOMPARE(formatRate(0.985, "samples/s"), QString("0.985 samples/s"));
        QCOMPARE(formatRate(812.4, "tokens/s"), QString("812 tokens/s"));
        QCOMPARE(formatRate(0.01, "tokens/s"), QString("0.0100 tokens/s"));
        QCOMPARE(formatRate(4.7012e-7, "samples/s"), QString::fromUtf8("4.70 \u00d7 10\u207b\u2077 samples/s"));
        QCOMPARE(formatRate(9.9996e-5, "samples/s"), QString::fromUtf8("1.00 \u00d7 10\u207b\u2074 samples/s"));
        QCOMPARE(formatRate(0.0012, "tokens/s"), QString::fromUtf8("1.20 \u00d7 10\u207b\u00b3 tokens/s"));
        QCOMPARE(formatRate(12345, "tokens/s"), QString("12.3 k tokens/s"));
        QCOMPARE(formatRate(1.234e6, "tokens/s"), QString("1.23 M tokens/s"));
        QCOMPARE(formatBytes(0), QString("0 B"));
        QCOMPARE(formatBytes(4096), QString("4.10 kB"));
        QCOMPARE(formatBytes(999.7e3), QString("1.00 MB"));
        QCOMPARE(formatBytes(16.78e6), QString("16.8 MB"));
        QCOMPARE(formatGiB(5.8 * 1073741824.0), QString("5.8 GiB"));
        QCOMPARE(formatGiB(1023.9 * 1073741824.0), QString("1023.9 GiB"));
        QCOMPARE(formatGiB(8573.8 * 1073741824.0), QString("8.37 TiB")); // not "8573.8 GiB"
        // The number alone, for "32.4 of 80 GiB": a 0.001 GB sheet had held "0.0 GiB".
        QCOMPARE(formatGiBAmount(80), QString("80"));
        QCOMPARE(formatGiBAmount(1.5), QString("1.5"));
        QCOMPARE(formatGiBAmount(684.04), QString("684.0"));
        QCOMPARE(formatGiBAmount(0.001 * 1e9 / 1073741824.0), QString("0.000931"));
        QCOMPARE(formatGiB(3.0 * 1125899906842624.0), QString("3.00 PiB"));
        QCOMPARE(formatLatencyIn(61.84, latencyUnitFor(100)), QString("61.8 ms"));
        QCOMPARE(formatLatencyIn(61.84, latencyUnitFor(2e4)), QString("0.0618 s")); // beside a 20 s bar
        QCOMPARE(formatLatencyIn(65005.389, latencyUnitFor(2e4)), QString("65.01 s"));
        QCOMPARE(formatLatencyIn(733166.4, latencyUnitFor(2e4)), QString("733.17 s"));
        QCOMPARE(formatLatencyIn(7331664, latencyUnitFor(2e4)), QString("7332 s"));
        QCOMPARE(formatLatencyIn(226963e3, latencyUnitFor(226963e3)), QString("63.05 h")); // not "226963 s"
        QCOMPARE(formatLatencyIn(7331664, latencyUnitFor(226963e3)), QString("2.04 h"));
        QCOMPARE(formatLatencyIn(5.12, latencyUnitFor(2e4)), QString("0.00512 s"));
        // Past three zeros, its own unit: an H100 beside a 1-GFLOP/s sheet read "0.000108 h".
        QCOMPARE(formatLatencyIn(388.8, latencyUnitFor(7e8)), QString("388.8 ms"));
        QCOMPARE(formatLatencyIn(1.5e4, latencyUnitFor(7e8)), QString("0.00417 h")); // two zeros: the axis unit still
        QCOMPARE(formatTableMs(0.0123), QString("0.012"));
        QCOMPARE(formatTableMs(123.4564), QString("123.456"));
        QCOMPARE(formatTableMs(1234.567), QString::fromUtf8("1\u2009234.57"));
        QCOMPARE(formatTableMs(1000313.686), QString::fromUtf8("1\u2009000\u2009314")); // was "1000313.686"
        QCOMPARE(formatTableMs(0), QString("0.000"));
        QCOMPARE(formatRatio(1.3712), QString("1.37x"));
        QCOMPARE(formatRatio(0.000108), QString("0.000108x")); // was "0.00x"
        QCOMPARE(formatRatio(9259.3), QString("9259x"));

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
        QVERIFY2(compare.plot()->yAxis->label().contains("(s)"), qPrintable(compare.plot()->yAxis->label()));
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
        breakdown.resize(1200, 600); // shown at its 218 x 100 size hint, the title is the shortest form: "s"
        breakdown.show();
        QVERIFY(QTest::qWaitForWindowExposed(&breakdown));
        QVERIFY2(breakdown.plot()->yAxis->label().contains("(s)"), qPrintable(breakdown.plot()->yAxis->label()));
        QCOMPARE(classMs(breakdown, OpClass::Linear, 0) > 1e3, true); // the bars keep milliseconds
    }
};

QTEST_MAIN(TestUi)
#include "test_ui.moc"
