#pragma once
// What every chart tab shares: a QCustomPlot filling the widget, and a redraw from the session's
// forecasts whenever they change or the palette (light/dark theme) does. Subclasses only draw.
#include "forecast_session.h"

#include <QEvent>
#include <QWidget>

class QCustomPlot;
class QVBoxLayout;

namespace gpuforecast::ui {

class ChartWidget : public QWidget {
    Q_OBJECT
public:
    QCustomPlot* plot() const { return plot_; }

protected:
    ChartWidget(ForecastSession* session, QWidget* parent);
    virtual void rebuild() = 0;
    void changeEvent(QEvent* event) override;
    QVBoxLayout* layout() const { return layout_; } // for controls above the plot
    // Connects forecastsChanged to rebuild(); call at the end of the subclass constructor.
    void followSession();

    ForecastSession* session_;
    QCustomPlot* plot_;

private:
    QVBoxLayout* layout_;
    bool following_ = false; // no redraw before the subclass is constructed
};

} // namespace gpuforecast::ui
