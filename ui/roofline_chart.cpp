#include "roofline_chart.h"

#include "breakdown_chart.h"
#include "chart_style.h"

#include <qcustomplot.h>

#include <QVBoxLayout>

namespace gpuforecast::ui {

std::vector<RooflinePoint> rooflinePoints(const ModelForecast& forecast)
{
    std::vector<RooflinePoint> out;
    for (const auto& op : forecast.ops) {
        const Kernel& k = op.op.kernel;
        if (k.opClass == OpClass::Other || k.flops() <= 0 || op.forecast.seconds <= 0)
            continue;
        out.push_back({QString::fromStdString(op.op.node), k.opClass, k.flops() / k.bytes(),
                       k.flops() / op.forecast.seconds / 1e9});
    }
    return out;
}

RooflineChart::RooflineChart(ForecastSession* session, QWidget* parent)
    : ChartWidget(session, parent)
{
    plot_->legend->setVisible(true);
    plot_->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignBottom | Qt::AlignRight);
    for (QCPAxis* axis : {plot_->xAxis, plot_->yAxis}) {
        axis->setScaleType(QCPAxis::stLogarithmic);
        axis->setTicker(QSharedPointer<QCPAxisTickerLog>::create());
    }
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
    applyChartStyle(plot_);
    const auto forecasts = session_->forecasts();
    static const QColor lineColors[] = {QColor(0, 0, 0), QColor(213, 94, 0), QColor(0, 114, 178), QColor(204, 121, 167),
                                        QColor(0, 158, 115), QColor(230, 159, 0)};
    const double lo = 0.05, hi = 2000;
    double top = 1;
    for (std::size_t i = 0; i < forecasts->size(); ++i) {
        const GpuSpec* g = session_->gpu(QString::fromStdString((*forecasts)[i].gpu));
        if (!g)
            continue;
        auto* roof = plot_->addGraph();
        roof->setName(QString::fromStdString(g->id) + tr(" roof"));
        roof->setPen(QPen(lineColors[i % 6], 1.5));
        QVector<double> x, y;
        for (double ai = lo; ai <= hi; ai *= 1.1) {
            x << ai;
            y << std::min(g->fp32MatrixGflops, ai * g->memoryBandwidthGBps);
        }
        roof->setData(x, y);
        top = std::max(top, g->fp32MatrixGflops);
    }
    const ModelForecast* shown = forecasts->empty() ? nullptr : &forecasts->front();
    for (const auto& f : *forecasts)
        if (QString::fromStdString(f.gpu) == gpuId_)
            shown = &f;
    if (shown) {
        const auto points = rooflinePoints(*shown);
        for (OpClass c : kChartClasses) {
            QVector<double> x, y;
            for (const auto& p : points)
                if (p.opClass == c) {
                    x << p.intensity;
                    y << p.gflops;
                }
            if (x.isEmpty())
                continue;
            auto* dots = plot_->addGraph();
            dots->setName(classLabel(c) + " (" + QString::fromStdString(shown->gpu) + ")");
            dots->setLineStyle(QCPGraph::lsNone);
            dots->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, classColor(c), 7));
            dots->setData(x, y);
        }
    }
    plot_->xAxis->setRange(lo, hi);
    plot_->yAxis->setRange(1, top * 2);
    plot_->xAxis->setLabel(tr("Arithmetic intensity (FLOP per DRAM byte)"));
    plot_->yAxis->setLabel(tr("Throughput (GFLOP/s, FP32)"));
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

} // namespace gpuforecast::ui
