#include "what_if_panel.h"

#include "gpuforecast/catalog.h"
#include "gpuforecast/extrapolation.h"

#include <QGridLayout>
#include <QLabel>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSlider>

#include <cmath>

namespace gpuforecast::ui {

// Slider steps are quarter-octaves from x0.25 (-8) to x4 (+8): even steps on a ratio scale.
double WhatIfPanel::factorOf(int v) { return std::pow(2.0, v / 4.0); }
int WhatIfPanel::sliderOf(double f) { return int(std::lround(4 * std::log2(f))); }

WhatIfPanel::WhatIfPanel(ForecastSession* session, QWidget* parent) : QWidget(parent), session_(session)
{
    auto* grid = new QGridLayout(this);
    grid->setContentsMargins(0, 0, 0, 0);
    const char* names[] = {"Memory bandwidth", "FP32 peak", "SM count", "L2 cache"};
    for (int i = 0; i < 4; ++i) {
        sliders_[i] = new QSlider(Qt::Horizontal, this);
        sliders_[i]->setRange(-8, 8);
        sliders_[i]->setPageStep(4);
        // L2 enters one rule only, so a teacher moving it on GPT-2 saw nothing and no reason why.
        sliders_[i]->setToolTip(i == 3 ? tr("Scale from x0.25 to x4; the charts follow. L2 only decides whether a "
                                            "transposed operand is read again from DRAM (Switch's bias), so most "
                                            "models do not move: the learned efficiency reads no L2 size")
                                       : tr("Scale from x0.25 to x4; the charts follow"));
        labels_[i] = new QLabel("x1.00", this);
        labels_[i]->setMinimumWidth(45);
        grid->addWidget(new QLabel(tr(names[i]), this), i, 0);
        grid->addWidget(sliders_[i], i, 1);
        grid->addWidget(labels_[i], i, 2);
        connect(sliders_[i], &QSlider::valueChanged, this, &WhatIfPanel::apply);
    }
    auto* reset = new QPushButton(tr("Reset what-if"), this);
    grid->addWidget(reset, 4, 1);
    coverage_ = new QLabel(this);
    coverage_->setWordWrap(true);
    grid->addWidget(coverage_, 5, 0, 1, 3);
    connect(reset, &QPushButton::clicked, this, [this] {
        for (auto* s : sliders_) {
            const QSignalBlocker block(s);
            s->setValue(0);
        }
        apply();
    });
    // An edit of the sheet, or of its efficiency basis, changes what the line should say.
    connect(session_, &ForecastSession::gpusChanged, this, &WhatIfPanel::showCoverage);
}

void WhatIfPanel::setGpu(const QString& id)
{
    gpuId_ = id;
    const auto w = session_->whatIf(id);
    const double f[] = {w.bandwidth, w.fp32, w.sms, w.l2};
    for (int i = 0; i < 4; ++i) {
        const QSignalBlocker block(sliders_[i]);
        sliders_[i]->setValue(sliderOf(f[i]));
        labels_[i]->setText(QString("x%1").arg(f[i], 0, 'f', 2));
    }
    setEnabled(session_->gpu(id) != nullptr);
    showCoverage();
}

QString WhatIfPanel::coverageText() const { return coverage_->text(); }

void WhatIfPanel::showCoverage()
{
    if (!session_->gpu(gpuId_)) {
        coverage_->clear();
        coverage_->setToolTip({});
        return;
    }
    // A what-if variant is forecast with its sheet's learned efficiency (GpuSpec::efficiencyBasis),
    // so the sheet's coverage is what counts.
    const GpuSpec gpu = session_->effectiveGpu(gpuId_);
    const SpecCoverage coverage = session_->forecaster().coverage(gpu);
    QStringList beyond;
    for (const auto& e : coverage.outside)
        beyond << QString::fromStdString(e.text);
    QString text;
    if (const auto& donor = coverage.donor) {
        text = tr("Beyond the measured GPUs: %1.").arg(QString::fromStdString(describeDonor(*donor)));
        if (const GpuSpec* lender = session_->gpu(QString::fromStdString(donor->gpu.id)))
            if (const auto caution = slotPoweredDonorCaution(gpu, lender->efficiencySheet(), donor->weight))
                text += " " + QString::fromStdString(*caution) + ".";
    }
    else if (coverage.level == Coverage::NearEdge)
        text = tr("Near the edge of the measured GPUs: the networks extrapolate a little.");
    else
        text = tr("Within the range of the measured GPUs.");
    // A sheet of yours with no basis is a GPU the networks never saw, read from its per-SM rates
    // and memory: an A100 with twice everything came out slower than the A100 under this line alone.
    // The sheet, not its what-if variant: sliders keep the reading the sheet gets.
    // One that keeps a bundled sheet's name (an import of an edited file) is told which to name,
    // wherever it lies, as predict tells it.
    if (session_->isUserGpu(gpuId_)) {
        const GpuSpec& sheet = *session_->gpu(gpuId_);
        if (const GpuSpec* bundled = editedFromBundled(sheet, session_->bundledSheets()))
            text += " " + QString::fromStdString(editedWithoutBasisNote(sheet, *bundled)) + ".";
        else if (const auto asNew = readAsNewGpuNote(sheet, session_->forecaster().tiles().gpus()))
            text += " " + QString::fromStdString(*asNew) + ".";
    }
    if (const GpuSpec* own = session_->gpu(gpuId_); own && own->efficiencyBasis)
        text = tr("Read with %1's learned efficiency (your sheet's numbers set the roofline, tiles and waves). %2")
                   .arg(QString::fromStdString(own->efficiencyBasis->id), text);
    if (!session_->whatIf(gpuId_).isIdentity())
        text += tr(" The what-if keeps this learned efficiency and changes the roofline, tiles and waves.");
    // Read with its basis's efficiency, a sheet is "within" wherever the basis is, at 1 GB/s too.
    if (const auto stretch = basisStretch(gpu); !stretch.empty()) {
        text += tr(" %n of its per-SM ratios lie more than %1x from its basis's (hover for which): the forecast "
                   "extrapolates.", nullptr, int(stretch.size())).arg(kBasisStretchLimit);
        for (const auto& line : stretch)
            beyond << QString::fromStdString(line);
    }
    if (const auto unknown = unknownArchitectureNote(gpu)) {
        text += gpu.architecture.empty()
                    ? tr(" The sheet gives no architecture (hover for what that changes).")
                    : tr(" Its architecture names no SM generation the forecast knows (hover for what that changes).");
        beyond << QString::fromStdString(*unknown);
    }
    coverage_->setText(text);
    coverage_->setToolTip(beyond.join('\n'));
}

void WhatIfPanel::setFactor(int which, double factor) { sliders_[which]->setValue(sliderOf(factor)); }

void WhatIfPanel::apply()
{
    if (!session_->gpu(gpuId_))
        return;
    ForecastSession::WhatIf w;
    double* f[] = {&w.bandwidth, &w.fp32, &w.sms, &w.l2};
    for (int i = 0; i < 4; ++i) {
        *f[i] = factorOf(sliders_[i]->value());
        labels_[i]->setText(QString("x%1").arg(*f[i], 0, 'f', 2));
    }
    session_->setWhatIf(gpuId_, w);
    showCoverage();
}

} // namespace gpuforecast::ui
