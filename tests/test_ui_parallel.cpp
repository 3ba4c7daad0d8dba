// A model split over one server's GPUs, as the explorer shows it: communication and bubble on top of
// the kernels, refused layouts that change nothing, and layouts that travel in scenario files.
#include "breakdown_chart.h"
#include "forecast_session.h"
#include "main_window.h"
#include "ui_test_support.h"

#include <qcustomplot.h>

#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTableView>
#include <QToolButton>
#include <QHeaderView>
#include <QtTest>

using namespace gpuforecast;
using namespace gpuforecast::ui;
using gpuforecast::ui::test::shownAt;
using gpuforecast::ui::test::totals;

namespace {

ParallelLayout layout(long long tp, long long pp, long long dp, long long microbatches = 1)
{
    ParallelLayout l;
    l.tp = tp;
    l.pp = pp;
    l.dp = dp;
    l.microbatches = microbatches;
    return l;
}

const GraphOptions kTraining{8, 1024, true, false};

} // namespace

class TestUiParallel : public QObject {
    Q_OBJECT
    test::UserGpuFolder userData_;
    UserGpuStore store() const { return userData_.store(); }

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void init() { userData_.clear(); }

    void layoutsAddCommunicationToTheStep_data()
    {
        QTest::addColumn<int>("tp");
        QTest::addColumn<int>("pp");
        QTest::addColumn<int>("dp");
        QTest::addColumn<int>("microbatches");
        QTest::newRow("tp2") << 2 << 1 << 1 << 1;
        QTest::newRow("dp2") << 1 << 1 << 2 << 1;
        QTest::newRow("pp2, 4 micro-batches") << 1 << 2 << 1 << 4;
    }
    void layoutsAddCommunicationToTheStep()
    {
        QFETCH(int, tp);
        QFETCH(int, pp);
        QFETCH(int, dp);
        QFETCH(int, microbatches);
        ForecastSession session(nullptr, store());
        MainWindow window(&session);
        QVERIFY(!session.setOptions(kTraining).has_value());
        const std::vector<double> oneGpu = totals(session);
        QVERIFY(!session.setLayout(layout(tp, pp, dp, microbatches)).has_value());
        QCOMPARE(session.layout().gpus(), 2LL);
        const auto& chart = *window.breakdownChart();
        for (std::size_t g = 0; g < session.forecasts()->size(); ++g) {
            const ModelForecast& f = (*session.forecasts())[g];
            QVERIFY2(f.commSeconds > 0, f.gpu.c_str());
            QVERIFY(f.totalSeconds() > f.computeSeconds());
            QVERIFY2(f.computeSeconds() < oneGpu[g], f.gpu.c_str()); // two GPUs share the kernels
            QCOMPARE(f.bubbleSeconds > 0, pp > 1);
            // The breakdown stacks communication and bubble on the kernels, adding up to the step.
            QCOMPARE(chart.shownValues()[kCommunicationRow][g], f.commSeconds * 1e3);
            QCOMPARE(chart.shownValues()[kBubbleRow][g], f.bubbleSeconds * 1e3);
            double stacked = 0;
            for (const auto& row : chart.shownValues())
                stacked += row[g];
            QVERIFY(std::abs(stacked - f.totalSeconds() * 1e3) <= 1e-9 * stacked);
        }
        if (qEnvironmentVariableIsSet("GPUFORECAST_SAVE_CHARTS")) // for looking at it by eye
            chart.plot()->savePng(QString("%1/breakdown-%2.png")
                                      .arg(qEnvironmentVariable("GPUFORECAST_SAVE_CHARTS"), QTest::currentDataTag()),
                                  1200, 700);
        QVERIFY(!session.setLayout(ParallelLayout{}).has_value()); // back to one GPU: as before
        QCOMPARE(totals(session), oneGpu);
        for (double comm : chart.shownValues()[kCommunicationRow])
            QCOMPARE(comm, 0.0);
    }

    // A pipeline that does not fit: the dashed outline takes the whole bar, the cross-hatching stops
    // under the bubble, whose own hatching had read as more of "does not fit" under it.
    void doesNotFitLeavesThePipelineBubbleItsOwnHatching()
    {
        ForecastSession session(nullptr, store());
        QVERIFY(!session.setModel("llama2_70b"));
        QVERIFY(!session.setOptions(kTraining).has_value());
        QVERIFY(!session.setLayout(layout(2, 2, 1, 4)).has_value());
        session.setSelectedGpus({"H100-SXM5-80GB"});
        const ModelForecast& f = session.forecasts()->front();
        QVERIFY(!f.fits() && f.bubbleSeconds > 0);
        MainWindow window(&session);
        const QCustomPlot* plot = window.breakdownChart()->plot();
        const auto rect = [&](const char* name) -> const QCPItemRect* {
            for (int i = 0; i < plot->itemCount(); ++i)
                if (auto* r = qobject_cast<QCPItemRect*>(plot->item(i)); r && r->objectName() == name)
                    return r;
            return nullptr;
        };
        const QCPItemRect* outline = rect("doesNotFit");
        const QCPItemRect* hatching = rect("doesNotFitHatching");
        QVERIFY(outline && hatching);
        QCOMPARE(outline->topLeft->coords().y(), f.totalSeconds() * 1e3);
        QCOMPARE(outline->brush().style(), Qt::NoBrush);
        QCOMPARE(hatching->topLeft->coords().y(), (f.totalSeconds() - f.bubbleSeconds) * 1e3);
        QCOMPARE(hatching->pen().style(), Qt::NoPen);
    }

    void refusedLayoutsKeepThePreviousOne()
    {
        ForecastSession session(nullptr, store());
        QVERIFY(!session.setOptions(kTraining).has_value());
        QVERIFY(!session.setLayout(layout(2, 1, 1)).has_value());
        const std::vector<double> before = totals(session);
        QSignalSpy errors(&session, &ForecastSession::errorOccurred);
        auto refused = session.setLayout(layout(3, 1, 1)); // gpt2_large has 20 heads
        QVERIFY(refused && refused->contains("does not divide the 20 attention heads"));
        QVERIFY(session.setLayout(layout(1, 5, 1)).has_value()); // nor do 5 stages split 36 layers
        QCOMPARE(errors.size(), 2);
        QCOMPARE(session.layout().tp, 2LL);
        QCOMPARE(session.layout().pp, 1LL);
        QCOMPARE(totals(session), before);

        // Settings and models must keep suiting the layout.
        QVERIFY(!session.setOptions(GraphOptions{8, 1024, false, false}).has_value()); // TP splits inference too
        QVERIFY(!session.setOptions(kTraining).has_value());
        QVERIFY(!session.setLayout(layout(1, 1, 2)).has_value());
        refused = session.setOptions(GraphOptions{8, 1024, false, false});
        QVERIFY(refused && refused->contains("training"));
        QVERIFY(session.options().training);
        QVERIFY(session.setOptions(GraphOptions{7, 1024, true, false}).has_value()); // dp 2 cannot split 7

        // A GPU without link bandwidth cannot join a multi-GPU comparison.
        GpuSpec island = *session.gpu("L4");
        island.id = "L4 without a link";
        island.interconnectBandwidthGBps = 0;
        QVERIFY(!session.addGpu(island).has_value());
        const QStringList selected = session.selectedGpus();
        session.setGpuSelected("L4 without a link", true);
        QCOMPARE(session.selectedGpus(), selected);
        QVERIFY(errors.last().first().toString().contains("interconnect.bandwidth_gbps"));
    }

    void thePanelEditsTheLayoutAndShowsWhatIsKept()
    {
        ForecastSession session(nullptr, store());
        MainWindow window(&session);
        QVERIFY(!session.setOptions(kTraining).has_value());
        auto* tp = window.findChild<QSpinBox*>("tp");
        auto* pp = window.findChild<QSpinBox*>("pp");
        auto* dp = window.findChild<QSpinBox*>("dp");
        auto* micro = window.findChild<QSpinBox*>("microbatches");
        QVERIFY(tp && pp && dp && micro && window.findChild<QComboBox*>("schedule"));
        QVERIFY(dp->isEnabled()); // training
        tp->setValue(4);
        QCOMPARE(session.layout().tp, 4LL);
        QVERIFY(session.forecasts()->front().commSeconds > 0);
        tp->setValue(3); // refused: the spin box goes back to what the session kept
        QCOMPARE(session.layout().tp, 4LL);
        QCOMPARE(tp->value(), 4);
        QVERIFY(!micro->isEnabled());
        pp->setValue(2);
        QVERIFY(micro->isEnabled());
        micro->setValue(4);
        QCOMPARE(session.layout().microbatches, 4LL);
        pp->setValue(1); // micro-batches need stages: they go back to one with them
        QCOMPARE(session.layout().microbatches, 1LL);
        QCOMPARE(micro->value(), 1);
        auto* count = window.findChild<QLabel*>("gpuCount");
        QVERIFY(count && !count->text().contains("server"));
        dp->setValue(4); // 16 GPUs: more than one server holds, and the panel says what that means
        QCOMPARE(session.layout().gpus(), 16LL);
        QVERIFY2(count->text().contains("A server holds 8 of these GPUs"), qPrintable(count->text()));
        session.setSelectedGpus({session.selectedGpus().front(), "MI210"});
        dp->setValue(2); // 8 GPUs: one server, but more than MI210's bridges join
        QVERIFY2(count->text().contains("More GPUs than a link joins (MI210 joins 4)"), qPrintable(count->text()));
        dp->setValue(1);
        QVERIFY2(!count->text().contains("link joins"), qPrintable(count->text()));
        dp->setValue(4); // 16 GPUs: past a server, and MI210's link still joins only four
        QVERIFY2(count->text().contains("A server holds 8 of these GPUs") &&
                     count->text().contains("(and a link joins fewer: MI210 joins 4)"),
                 qPrintable(count->text()));
        // Shown, the three lines are not cut off: the splitter gives the model pane what it needs,
        // in a short laptop window too (the column scrolls there).
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        for (const QSize size : {QSize(1600, 1000), QSize(1024, 768)}) {
            window.resize(size);
            dp->setValue(2);
            dp->setValue(4);
            QTest::qWait(50); // the pane's fit waits for the layout to settle
            QVERIFY2(count->height() >= count->heightForWidth(count->width()),
                     qPrintable(QString("%1 px of %2 at %3 px high").arg(count->height()).arg(count->heightForWidth(count->width())).arg(size.height())));
        }
        dp->setValue(1);
        tp->setValue(1);
        QCOMPARE(session.layout().gpus(), 1LL);
        QCOMPARE(count->text(), QString("1 GPU"));
    }

    // ZeRO is picked beside DP: it shards the replicas' state (the step's memory falls), goes with
    // the replicas, and beside a pipeline only stage 1 is offered and kept.
    void thePanelShardsStateWithZero()
    {
        ForecastSession session(nullptr, store());
        MainWindow window(&session);
        QVERIFY(!session.setOptions(kTraining).has_value());
        auto* dp = window.findChild<QSpinBox*>("dp");
        auto* pp = window.findChild<QSpinBox*>("pp");
        auto* zero = window.findChild<QComboBox*>("zero");
        QVERIFY(dp && pp && zero);
        QVERIFY(!zero->isEnabled()); // one replica: nothing to share
        dp->setValue(4);
        QVERIFY(zero->isEnabled());
        const double whole = session.forecasts()->front().memory.totalBytes();
        zero->setCurrentIndex(3);
        QCOMPARE(session.layout().zero, 3LL);
        const double sharded = session.forecasts()->front().memory.totalBytes();
        QVERIFY2(sharded < whole, qPrintable(QString("%1 -> %2 GB").arg(whole / 1e9).arg(sharded / 1e9)));
        const QString caption = window.breakdownChart()->plot()->xAxis->label(); // and on an exported image
        QVERIFY2(caption.contains("DP 4, ZeRO 3)"), qPrintable(caption));
        QSignalSpy adjusted(&session, &ForecastSession::adjusted);
        pp->setValue(2); // a pipeline keeps stage 1 only, and the status bar says so
        QCOMPARE(session.layout().pp, 2LL);
        QCOMPARE(adjusted.size(), 1);
        QVERIFY2(adjusted.front().front().toString().startsWith("Adjusted: ZeRO 3 -> 1, as only stage 1 runs beside a pipeline"),
                 qPrintable(adjusted.front().front().toString()));
        QCOMPARE(session.layout().zero, 1LL);
        QCOMPARE(zero->currentIndex(), 1);
        auto* stages = qobject_cast<QStandardItemModel*>(zero->model());
        QVERIFY(stages && stages->item(1)->isEnabled() && !stages->item(2)->isEnabled() && !stages->item(3)->isEnabled());
        pp->setValue(1);
        QVERIFY(stages->item(3)->isEnabled());
        dp->setValue(1); // the replicas go, and their sharding with them
        QCOMPARE(session.layout().zero, 0LL);
        QCOMPARE(zero->currentIndex(), 0);
        QVERIFY(!zero->isEnabled());
    }

    // Checkpointing is a training choice: greyed out for inference, it trades time for memory,
    // says so under the charts, and travels in the scenario.
    void thePanelRecomputesActivations()
    {
        ForecastSession session(nullptr, store());
        MainWindow window(&session);
        auto* box = window.findChild<QCheckBox*>("checkpointing");
        QVERIFY(box);
        QVERIFY(!box->isEnabled()); // the default scenario is inference
        QVERIFY(!session.setOptions(kTraining).has_value());
        QVERIFY(box->isEnabled());
        const ModelForecast kept = session.forecasts()->front();
        box->setChecked(true);
        QVERIFY(session.options().checkpointing);
        const ModelForecast& again = session.forecasts()->front();
        QVERIFY(again.totalSeconds() > kept.totalSeconds() && again.memory.totalBytes() < kept.memory.totalBytes());
        const QString caption = window.breakdownChart()->plot()->xAxis->label();
        QVERIFY2(caption.contains("training step, checkpointed"), qPrintable(caption));
        // Fusion is named too, where the CLI's first line names it: an exported chart of a fused
        // step looked like an unfused one.
        GraphOptions fused = session.options();
        fused.fusion = true;
        QVERIFY(!session.setOptions(fused).has_value());
        const QString fusedCaption = window.breakdownChart()->plot()->xAxis->label();
        QVERIFY2(fusedCaption.contains("training step, fused, checkpointed") || fusedCaption.contains("training, fused"),
                 qPrintable(fusedCaption));
        fused.fusion = false;
        QVERIFY(!session.setOptions(fused).has_value());
        QVERIFY(session.toScenario().options.checkpointing);
        GraphOptions inference = kTraining;
        inference.training = false;
        inference.checkpointing = true;
        QVERIFY(!session.setOptions(inference).has_value()); // kept, read as off, and the box greyed out
        QVERIFY(!box->isEnabled() && !box->isChecked());
        QVERIFY(!session.forecasts()->front().options.training);
        auto* mode = window.findChild<QComboBox*>("mode");
        QVERIFY(mode);
        mode->setCurrentIndex(1); // back to training through the panel: the choice comes back
        QVERIFY(session.options().training && session.options().checkpointing);
        QVERIFY(box->isEnabled() && box->isChecked());
    }

    // The arrows step over what the model refuses: from TP 2 the next press tried 3 (20 heads),
    // was refused and snapped back, so 4 could not be reached with them.
    void arrowsSkipRefusedLayoutValues()
    {
        ForecastSession session(nullptr, store());
        MainWindow window(&session);
        QCOMPARE(session.modelName(), QString("gpt2_large")); // 20 heads, FFN 5120, 36 layers
        QVERIFY(!session.setOptions(kTraining).has_value());  // batch 8
        auto* tp = window.findChild<QSpinBox*>("tp");
        auto* pp = window.findChild<QSpinBox*>("pp");
        auto* dp = window.findChild<QSpinBox*>("dp");
        QVERIFY(tp && pp && dp);
        // Four presses of the up arrow, and the degree the session holds after each.
        const auto fourUp = [&](QSpinBox* box, long long ParallelLayout::*degree) {
            QList<long long> seen;
            for (int i = 0; i < 4; ++i) {
                box->stepUp();
                seen << session.layout().*degree;
            }
            return seen;
        };
        QCOMPARE(fourUp(tp, &ParallelLayout::tp), (QList<long long>{2, 4, 5, 10}));
        tp->stepDown();
        QCOMPARE(session.layout().tp, 5LL);
        tp->setValue(1);
        QCOMPARE(fourUp(pp, &ParallelLayout::pp), (QList<long long>{2, 3, 4, 6}));
        // Micro-batches divide the batch of 8; past 8 the box's 2^20 is not searched (a press at
        // the top took seconds).
        pp->setValue(4);
        auto* micro = window.findChild<QSpinBox*>("microbatches");
        QVERIFY(micro && micro->maximum() > 1000000);
        QCOMPARE(fourUp(micro, &ParallelLayout::microbatches), (QList<long long>{2, 4, 8, 8}));
        micro->setValue(1);
        pp->setValue(1);
        dp->stepBy(2); // two presses at once: 2, then 4, never 3 (batch 8)
        QCOMPARE(session.layout().dp, 4LL);
        dp->stepBy(1); // 8 divides 8; past it nothing does: it stays
        dp->stepBy(1);
        QCOMPARE(session.layout().dp, 8LL);
        QCOMPARE(dp->value(), 8);
        // And its up arrow is greyed, where the down one is not; at 1 the down arrow is, and at TP 20
        // (the heads) the up one, as no larger degree divides 20 heads.
        QCOMPARE(arrows(dp), QAbstractSpinBox::StepEnabled(QAbstractSpinBox::StepDownEnabled));
        dp->setValue(1);
        QCOMPARE(arrows(dp), QAbstractSpinBox::StepEnabled(QAbstractSpinBox::StepUpEnabled));
        QCOMPARE(arrows(tp), QAbstractSpinBox::StepEnabled(QAbstractSpinBox::StepUpEnabled));
        tp->setValue(20);
        QCOMPARE(session.layout().tp, 20LL);
        QCOMPARE(arrows(tp), QAbstractSpinBox::StepEnabled(QAbstractSpinBox::StepDownEnabled));
        // A batch past the DP box's 4096: the arrows still reach every degree that divides it (the
        // divisors of 4096 alone went 2 -> 4, past 3 of 6000).
        tp->setValue(1);
        QVERIFY(!session.setOptions(GraphOptions{6000, 1024, true, false}).has_value());
        dp->setValue(2);
        QCOMPARE(session.layout().dp, 2LL);
        dp->stepUp();
        QCOMPARE(session.layout().dp, 3LL);
    }

    // Which arrows a spin box offers (a protected virtual, read through a pointer to member).
    static QAbstractSpinBox::StepEnabled arrows(const QAbstractSpinBox* box)
    {
        struct Peek : QAbstractSpinBox {
            static StepEnabled of(const QAbstractSpinBox* b) { return (b->*(&Peek::stepEnabled))(); }
        };
        return Peek::of(box);
    }

    // A pick that no longer suits the layout or the sequence adjusts them and says so, where it
    // had been refused and left the user to find the order of edits that works. Scenarios and
    // scripts are still refused (refusedLayoutsKeepThePreviousOne).
    void picksAdjustWhatNoLongerSuits()
    {
        ForecastSession session(nullptr, store());
        MainWindow window(&session);
        QComboBox *model = nullptr, *modeBox = nullptr;
        for (auto* box : window.findChildren<QComboBox*>()) {
            model = box->findText("llama2_70b") >= 0 ? box : model;
            modeBox = box->findText("Training step") >= 0 ? box : modeBox;
        }
        auto* seq = window.findChild<QSpinBox*>("seq");
        QVERIFY(model && modeBox && seq);
        // Training on DP 2, then inference: DP goes back to 1 (it is greyed out there anyway).
        QVERIFY(!session.setOptions(kTraining).has_value());
        QVERIFY(!session.setLayout(layout(1, 1, 2)).has_value());
        modeBox->setCurrentIndex(0);
        QVERIFY(!session.options().training);
        QCOMPARE(session.layout().dp, 1LL);
        QVERIFY2(window.statusBar()->currentMessage().contains("Adjusted: DP 2 -> 1, as data parallelism applies to training (dp 1 for inference)"),
                 qPrintable(window.statusBar()->currentMessage()));
        // LLaMA-2 70B on TP 8, then GPT-2 large (20 heads): TP 5, the nearest that divides.
        model->setCurrentText("llama2_70b");
        QCOMPARE(session.modelName(), QString("llama2_70b"));
        QVERIFY(!session.setLayout(layout(8, 1, 1)).has_value());
        model->setCurrentText("gpt2_large");
        QCOMPARE(session.modelName(), QString("gpt2_large"));
        QCOMPARE(session.layout().tp, 5LL);
        QCOMPARE(window.findChild<QSpinBox*>("tp")->value(), 5);
        QVERIFY2(window.statusBar()->currentMessage().contains("Adjusted to suit gpt2_large: TP 8 -> 5, as tp 8 does not divide the 20 attention heads"),
                 qPrintable(window.statusBar()->currentMessage()));
        // A sequence of 2048, then BERT (512 learned positions): 512.
        QVERIFY(!session.setLayout(layout(1, 1, 1)).has_value());
        model->setCurrentText("llama2_7b");
        QVERIFY(!session.setOptions(GraphOptions{2, 2048, false, false}).has_value());
        model->setCurrentText("bert_large");
        QCOMPARE(session.modelName(), QString("bert_large"));
        QCOMPARE(session.options().seq, 512LL);
        QCOMPARE(seq->value(), 512);
        QVERIFY2(window.statusBar()->currentMessage().contains("Adjusted to suit bert_large: sequence length 2048 -> 512, as it has 512 learned positions"), qPrintable(window.statusBar()->currentMessage()));
        // When the message times out, the step times come back (the bar had stayed empty).
        window.statusBar()->clearMessage(); // what the message's timer does
        QVERIFY2(window.statusBar()->currentMessage().contains(" ms") || window.statusBar()->currentMessage().contains(" s"),
                 qPrintable(window.statusBar()->currentMessage()));
        // The session's own calls still refuse: a scenario means what it says.
        QVERIFY(session.setModel("gpt2_large").has_value() == false); // 512 suits GPT-2 too
        QVERIFY(!session.setLayout(layout(1, 1, 1)).has_value());
        QVERIFY(!session.setOptions(GraphOptions{2, 1024, false, false}).has_value());
        QVERIFY(!session.setLayout(layout(5, 1, 1)).has_value());
        QVERIFY(session.setModel("llama2_7b").has_value()); // 32 heads: refused, nothing adjusted
        QCOMPARE(session.modelName(), QString("gpt2_large"));
        QCOMPARE(session.layout().tp, 5LL);
    }

    // A scenario's batch of 131072 was shown as 65536, the old box limit, while the forecast used
    // 131072; the next edit of any field halved the batch. The boxes take what files and the CLI take.
    void boxesHoldTheLargestValuesAFileMay()
    {
        ForecastSession session(nullptr, store());
        MainWindow window(&session);
        QVERIFY(!session.setModel("opt").has_value());
        QVERIFY(!session.setOptions(GraphOptions{kMaxBatch, 16, false, false}).has_value());
        QVERIFY(!session.setLayout(layout(1, 1, 1, 1)).has_value());
        auto* batch = window.findChild<QSpinBox*>("batch");
        auto* seq = window.findChild<QSpinBox*>("seq");
        QVERIFY(batch && seq);
        QCOMPARE(batch->value(), int(kMaxBatch));
        QCOMPARE(seq->maximum(), int(kMaxSeq));
        for (const char* name : {"tp", "pp", "dp"})
            QCOMPARE(window.findChild<QSpinBox*>(name)->maximum(), int(kMaxParallelDegree));
        QCOMPARE(window.findChild<QSpinBox*>("microbatches")->maximum(), int(kMaxMicrobatches));
    }

    // On one GPU the layout's rows are folded under a one-line header, which leaves a 1280 x 800
    // window's spec table room for several fields (it had two); a layout of more GPUs unfolds them.
    void oneGpuFoldsTheLayoutAway()
    {
        ForecastSession session(nullptr, store());
        MainWindow window(&session);
        QVERIFY(shownAt(window, 1280, 800));
        QCOMPARE(session.layout().gpus(), 1LL);
        auto* header = window.findChild<QToolButton*>("parallelHeader");
        auto* tp = window.findChild<QSpinBox*>("tp");
        auto* spec = window.findChild<QTableView*>("specTable");
        QVERIFY(header && tp && spec);
        QCOMPARE(header->text(), QString("Parallel layout: 1 GPU"));
        QVERIFY(header->isVisible() && !tp->isVisible());
        QTest::qWait(100); // the splitter gives the model pane its height after the layout settles
        // In view without scrolling the left column, not merely laid out below its fold.
        const int inView = spec->viewport()->visibleRegion().boundingRect().height();
        QVERIFY2(inView >= 4 * spec->verticalHeader()->defaultSectionSize(), qPrintable(QString("%1 px of table in view").arg(inView)));
        header->click(); // the user opens it
        QVERIFY(tp->isVisible());
        header->click();
        QVERIFY(!tp->isVisible());

        QVERIFY(!session.setLayout(layout(2, 1, 1)).has_value()); // e.g. a scenario's layout
        QCOMPARE(header->text(), QString("Parallel layout: 2 GPUs (TP 2)"));
        QVERIFY(tp->isVisible() && tp->value() == 2);
        auto* count = window.findChild<QLabel*>("gpuCount");
        QVERIFY(count && count->isVisible());
        QVERIFY(!session.setLayout(layout(1, 1, 1)).has_value());
        QCOMPARE(header->text(), QString("Parallel layout: 1 GPU"));
        QVERIFY(!count->isVisible()); // "1 GPU" is the header's
    }

    void layoutTravelsInTheScenario()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("pipeline.json");
        std::vector<double> before, comm;
        {
            ForecastSession session(nullptr, store());
            MainWindow window(&session);
            QVERIFY(!session.setModel("gpt2_med").has_value()); // 24 layers
            QVERIFY(!session.setOptions(kTraining).has_value());
            ParallelLayout l = layout(2, 2, 1, 4);
            l.schedule = PipelineSchedule::GPipe;
            QVERIFY(!session.setLayout(l).has_value());
            QVERIFY(window.saveScenario(path));
            before = totals(session);
            for (const auto& f : *session.forecasts())
                comm.push_back(f.commSeconds);
        }
        ForecastSession session(nullptr, store());
        MainWindow window(&session);
        QVERIFY(!session.setOptions(kTraining).has_value());
        QVERIFY(!session.setLayout(layout(1, 9, 1)).has_value()); // fine for gpt2_large's 36 layers, not for 24:
        QVERIFY(window.openScenario(path)); // the file's model is checked against the file's layout
        QCOMPARE(session.modelName(), QString("gpt2_med"));
        QCOMPARE(session.layout().tp, 2LL);
        QCOMPARE(session.layout().pp, 2LL);
        QCOMPARE(session.layout().microbatches, 4LL);
        QVERIFY(session.layout().schedule == PipelineSchedule::GPipe);
        QCOMPARE(window.findChild<QSpinBox*>("pp")->value(), 2); // the panel follows the opened file
        QCOMPARE(totals(session), before);
        for (std::size_t g = 0; g < comm.size(); ++g)
            QCOMPARE((*session.forecasts())[g].commSeconds, comm[g]);
    }
};

QTEST_MAIN(TestUiParallel)
#include "test_ui_parallel.moc"
