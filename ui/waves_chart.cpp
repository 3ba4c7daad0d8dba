#include "waves_chart.h"

#include "chart_style.h"

#include <qcustomplot.h>

#include <QVBoxLayout>

namespace gpuforecast::ui {

std::vector<WaveSweep> sweepKernel(const ForecastSession& session, const Kernel& kernel, int points)
{
    std::vector<WaveSweep> out;
    const long long own = kernel.isGemm() ? kernel.m : kernel.b;
    const long long top = std::max<long long>(2, 2 * own);
    std::vector<Kernel> kernels;
    std::vector<double> dims;
    for (int i = 1; i <= points; ++i) {
        const long long d = std::max<long long>(1, top * i / points);
        if (!dims.empty() && double(d) == dims.back())
            continue;
        Kernel k = kernel;
        (kernel.isGemm() ? k.m : k.b) = d;
        kernels.push_back(k);
        dims.push_back(double(d));
    }
    for (const auto& id : session.selectedGpus()) {
        const GpuSpec* gpu = session.gpu(id);
        const auto f = session.forecaster().predict(kernels, *gpu);
        WaveSweep s{id, dims, {}, {}};
        for (const auto& r : f) {
            s.ms.push_back(r.ms());
            s.waves.push_back(r.geometry.waves);
        }
        out.push_back(std::move(s));
    }
    return out;
}

WavesChart::WavesChart(ForecastSession* session, QWidget* parent)
    : ChartWidget(session, parent)
{
    plot_->legend->setVisible(true);
    plot_->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignLeft);
    followSession();
}

void WavesChart::setKernel(const QString& opName)
{
    opName_ = opName;
    rebuild();
}

void WavesChart::rebuild()
{
    plot_->clearPlottables();
    plot_->clearItems();
    applyChartStyle(plot_);
    const auto forecasts = session_->forecasts();
    if (forecasts->empty())
        return plot_->replot();
    // The selected operator, or the costliest compute kernel of the first GPU's forecast.
    const OpForecast* chosen = nullptr;
    for (const auto& op : forecasts->front().ops) {
        if (op.op.kernel.opClass == OpClass::Other)
            continue;
        if (QString::fromStdString(op.op.node) == opName_) {
            chosen = &op;
            break;
        }
        if (!chosen || op.totalSeconds() > chosen->totalSeconds())
            chosen = &op;
    }
    if (!chosen)
        return plot_->replot();
    const Kernel& k = chosen->op.kernel;
    const auto sweeps = sweepKernel(*session_, k);
    static const QColor colors[] = {QColor(0, 114, 178), QColor(213, 94, 0), QColor(0, 158, 115),
                                    QColor(204, 121, 167), QColor(230, 159, 0), QColor(86, 180, 233)};
    double top = 0;
    for (std::size_t i = 0; i < sweeps.size(); ++i) {
        auto* g = plot_->addGraph();
        g->setName(sweeps[i].gpu);
        g->setPen(QPen(colors[i % 6], 2));
        g->setLineStyle(QCPGraph::lsStepLeft);
        g->setData(QVector<double>(sweeps[i].dimension.begin(), sweeps[i].dimension.end()),
                   QVector<double>(sweeps[i].ms.begin(), sweeps[i].ms.end()), true);
        top = std::max(top, *std::max_element(sweeps[i].ms.begin(), sweeps[i].ms.end()));
    }
    // Mark the kernel's own size: where the model sits on each staircase.
    const double own = double(k.isGemm() ? k.m : k.b);
    auto* line = new QCPItemStraightLine(plot_);
    line->point1->setCoords(own, 0);
    line->point2->setCoords(own, 1);
    line->setPen(QPen(plot_->xAxis->labelColor(), 1, Qt::DashLine));
    auto* label = new QCPItemText(plot_);
    label->position->setCoords(own, top * 1.02);
    label->setPositionAlignment(Qt::AlignLeft | Qt::AlignBottom);
    label->setColor(plot_->xAxis->labelColor());
    label->setText(tr("  this model: %1").arg(own));
    plot_->xAxis->setRange(0, sweeps.front().dimension.back() * 1.02);
    plot_->yAxis->setRange(0, top * 1.12);
    plot_->xAxis->setLabel(k.isGemm() ? tr("%1: m (output rows); each step is one more wave of tiles")
                                            .arg(QString::fromStdString(chosen->op.node))
                                      : tr("%1: rows; each step is one more wave of tiles")
                                            .arg(QString::fromStdString(chosen->op.node)));
    plot_->yAxis->setLabel(tr("Kernel latency (ms)"));
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

} // namespace gpuforecast::ui
