#pragma once
// Tornado chart: how much the model's step time on the selected GPU changes when each spec field
// moves by +-20% — the architect's "what should next year's GPU improve for my model?".
#include "forecast_session.h"

#include "gpuforecast/sensitivity.h"

#include "chart_widget.h"


class QCPBars;
class QCPBarsGroup;

namespace gpuforecast::ui {

class SensitivityChart : public ChartWidget {
    Q_OBJECT
public:
    explicit SensitivityChart(ForecastSession* session, QWidget* parent = nullptr);
    void setGpu(const QString& id);
    const std::vector<SpecSensitivity>& shown() const { return rows_; }
    QString toolTipAt(const QPointF& pixel) const override;

private:
    void rebuild() override;
    QCPBarsGroup* pair_;
    QCPBars* lower_ = nullptr;
    QCPBars* higher_ = nullptr;
    QString gpuId_;
    std::vector<SpecSensitivity> rows_;
};

} // namespace gpuforecast::ui
