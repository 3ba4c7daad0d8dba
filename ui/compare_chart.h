#pragma once
// End-to-end latency across the compared GPUs with speed-up against a baseline GPU the user picks
// (the first by default), throughput, and whether the model fits in each GPU's memory.
#include "forecast_session.h"

#include "chart_widget.h"
#include "quantity_format.h"

#include <optional>
#include <string>
#include <vector>

class QCPBars;
class QCPItemText;
class QResizeEvent;
class QCheckBox;
class QComboBox;
class QLabel;

namespace gpuforecast::ui {

class CompareChart : public ChartWidget {
    Q_OBJECT
public:
    explicit CompareChart(ForecastSession* session, QWidget* parent = nullptr);
    QString toolTipAt(const QPointF& pixel) const override;
    // The GPU speed-ups are measured against; one of the compared GPUs. Unknown ids are ignored.
    void setBaseline(const QString& gpuId);
    QString baseline() const;
    // A log latency axis, for comparisons that span GPUs of different generations (a P4 at 26 s
    // and a B200 at 0.5 s): on a linear one the fast GPUs' bars are slivers.
    void setLogScale(bool on);
    bool logScale() const;

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    void rebuild() override;
    // The lines of bar g's label: time (in the axis's unit, so that bars read alike), speed-up,
    // throughput, per W and per $1k where the sheet gives them, memory fit, and a pointer to the
    // hover text when the GPU is beyond the measured.
    QStringList barDetails(std::size_t g, const LatencyUnit& unit) const;
    // Tokens a step of this forecast moves per second, and their name ("prompt tokens/s" for an
    // inference step): the full label's rates and the summary's one.
    struct TokenRate {
        double perSecond = 0;
        QString unit;
    };
    TokenRate tokenRate(const ModelForecast& f) const;
    void drawMeasuredRuns(const QVector<double>& keys); // keys: the bars' x positions
    // Full labels where every one fits above its bar, else time and speed-up only; slants the
    // GPU names where they would collide. Returns whether the slant changed (a new layout).
    bool chooseLabels();
    void fitToLayout() override;
    void syncBaselineChoices();
    // Where the GPU lies against the measured GPUs (engine specCoverage): within, near the edge or
    // beyond, in the what-if panel's words. Within for a GPU the session no longer has.
    SpecCoverage coverage(const ModelForecast& f) const;
    // The note for a sheet read as a new GPU (no efficiency basis, within the measured range), if this is one.
    std::optional<std::string> readAsNewGpuNote(const ModelForecast& f) const;
    // The notes for people of `c`, f's coverage: the ratios outside the measured range, the donor,
    // its caution.
    QStringList extrapolationNotes(const ModelForecast& f, const SpecCoverage& c) const;
    // The latency axis's value at `fraction` of the way from its bottom to the top of the tallest
    // bar's label space (linear or log, as the axis is).
    double axisTop(double labelFraction) const;
    QComboBox* baseline_;
    QCheckBox* logScale_;
    QLabel* logHint_; // beside the box, while one slow GPU flattens the others on a linear axis
    double bottom_ = 0; // the latency axis's lower end, ms (0 on a linear axis)
    QString wantedBaseline_; // kept while that GPU is unchecked, so re-checking it restores the choice
    QCPBars* bars_ = nullptr;
    struct BarLabel { // its forms, made once per rebuild; chooseLabels() only measures them
        QCPItemText* item;
        QString full, compact;
        QString summary;           // between the two: time, speed-up, the rate and the memory fit
        QString narrow;            // compact, with "beyond measured" over two lines
        QString upright, timeOnly; // turned upright; the time alone where even that is too tall
        int markGap = 0; // px kept under the text for a measured run's diamond at or above the bar
    };
    std::vector<BarLabel> labels_;
    double top_ = 1;             // the tallest bar, ms
    bool compactLabels_ = false; // the labels show time and speed-up only
    bool measuredShown_ = false; // a measured run's mark is drawn (the axis label says what it is)
    bool uprightLabels_ = false; // even those would collide: the time alone, turned upright
    bool timeOnlyLabels_ = false; // upright, the time alone: the fit warning did not fit the height
    QStringList yLabels_;        // the value axis's title, longest first; fitToLayout picks one
    QStringList xLabels_;        // the caption under the bars (model, settings, layout), the same way
};

} // namespace gpuforecast::ui
