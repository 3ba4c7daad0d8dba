#pragma once
// One place for chart colours and fonts, so every chart tells operator classes apart the same way.
#include "gpuforecast/kernel.h"

#include <QColor>
#include <QString>

class QCustomPlot;

namespace gpuforecast::ui {

QColor classColor(OpClass c);
QString classLabel(OpClass c);
void applyChartStyle(QCustomPlot* plot); // fonts, grid and colours from the current palette

} // namespace gpuforecast::ui
