#pragma once
// The numbers on screen as CSV, for the people who finish a comparison in a spreadsheet. Charts
// export as images; these are the figures behind them, unformatted (milliseconds, fractions) so
// that a spreadsheet can compute with them.
#include "forecast_session.h"

#include <QAbstractItemModel>
#include <QString>

#include <string>

namespace gpuforecast::ui {

// One row per compared GPU, in the Compare chart's order: the scenario (model, batch, sequence,
// mode, parallel layout), the step time and its parts, the speed-up against `baselineGpu` (the
// first GPU when it is not compared), throughput, throughput per watt and per $1k where the sheet
// gives power and price, memory and whether it fits, whose GEMM efficiency a GPU beyond the
// measured ones borrows, its coverage (within, near_edge or beyond the measured GPUs, as the
// Compare chart says), the caution on that borrowing, if any, and the measured time of a run timed
// exactly as forecast (the chart's diamond), with whose run it is. Header only when nothing is compared.
std::string comparisonCsv(const ForecastSession& session, const QString& baselineGpu);

// The operator table as the user sees it (the view's filter and sort), with `gpuId` in every row.
// Numeric columns are written from OperatorTableModel::SortRole, the raw number, not the text.
std::string operatorTableCsv(const QAbstractItemModel& view, const QString& gpuId);

} // namespace gpuforecast::ui
