#pragma once
// The explorer's window: model and GPU panels on the left, charts in the middle, every operator
// below. It only arranges widgets and routes user actions to the session.
#include "forecast_session.h"

#include <QMainWindow>

class QTabWidget;
class QTableView;
class QListView;
class QUndoStack;
class QMenu;
class QSortFilterProxyModel;

namespace gpuforecast::ui {

class Autosave;
class BreakdownChart;
class CompareChart;
class EfficiencyBasisBox;
class SensitivityChart;
class WavesChart;
class WhatIfPanel;
class RooflineChart;
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
    WhatIfPanel* whatIfPanel() const { return whatIf_; }
    bool exportChart(const QString& path); // PNG or PDF by suffix; the current chart tab
    // Off for a render-only run (--screenshot): scenarios it opens stay out of File > Recent and
    // are not reopened at the next start.
    void setRemembersScenarios(bool on) { remembersScenarios_ = on; }
    // The Compare chart's figures (one row per compared GPU) and the operator table as shown
    // (filtered and sorted), as CSV; false, with the reason shown, when the file cannot be written.
    bool exportComparisonCsv(const QString& path);
    bool exportOperatorCsv(const QString& path);
    // false (and the reason shown) on a bad file; `notes` gets what the window also says of a file
    // it opened (keys it did not read, sheets added under a new id), empty when there is nothing.
    bool openScenario(const QString& path, QString* error = nullptr, QString* notes = nullptr);
    // As File > Open does: unsaved work (recovered after a crash, say) is offered for saving first.
    bool openScenarioAskingFirst(const QString& path);
    bool saveScenario(const QString& path);
    bool isModified() const { return modified_; }
    void restoreSettings(); // window layout, recent files, last scenario (not used for --screenshot)
    // The size a window opens at without a saved layout (a first start, after a crash): 1600 x 1000,
    // or nine tenths of the screen's free area where that is smaller. On a 1366 x 768 laptop the
    // window had opened at 1600 x 1000, its right and bottom off the screen.
    static QSize initialSize(const QSize& availableOnScreen);
    // Brings the chart tab with this title (any case: "sensitivity") to the front; false if none.
    bool showChart(const QString& title);
    QStringList chartTitles() const;
    // Keeps unsaved work in a recovery file and, in restoreSettings(), offers back what a crash left.
    // Without one (tests, --screenshot) nothing is kept. The window does not take ownership.
    void setAutosave(Autosave* autosave);
    // Applies the recovered work without asking; false, with the reason shown (and in *error), on a bad file.
    bool restoreRecovery(QString* error = nullptr);

protected:
    void closeEvent(QCloseEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    // Exported charts: a fixed size, so figures match whatever the window's size.
    static constexpr int kExportWidth = 1200, kExportHeight = 700;
    static constexpr int kExportDotsPerMeter = int(96 / 0.0254); // 96 dpi, 3779, as QCustomPlot::savePng writes

    QWidget* buildGpuPanel();
    void buildMenus();
    void showGpu(const QString& id);
    void markInGpuList(const QString& id); // the list's current row, without reopening the sheet
    // Every chart hears of the pick (an empty name: none), and it is remembered for re-picking.
    void pickOperatorInCharts(const QString& name, int opIndex);
    // How a user GPU starts: a copy reads its source's learned efficiency, a new GPU its own
    // numbers, an imported sheet whatever the file says (`path` names it in errors).
    enum class GpuStart { Copy, New, Imported };
    void addUserGpu(const QString& baseId, GpuStart how, std::optional<GpuSpec> imported = std::nullopt,
                    const QString& path = {});
    void deleteUserGpu();
    void editGpuIdentity(); // the open sheet's id, name, vendor and architecture (GpuIdentityDialog)
    void importGpu();
    void exportGpu();
    void updateStatus();
    void updateTitle();
    bool maybeSave();
    void rememberRecent(const QString& path);
    bool remembersScenarios_ = true;
    void rebuildRecentMenu();
    bool writeExport(const QString& path, const std::string& bytes); // atomically; false after saying why
    bool reportExportFailure(const QString& path, const QString& why);

    ForecastSession* session_;
    QUndoStack* undo_;
    GpuListModel* gpuModel_;
    SpecTableModel* specModel_;
    OperatorTableModel* operatorModel_;
    QSortFilterProxyModel* operatorView_ = nullptr; // the table as shown: filtered and sorted
    // The operator picked in the table (its name and row in the forecast's ops), picked again when
    // the table is rebuilt for another GPU or new forecasts; -1 for none.
    QString pickedOperator_;
    int pickedOperatorIndex_ = -1;
    ModelPanel* modelPanel_;
    QListView* gpuList_;
    QTableView* specView_;
    QTabWidget* charts_;
    BreakdownChart* breakdown_;
    CompareChart* compare_;
    SensitivityChart* sensitivity_;
    WavesChart* waves_;
    RooflineChart* roofline_;
    EfficiencyBasisBox* efficiencyBasis_ = nullptr;
    WhatIfPanel* whatIf_ = nullptr;
    QMenu* recentMenu_ = nullptr;
    Autosave* autosave_ = nullptr;
    QString scenarioPath_;
    bool modified_ = false;
    bool loading_ = false;
};

} // namespace gpuforecast::ui
