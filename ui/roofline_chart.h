#pragma once
// The roofline: attainable FLOP/s against arithmetic intensity (log-log) for each compared GPU,
// with the model's kernels on one GPU placed by their intensity and forecast throughput.
#include "forecast_session.h"

#include "chart_widget.h"


namespace gpuforecast::ui {

struct RooflinePoint {
    QString name;
    OpClass opClass;
    double intensity; // FLOP per DRAM byte (compulsory traffic)
    double gflops;    // forecast achieved GFLOP/s
};

std::vector<RooflinePoint> rooflinePoints(const ModelForecast& forecast);

class RooflineChart : public ChartWidget {
    Q_OBJECT
public:
    explicit RooflineChart(ForecastSession* session, QWidget* parent = nullptr);
    void setGpu(const QString& id); // whose kernels are placed

private:
    void rebuild() override;
    QString gpuId_;
};

} // namespace gpuforecast::ui
