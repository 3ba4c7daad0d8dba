#pragma once
// Tornado chart: how much the model's step time on the selected GPU changes when each spec field
// moves by +-20% — the architect's "what should next year's GPU improve for my model?".
#include "forecast_session.h"

#include "gpuforecast/sensitivity.h"

#include "chart_widget.h"


class QCPBars;
class QCPBarsGroup;
class QCPItemText;

namespace gpuforecast::ui {

class SensitivityChart : public ChartWidget {
    Q_OBJECT
public:
    explicit SensitivityChart(ForecastSession* session, QWidget* parent = nullptr);
    void setGpu(const QString& id);
    // The rows drawn, brought up to date first if the chart was left out of date while hidden.
    const std::vector<SpecSensitivity>& shown()
    {
        bringUpToDate();
        return rows_;
    }
    QString toolTipAt(const QPointF& pixel) const override;

private:
    void rebuild() override;
    void fitToLayout() override; // the notes and the axis title in the longest form that fits
    QCPBarsGroup* pair_;
    QCPBars* lower_ = nullptr;
    QCPBars* higher_ = nullptr;
    QString gpuId_;
    std::vector<SpecSensitivity> rows_;
    struct RowNote { // "no effect" on a row without bars: its forms, longest first
        QCPItemText* item;
        QStringList forms;
    };
    std::vector<RowNote> notes_;
    QStringList xLabels_; // the axis title, longest first
};

} // namespace gpuforecast::ui
