#pragma once
// "Learned efficiency of: [A100-PCIE-40GB]" under the spec sheet. A copied or edited sheet is read
// with the efficiency the networks learned for the sheet it came from (efficiency_basis), so an
// edit changes only the roofline, tiles and waves; "this sheet's own numbers" reads it as a new
// GPU instead. Editable for the user's sheets only; a change is one undo step.
#include "forecast_session.h"

#include <QWidget>

class QComboBox;
class QUndoStack;

namespace gpuforecast::ui {

class EfficiencyBasisBox : public QWidget {
    Q_OBJECT
public:
    EfficiencyBasisBox(ForecastSession* session, QUndoStack* undo, QWidget* parent = nullptr);
    void setGpu(const QString& id);
    QComboBox* combo() const { return combo_; } // tests

private:
    void refresh();
    void choose(int index);

    ForecastSession* session_;
    QUndoStack* undo_;
    QString gpuId_;
    QComboBox* combo_;
};

} // namespace gpuforecast::ui
