#include "waves_chart.h"

#include "chart_style.h"

#include <qcustomplot.h>

#include <QCheckBox>
#include <QHBoxLayout>

#include <algorithm>
#include <cmath>
#include <tuple>

namespace gpuforecast::ui {
namespace {

// Enough boundary markers to read the steps; beyond that (a vector kernel can have thousands of
// waves) every n-th, or the lines would paint the panel solid.
constexpr std::size_t kMaxBoundaryMarkers = 40;

// The position in the first GPU's ops of the picked kernel (`picked`, from ChartWidget::selectedOp),
// or of the first priced kernel of its node when it is a copy or gather, or else of the costliest
// compute kernel; -1 for none.
std::ptrdiff_t chooseKernel(const ForecastList& forecasts, const OpForecast* picked)
{
    if (forecasts.empty())
        return -1;
    const auto& ops = forecasts.front().ops;
    if (picked && picked->op.kernel.opClass != OpClass::Other)
        return picked - ops.data();
    std::ptrdiff_t chosen = -1;
    for (std::size_t i = 0; i < ops.size(); ++i) {
        if (ops[i].op.kernel.opClass == OpClass::Other)
            continue;
        if (picked && ops[i].op.node == picked->op.node)
            return std::ptrdiff_t(i);
        if (chosen < 0 || ops[i].totalSeconds() > ops[std::size_t(chosen)].totalSeconds())
            chosen = std::ptrdiff_t(i);
    }
    return chosen;
}

// The same kernel of the model in another GPU's forecast: the graph is the GPU's own only in its
// times, so the kernel sits at the same position.
const OpForecast* sameKernelIn(const ModelForecast& forecast, const OpForecast& kernel, std::ptrdiff_t at)
{
    if (at < 0 || std::size_t(at) >= forecast.ops.size())
        return nullptr;
    const OpForecast& op = forecast.ops[std::size_t(at)];
    return op.op.node == kernel.op.node && op.op.phase == kernel.op.phase ? &op : nullptr;
}

QVector<double> toQ(const std::vector<double>& v) { return QVector<double>(v.begin(), v.end()); }

// The GEMM as it was priced: a thin one is forecast as the padded GEMM the library could run
// (KernelForecast::paddedM), and the operator table's tile and waves are that GEMM's. Drawn as the
// model's own shape, its law and staircase disagreed with the table (BERT, one sequence of 8 on
// P4: "4 full waves" for a kernel the table priced in 2, its point off its staircase).
Kernel pricedShape(const OpForecast& op)
{
    Kernel k = op.op.kernel;
    if (op.forecast.paddedM != 0) {
        k.m = op.forecast.paddedM;
        k.k = op.forecast.paddedK;
        k.n = op.forecast.paddedN;
    }
    return k;
}

// Ticks at 1, 2 and 5 of each decade where the axis has room for their labels, else at 1 alone:
// twenty GPUs' legend narrowed the panel until "50" and "100" ran together. (A log ticker over a
// decade and a bit printed 2.5, 5, ..., 12.5, 15 into each other, and no 1.) QCustomPlot makes
// the ticks before it lays the axes out, so they follow the width of the previous layout;
// WavesChart::fitToLayout replots once more when that width would decide otherwise (stale()).
class DecadeTicker : public QCPAxisTicker {
public:
    // Ticks at 1, 2 and 5 of every decade of the data (ms), labelled in a unit of 10^3n ms.
    explicit DecadeTicker(const QCPAxis* axis, double msPerUnit = 1) : axis_(axis), msPerUnit_(msPerUnit) {}
    bool stale() const { return usable(axis_->range()) && roomForSteps(axis_->range()) != steps_; }

protected:
    QVector<double> createTickVector(double, const QCPRange& range) override
    {
        QVector<double> ticks;
        if (!usable(range))
            return ticks;
        steps_ = roomForSteps(range);
        for (double decade = std::pow(10.0, std::floor(std::log10(range.lower))); decade <= range.upper; decade *= 10)
            for (const double step : {1.0, 2.0, 5.0})
                if (const double at = decade * step; (steps_ || step == 1) && at >= range.lower && at <= range.upper)
                    ticks << at;
        // One notation for every label: "10⁶, 100000, ..." had mixed powers and digits.
        powers_ = !ticks.isEmpty() && logTicksNeedPowers(ticks.front() / msPerUnit_, ticks.back() / msPerUnit_);
        return ticks;
    }
    QString getTickLabel(double tick, const QLocale&, QChar, int) override { return logTickLabel(tick / msPerUnit_, powers_); }

private:
    // A log axis's range: anything else makes no ticks, and must not ask for another replot.
    static bool usable(const QCPRange& range) { return range.lower > 0 && range.upper > range.lower; }
    bool roomForSteps(const QCPRange& range) const
    {
        const double decades = std::log10(range.upper / range.lower);
        // "50" and "100" sit log10(2) of a decade apart; three digits and a gap need about 30 px
        // across, a line and a gap about 30 px up.
        const double length = axis_->orientation() == Qt::Horizontal ? axis_->axisRect()->width() : axis_->axisRect()->height();
        return length / std::max(decades, 1e-9) * std::log10(2.0) >= 30;
    }
    const QCPAxis* axis_;
    double msPerUnit_ = 1;
    bool steps_ = true;
    bool powers_ = false;
};

// Linear ticks no closer than their labels allow: in a 1024 x 640 window the staircase's 0, 2000,
// ..., 8000 ran together into one string. Like DecadeTicker it reads the previous layout's width,
// and stale() says when that width would decide otherwise.
class SpacedTicker : public QCPAxisTicker {
public:
    explicit SpacedTicker(const QCPAxis* axis) : axis_(axis) {}
    bool stale() const { return countFor(axis_->range()) != tickCount(); }

protected:
    double getTickStep(const QCPRange& range) override
    {
        setTickCount(countFor(range));
        return QCPAxisTicker::getTickStep(range);
    }

private:
    int countFor(const QCPRange& range) const
    {
        const QFontMetrics metrics(axis_->tickLabelFont());
        const int label = std::max(metrics.horizontalAdvance(QString::number(std::llround(range.upper))),
                                   metrics.horizontalAdvance(QString::number(std::llround(range.lower))));
        // A label and two characters' gap per tick, with half again to spare: the base ticker rounds
        // the step to 1, 2, 2.5 or 5 of a decade, which may be that much smaller than asked.
        const double perTick = 1.5 * (label + 2 * metrics.averageCharWidth());
        return std::clamp(int(axis_->axisRect()->width() / perTick), 2, 5);
    }
    const QCPAxis* axis_;
};

} // namespace

std::vector<WaveSweep> sweepKernel(const ForecastSession& session, std::span<const Kernel> perGpu, int points)
{
    std::vector<WaveSweep> out;
    const QStringList ids = session.selectedGpus();
    long long top = 2; // one range for all: each GPU's point, at the size it priced, on the axis
    for (const Kernel& kernel : perGpu)
        top = std::max(top, 2 * sweptSize(kernel));
    for (qsizetype g = 0; g < ids.size() && std::size_t(g) < perGpu.size(); ++g) {
        const Kernel& kernel = perGpu[std::size_t(g)];
        const GpuSpec gpu = session.effectiveGpu(ids[g]);
        const SizeSweep sizes = sweepSizes(session.forecaster(), kernel, gpu, top, points);
        std::vector<Kernel> kernels;
        WaveSweep s{ids[g], {}, {}, {}, {}};
        for (long long d : sizes.sizes) {
            kernels.push_back(withSweptSize(kernel, d));
            s.dimension.push_back(double(d));
        }
        const GemmTile own = session.forecaster().geometry(kernel, gpu).gemmTile;
        for (const auto& r : session.forecaster().predictQueued(kernels, gpu, own)) { // as in the model
            s.ms.push_back(r.ms());
            s.waves.push_back(r.geometry.waves);
        }
        s.boundaries.assign(sizes.boundaries.begin(), sizes.boundaries.end());
        out.push_back(std::move(s));
    }
    return out;
}

std::vector<WaveSweep> sweepKernel(const ForecastSession& session, const Kernel& kernel, int points)
{
    const std::vector<Kernel> same(std::size_t(session.selectedGpus().size()), kernel);
    return sweepKernel(session, same, points);
}

std::vector<UtilizationCurve> utilizationCurves(const ForecastSession& session, std::span<const Kernel> perGpu, int points)
{
    std::vector<UtilizationCurve> out;
    std::vector<KernelGeometry> own;
    const QStringList ids = session.selectedGpus();
    const std::size_t count = std::min(std::size_t(ids.size()), perGpu.size());
    double most = 16; // at least a few waves, so the saturation shows even for a one-wave kernel
    for (std::size_t g = 0; g < count; ++g) {
        own.push_back(session.forecaster().geometry(perGpu[g], session.effectiveGpu(ids[qsizetype(g)])));
        most = std::max(most, 4 * own.back().waves);
    }
    std::vector<double> waves; // geometric from 1 wave (the fewest a kernel has): the law changes fastest at few waves
    for (int i = 0; i < points; ++i)
        waves.push_back(std::pow(most, double(i) / (points - 1)));
    for (std::size_t g = 0; g < count; ++g) {
        const Kernel& kernel = perGpu[g];
        const GpuSpec gpu = session.effectiveGpu(ids[qsizetype(g)]);
        UtilizationCurve c{ids[qsizetype(g)], waves,
                           session.forecaster().utilizationCurve(kernel, gpu, waves), own[g].waves, 0,
                           waveFill(own[g], gpu)};
        const double ownWaves[] = {own[g].waves};
        c.ownUtilization = session.forecaster().utilizationCurve(kernel, gpu, ownWaves).front();
        const KernelForecast inModel = session.forecaster().predictQueued(std::span<const Kernel>(&kernel, 1), gpu).front();
        c.inModelUtilization = inModel.utilization;
        c.pricedWaves = inModel.pricedWaves;
        out.push_back(std::move(c));
    }
    return out;
}

std::vector<UtilizationCurve> utilizationCurves(const ForecastSession& session, const Kernel& kernel, int points)
{
    const std::vector<Kernel> same(std::size_t(session.selectedGpus().size()), kernel);
    return utilizationCurves(session, same, points);
}

WavesChart::WavesChart(ForecastSession* session, QWidget* parent)
    : ChartWidget(session, parent), logLatency_(new QCheckBox(tr("Log latency scale"), this)),
      staircaseRect_(plot_->axisRect()), utilizationRect_(new QCPAxisRect(plot_)),
      utilizationTitle_(new QCPTextElement(plot_)), staircaseTitle_(new QCPTextElement(plot_))
{
    auto* row = new QHBoxLayout;
    row->addStretch(1);
    row->addWidget(logLatency_); // right, above the staircase it changes
    logLatency_->setObjectName("wavesLogLatency");
    logLatency_->setToolTip(tr("Kernel latency on a log axis, so that the steps of GPUs far apart in speed all stay readable"));
    connect(logLatency_, &QCheckBox::toggled, this, [this] { rebuild(); });
    layout()->insertLayout(0, row);
    // Layout: titles above; the law | the staircase | one legend for both (they share GPU colours).
    auto* grid = plot_->plotLayout();
    grid->insertColumn(0);
    grid->addElement(0, 0, utilizationRect_);
    placeLegendBeside();
    grid->setColumnStretchFactors({2, 3, 0.01});
    grid->insertRow(0);
    grid->addElement(0, 0, utilizationTitle_);
    grid->addElement(0, 1, staircaseTitle_);
    for (QCPTextElement* title : {utilizationTitle_, staircaseTitle_}) // long titles must not widen the tab
        title->setMinimumSize(1, 0);
    auto* margins = new QCPMarginGroup(plot_); // both panels' plot areas start and end at the same height
    for (QCPAxisRect* rect : {utilizationRect_, staircaseRect_})
        rect->setMarginGroup(QCP::msTop | QCP::msBottom, margins);
    utilizationRect_->axis(QCPAxis::atTop)->setVisible(false);
    utilizationRect_->axis(QCPAxis::atRight)->setVisible(false);
    QCPAxis* waves = utilizationRect_->axis(QCPAxis::atBottom);
    waves->setScaleType(QCPAxis::stLogarithmic);
    // Each title with shorter forms for a narrow panel; the staircase's x title follows the kernel.
    axisTitles_ = {{waves, {tr("Waves (tiles / SMs, log scale)"), tr("Waves (log scale)"), tr("Waves")}},
                   {utilizationRect_->axis(QCPAxis::atLeft), {tr("Utilization of the roofline"), tr("Utilization")}},
                   {plot_->yAxis, {tr("Kernel latency (ms)"), tr("Latency (ms)"), tr("ms")}},
                   {plot_->xAxis, {}}};
    plot_->xAxis->setTicker(QSharedPointer<QCPAxisTicker>(new SpacedTicker(plot_->xAxis)));
    enableToolTips();
    followSession();
}

void WavesChart::setLogLatency(bool on) { logLatency_->setChecked(on); }

bool WavesChart::logLatency() const { return logLatency_->isChecked(); }

QString WavesChart::dimensionName() const { return kernel_.isGemm() ? tr("m") : tr("rows"); }

QString WavesChart::fillText(const WaveFill& fill) const
{
    const QString full = fill.fullWaves == 1 ? tr("1 full wave") : tr("%1 full waves").arg(fill.fullWaves);
    if (fill.partialFill <= 0)
        return tr("%1, no partial wave").arg(full);
    const QString partial = tr("partial wave of %1%").arg(100 * fill.partialFill, 0, 'f', 0);
    return fill.fullWaves == 0 ? tr("one %1").arg(partial) : tr("%1 + %2").arg(full, partial);
}

QString WavesChart::compactFillText(const WaveFill& fill) const
{
    if (fill.partialFill <= 0)
        return tr("%1 full").arg(fill.fullWaves);
    const QString partial = tr("partial of %1%").arg(100 * fill.partialFill, 0, 'f', 0);
    return fill.fullWaves == 0 ? partial : tr("%1 full + %2").arg(fill.fullWaves).arg(partial);
}

void WavesChart::fitToLayout()
{
    // Both panels' x ticks, and a log latency axis's, were made for the previous layout (DecadeTicker,
    // SpacedTicker).
    const auto* decades = dynamic_cast<const DecadeTicker*>(utilizationRect_->axis(QCPAxis::atBottom)->ticker().data());
    const auto* spaced = dynamic_cast<const SpacedTicker*>(plot_->xAxis->ticker().data());
    const auto* latencyDecades = dynamic_cast<const DecadeTicker*>(plot_->yAxis->ticker().data());
    if ((decades && decades->stale()) || (spaced && spaced->stale()) || (latencyDecades && latencyDecades->stale()))
        plot_->replot(QCustomPlot::rpQueuedReplot);
    for (auto& [axis, forms] : axisTitles_)
        fitAxisLabel(axis, forms);
    // Text set here is drawn in this replot: no relayout, so no replot to queue. The room is inside
    // the element's margins, less a little for glyphs that overhang their advance: measured against
    // the outer width, 408 px of title in a 404 px inner one lost its first letter.
    for (auto [title, forms] : {std::pair{utilizationTitle_, &utilizationTitles_}, std::pair{staircaseTitle_, &staircaseTitles_}})
        title->setText(longestFitting(*forms, title->font(), title->rect().width() - 4));
    if (noteItem_) {
        // At most about half the panel's height: twenty GPUs' lines covered the whole staircase.
        // The first GPUs stay; the rest are counted, and each step's hover has them.
        const int room = std::max(2, int((0.55 * staircaseRect_->height() - 8) / QFontMetrics(noteItem_->font()).lineSpacing()));
        QStringList forms;
        for (const QString& form : note_) {
            QStringList lines = form.split('\n');
            if (lines.size() > room) {
                const qsizetype hidden = lines.size() - (room - 1);
                lines = lines.mid(0, room - 1);
                lines << tr("… and %n more GPU(s): hover their steps", nullptr, int(hidden));
            }
            forms << (form.isEmpty() ? QString() : lines.join('\n'));
        }
        noteItem_->setText(longestFitting(forms, noteItem_->font(), 0.97 * staircaseRect_->width() - 12)); // less its padding
        noteItem_->setVisible(!noteItem_->text().isEmpty());
    }
}

void WavesChart::rebuild()
{
    plot_->clearPlottables();
    plot_->clearItems();
    applyChartStyle(plot_);
    curves_.clear();
    sweeps_.clear();
    markedBoundaries_.clear();
    curveGraphs_.clear();
    ownGraphs_.clear();
    stepGraphs_.clear();
    noteItem_ = nullptr;
    note_.clear();
    utilizationTitles_ = staircaseTitles_ = QStringList{QString()};
    sayWhenNoGpuIsTicked(tr("see a kernel's waves and utilization on each"));
    const auto forecasts = session_->forecasts();
    const std::ptrdiff_t at = chooseKernel(*forecasts, forecasts->empty() ? nullptr : selectedOp(forecasts->front()));
    const OpForecast* chosen = at < 0 ? nullptr : &forecasts->front().ops[std::size_t(at)];
    shownOperator_ = chosen ? QString::fromStdString(chosen->op.node) : QString();
    for (QCPTextElement* title : {utilizationTitle_, staircaseTitle_})
        title->setTextColor(plot_->xAxis->labelColor());
    if (chosen) {
        // Each GPU's kernel as it priced it: a thin GEMM may be padded to another shape on each
        // (T4 to 64 rows, RTX 4090 to 256), and drawn at the first GPU's, the others' points sat
        // off their own staircases. Its time in the model is the operator table's.
        pricedKernels_.clear();
        ownMs_.clear();
        for (const auto& f : *forecasts) {
            const OpForecast* op = sameKernelIn(f, *chosen, at);
            pricedKernels_.push_back(pricedShape(op ? *op : *chosen));
            ownMs_.push_back(op ? op->forecast.seconds * 1e3 : qQNaN());
        }
        kernel_ = pricedKernels_.front();
        modelKernel_ = chosen->op.kernel;
        curves_ = utilizationCurves(*session_, pricedKernels_);
        sweeps_ = sweepKernel(*session_, pricedKernels_);
        // A training step runs several kernels under one name; the title says which is shown.
        if (chosen->op.phase != Phase::Forward)
            shownOperator_ += QStringLiteral(" (%1)").arg(QString::fromStdString(phaseLabel(chosen->op)));
        utilizationTitles_ = QStringList{tr("%1: learned utilization vs. waves").arg(shownOperator_),
                                               tr("%1: utilization vs. waves").arg(shownOperator_),
                                               tr("utilization vs. waves"), tr("utilization")};
        staircaseTitles_ = QStringList{
            // A compute-bound kernel steps only at a new wave; a memory-bound one also at each tile
            // its partial wave gains, whose bytes it must move (T4, a 64-row attention product).
            tr("%1: latency vs. %2 — it steps where a wave or a tile is added").arg(shownOperator_, dimensionName()),
            tr("%1: latency vs. %2, in steps of waves and tiles").arg(shownOperator_, dimensionName()),
            tr("%1: latency vs. %2").arg(shownOperator_, dimensionName()), tr("latency vs. %1").arg(dimensionName())};
        drawUtilization();
        drawStaircase();
    }
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

void WavesChart::drawUtilization()
{
    QCPAxis* x = utilizationRect_->axis(QCPAxis::atBottom);
    QCPAxis* y = utilizationRect_->axis(QCPAxis::atLeft);
    auto addGraph = [&](const QString& name, const QPen& pen, bool inLegend) {
        QCPGraph* g = plot_->addGraph(x, y);
        g->setName(name);
        g->setPen(pen);
        if (!inLegend) // the staircase's entries name the GPUs
            g->removeFromLegend();
        return g;
    };
    // The roofline is utilization 1: the wave law approaches it, never reaches it.
    auto* roof = addGraph(tr("roofline: utilization 1"), QPen(plot_->xAxis->labelColor(), 1, Qt::DashLine), true);
    const double first = curves_.front().waves.front(), last = curves_.front().waves.back();
    roof->setData({first, last}, {1, 1});
    setShortLegendName(roof, tr("roofline"));
    std::vector<QCPGraph*> curves;
    for (std::size_t i = 0; i < curves_.size(); ++i) {
        const auto& c = curves_[i];
        auto* curve = addGraph(c.gpu, gpuPen(i, 2), false);
        curves.push_back(curve);
        curve->setData(toQ(c.waves), toQ(c.utilization), true);
        auto* own = addGraph(tr("this kernel's wave count"), QPen(gpuColor(i), 2), i == 0);
        own->setLineStyle(QCPGraph::lsNone);
        own->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ScatterShape(gpuMarkerShape(i)), QPen(gpuColor(i), 2), Qt::white, 10));
        own->setData({c.ownWaves}, {c.ownUtilization});
        setShortLegendName(own, tr("this kernel"));
        curveGraphs_.push_back(curve);
        ownGraphs_.push_back(own);
    }
    dashLinesOverOthers(curves);
    // A little room left of the first point, which may be a kernel's own (half hidden by the axis
    // when it sat on it).
    x->setRange(first / 1.15, last);
    x->setTicker(QSharedPointer<QCPAxisTicker>(new DecadeTicker(x)));
    y->setRange(0, 1.08);
}

void WavesChart::drawStaircase()
{
    double top = 0, lowest = INFINITY;
    std::vector<QCPGraph*> steps;
    for (std::size_t i = 0; i < sweeps_.size(); ++i) {
        auto* g = plot_->addGraph(plot_->xAxis, plot_->yAxis);
        g->setName(gpuLabel(sweeps_[i].gpu));
        g->setPen(gpuPen(i, 2));
        g->setLineStyle(QCPGraph::lsStepLeft);
        g->setData(toQ(sweeps_[i].dimension), toQ(sweeps_[i].ms), true);
        const auto [low, high] = std::minmax_element(sweeps_[i].ms.begin(), sweeps_[i].ms.end());
        top = std::max(top, *high);
        lowest = std::min(lowest, *low);
        steps.push_back(g);
        stepGraphs_.push_back(g);
    }
    nameHiddenTwinsShortly(steps); // short: "A100-SXM4-40GB (same)", as on the Roofline
    dashLinesOverOthers(steps);
    // Headroom for the annotation above the steps: half the height again, or on a log axis the
    // same share of its decades. A log axis starts a little below the fastest step (0 has no place
    // on it), a linear one at 0.
    const bool log = logLatency() && lowest > 0 && top > lowest;
    const double yBottom = log ? lowest / std::pow(top / lowest, 0.05) : 0.0;
    const double yTop = log ? top * std::pow(top / yBottom, 0.35) : top * 1.5;
    const double own = double(sweptSize(kernel_));
    // The first GPU's wave boundaries as one graph of vertical segments (NaN breaks the line), so
    // they get a legend entry.
    const auto& first = sweeps_.front();
    const std::size_t every = (first.boundaries.size() + kMaxBoundaryMarkers - 1) / kMaxBoundaryMarkers;
    QVector<double> bx, by;
    for (std::size_t i = 0; i < first.boundaries.size(); i += std::max<std::size_t>(every, 1)) {
        const double b = first.boundaries[i];
        markedBoundaries_.push_back(b);
        bx << b << b << b;
        by << yBottom << yTop << qQNaN();
    }
    auto* boundaries = plot_->addGraph(plot_->xAxis, plot_->yAxis);
    boundaries->setName(every > 1 ? tr("wave boundaries, 1 in %1 (%2)").arg(every).arg(first.gpu)
                                  : tr("wave boundaries (%1)").arg(first.gpu));
    QColor boundaryColor = gpuColor(0);
    boundaryColor.setAlpha(70); // solid but faint: the grid is dotted, the steps are bold
    boundaries->setPen(QPen(boundaryColor, 1));
    setShortLegendName(boundaries, every > 1 ? tr("wave boundaries, 1 in %1").arg(every) : tr("wave boundaries"));
    boundaries->setData(bx, by, true);

    // The step the kernel itself sits on, on the first GPU, when its last wave leaves SMs idle: a
    // filled graph rather than an item, so the legend names it.
    if (curves_.front().fill.partialFill > 0) {
        const auto next = std::upper_bound(first.boundaries.begin(), first.boundaries.end(), own);
        const double from = next == first.boundaries.begin() ? 0 : *(next - 1);
        const double to = next == first.boundaries.end() ? first.dimension.back() : *next;
        auto* step = plot_->addGraph(plot_->xAxis, plot_->yAxis);
        step->setName(tr("partial last wave (%1)").arg(first.gpu));
        setShortLegendName(step, tr("partial last wave"));
        QColor shade = gpuColor(0);
        shade.setAlpha(35);
        step->setPen(Qt::NoPen);
        step->setBrush(shade);
        step->setData({from, to}, {yTop, yTop}, true);
    }
    // Where the model's kernel sits on each staircase: the vertical line often falls on a step's
    // riser (m = 4096 fills whole waves; 4097 starts the next), and a reader took the next step's
    // time for the kernel's.
    for (std::size_t i = 0; i < sweeps_.size() && i < ownMs_.size(); ++i) {
        if (!std::isfinite(ownMs_[i]))
            continue;
        auto* point = plot_->addGraph(plot_->xAxis, plot_->yAxis);
        point->setObjectName("modelPoint");
        point->setPen(QPen(gpuColor(i), 2));
        point->setLineStyle(QCPGraph::lsNone);
        point->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ScatterShape(gpuMarkerShape(i)), QPen(gpuColor(i), 2), QBrush(Qt::white), 8));
        point->setData({double(sweptSize(pricedKernels_[i]))}, {ownMs_[i]}, true); // where this GPU priced it
        point->removeFromLegend();
    }
    // The kernel's own size, with how its tiles fill each GPU's SMs: top left, where the steps are low.
    auto* line = new QCPItemStraightLine(plot_);
    line->setClipAxisRect(staircaseRect_); // items clip to the first axis rect unless told
    line->point1->setCoords(own, log ? yBottom : 0.0);
    line->point2->setCoords(own, log ? yTop : 1.0);
    line->setPen(QPen(plot_->xAxis->labelColor(), 1.5, Qt::DashLine));
    // What a thin GEMM was padded to on a GPU ("m 1 → 64"), empty when it runs as the model has it.
    auto paddingOf = [this](const Kernel& priced) {
        QStringList padding;
        for (const auto& [name, model, to] : {std::tuple{"m", modelKernel_.m, priced.m}, std::tuple{"k", modelKernel_.k, priced.k},
                                              std::tuple{"n", modelKernel_.n, priced.n}})
            if (model != to)
                padding << tr("%1 %2 → %3").arg(QLatin1String(name)).arg(model).arg(to);
        return padding.join(", ");
    };
    const QString padding = paddingOf(kernel_);
    // "Vertical", not "dashed": a GPU's staircase drawn over another's is dashed too (dashLinesOverOthers).
    QStringList lines{padding.isEmpty() ? tr("this model (vertical line): %1 = %2").arg(dimensionName()).arg(own)
                                        : tr("this model (vertical line), priced padded as it runs faster: %1").arg(padding)};
    QStringList compact{padding.isEmpty() ? tr("this model: %1 = %2").arg(dimensionName()).arg(own)
                                          : tr("this model, padded: %1").arg(padding)};
    QStringList shortest = compact;
    // The tightest form names each GPU by its family ("V100-PCIE-32GB" -> "V100") where that is
    // unambiguous among those compared: in a 1024 x 640 window three GPUs' "2.40 waves" lines did
    // not fit, and the note, the chart's lesson, was dropped.
    // A family is a model number's first part ("V100", "MI300X"); a vendor's name is none: a
    // custom "NVIDIA-H100-SXM5-..." read "NVIDIA", as two such cards would both have. Those, and
    // ids too long for the box, are elided as the axes elide them.
    QStringList abbreviated{compact.front()};
    QStringList families;
    for (const auto& c : curves_) {
        const QString head = c.gpu.section('-', 0, 0);
        const bool modelNumber = std::any_of(head.begin(), head.end(), [](QChar ch) { return ch.isDigit(); });
        families << (modelNumber ? head : shortGpuName(c.gpu));
    }
    for (std::size_t i = 0; i < curves_.size(); ++i) {
        const auto& c = curves_[i];
        // A GPU that padded otherwise than the first says so: its point is at its own size.
        const QString its = i < pricedKernels_.size() ? paddingOf(pricedKernels_[i]) : padding;
        const QString differs = its == padding ? QString()
                                : its.isEmpty() ? tr(" (not padded)")
                                                : tr(" (padded %1)").arg(its);
        // Where the table says "63 (as 124)", the note says it too: the point is at its own 63.
        const QString priced = c.pricedWaves > 0 ? tr(", priced as %1 waves").arg(c.pricedWaves, 0, 'f', 0) : QString();
        lines << tr("%1: %2").arg(c.gpu, fillText(c.fill)) + priced + differs;
        compact << tr("%1: %2").arg(shortGpuName(c.gpu), compactFillText(c.fill)) +
                       (c.pricedWaves > 0 ? tr(" (as %1)").arg(c.pricedWaves, 0, 'f', 0) : QString()) + differs;
        shortest << tr("%1: %2 waves").arg(shortGpuName(c.gpu)).arg(c.fill.fullWaves + c.fill.partialFill, 0, 'f', 2);
        const QString family = families[qsizetype(i)];
        abbreviated << tr("%1: %2 waves").arg(families.count(family) == 1 ? family : shortGpuName(c.gpu))
                           .arg(c.fill.fullWaves + c.fill.partialFill, 0, 'f', 2);
    }
    // Where not even the shortest fits, there is none: the hover text on each point says it all.
    note_ = QStringList{lines.join('\n'), compact.join('\n'), shortest.join('\n'), abbreviated.join('\n'), QString()};
    auto* label = new QCPItemText(plot_);
    label->setClipAxisRect(staircaseRect_);
    label->position->setType(QCPItemPosition::ptAxisRectRatio);
    label->position->setAxisRect(staircaseRect_);
    label->position->setCoords(0.01, 0.02);
    label->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
    label->setTextAlignment(Qt::AlignLeft);
    label->setPadding(QMargins(6, 4, 6, 4));
    // Translucent: the box sits over the plot, and the vertical line and the staircases stay visible.
    QColor fill = plot_->legend->brush().color();
    fill.setAlpha(170);
    label->setBrush(fill);
    label->setPen(plot_->legend->borderPen());
    label->setColor(plot_->xAxis->labelColor());
    label->setText(lines.join('\n'));
    noteItem_ = label;
    double right = 0;
    for (const auto& s : sweeps_)
        right = std::max(right, s.dimension.back());
    plot_->xAxis->setRange(0, right * 1.02);
    plot_->yAxis->setScaleType(log ? QCPAxis::stLogarithmic : QCPAxis::stLinear);
    // Seconds or hours for a slow kernel, as Breakdown and Compare switch: a batch of 65536 read
    // "4·10^6" ms. A decade of ms is a decade of s, not of hours, so a log axis stops at seconds.
    LatencyUnit unit = latencyUnitFor(top);
    if (log && unit.ms > 1e3)
        unit = {QStringLiteral("s"), 1e3};
    if (log)
        plot_->yAxis->setTicker(QSharedPointer<QCPAxisTicker>(new DecadeTicker(plot_->yAxis, unit.ms)));
    else
        setLatencyTicker(plot_->yAxis, unit);
    plot_->yAxis->setRange(yBottom, yTop);
    for (auto& [axis, forms] : axisTitles_)
        if (axis == plot_->yAxis)
            forms = log ? QStringList{tr("Kernel latency (%1, log scale)").arg(unit.name), tr("Latency (%1, log)").arg(unit.name),
                                      tr("%1 (log)").arg(unit.name)}
                        : QStringList{tr("Kernel latency (%1)").arg(unit.name), tr("Latency (%1)").arg(unit.name), unit.name};
    axisTitles_.back().second = kernel_.isGemm() ? QStringList{tr("m (output rows of the GEMM)"), tr("m (output rows)"), tr("m")}
                                                 : QStringList{tr("rows (of %1 elements)").arg(kernel_.h), tr("rows")};
    for (auto& [axis, forms] : axisTitles_) // fitToLayout shortens them where the next layout is too narrow
        axis->setLabel(forms.front());
}

QString WavesChart::toolTipAt(const QPointF& pixel) const
{
    const GraphPoint p = graphPointAt(pixel);
    auto indexOf = [&](const std::vector<const QCPGraph*>& graphs) {
        return int(std::find(graphs.begin(), graphs.end(), p.graph) - graphs.begin());
    };
    if (const int i = indexOf(ownGraphs_); i < int(ownGraphs_.size())) {
        const UtilizationCurve& c = curves_[std::size_t(i)];
        return tr("%1\n%2 (its own size): %3 %4, learned utilization %5\n%6")
                   .arg(c.gpu, shownOperator_)
                   .arg(p.key)
                   .arg(p.key == 1 ? tr("wave") : tr("waves"))
                   .arg(p.value, 0, 'f', 3)
                   .arg(fillText(c.fill)) +
               (c.fill.partialFill > 0 ? tr(" of the SMs") : QString()) +
               tr("\nin the model: %1% of the roofline (the table's Util.; launch overhead hidden by the queue)")
                   .arg(100 * c.inModelUtilization, 0, 'f', 1) +
               (c.pricedWaves > 0 ? tr("\npriced as %1 waves: %2").arg(c.pricedWaves, 0, 'f', 0)
                                        .arg(kernel_.isGemm() ? tr("its tiles in more waves came out faster")
                                                              : tr("rows longer than any measured one, as pieces of the longest"))
                                  : QString());
    }
    if (const int i = indexOf(curveGraphs_); i < int(curveGraphs_.size()))
        return tr("%1\n%2 at %3 waves: utilization %4 of the roofline")
            .arg(curves_[std::size_t(i)].gpu, shownOperator_)
            .arg(p.key, 0, 'f', 1)
            .arg(p.value, 0, 'f', 3);
    if (const int i = indexOf(stepGraphs_); i < int(stepGraphs_.size()))
    {
        const double waves = sweeps_[std::size_t(i)].waves[std::size_t(p.index)];
        return tr("%1\n%2 with %3 = %4: %5, %6 %7")
            .arg(sweeps_[std::size_t(i)].gpu, shownOperator_, dimensionName())
            .arg(p.key)
            .arg(formatMs(p.value, 3))
            .arg(waves)
            .arg(waves == 1 ? tr("wave") : tr("waves"));
    }
    // A boundary line anywhere along its height, not only at its ends.
    if (!sweeps_.empty() && staircaseRect_->rect().contains(pixel.toPoint()))
        for (double b : markedBoundaries_)
            if (std::abs(plot_->xAxis->coordToPixel(b) - pixel.x()) <= 3) {
                const auto& s = sweeps_.front();
                const auto at = std::lower_bound(s.dimension.begin(), s.dimension.end(), b) - s.dimension.begin();
                return tr("%1\n%2 = %3: the wave count rises to %4").arg(s.gpu, dimensionName()).arg(b).arg(s.waves[std::size_t(at)]);
            }
    return {};
}

} // namespace gpuforecast::ui
