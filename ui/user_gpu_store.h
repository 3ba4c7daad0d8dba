#pragma once
// The user's own spec sheets (new, duplicated, imported or edited GPUs), one JSON file each in the
// user's data folder — never in the installed data. Saved atomically on every change.
#include "gpuforecast/gpu_spec.h"

#include <QHash>
#include <QString>
#include <QStringList>

#include <vector>

namespace gpuforecast::ui {

class UserGpuStore {
public:
    // Default folder: QStandardPaths::AppDataLocation + "/gpus".
    explicit UserGpuStore(QString folder = {});
    // Reads the folder but never writes to it: `gpuforecast --screenshot` renders a scenario
    // without leaving its custom sheets behind in the user's folder.
    static UserGpuStore readOnly(QString folder = {});

    QString folder() const { return folder_; }
    // Every valid spec in the folder; problems (unreadable or invalid files) are appended to errors,
    // and each spec's file to paths (for later errors that must name it).
    std::vector<GpuSpec> load(QStringList* errors, QStringList* paths = nullptr) const;
    void save(const GpuSpec& spec) const; // throws ForecastError naming the file; nothing when read-only
    void remove(const QString& id) const; // nothing when read-only
    // Saves `spec` under its (new) id, then removes the file(s) of `from`; the new file first, so a
    // failed save loses nothing. Throws ForecastError naming the file; nothing when read-only.
    void rename(const GpuSpec& spec, const QString& from) const;

private:
    // The file a sheet lives in: the one it was loaded from (a file written by hand may be named
    // anything), else one named after its id.
    QString pathFor(const QString& id) const;
    QString folder_;
    // Each loaded sheet's file, by id. Without it, editing "T4 rack 3.json" wrote a second file,
    // T4_rack_3.json, and deleting the sheet left the first one to come back at the next start.
    mutable QHash<QString, QStringList> loadedFrom_;
    bool writes_ = true;
};

} // namespace gpuforecast::ui
