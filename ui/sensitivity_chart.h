#pragma once
// Tornado chart: how much the model's step time on the selected GPU changes when each spec field
// moves by +-20% — the architect's "what should next year's GPU improve for my model?".
#include "forecast_session.h"

#include "gpuforecast/sensitivity.h"

#include <QEvent>
#include <QWidget>

class QCustomPlot;

namespace gpuforecast::ui {

class SensitivityChart : public QWidget {
    Q_OBJECT
public:
    explicit SensitivityChart(ForecastSession* session, QWidget* parent = nullptr);
    void setGpu(const QString& id);
    QCustomPlot* plot() const { return plot_; }
    const std::vector<SpecSensitivity>& shown() const { return rows_; }

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
    std::vector<SpecSensitivity> rows_;
};

} // namespace gpuforecast::ui
