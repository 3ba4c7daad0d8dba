#pragma once
// End-to-end latency across the compared GPUs with speed-up against a baseline GPU the user picks
// (the first by default), throughput, and whether the model fits in each GPU's memory.
#include "forecast_session.h"

#include "chart_widget.h"

#include <vector>

class QCPBars;
class QCPItemText;
class QResizeEvent;
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

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    void rebuild() override;
    // The lines of bar g's label: time, speed-up, throughput, per W and per $1k where the sheet
    // gives them, memory fit, and a pointer to the hover text when the GPU is beyond the measured.
    QStringList barDetails(std::size_t g) const;
    // Full labels where every one fits above its bar, else time and speed-up only.
    void fitLabels();
    void syncBaselineChoices();
    // Where the GPU's per-SM spec ratios lie outside every measured GPU's (engine extrapolation.h).
    QStringList extrapolationNotes(const ModelForecast& f) const;
    QComboBox* baseline_;
    QString wantedBaseline_; // kept while that GPU is unchecked, so re-checking it restores the choice
    QCPBars* bars_ = nullptr;
    struct BarLabel {
        QCPItemText* item;
        QString full, compact;
    };
    std::vector<BarLabel> labels_;
    double top_ = 1;             // the tallest bar, ms
    bool compactLabels_ = false; // the labels show time and speed-up only
};

} // namespace gpuforecast::ui
