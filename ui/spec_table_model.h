#pragma once
// One GPU's spec sheet as an editable table (field, value, unit). Edits are validated by the
// engine's own rules; a refused value keeps the old one and the reason is shown on the cell.
// Every accepted edit is an undoable command on the shared QUndoStack.
#include "forecast_session.h"

#include <QAbstractTableModel>
#include <QHash>

class QUndoStack;

namespace gpuforecast::ui {

class SpecTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { FieldColumn, ValueColumn, UnitColumn, ColumnCount };
    SpecTableModel(ForecastSession* session, QUndoStack* undo, QObject* parent = nullptr);

    void setGpu(const QString& id);
    QString gpuId() const { return gpuId_; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role) override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    // What a field is for when no latency forecast reads it (shown in its tooltip); empty otherwise.
    static QString forecastUse(const std::string& key);

signals:
    void editRejected(const QString& message);
    // An accepted edit that left the sheet disagreeing with itself where it had agreed: SMs, cores
    // or clock moved, and the FP32 peak, which forecasts use as given, did not follow. An
    // architect who raised the SMs from 132 to 200 got 1.06x, where the what-if slider, which
    // scales the peak with them, gave 1.58x, and only a tint on another cell said why.
    void sheetDisagrees(const QString& message);

private:
    ForecastSession* session_;
    QUndoStack* undo_;
    QString gpuId_;
    QHash<int, QString> rejected_; // row -> why the last edit was refused
};

} // namespace gpuforecast::ui
