#pragma once
// Wave quantization, made visible, for one kernel (the one picked in the operator table, else the
// costliest) on every compared GPU, in two panels:
//  left:  the learned utilization against the number of waves (the saturating wave law the network
//         predicts for this kernel's tiles), with the kernel's own wave count marked;
//  right: the kernel's latency as one of its dimensions sweeps — a staircase whose steps are the
//         waves (ceil(tiles / SMs)) — with the wave boundaries of the first GPU and the kernel's own
//         size marked, annotated with how full its last wave is.
#include "forecast_session.h"

#include "gpuforecast/wave_sweep.h"

#include <span>
#include <utility>

#include "chart_widget.h"

class QCheckBox;
class QCPAxis;
class QCPAxisRect;
class QCPItemText;
class QCPTextElement;

namespace gpuforecast::ui {

struct WaveSweep {
    QString gpu;
    std::vector<double> dimension, ms, waves;
    std::vector<double> boundaries; // sizes at which a new wave starts
};

// Sweeps m (GEMMs: output rows) or the row count (vector kernels) from 1 to 2x the largest of the kernels,
// on each compared GPU (what-if multipliers applied), stepping exactly at the wave boundaries.
// `perGpu`: the kernel as each compared GPU prices it (index aligned with selectedGpus()).
std::vector<WaveSweep> sweepKernel(const ForecastSession& session, std::span<const Kernel> perGpu, int points = 160);
std::vector<WaveSweep> sweepKernel(const ForecastSession& session, const Kernel& kernel, int points = 160);

struct UtilizationCurve {
    QString gpu;
    std::vector<double> waves, utilization;
    double ownWaves = 0, ownUtilization = 0; // where the kernel itself sits on the curve
    WaveFill fill;                           // how its tiles fill the SMs
    // Its roofline time over its forecast inside the model, the operator table's "Util.": above the
    // law for a kernel near the launch floor, whose overhead the queue hides.
    double inModelUtilization = 0;
    // The wave count its forecast was priced at where that is not its own (KernelForecast::
    // pricedWaves: the table's "63 (as 124)"), else 0. The point stays at its own waves.
    double pricedWaves = 0;
};

// The learned utilization of the kernel's tiles from 1 wave to well past its own wave count.
std::vector<UtilizationCurve> utilizationCurves(const ForecastSession& session, std::span<const Kernel> perGpu, int points = 100);
std::vector<UtilizationCurve> utilizationCurves(const ForecastSession& session, const Kernel& kernel, int points = 100);

class WavesChart : public ChartWidget {
    Q_OBJECT
public:
    explicit WavesChart(ForecastSession* session, QWidget* parent = nullptr);
    QString toolTipAt(const QPointF& pixel) const override;

    // What is drawn, for tests and tooltips: the node's name, with its phase unless forward
    // ("mlp.fc (bw)").
    QString shownOperator() const { return shownOperator_; }
    // The shown kernel as each compared GPU priced it (a thin GEMM's padded shape).
    const std::vector<Kernel>& pricedKernels() const { return pricedKernels_; }
    const std::vector<UtilizationCurve>& curves() const { return curves_; }
    const std::vector<WaveSweep>& sweeps() const { return sweeps_; }
    const std::vector<double>& markedBoundaries() const { return markedBoundaries_; } // first GPU's
    // The staircase's note in each form it may take, longest first (the last is none).
    const QStringList& noteForms() const { return note_; }
    // A log latency axis on the staircase, for GPUs far apart in speed: beside a P4's 90 ms an
    // H100's steps of a few milliseconds lay flat on the axis.
    void setLogLatency(bool on);
    bool logLatency() const;

private:
    void rebuild() override;
    void drawUtilization();
    void drawStaircase();
    QString dimensionName() const;
    QString fillText(const WaveFill& fill) const;
    QString compactFillText(const WaveFill& fill) const; // "75 full + partial of 53%"
    // The longest of each text that fits its panel's width: titles and the note on the staircase.
    void fitToLayout() override;

    // Each text and its shorter forms, longest first.
    QStringList utilizationTitles_, staircaseTitles_, note_;
    QCPItemText* noteItem_ = nullptr;
    std::vector<std::pair<QCPAxis*, QStringList>> axisTitles_; // both panels' axes, each title's forms

    QCheckBox* logLatency_;
    QCPAxisRect* staircaseRect_;   // QCustomPlot's own rect (xAxis, yAxis, legend)
    QCPAxisRect* utilizationRect_;
    QCPTextElement* utilizationTitle_;
    QCPTextElement* staircaseTitle_;
    std::vector<Kernel> pricedKernels_; // per compared GPU: a thin GEMM's padded shape (KernelForecast::paddedM)
    Kernel kernel_;      // the first GPU's priced kernel
    Kernel modelKernel_; // as the model has it
    QString shownOperator_;
    std::vector<UtilizationCurve> curves_;
    std::vector<WaveSweep> sweeps_;
    std::vector<double> ownMs_; // the shown kernel's time in the model, per compared GPU
    std::vector<double> markedBoundaries_;
    std::vector<const QCPGraph*> curveGraphs_, ownGraphs_, stepGraphs_; // index: GPU
};

} // namespace gpuforecast::ui
