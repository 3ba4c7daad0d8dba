#pragma once
// The explorer's state: the GPU catalog (bundled + the user's), which GPUs are compared, the
// model and its settings, and the latest forecasts. Widgets read it and edit it only through
// these methods; every change recomputes (a whole model takes about a millisecond per GPU) and
// emits forecastsChanged(). No Qt in the engine, no engine details in the widgets.
#include "gpuforecast/forecaster.h"
#include "gpuforecast/measured_runs.h"
#include "gpuforecast/model_forecast.h"
#include "gpuforecast/scenario.h"
#include "user_gpu_store.h"

#include <QHash>
#include <QObject>
#include <QString>
#include <QStringList>

#include <memory>
#include <optional>
#include <vector>

namespace gpuforecast::ui {

using ForecastList = std::vector<ModelForecast>;

class ForecastSession : public QObject {
    Q_OBJECT
public:
    // Loads the bundled GPUs, models and weights from resourceDirectory(), then the user's GPUs
    // from `store` (a user file with a bundled id overrides the bundled sheet). Throws ForecastError.
    explicit ForecastSession(QObject* parent = nullptr, UserGpuStore store = UserGpuStore());
    QStringList loadProblems() const { return loadProblems_; } // user files that could not be read

    const std::vector<GpuSpec>& gpus() const { return gpus_; }
    const GpuSpec* gpu(const QString& id) const;
    int gpuIndex(const QString& id) const;
    QStringList bundledModels() const { return bundledModels_; }

    QStringList selectedGpus() const { return selected_; }
    void setSelectedGpus(const QStringList& ids);
    void setGpuSelected(const QString& id, bool on);

    // Replaces a GPU's spec (after validation); returns the error text instead of throwing.
    // An edited GPU becomes the user's: it is saved to the user's folder at once. The first edit
    // of a bundled sheet keeps the bundled sheet's learned efficiency (efficiency_basis), as a
    // what-if does; the user may clear it (read the sheet as a new GPU).
    std::optional<QString> updateGpu(const GpuSpec& spec);
    // User GPUs (new, duplicated, imported); `source` names the file in errors (an import's path).
    std::optional<QString> addGpu(const GpuSpec& spec, const QString& source = {});
    // The efficiency basis a copy of `id` should name: its own basis, else itself if bundled.
    QString efficiencyBasisForCopyOf(const QString& id) const;
    QStringList bundledGpuIds() const;
    const std::vector<GpuSpec>& bundledSheets() const { return bundled_; } // as shipped, never edited
    void removeGpu(const QString& id); // a user GPU; for an edited bundled GPU, back to the bundled sheet
    // Gives a GPU the user added a new id: its file moves with it (saved under the new name before
    // the old one goes), and the comparison, its place in it and its what-if follow. An architect's
    // sketch had stayed "My GPU" on every chart and in every export. Refused, with the reason, for a
    // bundled id (edited or not: its sheet is the shipped one's), an empty id, one with a slash (a
    // sheet file refuses it) or one already taken. renameRefusal says why without changing anything.
    std::optional<QString> renameGpu(const QString& from, const QString& to);
    std::optional<QString> renameRefusal(const QString& from, const QString& to) const;
    QString uniqueGpuId(const QString& base) const;
    QString userFolder() const { return store_.folder(); }
    bool isUserGpu(const QString& id) const;
    bool isEditedBundledGpu(const QString& id) const; // the user's sheet under a bundled id
    // What charts add to a GPU's name so changed numbers are not read as the bundled sheet's:
    // " (edited)" for the user's sheet under a bundled id, " (what-if)" while sliders scale it,
    // both, or nothing.
    QString gpuNameMark(const QString& id) const;
    // For a GPU whose numbers a what-if or an edit changed: its step time as the sheet stands
    // without them (the bundled sheet of an edited one, without sliders), so a chart can say what
    // the change gained. A what-if bar compared with itself read "1.00x vs H100-SXM5-80GB", and
    // the stock H100 was gone from the chart. Null for an unchanged GPU.
    std::optional<double> unchangedSeconds(const QString& id) const;

    const ModelConfig& model() const { return *model_; }
    QString modelName() const { return modelName_; }
    // The timed run of exactly what is forecast for `gpuId` now (bundled model, batch, sequence,
    // mode, fusion, layout), when the GPU is the bundled sheet unedited and without a what-if;
    // else null. NeuSight's runs and ours (resources/datasets/{neusight,h200}).
    const MeasuredRun* measuredRun(const QString& gpuId) const;
    // What a change does to settings that no longer suit it: a scenario's or a script's is refused
    // with the reason; the panel's picks adjust them (the sequence to a model's learned positions,
    // the layout to the nearest that fits, fitLayout) and say so through adjusted().
    enum class Fit { Refuse, Adjust };
    std::optional<QString> setModel(const QString& idOrPath, Fit fit = Fit::Refuse); // error text on failure
    const GraphOptions& options() const { return options_; }
    std::optional<QString> setOptions(const GraphOptions& options, Fit fit = Fit::Refuse);

    // How the model is split over one server's GPUs; one GPU by default. With more, each forecast
    // is the busiest GPU's whole step (ParallelForecast::step): its kernels plus communication and
    // pipeline bubble. A layout that does not suit the model, the settings or a compared GPU (no
    // link bandwidth) is refused with the reason, and the previous one kept.
    const ParallelLayout& layout() const { return layout_; }
    std::optional<QString> setLayout(const ParallelLayout& layout);

    // What-if multipliers on one GPU's spec (memory bandwidth, FP32 peak, SM count, L2), applied to
    // forecasts only: the spec sheet itself is untouched, so the sliders never overwrite an edit.
    struct WhatIf {
        double bandwidth = 1, fp32 = 1, sms = 1, l2 = 1;
        bool isIdentity() const { return bandwidth == 1 && fp32 == 1 && sms == 1 && l2 == 1; }
    };
    void setWhatIf(const QString& gpuId, const WhatIf& w);
    WhatIf whatIf(const QString& gpuId) const { return whatIf_.value(gpuId); }
    const QHash<QString, WhatIf>& whatIfs() const { return whatIf_; } // only the GPUs that have one
    GpuSpec effectiveGpu(const QString& gpuId) const; // the spec with its what-if applied

    // The whole state as a scenario file, and back. Applying validates everything first and
    // changes nothing on error. `notes` gets one line per sheet that joined under a new id
    // because a different sheet already had its own.
    Scenario toScenario() const;
    std::optional<QString> applyScenario(const Scenario& scenario, QStringList* notes = nullptr);

    // Index aligned with selectedGpus().
    std::shared_ptr<const ForecastList> forecasts() const { return forecasts_; }
    const Forecaster& forecaster() const { return *forecaster_; }

signals:
    void gpusChanged();          // the catalog changed (a spec edited, added, removed)
    // A GPU's id changed (renameGpu); sent after the forecasts under the new id and before
    // gpusChanged(), so a view showing `from` can follow it to `to` rather than find it gone.
    void gpuRenamed(const QString& from, const QString& to);
    void forecastsChanged();     // new forecasts are available
    void errorOccurred(const QString& message);
    void adjusted(const QString& message); // "Adjusted ...": what a Fit::Adjust change changed besides, and why

private:
    std::optional<QString> recompute(); // on error the previous forecasts stay (and the error is emitted)
    // `source` names the file (or scenario field) in errors; `name` is what the model goes by.
    std::optional<QString> installModel(const nlohmann::json& config, const QString& name, bool bundled,
                                        const QString& source, Fit fit = Fit::Refuse, QString* adjustment = nullptr);
    // The layout fitted to `model` and `options` (Fit::Adjust), with the words for adjusted(); none
    // when the current one fits.
    std::optional<QString> fitLayoutTo(const ModelConfig& model, const GraphOptions& options, ParallelLayout& layout) const;

    std::optional<QString> persist(const GpuSpec& spec);
    // The spec with its efficiency_basis looked up among the bundled sheets, or the error text
    // ("<source>: efficiency_basis: ..."; the source defaults to the GPU's id).
    std::optional<QString> resolveBasis(GpuSpec& spec, const QString& source = {}) const;

    UserGpuStore store_;
    QStringList loadProblems_;
    std::vector<GpuSpec> gpus_;
    std::vector<GpuSpec> bundled_;
    QHash<QString, WhatIf> whatIf_; // as shipped: deleting the user's edit of one restores it
    QHash<QString, double> unchangedSeconds_; // unchangedSeconds(), made with the forecasts
    QStringList userGpuIds_;
    QStringList selected_;
    QStringList bundledModels_;
    std::shared_ptr<const ModelConfig> model_;
    QString modelName_;
    nlohmann::json modelJson_; // the loaded config.json, embedded in scenarios of non-bundled models
    nlohmann::json scenarioExtras_; // keys of the opened scenario that no field reads, saved back as they were
    bool modelBundled_ = true;
    GraphOptions options_{4, 1024, false, false};
    ParallelLayout layout_;
    std::shared_ptr<const Forecaster> forecaster_;
    std::vector<MeasuredRun> measuredRuns_;
    std::shared_ptr<const ForecastList> forecasts_ = std::make_shared<ForecastList>();
};

} // namespace gpuforecast::ui
