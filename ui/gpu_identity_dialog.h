#pragma once
// The words of a GPU's sheet: its id (what the list, the charts and the exports call it, and its
// file's name), its marketing name, vendor and architecture. The numbers are edited in the spec
// table; these are not numbers, and an architect's sketch had stayed "My GPU" with the
// architecture of whatever sheet it was started from. The architecture decides the GEMM tile
// family and, on 128-lane SMs, the FP32 issue share, so the dialog says what the typed one gives.
#include <QDialog>
#include <QString>

#include <optional>

class QComboBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QUndoStack;

namespace gpuforecast {
struct GpuSpec;
class TileDatabase;
}

namespace gpuforecast::ui {

class ForecastSession;

struct GpuIdentity {
    QString id, name, vendor, architecture;
    bool operator==(const GpuIdentity&) const = default;
};
GpuIdentity identityOf(const GpuSpec& spec);

// What the forecast makes of a sheet's vendor and architecture, for people: whose attention GEMM
// tiles it takes, and whether its FP32 GEMMs are priced at the issue share of 128-lane SMs.
QString architectureEffect(const GpuSpec& spec, const TileDatabase& tiles);

// Applies `to` to GPU `id` as one undoable step (a rename and the words together); the reason
// instead when the session refuses it, and nothing is pushed then.
std::optional<QString> applyGpuIdentity(ForecastSession* session, QUndoStack* undo, const QString& id, const GpuIdentity& to);

class GpuIdentityDialog : public QDialog {
    Q_OBJECT
public:
    GpuIdentityDialog(const ForecastSession* session, const QString& gpuId, QWidget* parent = nullptr);
    GpuIdentity identity() const;

private:
    void refresh(); // the id's refusal and the architecture's effect, as typed

    const ForecastSession* session_;
    QString gpuId_;
    QLineEdit* id_;
    QLineEdit* name_;
    QComboBox* vendor_;
    QComboBox* architecture_;
    QLabel* idProblem_;
    QLabel* effect_;
    QDialogButtonBox* buttons_;
};

} // namespace gpuforecast::ui
