#pragma once
// Stacked latency bars: one bar per compared GPU, stacked by operator class — where the time goes
// and how it shifts between GPUs — and, for a multi-GPU layout, by the time spent communicating and
// idle in the pipeline bubble. Absolute (ms) or normalised (share of each GPU's total).
#include "forecast_session.h"

#include "chart_widget.h"

#include <array>
#include <vector>

class QCheckBox;

namespace gpuforecast::ui {

inline constexpr std::array<OpClass, 6> kChartClasses{OpClass::Bmm,     OpClass::Linear,    OpClass::Elementwise,
                                                      OpClass::Softmax, OpClass::LayerNorm, OpClass::Other};

// Rows after the operator classes: zero on one GPU.
inline constexpr std::size_t kCommunicationRow = kChartClasses.size();
inline constexpr std::size_t kBubbleRow = kChartClasses.size() + 1;

// Milliseconds per class (rows, in kChartClasses order), then communication and bubble, per GPU
// (columns, in forecast order). The rows of one column add up to its forecast's total.
std::vector<std::vector<double>> classBreakdownMs(const ForecastList& forecasts);

class BreakdownChart : public ChartWidget {
    Q_OBJECT
public:
    explicit BreakdownChart(ForecastSession* session, QWidget* parent = nullptr);
    const std::vector<std::vector<double>>& shownValues() const { return values_; } // what the bars show
    void setNormalized(bool on);
    // The picked operator's part of each bar (same unit as the bars; empty when none is picked),
    // outlined inside each class's segment it has time in (highlightOutlines) and labelled above
    // the bar.
    const std::vector<double>& highlightedValues() const { return highlighted_; }
    // One outline per GPU and class the picked operator has time in: in a training step a layer's
    // gradient accumulation is element-wise work under the layer's name.
    struct Outline {
        std::size_t gpu = 0, row = 0; // column in forecast order; row in kChartClasses order
        double bottom = 0, top = 0;   // in the bars' unit
    };
    const std::vector<Outline>& highlightOutlines() const { return outlines_; }

private:
    void rebuild() override;
    void fitToLayout() override; // room above the tallest bar for the picked operator's label
    void showToolTip(QMouseEvent* event);
    void drawHighlight(const ForecastList& forecasts);

    QCheckBox* normalized_;
    std::vector<std::vector<double>> values_;
    std::vector<double> highlighted_;
    std::vector<Outline> outlines_;
    double top_ = 0; // the tallest bar
    QStringList gpuNames_;
    QStringList yLabels_; // the value axis's title, longest first; fitToLayout picks one
    QStringList xLabels_; // the caption under the bars (model, settings, layout), the same way
};

} // namespace gpuforecast::ui
