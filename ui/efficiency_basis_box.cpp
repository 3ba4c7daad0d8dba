#include "efficiency_basis_box.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QUndoCommand>
#include <QUndoStack>

namespace gpuforecast::ui {
namespace {

// Sets one GPU's efficiency basis through the session; undo restores the previous one.
class SetEfficiencyBasisCommand : public QUndoCommand {
public:
    SetEfficiencyBasisCommand(ForecastSession* s, QString gpu, QString before, QString after)
        : session_(s), gpu_(std::move(gpu)), before_(std::move(before)), after_(std::move(after))
    {
        setText(QObject::tr("%1 learned efficiency of %2").arg(gpu_, after_.isEmpty() ? QObject::tr("its own numbers") : after_));
    }
    void redo() override { apply(after_); }
    void undo() override { apply(before_); }

private:
    void apply(const QString& basis)
    {
        const GpuSpec* g = session_->gpu(gpu_);
        if (!g)
            return; // deleted since
        GpuSpec copy = *g;
        copy.efficiencyBasisId = basis.toStdString();
        session_->updateGpu(copy);
    }
    ForecastSession* session_;
    QString gpu_, before_, after_;
};

} // namespace

EfficiencyBasisBox::EfficiencyBasisBox(ForecastSession* session, QUndoStack* undo, QWidget* parent)
    : QWidget(parent), session_(session), undo_(undo), combo_(new QComboBox(this))
{
    auto* label = new QLabel(tr("Learned efficiency of:"), this);
    label->setBuddy(combo_);
    combo_->setObjectName("efficiencyBasis");
    combo_->setToolTip(tr("Whose efficiency the networks read for this sheet. A sheet copied or edited from a bundled "
                          "GPU keeps that GPU's, so your numbers change only the roofline, tiles and waves. "
                          "\"This sheet's own numbers\" reads it as a new GPU: the networks place it by its per-SM "
                          "ratios, and far from the measured GPUs that can move a forecast a lot."));
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(label);
    layout->addWidget(combo_, 1);
    connect(combo_, &QComboBox::activated, this, &EfficiencyBasisBox::choose);
    connect(session_, &ForecastSession::gpusChanged, this, &EfficiencyBasisBox::refresh);
}

void EfficiencyBasisBox::setGpu(const QString& id)
{
    gpuId_ = id;
    refresh();
}

void EfficiencyBasisBox::refresh()
{
    const QSignalBlocker block(combo_);
    combo_->clear();
    const GpuSpec* g = session_->gpu(gpuId_);
    setEnabled(g && session_->isUserGpu(gpuId_));
    if (!g)
        return;
    if (!session_->isUserGpu(gpuId_)) { // a bundled sheet is read as itself; editing it makes it yours
        // Without the id, which the sheet's title above gives: "H100-SXM5-80GB itself (bundled
        // sheet)" was cut to "...itself (bundled" in the column's width.
        combo_->addItem(tr("Its own (bundled sheet)"), QString());
        return;
    }
    combo_->addItem(tr("This sheet's own numbers"), QString());
    for (const QString& id : session_->bundledGpuIds())
        combo_->addItem(id, id);
    const int current = combo_->findData(QString::fromStdString(g->efficiencyBasisId));
    combo_->setCurrentIndex(std::max(0, current));
}

void EfficiencyBasisBox::choose(int index)
{
    const GpuSpec* g = session_->gpu(gpuId_);
    if (!g)
        return;
    const QString before = QString::fromStdString(g->efficiencyBasisId), after = combo_->itemData(index).toString();
    if (before != after)
        undo_->push(new SetEfficiencyBasisCommand(session_, gpuId_, before, after));
}

} // namespace gpuforecast::ui
