#pragma once
// Every kernel of the model on one GPU: what it is, how it is tiled, how many waves, whether the
// roofline says compute or memory, its time and share. DisplayRole is formatted text; SortRole
// carries the raw number so sorting by time sorts numerically.
#include "forecast_session.h"

#include <QAbstractTableModel>

namespace gpuforecast::ui {

class OperatorTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    // Time and share next to the name, as a profiler shows them: last, they needed sideways
    // scrolling to be seen in a 1366 x 768 window.
    enum Column { Name, TimeMs, Share, Class, Phase, Count, Dims, Tile, Waves, Utilization, Bound, ColumnCount };
    static constexpr int SortRole = Qt::UserRole + 1;
    // Waves column: the count the forecast was priced at (its own, or KernelForecast::pricedWaves).
    static constexpr int PricedWavesRole = Qt::UserRole + 2;
    // Waves column: the SM count its waves are over when a what-if kernel took its basis's
    // forecast (KernelForecast::layoutSms); invalid when they are over its own GPU's SMs.
    static constexpr int LayoutSmsRole = Qt::UserRole + 3;
    // Phase column: the phase alone ("bw") and the part ("grad weight", empty where there is one
    // kernel), which the display joins ("bw: grad weight"); the CSV keeps them apart for scripts.
    static constexpr int PhaseNameRole = Qt::UserRole + 4;
    static constexpr int PartRole = Qt::UserRole + 5;

    explicit OperatorTableModel(ForecastSession* session, QObject* parent = nullptr);
    void setGpu(const QString& id); // which compared GPU's forecast to show
    QString gpuId() const { return gpuId_; }
    QString shownGpu() const { return current() ? gpuId_ : QString(); } // empty: nothing on screen
    // Whether any shown kernel is not a forward one: an inference pass's Phase column reads "fw"
    // on every row, so the window hides it there.
    bool showsBackwardKernels() const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    void refresh();
    const ModelForecast* current() const;

    ForecastSession* session_;
    QString gpuId_;
    std::shared_ptr<const ForecastList> forecasts_;
};

} // namespace gpuforecast::ui
