#include "user_gpu_store.h"

#include "gpuforecast/error.h"

#include <QDir>
#include <QRegularExpression>
#include <QStandardPaths>

namespace gpuforecast::ui {

UserGpuStore::UserGpuStore(QString folder) : folder_(std::move(folder))
{
    if (folder_.isEmpty())
        folder_ = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + "/gpus";
}

UserGpuStore UserGpuStore::readOnly(QString folder)
{
    UserGpuStore store(std::move(folder));
    store.writes_ = false;
    return store;
}

QString UserGpuStore::pathFor(const QString& id) const
{
    if (const auto it = loadedFrom_.constFind(id); it != loadedFrom_.cend() && !it->isEmpty())
        return it->first();
    QString safe = id;
    safe.replace(QRegularExpression("[^A-Za-z0-9._-]"), "_"); // ids may hold spaces; file names should not
    return folder_ + "/" + safe + ".json";
}

std::vector<GpuSpec> UserGpuStore::load(QStringList* errors, QStringList* paths) const
{
    std::vector<GpuSpec> out;
    for (const QFileInfo& f : QDir(folder_).entryInfoList({"*.json"}, QDir::Files, QDir::Name)) {
        try {
            out.push_back(loadGpuSpec(f.filePath().toStdString()));
            loadedFrom_[QString::fromStdString(out.back().id)] << f.filePath();
            if (paths)
                *paths << f.filePath();
        } catch (const ForecastError& e) {
            if (errors)
                *errors << QString::fromUtf8(e.what());
        }
    }
    return out;
}

void UserGpuStore::save(const GpuSpec& spec) const
{
    if (!writes_)
        return;
    if (!QDir().mkpath(folder_))
        throwInputError(folder_.toStdString(), "", "cannot create the folder");
    saveGpuSpec(spec, pathFor(QString::fromStdString(spec.id)).toStdString());
}

void UserGpuStore::remove(const QString& id) const
{
    if (!writes_)
        return;
    QFile::remove(pathFor(id));
    for (const QString& path : loadedFrom_.take(id)) // a second file with the same id came back too
        QFile::remove(path);
}

} // namespace gpuforecast::ui
