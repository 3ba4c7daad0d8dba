#include "gpu_identity_dialog.h"

#include "forecast_session.h"

#include "gpuforecast/extrapolation.h"
#include "gpuforecast/tiling.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QUndoCommand>
#include <QUndoStack>
#include <QVBoxLayout>

#include <algorithm>

namespace gpuforecast::ui {
namespace {

// One GPU's words, set through the session; undo sets the previous ones. A rename goes first on
// redo and last on undo, so every command below this one on the stack finds its GPU by the id it
// was made with.
class SetGpuIdentityCommand : public QUndoCommand {
public:
    SetGpuIdentityCommand(ForecastSession* s, GpuIdentity before, GpuIdentity after)
        : session_(s), before_(std::move(before)), after_(std::move(after))
    {
        setText(before_.id == after_.id ? QObject::tr("%1 name and architecture").arg(after_.id)
                                        : QObject::tr("Rename %1 to %2").arg(before_.id, after_.id));
    }
    void redo() override { apply(before_, after_); }
    void undo() override { apply(after_, before_); }

private:
    void apply(const GpuIdentity& from, const GpuIdentity& to)
    {
        if (from.id != to.id && session_->renameGpu(from.id, to.id))
            return; // refused (the session said why); the words stay with the GPU as it is
        const GpuSpec* g = session_->gpu(to.id);
        if (!g)
            return; // deleted since
        GpuSpec copy = *g;
        copy.name = to.name.toStdString();
        copy.vendor = to.vendor.toStdString();
        copy.architecture = to.architecture.toStdString();
        if (identityOf(copy) != identityOf(*g))
            session_->updateGpu(copy);
    }
    ForecastSession* session_;
    GpuIdentity before_, after_;
};

// The SM generations the tile rule knows, then the other vendors' names the bundled sheets use.
const QStringList kArchitectures{"Pascal", "Volta", "Turing", "Ampere", "Ada Lovelace", "Hopper", "Blackwell",
                                 "CDNA", "CDNA 2", "CDNA 3"};

} // namespace

GpuIdentity identityOf(const GpuSpec& spec)
{
    return {QString::fromStdString(spec.id), QString::fromStdString(spec.name), QString::fromStdString(spec.vendor),
            QString::fromStdString(spec.architecture)};
}

QString architectureEffect(const GpuSpec& spec, const TileDatabase& tiles)
{
    // Attention (bmm) tiles are looked up on the measured GPU referenceFor picks; say which, as
    // a forecast would take them.
    const QString reference = QString::fromStdString(tiles.referenceFor(spec));
    const std::string family = gemmKernelFamily(spec.architecture);
    const auto& measured = tiles.gpus();
    const auto ref = std::find_if(measured.begin(), measured.end(),
                                  [&](const ReferenceGpu& g) { return QString::fromStdString(g.id) == reference; });
    const bool sameFamily = ref != measured.end() && !family.empty() && gemmKernelFamily(ref->architecture) == family;
    QString effect;
    // Tiles that follow a borrowed efficiency are said as such where the family would not give them.
    const bool tilesOfDonor = tiles.efficiencyDonorForTiles(spec).has_value() && !sameFamily;
    const QString donorTiles = QObject::tr("Attention GEMMs take the tiles %1 runs: this GPU borrows %1's GEMM "
                                           "efficiency, which was learned on them.")
                                   .arg(reference);
    if (auto unknown = unknownArchitectureNote(spec)) {
        effect = QString::fromStdString(*unknown) + "."; // the CLI's note, which starts mid-sentence
        effect[0] = effect[0].toUpper();
        if (tilesOfDonor)
            effect += " " + donorTiles;
    }
    else if (tilesOfDonor)
        effect = donorTiles;
    else if (family.empty())
        effect = QObject::tr("No %1 generation is known to the tile rule: attention GEMMs take the tiles of %2, the "
                             "measured GPU nearest in per-SM rates, and the FP32 peak is priced as given.")
                     .arg(spec.vendor.empty() ? QObject::tr("such") : QString::fromStdString(spec.vendor), reference);
    else if (sameFamily)
        effect = QObject::tr("Attention GEMMs take the tiles %1 runs with cuBLAS's %2_sgemm kernels.")
                     .arg(reference, QString::fromStdString(family));
    else
        effect = QObject::tr("Attention GEMMs take the tiles of %1, the measured GPU nearest in per-SM rates: no other "
                             "measured GPU runs cuBLAS's %2_sgemm kernels.")
                     .arg(reference, QString::fromStdString(family));
    if (const double share = fp32GemmIssueShare(spec); share < 1)
        effect += QObject::tr(" FP32 GEMMs issue at %1% of the peak, as on every SM of 128 FP32 lanes (%2 here).")
                      .arg(share * 100, 0, 'f', 0)
                      .arg(spec.coresPerSm);
    return effect;
}

std::optional<QString> applyGpuIdentity(ForecastSession* session, QUndoStack* undo, const QString& id, const GpuIdentity& to)
{
    const GpuSpec* g = session->gpu(id);
    if (!g)
        return QObject::tr("unknown GPU '%1'").arg(id);
    const GpuIdentity before = identityOf(*g);
    if (before == to)
        return std::nullopt;
    if (to.id != id)
        if (auto refusal = session->renameRefusal(id, to.id))
            return refusal;
    undo->push(new SetGpuIdentityCommand(session, before, to));
    return std::nullopt;
}

GpuIdentityDialog::GpuIdentityDialog(const ForecastSession* session, const QString& gpuId, QWidget* parent)
    : QDialog(parent), session_(session), gpuId_(gpuId), id_(new QLineEdit(this)), name_(new QLineEdit(this)),
      vendor_(new QComboBox(this)), architecture_(new QComboBox(this)), idProblem_(new QLabel(this)),
      effect_(new QLabel(this)), buttons_(new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this))
{
    setWindowTitle(tr("Name and architecture of %1").arg(gpuId));
    const GpuSpec* g = session_->gpu(gpuId);
    const GpuIdentity now = g ? identityOf(*g) : GpuIdentity{gpuId, {}, {}, {}};
    id_->setObjectName("gpuId");
    id_->setText(now.id);
    const bool renamable = !session_->renameRefusal(gpuId, gpuId);
    id_->setReadOnly(!renamable);
    id_->setEnabled(renamable); // and looks it
    id_->setToolTip(renamable ? tr("What the GPU list, the charts and the exports call it; its sheet's file is named after it")
                              : tr("A bundled GPU keeps its id: duplicate it to give a copy a name of its own"));
    name_->setObjectName("gpuName");
    name_->setText(now.name);
    name_->setPlaceholderText(tr("as the id"));
    name_->setToolTip(tr("The marketing name, shown in the GPU list's tooltip"));
    vendor_->setObjectName("gpuVendor");
    vendor_->setEditable(true);
    vendor_->addItems({"NVIDIA", "AMD"});
    vendor_->setCurrentText(now.vendor);
    vendor_->setToolTip(tr("NVIDIA's SM generations pick the GEMM tile family and the FP32 issue share"));
    architecture_->setObjectName("gpuArchitecture");
    architecture_->setEditable(true);
    architecture_->addItems(kArchitectures);
    architecture_->setCurrentText(now.architecture);
    architecture_->setToolTip(tr("The SM generation. A new one the forecast does not know (\"Rubin\") is read best with "
                                 "the generation it descends from beside it (\"Rubin Blackwell\")."));
    for (QLabel* note : {idProblem_, effect_}) {
        note->setWordWrap(true);
        note->setTextInteractionFlags(Qt::TextSelectableByMouse);
    }
    idProblem_->setObjectName("idProblem");
    effect_->setObjectName("architectureEffect");

    auto* form = new QFormLayout;
    form->addRow(tr("&Id:"), id_);
    form->addRow(QString(), idProblem_);
    form->addRow(tr("&Name:"), name_);
    form->addRow(tr("&Vendor:"), vendor_);
    form->addRow(tr("&Architecture:"), architecture_);
    form->addRow(QString(), effect_);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(buttons_);
    connect(buttons_, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons_, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(id_, &QLineEdit::textChanged, this, &GpuIdentityDialog::refresh);
    // A new GPU's name is its id ("My GPU"); renamed, the name follows until it is typed itself.
    if (now.name == now.id) {
        connect(id_, &QLineEdit::textEdited, name_, &QLineEdit::setText);
        connect(name_, &QLineEdit::textEdited, id_, [this] { disconnect(id_, &QLineEdit::textEdited, name_, nullptr); });
    }
    connect(vendor_, &QComboBox::currentTextChanged, this, &GpuIdentityDialog::refresh);
    connect(architecture_, &QComboBox::currentTextChanged, this, &GpuIdentityDialog::refresh);
    setMinimumWidth(fontMetrics().averageCharWidth() * 70); // the effect's line wraps at a readable width
    if (!renamable)
        name_->setFocus();
    refresh();
}

GpuIdentity GpuIdentityDialog::identity() const
{
    const QString name = name_->text().trimmed();
    return {id_->text(), name.isEmpty() ? id_->text().trimmed() : name, vendor_->currentText().trimmed(),
            architecture_->currentText().trimmed()};
}

void GpuIdentityDialog::refresh()
{
    const GpuIdentity typed = identity();
    const auto refusal = typed.id == gpuId_ ? std::nullopt : session_->renameRefusal(gpuId_, typed.id);
    if (id_->isReadOnly()) {
        idProblem_->setText(id_->toolTip()); // why the field does not take typing, where it is seen
        idProblem_->setStyleSheet({});
    } else {
        idProblem_->setText(refusal.value_or(QString()));
        idProblem_->setStyleSheet("color: #d55e00"); // the charts' vermillion, as the spec table's warnings
    }
    idProblem_->setVisible(!idProblem_->text().isEmpty());
    buttons_->button(QDialogButtonBox::Ok)->setEnabled(!refusal);
    if (const GpuSpec* g = session_->gpu(gpuId_)) {
        GpuSpec sketch = *g;
        sketch.vendor = typed.vendor.toStdString();
        sketch.architecture = typed.architecture.toStdString();
        effect_->setText(architectureEffect(sketch, session_->forecaster().tiles()));
    }
    // The effect's lines come and go as the architecture is typed; a dialog that kept its first
    // height cut the longest one off.
    if (const int needed = layout()->hasHeightForWidth() ? layout()->totalHeightForWidth(width()) : sizeHint().height();
        needed > height())
        resize(width(), needed);
}

} // namespace gpuforecast::ui
