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
        fitLegendPlacement();
        if (legendAbove_)
            fitLegendAcross();
        else
            fitLegendToHeight();
        fitToLayout();
    });
}

void ChartWidget::followSession()
{
    following_ = true;
    connect(session_, &ForecastSession::forecastsChanged, this, [this] { requestRebuild(); });
    rebuild();
}

void ChartWidget::requestRebuild()
{
    if (redrawOnlyWhenShown_ && !isVisible()) {
        outOfDate_ = true;
        return;
    }
    outOfDate_ = false;
    rebuild();
}

void ChartWidget::bringUpToDate()
{
    if (outOfDate_) {
        outOfDate_ = false;
        rebuild();
    }
}

void ChartWidget::setSelectedOperator(const QString& opName, int opIndex)
{
    if (opName == selectedOperator_ && opIndex == selectedIndex_)
        return;
    selectedOperator_ = opName;
    selectedIndex_ = opIndex;
    if (following_)
        requestRebuild();
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
    bringUpToDate();
    plot_->replot(QCustomPlot::rpQueuedReplot);
    QWidget::showEvent(event);
}

void ChartWidget::changeEvent(QEvent* event)
{
    if (following_ && event->type() == QEvent::PaletteChange)
        requestRebuild();
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
    auto* side = besideHolder_ = new QCPLayoutGrid;
    grid->addElement(0, grid->columnCount(), side);
    side->addElement(0, 0, plot_->legend);
    side->addElement(1, 0, new QCPLayoutElement(plot_)); // pushes the legend to the top
    side->setRowStretchFactors({0.01, 1});
    side->setMargins(kBesideMargins);
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
    if (none && legendAbove_) // an empty legend must not keep its row above the plots
        moveLegend(false);
    // Axes with no data drew a made-up range behind the hint (0-1 ms, 1-2 GFLOP/s): they hide,
    // and those this hid come back with the first GPU. Axes a chart hides itself stay hidden.
    static const char* kHiddenForNoGpu = "hiddenForNoGpu";
    for (QCPAxisRect* rect : plot_->axisRects())
        for (QCPAxis* axis : rect->axes()) {
            if (none && axis->visible()) {
                axis->setVisible(false);
                axis->grid()->setVisible(false);
                axis->setProperty(kHiddenForNoGpu, true);
            } else if (!none && axis->property(kHiddenForNoGpu).toBool()) {
                axis->setVisible(true);
                axis->grid()->setVisible(true);
                axis->setProperty(kHiddenForNoGpu, false);
            }
        }
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
    const auto cells = legend->elements(false); // a wrapped grid counts its empty cells as items
    const auto entries = std::count_if(cells.begin(), cells.end(), [](const QCPLayoutElement* e) { return e != nullptr; });
    const bool compact = entries > rowsBeside(false);
    const int wrap = entries > rowsBeside(compact) ? rowsBeside(compact) : 0;
    bool changed = closeUpLegendRows(compact);
    if (legend->wrap() != wrap) {
        legend->setWrap(wrap);
        legend->setFillOrder(QCPLayoutGrid::foRowsFirst, true); // down each column, then the next
        changed = true;
    }
    if (changed)
        plot_->replot(QCustomPlot::rpQueuedReplot);
}

QString ChartWidget::gpuLabel(const QString& id) const { return shortGpuName(id) + session_->gpuNameMark(id); }

QStringList ChartWidget::scenarioCaptions(const QString& outlined, const QString& outlinedShort) const
{
    const ParallelLayout& layout = session_->layout();
    const QString gpus = layout.gpus() == 1 ? QString()
                                            : tr(", busiest of %1 GPUs (TP %2, PP %3, DP %4%5)")
                                                  .arg(layout.gpus())
                                                  .arg(layout.tp)
                                                  .arg(layout.pp)
                                                  .arg(layout.dp)
                                                  .arg(layout.zero > 0 ? tr(", ZeRO %1").arg(layout.zero) : QString());
    const QString busiest = layout.gpus() == 1 ? QString() : tr(", busiest of %1 GPUs").arg(layout.gpus());
    const GraphOptions& o = session_->options();
    const QString model = session_->modelName();
    // Longest first: in a 1024-px window a parallel layout's caption lost its model name off the
    // left edge.
    // Fusion as the CLI's first line says it: an exported chart of a fused run looked like an
    // unfused one (a GUI review).
    const QString fused = o.fusion ? tr(", fused") : QString();
    const QString step = (o.training ? tr("training step") : tr("inference")) + fused +
                         (o.training && o.checkpointing ? tr(", checkpointed") : QString());
    const QString shortStep = (o.training ? tr("training") : tr("inference")) + fused;
    // A Hub config in bfloat16 ranks GPUs by a precision it does not run in: the chart says so
    // under its bars (and on an exported image), not only the model panel.
    const ModelConfig& config = session_->model();
    const QString precision = config.saysFp32() ? tr("FP32") : tr("FP32 (config: %1)").arg(QString::fromStdString(config.dtype));
    return {tr("%1, batch %2 x seq %3, %4, %5%6").arg(model).arg(o.batch).arg(o.seq).arg(step, precision, gpus) + outlined,
            tr("%1, batch %2 x seq %3, %4, %5%6").arg(model).arg(o.batch).arg(o.seq).arg(shortStep, precision, busiest) + outlinedShort,
            tr("%1, batch %2 x seq %3, %4, FP32%5").arg(model).arg(o.batch).arg(o.seq).arg(o.training ? tr("training") : tr("inference"), busiest) + outlinedShort,
            tr("%1, %2 x %3, %4%5").arg(model).arg(o.batch).arg(o.seq).arg(o.training ? tr("training") : tr("inference"), busiest) + outlinedShort,
            tr("%1, %2 x %3").arg(model).arg(o.batch).arg(o.seq) + outlinedShort,
            model + outlinedShort};
}

void ChartWidget::setShortLegendName(QCPAbstractPlottable* plottable, const QString& shortName)
{
    plottable->setProperty(kShortName, shortName);
}

void ChartWidget::nameHiddenTwinsShortly(const std::vector<QCPGraph*>& graphs, const QString& dropSuffix)
{
    nameHiddenTwins(graphs);
    // The full "(same as ...)" form held a laptop's legend column at twice its other entries' width.
    for (QCPGraph* g : graphs) {
        const QVariant own = g->property(kTwinOwnName);
        QString shortName = own.isValid() ? own.toString() : g->name();
        if (!dropSuffix.isEmpty() && shortName.endsWith(dropSuffix))
            shortName.chop(dropSuffix.size());
        if (own.isValid())
            setShortLegendName(g, tr("%1 (same)").arg(shortName));
        else if (!dropSuffix.isEmpty())
            setShortLegendName(g, shortName);
    }
}

int ChartWidget::rowHeight(bool compact) const
{
    const QCPLegend* legend = plot_->legend;
    QCPLayoutElement* first = nullptr;
    for (QCPLayoutElement* cell : legend->elements(false))
        first = first ? first : cell;
    if (!first)
        return 1;
    const QMargins normal = first->property(kNormalMargins).isValid() ? first->property(kNormalMargins).value<QMargins>() : first->margins();
    const int textHeight = first->minimumOuterSizeHint().height() - first->margins().top() - first->margins().bottom();
    const int spacing = legend->property(kNormalRowSpacing).isValid() ? legend->property(kNormalRowSpacing).toInt() : legend->rowSpacing();
    return std::max(1, textHeight + (compact ? 0 : normal.top() + normal.bottom() + spacing));
}

int ChartWidget::rowsBeside(bool compact) const
{
    const QCPLegend* legend = plot_->legend;
    const int room = plot_->viewport().height() - 16 - legend->margins().top() - legend->margins().bottom();
    return std::max(1, room / rowHeight(compact));
}

bool ChartWidget::closeUpLegendRows(bool compact)
{
    QCPLegend* legend = plot_->legend;
    if (!legend->property(kNormalRowSpacing).isValid())
        legend->setProperty(kNormalRowSpacing, legend->rowSpacing());
    const int spacing = compact ? 0 : legend->property(kNormalRowSpacing).toInt();
    bool changed = legend->rowSpacing() != spacing;
    legend->setRowSpacing(spacing);
    for (QCPLayoutElement* cell : legend->elements(false)) {
        if (!cell)
            continue;
        if (!cell->property(kNormalMargins).isValid()) // as QCustomPlot made it
            cell->setProperty(kNormalMargins, QVariant::fromValue(cell->margins()));
        const auto normal = cell->property(kNormalMargins).value<QMargins>();
        const QMargins wanted = compact ? QMargins(normal.left(), 0, normal.right(), 0) : normal;
        if (cell->margins() != wanted) {
            cell->setMargins(wanted);
            changed = true;
        }
    }
    return changed;
}

std::vector<int> ChartWidget::legendEntryWidths(Names names) const
{
    const QCPLegend* legend = plot_->legend;
    const QFontMetrics metrics(legend->font());
    std::vector<int> widths;
    for (int i = 0; i < legend->itemCount(); ++i) {
        auto* item = qobject_cast<QCPPlottableLegendItem*>(legend->item(i));
        if (!item)
            continue;
        const QCPAbstractPlottable* p = item->plottable();
        const QString shortName = p->property(kShortName).toString();
        const QString full = p->property(kFullName).isValid() ? p->property(kFullName).toString() : p->name();
        const QString& text = names == Names::Current ? p->name() : names == Names::Short && !shortName.isEmpty() ? shortName : full;
        widths.push_back(item->margins().left() + legend->iconSize().width() + legend->iconTextPadding() +
                         metrics.horizontalAdvance(text) + item->margins().right());
    }
    return widths;
}

void ChartWidget::fitLegendPlacement()
{
    // In a 1024-px window Waves' legend took half the chart ("wave boundaries (V100-PCIE-32GB)").
    // Where the full names would take more than a third of the width beside the plot, entries that
    // have a short form use it; where even the short ones would (ten GPUs: two columns, 60% of a
    // laptop's chart), the legend moves to rows above the plots, across the chart's whole width.
    // Judged from the names' widths and the chart's size, never the legend's current layout, so
    // neither choice can flip back and forth between replots.
    QCPLegend* legend = plot_->legend;
    if (!legendBeside_ || !legend->visible() || legend->itemCount() == 0)
        return;
    for (int i = 0; i < legend->itemCount(); ++i)
        if (auto* item = qobject_cast<QCPPlottableLegendItem*>(legend->item(i)))
            if (QCPAbstractPlottable* p = item->plottable();
                !p->property(kShortName).toString().isEmpty() && !p->property(kFullName).isValid())
                p->setProperty(kFullName, p->name()); // the name given last, twins' "(same as ...)" included
    const auto besideWidth = [&](bool shortNames) {
        const std::vector<int> widths = legendEntryWidths(shortNames ? Names::Short : Names::Full);
        const int entries = int(widths.size());
        const int rows = rowsBeside(entries > rowsBeside(false));
        const int columns = (entries + rows - 1) / std::max(1, rows);
        const int widest = widths.empty() ? 0 : *std::max_element(widths.begin(), widths.end());
        return columns * widest + (columns - 1) * legend->columnSpacing() + legend->margins().left() + legend->margins().right();
    };
    // Above only where beside takes more than a third even so, and above leaves the plots clearly
    // more room (a tenth, so that the usual place wins a near tie).
    const QRect chart = plot_->viewport();
    const bool shortBeside = besideWidth(false) > chart.width() / 3;
    const int besideTaken = besideWidth(shortBeside) + kBesideMargins.left() + kBesideMargins.right() + plot_->plotLayout()->columnSpacing();
    const double besideArea = double(std::max(0, chart.width() - besideTaken)) * chart.height();
    const auto rowsAcross = [&](bool shortNames) {
        const std::vector<int> widths = legendEntryWidths(shortNames ? Names::Short : Names::Full);
        const int columns = columnsAcross(widths);
        return (int(widths.size()) + columns - 1) / columns;
    };
    const int aboveHeight = rowsAcross(true) * rowHeight(true) + legend->margins().top() + legend->margins().bottom() +
                            plot_->plotLayout()->rowSpacing();
    // Nor where the rows would take over 40% of the height (every bundled GPU on a laptop's
    // Roofline: 243 of 330 px, and the chart grew taller than its room).
    const bool above = besideWidth(true) > chart.width() / 3 && aboveHeight <= 0.4 * chart.height() &&
                       double(chart.width()) * std::max(0, chart.height() - aboveHeight) > 1.1 * besideArea;
    // Above, the full names where they take no more rows ("T4 roof" says what the line is).
    const bool useShort = above ? rowsAcross(false) > rowsAcross(true) : shortBeside;
    bool changed = false;
    for (int i = 0; i < legend->itemCount(); ++i)
        if (auto* item = qobject_cast<QCPPlottableLegendItem*>(legend->item(i)))
            if (QCPAbstractPlottable* p = item->plottable(); !p->property(kShortName).toString().isEmpty()) {
                const QString name = p->property(useShort ? kShortName : kFullName).toString();
                if (p->name() != name) {
                    p->setName(name);
                    changed = true;
                }
            }
    if (above != legendAbove_) {
        moveLegend(above);
        changed = true;
    }
    if (changed)
        plot_->replot(QCustomPlot::rpQueuedReplot);
}

int ChartWidget::columnsAcross(const std::vector<int>& widths) const
{
    const QCPLegend* legend = plot_->legend;
    const int entries = int(widths.size());
    const int room = plot_->viewport().width() - legend->margins().left() - legend->margins().right() - 8;
    int columns = std::max(1, entries);
    for (; columns > 1; --columns) {
        std::vector<int> widest(std::size_t(columns), 0);
        for (int i = 0; i < entries; ++i)
            widest[std::size_t(i % columns)] = std::max(widest[std::size_t(i % columns)], widths[std::size_t(i)]);
        int total = (columns - 1) * legend->columnSpacing();
        for (int w : widest)
            total += w;
        if (total <= room)
            break;
    }
    return columns;
}

void ChartWidget::fitLegendAcross()
{
    // As many columns as fit the chart's width, filled along each row; each column as wide as its
    // widest entry, so one long name ("A100-SXM4-40GB (same as A100-PCIE-40GB)") widens one column.
    QCPLegend* legend = plot_->legend;
    if (!legend->visible() || legend->itemCount() == 0)
        return;
    const std::vector<int> widths = legendEntryWidths(Names::Current);
    const int columns = columnsAcross(widths); // as fitLegendPlacement chose them
    bool changed = closeUpLegendRows(true);
    if (legend->wrap() != columns || legend->fillOrder() != QCPLayoutGrid::foColumnsFirst) {
        legend->setWrap(columns);
        legend->setFillOrder(QCPLayoutGrid::foColumnsFirst, true); // along each row, then the next
        changed = true;
    }
    // Exactly its rows' height: with no minimum the row under its tiny stretch collapsed to 10 px
    // and the legend vanished. That height counts in the chart's minimum size, which
    // fitLegendPlacement's 40% rule keeps within the chart's room (every bundled GPU, above the
    // plots, had grown a laptop's chart past it).
    const int rows = (int(widths.size()) + columns - 1) / columns;
    const QSize minimum(1, rows * rowHeight(true) + legend->margins().top() + legend->margins().bottom());
    if (legend->minimumSize() != minimum) {
        legend->setMinimumSize(minimum);
        changed = true;
    }
    if (changed)
        plot_->replot(QCustomPlot::rpQueuedReplot);
}

void ChartWidget::moveLegend(bool above)
{
    if (above == legendAbove_)
        return;
    legendAbove_ = above;
    QCPLegend* legend = plot_->legend;
    QCPLayoutGrid* root = plot_->plotLayout();
    if (legend->layout())
        legend->layout()->take(legend);
    if (above) {
        // A row above everything, spanning every panel: the panels (Waves has two, with titles)
        // go into one grid of their own the first time, as QCPLayoutGrid cells do not span.
        if (root->rowCount() * root->columnCount() != 1 || !qobject_cast<QCPLayoutGrid*>(root->elementAt(0))) {
            struct Cell {
                int row, column;
                QCPLayoutElement* element;
            };
            std::vector<Cell> cells;
            for (int r = 0; r < root->rowCount(); ++r)
                for (int c = 0; c < root->columnCount(); ++c)
                    if (root->hasElement(r, c))
                        cells.push_back({r, c, root->element(r, c)});
            const QList<double> columnStretch = root->columnStretchFactors(), rowStretch = root->rowStretchFactors();
            for (const Cell& cell : cells)
                root->take(cell.element);
            root->simplify();
            auto* panels = new QCPLayoutGrid;
            root->addElement(0, 0, panels); // first, so that it has the plot before it adopts anything
            panels->setColumnSpacing(root->columnSpacing());
            panels->setRowSpacing(root->rowSpacing());
            for (const Cell& cell : cells)
                panels->addElement(cell.row, cell.column, cell.element);
            panels->setColumnStretchFactors(columnStretch);
            panels->setRowStretchFactors(rowStretch);
        }
        root->insertRow(0);
        root->addElement(0, 0, legend);
        root->setRowStretchFactors({0.001, 1}); // as tall as its rows, no taller
        // Never the chart's minimum width: the columns follow the width. Its height: fitLegendAcross.
        legend->setMinimumSize(1, 1);
        besideHolder_->setMargins(QMargins());
    } else {
        root->simplify(); // the legend's empty row
        legend->setMinimumSize(0, 0);
        legend->setWrap(0);
        legend->setFillOrder(QCPLayoutGrid::foRowsFirst, true);
        besideHolder_->addElement(0, 0, legend);
        besideHolder_->setMargins(kBesideMargins);
    }
}

} // namespace gpuforecast::ui
