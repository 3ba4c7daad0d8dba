#include "chart_widget.h"

#include <qcustomplot.h>

#include <QVBoxLayout>

namespace gpuforecast::ui {

ChartWidget::ChartWidget(ForecastSession* session, QWidget* parent)
    : QWidget(parent), session_(session), plot_(new QCustomPlot(this)), layout_(new QVBoxLayout(this))
{
    layout_->setContentsMargins(0, 0, 0, 0);
    layout_->addWidget(plot_, 1);
}

void ChartWidget::followSession()
{
    following_ = true;
    connect(session_, &ForecastSession::forecastsChanged, this, [this] { rebuild(); });
    rebuild();
}

void ChartWidget::changeEvent(QEvent* event)
{
    if (following_ && event->type() == QEvent::PaletteChange)
        rebuild();
    QWidget::changeEvent(event);
}

} // namespace gpuforecast::ui
