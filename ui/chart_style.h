#pragma once
// One place for chart colours and fonts, so every chart tells operator classes apart the same way.
#include "gpuforecast/kernel.h"

#include <QColor>
#include <QString>

#include <cstddef>

class QCustomPlot;

namespace gpuforecast::ui {

QColor classColor(OpClass c);
QString classLabel(OpClass c);
// The i-th compared GPU's colour, the same on every chart that draws one line per GPU. The first
// follows the palette's text colour so it stays visible in a dark theme.
QColor gpuColor(std::size_t index);
void applyChartStyle(QCustomPlot* plot); // fonts, grid and colours from the current palette

} // namespace gpuforecast::ui
