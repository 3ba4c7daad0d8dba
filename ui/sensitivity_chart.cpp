#include "sensitivity_chart.h"

#include "chart_style.h"

#include <qcustomplot.h>

#include <QVBoxLayout>

namespace gpuforecast::ui {

SensitivityChart::SensitivityChart(ForecastSession* session, QWidget* parent)
    : ChartWidget(session, parent), pair_(new QCPBarsGroup(plot_)) // side by side: both changes can point the same way
{
    placeLegendBeside();
    enableToolTips();
    if (!session_->selectedGpus().isEmpty())
        gpuId_ = session_->selectedGpus().front();
    followSession();
}

void SensitivityChart::setGpu(const QString& id)
{
    gpuId_ = id;
    requestRebuild();
}

void SensitivityChart::rebuild()
{
    // Around the GPU as the what-if sliders have it: "having doubled the bandwidth, what next?"
    rows_ = session_->gpu(gpuId_) ? specSensitivity(session_->forecaster(), session_->model(), session_->options(),
                                                    session_->effectiveGpu(gpuId_), 0.2, session_->layout())
                                  : std::vector<SpecSensitivity>{};
    plot_->clearPlottables();
    plot_->clearItems();
    notes_.clear();
    applyChartStyle(plot_);
    // Horizontal bars: keys are rows (largest effect on top), values are % change of step time.
    auto* lower = lower_ = new QCPBars(plot_->yAxis, plot_->xAxis);
    auto* higher = higher_ = new QCPBars(plot_->yAxis, plot_->xAxis);
    lower->setName(tr("spec x 0.8"));
    higher->setName(tr("spec x 1.2"));
    lower->setBrush(QColor(213, 94, 0));
    higher->setBrush(QColor(0, 158, 115));
    // A group stacks its bars upward in the order they join it: x 1.2 first puts x 0.8 on top in
    // each row, in the legend's order.
    for (auto* b : {higher, lower}) {
        b->setPen(Qt::NoPen);
        b->setWidth(0.35);
        b->setBarsGroup(pair_);
    }
    // Memory size never changes the time, but "no effect" must not read as "memory does not
    // matter" where the model does not fit: that is said on its row.
    // Nor where it fits only just: 20% less memory would not hold it.
    // Longest first; fitToLayout shows the longest that fits beside the row's label (in a 1024-px
    // window the full note ran into it, cut at both ends).
    QStringList memoryNote;
    const auto forecasts = session_->forecasts();
    if (const qsizetype at = session_->selectedGpus().indexOf(gpuId_); at >= 0 && std::size_t(at) < forecasts->size()) {
        const ModelForecast& f = (*forecasts)[std::size_t(at)];
        // Per GPU on a layout, as the CLI says: "needs 393.2 GiB" read as the server's need.
        const QString needs = formatGiB(f.memory.totalBytes()) + (session_->layout().gpus() > 1 ? tr(" per GPU") : QString());
        if (!f.fits())
            memoryNote = QStringList{tr("no effect on time, but the model does NOT fit (needs %1)").arg(needs),
                                     tr("does NOT fit (needs %1)").arg(needs), tr("does NOT fit")};
        else if (f.memory.totalBytes() > 0.8 * f.gpuMemoryBytes)
            memoryNote = QStringList{tr("no effect on time, but at x 0.8 (%1) the model no longer fits (needs %2)")
                                         .arg(formatGiB(0.8 * f.gpuMemoryBytes), needs),
                                     tr("at x 0.8 no longer fits (needs %1)").arg(needs), tr("at x 0.8: does not fit")};
    }
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    double extent = 1;
    const int n = int(rows_.size());
    for (int i = 0; i < n; ++i) {
        const double key = n - i;
        lower->addData(key, 100 * rows_[std::size_t(i)].lowerChange);
        higher->addData(key, 100 * rows_[std::size_t(i)].higherChange);
        ticker->addTick(key, QString::fromStdString(rows_[std::size_t(i)].label));
        extent = std::max({extent, std::abs(100 * rows_[std::size_t(i)].lowerChange),
                           std::abs(100 * rows_[std::size_t(i)].higherChange)});
        // A field the step time does not depend on (memory size, often L2) has no bars at all,
        // which reads as missing data; say it.
        if (std::max(std::abs(rows_[std::size_t(i)].lowerChange), std::abs(rows_[std::size_t(i)].higherChange)) < 5e-4) {
            auto* none = new QCPItemText(plot_);
            none->setObjectName("noEffect");
            none->position->setCoords(0, key);
            // A sheet of 1 or 2 SMs cannot lose or gain a fifth of a whole SM: that is not "no effect".
            const QStringList forms = !rows_[std::size_t(i)].moved()
                                          ? QStringList{tr("cannot move by 20%: SMs are whole (%1 here)").arg(session_->effectiveGpu(gpuId_).smCount),
                                                        tr("cannot move by 20%"), tr("cannot move")}
                                      : rows_[std::size_t(i)].field == "memory_gb" && !memoryNote.isEmpty()
                                          ? memoryNote
                                          : QStringList{tr("no effect (under 0.05%)"), tr("no effect")};
            none->setText(forms.front());
            none->setColor(plot_->xAxis->tickLabelColor());
            notes_.push_back({none, forms});
        }
    }
    plot_->yAxis->setTicker(ticker);
    plot_->yAxis->setRange(0.4, n + 0.6);
    plot_->xAxis->setRange(-extent * 1.15, extent * 1.15);
    xLabels_ = QStringList{tr("Change of step time on %1 when one spec field moves by 20% (%)").arg(gpuId_),
                           tr("Step time change on %1, field \u00b120% (%)").arg(gpuLabel(gpuId_)),
                           tr("Step time change (%)"), tr("%")};
    plot_->xAxis->setLabel(xLabels_.front());
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

void SensitivityChart::fitToLayout()
{
    bool changed = fitAxisLabel(plot_->xAxis, xLabels_);
    // A note is centred on the zero line, so it has the narrower side of the axis rect to each side.
    const QCPAxisRect* rect = plot_->xAxis->axisRect();
    const double zero = plot_->xAxis->coordToPixel(0);
    const double room = 2 * std::min(zero - rect->left(), rect->right() - zero) - 8;
    for (const auto& [item, forms] : notes_)
        changed = fitItemText(item, forms, room) || changed;
    if (changed)
        plot_->replot(QCustomPlot::rpQueuedReplot);
}

QString SensitivityChart::toolTipAt(const QPointF& pixel) const
{
    int bar = lower_ ? barAt(lower_, pixel) : -1;
    if (bar < 0 && higher_)
        bar = barAt(higher_, pixel);
    const int row = int(rows_.size()) - 1 - bar; // keys count up from the bottom row
    if (bar < 0 || row < 0)
        return {};
    const SpecSensitivity& r = rows_[std::size_t(row)];
    // The factor the field really moved by: three SMs become two and four, not 2.4 and 3.6.
    const auto factor = [](double f) { return QString::number(f, 'f', f == std::round(f * 10) / 10 ? 1 : 2); };
    return tr("%1\n%2 x %3: step time %4%\n%2 x %5: step time %6%")
        .arg(gpuId_, QString::fromStdString(r.label), factor(r.lowerFactor))
        .arg(100 * r.lowerChange, 0, 'f', 1)
        .arg(factor(r.higherFactor))
        .arg(100 * r.higherChange, 0, 'f', 1);
}

} // namespace gpuforecast::ui
