#pragma once
// Wave quantization, made visible: one kernel's latency as one of its dimensions sweeps, per
// compared GPU — a staircase whose steps are the waves (ceil(tiles / SMs)) — with the kernel's
// own size marked. The kernel is the one selected in the operator table (default: the largest).
#include "forecast_session.h"

#include "chart_widget.h"


namespace gpuforecast::ui {

struct WaveSweep {
    QString gpu;
    std::vector<double> dimension, ms, waves;
};

// Sweeps m (GEMMs: output rows) or the row count (vector kernels) from 1 to 2x the kernel's own.
std::vector<WaveSweep> sweepKernel(const ForecastSession& session, const Kernel& kernel, int points = 160);

class WavesChart : public ChartWidget {
    Q_OBJECT
public:
    explicit WavesChart(ForecastSession* session, QWidget* parent = nullptr);
    void setKernel(const QString& opName); // a node name from the operator table

private:
    void rebuild() override;
    QString opName_;
};

} // namespace gpuforecast::ui
