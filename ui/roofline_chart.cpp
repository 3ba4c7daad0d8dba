#include "roofline_chart.h"

#include <algorithm>
#include <cmath>

#include "breakdown_chart.h"
#include "chart_style.h"

#include "gpuforecast/tiling.h"

#include <qcustomplot.h>

namespace gpuforecast::ui {
namespace {

constexpr double kLowestIntensity = 0.05, kHighestIntensity = 2000; // FLOP/byte shown

std::optional<RooflinePoint> rooflinePoint(const OpForecast& op)
{
    const Kernel& k = op.op.kernel;
    if (k.opClass == OpClass::Other || k.flops() <= 0 || op.forecast.seconds <= 0)
        return std::nullopt;
    return RooflinePoint{QString::fromStdString(op.op.node), k.opClass, k.flops() / k.bytes(),
                         k.flops() / op.forecast.seconds / 1e9, op.forecast.utilization,
                         QString::fromLatin1(op.forecast.boundName()), op.forecast.heldAtRoofline()};
}

// What the dots leave out: kernels that do no FLOPs (a mask copy, an embedding gather) have no
// arithmetic intensity to sit at, but a teacher reading the chart should know they take time.
struct NotDrawn {
    QStringList names; // largest first
    double share = 0;  // of the step
};

NotDrawn notDrawn(const ModelForecast& forecast)
{
    std::vector<const OpForecast*> left;
    for (const auto& op : forecast.ops)
        if (!rooflinePoint(op) && op.totalSeconds() > 0)
            left.push_back(&op);
    std::stable_sort(left.begin(), left.end(),
                     [](const OpForecast* a, const OpForecast* b) { return a->totalSeconds() > b->totalSeconds(); });
    NotDrawn out;
    for (const OpForecast* op : left) {
        out.names << QString::fromStdString(op->op.node);
        out.share += forecast.totalSeconds() > 0 ? op->totalSeconds() / forecast.totalSeconds() : 0;
    }
    return out;
}

// The corner note's forms, longest first, for fitItemText: whose kernels the dots are and, on a
// second line, what they leave out.
QStringList dotsOwnerForms(const QString& gpu, const NotDrawn& left)
{
    const QStringList owner{RooflineChart::tr("dots: kernels on %1").arg(gpu), RooflineChart::tr("dots: %1").arg(gpu), gpu};
    if (left.names.isEmpty())
        return owner;
    const QString percent = QString::number(100 * left.share, 'f', 1) + "%";
    const QString named = left.names.size() <= 2 ? left.names.join(", ") : left.names.front() + RooflineChart::tr(" and %1 more").arg(left.names.size() - 1);
    const QStringList second{RooflineChart::tr("not drawn: %1 (no FLOPs, %2 of the step)").arg(named, percent),
                             RooflineChart::tr("not drawn: %1 of the step (no FLOPs)").arg(percent),
                             RooflineChart::tr("%1 not drawn").arg(percent)};
    QStringList forms; // the owner in full first: a shorter second line before a shorter first
    for (int i = 0; i + 1 < int(owner.size()); ++i)
        for (const QString& line : second)
            forms << owner[i] + "\n" + line;
    return forms << owner.back();
}

} // namespace

std::vector<RooflinePoint> rooflinePoints(const ModelForecast& forecast)
{
    std::vector<RooflinePoint> out;
    for (const auto& op : forecast.ops)
        if (auto p = rooflinePoint(op))
            out.push_back(*p);
    return out;
}

RooflineChart::RooflineChart(ForecastSession* session, QWidget* parent)
    : ChartWidget(session, parent)
{
    placeLegendBeside();
    for (QCPAxis* axis : {plot_->xAxis, plot_->yAxis}) {
        axis->setScaleType(QCPAxis::stLogarithmic);
        setPowersOfTenTicker(axis);
    }
    enableToolTips();
    followSession();
}

void RooflineChart::setGpu(const QString& id)
{
    gpuId_ = id;
    rebuild();
}

void RooflineChart::rebuild()
{
    plot_->clearPlottables();
    plot_->clearItems();
    dotsOwner_ = nullptr;
    series_.clear();
    applyChartStyle(plot_);
    const auto forecasts = session_->forecasts();
    sayWhenNoGpuIsTicked(tr("see their roofs and where the kernels sit under them"));
    double top = 1, bottom = INFINITY; // the plot spans the roofs and the kernels, no more
    std::vector<QCPGraph*> roofs;
    for (std::size_t i = 0; i < forecasts->size(); ++i) {
        const QString id = QString::fromStdString((*forecasts)[i].gpu);
        const GpuSpec g = session_->effectiveGpu(id); // the roof the kernels were forecast under
        auto* roof = plot_->addGraph();
        roof->setName(gpuLabel(id) + tr(" roof"));
        roof->setPen(gpuPen(i, 1.5));
        QVector<double> x, y;
        for (double ai = kLowestIntensity; ai <= kHighestIntensity; ai *= 1.1) {
            x << ai;
            y << std::min(g.gemmPeakGflops(), ai * g.memoryBandwidthGBps);
        }
        roof->setData(x, y);
        top = std::max(top, g.gemmPeakGflops());
        bottom = std::min(bottom, y.front());
        series_.push_back({roof, id, {}});
        roofs.push_back(roof);
    }
    nameHiddenTwinsShortly(roofs, tr(" roof")); // "A100 (same)", and "A100" for "A100 roof"
    const ModelForecast* shown = forecasts->empty() ? nullptr : &forecasts->front();
    for (const auto& f : *forecasts)
        if (QString::fromStdString(f.gpu) == gpuId_)
            shown = &f;
    if (shown)
        drawGemmIssueCeiling(QString::fromStdString(shown->gpu), forecasts->empty() ? 0 : std::size_t(shown - &forecasts->front()));
    if (shown) {
        const auto points = rooflinePoints(*shown);
        for (OpClass c : kChartClasses) {
            std::vector<RooflinePoint> ofClass;
            std::copy_if(points.begin(), points.end(), std::back_inserter(ofClass),
                         [c](const RooflinePoint& p) { return p.opClass == c; });
            if (ofClass.empty())
                continue;
            auto* dots = plot_->addGraph();
            dots->setName(classLabel(c) + " (" + gpuLabel(QString::fromStdString(shown->gpu)) + ")");
            setShortLegendName(dots, classLabel(c));
            dots->setLineStyle(QCPGraph::lsNone);
            // Filled by class, as on Breakdown, and rimmed in the colour of the GPU whose roof they
            // sit under: with nine GPUs, V100's light-blue roof and the light-blue FC dots read as one.
            dots->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(gpuColor(std::size_t(shown - &forecasts->front())), 1.5),
                                                  QBrush(classColor(c)), 8));
            for (const auto& p : ofClass) {
                dots->addData(p.intensity, p.gflops);
                if (p.gflops > 0)
                    bottom = std::min(bottom, p.gflops);
            }
            // addData keeps the data sorted by key: sort the points the same way for the tooltips.
            std::stable_sort(ofClass.begin(), ofClass.end(),
                             [](const RooflinePoint& a, const RooflinePoint& b) { return a.intensity < b.intensity; });
            series_.push_back({dots, QString::fromStdString(shown->gpu), ofClass});
        }
    }
    drawHighlight(shown ? QString::fromStdString(shown->gpu) : QString());
    plot_->xAxis->setRange(kLowestIntensity, kHighestIntensity);
    plot_->yAxis->setRange(std::isfinite(bottom) ? std::max(bottom / 2, 1e-3) : 1, top * 2);
    xLabels_ = QStringList{tr("Arithmetic intensity (FLOP per DRAM byte)"), tr("FLOP per DRAM byte")};
    // Whose kernels the dots are, in the corner above the bandwidth slopes, which no roof or
    // kernel reaches: in a narrow chart the legend drops the GPU from their entries ("BMM
    // (attention)"), and four roofs with one GPU's dots left a teacher guessing.
    if (shown) {
        const QString gpu = gpuLabel(QString::fromStdString(shown->gpu));
        dotsOwner_ = new QCPItemText(plot_);
        dotsOwner_->setObjectName("dotsOwner");
        dotsOwner_->position->setType(QCPItemPosition::ptAxisRectRatio);
        dotsOwner_->position->setCoords(0.02, 0.02);
        dotsOwner_->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
        dotsOwner_->setTextAlignment(Qt::AlignLeft); // its second line starts under the first
        dotsOwner_->setColor(plot_->xAxis->tickLabelColor());
        dotsOwnerForms_ = dotsOwnerForms(gpu, notDrawn(*shown));
        dotsOwner_->setText(dotsOwnerForms_.front());
    }
    plot_->xAxis->setLabel(xLabels_.front());
    plot_->yAxis->setLabel(tr("Throughput (GFLOP/s, FP32)"));
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

void RooflineChart::fitToLayout()
{
    bool changed = fitAxisLabel(plot_->xAxis, xLabels_);
    if (dotsOwner_) // within the left half, where the roofs are still on their slopes
        changed = fitItemText(dotsOwner_, dotsOwnerForms_, 0.5 * plot_->xAxis->axisRect()->width()) || changed;
    if (changed)
        plot_->replot(QCustomPlot::rpQueuedReplot);
}

// The roof a GEMM on a 128-lane SM meets first (fp32GemmIssueShare): dashed under the flat roof,
// from where the bandwidth slope reaches it. Without it a class teaching rooflines sees every
// GEMM stop a tenth short of the roof with nothing on the chart to say why.
void RooflineChart::drawGemmIssueCeiling(const QString& gpu, std::size_t colourIndex)
{
    const GpuSpec g = session_->effectiveGpu(gpu);
    const double share = fp32GemmIssueShare(g);
    if (!(share < 1) || !(g.memoryBandwidthGBps > 0))
        return;
    const double ceiling = share * g.gemmPeakGflops();
    auto* line = plot_->addGraph();
    line->setName(tr("%1 GEMM issue ceiling (%2% of the roof)").arg(gpuLabel(gpu)).arg(100 * share, 0, 'f', 0));
    setShortLegendName(line, tr("%1 GEMM ceiling").arg(gpuLabel(gpu)));
    QPen pen = gpuPen(colourIndex, 1.5);
    pen.setStyle(Qt::DashLine);
    line->setPen(pen);
    QVector<double> x, y; // points along it, as the roofs have, for the hover to find
    for (double ai = ceiling / g.memoryBandwidthGBps; ai < kHighestIntensity * 1.1; ai *= 1.1) {
        x << std::min(ai, kHighestIntensity);
        y << ceiling;
    }
    line->setData(x, y);
    series_.push_back({line, gpu, {}, share});
}

void RooflineChart::drawHighlight(const QString& shownGpu)
{
    highlighted_.clear();
    const auto forecasts = session_->forecasts();
    for (std::size_t i = 0; i < forecasts->size(); ++i) {
        const ModelForecast& f = (*forecasts)[i];
        const OpForecast* op = selectedOp(f);
        const auto point = op ? rooflinePoint(*op) : std::nullopt;
        if (!point)
            continue;
        const QString gpu = QString::fromStdString(f.gpu);
        highlighted_.push_back({gpu, *point});
        auto* ring = plot_->addGraph();
        ring->setName(tr("%1 on each GPU").arg(point->name));
        ring->setLineStyle(QCPGraph::lsNone);
        ring->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ScatterShape(gpuMarkerShape(i)), QPen(gpuColor(i), 2.5), Qt::NoBrush, 17));
        ring->setData({point->intensity}, {point->gflops});
        if (highlighted_.size() > 1) // one legend entry for all the rings
            ring->removeFromLegend();
        series_.push_back({ring, gpu, {*point}});
        if (gpu != shownGpu) // one name is enough: the rings' colours are their GPUs' roofs
            continue;
        auto* label = new QCPItemText(plot_);
        label->position->setCoords(point->intensity, point->gflops);
        // Beside the ring, on the side with room: points crowd the right, under the flat roofs.
        const bool right = std::log(point->intensity / kLowestIntensity) > 0.6 * std::log(kHighestIntensity / kLowestIntensity);
        label->setPositionAlignment((right ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignVCenter);
        label->setPadding(right ? QMargins(0, 0, 14, 0) : QMargins(14, 0, 0, 0)); // clear of the ring
        label->setColor(plot_->xAxis->labelColor());
        label->setText(point->name);
    }
}

QString RooflineChart::toolTipAt(const QPointF& pixel) const
{
    const GraphPoint p = graphPointAt(pixel);
    const auto s = std::find_if(series_.begin(), series_.end(), [&](const Series& x) { return x.graph == p.graph; });
    if (!p.graph || s == series_.end())
        return {};
    if (s->issueShare > 0)
        return tr("%1 GEMM issue ceiling: %2 GFLOP/s, %3% of the FP32 peak\n"
                  "Each scheduler of these SMs feeds 32 FP32 lanes, and a GEMM's loads and address\n"
                  "arithmetic take lane-clocks from its FMAs, so GEMMs are priced under this line\n"
                  "(measured on an H200; docs/method.md, section 2)")
            .arg(s->gpu)
            .arg(p.value, 0, 'f', 0)
            .arg(100 * s->issueShare, 0, 'f', 0);
    if (s->points.empty())
        return tr("%1 roofline\nat %2 FLOP/byte: %3 GFLOP/s attainable")
            .arg(s->gpu)
            .arg(p.key, 0, 'g', 3)
            .arg(p.value, 0, 'f', 0);
    const RooflinePoint& r = s->points[std::size_t(p.index)];
    const GpuSpec g = session_->effectiveGpu(s->gpu);
    const double roof = std::min(g.gemmPeakGflops(), r.intensity * g.memoryBandwidthGBps);
    QString text = tr("%1\n%2 (%3)\n%4 FLOP/byte, %5 GFLOP/s forecast: %6% of this roof\n"
                      "%7% of the roofline of its tiles and waves (the table's Util.), which also counts\n"
                      "the bytes its tiles read again and the SMs a partial wave leaves idle")
                       .arg(s->gpu, r.name, classLabel(r.opClass))
                       .arg(r.intensity, 0, 'g', 3)
                       .arg(r.gflops, 0, 'f', 0)
                       .arg(roof > 0 ? 100 * r.gflops / roof : 0, 0, 'f', 0)
                       .arg(100 * r.utilization, 0, 'f', 0);
    if (const double share = fp32GemmIssueShare(g); share < 1 && (r.opClass == OpClass::Bmm || r.opClass == OpClass::Linear))
        text += tr("\nGEMMs on this GPU are priced under its issue ceiling, %1% of the FP32 peak (dashed)")
                    .arg(100 * share, 0, 'f', 0);
    // A tiny kernel on the roof reads as a perfect one; it is a floor (a teacher had asked why
    // one-token kernels ran at 100%).
    if (r.heldAtRoofline)
        text += tr("\nHeld at its roofline: inside the model the queue hides the launch overhead, and what\n"
                   "was left came out under the roofline, which no kernel can beat; the forecast\n"
                   "takes the roofline time, so its 100% is a floor, not a learned efficiency, and the\n"
                   "time may be low");
    // A teacher reading both views must not find them at odds without a reason.
    const bool rightOfRidge = r.intensity * g.memoryBandwidthGBps >= g.gemmPeakGflops();
    if (!r.tileBound.isEmpty() && r.tileBound.startsWith("memory") == rightOfRidge)
        text += rightOfRidge
                    ? tr("\nThe table's Bound says %1: it judges one tile, whose operand panels are read again by\n"
                         "other tiles, while this point places the whole kernel by the bytes it must read once")
                          .arg(r.tileBound)
                    : tr("\nThe table's Bound says %1: it judges one tile as the GPU runs it, padded rows and\n"
                         "panels shared through L2 included, while this point counts only the kernel's useful FLOPs")
                          .arg(r.tileBound);
    return text;
}

} // namespace gpuforecast::ui
