#pragma once
// End-to-end latency across the compared GPUs with speed-up against a baseline GPU the user picks
// (the first by default), throughput, and whether the model fits in each GPU's memory.
#include "forecast_session.h"

#include "chart_widget.h"


class QCPBars;
class QComboBox;

namespace gpuforecast::ui {

class CompareChart : public ChartWidget {
    Q_OBJECT
public:
    explicit CompareChart(ForecastSession* session, QWidget* parent = nullptr);
    QString toolTipAt(const QPointF& pixel) const override;
    // The GPU speed-ups are measured against; one of the compared GPUs. Unknown ids are ignored.
    void setBaseline(const QString& gpuId);
    QString baseline() const;

private:
    void rebuild() override;
    void syncBaselineChoices();
    // Where the GPU's per-SM spec ratios lie outside every measured GPU's (engine extrapolation.h).
    QStringList extrapolationNotes(const ModelForecast& f) const;
    QComboBox* baseline_;
    QString wantedBaseline_; // kept while that GPU is unchecked, so re-checking it restores the choice
    QCPBars* bars_ = nullptr;
};

} // namespace gpuforecast::ui
