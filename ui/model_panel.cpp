#include "model_panel.h"

#include "gpuforecast/model_forecast.h"
#include "gpuforecast/model_graph.h"
#include "gpuforecast/parallel.h"

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <functional>
#include <optional>
#include <vector>

#include <QCheckBox>
#include <QComboBox>
#include <QStandardItemModel>
#include <QFileDialog>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QToolButton>
#include <QVBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QStringList>

namespace gpuforecast::ui {
namespace {

// Arrows, keys and wheel skip the values the layout refuses: TP went 2 -> 3, was refused (20
// heads), and snapped back to 2, so 4 was out of the arrows' reach. A typed value is still
// applied and, if refused, said why.
class LayoutSpinBox : public QSpinBox {
public:
    // `accepts` says whether a value fits; `largest` is the count every accepted value divides
    // (heads, layers or batch: largestFittingDegree), so only its divisors are tried. Trying every
    // value up to a batch of 2^20 took seconds a press, and with the arrows judged on every change,
    // seconds an edit.
    LayoutSpinBox(QWidget* parent, std::function<bool(int)> accepts, std::function<int()> largest)
        : QSpinBox(parent), accepts_(std::move(accepts)), largest_(std::move(largest))
    {
    }
    void stepBy(int steps) override
    {
        int value = this->value();
        for (int taken = 0; taken < std::abs(steps); ++taken) {
            const std::optional<int> next = nextAccepted(value, steps > 0 ? 1 : -1);
            if (!next)
                break; // nothing further that way: stay
            value = *next;
        }
        setValue(value);
    }
    // Greys an arrow with nothing it could reach (TP 20 of a 20-head model). Judged when the
    // session changes, not on every paint, as each value is a layout check; a disabled box not at all.
    void judgeSteps()
    {
        steps_ = StepNone;
        if (isEnabled() && !isReadOnly()) {
            if (nextAccepted(value(), 1))
                steps_ |= StepUpEnabled;
            if (nextAccepted(value(), -1))
                steps_ |= StepDownEnabled;
        }
        update();
    }

protected:
    StepEnabled stepEnabled() const override { return isReadOnly() || !isEnabled() ? StepEnabled(StepNone) : steps_; }

private:
    std::optional<int> nextAccepted(int from, int direction) const
    {
        // Divisors of the count itself, then the box's range: those of min(range, count) missed
        // DP 3 of a batch of 6000 in a box that ends at 4096.
        const int count = largest_();
        std::vector<int> divisors; // ascending: about 2 sqrt(count) steps to list
        std::vector<int> upper;
        for (int d = 1; d <= count / d; ++d)
            if (count % d == 0) {
                divisors.push_back(d);
                if (d != count / d)
                    upper.push_back(count / d);
            }
        divisors.insert(divisors.end(), upper.rbegin(), upper.rend());
        const auto inRange = [this](int v) { return v >= minimum() && v <= maximum(); };
        if (direction > 0) {
            for (auto it = std::upper_bound(divisors.begin(), divisors.end(), from); it != divisors.end(); ++it)
                if (inRange(*it) && accepts_(*it))
                    return *it;
        } else {
            auto it = std::lower_bound(divisors.begin(), divisors.end(), from);
            while (it != divisors.begin()) {
                --it;
                if (inRange(*it) && accepts_(*it))
                    return *it;
            }
        }
        return std::nullopt;
    }

    StepEnabled steps_ = StepUpEnabled | StepDownEnabled;
    std::function<bool(int)> accepts_;
    std::function<int()> largest_;
};

} // namespace

ModelPanel::ModelPanel(ForecastSession* session, QWidget* parent)
    : QWidget(parent), session_(session), model_(new QComboBox(this)), batch_(new QSpinBox(this)),
      seq_(new QSpinBox(this)), mode_(new QComboBox(this)), fusion_(new QCheckBox(tr("Fuse element-wise chains"), this)),
      checkpointing_(new QCheckBox(tr("Recompute activations"), this)),
      tp_(layoutSpinBox(&ParallelLayout::tp)), pp_(layoutSpinBox(&ParallelLayout::pp)), dp_(layoutSpinBox(&ParallelLayout::dp)),
      microbatches_(layoutSpinBox(&ParallelLayout::microbatches)),
      schedule_(new QComboBox(this)), zero_(new QComboBox(this)), gpuCount_(new QLabel(this)),
      parallelHeader_(new QToolButton(this)), size_(new QLabel(this)), graphCheck_(new QLabel(this)),
      precision_(new QLabel(this)), assumed_(new QLabel(this))
{
    size_->setObjectName("modelSize"); // one line, two for a mixture of experts: wrapped, it left a blank line
    precision_->setObjectName("configPrecision");
    precision_->setWordWrap(true);
    graphCheck_->setObjectName("graphCheck");
    graphCheck_->setWordWrap(true);
    assumed_->setObjectName("configAssumed");
    assumed_->setWordWrap(true);
    model_->addItems(session_->bundledModels());
    // The limits scenario files and the CLI accept: a file's batch of 131072 was shown as 65536
    // while the forecast used 131072, and the next edit halved it.
    batch_->setRange(1, int(kMaxBatch));
    seq_->setRange(1, int(kMaxSeq));
    // "Inference" alone was read as token-by-token generation, whose cost batch and bandwidth
    // decide; the step forecast is one forward pass over the whole prompt.
    mode_->addItems({tr("Inference (prompt pass)"), tr("Training step")});
    mode_->setItemData(0, tr("One forward pass over batch x sequence tokens (prefill). Token-by-token generation "
                             "is not forecast."), Qt::ToolTipRole);
    mode_->setItemData(1, tr("The forward and backward passes of one step, each weight's gradient added to its buffer."),
                       Qt::ToolTipRole);
    auto* open = new QPushButton(tr("Open config.json…"), this);
    auto* form = new QFormLayout(this);
    form->addRow(tr("Model"), model_);
    form->addRow(QString(), open);
    form->addRow(QString(), size_);
    form->addRow(QString(), graphCheck_);
    form->addRow(QString(), precision_);
    form->addRow(QString(), assumed_);
    form->addRow(tr("Batch"), batch_);
    form->addRow(tr("Sequence length"), seq_);
    form->addRow(tr("Mode"), mode_);
    form->addRow(QString(), fusion_);
    checkpointing_->setObjectName("checkpointing");
    checkpointing_->setToolTip(tr("Activation checkpointing (training): each layer keeps only its input and runs its forward again in the "
                                  "backward, trading about a third more compute for most of the activations' memory."));
    form->addRow(QString(), checkpointing_);
    form->addRow(buildParallelSection());
    syncFromSession();

    connect(model_, &QComboBox::currentTextChanged, this, [this](const QString& id) {
        if (id == session_->modelName())
            return;
        session_->setModel(id, ForecastSession::Fit::Adjust);
        syncFromSession(); // refused: what is really loaded; else what was adjusted to suit it
    });
    connect(open, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Open a Hugging Face config.json"), {},
                                                          tr("Model configs (*.json)"));
        if (!path.isEmpty())
            openConfig(path);
    });
    for (QSpinBox* s : {batch_, seq_})
        connect(s, &QSpinBox::editingFinished, this, &ModelPanel::applyOptions);
    connect(mode_, &QComboBox::currentIndexChanged, this, &ModelPanel::applyOptions);
    connect(fusion_, &QCheckBox::toggled, this, &ModelPanel::applyOptions);
    connect(checkpointing_, &QCheckBox::toggled, this, &ModelPanel::applyOptions);
    for (QSpinBox* s : {tp_, pp_, dp_, microbatches_})
        connect(s, &QSpinBox::valueChanged, this, &ModelPanel::applyLayout);
    connect(schedule_, &QComboBox::currentIndexChanged, this, &ModelPanel::applyLayout);
    connect(zero_, &QComboBox::currentIndexChanged, this, &ModelPanel::applyLayout);
    // Scenarios and recovered work change the settings behind the panel's back.
    connect(session_, &ForecastSession::forecastsChanged, this, &ModelPanel::syncFromSession);
}

QWidget* ModelPanel::buildParallelSection()
{
    auto* section = new QWidget(this);
    auto* column = new QVBoxLayout(section);
    column->setContentsMargins(0, 0, 0, 0);
    column->setSpacing(2);
    parallelHeader_->setObjectName("parallelHeader");
    parallelHeader_->setCheckable(true);
    parallelHeader_->setAutoRaise(true);
    parallelHeader_->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    parallelHeader_->setToolTip(tr("Show or hide how the model is split over the GPUs of a server: tensor, pipeline "
                                   "and data parallel degrees, micro-batches, schedule and ZeRO"));
    column->addWidget(parallelHeader_);
    parallelBox_ = buildParallelBox();
    column->addWidget(parallelBox_);
    connect(parallelHeader_, &QToolButton::toggled, this, &ModelPanel::showParallelBox);
    showParallelBox(false);
    return section;
}

void ModelPanel::showParallelBox(bool shown)
{
    if (parallelHeader_->isChecked() != shown)
        parallelHeader_->setChecked(shown); // comes back here through toggled
    parallelHeader_->setArrowType(shown ? Qt::DownArrow : Qt::RightArrow);
    parallelBox_->setVisible(shown);
}

QGroupBox* ModelPanel::buildParallelBox()
{
    // Not "(one server)": the boxes go to 4096 GPUs, and past a server's count the note under them
    // says what the forecast then leaves out.
    auto* box = new QGroupBox(this); // its header says "Parallel layout" (buildParallelSection)
    batch_->setObjectName("batch"); // for tests and accessibility tools
    seq_->setObjectName("seq");
    mode_->setObjectName("mode");
    tp_->setObjectName("tp");
    pp_->setObjectName("pp");
    dp_->setObjectName("dp");
    microbatches_->setObjectName("microbatches");
    schedule_->setObjectName("schedule");
    // Two pairs a row: three pairs and "Micro-batches" beside "Schedule" held the left column at
    // 44% of a 1024-px window.
    auto* grid = new QGridLayout(box);
    const struct {
        QSpinBox* spin;
        QString label;
        int max, row, column;
        QString tip;
    } spins[] = {
        {tp_, tr("TP"), int(kMaxParallelDegree), 0, 0,
         tr("Tensor parallel (Megatron): each layer's attention heads and FFN are split over this many GPUs, "
            "with two all-reduces per layer. Must divide the heads and the FFN width.")},
        {pp_, tr("PP"), int(kMaxParallelDegree), 0, 2,
         tr("Pipeline parallel: the layers are split into this many stages, one after another. Must divide "
            "the number of layers.")},
        {dp_, tr("DP"), int(kMaxParallelDegree), 1, 0,
         tr("Data parallel (training only): replicas each take a share of the batch and all-reduce their "
            "gradients. Must divide the batch.")},
        {microbatches_, tr("Micro-batches"), int(kMaxMicrobatches), 1, 2,
         tr("Micro-batches per step in the pipeline: more of them shrink the fill-and-drain bubble. Must "
            "divide each replica's batch; needs PP above 1.")},
    };
    for (const auto& s : spins) {
        s.spin->setRange(1, s.max);
        s.spin->setKeyboardTracking(false); // one forecast when typing is done, not one per digit
        s.spin->setToolTip(s.tip);
        auto* label = new QLabel(s.label, box);
        label->setBuddy(s.spin);
        label->setToolTip(s.tip);
        grid->addWidget(label, s.row, s.column);
        grid->addWidget(s.spin, s.row, s.column + 1);
    }
    schedule_->addItems({tr("GPipe"), tr("1F1B")});
    schedule_->setToolTip(tr("Pipeline schedule. GPipe runs every forward micro-batch, then every backward; "
                             "1F1B alternates them and holds fewer activations. The forecast step time is the same."));
    auto* scheduleLabel = new QLabel(tr("Schedule"), box);
    scheduleLabel->setBuddy(schedule_);
    grid->addWidget(scheduleLabel, 2, 0);
    grid->addWidget(schedule_, 2, 1, 1, 3);
    zero_->setObjectName("zero");
    zero_->addItems({tr("None"), tr("1: optimizer state"), tr("2: + gradients"), tr("3: + weights (FSDP)")});
    const QString zeroTip = tr("ZeRO (training, DP above 1): the replicas split what each would hold whole: Adam's "
                               "moments (1), the gradients too (2), the weights too (3, as FSDP's full shard, gathered "
                               "layer by layer). Stage 3 gathers the weights again for the backward, half as much "
                               "traffic again as the all-reduce; 2 and 3 do not run beside a pipeline.");
    zero_->setToolTip(zeroTip);
    auto* zeroLabel = new QLabel(tr("ZeRO"), box);
    zeroLabel->setBuddy(zero_);
    zeroLabel->setToolTip(zeroTip);
    grid->addWidget(zeroLabel, 3, 0);
    grid->addWidget(zero_, 3, 1, 1, 3);
    gpuCount_->setToolTip(tr("GPUs in the server: TP × PP × DP, linked by the spec sheet's interconnect. "
                             "Charts show the busiest GPU's step: its kernels, communication and pipeline bubble."));
    gpuCount_->setWordWrap(true); // the panel is narrow
    gpuCount_->setObjectName("gpuCount");
    grid->addWidget(gpuCount_, 4, 0, 1, 4);
    return box;
}

void ModelPanel::openConfig(const QString& path)
{
    // Refused as a scenario or a GPU sheet is, in a dialog naming the file and field: the status
    // bar alone said it for ten seconds, easily missed after a file dialog.
    const auto error = session_->setModel(path, ForecastSession::Fit::Adjust);
    syncFromSession();
    if (error && isVisible())
        QMessageBox::warning(this, tr("Cannot open model config"), *error);
}

void ModelPanel::applyOptions()
{
    GraphOptions o;
    o.batch = batch_->value();
    o.seq = seq_->value();
    o.training = mode_->currentIndex() == 1;
    o.fusion = fusion_->isChecked();
    // The box shows unticked for inference, where the choice does nothing; the session keeps it, so
    // going back to training brings it back (it had been lost on the way through inference).
    o.checkpointing = session_->options().training ? checkpointing_->isChecked() : session_->options().checkpointing;
    // Refused (e.g. a sequence longer than the model allows): the sync restores. A layout that no
    // longer suits (DP in inference, a batch DP does not divide) is fitted, and the status bar says how.
    session_->setOptions(o, ForecastSession::Fit::Adjust);
    syncFromSession();
}

QSpinBox* ModelPanel::layoutSpinBox(long long ParallelLayout::*degree)
{
    return new LayoutSpinBox(
        this,
        [this, degree](int value) {
            ParallelLayout l = session_->layout();
            l.*degree = value;
            return layoutFits(session_->model(), session_->options(), withDependentsFitted(l)); // as applyLayout sends it
        },
        [this, degree] { return int(std::min<long long>(INT_MAX, largestFittingDegree(session_->model(), session_->options(), degree))); });
}

ParallelLayout ModelPanel::withDependentsFitted(ParallelLayout l)
{
    if (l.pp == 1)
        l.microbatches = 1; // without stages there is nothing to split
    if (l.dp == 1)
        l.zero = 0; // nobody to share the state with
    if (l.pp > 1)
        l.zero = std::min(l.zero, 1LL); // DeepSpeed runs only stage 1 beside a pipeline
    return l;
}

void ModelPanel::applyLayout()
{
    ParallelLayout l;
    l.tp = tp_->value();
    l.pp = pp_->value();
    l.dp = dp_->value();
    l.microbatches = microbatches_->value();
    l.schedule = schedule_->currentIndex() == 0 ? PipelineSchedule::GPipe : PipelineSchedule::OneFOneB;
    l.zero = std::max(0, zero_->currentIndex());
    const ParallelLayout fitted = withDependentsFitted(l);
    // refused: the reason goes to the status bar, the sync shows what is kept
    if (!session_->setLayout(fitted) && fitted.zero != l.zero) // said, as a pick's other adjustments are
        emit session_->adjusted(tr("Adjusted: ZeRO %1 -> %2, as %3")
                                    .arg(l.zero)
                                    .arg(fitted.zero)
                                    .arg(fitted.dp == 1 ? tr("it shards state among data-parallel replicas (DP above 1)")
                                                        : tr("only stage 1 runs beside a pipeline")));
    syncFromSession();
}

void ModelPanel::syncFromSession()
{
    const QSignalBlocker b1(model_), b2(batch_), b3(seq_), b4(mode_), b5(fusion_), b5c(checkpointing_), b6(tp_), b7(pp_), b8(dp_),
        b9(microbatches_), b10(schedule_), b11(zero_);
    if (model_->findText(session_->modelName()) < 0) // an opened config.json
        model_->addItem(session_->modelName());
    model_->setCurrentText(session_->modelName());
    batch_->setValue(int(session_->options().batch));
    seq_->setValue(int(session_->options().seq));
    mode_->setCurrentIndex(session_->options().training ? 1 : 0);
    fusion_->setChecked(session_->options().fusion);
    // Unticked where it does nothing: greyed out but ticked read as on for an inference step.
    checkpointing_->setChecked(session_->options().checkpointing && session_->options().training);
    checkpointing_->setEnabled(session_->options().training);
    const ParallelLayout& l = session_->layout();
    tp_->setValue(int(l.tp));
    pp_->setValue(int(l.pp));
    dp_->setValue(int(l.dp));
    microbatches_->setValue(int(l.microbatches));
    schedule_->setCurrentIndex(l.schedule == PipelineSchedule::GPipe ? 0 : 1);
    dp_->setEnabled(session_->options().training);
    microbatches_->setEnabled(l.pp > 1);
    schedule_->setEnabled(l.pp > 1 && session_->options().training);
    zero_->setCurrentIndex(int(l.zero));
    zero_->setEnabled(session_->options().training && l.dp > 1);
    if (auto* stages = qobject_cast<QStandardItemModel*>(zero_->model())) // the stages this layout allows
        for (int stage = 1; stage < stages->rowCount(); ++stage) {
            ParallelLayout other = l;
            other.zero = stage;
            stages->item(stage)->setEnabled(layoutFits(session_->model(), session_->options(), other));
        }
    for (QSpinBox* box : {tp_, pp_, dp_, microbatches_})
        static_cast<LayoutSpinBox*>(box)->judgeSteps(); // every one is (layoutSpinBox)
    gpuCount_->setText(l.gpus() == 1 ? tr("1 GPU") : tr("%1 GPUs; charts show the busiest one's step").arg(l.gpus()));
    QStringList degrees;
    for (const auto& [name, degree] : std::initializer_list<std::pair<const char*, long long>>{{"TP", l.tp}, {"PP", l.pp}, {"DP", l.dp}})
        if (degree > 1)
            degrees << QString("%1 %2").arg(name).arg(degree);
    parallelHeader_->setText(l.gpus() == 1 ? tr("Parallel layout: 1 GPU")
                                           : tr("Parallel layout: %1 GPUs (%2)").arg(l.gpus()).arg(degrees.join(", ")));
    gpuCount_->setVisible(l.gpus() > 1); // "1 GPU" is the header's
    if (l.gpus() > 1) // a layout that changes the forecast is never folded away, nor its notes on servers
        showParallelBox(true);
    // Past one server's GPUs the link between servers is not priced: said under the count.
    // Nor between the groups a GPU's link joins (MI210: 4-GPU hives), where a sheet says so; a
    // link that joins more than 8 makes a larger server.
    std::optional<long long> server; // the smallest of the compared GPUs' servers
    QStringList fewer;
    for (const QString& id : session_->selectedGpus())
        if (session_->gpu(id)) {
            const GpuSpec g = session_->effectiveGpu(id);
            server = std::min(server.value_or(serverGpus(g)), serverGpus(g));
            const auto linkGroup = static_cast<long long>(g.interconnectMaxGpus);
            if (const auto group = exceededLinkGroup(l, g))
                fewer << tr("%1 joins %2").arg(id).arg(*group);
            else if (l.gpus() > serverGpus(g) && linkGroup > 0 && linkGroup < serverGpus(g)) // as predict says it
                fewer << tr("%1 joins %2").arg(id).arg(linkGroup);
        }
    if (l.gpus() > server.value_or(kGpusPerServer))
        gpuCount_->setText(gpuCount_->text() +
                           tr("\nA server holds %1 of these GPUs: every link is priced as the GPU's own, not the "
                              "slower one between servers, so communication is likely forecast short%2")
                               .arg(server.value_or(kGpusPerServer))
                               // A server of 8 MI210s is two hives of 4: the note named only the servers.
                               .arg(fewer.isEmpty() ? QString() : tr(" (and a link joins fewer: %1)").arg(fewer.join(", "))));
    else if (!fewer.isEmpty())
        gpuCount_->setText(gpuCount_->text() +
                           tr("\nMore GPUs than a link joins (%1): every link is priced as that one, so "
                              "communication is likely forecast short").arg(fewer.join(", ")));
    // What a model card quotes, so a user can tell the model loaded is the one meant (a config.json
    // of the 70B reads 69.0 B), and a mixture of experts' active count, which sets its speed.
    const ModelConfig& loaded = session_->model();
    const ParameterCount parameters = countParameters(loaded);
    const auto count = [](double n) { return QString::fromStdString(parameterCountText(n, 1)); };
    const long long layers = loaded.layers + loaded.decoderLayers;
    size_->setText((parameters.sparse() ? tr("%1 parameters, %3 layers\n%2 active per token")
                                                .arg(count(parameters.total), count(parameters.activePerToken))
                                          : tr("%1 parameters, %2 layers").arg(count(parameters.total)))
                       .arg(layers));
    size_->setToolTip(parameters.sparse()
                          ? tr("Every weight and bias the model's graph holds. A token passes through %1 of the %2 experts "
                               "of each expert layer, so %3 parameters work on it; all %4 must be in memory.")
                                .arg(loaded.expertsPerToken)
                                .arg(loaded.experts)
                                .arg(count(parameters.activePerToken), count(parameters.total))
                          : tr("Every weight and bias the model's graph holds, as its model card counts them."));
    // A reader comparing a model across GPUs should know whose measurements its kernel list was
    // held against: NeuSight's traces, or only whole-model times we took (docs/accuracy.md).
    const bool neuSight = graphCheckOf(session_->model()) == GraphCheck::NeuSightRuns;
    const QString family = QString::fromStdString(session_->model().family);
    graphCheck_->setText(neuSight ? tr("Graph checked against NeuSight's measured runs")
                                  : tr("Graph checked against whole-model runs on an H200"));
    graphCheck_->setToolTip(
        neuSight ? tr("NeuSight traced and timed models of the %1 family; the kernels forecast here are the ones "
                      "those runs launched, and docs/accuracy.md gives the whole-model error.")
                       .arg(family)
                 : tr("We timed models of the %1 family whole on an H200 (transformers 5.17, eager PyTorch, FP32): "
                      "forecasts within 5% of every run. No per-operator trace was taken, so the kernel list "
                      "follows the Hugging Face modelling code; docs/accuracy.md has the runs.")
                       .arg(family));
    // A hand-written config that leaves out a field may mean something else by it than
    // transformers does (no grouping of key/value heads, say); say what was taken.
    QStringList taken, why;
    for (const auto& f : session_->model().assumed) {
        taken << QStringLiteral("%1 = %2").arg(QString::fromStdString(f.field)).arg(f.value);
        why << tr("%1: not given in the file; %2 (%3).")
                   .arg(QString::fromStdString(f.field))
                   .arg(f.value)
                   .arg(QString::fromStdString(f.why));
    }
    // Most configs on the Hub say bfloat16; the forecast is FP32 throughout, as NeuSight measured,
    // and a reader comparing with a bf16 benchmark must know (predict says the same).
    const ModelConfig& config = session_->model();
    // One line, so the panel's other rows keep their height; the rest is in the tooltip.
    const QString dtype = QString::fromStdString(config.dtype);
    QStringList caveats, details;
    if (!config.saysFp32()) {
        caveats << tr("Forecast in FP32; the config says %1").arg(dtype);
        details << tr("The forecast is FP32 throughout, as NeuSight measured. This config's torch_dtype %1 (%2) is not modelled.")
                       .arg(dtype, QString::fromStdString(config.precisionDifference()));
    }
    if (const QString quantization = QString::fromStdString(config.quantization); !quantization.isEmpty()) {
        caveats << tr("Quantization (%1) not modelled").arg(quantization);
        details << tr("This config's quantization_config (%1) is not modelled: its weights are priced and sized in FP32, "
                      "where quantized ones take a fraction of the memory and of the GEMMs' weight traffic.")
                       .arg(quantization);
    }
    // A rotary model runs past its advertised context; GPT-2 and BERT refuse the length instead.
    if (const std::string beyond = config.beyondContextNote(session_->options().seq); !beyond.empty()) {
        caveats << tr("Longer than the model's %1 positions").arg(config.maxPositions);
        details << QString::fromStdString(beyond);
    }
    precision_->setText(caveats.join(". "));
    precision_->setToolTip(details.join("\n"));
    assumed_->setText(tr("Assumed, not given in the file: %1").arg(taken.join(", ")));
    assumed_->setToolTip(why.join("\n"));
#if QT_VERSION >= QT_VERSION_CHECK(6, 4, 0)
    if (auto* form = qobject_cast<QFormLayout*>(layout()))
    {
        form->setRowVisible(assumed_, !taken.isEmpty()); // no empty row's spacing when nothing is assumed
        form->setRowVisible(precision_, !precision_->text().isEmpty());
    }
#else
    assumed_->setVisible(!taken.isEmpty());
    precision_->setVisible(!precision_->text().isEmpty());
#endif
}

} // namespace gpuforecast::ui
