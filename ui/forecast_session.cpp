#include "forecast_session.h"

#include "gpuforecast/catalog.h"
#include "gpuforecast/error.h"
#include "gpuforecast/extrapolation.h"
#include "gpuforecast/file_io.h"
#include "gpuforecast/json_fields.h"
#include "gpuforecast/model_config.h"

#include <QDir>
#include <QFileInfo>

#include <algorithm>
#include <map>
#include <cmath>

namespace gpuforecast::ui {
namespace {

// The engine's layoutProblem, in Qt's words.
std::optional<QString> layoutRefusal(const ModelConfig& model, const GraphOptions& options, const ParallelLayout& layout)
{
    if (const auto problem = gpuforecast::layoutProblem(model, options, layout))
        return QString::fromStdString(*problem);
    return std::nullopt;
}

} // namespace

ForecastSession::ForecastSession(QObject* parent, UserGpuStore store) : QObject(parent), store_(std::move(store))
{
    const QString dir = QString::fromStdString(resourceDirectory());
    gpus_ = loadGpuDirectory((dir + "/gpus").toStdString());
    bundled_ = gpus_;
    QStringList paths;
    std::vector<GpuSpec> stored = store_.load(&loadProblems_, &paths);
    for (std::size_t n = 0; n < stored.size(); ++n) {
        GpuSpec& g = stored[n];
        const QString id = QString::fromStdString(g.id);
        // A basis that is no longer bundled: the sheet is still the user's, read as a new GPU. The
        // file keeps the name until the sheet is next edited (then it is saved without it).
        if (auto problem = resolveBasis(g, paths[qsizetype(n)])) {
            loadProblems_ << *problem + tr(" (read as a new GPU; choose its basis again under the sheet)");
            g.efficiencyBasisId.clear();
        }
        if (const int i = gpuIndex(id); i >= 0)
            gpus_[std::size_t(i)] = g;
        else
            gpus_.push_back(g);
        userGpuIds_ << id;
    }
    forecaster_ = std::make_shared<const Forecaster>(Forecaster::loadFromDirectory((dir + "/weights").toStdString()));
    forecaster_->readHeldOutNetworks(); // here, where an error is shown at start, not in a chart's paint
    std::vector<std::string> problems; // without them the forecasts stand alone
    measuredRuns_ = loadShippedMeasuredRuns(dir.toStdString(), &problems);
    for (const auto& p : problems)
        loadProblems_ << QString::fromStdString(p);
    for (const QFileInfo& f : QDir(dir + "/models").entryInfoList({"*.json"}, QDir::Files, QDir::Name))
        bundledModels_ << f.completeBaseName();
    // The newcomer's default: a model everybody knows on four generations of GPUs.
    if (auto error = setModel("gpt2_large"))
        throw ForecastError(error->toStdString());
    for (const char* id : {"V100-PCIE-32GB", "A100-PCIE-80GB", "H100-SXM5-80GB", "L4"})
        if (gpu(id))
            selected_ << id;
    recompute();
}

void ForecastSession::setWhatIf(const QString& gpuId, const WhatIf& w)
{
    if (w.isIdentity())
        whatIf_.remove(gpuId);
    else
        whatIf_.insert(gpuId, w);
    recompute();
}

GpuSpec ForecastSession::effectiveGpu(const QString& gpuId) const
{
    GpuSpec g = *gpu(gpuId);
    const WhatIf w = whatIf_.value(gpuId);
    if (w.isIdentity())
        return g;
    if (!g.efficiencyBasis) // a sheet that names a basis keeps it: the variant is that chip's too
        g.efficiencyBasis = std::make_shared<const GpuSpec>(g); // same chip, other resources: keep its efficiency
    const double sms = std::max(1.0, std::round(g.smCount * w.sms));
    const double peakScale = w.fp32 * sms / g.smCount; // more SMs of the same kind add peak too
    g.fp32Gflops *= peakScale;
    g.fp32MatrixGflops *= peakScale;
    g.smCount = sms;
    g.memoryBandwidthGBps *= w.bandwidth;
    g.l2CacheMb *= w.l2;
    return g;
}

Scenario ForecastSession::toScenario() const
{
    Scenario s;
    s.model = modelName_.toStdString();
    if (!modelBundled_)
        s.modelConfig = modelJson_;
    s.options = options_;
    s.parallel = layout_;
    for (const auto& id : selected_) {
        s.gpus.push_back(id.toStdString());
        if (isUserGpu(id))
            s.customGpus.push_back(*gpu(id));
    }
    s.unreadJson = scenarioExtras_;
    return s;
}

std::optional<QString> ForecastSession::applyScenario(const Scenario& sc, QStringList* notes)
{
    // Check everything before touching anything: a bad file must leave the session as it was.
    const QString name = QString::fromStdString(sc.model);
    const bool bundled = sc.modelConfig.is_null();
    if (bundled && !bundledModels_.contains(name)) {
        // A path here is the CLI's habit (--model path/config.json); a scenario carries its own
        // model's config inside, and the message had not said under which key.
        std::vector<std::string> known;
        for (const QString& m : bundledModels_)
            known.push_back(m.toStdString());
        return QString("model: '%1' is no bundled model%2; a model of your own goes into the scenario itself, its "
                       "config.json's contents under \"model_config\" (as File > Save scenario writes it)")
            .arg(name, QString::fromStdString(json_fields::didYouMean(sc.model, known)));
    }
    nlohmann::json config = sc.modelConfig;
    try {
        if (bundled) {
            const std::string path = resourceDirectory() + "/models/" + sc.model + ".json";
            config = json_fields::parse(readFile(path), path);
        }
        ModelConfig c = modelConfigFromJson(config, sc.model);
        c.id = sc.model;
        buildModelGraph(c, sc.options);
        if (auto error = layoutRefusal(c, sc.options, sc.parallel))
            return error;
    } catch (const ForecastError& e) {
        return QString::fromUtf8(e.what());
    }
    for (const auto& id : sc.gpus) {
        const auto custom = std::find_if(sc.customGpus.begin(), sc.customGpus.end(), [&](const GpuSpec& g) { return g.id == id; });
        const GpuSpec* spec = custom != sc.customGpus.end() ? &*custom : gpu(QString::fromStdString(id));
        if (!spec) {
            std::vector<std::string> known;
            for (const auto& g : gpus_)
                known.push_back(g.id);
            return QString("gpus: unknown GPU '%1'%2 and no spec sheet for it in the scenario")
                .arg(QString::fromStdString(id), QString::fromStdString(json_fields::didYouMean(id, known)));
        }
        if (sc.parallel.gpus() > 1 && !(spec->interconnectBandwidthGBps > 0)) // forecastParallel needs the link
            return QString("%1: interconnect.bandwidth_gbps: needed for a multi-GPU forecast").arg(QString::fromStdString(id));
    }
    // Every custom sheet's basis before any is added: a refused scenario must not have saved some.
    for (std::size_t i = 0; i < sc.customGpus.size(); ++i) {
        GpuSpec resolved = sc.customGpus[i];
        if (auto error = resolveBasis(resolved, QString("custom_gpus[%1] (%2)").arg(i).arg(QString::fromStdString(resolved.id))))
            return error;
    }
    // A scenario's sheet never replaces one already here, a bundled reference or a sheet of the
    // user's: one that differs under a taken id joins under a new id, which the scenario then
    // compares. (Opening a colleague's file had silently changed A100-PCIE-40GB for every later
    // comparison, and overwritten the user's own sheet of the same name.)
    std::map<std::string, std::string> renamed;
    for (GpuSpec g : sc.customGpus) {
        if (const GpuSpec* existing = gpu(QString::fromStdString(g.id))) {
            if (gpuSpecToJson(*existing) == gpuSpecToJson(g))
                continue; // the same sheet: nothing to add
            // Under its own id a sheet that differs from a measured GPU only where no network reads
            // (power, price) is that GPU, as `predict --gpu sheet.json` reads it; renamed, it was read
            // as a new GPU (a T4 with its board power changed came out 2.2% faster). Its basis keeps
            // it that GPU. A sheet that changes a ratio stays a new GPU, as predict reads it too.
            if (g.efficiencyBasisId.empty() && !isUserGpu(QString::fromStdString(g.id)) &&
                isMeasuredGpuAsTrained(g, forecaster().tiles().gpus()))
                g.efficiencyBasisId = g.id;
            const std::string fresh = uniqueGpuId(QString::fromStdString(g.id + " (scenario)")).toStdString();
            if (notes) // the list shows the new id; this says why it is there
                *notes << QString("its sheet '%1' differs from %2 of that id here: added as '%3'")
                              .arg(QString::fromStdString(g.id),
                                   isUserGpu(QString::fromStdString(g.id)) ? QString("yours") : QString("the bundled one"),
                                   QString::fromStdString(fresh));
            renamed[g.id] = fresh;
            g.id = fresh;
        }
        if (auto error = addGpu(g))
            return error;
    }
    // installModel checks the model against the settings and layout it will run with: the scenario's.
    const GraphOptions previousOptions = options_;
    const ParallelLayout previousLayout = layout_;
    options_ = sc.options;
    layout_ = sc.parallel;
    if (auto error = installModel(config, name, bundled, QString::fromStdString(sc.model))) {
        options_ = previousOptions;
        layout_ = previousLayout;
        return error;
    }
    selected_.clear();
    for (const auto& listed : sc.gpus) { // a GPU listed twice (a hand-edited file) is compared once, as when ticked
        const auto r = renamed.find(listed);
        const QString id = QString::fromStdString(r == renamed.end() ? listed : r->second);
        if (!selected_.contains(id))
            selected_ << id;
    }
    scenarioExtras_ = sc.unreadJson;
    recompute();
    return std::nullopt;
}

std::optional<QString> ForecastSession::installModel(const nlohmann::json& config, const QString& name, bool bundled,
                                                     const QString& source, Fit fit, QString* adjustment)
{
    GraphOptions options = options_;
    ParallelLayout layout = layout_;
    QStringList changes;
    try {
        ModelConfig c = modelConfigFromJson(config, source.toStdString());
        c.id = name.toStdString();
        if (fit == Fit::Adjust && c.learnedPositions && options.seq > c.maxPositions) {
            changes << tr("sequence length %1 -> %2, as it has %2 learned positions").arg(options.seq).arg(c.maxPositions);
            options.seq = c.maxPositions;
        }
        if (fit == Fit::Adjust)
            if (auto change = fitLayoutTo(c, options, layout))
                changes << *change;
        buildModelGraph(c, options); // the settings and the layout must suit the new model too
        if (auto error = layoutRefusal(c, options, layout))
            throw ForecastError(error->toStdString());
        model_ = std::make_shared<const ModelConfig>(std::move(c));
    } catch (const ForecastError& e) {
        emit errorOccurred(QString::fromUtf8(e.what()));
        return QString::fromUtf8(e.what());
    }
    options_ = options;
    layout_ = layout;
    modelName_ = name;
    modelJson_ = config;
    modelBundled_ = bundled;
    if (!changes.isEmpty() && adjustment)
        *adjustment = tr("Adjusted to suit %1: %2").arg(name, changes.join("; "));
    return std::nullopt;
}

std::optional<QString> ForecastSession::fitLayoutTo(const ModelConfig& model, const GraphOptions& options, ParallelLayout& layout) const
{
    const auto problem = layoutRefusal(model, options, layout);
    if (!problem)
        return std::nullopt;
    const ParallelLayout fitted = fitLayout(model, options, layout);
    QStringList moved;
    const struct {
        const char* name;
        long long ParallelLayout::*degree;
    } degrees[] = {{"TP", &ParallelLayout::tp}, {"PP", &ParallelLayout::pp}, {"DP", &ParallelLayout::dp},
                   {"micro-batches", &ParallelLayout::microbatches}, {"ZeRO", &ParallelLayout::zero}};
    for (const auto& d : degrees)
        if (layout.*d.degree != fitted.*d.degree)
            moved << QStringLiteral("%1 %2 -> %3").arg(QLatin1String(d.name)).arg(layout.*d.degree).arg(fitted.*d.degree);
    layout = fitted;
    // validateLayout names the model and the field ("gpt2_large: parallel layout: ..."); here the
    // reason alone reads on.
    const QString marker = QStringLiteral("parallel layout: ");
    const qsizetype at = problem->indexOf(marker);
    const QString reason = at < 0 ? *problem : problem->mid(at + marker.size());
    return tr("%1, as %2").arg(moved.join(", "), reason);
}

const GpuSpec* ForecastSession::gpu(const QString& id) const { return findGpu(gpus_, id.toStdString()); }

int ForecastSession::gpuIndex(const QString& id) const
{
    for (std::size_t i = 0; i < gpus_.size(); ++i)
        if (QString::fromStdString(gpus_[i].id) == id)
            return int(i);
    return -1;
}

void ForecastSession::setSelectedGpus(const QStringList& ids)
{
    QStringList valid;
    for (const auto& id : ids)
        if (gpu(id) && !valid.contains(id))
            valid << id;
    if (valid == selected_)
        return;
    const QStringList previous = selected_;
    selected_ = valid;
    if (recompute()) // e.g. a GPU without link bandwidth joining a multi-GPU layout
        selected_ = previous;
}

void ForecastSession::setGpuSelected(const QString& id, bool on)
{
    QStringList ids = selected_;
    if (on && !ids.contains(id))
        ids << id;
    if (!on)
        ids.removeAll(id);
    setSelectedGpus(ids);
}

std::optional<QString> ForecastSession::updateGpu(const GpuSpec& edited)
{
    GpuSpec spec = edited;
    try {
        validateGpuSpec(spec, spec.id);
    } catch (const ForecastError& e) {
        return QString::fromUtf8(e.what());
    }
    const QString id = QString::fromStdString(spec.id);
    const int i = gpuIndex(id);
    if (i < 0)
        return QString("unknown GPU '%1'").arg(id);
    // Editing a bundled sheet asks "this GPU, with other numbers": without the basis the networks
    // would read it as a new GPU (an A100 with twice the SMs, FLOP/s and bandwidth came out slower
    // than the A100 itself, 85.0 against 62.7 ms, where with its basis it takes 34.7).
    if (!isUserGpu(id) && spec.efficiencyBasisId.empty() && findGpu(bundled_, spec.id))
        spec.efficiencyBasisId = spec.id;
    if (auto error = resolveBasis(spec))
        return error;
    if (auto error = persist(spec))
        return error;
    gpus_[std::size_t(i)] = spec;
    emit gpusChanged();
    recompute();
    return std::nullopt;
}

std::optional<QString> ForecastSession::resolveBasis(GpuSpec& spec, const QString& source) const
{
    try {
        resolveEfficiencyBasis(spec, bundled_, source.isEmpty() ? spec.id : source.toStdString());
    } catch (const ForecastError& e) {
        return QString::fromUtf8(e.what());
    }
    return std::nullopt;
}

QString ForecastSession::efficiencyBasisForCopyOf(const QString& id) const
{
    const GpuSpec* g = gpu(id);
    if (!g)
        return {};
    if (!g->efficiencyBasisId.empty())
        return QString::fromStdString(g->efficiencyBasisId);
    return findGpu(bundled_, g->id) && !isUserGpu(id) ? id : QString();
}

const MeasuredRun* ForecastSession::measuredRun(const QString& gpuId) const
{
    if (!modelBundled_ || isUserGpu(gpuId) || whatIf_.contains(gpuId))
        return nullptr; // a measurement is of the shipped model on the real GPU
    return findMeasuredRun(measuredRuns_, gpuId.toStdString(), modelName_.toStdString(), options_, layout_, model_->layers);
}

QStringList ForecastSession::bundledGpuIds() const
{
    QStringList ids;
    for (const auto& g : bundled_)
        ids << QString::fromStdString(g.id);
    return ids;
}

std::optional<QString> ForecastSession::persist(const GpuSpec& spec)
{
    try {
        store_.save(spec);
    } catch (const ForecastError& e) {
        emit errorOccurred(QString::fromUtf8(e.what()));
        return QString::fromUtf8(e.what());
    }
    const QString id = QString::fromStdString(spec.id);
    if (!userGpuIds_.contains(id))
        userGpuIds_ << id;
    return std::nullopt;
}

std::optional<QString> ForecastSession::addGpu(const GpuSpec& added, const QString& source)
{
    GpuSpec spec = added;
    try {
        validateGpuSpec(spec, spec.id);
    } catch (const ForecastError& e) {
        return QString::fromUtf8(e.what());
    }
    if (auto error = resolveBasis(spec, source))
        return error;
    if (auto error = persist(spec))
        return error;
    const QString id = QString::fromStdString(spec.id);
    if (const int i = gpuIndex(id); i >= 0)
        gpus_[std::size_t(i)] = spec;
    else
        gpus_.push_back(spec);
    emit gpusChanged();
    recompute();
    return std::nullopt;
}

QString ForecastSession::uniqueGpuId(const QString& base) const
{
    QString id = base;
    for (int n = 2; gpu(id); ++n)
        id = QString("%1 %2").arg(base).arg(n);
    return id;
}

void ForecastSession::removeGpu(const QString& id)
{
    if (!isUserGpu(id))
        return;
    store_.remove(id);
    userGpuIds_.removeAll(id);
    if (const GpuSpec* shipped = findGpu(bundled_, id.toStdString())) {
        gpus_[std::size_t(gpuIndex(id))] = *shipped;
    } else {
        gpus_.erase(std::remove_if(gpus_.begin(), gpus_.end(),
                                   [&](const GpuSpec& g) { return QString::fromStdString(g.id) == id; }),
                    gpus_.end());
        selected_.removeAll(id);
    }
    emit gpusChanged();
    recompute();
}

std::optional<QString> ForecastSession::renameRefusal(const QString& from, const QString& to) const
{
    if (!isUserGpu(from) || findGpu(bundled_, from.toStdString()))
        return tr("%1 is a bundled GPU: it keeps its id (duplicate it to name a copy)").arg(from);
    if (to.trimmed().isEmpty())
        return tr("id: must not be empty");
    if (to != to.trimmed())
        return tr("id: must not start or end with a space");
    if (to.contains('/') || to.contains('\\') || to.contains('\n'))
        return tr("id: must not contain a slash or a line break");
    if (namesSheetFile(to.toStdString())) // a kernel table would read the id as a file's path
        return tr("id: must not end in .json");
    if (to != from && gpu(to))
        return tr("id: %1 is taken by another GPU").arg(to);
    return std::nullopt;
}

std::optional<QString> ForecastSession::renameGpu(const QString& from, const QString& to)
{
    if (auto refusal = renameRefusal(from, to))
        return refusal;
    if (to == from)
        return std::nullopt;
    GpuSpec spec = *gpu(from);
    spec.id = to.toStdString();
    try {
        store_.rename(spec, from);
    } catch (const ForecastError& e) {
        emit errorOccurred(QString::fromUtf8(e.what()));
        return QString::fromUtf8(e.what());
    }
    gpus_[std::size_t(gpuIndex(from))] = spec;
    userGpuIds_.replace(userGpuIds_.indexOf(from), to);
    if (const qsizetype at = selected_.indexOf(from); at >= 0)
        selected_.replace(at, to); // compared where it was: the colours follow the order
    if (whatIf_.contains(from))
        whatIf_.insert(to, whatIf_.take(from));
    // Forecasts first: a view that follows the GPU to its new id reads them (the Roofline had
    // looked up a forecast's GPU by the id it no longer had).
    recompute();
    emit gpuRenamed(from, to);
    emit gpusChanged();
    return std::nullopt;
}

bool ForecastSession::isUserGpu(const QString& id) const { return userGpuIds_.contains(id); }

bool ForecastSession::isEditedBundledGpu(const QString& id) const
{
    return isUserGpu(id) &&
           std::any_of(bundled_.begin(), bundled_.end(), [&](const GpuSpec& g) { return QString::fromStdString(g.id) == id; });
}

QString ForecastSession::gpuNameMark(const QString& id) const
{
    const bool edited = isEditedBundledGpu(id);
    const bool scaled = !whatIf(id).isIdentity();
    if (edited && scaled)
        return tr(" (edited, what-if)");
    return edited ? tr(" (edited)") : scaled ? tr(" (what-if)") : QString();
}

std::optional<QString> ForecastSession::setModel(const QString& idOrPath, Fit fit)
{
    const QString dir = QString::fromStdString(resourceDirectory());
    const bool bundled = bundledModels_.contains(idOrPath);
    const QString path = bundled ? dir + "/models/" + idOrPath + ".json" : idOrPath;
    nlohmann::json config;
    try {
        config = json_fields::parse(readFile(path.toStdString()), path.toStdString());
    } catch (const ForecastError& e) {
        emit errorOccurred(QString::fromUtf8(e.what()));
        return QString::fromUtf8(e.what());
    }
    QString name = bundled ? idOrPath : QString::fromStdString(modelNameForFile(path.toStdString(), config));
    if (!bundled && bundledModels_.contains(name)) // a folder named "bert": not the bundled bert
        name += tr(" (config.json)");
    QString adjustment;
    // A bundled model is named by its name in errors, not by a path under the install folder.
    if (auto error = installModel(config, name, bundled, bundled ? name : path, fit, &adjustment))
        return error;
    if (model_ && !selected_.isEmpty())
        recompute();
    if (!adjustment.isEmpty()) // after the new forecasts, whose summary would hide it
        emit adjusted(adjustment);
    return std::nullopt;
}

std::optional<QString> ForecastSession::setOptions(const GraphOptions& options, Fit fit)
{
    try {
        buildModelGraph(*model_, options);
    } catch (const ForecastError& e) {
        emit errorOccurred(QString::fromUtf8(e.what()));
        return QString::fromUtf8(e.what());
    }
    ParallelLayout layout = layout_;
    const auto change = fit == Fit::Adjust ? fitLayoutTo(*model_, options, layout) : std::nullopt;
    if (auto error = layoutRefusal(*model_, options, layout)) { // e.g. a batch DP no longer divides
        emit errorOccurred(*error);
        return error;
    }
    const GraphOptions previousOptions = options_;
    const ParallelLayout previousLayout = layout_;
    options_ = options;
    layout_ = layout;
    if (auto error = recompute()) { // the previous forecasts stay: so do their settings
        options_ = previousOptions;
        layout_ = previousLayout;
        return error;
    }
    if (change)
        emit adjusted(tr("Adjusted: %1").arg(*change));
    return std::nullopt;
}

std::optional<QString> ForecastSession::setLayout(const ParallelLayout& layout)
{
    if (auto error = layoutRefusal(*model_, options_, layout)) {
        emit errorOccurred(*error);
        return error;
    }
    const ParallelLayout previous = layout_;
    layout_ = layout;
    auto error = recompute();
    if (error)
        layout_ = previous;
    return error;
}

std::optional<QString> ForecastSession::recompute()
{
    auto list = std::make_shared<ForecastList>();
    auto forecastOn = [&](const GpuSpec& gpu) {
        return layout_.gpus() > 1 ? forecastParallel(*forecaster_, *model_, options_, layout_, gpu).step
                                  : forecastModel(*forecaster_, *model_, options_, gpu);
    };
    QHash<QString, double> unchanged;
    try {
        for (const auto& id : selected_) {
            list->push_back(forecastOn(effectiveGpu(id)));
            // The sheet as it stands without the change: the bundled one for an edit, else the
            // sheet itself without sliders. One that cannot be forecast (an edit added the link a
            // layout needs) has no figure to compare with.
            const auto bundled = std::find_if(bundled_.begin(), bundled_.end(),
                                              [&](const GpuSpec& g) { return QString::fromStdString(g.id) == id; });
            const GpuSpec* base = isEditedBundledGpu(id) ? &*bundled : !whatIf(id).isIdentity() ? gpu(id) : nullptr;
            if (base) {
                try {
                    unchanged.insert(id, forecastOn(*base).totalSeconds());
                } catch (const ForecastError&) {
                }
            }
        }
    } catch (const ForecastError& e) {
        emit errorOccurred(QString::fromUtf8(e.what()));
        return QString::fromUtf8(e.what()); // keep the previous forecasts on screen
    }
    forecasts_ = std::move(list);
    unchangedSeconds_ = std::move(unchanged);
    emit forecastsChanged();
    return std::nullopt;
}

std::optional<double> ForecastSession::unchangedSeconds(const QString& id) const
{
    const auto it = unchangedSeconds_.find(id);
    return it == unchangedSeconds_.end() ? std::nullopt : std::optional<double>(*it);
}

} // namespace gpuforecast::ui
