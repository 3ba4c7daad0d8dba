#include "chart_widget.h"

#include "chart_style.h"

#include <algorithm>

#include <qcustomplot.h>

#include <QApplication>
#include <QPalette>
#include <QToolTip>
#include <QVBoxLayout>

namespace gpuforecast::ui {

ChartWidget::ChartWidget(ForecastSession* session, QWidget* parent)
    : QWidget(parent), session_(session), plot_(new QCustomPlot(this)), layout_(new QVBoxLayout(this))
{
    layout_->setContentsMargins(0, 0, 0, 0);
    layout_->addWidget(plot_, 1);
    connect(plot_, &QCustomPlot::afterLayout, this, [this] {
        // Not while hidden: a hidden plot lays out at 100 px high, where the legend wrapped into
        // nine columns whose width became the chart's minimum, and the window grew to hold it.
        if (!plot_->isVisible())
            return fitToLayout();
        fitLegendToHeight();
        fitLegendToWidth();
        fitToLayout();
    });
}

void ChartWidget::followSession()
{
    following_ = true;
    connect(session_, &ForecastSession::forecastsChanged, this, [this] { rebuild(); });
    rebuild();
}

void ChartWidget::setSelectedOperator(const QString& opName, int opIndex)
{
    if (opName == selectedOperator_ && opIndex == selectedIndex_)
        return;
    selectedOperator_ = opName;
    selectedIndex_ = opIndex;
    if (following_)
        rebuild();
}

const OpForecast* ChartWidget::selectedOp(const ModelForecast& forecast) const
{
    if (selectedOperator_.isEmpty())
        return nullptr;
    const auto named = [this](const OpForecast& o) { return QString::fromStdString(o.op.node) == selectedOperator_; };
    if (selectedIndex_ >= 0 && std::size_t(selectedIndex_) < forecast.ops.size() && named(forecast.ops[std::size_t(selectedIndex_)]))
        return &forecast.ops[std::size_t(selectedIndex_)];
    const auto first = std::find_if(forecast.ops.begin(), forecast.ops.end(), named);
    return first == forecast.ops.end() ? nullptr : &*first;
}

void ChartWidget::showEvent(QShowEvent* event)
{
    // The layouts made while hidden left the legend unfitted (the constructor's afterLayout hook):
    // fit it to the size the chart is shown at.
    plot_->replot(QCustomPlot::rpQueuedReplot);
    QWidget::showEvent(event);
}

void ChartWidget::changeEvent(QEvent* event)
{
    if (following_ && event->type() == QEvent::PaletteChange)
        rebuild();
    QWidget::changeEvent(event);
}

QString ChartWidget::toolTipAt(const QPointF&) const { return {}; }

void ChartWidget::enableToolTips()
{
    connect(plot_, &QCustomPlot::mouseMove, this, [this](QMouseEvent* event) {
        const QString text = toolTipAt(event->position());
        if (text.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(event->globalPosition().toPoint(), text, plot_);
    });
}

void ChartWidget::placeLegendBeside()
{
    auto* grid = plot_->plotLayout();
    legendBeside_ = true;
    plot_->legend->setVisible(true);
    plot_->legend->layout()->take(plot_->legend);
    auto* side = new QCPLayoutGrid;
    grid->addElement(0, grid->columnCount(), side);
    side->addElement(0, 0, plot_->legend);
    side->addElement(1, 0, new QCPLayoutElement(plot_)); // pushes the legend to the top
    side->setRowStretchFactors({0.01, 1});
    side->setMargins(QMargins(4, 8, 8, 8)); // the legend's frame clear of the widget's edge
    grid->setColumnStretchFactor(grid->columnCount() - 1, 0.01); // as wide as the legend, no wider
    // The legend's height must not become the tab's size hint: the window's splitter sizes itself
    // from the tabs' hints, so a long legend would reshape the default window. 0 = from content.
    side->setMinimumSize(0, 1);
}

ChartWidget::GraphPoint ChartWidget::graphPointAt(const QPointF& pixel) const
{
    constexpr double kReachPx = 8; // about a marker's radius plus a steady hand
    GraphPoint best;
    double bestDistance = kReachPx * kReachPx;
    for (int g = 0; g < plot_->graphCount(); ++g) {
        const QCPGraph* graph = plot_->graph(g);
        if (!graph->visible())
            continue;
        for (auto it = graph->data()->constBegin(); it != graph->data()->constEnd(); ++it) {
            const QPointF d = graph->coordsToPixels(it->key, it->value) - pixel;
            const double distance = d.x() * d.x() + d.y() * d.y();
            if (distance <= bestDistance) { // later graphs are drawn on top, so they win ties
                bestDistance = distance;
                best = {graph, int(it - graph->data()->constBegin()), it->key, it->value};
            }
        }
    }
    return best;
}

int ChartWidget::barAt(const QCPBars* bars, const QPointF& pixel)
{
    // QCPBars knows its bars' rectangles, groups and orientation included.
    QVariant details;
    if (bars->selectTest(pixel, false, &details) < 0)
        return -1;
    const auto hit = details.value<QCPDataSelection>();
    return hit.isEmpty() ? -1 : hit.dataRange().begin();
}

bool ChartWidget::sayWhenNoGpuIsTicked(const QString& purpose)
{
    const bool none = session_->forecasts()->empty();
    plot_->legend->setVisible(legendBeside_ && !none);
    if (!none)
        return false;
    auto* hint = new QCPItemText(plot_);
    hint->setObjectName("emptyHint");
    hint->setClipToAxisRect(false);
    hint->position->setType(QCPItemPosition::ptViewportRatio); // the middle of the chart, however many panels
    hint->position->setCoords(0.5, 0.45);
    hint->setText(tr("No GPU ticked: tick one or more GPUs in the list to %1").arg(purpose));
    hint->setColor(plot_->xAxis->tickLabelColor());
    hint->setBrush(QApplication::palette().color(QPalette::Base)); // the chart's background (applyChartStyle):
                                                                     // over two panels' axes (Waves) it stays readable
    hint->setPen(QPen(plot_->xAxis->grid()->pen().color()));
    hint->setPadding(QMargins(10, 6, 10, 6));
    hint->setLayer("legend"); // above the axes, which the default "main" layer lies under
    return true;
}

void ChartWidget::fitLegendToHeight()
{
    // A legend taller than the chart drew its entries over each other (twenty GPUs on Waves):
    // past the rows that fit it wraps into another column.
    QCPLegend* legend = plot_->legend;
    if (!legendBeside_ || !legend->visible() || legend->itemCount() == 0)
        return;
    // Before that its rows close up: a second column took half of a 1024 x 640 window's Roofline
    // for one entry ("Layer norm" alone), and the plot was left 150 px wide.
    if (!legend->property(kNormalRowSpacing).isValid())
        legend->setProperty(kNormalRowSpacing, legend->rowSpacing());
    const int normalSpacing = legend->property(kNormalRowSpacing).toInt();
    auto itemMargins = [](QCPLayoutElement* item, bool compact) {
        if (!item->property(kNormalMargins).isValid()) // as QCustomPlot made it
            item->setProperty(kNormalMargins, QVariant::fromValue(item->margins()));
        const auto normal = item->property(kNormalMargins).value<QMargins>();
        return compact ? QMargins(normal.left(), 0, normal.right(), 0) : normal;
    };
    QCPLayoutElement* first = legend->item(0);
    const int textHeight = first->minimumOuterSizeHint().height() - first->margins().top() - first->margins().bottom();
    const int room = plot_->viewport().height() - 16 - legend->margins().top() - legend->margins().bottom();
    auto rowsAt = [&](bool compact) {
        const QMargins m = itemMargins(first, compact);
        return std::max(1, room / std::max(1, textHeight + m.top() + m.bottom() + (compact ? 0 : normalSpacing)));
    };
    const auto cells = legend->elements(false); // a wrapped grid counts its empty cells as items
    const auto entries = std::count_if(cells.begin(), cells.end(), [](const QCPLayoutElement* e) { return e != nullptr; });
    const bool compact = entries > rowsAt(false);
    const int wrap = entries > rowsAt(compact) ? rowsAt(compact) : 0;
    bool changed = legend->rowSpacing() != (compact ? 0 : normalSpacing);
    legend->setRowSpacing(compact ? 0 : normalSpacing);
    for (QCPLayoutElement* cell : cells)
        if (cell && cell->margins() != itemMargins(cell, compact)) {
            cell->setMargins(itemMargins(cell, compact));
            changed = true;
        }
    if (legend->wrap() != wrap) {
        legend->setWrap(wrap);
        legend->setFillOrder(QCPLayoutGrid::foRowsFirst, true); // down each column, then the next
        changed = true;
    }
    if (changed)
        plot_->replot(QCustomPlot::rpQueuedReplot);
}

QString ChartWidget::gpuLabel(const QString& id) const { return shortGpuName(id) + session_->gpuNameMark(id); }

void ChartWidget::setShortLegendName(QCPAbstractPlottable* plottable, const QString& shortName)
{
    plottable->setProperty(kShortName, shortName);
}

void ChartWidget::fitLegendToWidth()
{
    // In a 1024-px window Waves' legend took half the chart ("wave boundaries (V100-PCIE-32GB)").
    // Where the full names would take more than a third of the width, entries that have a short
    // form use it. Judged from the full names' width, never the legend's current one, so the
    // choice cannot flip back and forth between replots.
    QCPLegend* legend = plot_->legend;
    if (!legendBeside_ || !legend->visible() || legend->itemCount() == 0)
        return;
    const QFontMetrics metrics(legend->font());
    int widest = 0, entries = 0;
    std::vector<QCPAbstractPlottable*> shortenable;
    for (int i = 0; i < legend->itemCount(); ++i) {
        auto* item = qobject_cast<QCPPlottableLegendItem*>(legend->item(i));
        if (!item)
            continue;
        ++entries;
        QCPAbstractPlottable* p = item->plottable();
        if (!p->property(kShortName).toString().isEmpty()) {
            if (!p->property(kFullName).isValid()) // the name given last, twins' "(same as ...)" included
                p->setProperty(kFullName, p->name());
            shortenable.push_back(p);
        }
        const QString full = p->property(kFullName).isValid() ? p->property(kFullName).toString() : p->name();
        widest = std::max(widest, item->margins().left() + legend->iconSize().width() + legend->iconTextPadding() +
                                      metrics.horizontalAdvance(full) + item->margins().right());
    }
    const int columns = legend->wrap() > 0 ? (entries + legend->wrap() - 1) / legend->wrap() : 1;
    const int full = columns * widest + (columns - 1) * legend->columnSpacing() + legend->margins().left() + legend->margins().right();
    const bool useShort = full > plot_->viewport().width() / 3;
    bool changed = false;
    for (QCPAbstractPlottable* p : shortenable) {
        const QString name = p->property(useShort ? kShortName : kFullName).toString();
        if (p->name() != name) {
            p->setName(name);
            changed = true;
        }
    }
    if (changed)
        plot_->replot(QCustomPlot::rpQueuedReplot);
}

} // namespace gpuforecast::ui
