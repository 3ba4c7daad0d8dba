#include "autosave.h"

#include "gpuforecast/error.h"
#include "gpuforecast/file_io.h"
#include "gpuforecast/json_fields.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QStandardPaths>

namespace gpuforecast::ui {
namespace {

constexpr const char* kFormat = "gpuforecast-recovery-1";
constexpr int kDelayMs = 1500;

nlohmann::json whatIfToJson(const QString& gpu, const ForecastSession::WhatIf& w)
{
    return {{"gpu", gpu.toStdString()}, {"bandwidth", w.bandwidth}, {"fp32", w.fp32}, {"sms", w.sms}, {"l2", w.l2}};
}

// The sliders span x0.25 to x4; anything else was not written by us.
QHash<QString, ForecastSession::WhatIf> whatIfsFromJson(const nlohmann::json& j, const json_fields::Context& ctx)
{
    using namespace json_fields;
    QHash<QString, ForecastSession::WhatIf> out;
    if (!j.contains("what_if"))
        return out;
    const auto& list = j["what_if"];
    if (!list.is_array() || list.size() > 4096)
        throwInputError(ctx.source, "what_if", "expected an array of what-if factors");
    for (std::size_t i = 0; i < list.size(); ++i) {
        const std::string field = "what_if[" + std::to_string(i) + "]";
        if (!list[i].is_object())
            throwInputError(ctx.source, field, "expected an object");
        const Context c = ctx.child(field);
        ForecastSession::WhatIf w;
        w.bandwidth = requireNumber(list[i], c, "bandwidth", 0.25, 4);
        w.fp32 = requireNumber(list[i], c, "fp32", 0.25, 4);
        w.sms = requireNumber(list[i], c, "sms", 0.25, 4);
        w.l2 = requireNumber(list[i], c, "l2", 0.25, 4);
        out.insert(QString::fromStdString(requireString(list[i], c, "gpu")), w);
    }
    return out;
}

} // namespace

Autosave::Autosave(ForecastSession* session, QString folder, QObject* parent)
    : QObject(parent), session_(session), folder_(std::move(folder))
{
    if (folder_.isEmpty())
        folder_ = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + "/recovery";
    unresolved_ = QFileInfo::exists(path());
    // Throttled rather than debounced: a slider dragged for a minute is still saved every delay.
    timer_.setSingleShot(true);
    timer_.setInterval(kDelayMs);
    connect(&timer_, &QTimer::timeout, this, &Autosave::write);
    // Every change of the work ends in new forecasts (a spec edit, a setting, a what-if, a layout).
    connect(session_, &ForecastSession::forecastsChanged, this, [this] {
        if (!timer_.isActive())
            timer_.start();
    });
}

void Autosave::markClean(const QString& scenarioPath)
{
    timer_.stop();
    scenarioPath_ = scenarioPath;
    unresolved_ = false;
    QFile::remove(path());
}

void Autosave::flush()
{
    if (timer_.isActive()) {
        timer_.stop();
        write();
    }
}

void Autosave::write()
{
    if (unresolved_)
        return;
    nlohmann::json j;
    j["format"] = kFormat;
    j["scenario_path"] = scenarioPath_.toStdString();
    j["scenario"] = scenarioToJson(session_->toScenario());
    j["what_if"] = nlohmann::json::array();
    for (auto it = session_->whatIfs().begin(); it != session_->whatIfs().end(); ++it)
        j["what_if"].push_back(whatIfToJson(it.key(), it.value()));
    try {
        if (!QDir().mkpath(folder_))
            throwInputError(folder_.toStdString(), "", "cannot create the folder");
        writeFileAtomically(path().toStdString(), j.dump(2) + "\n");
    } catch (const ForecastError& e) {
        emit problem(tr("Unsaved work is not being kept safe: %1").arg(QString::fromUtf8(e.what())));
    }
}

std::optional<QDateTime> Autosave::pendingRecovery() const
{
    const QFileInfo f(path());
    if (!unresolved_ || !f.exists())
        return std::nullopt;
    return f.lastModified();
}

std::optional<QString> Autosave::restore(QString* scenarioPath)
{
    using namespace json_fields;
    const std::string source = path().toStdString();
    std::optional<QString> error;
    try {
        const nlohmann::json j = parse(readFile(source), source);
        const Context ctx{source, ""};
        if (!j.is_object())
            throwInputError(source, "", "expected a JSON object (a GPU Forecast recovery file)");
        if (requireString(j, ctx, "format") != kFormat)
            throwInputError(source, "format", std::string("expected \"") + kFormat + "\"");
        const Scenario scenario = scenarioFromJson(requireObject(j, ctx, "scenario"), source + ": scenario");
        const QString belongsTo = QString::fromStdString(optionalString(j, ctx, "scenario_path").value_or(""));
        const auto whatIfs = whatIfsFromJson(j, ctx); // all read and checked before the session changes
        if (auto refused = session_->applyScenario(scenario))
            throwInputError(source, "scenario", refused->toStdString());
        for (const QString& gpu : session_->whatIfs().keys()) // a copy: setWhatIf changes the hash
            if (!whatIfs.contains(gpu))
                session_->setWhatIf(gpu, {});
        for (auto it = whatIfs.begin(); it != whatIfs.end(); ++it)
            if (session_->gpu(it.key())) // a user GPU deleted since has nothing to scale
                session_->setWhatIf(it.key(), it.value());
        scenarioPath_ = belongsTo;
        unresolved_ = false;
        if (scenarioPath)
            *scenarioPath = belongsTo;
        return std::nullopt;
    } catch (const ForecastError& e) {
        error = QString::fromUtf8(e.what());
    }
    const QString bad = path() + ".bad"; // kept for a bug report, out of the way of the next start
    QFile::remove(bad);
    if (!QFile::rename(path(), bad))
        QFile::remove(path());
    unresolved_ = false;
    return error;
}

} // namespace gpuforecast::ui
