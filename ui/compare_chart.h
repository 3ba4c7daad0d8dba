#pragma once
// End-to-end latency across the compared GPUs with speed-up against the first (the baseline),
// throughput, and whether the model fits in each GPU's memory.
#include "forecast_session.h"

#include "chart_widget.h"


class QCPBars;

namespace gpuforecast::ui {

class CompareChart : public ChartWidget {
    Q_OBJECT
public:
    explicit CompareChart(ForecastSession* session, QWidget* parent = nullptr);
    QString toolTipAt(const QPointF& pixel) const override;

private:
    void rebuild() override;
    QCPBars* bars_ = nullptr;
};

} // namespace gpuforecast::ui
