#pragma once
// Which model, how much work per step, inference or training, fused or not.
#include "forecast_session.h"

#include <QWidget>

class QComboBox;
class QSpinBox;
class QCheckBox;

namespace gpuforecast::ui {

class ModelPanel : public QWidget {
    Q_OBJECT
public:
    explicit ModelPanel(ForecastSession* session, QWidget* parent = nullptr);
    void openConfig(const QString& path); // also used for drag and drop

private:
    void applyOptions();
    void syncFromSession();

    ForecastSession* session_;
    QComboBox* model_;
    QSpinBox* batch_;
    QSpinBox* seq_;
    QComboBox* mode_;
    QCheckBox* fusion_;
};

} // namespace gpuforecast::ui
