#include "user_gpu_store.h"

#include "gpuforecast/error.h"

#include <QDir>
#include <QFileInfo>

#include <algorithm>
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
    // "A B" and "A_B" make the same name: the second sheet saved had overwritten the first one's
    // file, and deleting either deleted both. A name another sheet holds, or any file there, is
    // taken; the next free one is used instead.
    QString path = folder_ + "/" + safe + ".json";
    for (int n = 2; QFileInfo::exists(path) || std::any_of(loadedFrom_.cbegin(), loadedFrom_.cend(), [&](const QStringList& p) {
                        return p.contains(path);
                    });
         ++n)
        path = QString("%1/%2_%3.json").arg(folder_, safe).arg(n);
    return path;
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
    const QString id = QString::fromStdString(spec.id);
    const QString path = pathFor(id);
    saveGpuSpec(spec, path.toStdString());
    if (!loadedFrom_.value(id).contains(path))
        loadedFrom_[id].prepend(path); // later saves and a delete go to this file, whatever else appears
}

void UserGpuStore::remove(const QString& id) const
{
    if (!writes_)
        return;
    // Every file the sheet was read from or saved to (a second file with the same id came back
    // too); never a file named like it that holds another sheet.
    for (const QString& path : loadedFrom_.take(id))
        QFile::remove(path);
}

void UserGpuStore::rename(const GpuSpec& spec, const QString& from) const
{
    if (!writes_)
        return;
    save(spec);
    for (const QString& path : loadedFrom_.take(from))
        QFile::remove(path);
}

} // namespace gpuforecast::ui
