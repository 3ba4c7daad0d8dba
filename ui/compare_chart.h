#pragma once
// End-to-end latency across the compared GPUs with speed-up against the first (the baseline),
// throughput, and whether the model fits in each GPU's memory.
#include "forecast_session.h"

#include <QWidget>

class QCustomPlot;

namespace gpuforecast::ui {

class CompareChart : public QWidget {
    Q_OBJECT
public:
    explicit CompareChart(ForecastSession* session, QWidget* parent = nullptr);
    QCustomPlot* plot() const { return plot_; }

private:
    void rebuild();
    ForecastSession* session_;
    QCustomPlot* plot_;
};

} // namespace gpuforecast::ui
