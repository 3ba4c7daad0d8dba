#pragma once
// Unsaved work survives a crash or a kill: shortly after a change, the session's whole state (the
// scenario, the file it belongs to, the what-if sliders) is written atomically to a recovery file,
// and a clean close removes it, so a file found at start means the last run did not end cleanly.
// The user's GPU sheets need none of this: UserGpuStore saves them at once.
#include "forecast_session.h"

#include <QDateTime>
#include <QObject>
#include <QString>
#include <QTimer>

#include <optional>

namespace gpuforecast::ui {

class Autosave : public QObject {
    Q_OBJECT
public:
    // Default folder: QStandardPaths::AppDataLocation + "/recovery". A recovery file already there
    // is left alone (never overwritten) until restore() or markClean() settles it.
    explicit Autosave(ForecastSession* session, QString folder = {}, QObject* parent = nullptr);
    QString path() const { return folder_ + "/autosave.json"; }
    void setDelay(int ms) { timer_.setInterval(ms); }

    // The work now equals `scenarioPath` (just saved or opened; empty: nothing worth keeping, or the
    // user discarded it): the recovery file goes until the next change.
    void markClean(const QString& scenarioPath = {});
    void flush(); // write a pending change now instead of after the delay

    // When the recovery file left by a run that did not close cleanly was written.
    std::optional<QDateTime> pendingRecovery() const;
    // Applies the recovery file to the session and returns the scenario file the work belonged to
    // (empty: untitled). On failure the session is unchanged, the file is renamed to "<file>.bad" so
    // it is not offered again, and the error names the file and the field.
    std::optional<QString> restore(QString* scenarioPath);

signals:
    void problem(const QString& message); // the recovery file could not be written

private:
    void write();

    ForecastSession* session_;
    QString folder_;
    QString scenarioPath_;
    QTimer timer_;
    bool unresolved_ = false; // a previous run's file nobody has restored or discarded yet
};

} // namespace gpuforecast::ui
