#pragma once
// The roofline: attainable FLOP/s against arithmetic intensity (log-log) for each compared GPU,
// with the model's kernels on one GPU placed by their intensity and forecast throughput.
#include "forecast_session.h"

#include <QEvent>
#include <QWidget>

class QCustomPlot;

namespace gpuforecast::ui {

struct RooflinePoint {
    QString name;
    OpClass opClass;
    double intensity; // FLOP per DRAM byte (compulsory traffic)
    double gflops;    // forecast achieved GFLOP/s
};

std::vector<RooflinePoint> rooflinePoints(const ModelForecast& forecast);

class RooflineChart : public QWidget {
    Q_OBJECT
public:
    explicit RooflineChart(ForecastSession* session, QWidget* parent = nullptr);
    void setGpu(const QString& id); // whose kernels are placed
    QCustomPlot* plot() const { return plot_; }

protected:
    // Dark or light theme switched while running: redraw with the new palette's colours.
    void changeEvent(QEvent* event) override
    {
        if (event->type() == QEvent::PaletteChange)
            rebuild();
        QWidget::changeEvent(event);
    }

private:
    void rebuild();
    ForecastSession* session_;
    QCustomPlot* plot_;
    QString gpuId_;
};

} // namespace gpuforecast::ui
