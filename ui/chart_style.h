#pragma once
// One place for chart colours and fonts, so every chart tells operator classes apart the same way.
#include "quantity_format.h"

#include "gpuforecast/kernel.h"

#include <QColor>
#include <QPen>
#include <QString>
#include <QStringList>

#include <cstddef>
#include <optional>
#include <vector>

class QCPAxis;
class QCPAxisRect;
class QCPGraph;
class QCPItemText;
class QCustomPlot;
class QFont;

namespace gpuforecast::ui {

QColor classColor(OpClass c);
QString classLabel(OpClass c);
// The i-th compared GPU's colour, the same on every chart that draws one line per GPU. The first
// follows the palette's text colour so it stays visible in a dark theme.
QColor gpuColor(std::size_t index);
// The i-th GPU's line: its colour, solid for the first twelve, then dashed, dotted and dash-dotted
// as the colours come round again (twenty GPUs drew A10 and MI210 as one black line).
QPen gpuPen(std::size_t index, double width);
// The i-th GPU's marker (wave-count points, roofline rings): a circle for the first twelve, then a
// square, a diamond and a triangle, as the colours come round again. Markers have no dash to
// tell GPUs 0 and 12 apart.
int gpuMarkerShape(std::size_t index); // a QCPScatterStyle::ScatterShape
// A GPU's name as an axis or legend shows it: whole up to 28 characters, longer ones cut in the
// middle ("Hypothetical-Nex…-Name-2027"), so that one long id does not take half the chart's
// height; hover texts give it whole.
QString shortGpuName(const QString& id);
void applyChartStyle(QCustomPlot* plot);
// A value axis whose data are milliseconds, ticked in `unit` (latencyUnitFor the tallest value).
// On a log scale the ticks are the unit's powers of ten, not the milliseconds' (an axis in hours
// had read 2777.78, 27.7778, 0.277778 h).
void setLatencyTicker(QCPAxis* axis, const LatencyUnit& unit, bool logScale = false);
// A log axis ticked at powers of ten, each label in one notation: where the labels shown would
// outgrow five digits or three decimals, all of them as powers ("10⁸, 10⁶, 10⁴, 10², 10⁰" had
// read "10⁸, 10⁶, 10000, 100, 1"). For the roofline's axes.
void setPowersOfTenTicker(QCPAxis* axis);
// A log axis's tick label for `value` (in the axis's unit): as a power of ten where `powers` (the
// axis painter draws "1e+06" as 10⁶ and "2e+05" as 2·10⁵; three figures at most), else as digits.
QString logTickLabel(double value, bool powers);
// Whether a log axis over [lowest, highest] (in its unit) labels its ticks as powers.
bool logTicksNeedPowers(double lowest, double highest);
// The share of a value axis's data range to add above its tallest bar so that `lines` lines of
// text in `font` fit over it, in the axis rect's current pixel height: a fixed share of the
// range clipped the top line in a short window. Where the rect is too short, at most 4x the range.
double labelHeadroom(const QCPAxisRect* rect, const QFont& font, double lines);
// The longest of `forms` (given longest first) whose widest line fits `room` pixels in `font`; the
// last form when none does.
QString longestFitting(const QStringList& forms, const QFont& font, double room);
// Titles `axis` with the longest of `forms` that fits along its axis rect (its width, or its height
// for a vertical axis): at 1024 x 640 the Waves panels' titles ran into each other and Breakdown's
// lost its closing bracket. Call after a layout (ChartWidget::fitToLayout); returns whether the
// title changed. A one-line title's length never changes the layout, so no replot is needed.
bool fitAxisLabel(QCPAxis* axis, const QStringList& forms);
// The same for a text item given `room` pixels (a note on the plot); returns whether it changed.
bool fitItemText(QCPItemText* item, const QStringList& forms, double room);
// Slants the names under bars at keys 1, 2, ... when the longest would run into its neighbour's.
// Keeps room on the left for the first slanted name. Returns whether the slant or that room changed
// (a change needs a replot).
bool slantCrowdedNames(QCPAxis* keyAxis, const QStringList& names);
// Renames each graph whose points equal an earlier one's "<name> (same as <earlier>)": identical
// forecasts (a GPU and its unedited copy) draw exactly on top of each other, and the legend
// otherwise names a line nobody can see.
// Each renamed graph keeps its own name in the property kTwinOwnName, for a shorter legend form.
void nameHiddenTwins(const std::vector<QCPGraph*>& graphs);
inline constexpr const char* kTwinOwnName = "twinOwnName";
// Dashes each graph whose points lie within 1% of an earlier one's at the same keys, so the earlier
// line shows through its gaps: an H200 and an H100 run a compute-bound GEMM alike, and the H100's
// utilization and staircase vanished under the H200's. Over several such lines the gaps widen, so
// that each line below keeps a share. Returns how many it dashed.
int dashLinesOverOthers(const std::vector<QCPGraph*>& graphs);
// Cross-hatches the bar at `key` (`width` wide, from `bottom` to `top`) of a GPU the model does
// not fit, under a dashed outline: a glance at the fastest bar must not pick a GPU that cannot run
// the step. Named "doesNotFit" for tests. The hatching stops at `hatchedTop` where that is lower
// (Breakdown's pipeline bubble, whose own hatching under the cross read as more "does not fit");
// the outline takes the whole bar.
void hatchDoesNotFit(QCustomPlot* plot, double key, double width, double top, double bottom,
                     std::optional<double> hatchedTop = std::nullopt);
// The legend's key to that mark, "Does not fit in memory" (an empty plottable, "doesNotFitKey").
void addDoesNotFitLegendEntry(QCustomPlot* plot);

} // namespace gpuforecast::ui
