#pragma once
// The explorer's window: model and GPU panels on the left, charts in the middle, every operator
// below. It only arranges widgets and routes user actions to the session.
#include "forecast_session.h"

#include <QMainWindow>

class QTabWidget;
class QTableView;
class QListView;
class QUndoStack;

namespace gpuforecast::ui {

class BreakdownChart;
class CompareChart;
class SensitivityChart;
class GpuListModel;
class ModelPanel;
class OperatorTableModel;
class SpecTableModel;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(ForecastSession* session, QWidget* parent = nullptr);

    BreakdownChart* breakdownChart() const { return breakdown_; }
    SpecTableModel* specModel() const { return specModel_; }
    OperatorTableModel* operatorModel() const { return operatorModel_; }
    QUndoStack* undoStack() const { return undo_; }
    bool exportChart(const QString& path); // PNG or PDF by suffix; the current chart tab

protected:
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    QWidget* buildGpuPanel();
    void buildMenus();
    void showGpu(const QString& id);
    void addUserGpu(const QString& baseId, std::optional<GpuSpec> from = std::nullopt);
    void deleteUserGpu();
    void importGpu();
    void exportGpu();
    void updateStatus();

    ForecastSession* session_;
    QUndoStack* undo_;
    GpuListModel* gpuModel_;
    SpecTableModel* specModel_;
    OperatorTableModel* operatorModel_;
    ModelPanel* modelPanel_;
    QListView* gpuList_;
    QTableView* specView_;
    QTabWidget* charts_;
    BreakdownChart* breakdown_;
    CompareChart* compare_;
    SensitivityChart* sensitivity_;
};

} // namespace gpuforecast::ui
