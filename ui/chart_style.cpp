#include "chart_style.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <iterator>

#include <qcustomplot.h>

#include <QApplication>
#include <QFontMetrics>
#include <QPalette>

namespace gpuforecast::ui {

QColor classColor(OpClass c)
{
    // Colour-blind-safe qualitative palette (Okabe-Ito).
    switch (c) {
    case OpClass::Bmm: return QColor(0, 114, 178);
    case OpClass::Linear: return QColor(86, 180, 233);
    case OpClass::Elementwise: return QColor(0, 158, 115);
    case OpClass::Softmax: return QColor(230, 159, 0);
    case OpClass::LayerNorm: return QColor(204, 121, 167);
    case OpClass::Other: return QColor(153, 153, 153);
    }
    return Qt::gray;
}

QString classLabel(OpClass c)
{
    switch (c) {
    case OpClass::Bmm: return QObject::tr("BMM (attention)");
    case OpClass::Linear: return QObject::tr("FC (linear)");
    case OpClass::Elementwise: return QObject::tr("Element-wise");
    case OpClass::Softmax: return QObject::tr("Softmax");
    case OpClass::LayerNorm: return QObject::tr("Layer norm");
    case OpClass::Other: return QObject::tr("Other (memory)");
    }
    return {};
}

QColor gpuColor(std::size_t index)
{
    // Okabe-Ito first, then Paul Tol's darker muted colours: a procurement comparison of eight to
    // twelve GPUs drew the seventh in the first one's colour. Past twelve the legend and the hover
    // text tell lines apart.
    static const QColor others[] = {QColor(213, 94, 0),   QColor(0, 114, 178),  QColor(204, 121, 167),
                                    QColor(0, 158, 115),  QColor(230, 159, 0),  QColor(86, 180, 233),
                                    QColor(136, 34, 85),  QColor(153, 153, 51), QColor(51, 34, 136),
                                    QColor(68, 170, 153), QColor(170, 68, 153)};
    constexpr std::size_t kColours = std::size(others) + 1;
    if (index % kColours == 0)
        return QApplication::palette().color(QPalette::Text);
    return others[index % kColours - 1];
}

int gpuMarkerShape(std::size_t index)
{
    static const QCPScatterStyle::ScatterShape shapes[] = {QCPScatterStyle::ssCircle, QCPScatterStyle::ssSquare,
                                                           QCPScatterStyle::ssDiamond, QCPScatterStyle::ssTriangle};
    constexpr std::size_t kColours = 12; // gpuColor's cycle
    return shapes[(index / kColours) % std::size(shapes)];
}

QPen gpuPen(std::size_t index, double width)
{
    static const Qt::PenStyle styles[] = {Qt::SolidLine, Qt::DashLine, Qt::DotLine, Qt::DashDotLine};
    constexpr std::size_t kColours = 12; // gpuColor's cycle
    return QPen(gpuColor(index), width, styles[(index / kColours) % std::size(styles)]);
}

QString shortGpuName(const QString& id)
{
    constexpr int kLongest = 28;
    if (id.size() <= kLongest)
        return id;
    int head = (kLongest - 1) / 2, tail = kLongest - 1 - head;
    // Counted in UTF-16 units: never cut a character made of two (an emoji) in half.
    if (id.at(head - 1).isHighSurrogate())
        --head;
    if (id.at(id.size() - tail).isLowSurrogate())
        --tail;
    return id.left(head) + QChar(0x2026) + id.right(tail);
}

namespace {

// A linear millisecond axis ticked and labelled in another unit.
class UnitTicker : public QCPAxisTicker {
public:
    explicit UnitTicker(double msPerUnit) : msPerUnit_(msPerUnit) {}

protected:
    QString getTickLabel(double tick, const QLocale& locale, QChar formatChar, int precision) override
    {
        return QCPAxisTicker::getTickLabel(tick / msPerUnit_, locale, formatChar, precision);
    }
    // Round steps in the unit, not in milliseconds: an hour is 3.6e6 ms, and ticks at round
    // milliseconds read 13.8889, 27.7778, ... h.
    double getTickStep(const QCPRange& range) override
    {
        return QCPAxisTicker::getTickStep(QCPRange(range.lower / msPerUnit_, range.upper / msPerUnit_)) * msPerUnit_;
    }

private:
    double msPerUnit_;
};

// Powers of ten of a unit on an axis of milliseconds (msPerUnit 1: the axis's own unit), labelled
// in one notation (logTickLabel).
class LogUnitTicker : public QCPAxisTickerLog {
public:
    explicit LogUnitTicker(double msPerUnit) : msPerUnit_(msPerUnit) {}

protected:
    // Under 1.6 decades QCPAxisTickerLog falls back to evenly spaced ticks at this step: it must
    // be the unit's, or a step of milliseconds over a range in seconds left no tick at all.
    double getTickStep(const QCPRange& range) override { return QCPAxisTickerLog::getTickStep(inUnit(range)); }
    QVector<double> createTickVector(double tickStep, const QCPRange& range) override
    {
        const QCPRange unitRange = inUnit(range);
        QVector<double> ticks = QCPAxisTickerLog::createTickVector(tickStep, unitRange);
        // From the ticks shown: the log ticker adds one past each end of the range, and a hidden
        // 10^5 had made every label of an axis up to 20000 a power.
        double lowest = 0, highest = 0;
        for (const double t : ticks)
            if (unitRange.contains(t)) {
                lowest = lowest > 0 ? std::min(lowest, t) : t;
                highest = std::max(highest, t);
            }
        powers_ = highest > 0 && logTicksNeedPowers(lowest, highest);
        for (double& t : ticks)
            t *= msPerUnit_;
        return ticks;
    }
    QString getTickLabel(double tick, const QLocale&, QChar, int) override { return logTickLabel(tick / msPerUnit_, powers_); }

private:
    QCPRange inUnit(const QCPRange& range) const { return QCPRange(range.lower / msPerUnit_, range.upper / msPerUnit_); }
    double msPerUnit_;
    bool powers_ = false;
};

} // namespace

bool logTicksNeedPowers(double lowest, double highest)
{
    return highest >= 1e5 || (lowest > 0 && lowest < 1e-3);
}

QString logTickLabel(double value, bool powers)
{
    if (!powers)
        return QString::number(value, 'g', 6);
    // Up to three figures, trailing zeros dropped: decades and their 2 and 5 read "1e+06" and
    // "2e+05", and the evenly spaced ticks of a range under 1.6 decades "1.5e+13" (not "2e+13"
    // twice). The painter lifts the exponent: 10⁶, 1.5·10¹³.
    QString text = QString::number(value, 'e', 2);
    const qsizetype e = text.indexOf('e');
    QString mantissa = text.left(e);
    while (mantissa.endsWith('0'))
        mantissa.chop(1);
    if (mantissa.endsWith('.'))
        mantissa.chop(1);
    return mantissa + text.mid(e);
}

void setPowersOfTenTicker(QCPAxis* axis)
{
    axis->setTicker(QSharedPointer<QCPAxisTicker>(new LogUnitTicker(1)));
}

void setLatencyTicker(QCPAxis* axis, const LatencyUnit& unit, bool logScale)
{
    if (logScale)
        axis->setTicker(QSharedPointer<QCPAxisTicker>(new LogUnitTicker(unit.ms)));
    else
        axis->setTicker(QSharedPointer<QCPAxisTicker>(new UnitTicker(unit.ms)));
}

void applyChartStyle(QCustomPlot* plot)
{
    const QPalette pal = QApplication::palette();
    plot->setBackground(pal.color(QPalette::Base));
    // Every axis rect and legend, not only the default ones: some charts have two panels.
    const auto styleLegend = [&pal](QCPLayoutElement* element) {
        if (auto* legend = qobject_cast<QCPLegend*>(element)) {
            legend->setBrush(pal.color(QPalette::Base));
            legend->setTextColor(pal.color(QPalette::Text));
            legend->setBorderPen(QPen(pal.color(QPalette::Mid)));
        }
    };
    for (QCPAxisRect* rect : plot->axisRects()) {
        for (QCPAxis* axis : rect->axes()) {
            axis->setBasePen(QPen(pal.color(QPalette::Text)));
            axis->setTickPen(QPen(pal.color(QPalette::Text)));
            axis->setSubTickPen(QPen(pal.color(QPalette::Text)));
            axis->setTickLabelColor(pal.color(QPalette::Text));
            axis->setLabelColor(pal.color(QPalette::Text));
            axis->grid()->setPen(QPen(pal.color(QPalette::Mid), 0, Qt::DotLine));
        }
    }
    // Every legend, in an axis rect's insets or placed in the layout beside or above the plots
    // (elements(true) reaches the insets too).
    for (QCPLayoutElement* element : plot->plotLayout()->elements(true))
        styleLegend(element);
    styleLegend(plot->legend); // and one between places
}

double labelHeadroom(const QCPAxisRect* rect, const QFont& font, double lines)
{
    // Before the first layout the rect has no height; assume a usual one until it does.
    const double height = rect && rect->height() > 50 ? rect->height() : 400.0;
    const double share = std::min(0.8, (lines * QFontMetrics(font).lineSpacing() + 6) / height);
    return share / (1 - share); // the text takes `share` of the axis once the range grows by this
}

QString longestFitting(const QStringList& forms, const QFont& font, double room)
{
    const QFontMetrics metrics(font);
    for (const QString& form : forms) {
        int widest = 0;
        for (const QString& line : form.split('\n'))
            widest = std::max(widest, metrics.horizontalAdvance(line));
        if (widest <= room)
            return form;
    }
    return forms.isEmpty() ? QString() : forms.back();
}

bool fitAxisLabel(QCPAxis* axis, const QStringList& forms)
{
    const QCPAxisRect* rect = axis->axisRect();
    const double room = axis->orientation() == Qt::Horizontal ? rect->width() : rect->height();
    const QString fitting = longestFitting(forms, axis->labelFont(), room);
    if (fitting == axis->label())
        return false;
    axis->setLabel(fitting);
    return true;
}

bool fitItemText(QCPItemText* item, const QStringList& forms, double room)
{
    const QString fitting = longestFitting(forms, item->font(), room);
    if (fitting == item->text())
        return false;
    item->setText(fitting);
    return true;
}

bool slantCrowdedNames(QCPAxis* keyAxis, const QStringList& names)
{
    const double slot = keyAxis->coordToPixel(2) - keyAxis->coordToPixel(1);
    int widest = 0;
    for (const QString& name : names)
        widest = std::max(widest, QFontMetrics(keyAxis->tickLabelFont()).horizontalAdvance(name));
    const double rotation = widest > 0.95 * slot ? -30 : 0;
    bool changed = false;
    if (keyAxis->tickLabelRotation() != rotation) {
        keyAxis->setTickLabelRotation(rotation);
        changed = true;
    }
    // A slanted name ends at its bar and reaches left of it; QCustomPlot drops a tick label that
    // would cross the widget's edge, so at 1024 px the first bar lost its name and the next name,
    // read from its start, seemed to be the first bar's. Keep room on the left for the first one.
    QCPAxisRect* rect = keyAxis->axisRect();
    int wanted = 0;
    if (rotation != 0) {
        const QFontMetrics metrics(keyAxis->tickLabelFont());
        const double angle = std::abs(rotation) * std::numbers::pi / 180;
        for (qsizetype i = 0; i < names.size(); ++i) { // a long second name can reach further left than the first
            const double reach = metrics.horizontalAdvance(names[i]) * std::cos(angle) + metrics.height() * std::sin(angle);
            const double tick = keyAxis->coordToPixel(double(i + 1)) - rect->left();
            wanted = std::max(wanted, int(std::ceil(reach - tick)) + 4);
        }
    }
    QMargins minimum = rect->minimumMargins();
    if (std::abs(minimum.left() - std::max(wanted, 0)) > 3) { // a few px either way: no replot loop
        minimum.setLeft(std::max(wanted, 0));
        rect->setMinimumMargins(minimum);
        changed = true;
    }
    return changed;
}

namespace {

// Whether a and b have the same keys and values within `relative` of each other (0: equal).
bool samePoints(const QCPGraph* a, const QCPGraph* b, double relative = 0)
{
    const auto& da = *a->data();
    const auto& db = *b->data();
    if (da.size() != db.size())
        return false;
    for (auto i = da.constBegin(), j = db.constBegin(); i != da.constEnd(); ++i, ++j)
        if (i->key != j->key || std::abs(i->value - j->value) > relative * std::max(std::abs(i->value), std::abs(j->value)))
            return false;
    return true;
}

} // namespace

void nameHiddenTwins(const std::vector<QCPGraph*>& graphs)
{
    for (std::size_t i = 1; i < graphs.size(); ++i)
        for (std::size_t j = 0; j < i; ++j)
            if (!graphs[i]->data()->isEmpty() && samePoints(graphs[i], graphs[j])) {
                graphs[i]->setProperty(kTwinOwnName, graphs[i]->name());
                graphs[i]->setName(QObject::tr("%1 (same as %2)").arg(graphs[i]->name(), graphs[j]->name()));
                break;
            }
}

int dashLinesOverOthers(const std::vector<QCPGraph*>& graphs)
{
    int dashed = 0;
    for (std::size_t i = 1; i < graphs.size(); ++i) {
        if (graphs[i]->data()->isEmpty())
            continue;
        qreal under = 0; // the lines already drawn where this one runs
        for (std::size_t j = 0; j < i; ++j)
            under += samePoints(graphs[i], graphs[j], 0.01) ? 1 : 0;
        if (under == 0)
            continue;
        // Dashes 3 pen widths long with gaps of 3 per line below: over one line, half of each
        // shows; over two, a third of each. The same {3, 3} for the second and the third line had
        // laid the third's dashes on the second's, which vanished while the legend named it.
        QPen pen = graphs[i]->pen();
        pen.setDashPattern({3, 3 * under});
        graphs[i]->setPen(pen);
        ++dashed;
    }
    return dashed;
}

namespace {

// Cross-hatched in the axes' ink under a dashed outline: unlike the pipeline bubble's grey single
// hatching and the communication's vermillion, which the first mark (white hatching, vermillion
// edge) resembled on a pipeline's bars.
QPen doesNotFitPen(const QCustomPlot* plot) { return QPen(plot->xAxis->labelColor(), 2, Qt::DashLine); }
QBrush doesNotFitBrush(const QCustomPlot* plot)
{
    QColor ink = plot->xAxis->labelColor();
    ink.setAlpha(120);
    return QBrush(ink, Qt::DiagCrossPattern);
}

} // namespace

void hatchDoesNotFit(QCustomPlot* plot, double key, double width, double top, double bottom, std::optional<double> hatchedTop)
{
    auto* outline = new QCPItemRect(plot);
    outline->setObjectName("doesNotFit");
    outline->topLeft->setCoords(key - width / 2, top);
    outline->bottomRight->setCoords(key + width / 2, bottom);
    outline->setPen(doesNotFitPen(plot));
    if (!hatchedTop || *hatchedTop >= top) {
        outline->setBrush(doesNotFitBrush(plot));
        return;
    }
    outline->setBrush(Qt::NoBrush);
    auto* hatch = new QCPItemRect(plot);
    hatch->setObjectName("doesNotFitHatching");
    hatch->topLeft->setCoords(key - width / 2, *hatchedTop);
    hatch->bottomRight->setCoords(key + width / 2, bottom);
    hatch->setPen(Qt::NoPen);
    hatch->setBrush(doesNotFitBrush(plot));
}

void addDoesNotFitLegendEntry(QCustomPlot* plot)
{
    auto* key = new QCPBars(plot->xAxis, plot->yAxis); // no data: a legend entry only
    key->setObjectName("doesNotFitKey");
    key->setName(QObject::tr("Does not fit in memory"));
    key->setPen(doesNotFitPen(plot));
    key->setBrush(doesNotFitBrush(plot));
}

} // namespace gpuforecast::ui
