#include "breakdown_chart.h"

#include "chart_style.h"

#include <algorithm>

#include <qcustomplot.h>

#include <QBrush>
#include <QCheckBox>
#include <QToolTip>
#include <QVBoxLayout>

namespace gpuforecast::ui {
namespace {

constexpr double kBarWidth = 0.6; // of the distance between two GPUs' bars

QString rowLabel(std::size_t row)
{
    if (row == kCommunicationRow)
        return QObject::tr("Communication");
    if (row == kBubbleRow)
        return QObject::tr("Pipeline bubble (idle)");
    return classLabel(kChartClasses[row]);
}

QBrush rowBrush(std::size_t row)
{
    if (row == kCommunicationRow)
        return QColor(213, 94, 0); // Okabe-Ito vermillion: not used by any operator class
    if (row == kBubbleRow)
        return QBrush(QColor(120, 120, 120), Qt::BDiagPattern); // hatched: time spent doing nothing
    return classColor(kChartClasses[row]);
}

} // namespace

std::vector<std::vector<double>> classBreakdownMs(const ForecastList& forecasts)
{
    std::vector<std::vector<double>> v(kBubbleRow + 1, std::vector<double>(forecasts.size(), 0.0));
    for (std::size_t g = 0; g < forecasts.size(); ++g) {
        for (const auto& op : forecasts[g].ops) {
            const auto it = std::find(kChartClasses.begin(), kChartClasses.end(), op.op.kernel.opClass);
            v[std::size_t(it - kChartClasses.begin())][g] += op.totalSeconds() * 1e3;
        }
        v[kCommunicationRow][g] = forecasts[g].commSeconds * 1e3;
        v[kBubbleRow][g] = forecasts[g].bubbleSeconds * 1e3;
    }
    return v;
}

BreakdownChart::BreakdownChart(ForecastSession* session, QWidget* parent)
    : ChartWidget(session, parent), normalized_(new QCheckBox(tr("Normalised"), this))
{
    layout()->insertWidget(0, normalized_);
    placeLegendBeside(); // inside the axes it covered the first bars at small window sizes
    connect(normalized_, &QCheckBox::toggled, this, [this] { rebuild(); });
    connect(plot_, &QCustomPlot::mouseMove, this, &BreakdownChart::showToolTip);
    followSession();
}

void BreakdownChart::setNormalized(bool on) { normalized_->setChecked(on); }

void BreakdownChart::rebuild()
{
    const auto forecasts = session_->forecasts();
    values_ = classBreakdownMs(*forecasts);
    gpuNames_.clear();
    for (const auto& f : *forecasts)
        gpuNames_ << QString::fromStdString(f.gpu);
    const bool norm = normalized_->isChecked();
    if (norm)
        for (std::size_t g = 0; g < forecasts->size(); ++g) {
            const double total = (*forecasts)[g].totalSeconds() * 1e3;
            for (auto& row : values_)
                row[g] = total > 0 ? 100 * row[g] / total : 0;
        }
    plot_->clearPlottables();
    plot_->clearItems();
    applyChartStyle(plot_);
    QVector<double> keys;
    for (int g = 0; g < gpuNames_.size(); ++g)
        keys << g + 1;
    QCPBars* below = nullptr;
    for (std::size_t c = 0; c < values_.size(); ++c) {
        if (c >= kChartClasses.size() && std::all_of(values_[c].begin(), values_[c].end(), [](double v) { return v == 0; }))
            continue; // one GPU: no communication or bubble to show, nor to list in the legend
        auto* bars = new QCPBars(plot_->xAxis, plot_->yAxis);
        bars->setName(rowLabel(c));
        bars->setPen(Qt::NoPen);
        bars->setBrush(rowBrush(c));
        bars->setWidth(kBarWidth);
        bars->setData(keys, QVector<double>(values_[c].begin(), values_[c].end()), true);
        if (below)
            bars->moveAbove(below);
        below = bars;
    }
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    for (int g = 0; g < gpuNames_.size(); ++g)
        ticker->addTick(g + 1, gpuLabel(gpuNames_[g]));
    plot_->xAxis->setTicker(ticker);
    plot_->xAxis->setRange(0.4, gpuNames_.size() + 0.6); // set by hand: rescaleAxes halves outer bars
    double top = 0;
    bool anyDoesNotFit = false;
    for (std::size_t g = 0; g < forecasts->size(); ++g) {
        double sum = 0;
        for (const auto& row : values_)
            sum += row[g];
        top = std::max(top, sum);
        if (!(*forecasts)[g].fits()) { // as on Compare: it had looked like a GPU the model fits
            hatchDoesNotFit(plot_, double(g + 1), kBarWidth, sum, 0, sum - values_[kBubbleRow][g]); // the bubble sits on top
            anyDoesNotFit = true;
        }
    }
    if (anyDoesNotFit) // the mark had no key, and read as the pipeline bubble's hatching
        addDoesNotFitLegendEntry(plot_);
    top_ = top;
    sayWhenNoGpuIsTicked(tr("see where their step time goes"));
    drawHighlight(*forecasts);
    fitToLayout();
    const LatencyUnit unit = norm ? LatencyUnit{"%", 1} : latencyUnitFor(top_);
    setLatencyTicker(plot_->yAxis, unit);
    yLabels_ = norm ? QStringList{tr("Share of step time (%)"), tr("Share (%)"), tr("%")}
                    : QStringList{tr("Latency per step (%1)").arg(unit.name), tr("Latency (%1)").arg(unit.name), unit.name};
    plot_->yAxis->setLabel(yLabels_.front()); // fitToLayout shortens it where the next layout is too short
    // The picked operator is named once here; above each bar only its time and share, which fit
    // a bar's slot (with the name, six GPUs' labels ran into each other and off the plot).
    const QString outlined = highlighted_.empty() ? QString()
                                                  : tr("\noutlined: %1, all its launches (time and share above each bar)")
                                                        .arg(selectedOperator());
    const QString outlinedShort = highlighted_.empty() ? QString() : tr("\noutlined: %1").arg(selectedOperator());
    xLabels_ = scenarioCaptions(outlined, outlinedShort);
    plot_->xAxis->setLabel(xLabels_.front());
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

void BreakdownChart::drawHighlight(const ForecastList& forecasts)
{
    highlighted_.clear();
    outlines_.clear();
    const QString name = selectedOperator();
    if (name.isEmpty())
        return;
    const bool norm = normalized_->isChecked();
    const QColor ink = plot_->xAxis->labelColor();
    for (std::size_t g = 0; g < forecasts.size(); ++g) {
        // All of the operator's launches on this GPU (forward, backward, accumulate), by class.
        std::array<double, kChartClasses.size()> msByClass{};
        for (const auto& op : forecasts[g].ops)
            if (QString::fromStdString(op.op.node) == name) {
                const auto row = std::find(kChartClasses.begin(), kChartClasses.end(), op.op.kernel.opClass) -
                                 kChartClasses.begin();
                msByClass[std::size_t(row)] += op.totalSeconds() * 1e3;
            }
        double ms = 0;
        for (const double v : msByClass)
            ms += v;
        const double total = forecasts[g].totalSeconds() * 1e3;
        auto inBarUnit = [&](double v) { return norm ? (total > 0 ? 100 * v / total : 0) : v; };
        highlighted_.push_back(inBarUnit(ms));
        if (inBarUnit(ms) <= 0)
            continue;
        const double x = double(g) + 1;
        // Each class's part sits at the bottom of that class's segment, above the classes below it.
        double base = 0;
        for (std::size_t row = 0; row < kChartClasses.size(); ++row) {
            if (const double shown = inBarUnit(msByClass[row]); shown > 0) {
                outlines_.push_back({g, row, base, base + shown});
                auto* box = new QCPItemRect(plot_);
                box->topLeft->setCoords(x - 0.3, base + shown);
                box->bottomRight->setCoords(x + 0.3, base);
                box->setPen(QPen(ink, 2));
                box->setBrush(Qt::NoBrush);
            }
            base += values_[row][g];
        }
        double barTop = 0;
        for (const auto& r : values_)
            barTop += r[g];
        auto* label = new QCPItemText(plot_);
        label->position->setCoords(x, barTop);
        label->setPositionAlignment(Qt::AlignHCenter | Qt::AlignBottom);
        label->setColor(ink);
        label->setText(tr("%1\n%2%").arg(formatMs(ms)).arg(total > 0 ? 100 * ms / total : 0, 0, 'f', 1));
        label->setObjectName("operatorLabel");
    }
}

void BreakdownChart::fitToLayout()
{
    const double lines = highlighted_.empty() ? 0.5 : 2.5; // the operator's two lines, and a margin
    const double upper =
        top_ > 0 ? top_ * (1 + std::max(0.08, labelHeadroom(plot_->yAxis->axisRect(), plot_->font(), lines))) : 1.0;
    QStringList shown;
    for (const QString& name : gpuNames_)
        shown << gpuLabel(name);
    const bool slanted = slantCrowdedNames(plot_->xAxis, shown); // at this width: six names ran together
    const bool yChanged = fitAxisLabel(plot_->yAxis, yLabels_);
    if (fitAxisLabel(plot_->xAxis, xLabels_) || yChanged)
        plot_->replot(QCustomPlot::rpQueuedReplot);
    if (slanted || std::abs(plot_->yAxis->range().upper - upper) > 1e-9 * upper || plot_->yAxis->range().lower != 0) {
        plot_->yAxis->setRange(0, upper);
        plot_->yAxis->axisRect()->update(QCPLayoutElement::upPreparation); // its ticks, for this draw
        plot_->replot(QCustomPlot::rpQueuedReplot);
    }
}

void BreakdownChart::showToolTip(QMouseEvent* event)
{
    const double x = plot_->xAxis->pixelToCoord(event->pos().x());
    const double y = plot_->yAxis->pixelToCoord(event->pos().y());
    const int g = int(std::lround(x)) - 1;
    if (g < 0 || g >= gpuNames_.size() || std::abs(x - (g + 1)) > 0.3) {
        QToolTip::hideText();
        return;
    }
    double base = 0;
    for (std::size_t c = 0; c < values_.size(); ++c) {
        const double v = values_[c][std::size_t(g)];
        if (y >= base && y < base + v) {
            const auto forecasts = session_->forecasts();
            const bool fits = std::size_t(g) >= forecasts->size() || (*forecasts)[std::size_t(g)].fits();
            QToolTip::showText(event->globalPosition().toPoint(),
                               QString("%1\n%2: %3%4")
                                   .arg(gpuNames_[g], rowLabel(c))
                                   .arg(normalized_->isChecked() ? QString("%1 %").arg(v, 0, 'f', 2) : formatMs(v, 2))
                                   .arg(fits ? QString() : tr("\nThe model does NOT fit in this GPU's memory (hatched)")),
                               plot_);
            return;
        }
        base += v;
    }
    QToolTip::hideText();
}

} // namespace gpuforecast::ui
