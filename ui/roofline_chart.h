#pragma once
// The roofline: attainable FLOP/s against arithmetic intensity (log-log) for each compared GPU,
// with the model's kernels on one GPU placed by their intensity and forecast throughput. The
// operator picked in the operator table is ringed on every GPU, so its move between them shows.
#include "forecast_session.h"

#include "chart_widget.h"

class QCPItemText;

namespace gpuforecast::ui {

struct RooflinePoint {
    QString name;
    OpClass opClass;
    double intensity; // FLOP per DRAM byte (compulsory traffic)
    double gflops;    // forecast achieved GFLOP/s
    // The operator table's "Util.": against the roofline of its tiles and waves, which counts the
    // bytes each tile re-reads and the idle SMs of a partial wave, so it can be far above the
    // point's share of the roof drawn here.
    double utilization = 0;
    // The operator table's "Bound" ("compute", "memory", "memory (re-reads)"): judged per tile,
    // which reads its share of the operands again, so it may disagree with the point's side of
    // the ridge, which the whole kernel's compulsory traffic sets.
    QString tileBound;
    bool heldAtRoofline = false; // KernelForecast::heldAtRoofline: its 100% is a floor, said in the tooltip
};

std::vector<RooflinePoint> rooflinePoints(const ModelForecast& forecast);

class RooflineChart : public ChartWidget {
    Q_OBJECT
public:
    explicit RooflineChart(ForecastSession* session, QWidget* parent = nullptr);
    void setGpu(const QString& id); // whose kernels are placed
    QString toolTipAt(const QPointF& pixel) const override;

    // The picked operator's point on each compared GPU (empty when nothing is picked or the
    // operator is not a compute kernel), for tests and tooltips.
    struct Highlight {
        QString gpu;
        RooflinePoint point;
    };
    const std::vector<Highlight>& highlighted() const { return highlighted_; }

private:
    void rebuild() override;
    void fitToLayout() override; // the axis title in the longest form that fits
    void drawGemmIssueCeiling(const QString& gpu, std::size_t colourIndex);
    void drawHighlight(const QString& shownGpu); // shownGpu: whose kernels are placed; its ring is named

    QString gpuId_;
    // What each graph shows, for tooltips: a GPU's roof, or kernels of one GPU.
    struct Series {
        const QCPGraph* graph;
        QString gpu;
        std::vector<RooflinePoint> points; // empty for a roof
        double issueShare = 0;             // > 0: the GEMM issue ceiling line, at this share of the roof
    };
    std::vector<Series> series_;
    std::vector<Highlight> highlighted_;
    QStringList xLabels_; // the intensity axis's title, longest first
    QCPItemText* dotsOwner_ = nullptr; // names whose kernels the dots are
    QStringList dotsOwnerForms_;       // its text, longest first
};

} // namespace gpuforecast::ui
