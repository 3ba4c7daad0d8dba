#pragma once
// What every chart tab shares: a QCustomPlot filling the widget, a redraw from the session's
// forecasts whenever they change or the palette (light/dark theme) does, the operator picked in the
// operator table, and hover tooltips. Subclasses only draw and say what a point means.
#include "forecast_session.h"

#include <QEvent>
#include <QMargins>
#include <QPointF>
#include <QWidget>

#include <vector>

class QCPAbstractPlottable;
class QCPBars;
class QCPGraph;
class QCPLayoutGrid;
class QCustomPlot;
class QVBoxLayout;

namespace gpuforecast::ui {

class ChartWidget : public QWidget {
    Q_OBJECT
public:
    QCustomPlot* plot() const { return plot_; }

    // The operator picked in the operator table: its graph node name (empty for none) and its
    // position in a forecast's ops, the same on every GPU (-1: the node's first kernel). A node has
    // several kernels in a training step (forward, two backward GEMMs, accumulation): the Breakdown
    // outlines all of them, the charts that show single kernels the one picked.
    void setSelectedOperator(const QString& opName, int opIndex = -1);
    QString selectedOperator() const { return selectedOperator_; }
    // The picked kernel in `forecast`: the op at the picked position when it is of the picked node,
    // else the node's first; null when nothing is picked or the node is not there.
    const OpForecast* selectedOp(const ModelForecast& forecast) const;

    // The hover text for a point of the plot, in plot pixels; empty where there is nothing under it.
    // Public so the text can be checked without a real mouse.
    virtual QString toolTipAt(const QPointF& pixel) const;

    // A chart whose redraw is costly (Sensitivity forecasts the model twice per spec field) need
    // not redraw behind another tab on every edit: with this set, a change while the chart is
    // hidden only marks it out of date, and it redraws when shown or when its numbers are read
    // (bringUpToDate). Off by default, so a chart made alone, never shown, draws at once.
    void setRedrawOnlyWhenShown(bool lazy) { redrawOnlyWhenShown_ = lazy; }
    // An exported image has no mouse: while this is set, the chart leaves out the words that only
    // point to its hover text ("beyond the measured GPUs (hover)"). Takes effect at the next layout.
    void setRenderingForExport(bool on) { renderingForExport_ = on; }

protected:
    ChartWidget(ForecastSession* session, QWidget* parent);
    virtual void rebuild() = 0;
    // Every redraw goes through here: rebuild() now, or later (setRedrawOnlyWhenShown).
    void requestRebuild();
    // Redraws a chart left out of date while hidden; for accessors of what the chart shows.
    void bringUpToDate();
    bool renderingForExport() const { return renderingForExport_; }
    void changeEvent(QEvent* event) override;
    void showEvent(QShowEvent* event) override;
    QVBoxLayout* layout() const { return layout_; } // for controls above the plot
    // Connects forecastsChanged to rebuild(); call at the end of the subclass constructor.
    void followSession();
    // Shows toolTipAt() while the mouse moves over the plot; for subclasses that implement it.
    void enableToolTips();
    // Shows the legend in a column right of the plot area, where it never hides data.
    void placeLegendBeside();
    // With no GPU ticked, a line in the middle of the chart says so and what ticking one would show
    // (`purpose`), and the legend, empty, is hidden: bare axes read as a broken chart. Call in
    // rebuild() after clearing the items. Returns whether nothing is ticked.
    bool sayWhenNoGpuIsTicked(const QString& purpose);
    // A shorter name for a legend entry, shown while the full names would make the legend beside
    // the plot wider than a third of the chart (a laptop window). Set on each rebuild's plottables.
    static void setShortLegendName(QCPAbstractPlottable* plottable, const QString& shortName);
    // Names hidden twins (nameHiddenTwins: "H100 (same as H100-SXM5-80GB)") and gives each the
    // short legend form "H100 (same)". `dropSuffix` is a word every name ends with that the short
    // forms leave out, twins' and others' alike (the Roofline's " roof").
    static void nameHiddenTwinsShortly(const std::vector<QCPGraph*>& graphs, const QString& dropSuffix = {});
    // A GPU's name as charts show it: shortened, with the session's mark for an edited sheet or a
    // what-if (a bar labelled "H100-SXM5-80GB" had shown a user's edited numbers).
    QString gpuLabel(const QString& id) const;
    // What the chart shows, for the caption under a bar chart (and so on an exported image): the
    // model, batch, sequence, mode and layout, longest first for fitAxisLabel. `outlined` and
    // `outlinedShort` end the longest form and the others (Breakdown's picked operator).
    QStringList scenarioCaptions(const QString& outlined = {}, const QString& outlinedShort = {}) const;

private:
    void fitLegendPlacement(); // short names (setShortLegendName), and beside or above, after each layout
    void fitLegendToHeight();  // beside the plot: wraps into another column past the rows that fit
    void fitLegendAcross();    // above the plots: as many columns as the width holds
    void moveLegend(bool above);
    int rowHeight(bool compact) const;  // one row of the legend, closed up or as QCustomPlot spaces it
    int rowsBeside(bool compact) const; // the legend's rows that fit beside the plot
    int columnsAcross(const std::vector<int>& widths) const; // the most that fit across the chart
    bool closeUpLegendRows(bool compact); // returns whether anything changed
    enum class Names { Full, Short, Current };
    std::vector<int> legendEntryWidths(Names names) const; // each entry's, from the font
    static constexpr QMargins kBesideMargins{4, 8, 8, 8}; // the legend's frame clear of the widget's edge
    static constexpr const char* kShortName = "gpuforecastShortLegendName";
    static constexpr const char* kFullName = "gpuforecastFullLegendName";
    static constexpr const char* kNormalRowSpacing = "gpuforecastNormalRowSpacing"; // the legend's, before closing up
    static constexpr const char* kNormalMargins = "gpuforecastNormalMargins";       // an entry's, the same

protected:
    // Called after every layout of the plot, when the axis rects' pixel sizes are known: charts fit
    // their text to them (room above bars, a shorter title or note). A change of range must queue a
    // replot, and only a real change, or the replot calls this again without end.
    virtual void fitToLayout() {}

    // For toolTipAt(): the data point of any graph (in any axis rect) nearest `pixel`, if one lies
    // within a few pixels.
    struct GraphPoint {
        const QCPGraph* graph = nullptr;
        int index = -1;
        double key = 0, value = 0;
    };
    GraphPoint graphPointAt(const QPointF& pixel) const;
    // The data index of the bar of `bars` under `pixel` (vertical or horizontal bars), or -1.
    static int barAt(const QCPBars* bars, const QPointF& pixel);

    ForecastSession* session_;
    QCustomPlot* plot_;

private:
    QVBoxLayout* layout_;
    QString selectedOperator_;
    int selectedIndex_ = -1;
    bool following_ = false; // no redraw before the subclass is constructed
    bool redrawOnlyWhenShown_ = false;
    bool outOfDate_ = false; // a redraw skipped while hidden
    bool renderingForExport_ = false;
    bool legendBeside_ = false;
    bool legendAbove_ = false;          // moved to a row above the plots (fitLegendPlacement)
    QCPLayoutGrid* besideHolder_ = nullptr; // the column right of the plots that holds it otherwise
};

} // namespace gpuforecast::ui
