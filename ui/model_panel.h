#pragma once
// Which model, how much work per step, inference or training, fused or not, and how it is split
// over the GPUs of one server.
#include "forecast_session.h"

#include <QWidget>

class QComboBox;
class QSpinBox;
class QCheckBox;
class QGroupBox;
class QLabel;
class QToolButton;

namespace gpuforecast::ui {

class ModelPanel : public QWidget {
    Q_OBJECT
public:
    explicit ModelPanel(ForecastSession* session, QWidget* parent = nullptr);
    void openConfig(const QString& path); // also used for drag and drop

private:
    QGroupBox* buildParallelBox();
    // The parallel layout under a header that says it in one line ("Parallel layout: 1 GPU") and
    // opens it: a single GPU needs none of its rows, which took the spec table's room at 1280 x 800.
    QWidget* buildParallelSection();
    void showParallelBox(bool shown);
    QSpinBox* layoutSpinBox(long long ParallelLayout::*degree); // its arrows skip refused values
    // What a change of one degree brings along, in the boxes and their arrows alike: no
    // micro-batches without stages, no ZeRO without replicas, only stage 1 beside a pipeline.
    static ParallelLayout withDependentsFitted(ParallelLayout l);
    void applyOptions();
    void applyLayout();
    void syncFromSession();

    ForecastSession* session_;
    QComboBox* model_;
    QSpinBox* batch_;
    QSpinBox* seq_;
    QComboBox* mode_;
    QCheckBox* fusion_;
    QCheckBox* checkpointing_; // training only
    QSpinBox* tp_;
    QSpinBox* pp_;
    QSpinBox* dp_;
    QSpinBox* microbatches_;
    QComboBox* schedule_;
    QComboBox* zero_; // ZeRO stage of the DP replicas, its index the stage
    QLabel* gpuCount_;
    QToolButton* parallelHeader_; // opens and closes parallelBox_, and sums it up
    QGroupBox* parallelBox_ = nullptr;
    QLabel* size_;       // the model's parameters (and a mixture of experts' active ones) and layers
    QLabel* graphCheck_; // whether measured runs check the model family's graph
    QLabel* precision_;  // caveats on the config: a dtype that is not FP32, a sequence past its context; hidden when none
    QLabel* assumed_;    // defaults taken for fields the config leaves out; hidden when none
};

} // namespace gpuforecast::ui
