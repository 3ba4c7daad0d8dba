// The charts as a reader sees them: what each draws, what its hover says, and that labels,
// legends and markers stay legible with many GPUs, long names and small windows. The panels,
// files and session behaviour are in test_ui.cpp.
#include "breakdown_chart.h"
#include "chart_style.h"
#include "compare_chart.h"
#include "csv_export.h"
#include "forecast_session.h"
#include "gpu_list_model.h"
#include "main_window.h"
#include "operator_table_model.h"
#include "quantity_format.h"
#include "roofline_chart.h"
#include "spec_table_model.h"
#include "sensitivity_chart.h"
#include "ui_test_support.h"
#include "waves_chart.h"
#include "what_if_panel.h"

#include "gpuforecast/csv.h"
#include "gpuforecast/file_io.h"

#include <nlohmann/json.hpp>

#include <qcustomplot.h>

#include <QComboBox>
#include <QLabel>
#include <QStyleOptionComboBox>
#include <QListView>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QTabWidget>
#include <QStandardPaths>
#include <QHeaderView>
#include <QTableView>
#include <QtTest>

#include <cmath>
#include <numbers>
#include <set>

using namespace gpuforecast;
using namespace gpuforecast::ui;
using gpuforecast::ui::test::shownAt;
using gpuforecast::ui::test::showOneSequence;
using gpuforecast::ui::test::showPrompt;
using gpuforecast::ui::test::legendNames;
using gpuforecast::ui::test::DataWithoutHeldOutNetworks;
using gpuforecast::ui::test::itemTexts;

class TestUiCharts : public QObject {
    Q_OBJECT
    test::UserGpuFolder userData_; // every session's user GPUs live here, never in the real user folder
    UserGpuStore store() const { return userData_.store(); }

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void init() { userData_.clear(); }

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

    // Each GPU pads a thin GEMM its own way (GPT-2 medium, one token: T4 to 64 rows, RTX 4090 to
    // 256, A10 to 128): each GPU's point is drawn where it priced it, on its own staircase.
    void wavesChartDrawsEachGpusPaddingOnItsOwnStaircase()
    {
        ForecastSession session(nullptr, store());
        QVERIFY(showOneSequence(session, "gpt2_med", 1, "T4"));
        session.setSelectedGpus({"T4", "RTX-4090", "A10"});
        WavesChart chart(&session);
        chart.setSelectedOperator("lm_head");
        const auto& forecasts = *session.forecasts();
        QCOMPARE(chart.sweeps().size(), forecasts.size());
        QCOMPARE(chart.pricedKernels().size(), forecasts.size());
        std::set<long long> paddings;
        for (std::size_t g = 0; g < forecasts.size(); ++g) {
            const auto& ops = forecasts[g].ops;
            const auto head = std::find_if(ops.begin(), ops.end(), [](const OpForecast& op) { return op.op.node == "lm_head"; });
            QVERIFY(head != ops.end());
            QVERIFY2(head->forecast.paddedM > 1, "precondition: one token is priced padded");
            paddings.insert(head->forecast.paddedM);
            QCOMPARE(chart.pricedKernels()[g].m, head->forecast.paddedM);
            const auto& sweep = chart.sweeps()[g];
            const auto at = std::upper_bound(sweep.dimension.begin(), sweep.dimension.end(), double(head->forecast.paddedM));
            QVERIFY(at != sweep.dimension.begin());
            const double onStaircase = sweep.ms[std::size_t(at - sweep.dimension.begin()) - 1];
            QVERIFY2(std::abs(onStaircase / (head->forecast.seconds * 1e3) - 1) < 1e-9,
                     qPrintable(QString("%1: staircase %2 ms at m = %3, table %4 ms")
                                    .arg(sweep.gpu).arg(onStaircase).arg(head->forecast.paddedM).arg(head->forecast.seconds * 1e3)));
        }
        QVERIFY2(paddings.size() > 1, "precondition: the GPUs pad differently");
    }

    // A training step runs several kernels under one name (mlp.fc: forward, two backward GEMMs,
    // the gradient's accumulation). Picking a backward row shows that kernel, not the forward one.
    void pickingABackwardRowShowsThatKernel()
    {
        ForecastSession session(nullptr, store());
        GraphOptions o = session.options();
        o.training = true;
        QVERIFY(!session.setOptions(o));
        MainWindow window(&session);
        auto* roofline = window.findChild<RooflineChart*>();
        auto* waves = window.findChild<WavesChart*>();
        QVERIFY(roofline && waves);
        QTableView* table = nullptr;
        for (auto* view : window.findChildren<QTableView*>())
            if (auto* proxy = qobject_cast<QSortFilterProxyModel*>(view->model()); proxy && proxy->sourceModel() == window.operatorModel())
                table = view;
        QVERIFY(table);
        auto* proxy = qobject_cast<QSortFilterProxyModel*>(table->model());
        int checked = 0;
        for (int row = 0; row < proxy->rowCount(); ++row) {
            if (proxy->index(row, OperatorTableModel::Name).data().toString() != "mlp.fc" ||
                proxy->index(row, OperatorTableModel::Class).data().toString() != "linear")
                continue;
            table->selectionModel()->setCurrentIndex(proxy->index(row, 0), QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
            const auto at = std::size_t(proxy->mapToSource(proxy->index(row, 0)).row());
            const QString phase = proxy->index(row, OperatorTableModel::Phase).data().toString();
            QCOMPARE(waves->shownOperator(), phase == "fw" ? QString("mlp.fc") : QString("mlp.fc (%1)").arg(phase));
            for (std::size_t g = 0; g < session.forecasts()->size(); ++g) {
                const OpForecast& op = (*session.forecasts())[g].ops[at];
                const Kernel& shown = waves->pricedKernels()[g];
                QVERIFY(shown.m == (op.forecast.paddedM ? op.forecast.paddedM : op.op.kernel.m) &&
                        shown.n == (op.forecast.paddedN ? op.forecast.paddedN : op.op.kernel.n));
                QCOMPARE(waves->curves()[g].ownWaves, op.forecast.geometry.waves);
                QCOMPARE(roofline->highlighted()[g].point.gflops, op.op.kernel.flops() / op.forecast.seconds / 1e9);
            }
            ++checked;
        }
        QCOMPARE(checked, 3); // fw, and the two backward GEMMs
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
        QVERIFY(shownAt(compare, 1200, 600));
        compare.plot()->replot();
        QCOMPARE(compare.plot()->xAxis->tickVectorLabels(), (QVector<QString>{"A10", shortId}));

        // Every bar's label names the baseline as the axis does: the whole id in "1.00x vs <id>"
        // was wider than a bar's slot, and each bar lost its rates and memory fit to the short form.
        session.setSelectedGpus({"A10", "T4", QString::fromStdString(custom.id)});
        compare.setBaseline(longId);
        compare.resize(1000, 600);
        QTest::qWait(50);
        compare.plot()->replot();
        for (int i = 0; i < compare.plot()->itemCount(); ++i)
            if (auto* t = qobject_cast<QCPItemText*>(compare.plot()->item(i)))
                QVERIFY2(t->text().contains("vs " + shortId) && t->text().contains("samples/s"), qPrintable(t->text()));
        session.setSelectedGpus({"A10", QString::fromStdString(custom.id)});

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

    // The note's tightest form names a GPU by its model number ("V100"), never by a vendor's
    // name: a custom "NVIDIA-..." card read "NVIDIA", as a second one would have too.
    void wavesNoteNamesGpusByModelNotVendor()
    {
        ForecastSession session(nullptr, store());
        for (const char* id : {"NVIDIA-Custom-Card-A", "NVIDIA-Custom-Card-B"}) {
            GpuSpec custom = *session.gpu("A10");
            custom.id = id;
            QVERIFY(!session.addGpu(custom));
        }
        session.setSelectedGpus({"V100-PCIE-32GB", "NVIDIA-Custom-Card-A", "NVIDIA-Custom-Card-B", "RTX-4090"});
        WavesChart waves(&session);
        QVERIFY(shownAt(waves, 1200, 600));
        QCOMPARE(waves.noteForms().size(), 5);
        const QString abbreviated = waves.noteForms().at(3);
        for (const char* name : {"\nV100: ", "\nNVIDIA-Custom-Card-A: ", "\nNVIDIA-Custom-Card-B: ", "\nRTX-4090: "})
            QVERIFY2(abbreviated.contains(QLatin1String(name)), qPrintable(abbreviated));
        QVERIFY2(!abbreviated.contains(QLatin1String("\nNVIDIA: ")), qPrintable(abbreviated));
    }

    // The GPU box keeps its width whether the log-scale hint shows or not: it had grown across the
    // row whenever the hint went.
    void compareBaselineBoxKeepsItsWidth()
    {
        ForecastSession session(nullptr, store());
        session.setSelectedGpus({"H100-SXM5-80GB", "A100-PCIE-40GB"}); // a few times apart: no hint
        CompareChart compare(&session);
        QVERIFY(shownAt(compare, 1200, 500));
        auto* box = compare.findChild<QComboBox*>();
        auto* hint = compare.findChild<QLabel*>("compareLogHint");
        QVERIFY(box && hint);
        QVERIFY(!hint->isVisible());
        const int width = box->width();
        session.setSelectedGpus({"H100-SXM5-80GB", "P4"}); // more than ten times apart: the hint shows
        QTest::qWait(50);
        QVERIFY(hint->isVisible());
        QCOMPARE(box->width(), width);
    }

    // A layer norm over rows longer than any measured one is priced as pieces in more waves: the
    // table said "63 (as 124)" while the chart's note gave 63 waves alone. The note and the point's
    // hover say what it was priced at, and why.
    void wavesNoteSaysWhereAKernelWasPricedAtMoreWaves()
    {
        ForecastSession session(nullptr, store());
        QVERIFY(!session.setModel("llama2_70b")); // rows of 8192, past the 4094 measured
        GraphOptions o = session.options();
        o.batch = 4;
        o.seq = 2048;
        QVERIFY(!session.setOptions(o));
        session.setSelectedGpus({"H100-SXM5-80GB"});
        WavesChart waves(&session);
        waves.setSelectedOperator("attn.norm");
        QVERIFY(shownAt(waves, 1200, 600));
        QCOMPARE(waves.shownOperator(), QString("attn.norm"));
        const auto& curves = waves.curves();
        QCOMPARE(curves.size(), std::size_t(1));
        QVERIFY2(curves.front().pricedWaves > curves.front().ownWaves, qPrintable(QString::number(curves.front().pricedWaves)));
        const QString priced = QString(", priced as %1 waves").arg(curves.front().pricedWaves, 0, 'f', 0);
        QVERIFY2(waves.noteForms().front().contains(priced), qPrintable(waves.noteForms().front()));
    }

    // A kernel of seconds is drawn on an axis of seconds, as Breakdown and Compare draw it: a
    // batch of 65536 read "4·10^6" under "Kernel latency (ms)".
    void wavesLatencyAxisTakesTheUnitOfItsLongestStep()
    {
        ForecastSession session(nullptr, store());
        session.setSelectedGpus({"V100-PCIE-32GB"});
        WavesChart waves(&session);
        QVERIFY(shownAt(waves, 1200, 600));
        QVERIFY(waves.plot()->yAxis->label().contains(QLatin1String("(ms")));
        GraphOptions o = session.options();
        o.batch = 65536;
        QVERIFY(!session.setOptions(o));
        for (const bool log : {false, true}) {
            waves.setLogLatency(log);
            waves.plot()->replot();
            const QCPAxis* y = waves.plot()->yAxis;
            QVERIFY2(y->label().contains(QLatin1String("(s")), qPrintable(y->label()));
            double top = 0;
            for (const double ms : waves.sweeps().front().ms)
                top = std::max(top, ms);
            QVERIFY(top > 1e4);
            // The ticks are seconds: the largest lies within the axis's range read in s, not in ms.
            double largest = 0;
            for (const QString& label : y->tickVectorLabels())
                largest = std::max(largest, label.toDouble());
            QVERIFY2(largest > 0 && largest <= 1.001 * y->range().upper / 1e3, qPrintable(QString::number(largest)));
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

        // Another GPU's table, then new forecasts: the table keeps the pick that Waves shows (it
        // had dropped it while Waves went on showing the operator). A model without it lets go.
        const QString before = window.operatorModel()->shownGpu();
        QListView* gpus = nullptr;
        for (auto* view : window.findChildren<QListView*>())
            if (view->model() && view->model()->rowCount() >= 20)
                gpus = view;
        QVERIFY(gpus);
        for (int row = 0; row < gpus->model()->rowCount() && window.operatorModel()->shownGpu() == before; ++row)
            if (session.selectedGpus().contains(gpus->model()->index(row, 0).data(GpuListModel::IdRole).toString()))
                gpus->setCurrentIndex(gpus->model()->index(row, 0));
        QVERIFY(window.operatorModel()->shownGpu() != before);
        const QModelIndex current = table->selectionModel()->currentIndex();
        QVERIFY(current.isValid());
        QCOMPARE(table->model()->index(current.row(), OperatorTableModel::Name).data().toString(), picked.back());
        QCOMPARE(waves->shownOperator(), picked.back());
        GraphOptions o = session.options();
        o.batch *= 2;
        QVERIFY(!session.setOptions(o));
        QVERIFY(table->selectionModel()->currentIndex().isValid());
        QCOMPARE(waves->shownOperator(), picked.back());
        QVERIFY(!session.setModel("llama2_7b")); // another graph: the table and the charts agree
        const QModelIndex after = table->selectionModel()->currentIndex();
        QCOMPARE(waves->selectedOperator(),
                 after.isValid() ? table->model()->index(after.row(), OperatorTableModel::Name).data().toString() : QString());
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

    // Weights measured on a slot-powered card alone (a folder `train` writes from T4's rows) leave
    // a 350 W card nothing else to borrow a GEMM efficiency from. The what-if panel, the Compare
    // hover and the exported comparison all say that its GEMMs may run faster than forecast; the
    // slot-powered card itself, and a sheet read as it, carry no such caution.
    void aSlotPoweredLenderIsCautionedWhereverItLends()
    {
        const DataWithoutHeldOutNetworks measuredOnT4("T4");
        ForecastSession session(nullptr, store());
        session.setSelectedGpus({"L40S", "L4"});
        const QString caution = "T4 is a 70 W card powered by its slot alone";
        WhatIfPanel panel(&session);
        panel.setGpu("L40S");
        QVERIFY2(panel.coverageText().contains("GEMM efficiency taken from T4") && panel.coverageText().contains(caution) &&
                     panel.coverageText().contains("at 350 W this GPU's GEMMs may run faster than forecast"),
                 qPrintable(panel.coverageText()));
        panel.setGpu("L4"); // 72 W: T4's feed, no caution
        QVERIFY2(panel.coverageText().contains("GEMM efficiency taken from T4") && !panel.coverageText().contains("slot alone"),
                 qPrintable(panel.coverageText()));

        CompareChart compare(&session);
        QVERIFY(shownAt(compare, 1200, 700));
        compare.plot()->replot();
        const auto tipOnBar = [&](int index) {
            const double ms = (*session.forecasts())[std::size_t(index)].totalSeconds() * 1e3;
            return compare.toolTipAt(
                {compare.plot()->xAxis->coordToPixel(index + 1), compare.plot()->yAxis->coordToPixel(ms / 2)});
        };
        const QString onL40S = tipOnBar(0), onL4 = tipOnBar(1);
        QVERIFY2(onL40S.contains("L40S") && onL40S.contains(caution), qPrintable(onL40S));
        QVERIFY2(onL4.contains("L4") && !onL4.contains("slot alone"), qPrintable(onL4));

        const auto rows = csv::parse(comparisonCsv(session, "L4"), "comparison.csv");
        const auto& h = rows.front();
        const auto col = [&](const char* name) { return std::size_t(std::find(h.begin(), h.end(), name) - h.begin()); };
        QCOMPARE(rows.size(), std::size_t(3));
        QVERIFY(col("caution") < h.size());
        QCOMPARE(rows[1][col("gpu")], std::string("L40S"));
        QCOMPARE(rows[1][col("gemm_efficiency_from")], std::string("T4"));
        QVERIFY2(rows[1][col("caution")].find(caution.toStdString()) != std::string::npos, rows[1][col("caution")].c_str());
        QVERIFY2(rows[2][col("caution")].empty(), rows[2][col("caution")].c_str());
    }

    void compareSaysWhoseGemmEfficiencyAGpuBorrows()
    {
        ForecastSession session(nullptr, store());
        session.setSelectedGpus({"L4", "T4"}); // L4's per-SM ratios lie far beyond the measured GPUs'
        CompareChart compare(&session);
        QVERIFY(shownAt(compare, 1200, 700));
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
        session.setSelectedGpus({"L40S", "T4"}); // 350 W: the A100's efficiency, not the 70 W T4's
        compare.plot()->replot();
        const QString onL40S = tipOnBar(0);
        QVERIFY2(onL40S.contains("GEMM efficiency taken from A100-PCIE-40GB") && !onL40S.contains("slot alone"), qPrintable(onL40S));
        QVERIFY2(onL40S.contains("Beyond the measured GPUs, so less certain"), qPrintable(onL40S));
        // P4 is forecast by networks trained without it, and beyond the other four it borrows T4's
        // efficiency; the hover says why its own measurements are not read.
        session.setSelectedGpus({"P4", "T4"});
        compare.plot()->replot();
        const QString heldOut = tipOnBar(0);
        QVERIFY2(heldOut.contains("GEMM efficiency taken from T4") &&
                     heldOut.contains("P4's own measurements are not read") && heldOut.contains("trained without them"),
                 qPrintable(heldOut));
        // With networks that trained on P4 (a folder `train` writes), its per-SM bandwidth lies
        // outside the others' yet it keeps its own efficiency: the chart says "near the edge", as
        // the what-if panel does, not "beyond the measured GPUs".
        const DataWithoutHeldOutNetworks trainedOnP4;
        ForecastSession trained(nullptr, store());
        trained.setSelectedGpus({"P4", "T4"});
        CompareChart onTrained(&trained);
        QVERIFY(shownAt(onTrained, 1200, 700));
        onTrained.plot()->replot();
        const double p4Ms = trained.forecasts()->front().totalSeconds() * 1e3;
        const QString onP4 = onTrained.toolTipAt(
            {onTrained.plot()->xAxis->coordToPixel(1), onTrained.plot()->yAxis->coordToPixel(p4Ms / 2)});
        QVERIFY2(onP4.contains("Near the edge of the measured GPUs") && !onP4.contains("Beyond"), qPrintable(onP4));
        WhatIfPanel panel(&trained);
        panel.setGpu("P4");
        QVERIFY2(panel.coverageText().startsWith("Near the edge of the measured GPUs"), qPrintable(panel.coverageText()));
    }

    // Cut short, a bar's label says "beyond measured" or "near the edge" in the words of its hover
    // text and the what-if panel (it said "extrapolated" where they said "beyond").
    void compareShortLabelsUseTheCoverageWords()
    {
        const DataWithoutHeldOutNetworks trainedOnP4; // with the shipped ones P4 is beyond the others
        ForecastSession session(nullptr, store());
        session.setSelectedGpus({"H100-SXM5-80GB", "P4", "A100-PCIE-40GB"});
        CompareChart compare(&session);
        compare.resize(640, 500); // too narrow for the full labels, wide enough for the short ones
        compare.show();
        QVERIFY(QTest::qWaitForWindowExposed(&compare));
        const QStringList texts = itemTexts(compare.plot());
        QCOMPARE(texts.size(), 3);
        QVERIFY2(!texts[0].contains("samples/s"), qPrintable(texts.join(" | "))); // not the full form
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

    // In the window, Sensitivity behind another tab does not re-forecast on every edit (most of a
    // slider step's time); it catches up when its tab is shown, with the edit in its bars.
    void hiddenSensitivityCatchesUpWhenShown()
    {
        ForecastSession session(nullptr, store());
        MainWindow window(&session);
        QVERIFY(shownAt(window, 1280, 800));
        QVERIFY(window.showChart("Breakdown"));
        auto* chart = window.findChild<SensitivityChart*>();
        QVERIFY(chart && !chart->isVisible());
        const QString gpu = session.selectedGpus().front(); // the sheet the window opens on
        // The bars as drawn, read from the plot rather than shown(), which would bring them up to date.
        auto drawnBandwidthGain = [&] {
            const auto* higher = qobject_cast<QCPBars*>(chart->plot()->plottable(1)); // the "x 1.2" bars
            const auto ticker = chart->plot()->yAxis->ticker().dynamicCast<QCPAxisTickerText>();
            for (auto it = higher->data()->constBegin(); it != higher->data()->constEnd(); ++it)
                if (ticker->ticks().value(it->key) == "Memory bandwidth")
                    return -it->value;
            return -1.0;
        };
        const double before = drawnBandwidthGain();
        QVERIFY(before > 0);
        ForecastSession::WhatIf w;
        w.bandwidth = 4;
        session.setWhatIf(gpu, w);
        QCOMPARE(drawnBandwidthGain(), before); // not redrawn behind the Breakdown tab
        QVERIFY(window.showChart("Sensitivity"));
        QVERIFY(chart->isVisible());
        const double after = drawnBandwidthGain();
        QVERIFY2(after < before, qPrintable(QString("%1 -> %2").arg(before).arg(after)));
        for (const auto& r : chart->shown()) // and what it reports is what it draws
            if (r.field == "memory_bandwidth_gbps")
                QCOMPARE(-100 * r.higherChange, after);
        // Read while hidden, its numbers are current all the same.
        QVERIFY(window.showChart("Breakdown"));
        session.setWhatIf(gpu, {});
        for (const auto& r : chart->shown())
            if (r.field == "memory_bandwidth_gbps")
                QCOMPARE(-100 * r.higherChange, before);
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
        QVERIFY(shownAt(window, 1366, 768));
        auto* column = window.findChild<QScrollArea*>("leftColumn");
        QVERIFY(column && column->widget());
        QCoreApplication::processEvents();
        const QWidget* content = column->widget();
        QVERIFY(content->height() >= content->minimumSizeHint().height());
        QVERIFY(content->width() >= content->minimumSizeHint().width());
        QVERIFY(content->height() > column->viewport()->height()); // it does scroll here
        // The efficiency box says whole what a bundled sheet reads: "V100-PCIE-32GB itself
        // (bundled" had lost its end to the column's width.
        auto* basis = window.findChild<QComboBox*>("efficiencyBasis");
        QVERIFY(basis);
        QStyleOptionComboBox option;
        option.initFrom(basis);
        const QRect field = basis->style()->subControlRect(QStyle::CC_ComboBox, &option, QStyle::SC_ComboBoxEditField, basis);
        QVERIFY2(basis->fontMetrics().horizontalAdvance(basis->currentText()) <= field.width(),
                 qPrintable(QString("'%1' in %2 px").arg(basis->currentText()).arg(field.width())));
        // Scrolled, everything in it can be read: the what-if note whole (it was squeezed to two
        // of its eight lines) and five rows of the sheet (two were left).
        QTest::qWait(20); // the queued minimum-height fits
        QCoreApplication::processEvents();
        auto* whatIf = window.whatIfPanel();
        QVERIFY2(whatIf->height() >= whatIf->heightForWidth(whatIf->width()),
                 qPrintable(QString("%1 of %2 px").arg(whatIf->height()).arg(whatIf->heightForWidth(whatIf->width()))));
        QTableView* sheet = nullptr;
        for (auto* view : window.findChildren<QTableView*>())
            if (view->model() == static_cast<QAbstractItemModel*>(window.specModel()))
                sheet = view;
        QVERIFY(sheet);
        QVERIFY2(sheet->viewport()->height() >= 5 * sheet->verticalHeader()->defaultSectionSize(),
                 qPrintable(QString("%1 px").arg(sheet->viewport()->height())));
        // The operator table's time and share are in view without scrolling sideways: they were its
        // last columns, past the right edge at this size.
        const auto* table = window.findChild<QTableView*>();
        QVERIFY(table);
        for (const int section : {int(OperatorTableModel::TimeMs), int(OperatorTableModel::Share)}) {
            const int right = table->horizontalHeader()->sectionViewportPosition(section) + table->horizontalHeader()->sectionSize(section);
            QVERIFY2(right <= table->viewport()->width(), qPrintable(QString("section %1 ends at %2 of %3").arg(section).arg(right).arg(table->viewport()->width())));
        }
    }

    // The column's contents never run past its right edge, when they grow after start-up: a
    // LLaMA training step with its Parallel box open cut the GPU search field and Export... off at
    // 1366 x 768, and so did a long sheet id ("H100-SXM5-80GB (scenario)") beside Name....
    void leftColumnHoldsContentsThatGrow()
    {
        ForecastSession session(nullptr, store());
        MainWindow window(&session);
        QVERIFY(shownAt(window, 1366, 768));
        auto* column = window.findChild<QScrollArea*>("leftColumn");
        QVERIFY(column && column->widget());
        GpuSpec scenarioSheet = *session.gpu("H100-SXM5-80GB");
        scenarioSheet.id = "H100-SXM5-80GB (scenario)";
        QVERIFY(!session.addGpu(scenarioSheet));
        window.specModel()->setGpu(QString::fromStdString(scenarioSheet.id));
        QVERIFY(!session.setModel("llama3_8b"));
        QVERIFY(!session.setOptions(GraphOptions{8, 2048, true, false}));
        QVERIFY(!session.setLayout(ParallelLayout{2, 2, 2, 4}));
        QTest::qWait(50); // the queued width fit
        QCoreApplication::processEvents();
        QVERIFY2(column->widget()->width() <= column->viewport()->width(),
                 qPrintable(QString("contents %1 px in a %2 px column").arg(column->widget()->width()).arg(column->viewport()->width())));
        for (const auto* button : column->widget()->findChildren<QPushButton*>())
            if (button->isVisible()) {
                const int right = button->mapTo(column->widget(), QPoint(button->width(), 0)).x();
                QVERIFY2(right <= column->viewport()->width(), qPrintable(QString("%1 ends at %2 px").arg(button->text()).arg(right)));
            }
    }

    // In a 1024 x 640 window the charts get the larger share: the GPU buttons' 80-px minimum and
    // the Parallel box's three pairs a row held the left column at 44% of the width. Each field
    // still shows its whole text.
    void leftColumnLeavesTheChartsMostOfANarrowWindow()
    {
        ForecastSession session(nullptr, store());
        MainWindow window(&session);
        QVERIFY(shownAt(window, 1024, 640));
        QCoreApplication::processEvents();
        const auto* column = window.findChild<QScrollArea*>("leftColumn");
        QVERIFY(column && column->widget());
        QVERIFY2(column->width() <= 0.4 * window.width(), qPrintable(QString("%1 of %2 px").arg(column->width()).arg(window.width())));
        for (const auto* button : column->widget()->findChildren<QPushButton*>())
            QVERIFY2(button->width() >= button->fontMetrics().horizontalAdvance(button->text()), qPrintable(button->text()));
        for (const auto* label : column->widget()->findChildren<QLabel*>())
            if (!label->wordWrap() && label->isVisible())
                QVERIFY2(label->width() >= label->fontMetrics().horizontalAdvance(label->text()), qPrintable(label->text()));
        // Above the operator table the charts get three parts in five: they had 220 px, the table 330.
        const auto* tabs = window.findChild<QTabWidget*>();
        QVERIFY(tabs);
        const auto* centre = qobject_cast<const QSplitter*>(tabs->parentWidget());
        QVERIFY(centre && centre->orientation() == Qt::Vertical && centre->count() == 2);
        const QList<int> heights = centre->sizes();
        QVERIFY2(heights[0] >= 1.4 * heights[1], qPrintable(QString("charts %1 px, table %2 px").arg(heights[0]).arg(heights[1])));
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
        std::vector<QSize> sizes;
        for (int width = 900; width <= 1600; width += 10) // a title can outgrow its panel at any width
            sizes.emplace_back(width, width == 900 ? 320 : 700);
        for (const bool training : {false, true})
        for (const QSize size : sizes) {
            if (training && size == sizes.front()) { // a backward kernel, whose title also names its phase
                QVERIFY(!session.setOptions(GraphOptions{4, 1024, true, false}).has_value());
                const auto& ops = session.forecasts()->front().ops;
                const auto gradInput = std::find_if(ops.begin(), ops.end(), [](const OpForecast& o) {
                    return o.op.node == "mlp.fc" && o.op.phase != Phase::Forward;
                });
                QVERIFY(gradInput != ops.end());
                chart.setSelectedOperator("mlp.fc", int(gradInput - ops.begin()));
            }
            chart.resize(size);
            chart.show();
            QVERIFY(QTest::qWaitForWindowExposed(&chart));
            chart.plot()->replot();
            int titles = 0;
            bool phaseNamed = false;
            for (QCPLayoutElement* e : chart.plot()->plotLayout()->elements(true))
                if (auto* title = qobject_cast<QCPTextElement*>(e)) {
                    ++titles;
                    // Inside the element's margins: a title as wide as the element lost its first letter.
                    QVERIFY2(QFontMetrics(title->font()).horizontalAdvance(title->text()) <= title->rect().width(),
                             qPrintable(QString("%1 px wide: %2").arg(size.width()).arg(title->text())));
                    QVERIFY(title->text().contains("vs."));
                    phaseNamed = phaseNamed || title->text().contains("(bw");
                }
            QCOMPARE(titles, 2);
            QVERIFY(!training || size.width() < 1600 || phaseNamed); // the kernel shown is the one picked
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

    // A teacher's three GPUs in a 1024 x 640 window: even "V100-PCIE-32GB: 2.00 waves" did not fit
    // the staircase, and the note, the chart's lesson, was dropped. GPUs go by family there.
    void wavesNoteFitsALaptopWindow()
    {
        ForecastSession session(nullptr, store());
        QVERIFY(showOneSequence(session, "gpt2_large", 512, "V100-PCIE-32GB"));
        session.setSelectedGpus({"V100-PCIE-32GB", "A100-PCIE-40GB", "H100-SXM5-80GB"});
        WavesChart chart(&session);
        chart.setSelectedOperator("mlp.fc");
        QVERIFY(shownAt(chart, 640, 330));
        QTest::qWait(50);
        chart.plot()->replot(QCustomPlot::rpImmediateRefresh);
        const QCPAxisRect* staircase = chart.plot()->xAxis->axisRect();
        QCPItemText* note = nullptr;
        for (int i = 0; i < chart.plot()->itemCount(); ++i)
            if (auto* t = qobject_cast<QCPItemText*>(chart.plot()->item(i)); t && t->text().startsWith("this model"))
                note = t;
        QVERIFY2(note && note->visible(), note ? qPrintable(note->text()) : "no note");
        QVERIFY2(note->text().contains("\nV100: ") && note->text().contains("\nH100: ") && note->text().contains(" waves"),
                 qPrintable(note->text()));
        QVERIFY2(note->right->pixelPosition().x() <= staircase->rect().right() + 1, qPrintable(note->text()));
    }

    // In a 1024 x 640 window the charts get about 560 x 240 pixels: the staircase's tick labels ran
    // together ("0200040006008000"), the Waves panels' axis titles into each other, and Breakdown's
    // value title lost its closing bracket. Each axis now takes a shorter title that fits, and the
    // staircase fewer ticks; at a wide size the full titles come back.
    void axisTitlesAndTicksFitALaptopWindow()
    {
        ForecastSession session(nullptr, store());
        WavesChart waves(&session);
        BreakdownChart breakdown(&session);
        for (const QSize size : {QSize(560, 240), QSize(1600, 700)})
            for (ChartWidget* chart : std::initializer_list<ChartWidget*>{&waves, &breakdown}) {
                chart->resize(size);
                chart->show();
                QVERIFY(QTest::qWaitForWindowExposed(chart));
                QTest::qWait(50); // the resize's replot, and the one it queues
                const QString where = QString("%1 at %2 px").arg(chart->metaObject()->className()).arg(size.width());
                // A legend wrapped while hidden once made the chart's minimum 894 px wide.
                QCOMPARE(chart->size(), size);
                for (QCPAxisRect* rect : chart->plot()->axisRects())
                    for (QCPAxis* axis : rect->axes(QCPAxis::atLeft | QCPAxis::atBottom)) {
                        const bool across = axis->orientation() == Qt::Horizontal;
                        const int room = across ? rect->width() : rect->height();
                        QVERIFY2(!axis->label().isEmpty() && QFontMetrics(axis->labelFont()).horizontalAdvance(axis->label()) <= room,
                                 qPrintable(where + ": " + axis->label()));
                        if (size.width() > 1000) // the full titles ("Kernel latency (ms)", the shortest), not "Latency (ms)"
                            QVERIFY2(axis->label().size() >= 19, qPrintable(where + ": " + axis->label()));
                        if (!across || axis->scaleType() != QCPAxis::stLinear)
                            continue;
                        const QVector<double> ticks = axis->tickVector();
                        const QVector<QString> labels = axis->tickVectorLabels();
                        QVERIFY2(ticks.size() >= 2, qPrintable(where));
                        for (qsizetype i = 1; i < ticks.size(); ++i) {
                            const QFontMetrics metrics(axis->tickLabelFont());
                            const double gap = axis->coordToPixel(ticks[i]) - axis->coordToPixel(ticks[i - 1]);
                            // Slanted labels (Breakdown's GPU names) are parallel lines: they clear each
                            // other when the gap across them holds a line of text.
                            const double slant = std::abs(axis->tickLabelRotation()) * M_PI / 180;
                            const double needed = slant > 0 ? metrics.height() / std::sin(slant)
                                                            : (metrics.horizontalAdvance(labels[i - 1]) + metrics.horizontalAdvance(labels[i])) / 2.0;
                            QVERIFY2(gap > needed, qPrintable(QString("%1: %2 and %3 %4 px apart").arg(where, labels[i - 1], labels[i]).arg(gap)));
                        }
                    }
            }
        // The two Waves panels' x titles, centred under each, do not reach into each other.
        waves.resize(560, 240);
        QTest::qWait(50);
        const auto rects = waves.plot()->axisRects();
        QCOMPARE(rects.size(), 2);
        const auto titleSpan = [](QCPAxis* axis) {
            const double half = QFontMetrics(axis->labelFont()).horizontalAdvance(axis->label()) / 2.0;
            const double centre = axis->axisRect()->left() + axis->axisRect()->width() / 2.0;
            return std::pair{centre - half, centre + half};
        };
        const auto [leftStart, leftEnd] = titleSpan(rects[1]->axis(QCPAxis::atBottom)); // the law, left of the staircase
        const auto [rightStart, rightEnd] = titleSpan(rects[0]->axis(QCPAxis::atBottom));
        QVERIFY2(leftEnd < rightStart || rightEnd < leftStart, qPrintable(QString("%1..%2 and %3..%4").arg(leftStart).arg(leftEnd).arg(rightStart).arg(rightEnd)));
    }

    // Kernel dots are filled by class and rimmed in the shown GPU's colour: with nine GPUs the
    // V100's light-blue roof and the light-blue FC dots (Okabe-Ito serves both) read as one.
    void rooflineDotsWearTheirGpusColour()
    {
        ForecastSession session(nullptr, store());
        session.setSelectedGpus({"H100-SXM5-80GB", "A100-SXM4-80GB", "V100-PCIE-32GB"});
        RooflineChart roofline(&session);
        for (const int shown : {0, 2}) {
            roofline.setGpu(session.selectedGpus().at(shown));
            int dotted = 0;
            for (int i = 0; i < roofline.plot()->graphCount(); ++i) {
                const QCPGraph* g = roofline.plot()->graph(i);
                if (g->lineStyle() != QCPGraph::lsNone || g->scatterStyle().brush().style() == Qt::NoBrush)
                    continue; // roofs, and the selection's ring
                ++dotted;
                QCOMPARE(g->scatterStyle().pen().color(), gpuColor(std::size_t(shown)));
                QVERIFY2(std::any_of(kChartClasses.begin(), kChartClasses.end(),
                                     [&](OpClass c) { return g->name().startsWith(classLabel(c)) && g->scatterStyle().brush().color() == classColor(c); }),
                         qPrintable(g->name()));
            }
            QVERIFY(dotted >= 4); // GEMMs, element-wise, softmax, layer norm
        }
    }

    // Kernels that do no FLOPs have no place on the Roofline; its corner note says how much of the
    // step they take, and names them as room allows (GPT-2's causal mask was 8.5% of an A10's
    // step with nothing on the chart to say so).
    void rooflineSaysWhatItDoesNotDraw()
    {
        ForecastSession session(nullptr, store());
        session.setSelectedGpus({"A10"});
        QVERIFY(!session.setModel("gpt2_large"));
        RooflineChart roofline(&session);
        roofline.setGpu("A10");
        const ModelForecast& f = session.forecasts()->front();
        double share = 0;
        QStringList left;
        for (const auto& op : f.ops)
            if (op.op.kernel.opClass == OpClass::Other || op.op.kernel.flops() <= 0) {
                share += op.totalSeconds() / f.totalSeconds();
                left << QString::fromStdString(op.op.node);
            }
        QVERIFY(left.contains("attn.causal_mask") && share > 0.01);
        const QString percent = QString::number(100 * share, 'f', 1) + "%";
        auto ownerText = [&](int width) {
            roofline.resize(width, 500);
            roofline.show();
            if (!QTest::qWaitForWindowExposed(&roofline))
                return QString();
            QTest::qWait(50);
            roofline.plot()->replot(QCustomPlot::rpImmediateRefresh);
            for (int i = 0; i < roofline.plot()->itemCount(); ++i)
                if (auto* t = qobject_cast<QCPItemText*>(roofline.plot()->item(i)); t && t->objectName() == "dotsOwner")
                    return t->text();
            return QString();
        };
        const QString wide = ownerText(2400);
        QVERIFY2(wide == QString("dots: kernels on A10\nnot drawn: attn.causal_mask and %1 more (no FLOPs, %2 of the step)")
                             .arg(left.size() - 1).arg(percent),
                 qPrintable(wide));
        const QString narrow = ownerText(900); // the names give way first, the share stays
        QVERIFY2(narrow == "dots: kernels on A10\nnot drawn: " + percent + " of the step (no FLOPs)", qPrintable(narrow));
    }

    // In a 1024-px window Waves' legend took half the chart. Where the full names would take more
    // than a third of the width, the entries with a short form use it; a wide window has the full ones.
    void legendTakesShortNamesInANarrowChart()
    {
        ForecastSession session(nullptr, store());
        WavesChart waves(&session);
        RooflineChart roofline(&session);
        for (ChartWidget* chart : std::initializer_list<ChartWidget*>{&waves, &roofline})
            for (const int width : {560, 1600}) {
                chart->resize(width, 300);
                chart->show();
                QVERIFY(QTest::qWaitForWindowExposed(chart));
                QTest::qWait(200); // the resize's replot, and the one the names queue
                const QString where = QString("%1 at %2 px").arg(chart->metaObject()->className()).arg(width);
                QCOMPARE(chart->width(), width);
                QCPLegend* legend = chart->plot()->legend;
                const QStringList names = legendNames(chart->plot());
                const bool full = names.contains("roofline: utilization 1") || names.contains(QRegularExpression(R"(^BMM \(attention\) \(.+\)$)"));
                const bool shortened = names.contains("roofline") || names.contains("BMM (attention)");
                QVERIFY2(width > 1000 ? full && !shortened : shortened && !full, qPrintable(where + ": " + names.join(", ")));
                QVERIFY2(width > 1000 || legend->outerRect().width() <= width / 3,
                         qPrintable(where + QString(": legend %1 px").arg(legend->outerRect().width())));
            }
        // Back to wide: the full names return, with a new forecast's rebuild too.
        waves.resize(1600, 300);
        session.setSelectedGpus({"T4", "L4"});
        QTest::qWait(50);
        const QStringList names = legendNames(waves.plot());
        QVERIFY2(names.contains(QRegularExpression(R"(^wave boundaries(, 1 in \d+)? \(T4\)$)")), qPrintable(names.join(", ")));
    }

    // Ten GPUs in the chart area of a 1024 x 640 window (about 640 x 330): beside the plots the
    // legend took two columns, 60% of the width, and left Waves' two panels 150 px between them.
    // With short names (a twin's "(same)") it fits one column within a third of the width; where
    // even that is too wide (fifteen long names on Waves), it moves to rows above the plots, across
    // the chart's width. With few GPUs it is beside again, and with none it leaves no empty row.
    void crowdedLegendMovesAboveThePlots()
    {
        ForecastSession session(nullptr, store());
        const QStringList ten{"A100-PCIE-40GB", "A100-SXM4-40GB", "H100-SXM5-80GB", "H100-PCIE-80GB", "L4",
                              "T4", "V100-PCIE-32GB", "MI250", "L40S", "A10"};
        QStringList fifteen;
        for (int i = 0; i < 15; ++i) { // long names, each its own line: no twins
            GpuSpec sketch = *session.gpu("T4");
            sketch.id = QString("Prototype accelerator B-%1").arg(i + 1, 2, 10, QChar('0')).toStdString();
            sketch.memoryBandwidthGBps *= 1 + 0.2 * i;
            sketch.fp32Gflops *= 1 + 0.3 * i;
            sketch.fp32MatrixGflops *= 1 + 0.3 * i;
            QVERIFY(!session.addGpu(sketch));
            fifteen << QString::fromStdString(sketch.id);
        }
        WavesChart waves(&session);
        waves.setSelectedOperator("mlp.fc");
        RooflineChart roofline(&session);
        struct Case {
            QStringList gpus;
            std::vector<ChartWidget*> charts;
            bool above;
        };
        for (const Case& c : {Case{ten, {&waves, &roofline}, false}, Case{fifteen, {&waves}, true}})
        for (ChartWidget* chart : c.charts) {
            session.setSelectedGpus(c.gpus);
            const QString name = QString("%1, %2 GPUs").arg(chart->metaObject()->className()).arg(c.gpus.size());
            chart->resize(640, 330);
            chart->show();
            QVERIFY(QTest::qWaitForWindowExposed(chart));
            // The plot 330 px high, under whatever controls the chart has above it (Waves' log box).
            chart->resize(640, 330 + chart->plot()->geometry().top());
            QTest::qWait(50); // the resize's replot, and the ones the legend's move queues
            QCustomPlot* plot = chart->plot();
            QCPLegend* legend = plot->legend;
            plot->replot(QCustomPlot::rpImmediateRefresh);
            const QRect settled = legend->outerRect();
            for (int i = 0; i < 3; ++i) // it stays where it went: no flip between replots
                plot->replot(QCustomPlot::rpImmediateRefresh);
            QCOMPARE(legend->outerRect(), settled);
            QVERIFY2(plot->viewport().contains(settled), qPrintable(name));
            int plotsWidth = 0;
            for (QCPAxisRect* rect : plot->axisRects()) {
                QVERIFY2(c.above ? settled.bottom() < rect->outerRect().top() : settled.left() > rect->outerRect().right(),
                         qPrintable(name + (c.above ? ": legend beside or over a plot" : ": legend not beside the plots")));
                plotsWidth += rect->width();
            }
            if (c.above)
                QVERIFY2(plotsWidth >= 0.55 * plot->width(), qPrintable(QString("%1: plots %2 px wide").arg(name).arg(plotsWidth)));
            else
                QVERIFY2(settled.width() <= 0.36 * plot->width(), qPrintable(QString("%1: legend %2 px wide").arg(name).arg(settled.width())));
            QList<QRect> entries;
            QStringList names;
            int textHeight = 0;
            for (QCPLayoutElement* e : legend->elements(false))
                if (auto* item = qobject_cast<QCPPlottableLegendItem*>(e)) {
                    entries << item->outerRect();
                    names << item->plottable()->name();
                    textHeight = QFontMetrics(item->font()).height();
                }
            for (int i = 0; i < entries.size(); ++i) {
                QVERIFY2(settled.contains(entries[i]), qPrintable(name + ": " + names[i]));
                // Readable, not squeezed: the row above had collapsed to 10 px and the legend vanished.
                QVERIFY2(entries[i].height() >= textHeight,
                         qPrintable(QString("%1: %2 is %3 px tall").arg(name, names[i]).arg(entries[i].height())));
                for (int j = i + 1; j < entries.size(); ++j)
                    QVERIFY2(!entries[i].intersects(entries[j]), qPrintable(name + ": " + names[i] + " over " + names[j]));
            }
            for (const QString& gpu : c.gpus)
                QVERIFY2(names.indexOf(QRegularExpression(QRegularExpression::escape(gpu) + "( .*)?")) >= 0,
                         qPrintable(name + " names no " + gpu + ": " + names.join(", ")));
        }
        // Every bundled GPU: the legend never takes over 40% of the height above the plots (a review
        // saw 243 of 330 px, and the chart grow past its room), and the chart keeps its size.
        session.setSelectedGpus(session.bundledGpuIds());
        for (ChartWidget* chart : std::initializer_list<ChartWidget*>{&waves, &roofline}) {
            QTest::qWait(50);
            chart->plot()->replot(QCustomPlot::rpImmediateRefresh);
            const int given = 330 + chart->plot()->geometry().top(); // as above: a plot of 330 px
            QVERIFY2(chart->minimumSizeHint().height() <= given && chart->height() == given,
                     qPrintable(QString("%1: %2 px, at least %3").arg(chart->metaObject()->className()).arg(chart->height())
                                    .arg(chart->minimumSizeHint().height())));
            const QCPLegend* legend = chart->plot()->legend;
            for (QCPAxisRect* rect : chart->plot()->axisRects())
                QVERIFY(legend->outerRect().bottom() < rect->outerRect().top() ? legend->outerRect().height() <= 0.4 * 330
                                                                               : legend->outerRect().left() > rect->outerRect().right());
        }
        // Two GPUs: beside the plots again, in one column.
        session.setSelectedGpus({"T4", "A10"});
        for (ChartWidget* chart : std::initializer_list<ChartWidget*>{&waves, &roofline}) {
            QTest::qWait(50);
            chart->plot()->replot(QCustomPlot::rpImmediateRefresh);
            const QCPLegend* legend = chart->plot()->legend;
            QCOMPARE(legend->wrap(), 0);
            for (QCPAxisRect* rect : chart->plot()->axisRects())
                QVERIFY2(legend->outerRect().left() > rect->outerRect().right(), chart->metaObject()->className());
        }
        // From above to none ticked: the plots start at the top, the legend hidden.
        session.setSelectedGpus(fifteen);
        // Until the queued relayouts have run: on a loaded machine (CI's sanitizer build beside
        // another) 50 ms had not been enough.
        QTRY_VERIFY(waves.plot()->legend->outerRect().bottom() < waves.plot()->axisRect()->outerRect().top());
        session.setSelectedGpus({});
        QTest::qWait(50);
        waves.plot()->replot(QCustomPlot::rpImmediateRefresh);
        QVERIFY(!waves.plot()->legend->visible());
        QVERIFY2(waves.plot()->axisRect()->outerRect().top() < 40, // under the panel's title
                 qPrintable(QString("plot starts %1 px down").arg(waves.plot()->axisRect()->outerRect().top())));
    }

    // Under a dark palette every legend takes the palette's colours: the one beside the plots had
    // kept QCustomPlot's white box while the axes turned light on dark.
    void legendsFollowThePalette()
    {
        const QPalette light = QApplication::palette();
        QPalette dark = light;
        dark.setColor(QPalette::Base, QColor(30, 30, 30));
        dark.setColor(QPalette::Text, QColor(230, 230, 230));
        dark.setColor(QPalette::Mid, QColor(90, 90, 90));
        QApplication::setPalette(dark);
        ForecastSession session(nullptr, store());
        WavesChart waves(&session);
        RooflineChart roofline(&session);
        BreakdownChart breakdown(&session);
        for (ChartWidget* chart : std::initializer_list<ChartWidget*>{&waves, &roofline, &breakdown}) {
            const QCPLegend* legend = chart->plot()->legend;
            QCOMPARE(legend->brush().color(), QColor(30, 30, 30));
            QCOMPARE(legend->textColor(), QColor(230, 230, 230));
        }
        QApplication::setPalette(light);
        QCoreApplication::processEvents();
        QCOMPARE(roofline.plot()->legend->brush().color(), light.color(QPalette::Base)); // and back
    }

    // Eight GPUs' full labels ran into each other and off the plot. Where a label does not fit its
    // bar's slot, every bar shows time and speed-up only, and the hover has the rest.
    // In a narrow chart the hint wraps instead of being cut ("...a log scale keeps"), and it does
    // not hold the tab wider than the 640 px a 1024 x 700 window gives it.
    void compareLogHintWrapsInANarrowChart()
    {
        ForecastSession session(nullptr, store());
        session.setSelectedGpus({"P4", "B200-SXM-180GB", "H100-SXM5-80GB", "T4"});
        CompareChart compare(&session);
        QVERIFY(compare.minimumSizeHint().width() <= 640);
        QVERIFY(shownAt(compare, 640, 500));
        auto* hint = compare.findChild<QLabel*>("compareLogHint");
        QVERIFY(hint && hint->isVisible());
        QVERIFY2(hint->height() >= hint->heightForWidth(hint->width()),
                 qPrintable(QString("%1 px for %2").arg(hint->height()).arg(hint->heightForWidth(hint->width()))));
        QVERIFY(hint->geometry().right() < compare.width());
    }

    // A log latency axis keeps a P4 and a B200 both readable; every bar starts below the fastest
    // GPU's time and every label sits above its bar, inside the axis.
    void compareHasALogScale()
    {
        ForecastSession session(nullptr, store());
        session.setSelectedGpus({"P4", "B200-SXM-180GB", "H100-SXM5-80GB", "T4"});
        CompareChart compare(&session);
        QVERIFY(shownAt(compare, 1400, 700));
        auto* box = compare.findChild<QCheckBox*>("compareLogScale");
        auto* hint = compare.findChild<QLabel*>("compareLogHint");
        QVERIFY(box && hint);
        for (const bool log : {true, false}) {
            box->setChecked(log);
            QCOMPARE(compare.logScale(), log);
            // On a linear axis the P4 flattens the B200 (far over ten to one): the hint points to
            // the box, and it goes once the box is ticked.
            QCOMPARE(hint->isVisible(), !log);
            QVERIFY2(log || hint->text().contains("log scale"), qPrintable(hint->text()));
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
        session.setSelectedGpus({"H100-SXM5-80GB", "B200-SXM-180GB"}); // within a few times each other
        QVERIFY(!hint->isVisible());
    }

    // Beside a P4's 90 ms, an H100's kernel steps lay flat along the bottom of the Waves latency
    // panel. On the log axis they take a real share of its height, and every step, boundary line
    // and marker stays inside the axis (0 has no place on a log one).
    void wavesHaveALogLatencyScale()
    {
        ForecastSession session(nullptr, store());
        session.setSelectedGpus({"H100-SXM5-80GB", "P4"});
        WavesChart waves(&session);
        QVERIFY(shownAt(waves, 1400, 700));
        auto* box = waves.findChild<QCheckBox*>("wavesLogLatency");
        QVERIFY(box);
        for (const bool log : {false, true}) {
            box->setChecked(log);
            QCOMPARE(waves.logLatency(), log);
            waves.plot()->replot();
            const QCPAxis* y = waves.plot()->yAxis;
            QCOMPARE(y->scaleType(), log ? QCPAxis::stLogarithmic : QCPAxis::stLinear);
            QVERIFY(y->label().contains(QLatin1String("log")) == log);
            QCOMPARE(waves.sweeps().size(), std::size_t(2));
            for (const auto& sweep : waves.sweeps())
                for (const double ms : sweep.ms)
                    QVERIFY2(y->range().contains(ms), qPrintable(QStringLiteral("%1 ms").arg(ms)));
            for (int i = 0; i < waves.plot()->graphCount(); ++i) {
                const QCPGraph* g = waves.plot()->graph(i);
                if (g->valueAxis() != y)
                    continue;
                for (auto p = g->data()->constBegin(); p != g->data()->constEnd(); ++p)
                    QVERIFY2(std::isnan(p->value) || y->range().contains(p->value) || p->value == y->range().lower,
                             qPrintable(g->name()));
            }
            const auto& fast = waves.sweeps().front().ms;
            const auto [low, high] = std::minmax_element(fast.begin(), fast.end());
            const double span = std::abs(y->coordToPixel(*high) - y->coordToPixel(*low)) / waves.plot()->axisRect()->height();
            QVERIFY2(log ? span > 0.3 : span < 0.1, qPrintable(QString::number(span)));
            QVERIFY2(y->tickVector().size() >= 3, qPrintable(y->tickVectorLabels().join(' '))); // a readable axis
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
        QVERIFY(shownAt(compare, 1400, 700));
        compare.plot()->replot();
        QStringList firstLines;
        for (int i = 0; i < compare.plot()->itemCount(); ++i)
            if (auto* t = qobject_cast<QCPItemText*>(compare.plot()->item(i)))
                firstLines << t->text().section('\n', 0, 0);
        QCOMPARE(firstLines, QStringList({QString("%1 s").arg(f[0].totalSeconds(), 0, 'f', 2),
                                          QString("%1 s").arg(f[1].totalSeconds(), 0, 'f', 2)}));
        QVERIFY2(compare.plot()->yAxis->label().contains("(s)"), qPrintable(compare.plot()->yAxis->label()));
        const QString hover = compare.toolTipAt({compare.plot()->xAxis->coordToPixel(1),
                                                 compare.plot()->yAxis->coordToPixel(f[0].totalSeconds() * 500)});
        QVERIFY2(hover.contains(": " + firstLines[0] + " per step") && !hover.contains(" ms"), qPrintable(hover));

        MainWindow window(&session);
        // Training 16 x 1024 fits neither (eager attention keeps every layer's scores), and each says so.
        QCOMPARE(window.statusBar()->currentMessage(),
                 QString("H100-SXM5-80GB: %1 (does not fit)   ·   P4: %2 (does not fit)").arg(firstLines[0], firstLines[1]));
        session.setSelectedGpus({"H100-SXM5-80GB", "P4", "T4", "V100-PCIE-32GB", "A100-PCIE-40GB", "L4"});
        const QString many = window.statusBar()->currentMessage();
        QVERIFY2(many.startsWith("6 GPU types, the model fits on 0 of them; fastest H100-SXM5-80GB: ") && many.contains("slowest P4: ") &&
                     !many.contains("T4") && !many.contains(" ms"),
                 qPrintable(many));
        // "Fastest" is the fastest that can run the step: LLaMA-2 7B (25.7 GiB) does not fit the
        // RTX 4090's 24 GiB, which would have been announced as the fastest of five.
        QVERIFY(!session.setModel("llama2_7b"));
        QVERIFY(!session.setOptions(GraphOptions{1, 512, false, false}));
        session.setSelectedGpus({"RTX-4090", "A100-PCIE-40GB", "T4", "P4", "V100-PCIE-32GB"});
        const QString fitting = window.statusBar()->currentMessage();
        QVERIFY2(fitting.startsWith("5 GPU types, the model fits on 2 of them; fastest A100-PCIE-40GB: ") &&
                     fitting.contains("slowest P4: ") && fitting.endsWith("(does not fit) (Compare shows each)"),
                 qPrintable(fitting));
        // Mixtral at 4096 tokens leaves 0.6% of a B200 spare: the status bar says so, as the bar does.
        QVERIFY(!session.setModel("mixtral_8x7b"));
        QVERIFY(!session.setOptions(GraphOptions{1, 4096, false, false}));
        session.setSelectedGpus({"B200-SXM-180GB", "H100-SXM5-80GB"});
        const QString tight = window.statusBar()->currentMessage();
        QVERIFY2(tight.startsWith("B200-SXM-180GB: ") && tight.contains(" (fits tightly)   ·   H100-SXM5-80GB: ") &&
                     tight.endsWith(" (does not fit)"),
                 qPrintable(tight));
        QVERIFY(!session.setModel("llama2_7b"));
        QVERIFY(!session.setOptions(GraphOptions{1, 512, false, false}));
        session.setSelectedGpus({"RTX-4090", "A100-PCIE-40GB", "T4", "P4", "V100-PCIE-32GB"});
        compare.plot()->replot();
        int hatched = 0; // the bars of the three that do not fit
        for (int i = 0; i < compare.plot()->itemCount(); ++i)
            hatched += compare.plot()->item(i)->objectName() == "doesNotFit";
        QCOMPARE(hatched, 3);
        // Breakdown hatches the same three (its bars had looked like those that fit), normalised too.
        BreakdownChart breakdown(&session);
        QList<double> notFitting;
        for (std::size_t g = 0; g < session.forecasts()->size(); ++g)
            if (!(*session.forecasts())[g].fits())
                notFitting << double(g + 1);
        QCOMPARE(notFitting, (QList<double>{1, 3, 4})); // the RTX 4090, T4 and P4
        for (const bool normalised : {false, true}) {
            breakdown.setNormalized(normalised);
            QList<double> hatchedGpus;
            for (int i = 0; i < breakdown.plot()->itemCount(); ++i)
                if (auto* rect = qobject_cast<QCPItemRect*>(breakdown.plot()->item(i)); rect && rect->objectName() == "doesNotFit")
                    hatchedGpus << (rect->topLeft->coords().x() + rect->bottomRight->coords().x()) / 2;
            QCOMPARE(hatchedGpus, notFitting);
            QVERIFY(legendNames(breakdown.plot()).contains("Does not fit in memory")); // the mark has a key
        }
        session.setSelectedGpus({"A100-PCIE-40GB", "V100-PCIE-32GB"}); // both fit: no key
        QVERIFY2(!legendNames(breakdown.plot()).contains("Does not fit in memory"), qPrintable(legendNames(breakdown.plot()).join(", ")));
        session.setSelectedGpus({"RTX-4090", "A100-PCIE-40GB", "T4", "P4", "V100-PCIE-32GB"});

        // Past three hours, hours, ticked at round hours (at round milliseconds they read 13.8889,
        // 27.7778, ... h): Llama 3 8B training at 512 x 8192 on a P4 takes 63 h a step.
        QVERIFY(!session.setModel("llama3_8b"));
        QVERIFY(!session.setOptions(GraphOptions{512, 8192, true, false}));
        session.setSelectedGpus({"P4"});
        compare.plot()->replot();
        QVERIFY2(compare.plot()->yAxis->label().contains("(h)"), qPrintable(compare.plot()->yAxis->label()));
        const QVector<QString> ticks = compare.plot()->yAxis->tickVectorLabels();
        QVERIFY(ticks.size() >= 3);
        for (const QString& tick : ticks)
            QVERIFY2(QRegularExpression("^[0-9]+(\\.[0-9])?$").match(tick).hasMatch(), qPrintable(QStringList(ticks.begin(), ticks.end()).join(' ')));
    }

    // GPT-2 XL training at 8 x 512 needs 79.3 of an H100's 80 GiB: the bar says it fits tightly, as
    // `predict` does, and a roomier GPU's says it fits.
    void compareSaysWhenAModelFitsTightly()
    {
        ForecastSession session(nullptr, store());
        QVERIFY(!session.setModel("gpt2_xl"));
        QVERIFY(!session.setOptions(GraphOptions{8, 512, true, false}).has_value());
        session.setSelectedGpus({"H100-SXM5-80GB", "H200-SXM-141GB"});
        const auto forecasts = session.forecasts();
        QVERIFY(forecasts->at(0).fitsTightly() && forecasts->at(1).fits() && !forecasts->at(1).fitsTightly());
        CompareChart compare(&session);
        QVERIFY(shownAt(compare, 1400, 800));
        const QStringList texts = itemTexts(compare.plot());
        QCOMPARE(texts.size(), 2);
        QVERIFY2(texts[0].contains("fits in memory, tightly"), qPrintable(texts[0]));
        QVERIFY2(texts[1].contains("fits in memory") && !texts[1].contains("tightly"), qPrintable(texts[1]));
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
        // 1700 px: the full labels fit over more lines, broken at their phrases' seams (they were
        // cut to time and speed-up with half the chart free above the bars).
        for (const int width : {900, 1700, 2400}) {
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
                // An inference step is a prompt's forward pass, and its rate says so.
                QCOMPARE(tip.contains("prompt tokens/s"), !session.options().training);
            } else { // room for everything
                QVERIFY2(items.front()->text().contains("tokens/s") && items.front()->text().contains("fits in memory"),
                         qPrintable(items.front()->text()));
                for (QCPItemText* t : items) // and still room for the bars
                    QVERIFY2((t->text().count('\n') + 1) * QFontMetrics(t->font()).lineSpacing() <= 0.45 * compare.plot()->axisRect()->height(),
                             qPrintable(t->text()));
            }
            if (width == 1700) // a line broken after its comma, not mid-phrase
                QVERIFY2(items.front()->text().contains(QRegularExpression("prompt tokens/s,\n[0-9.]+k? samples/s")),
                         qPrintable(items.front()->text()));
            if (qEnvironmentVariableIsSet("GPUFORECAST_SAVE_CHARTS")) // for looking at it by eye
                compare.plot()->savePng(qEnvironmentVariable("GPUFORECAST_SAVE_CHARTS") + QString("/compare8-%1.png").arg(width), width, 700);
        }
    }

    // Eight GPUs a model does not fit, in the chart a 1024 x 640 window leaves (about 640 x 230):
    // the first slanted name had been dropped whole by QCustomPlot for crossing the widget's left
    // edge, so every name read one bar to the left, and "17.79 s, does NOT fit" ran off the top.
    // A wider chart keeps the speed-up, with "beyond measured" over two lines.
    void compareNamesEveryBarAndKeepsItsLabelsInALaptopWindow()
    {
        ForecastSession session(nullptr, store());
        QVERIFY(!session.setModel("llama3_8b"));
        GraphOptions o = session.options();
        o.batch = 16;
        o.seq = 2048;
        o.training = true;
        QVERIFY(!session.setOptions(o));
        const QStringList eight{"H100-SXM5-80GB", "H100-PCIE-80GB", "A100-SXM4-80GB", "A100-PCIE-80GB",
                                "MI210",          "MI300X",         "L40S",           "RTX-4090"};
        session.setSelectedGpus(eight);
        QVERIFY(!session.forecasts()->front().fits()); // the longest labels
        CompareChart compare(&session);
        for (const QSize size : {QSize(600, 230), QSize(620, 230), QSize(640, 230), QSize(660, 230), QSize(990, 300)}) {
            compare.resize(size);
            compare.show();
            QVERIFY(QTest::qWaitForWindowExposed(&compare));
            QTest::qWait(50); // the layout's queued replots
            compare.plot()->replot(QCustomPlot::rpImmediateRefresh);
            QCPAxis* x = compare.plot()->xAxis;
            if (size.width() < 990) {
                QVERIFY(x->tickLabelRotation() != 0);
                const QFontMetrics metrics(x->tickLabelFont());
                const double angle = std::abs(x->tickLabelRotation()) * std::numbers::pi / 180;
                const double reach = metrics.horizontalAdvance(eight.front()) * std::cos(angle) + metrics.height() * std::sin(angle);
                QVERIFY2(x->coordToPixel(1) - reach >= 0, qPrintable(QString("%1 px: the first name starts at x %2")
                                                                         .arg(size.width()).arg(x->coordToPixel(1) - reach)));
            }
            const QRect rect = compare.plot()->axisRect()->rect();
            int labels = 0;
            for (int i = 0; i < compare.plot()->itemCount(); ++i) {
                auto* t = qobject_cast<QCPItemText*>(compare.plot()->item(i));
                if (!t || t->text().isEmpty())
                    continue;
                ++labels;
                const QFontMetrics metrics(t->font());
                const double top = t->rotation() == 0 ? t->top->pixelPosition().y()
                                                      : t->position->pixelPosition().y() - t->padding().left() -
                                                            metrics.horizontalAdvance(t->text());
                QVERIFY2(top >= rect.top() - 1, qPrintable(QString("%1 px: '%2' starts at y %3, the plot at %4")
                                                               .arg(size.width()).arg(t->text()).arg(top).arg(rect.top())));
                if (size.width() == 990) // room for the speed-up
                    QVERIFY2(t->rotation() == 0 && t->text().contains("x\n"), qPrintable(t->text()));
            }
            QCOMPARE(labels, int(eight.size()));
        }
    }

    // Six GPUs in the chart of a 1600 x 1000 window: the full labels fit no slot, and the short
    // ones had kept the time and speed-up alone, so a bar whose model fits read as one whose fit
    // was unknown. Between the two, each keeps its rate and says whether the model fits.
    void compareKeepsRateAndFitWhereTheFullLabelsDoNot()
    {
        ForecastSession session(nullptr, store());
        QVERIFY(showPrompt(session, "llama3_8b", 4, 2048));
        session.setSelectedGpus({"H100-SXM5-80GB", "A100-SXM4-80GB", "L40S", "MI300X", "RTX-4090", "L4"});
        CompareChart compare(&session);
        bool cutShort = false; // at one size at least, the full label does not fit
        for (const QSize size : {QSize(1230, 500), QSize(1200, 420), QSize(1100, 420)}) {
            compare.resize(size);
            compare.show();
            QVERIFY(QTest::qWaitForWindowExposed(&compare));
            QTest::qWait(50);
            compare.plot()->replot(QCustomPlot::rpImmediateRefresh);
            const QStringList texts = itemTexts(compare.plot());
            QCOMPARE(texts.size(), 6);
            for (const QString& text : texts) {
                cutShort = cutShort || !text.contains("samples/s");
                QVERIFY2(text.contains(QRegularExpression("\n[0-9.]+( k)? prompt tokens/s")), qPrintable(QString("%1 px: %2").arg(size.width()).arg(text)));
                QVERIFY2(text.contains("\nfits in memory") || text.contains("\ndoes NOT fit"), qPrintable(text));
            }
        }
        QVERIFY(cutShort);
    }

    // Far apart in speed, Compare's hint gives the span as digits ("3.55358e+06x" before) and its
    // log axis ticks at the unit's powers of ten, in one notation, at any span.
    void compareLogScaleReadsInItsUnit()
    {
        ForecastSession session(nullptr, store());
        QVERIFY(showPrompt(session, "llama3_8b", 4, 2048));
        CompareChart compare(&session);
        QVERIFY(shownAt(compare, 1230, 500));
        GpuSpec slow = *session.gpu("L4");
        slow.id = "L4 slowed";
        slow.smCount = 1;
        slow.fp32Gflops = slow.fp32MatrixGflops = 1; // the least a sheet may say
        slow.memoryBandwidthGBps = 1;
        GpuSpec fast = *session.gpu("H100-SXM5-80GB");
        fast.id = "H100 sped up";
        fast.fp32Gflops = fast.fp32MatrixGflops = 1e8; // the most
        fast.memoryBandwidthGBps = 1e7;
        for (const GpuSpec& g : {slow, fast}) {
            const auto refused = session.addGpu(g);
            QVERIFY2(!refused, qPrintable(refused.value_or(QString())));
        }
        session.setSelectedGpus({"H100 sped up", "L4 slowed"});
        QTest::qWait(50);
        const auto* hint = [&]() -> const QLabel* {
            for (const QLabel* label : compare.findChildren<QLabel*>())
                if (label->text().startsWith("the slowest bar is"))
                    return label;
            return nullptr;
        }();
        QVERIFY(hint);
        QVERIFY2(hint->text().contains(QRegularExpression("^the slowest bar is [0-9]{7,}x the fastest")), qPrintable(hint->text()));
        // On the log scale the hint offers, an axis in hours is ticked at powers of ten of hours
        // (it read 2777.78, 27.7778, 0.277778 h), each labelled as a power, as the range needs.
        auto* log = [&]() -> QCheckBox* {
            for (QCheckBox* box : compare.findChildren<QCheckBox*>())
                if (box->text() == "Log scale")
                    return box;
            return nullptr;
        }();
        QVERIFY(log);
        log->setChecked(true);
        QTest::qWait(50);
        compare.plot()->replot(QCustomPlot::rpImmediateRefresh);
        QVERIFY2(compare.plot()->yAxis->label().contains("(h)"), qPrintable(compare.plot()->yAxis->label()));
        const QVector<double> ticks = compare.plot()->yAxis->tickVector();
        const QVector<QString> labels = compare.plot()->yAxis->tickVectorLabels();
        QVERIFY(ticks.size() >= 3);
        for (int i = 0; i < ticks.size(); ++i) {
            const double decades = std::log10(ticks[i] / 3.6e6);
            QVERIFY2(std::abs(decades - std::round(decades)) < 1e-9, qPrintable(labels[i]));
            QVERIFY2(labels[i] == QString("1e%1%2").arg(std::lround(decades) < 0 ? "-" : "+").arg(std::abs(std::lround(decades)), 2, 10, QChar('0')),
                     qPrintable(labels[i]));
        }
        // Under 1.6 decades the log ticker spaces its ticks evenly, at a step that must be in the
        // unit too: an axis of seconds had come up with no tick at all.
        QVERIFY(showPrompt(session, "llama3_8b", 16, 2048)); // about 12 and 35 s
        session.setSelectedGpus({"H100-SXM5-80GB", "A100-SXM4-80GB"});
        QTest::qWait(50);
        compare.plot()->replot(QCustomPlot::rpImmediateRefresh);
        QVERIFY2(compare.plot()->yAxis->label().contains("(s)"), qPrintable(compare.plot()->yAxis->label()));
        const QCPRange range = compare.plot()->yAxis->range();
        QStringList inRange;
        for (int i = 0; i < compare.plot()->yAxis->tickVector().size(); ++i)
            if (range.contains(compare.plot()->yAxis->tickVector()[i]))
                inRange << compare.plot()->yAxis->tickVectorLabels()[i];
        QVERIFY2(inRange.size() >= 2, qPrintable(inRange.join(", ")));
        for (const QString& label : inRange) // seconds as digits: no power for a few seconds
            QVERIFY2(!label.contains('e'), qPrintable(inRange.join(", ")));
        // Evenly spaced ticks as powers keep their figures: 1.5e13 had read "2e+13", as 2e13 does.
        QCOMPARE(logTickLabel(1.5e13, true), QString("1.5e+13"));
        QCOMPARE(logTickLabel(2e5, true), QString("2e+05"));
        QCOMPARE(logTickLabel(1e-6, true), QString("1e-06"));
        QCOMPARE(logTickLabel(20000, false), QString("20000"));
        // Powers or digits by the ticks shown: the log ticker's hidden tick past the top (10^5 over
        // an axis up to 20000) had turned every label into a power.
        QCustomPlot plot;
        plot.resize(600, 400);
        plot.yAxis->setScaleType(QCPAxis::stLogarithmic);
        setPowersOfTenTicker(plot.yAxis);
        plot.yAxis->setRange(2, 20000);
        plot.replot(QCustomPlot::rpImmediateRefresh);
        QVERIFY(plot.yAxis->tickVector().size() >= 3);
        for (const QString& label : plot.yAxis->tickVectorLabels())
            QVERIFY2(!label.contains('e'), qPrintable(label));
        plot.yAxis->setRange(2, 2e6);
        plot.replot(QCustomPlot::rpImmediateRefresh);
        for (const QString& label : plot.yAxis->tickVectorLabels())
            QVERIFY2(label.contains('e'), qPrintable(label));
    }

    // A bar named "H100-SXM5-80GB" showed a user's edited numbers, and one scaled by the what-if
    // sliders looked like the sheet: charts and the status bar mark both, and the hover says what.
    void chartsMarkEditedSheetsAndWhatIfs()
    {
        ForecastSession session(nullptr, store());
        session.setSelectedGpus({"H100-SXM5-80GB", "A100-PCIE-40GB", "T4"});
        GpuSpec edited = *session.gpu("H100-SXM5-80GB");
        edited.memoryBandwidthGBps = 6860;
        QVERIFY(!session.updateGpu(edited).has_value());
        session.setWhatIf("A100-PCIE-40GB", {4, 1, 1, 1});
        CompareChart compare(&session);
        RooflineChart roofline(&session);
        for (ChartWidget* chart : std::initializer_list<ChartWidget*>{&compare, &roofline}) {
            chart->resize(1400, 600);
            chart->show();
            QVERIFY(QTest::qWaitForWindowExposed(chart));
            chart->plot()->replot();
        }
        QCOMPARE(compare.plot()->xAxis->tickVectorLabels(),
                 (QVector<QString>{"H100-SXM5-80GB (edited)", "A100-PCIE-40GB (what-if)", "T4"}));
        QStringList legend;
        for (int i = 0; i < roofline.plot()->legend->itemCount(); ++i)
            if (auto* item = qobject_cast<QCPPlottableLegendItem*>(roofline.plot()->legend->item(i)))
                legend << item->plottable()->name();
        QVERIFY2(legend.contains("H100-SXM5-80GB (edited) roof") && legend.contains("A100-PCIE-40GB (what-if) roof") &&
                     legend.contains("T4 roof") && legend.contains("Softmax (H100-SXM5-80GB (edited))"),
                 qPrintable(legend.join(" | ")));
        const double ms = session.forecasts()->at(1).totalSeconds() * 1e3;
        const QString tip = compare.toolTipAt({compare.plot()->xAxis->coordToPixel(2), compare.plot()->yAxis->coordToPixel(ms / 2)});
        QVERIFY2(tip.contains("What-if: memory bandwidth x4.00") && !tip.contains("FP32 peak x"), qPrintable(tip));
        const QString first = compare.toolTipAt({compare.plot()->xAxis->coordToPixel(1),
                                                 compare.plot()->yAxis->coordToPixel(session.forecasts()->front().totalSeconds() * 500)});
        QVERIFY2(first.contains("Your edited sheet, not the bundled one"), qPrintable(first));
        MainWindow window(&session);
        const QString status = window.statusBar()->currentMessage();
        QVERIFY2(status.startsWith("H100-SXM5-80GB (edited): ") && status.contains("A100-PCIE-40GB (what-if): ") && status.contains("T4: "),
                 qPrintable(status));
        // Back to the bundled sheet, sliders at 1: no mark.
        session.removeGpu("H100-SXM5-80GB");
        session.setWhatIf("A100-PCIE-40GB", {});
        compare.plot()->replot();
        QCOMPARE(compare.plot()->xAxis->tickVectorLabels(), (QVector<QString>{"H100-SXM5-80GB", "A100-PCIE-40GB", "T4"}));
    }

    // A sheet with no efficiency basis is read as a new GPU from its per-SM rates; an A100 with
    // twice the SMs, FP32 and bandwidth came out slower than the A100, and its bar, the only one
    // without a coverage word, looked the most certain. Its label and hover say how it is read.
    void compareSaysASheetIsReadAsANewGpu()
    {
        ForecastSession session(nullptr, store());
        GpuSpec doubled = *session.gpu("A100-PCIE-40GB");
        doubled.id = doubled.name = "A100x2";
        doubled.smCount *= 2;
        doubled.fp32Gflops *= 2;
        doubled.fp32MatrixGflops *= 2;
        doubled.memoryBandwidthGBps *= 2;
        doubled.efficiencyBasisId.clear();
        QVERIFY(!session.addGpu(doubled).has_value());
        session.setSelectedGpus({"A100x2", "A100-PCIE-40GB"});
        CompareChart compare(&session);
        for (const int width : {300, 2400}) { // short labels, full labels
            compare.resize(width, 500);
            compare.show();
            QVERIFY(QTest::qWaitForWindowExposed(&compare));
            QTest::qWait(50);
            const QStringList texts = itemTexts(compare.plot());
            QCOMPARE(texts.size(), 2);
            QVERIFY2(texts[0].endsWith(width == 300 ? "read as new" : "read as a new GPU (hover)"), qPrintable(texts[0]));
            QVERIFY2(!texts[1].contains("new GPU") && !texts[1].contains("read as new"), qPrintable(texts[1]));
        }
        const double ms = session.forecasts()->front().totalSeconds() * 1e3;
        const QString tip = compare.toolTipAt({compare.plot()->xAxis->coordToPixel(1), compare.plot()->yAxis->coordToPixel(ms / 2)});
        QVERIFY2(tip.contains("A100x2 is read as a new GPU") && tip.contains("efficiency_basis") && !tip.contains("(hover)"),
                 qPrintable(tip));
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
        QVERIFY(shownAt(compare, 1200, 500));
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
        QVERIFY(shownAt(waves, 1400, 420));
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
        QVERIFY(shownAt(compare, 1200, 600));
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
        // The axis title is the diamond's only legend: on a short chart (a 1366 x 768 screen) a
        // shorter one that fits, still naming the diamond, rather than the long one cut at both ends.
        compare.resize(1200, 300);
        QTest::qWait(50); // the resize's replot, and the one it queues
        const QString shortTitle = compare.plot()->yAxis->label();
        QVERIFY2(shortTitle.contains("\u25C6 measured") &&
                     QFontMetrics(compare.plot()->yAxis->labelFont()).horizontalAdvance(shortTitle) <=
                         compare.plot()->yAxis->axisRect()->height(),
                 qPrintable(shortTitle));
        compare.resize(1200, 600);
        QTest::qWait(50);
        QVERIFY2(compare.plot()->yAxis->label().endsWith("measured run"), qPrintable(compare.plot()->yAxis->label()));
        const auto hover = [&](double key) {
            return compare.toolTipAt({compare.plot()->xAxis->coordToPixel(key), compare.plot()->yAxis->coordToPixel(1)});
        };
        QVERIFY2(hover(1).contains("Measured: ") && hover(1).contains("NeuSight, run gpt2_large-inf-1024-4") &&
                     hover(1).contains("% slower"),
                 qPrintable(hover(1)));
        QVERIFY2(hover(2).contains("our H200 runs"), qPrintable(hover(2)));
        QVERIFY2(!hover(3).contains("Measured"), qPrintable(hover(3)));
        // A measured GPU says its own measurements (the networks' rows, its tiles) are passed over;
        // the L4 has none to pass over.
        QVERIFY2(hover(1).contains("V100-PCIE-32GB's own measurements are not read") &&
                     hover(1).contains("networks trained without them") && hover(1).contains("take T4's tiles"),
                 qPrintable(hover(1)));
        QVERIFY2(!hover(3).contains("own measurements"), qPrintable(hover(3)));
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

    // A bar's label starts above its measured run's diamond, in every label form: with twelve
    // GPUs the diamonds of runs slower than or near the forecast sat on the upright labels' first
    // digits.
    void compareLabelsClearMeasuredRuns()
    {
        ForecastSession session(nullptr, store()); // GPT-2 large, 4 x 1024, inference
        session.setSelectedGpus({"A10", "A100-PCIE-40GB", "A100-SXM4-40GB", "H100-PCIE-80GB", "H100-SXM5-80GB",
                                 "H200-SXM-141GB", "L4", "L40S", "P100-PCIE-16GB", "P4", "T4", "V100-PCIE-32GB"});
        CompareChart compare(&session);
        compare.show();
        QVERIFY(QTest::qWaitForWindowExposed(&compare));
        for (const QSize size : {QSize(900, 300), QSize(1800, 500)}) { // upright labels, then cut-short ones
            compare.resize(size);
            QTest::qWait(50);
            compare.plot()->replot(QCustomPlot::rpImmediateRefresh);
            const QCPGraph* marks = nullptr;
            for (int i = 0; i < compare.plot()->graphCount(); ++i)
                if (compare.plot()->graph(i)->objectName() == "measuredRuns")
                    marks = compare.plot()->graph(i);
            QVERIFY(marks && marks->data()->size() == 6); // the NeuSight GPUs and the H200
            for (auto point = marks->data()->constBegin(); point != marks->data()->constEnd(); ++point) {
                const double markTop = compare.plot()->yAxis->coordToPixel(point->value) - marks->scatterStyle().size() / 2;
                const QCPItemText* label = nullptr;
                for (int i = 0; i < compare.plot()->itemCount(); ++i)
                    if (auto* t = qobject_cast<QCPItemText*>(compare.plot()->item(i));
                        t && std::abs(t->position->key() - point->key) < 1e-9)
                        label = t;
                QVERIFY(label && !label->text().isEmpty());
                const bool upright = label->rotation() != 0;
                const double textBottom =
                    label->position->pixelPosition().y() - (upright ? label->padding().left() : label->padding().bottom());
                QVERIFY2(textBottom <= markTop,
                         qPrintable(QString("%1 at %2 px: label %3 ends at %4 px, under the diamond's top at %5 px")
                                        .arg(point->key)
                                        .arg(size.width())
                                        .arg(label->text())
                                        .arg(textBottom)
                                        .arg(markTop)));
            }
        }
    }

    // On a layout the memory is one GPU's: "does NOT fit (684.0 GiB)" beside an 8 x 141 GB server
    // read as the whole server's need. Compare's hover says per GPU and what one GPU holds, and
    // Sensitivity's note per GPU; on one GPU neither says "per GPU".
    void memoryIsSaidPerGpuOnALayout()
    {
        ForecastSession session(nullptr, store());
        QVERIFY(!session.setModel("llama2_70b"));
        QVERIFY(!session.setOptions(GraphOptions{8, 2048, true, false}));
        ParallelLayout tp8;
        tp8.tp = 8;
        QVERIFY(!session.setLayout(tp8));
        session.setSelectedGpus({"H200-SXM-141GB"});
        QVERIFY(!session.forecasts()->front().fits());
        CompareChart compare(&session);
        SensitivityChart sensitivity(&session);
        sensitivity.setGpu("H200-SXM-141GB");
        for (ChartWidget* chart : std::initializer_list<ChartWidget*>{&compare, &sensitivity}) {
            chart->resize(1400, 700);
            chart->show();
            QVERIFY(QTest::qWaitForWindowExposed(chart));
        }
        const auto said = [&] {
            compare.plot()->replot(QCustomPlot::rpImmediateRefresh);
            sensitivity.plot()->replot(QCustomPlot::rpImmediateRefresh);
            QString label, note; // the bar's label has its details whole at this width
            for (int i = 0; i < compare.plot()->itemCount(); ++i)
                if (auto* t = qobject_cast<QCPItemText*>(compare.plot()->item(i)); t && t->text().contains("fit"))
                    label = t->text();
            for (int i = 0; i < sensitivity.plot()->itemCount(); ++i)
                if (auto* t = qobject_cast<QCPItemText*>(sensitivity.plot()->item(i)); t && t->objectName() == "noEffect" && t->text().contains("fit"))
                    note = t->text();
            return std::pair{label, note};
        };
        const auto [label, note] = said();
        QVERIFY2(label.contains(QRegularExpression(R"(does NOT fit \([0-9]+\.[0-9] of 141 GiB per GPU\))")), qPrintable(label));
        QVERIFY2(note.contains(QRegularExpression(R"(needs [0-9]+\.[0-9] GiB per GPU\))")), qPrintable(note));
        QVERIFY(!session.setLayout(ParallelLayout{}));
        const auto [oneLabel, oneNote] = said();
        QVERIFY2(oneLabel.contains(" of 141 GiB)") && !oneLabel.contains("per GPU"), qPrintable(oneLabel));
        // On one GPU the need passes 1 TiB, and says so in TiB (formatGiB).
        QVERIFY2(oneNote.contains(QRegularExpression(R"(needs [0-9]+\.[0-9]+ TiB\))")) && !oneNote.contains("per GPU"), qPrintable(oneNote));
    }

    // LLaMA-2 70B training on a 4 x 2 layout in the chart area of a 1024 x 640 window (about
    // 640 x 240): every caption and note in a form that fits, where the Breakdown's caption lost
    // its model name off the left edge and Sensitivity's memory note ran into its row label, cut
    // at both ends.
    void captionsAndNotesFitALaptopWindow()
    {
        ForecastSession session(nullptr, store());
        QVERIFY(!session.setModel("llama2_70b"));
        GraphOptions o = session.options();
        o.batch = 8;
        o.seq = 2048;
        o.training = true;
        QVERIFY(!session.setOptions(o));
        ParallelLayout l;
        l.tp = 4;
        l.pp = 2;
        l.microbatches = 8;
        QVERIFY(!session.setLayout(l));
        session.setSelectedGpus({"H100-SXM5-80GB", "A100-SXM4-80GB", "MI300X", "H200-SXM-141GB"});
        QVERIFY(!session.forecasts()->front().fits()); // the memory note's longest case
        BreakdownChart breakdown(&session);
        SensitivityChart sensitivity(&session);
        RooflineChart roofline(&session);
        CompareChart compare(&session); // its caption names the scenario, as Breakdown's does
        for (ChartWidget* chart : std::initializer_list<ChartWidget*>{&breakdown, &sensitivity, &roofline, &compare}) {
            chart->resize(640, 240);
            chart->show();
            QVERIFY(QTest::qWaitForWindowExposed(chart));
            QTest::qWait(50); // the layout's queued replots
            chart->plot()->replot(QCustomPlot::rpImmediateRefresh);
            const QCPAxisRect* rect = chart->plot()->xAxis->axisRect();
            const QString caption = chart->plot()->xAxis->label();
            const QFontMetrics captionMetrics(chart->plot()->xAxis->labelFont());
            for (const QString& line : caption.split('\n'))
                QVERIFY2(captionMetrics.horizontalAdvance(line) <= rect->width(),
                         qPrintable(QString("%1 px: %2").arg(rect->width()).arg(caption)));
            const QCPLegend* legend = chart->plot()->legend;
            QVERIFY2(legend->wrap() == 0, qPrintable(chart->metaObject()->className())); // one column: rows close up first
        }
        for (const ChartWidget* chart : std::initializer_list<const ChartWidget*>{&breakdown, &compare})
            QVERIFY2(chart->plot()->xAxis->label().startsWith("llama2_70b, ") && chart->plot()->xAxis->label().contains("8 GPUs"),
                     qPrintable(chart->plot()->xAxis->label()));
        // Sensitivity's notes sit on the zero line, inside the rect on both sides, and the
        // memory row still says the model does not fit.
        const QCPAxisRect* rect = sensitivity.plot()->xAxis->axisRect();
        QString memoryNote;
        for (int i = 0; i < sensitivity.plot()->itemCount(); ++i)
            if (auto* t = qobject_cast<QCPItemText*>(sensitivity.plot()->item(i)); t && t->objectName() == "noEffect") {
                const double half = QFontMetrics(t->font()).horizontalAdvance(t->text()) / 2.0;
                const double at = t->position->pixelPosition().x();
                QVERIFY2(at - half >= rect->left() && at + half <= rect->right(), qPrintable(t->text()));
                if (t->text().contains("fit"))
                    memoryNote = t->text();
            }
        QVERIFY2(memoryNote.contains("does NOT fit"), qPrintable(memoryNote));
        // The Roofline names whose kernels its dots are, though the narrow legend drops it.
        const QCPItemText* owner = nullptr;
        for (int i = 0; i < roofline.plot()->itemCount(); ++i)
            if (auto* t = qobject_cast<QCPItemText*>(roofline.plot()->item(i)); t && t->objectName() == "dotsOwner")
                owner = t;
        QVERIFY(owner);
        QVERIFY2(owner->text().contains("H100-SXM5-80GB"), qPrintable(owner->text()));
        // Somewhat shorter, the eleven rows close up and stay in one column.
        bool closedUp = false;
        for (int height = 240; height >= 150 && !closedUp; height -= 10) {
            roofline.resize(640, height);
            QTest::qWait(20);
            roofline.plot()->replot(QCustomPlot::rpImmediateRefresh);
            closedUp = roofline.plot()->legend->rowSpacing() == 0 && roofline.plot()->legend->wrap() == 0;
        }
        QVERIFY(closedUp);
        roofline.resize(1400, 500);
        QTest::qWait(50);
        roofline.plot()->replot(QCustomPlot::rpImmediateRefresh);
        QVERIFY2(owner->text().startsWith("dots: kernels on H100-SXM5-80GB\nnot drawn: "), qPrintable(owner->text()));
        QVERIFY(roofline.plot()->legend->rowSpacing() > 0); // room again: the rows open up
    }
};

QTEST_MAIN(TestUiCharts)
#include "test_ui_charts.moc"
