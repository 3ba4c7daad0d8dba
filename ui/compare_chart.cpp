#include "compare_chart.h"

#include "chart_style.h"

#include "gpuforecast/extrapolation.h"

#include <algorithm>
#include <cmath>

#include <qcustomplot.h>

#include <QCheckBox>
#include <QComboBox>
#include <QFontMetrics>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QRegularExpression>
#include <QVBoxLayout>

namespace gpuforecast::ui {

namespace {
constexpr int kMeasuredMarkSize = 13; // px across a measured run's diamond
} // namespace

CompareChart::CompareChart(ForecastSession* session, QWidget* parent)
    : ChartWidget(session, parent), baseline_(new QComboBox(this)), logScale_(new QCheckBox(tr("Log scale"), this))
{
    auto* row = new QHBoxLayout;
    auto* label = new QLabel(tr("Speed-up against"), this);
    label->setBuddy(baseline_);
    row->addWidget(label);
    row->addWidget(baseline_);
    row->addWidget(logScale_);
    logHint_ = new QLabel(this);
    logHint_->setObjectName("compareLogHint");
    logHint_->setForegroundRole(QPalette::PlaceholderText); // a hint, quieter than the controls
    logHint_->hide();
    // Wrapped, not held on one line: at 1024 x 700 the line was cut at "a log scale keeps" and
    // its width set the tab's minimum wider than the window gave it.
    logHint_->setWordWrap(true);
    // Its room kept while hidden: the GPU box had grown across the row whenever the hint went,
    // and shrunk back when it came (a chart of GPUs ten times apart, then not).
    QSizePolicy hintPolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
    hintPolicy.setRetainSizeWhenHidden(true);
    logHint_->setSizePolicy(hintPolicy);
    row->addWidget(logHint_, 1);
    logScale_->setObjectName("compareLogScale");
    logScale_->setToolTip(tr("Latency on a log axis, so that GPUs far apart in speed all stay readable"));
    connect(logScale_, &QCheckBox::toggled, this, [this] { rebuild(); });
    layout()->insertLayout(0, row);
    baseline_->setToolTip(tr("The GPU every other GPU's speed-up is measured against"));
    connect(baseline_, &QComboBox::currentTextChanged, this, [this](const QString& id) {
        wantedBaseline_ = id;
        rebuild();
    });
    enableToolTips();
    followSession();
}

void CompareChart::setBaseline(const QString& gpuId)
{
    if (baseline_->findText(gpuId) >= 0)
        baseline_->setCurrentText(gpuId);
}

QString CompareChart::baseline() const { return baseline_->currentText(); }

void CompareChart::setLogScale(bool on) { logScale_->setChecked(on); }

bool CompareChart::logScale() const { return logScale_->isChecked(); }

double CompareChart::axisTop(double labelFraction) const
{
    if (!logScale())
        return top_ * (1 + labelFraction);
    // The same share of the axis's height, measured in decades.
    const double decades = std::log10(top_ / bottom_);
    return bottom_ * std::pow(10.0, decades * (1 + labelFraction));
}

void CompareChart::syncBaselineChoices()
{
    const QStringList ids = session_->selectedGpus();
    QStringList current;
    for (int i = 0; i < baseline_->count(); ++i)
        current << baseline_->itemText(i);
    if (current == ids)
        return;
    const QSignalBlocker block(baseline_); // only the user's choice is remembered
    baseline_->clear();
    baseline_->addItems(ids);
    baseline_->setCurrentIndex(std::max(0, int(ids.indexOf(wantedBaseline_))));
}

void CompareChart::rebuild()
{
    syncBaselineChoices();
    const auto forecasts = session_->forecasts();
    plot_->clearPlottables();
    plot_->clearItems();
    applyChartStyle(plot_);
    QVector<double> keys, values;
    sayWhenNoGpuIsTicked(tr("compare their step time and speed-up"));
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    for (std::size_t g = 0; g < forecasts->size(); ++g) {
        keys << double(g + 1);
        values << (*forecasts)[g].totalSeconds() * 1e3;
        ticker->addTick(double(g + 1), gpuLabel(QString::fromStdString((*forecasts)[g].gpu)));
    }
    bars_ = new QCPBars(plot_->xAxis, plot_->yAxis);
    bars_->setWidth(0.6);
    bars_->setPen(Qt::NoPen);
    bars_->setBrush(QColor(0, 114, 178));
    double top = values.isEmpty() ? 1 : *std::max_element(values.begin(), values.end());
    for (const auto& f : *forecasts) // a measured run slower than every forecast stays on the chart
        if (const MeasuredRun* run = session_->measuredRun(QString::fromStdString(f.gpu)))
            top = std::max(top, run->ms);
    const double lowest = values.isEmpty() ? 1 : *std::min_element(values.begin(), values.end());
    // One slow GPU (L4 beside an H100) flattens the others to a few pixels on a linear axis; the
    // log box reads them all, and at ten to one nobody compares those bars by eye any more.
    const double span = values.isEmpty() || !(lowest > 0) ? 1 : *std::max_element(values.begin(), values.end()) / lowest;
    logHint_->setVisible(!logScale() && span >= 10);
    logHint_->setText(tr("the slowest bar is %1x the fastest: a log scale keeps both readable") // not "3.55358e+06x"
                          .arg(QString::number(std::round(span), 'f', 0)));
    // On a log axis bars start a third of a decade below the fastest GPU: there is no zero.
    bottom_ = logScale() ? lowest / std::pow(10.0, 1.0 / 3) : 0.0;
    // QCPBars draws from its base to base + value, so the data are the heights above the base.
    bars_->setBaseValue(bottom_);
    QVector<double> heights;
    for (double v : values)
        heights << v - bottom_;
    bars_->setData(keys, heights, true);
    // A GPU the model does not fit looked like one it does: its bar is hatched over, so a glance
    // at the fastest bar does not pick a GPU that cannot run the step.
    for (int g = 0; g < values.size(); ++g)
        if (!(*forecasts)[std::size_t(g)].fits())
            hatchDoesNotFit(plot_, keys[g], bars_->width(), values[g], bottom_);
    plot_->yAxis->setScaleType(logScale() ? QCPAxis::stLogarithmic : QCPAxis::stLinear);
    const LatencyUnit unit = latencyUnitFor(top);
    setLatencyTicker(plot_->yAxis, unit, logScale());
    labels_.clear();
    for (int g = 0; g < values.size(); ++g) {
        auto* label = new QCPItemText(plot_);
        // Above the bar and above its measured run's diamond, which covered the labels' first
        // line where the run was slower than the forecast or the bars were narrow.
        const MeasuredRun* run = session_->measuredRun(QString::fromStdString((*forecasts)[std::size_t(g)].gpu));
        const double anchor = std::max(values[g], run ? run->ms : 0.0);
        label->position->setCoords(keys[g], logScale() ? anchor * 1.03 : anchor + top * 0.02);
        label->setPositionAlignment(Qt::AlignHCenter | Qt::AlignBottom);
        label->setColor(plot_->xAxis->tickLabelColor());
        // Cut short, a label still says what a reader must not miss: that the model does not fit,
        // and that the forecast reaches beyond the measured GPUs or near their edge.
        const ModelForecast& f = (*forecasts)[std::size_t(g)];
        const QStringList details = barDetails(std::size_t(g), unit);
        const Coverage level = coverage(f).level;
        const QString reach = level == Coverage::Beyond ? tr("\nbeyond measured")
                              : level == Coverage::NearEdge ? tr("\nnear the edge")
                              : readAsNewGpuNote(f)     ? tr("\nread as new")
                                                        : QString();
        const QString compact =
            details.front() + '\n' + details.at(1).section(' ', 0, 0) + (f.fits() ? QString() : tr("\ndoes NOT fit"));
        // Six GPUs' full labels fit no slot, and the short one had dropped what a buyer compares
        // bars for: the rate, and whether the model fits at all (a bar that fits read as one whose
        // fit was unknown).
        const TokenRate rate = tokenRate(f);
        const QString summary = details.front() + '\n' + details.at(1).section(' ', 0, 0) + '\n' + formatRate(rate.perSecond, rate.unit) +
                                (f.fitsTightly() ? tr("\nfits, tightly") : f.fits() ? tr("\nfits in memory") : tr("\ndoes NOT fit")) +
                                reach;
        labels_.push_back({label, details.join('\n'), compact + reach, summary,
                           compact + (level == Coverage::Beyond ? tr("\nbeyond\nmeasured") : reach),
                           details.front() + (f.fits() ? QString() : tr(", does NOT fit")), details.front(),
                           run ? kMeasuredMarkSize / 2 + 2 : 0});
    }
    measuredShown_ = false;
    drawMeasuredRuns(keys);
    top_ = top;
    plot_->xAxis->setTicker(ticker);
    plot_->xAxis->setRange(0.4, values.size() + 0.6);
    // Longest first; fitToLayout takes the longest that the axis's height holds (at 1366 x 768 the
    // first lost its ends: "atency per step (ms, FP32); ◆ measured r").
    // FP32 is in the caption, as on Breakdown; an exported chart names its scenario.
    yLabels_ = measuredShown_ ? QStringList{tr("Latency per step (%1); \u25C6 measured run").arg(unit.name),
                                            tr("Latency (%1); \u25C6 measured").arg(unit.name), tr("%1; \u25C6 measured").arg(unit.name)}
                              : QStringList{tr("Latency per step (%1)").arg(unit.name), tr("Latency (%1)").arg(unit.name)};
    plot_->yAxis->setLabel(yLabels_.front());
    xLabels_ = scenarioCaptions();
    plot_->xAxis->setLabel(xLabels_.front());
    fitToLayout();
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

// Where somebody timed exactly this model, settings and GPU, a mark at the measured time beside
// the bar: a procurement reader sees how far to trust the bars next to it, a teacher has a real
// number to point at.
void CompareChart::drawMeasuredRuns(const QVector<double>& keys)
{
    const auto forecasts = session_->forecasts();
    QVector<double> x, y;
    for (std::size_t g = 0; g < forecasts->size(); ++g)
        if (const MeasuredRun* run = session_->measuredRun(QString::fromStdString((*forecasts)[g].gpu))) {
            x << keys[qsizetype(g)];
            y << run->ms;
        }
    if (x.isEmpty())
        return;
    auto* measured = plot_->addGraph();
    measured->setObjectName("measuredRuns");
    measured->setName(tr("measured run"));
    measured->setLineStyle(QCPGraph::lsNone);
    measured->setScatterStyle(
        QCPScatterStyle(QCPScatterStyle::ssDiamond, QPen(QColor(213, 94, 0), 2), QColor(230, 159, 0), kMeasuredMarkSize));
    measured->setData(x, y, true);
    measured->removeFromLegend();
    measuredShown_ = true; // the axis label says what the mark is: a legend box sat on the labels
}

CompareChart::TokenRate CompareChart::tokenRate(const ModelForecast& f) const
{
    const auto& opt = session_->options();
    // An inference step is one forward pass over the prompt (prefill); an LLM buyer read its
    // rate as generation speed, which token-by-token decoding does not reach.
    return {double(opt.batch) * double(opt.seq) / f.totalSeconds(), opt.training ? tr("tokens/s") : tr("prompt tokens/s")};
}

QStringList CompareChart::barDetails(std::size_t g, const LatencyUnit& unit) const
{
    const auto forecasts = session_->forecasts();
    const ModelForecast& f = (*forecasts)[g];
    const int baseIndex = std::clamp(baseline_->currentIndex(), 0, std::max(0, int(forecasts->size()) - 1));
    const double ms = f.totalSeconds() * 1e3, baseMs = (*forecasts)[std::size_t(baseIndex)].totalSeconds() * 1e3;
    const auto& opt = session_->options();
    const auto [tokensPerSecond, tokens] = tokenRate(f);
    // GPUs named as the axis names them: a sheet id of 90 characters in "1.00x vs <id>" was wider
    // than every bar's slot, and each bar lost its rates and memory fit to the short label.
    QStringList lines{formatLatencyIn(ms, unit),
                      tr("%1 vs %2").arg(formatRatio(baseMs / ms)).arg(shortGpuName(QString::fromStdString((*forecasts)[std::size_t(baseIndex)].gpu)))};
    // What a what-if or an edit gained: against itself as the baseline, it read "1.00x".
    const QString id = QString::fromStdString(f.gpu);
    if (const auto unchanged = session_->unchangedSeconds(id))
        lines << tr("%1 vs %2 unchanged").arg(formatRatio(*unchanged * 1e3 / ms), shortGpuName(id));
    lines << tr("%1, %2").arg(formatRate(tokensPerSecond, tokens), formatRate(double(opt.batch) / (ms / 1e3), tr("samples/s")));
    // Per watt and per dollar only where the spec sheet gives power and price, and of every GPU
    // the layout uses: the throughput is the whole server's. None where the model does not fit:
    // an L4 that cannot hold LLaMA-3 8B read 206 prompt tokens/s per $1k, the best of the chart.
    const GpuSpec* spec = session_->gpu(QString::fromStdString(f.gpu));
    const double gpus = double(session_->layout().gpus());
    const bool perWatt = spec && spec->tdpW > 0, perDollar = spec && spec->priceUsd && *spec->priceUsd > 0;
    if (perWatt && f.fits())
        lines << tr("%1 per W").arg(formatRate(tokensPerSecond / (spec->tdpW * gpus), tokens));
    if (perDollar && f.fits())
        lines << tr("%1 per $1k").arg(formatRate(tokensPerSecond / (*spec->priceUsd * gpus / 1e3), tokens));
    // Against what the GPU holds, and per GPU on a layout: "does NOT fit (684.0 GiB)" beside an
    // 8 x 141 GB server read as the whole server's need.
    // The need in its own unit where it outgrows the GPU's: "8573.8 of 80 GiB" read as digits.
    const double heldGiB = f.gpuMemoryBytes / GpuSpec::kBytesPerGiB; // a sheet's 141, or an edited 1.5
    const QString held = formatGiBAmount(heldGiB);
    const QString need = f.memory.totalBytes() < 1024 * GpuSpec::kBytesPerGiB ? formatGiBAmount(f.memory.totalBytes() / GpuSpec::kBytesPerGiB)
                                                                              : formatGiB(f.memory.totalBytes());
    const QString perGpu = session_->layout().gpus() > 1 ? tr(" per GPU") : QString();
    lines << (f.fitsTightly() ? tr("fits in memory, tightly (%1 of %2 GiB%3)")
              : f.fits()      ? tr("fits in memory (%1 of %2 GiB%3)")
                              : tr("does NOT fit (%1 of %2 GiB%3)"))
                 .arg(need, held, perGpu);
    if (!f.fits() && (perWatt || perDollar))
        lines << tr("so no rate per W or per $");
    if (const Coverage level = coverage(f).level; level != Coverage::Within) // the what-if panel's words
        lines << (level == Coverage::Beyond ? tr("beyond the measured GPUs (hover)") : tr("near the edge of the measured GPUs (hover)"));
    // A sheet with no efficiency basis, read from its per-SM rates: an A100 with twice the SMs,
    // FP32 and bandwidth came out slower than the A100 with nothing on its bar to say why.
    else if (readAsNewGpuNote(f))
        lines << tr("read as a new GPU (hover)");
    return lines;
}

namespace {

// `text`'s lines broken to fit `width` px at the seams of their phrases (after ", ", before
// " vs " and " ("), so "2.97k prompt tokens/s," and "1.45 samples/s" stay whole. Empty where a
// phrase is wider: "7265 prompt" over "tokens/s," reads worse than the short label.
QString wrapToWidth(const QString& text, const QFontMetrics& metrics, double width)
{
    static const QRegularExpression seams(QStringLiteral("(?<=, )|(?= vs )|(?= \\()"));
    QStringList out;
    for (const QString& line : text.split('\n')) {
        QStringList pieces;
        for (const QString& piece : line.split(seams, Qt::SkipEmptyParts)) {
            if (metrics.horizontalAdvance(piece.trimmed()) > width)
                return {};
            pieces << piece.trimmed();
        }
        QString current;
        for (const QString& piece : pieces) {
            const QString joined = current.isEmpty() ? piece : current + ' ' + piece;
            if (!current.isEmpty() && metrics.horizontalAdvance(joined) > width) {
                out << current;
                current = piece;
            } else {
                current = joined;
            }
        }
        out << current;
    }
    return out.join('\n');
}

} // namespace

bool CompareChart::chooseLabels()
{
    // Each bar owns one slot of the x axis. The full label goes above it only if its widest line
    // fits that slot; otherwise every bar shows just its time and speed-up, with a warning where
    // the model does not fit, and the rest stays in the hover text. Eight GPUs' full labels at a
    // usual window width ran into each other and off the plot's edges; twenty GPUs' short ones did
    // too, so past that each bar is labelled with its time alone, upright, one line wide.
    const double slot = labels_.empty() ? 0 : plot_->xAxis->coordToPixel(2) - plot_->xAxis->coordToPixel(1);
    auto fitsSlot = [&](const QCPItemText* item, const QString& text) {
        const QFontMetrics metrics(item->font());
        const QStringList lines = text.split('\n');
        return std::all_of(lines.begin(), lines.end(), [&](const QString& line) { return metrics.horizontalAdvance(line) <= 0.95 * slot; });
    };
    bool full = true, summaryFit = true, shortFit = true, narrowFit = true;
    for (const auto& l : labels_) {
        full = full && fitsSlot(l.item, l.full);
        summaryFit = summaryFit && fitsSlot(l.item, l.summary);
        shortFit = shortFit && fitsSlot(l.item, l.compact);
        narrowFit = narrowFit && fitsSlot(l.item, l.narrow);
    }
    // Next best, the full label over more lines: six GPUs' rates per W and per $ had been cut at
    // 1920 x 1080 with half the chart free above the bars. Only while it takes under half the
    // plot's height, or the bars are squashed under their labels.
    const double plotHeight = plot_->yAxis->axisRect()->height();
    std::vector<QString> wrapped;
    bool wrappedFit = !full && plotHeight > 0;
    for (const auto& l : labels_) {
        if (!wrappedFit)
            break;
        const QFontMetrics metrics(l.item->font());
        wrapped.push_back(wrapToWidth(l.full, metrics, 0.95 * slot));
        wrappedFit = !wrapped.back().isEmpty() &&
                     l.markGap + (wrapped.back().count('\n') + 1) * metrics.lineSpacing() <= 0.45 * plotHeight;
    }
    full = full || wrappedFit;
    uprightLabels_ = !full && !summaryFit && !shortFit && !narrowFit;
    // Upright, a label as long as "17.79 s, does NOT fit" ran off the top of a 1024 x 640 window's
    // chart; the hatched bar still says the model does not fit.
    const double height = plot_->yAxis->axisRect()->height();
    timeOnlyLabels_ = uprightLabels_ && height > 0 && std::any_of(labels_.begin(), labels_.end(), [&](const BarLabel& l) {
                          return l.markGap + QFontMetrics(l.item->font()).horizontalAdvance(l.upright) > 0.7 * height;
                      });
    for (std::size_t i = 0; i < labels_.size(); ++i) {
        const BarLabel& l = labels_[i];
        if (uprightLabels_) { // reads upward from just above the bar
            const bool room = QFontMetrics(l.item->font()).lineSpacing() <= slot; // else the hover alone
            l.item->setText(room ? (timeOnlyLabels_ ? l.timeOnly : l.upright) : QString());
            l.item->setRotation(-90);
            l.item->setPositionAlignment(Qt::AlignLeft | Qt::AlignVCenter);
            l.item->setPadding(QMargins(l.markGap, 0, 0, 0)); // turned: its left side faces the bar
        } else {
            QString text = wrappedFit ? wrapped[i] : full ? l.full : summaryFit ? l.summary : shortFit ? l.compact : l.narrow;
            if (renderingForExport()) // no hover text to point to in a file
                text.remove(QRegularExpression(QStringLiteral("[ \\n]") + QRegularExpression::escape(tr("(hover)"))));
            l.item->setText(text);
            l.item->setRotation(0);
            l.item->setPositionAlignment(Qt::AlignHCenter | Qt::AlignBottom);
            l.item->setPadding(QMargins(0, 0, 0, l.markGap));
        }
    }
    compactLabels_ = !full;
    QStringList names;
    for (const auto& f : *session_->forecasts())
        names << gpuLabel(QString::fromStdString(f.gpu));
    return slantCrowdedNames(plot_->xAxis, names);
}

void CompareChart::fitToLayout()
{
    // After every layout, not only on the chart's resize: the plot inside is laid out later, and a
    // chart sized before it was first shown chose its labels for the plot's default 16 px slots.
    if (chooseLabels())
        plot_->replot(QCustomPlot::rpQueuedReplot); // slanted names take room from the axis rect
    const bool yChanged = !yLabels_.isEmpty() && fitAxisLabel(plot_->yAxis, yLabels_);
    if ((!xLabels_.isEmpty() && fitAxisLabel(plot_->xAxis, xLabels_)) || yChanged) // a real change only, or the replot comes back here
        plot_->replot(QCustomPlot::rpQueuedReplot);
    // Room above the tallest bar for the longest label (cut-short ones run to four lines; an
    // upright one is as tall as it is wide).
    double lines = 0;
    for (const auto& l : labels_) {
        const QFontMetrics metrics(l.item->font());
        lines = std::max(lines, (l.markGap + (uprightLabels_ ? double(metrics.horizontalAdvance(l.item->text()))
                                                             : double(l.item->text().count('\n') + 1) * metrics.lineSpacing())) /
                                    metrics.lineSpacing());
    }
    lines += 0.5;
    const double upper =
        axisTop(labels_.empty() ? 0.1 : labelHeadroom(plot_->yAxis->axisRect(), labels_.front().item->font(), lines));
    if (std::abs(plot_->yAxis->range().upper - upper) > 1e-9 * upper || plot_->yAxis->range().lower != bottom_) {
        plot_->yAxis->setRange(bottom_, upper);
        plot_->yAxis->axisRect()->update(QCPLayoutElement::upPreparation); // its ticks, for this draw
        plot_->replot(QCustomPlot::rpQueuedReplot);
    }
}

void CompareChart::resizeEvent(QResizeEvent* event)
{
    ChartWidget::resizeEvent(event);
    plot_->replot(QCustomPlot::rpImmediateRefresh); // lays out the axis rect at the new size; fits the labels
}

QString CompareChart::toolTipAt(const QPointF& pixel) const
{
    const auto forecasts = session_->forecasts();
    const int g = bars_ ? barAt(bars_, pixel) : -1;
    if (g < 0 || g >= int(forecasts->size()))
        return {};
    const ModelForecast& f = (*forecasts)[std::size_t(g)];
    // In the axis's unit, as the bar's label: "12.2 min" here beside "733.17 s" there read as two numbers.
    const LatencyUnit unit = latencyUnitFor(top_);
    QString text = tr("%1\n%2: %3 per step")
                       .arg(QString::fromStdString(f.gpu), session_->modelName(), formatLatencyIn(f.totalSeconds() * 1e3, unit, 2));
    const QString id = QString::fromStdString(f.gpu);
    if (session_->isEditedBundledGpu(id))
        text += tr("\nYour edited sheet, not the bundled one");
    if (const auto w = session_->whatIf(id); !w.isIdentity()) {
        QStringList scaled;
        for (const auto& [factor, name] : {std::pair{w.bandwidth, tr("memory bandwidth")}, std::pair{w.fp32, tr("FP32 peak")},
                                           std::pair{w.sms, tr("SMs")}, std::pair{w.l2, tr("L2")}})
            if (factor != 1)
                scaled << tr("%1 x%2").arg(name).arg(factor, 0, 'f', 2);
        text += tr("\nWhat-if: %1").arg(scaled.join(", "));
    }
    if (const auto unchanged = session_->unchangedSeconds(id))
        text += tr("\n%1 vs the sheet unchanged (%2)").arg(formatRatio(*unchanged / f.totalSeconds()), formatLatencyIn(*unchanged * 1e3, unit, 2));
    if (session_->options().training)
        text += tr("\nforward %1, backward %2")
                    .arg(formatLatencyIn(f.forwardSeconds * 1e3, unit, 2),
                         formatLatencyIn((f.backwardSeconds + f.accumulateSeconds) * 1e3, unit, 2));
    if (const MeasuredRun* run = session_->measuredRun(QString::fromStdString(f.gpu)))
        text += tr("\nMeasured: %1 (%2, run %3); the forecast is %4% %5")
                    .arg(formatLatencyIn(run->ms, unit, 2), QString::fromStdString(run->source), QString::fromStdString(run->name))
                    .arg(std::abs(100 * (f.totalSeconds() * 1e3 / run->ms - 1)), 0, 'f', 1)
                    .arg(f.totalSeconds() * 1e3 >= run->ms ? tr("slower") : tr("faster"));
    const SpecCoverage c = coverage(f);
    if (compactLabels_) { // the label above the bar is cut short: the rest is here
        QStringList details = barDetails(std::size_t(g), unit);
        details.removeFirst(); // the time, given above
        if (details.back().endsWith(tr("(hover)")))
            details.removeLast(); // this is the hover
        text += '\n' + details.join('\n');
    }
    const QString reach = c.level == Coverage::Beyond
                              ? tr("\nBeyond the measured GPUs, so less certain: %1")
                              : tr("\nNear the edge of the measured GPUs, so a little less certain: %1");
    for (const QString& note : extrapolationNotes(f, c))
        text += reach.arg(note);
    if (const auto asNew = readAsNewGpuNote(f)) {
        QString note = QString::fromStdString(*asNew);
        text += '\n' + note.replace(0, 1, note[0].toUpper());
    }
    // A measured GPU beside a sheet of its chip (A100-PCIE-40GB and -SXM4-40GB) came out
    // different with nothing to say why.
    if (session_->gpu(QString::fromStdString(f.gpu)))
        if (const auto own = session_->forecaster().ownMeasurementsNote(session_->effectiveGpu(QString::fromStdString(f.gpu)))) {
            QString note = QString::fromStdString(*own);
            note[0] = note[0].toUpper(); // a sentence of its own here
            text += '\n' + note;
        }
    return text;
}

SpecCoverage CompareChart::coverage(const ModelForecast& f) const
{
    const QString id = QString::fromStdString(f.gpu);
    // A what-if variant is forecast with its sheet's learned efficiency, so the sheet's range counts.
    return session_->gpu(id) ? session_->forecaster().coverage(session_->effectiveGpu(id)) : SpecCoverage{};
}

std::optional<std::string> CompareChart::readAsNewGpuNote(const ModelForecast& f) const
{
    // The sheet, not its what-if variant: a variant is read with its sheet's reading (the sheet is
    // its efficiency basis), so whether that reading is a new GPU's is the sheet's question.
    const GpuSpec* g = session_->gpu(QString::fromStdString(f.gpu));
    return g ? gpuforecast::readAsNewGpuNote(*g, session_->forecaster().tiles().gpus()) : std::nullopt;
}

QStringList CompareChart::extrapolationNotes(const ModelForecast& f, const SpecCoverage& c) const
{
    QStringList notes;
    for (const auto& e : c.outside)
        notes << QString::fromStdString(e.text);
    if (c.donor) {
        notes << QString::fromStdString(describeDonor(*c.donor));
        // The measured sheet: an edited T4 keeps it as its efficiency basis.
        if (const GpuSpec* lender = session_->gpu(QString::fromStdString(c.donor->gpu.id)))
            if (const auto caution = slotPoweredDonorCaution(session_->effectiveGpu(QString::fromStdString(f.gpu)),
                                                             lender->efficiencySheet(), c.donor->weight))
                notes << QString::fromStdString(*caution);
    }
    return notes;
}

} // namespace gpuforecast::ui
