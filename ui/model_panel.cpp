#include "model_panel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSpinBox>

namespace gpuforecast::ui {

ModelPanel::ModelPanel(ForecastSession* session, QWidget* parent)
    : QWidget(parent), session_(session), model_(new QComboBox(this)), batch_(new QSpinBox(this)),
      seq_(new QSpinBox(this)), mode_(new QComboBox(this)), fusion_(new QCheckBox(tr("Fuse element-wise chains"), this))
{
    model_->addItems(session_->bundledModels());
    batch_->setRange(1, 65536);
    seq_->setRange(1, 1 << 20);
    mode_->addItems({tr("Inference"), tr("Training step")});
    auto* open = new QPushButton(tr("Open config.json…"), this);
    auto* form = new QFormLayout(this);
    form->addRow(tr("Model"), model_);
    form->addRow(QString(), open);
    form->addRow(tr("Batch"), batch_);
    form->addRow(tr("Sequence length"), seq_);
    form->addRow(tr("Mode"), mode_);
    form->addRow(QString(), fusion_);
    syncFromSession();

    connect(model_, &QComboBox::currentTextChanged, this, [this](const QString& id) {
        if (id != session_->modelName() && session_->setModel(id))
            syncFromSession(); // refused: show what is really loaded
    });
    connect(open, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Open a Hugging Face config.json"), {},
                                                          tr("Model configs (*.json)"));
        if (!path.isEmpty())
            openConfig(path);
    });
    for (QSpinBox* s : {batch_, seq_})
        connect(s, &QSpinBox::editingFinished, this, &ModelPanel::applyOptions);
    connect(mode_, &QComboBox::currentIndexChanged, this, &ModelPanel::applyOptions);
    connect(fusion_, &QCheckBox::toggled, this, &ModelPanel::applyOptions);
}

void ModelPanel::openConfig(const QString& path)
{
    if (!session_->setModel(path)) {
        const QSignalBlocker block(model_);
        if (model_->findText(session_->modelName()) < 0)
            model_->addItem(session_->modelName());
        model_->setCurrentText(session_->modelName());
    }
}

void ModelPanel::applyOptions()
{
    GraphOptions o;
    o.batch = batch_->value();
    o.seq = seq_->value();
    o.training = mode_->currentIndex() == 1;
    o.fusion = fusion_->isChecked();
    if (session_->setOptions(o))
        syncFromSession(); // refused (e.g. sequence longer than the model allows): restore
}

void ModelPanel::syncFromSession()
{
    const QSignalBlocker b1(model_), b2(batch_), b3(seq_), b4(mode_), b5(fusion_);
    model_->setCurrentText(session_->modelName());
    batch_->setValue(int(session_->options().batch));
    seq_->setValue(int(session_->options().seq));
    mode_->setCurrentIndex(session_->options().training ? 1 : 0);
    fusion_->setChecked(session_->options().fusion);
}

} // namespace gpuforecast::ui
