#pragma once
// Four sliders that scale one GPU's memory bandwidth, FP32 peak, SM count and L2 from x0.25 to x4,
// with every chart following as they move: "an H100 with twice the bandwidth" in one gesture.
#include "forecast_session.h"

#include <QWidget>

class QSlider;
class QLabel;

namespace gpuforecast::ui {

class WhatIfPanel : public QWidget {
    Q_OBJECT
public:
    explicit WhatIfPanel(ForecastSession* session, QWidget* parent = nullptr);
    void setGpu(const QString& id);
    void setFactor(int which, double factor); // 0 bandwidth, 1 FP32, 2 SMs, 3 L2 (tests, shortcuts)
    // One line under the sliders: whether the GPU as edited lies within the measured GPUs' range,
    // and if not, whose GEMM efficiency it borrows (the list of ratios beyond it in the tooltip).
    QString coverageText() const;

private:
    void apply();
    void showCoverage();
    static double factorOf(int sliderValue);
    static int sliderOf(double factor);

    ForecastSession* session_;
    QString gpuId_;
    QSlider* sliders_[4];
    QLabel* labels_[4];
    QLabel* coverage_;
};

} // namespace gpuforecast::ui
