#pragma once
// End-to-end latency across the compared GPUs with speed-up against the first (the baseline),
// throughput, and whether the model fits in each GPU's memory.
#include "forecast_session.h"

#include <QEvent>
#include <QWidget>

class QCustomPlot;

namespace gpuforecast::ui {

class CompareChart : public QWidget {
    Q_OBJECT
public:
    explicit CompareChart(ForecastSession* session, QWidget* parent = nullptr);
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
};

} // namespace gpuforecast::ui
