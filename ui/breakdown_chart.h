#pragma once
// Stacked latency bars: one bar per compared GPU, stacked by operator class — where the time goes
// and how it shifts between GPUs. Absolute (ms) or normalised (share of each GPU's total).
#include "forecast_session.h"

#include <QEvent>
#include <QWidget>

#include <array>
#include <vector>

class QCustomPlot;
class QCheckBox;

namespace gpuforecast::ui {

inline constexpr std::array<OpClass, 6> kChartClasses{OpClass::Bmm,     OpClass::Linear,    OpClass::Elementwise,
                                                      OpClass::Softmax, OpClass::LayerNorm, OpClass::Other};

// Milliseconds per class (rows, in kChartClasses order) per GPU (columns, in forecast order).
std::vector<std::vector<double>> classBreakdownMs(const ForecastList& forecasts);

class BreakdownChart : public QWidget {
    Q_OBJECT
public:
    explicit BreakdownChart(ForecastSession* session, QWidget* parent = nullptr);
    QCustomPlot* plot() const { return plot_; }
    const std::vector<std::vector<double>>& shownValues() const { return values_; } // what the bars show
    void setNormalized(bool on);

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
    void showToolTip(QMouseEvent* event);

    ForecastSession* session_;
    QCustomPlot* plot_;
    QCheckBox* normalized_;
    std::vector<std::vector<double>> values_;
    QStringList gpuNames_;
};

} // namespace gpuforecast::ui
