#pragma once
// What the explorer's test suites share: the user's GPUs in a throwaway folder (never the real
// one), and forecasts reduced to the numbers the tests compare.
#include "forecast_session.h"
#include "gpuforecast/catalog.h"
#include "gpuforecast/file_io.h"
#include "gpuforecast/tiling.h"

#include <qcustomplot.h>

#include <QDir>
#include <QFile>
#include <QStringList>
#include <QTemporaryDir>
#include <QTest>
#include <QWidget>

#include <string>
#include <vector>

namespace gpuforecast::ui::test {

// While alive, sessions read a data folder whose weights have no networks trained without a
// measured GPU (as a folder `train` writes): the shipped ones forecast each measured GPU without
// its own rows, so none of them is ever "near the edge" of the others; with these, P4 is.
// Given `onlyMeasured`, the tile table keeps that GPU alone, as `train` writes it from that GPU's
// rows: it is then the only GPU to borrow a GEMM efficiency from (the networks stay the shipped
// ones, which the borrowing does not read).
class DataWithoutHeldOutNetworks {
public:
    explicit DataWithoutHeldOutNetworks(const std::string& onlyMeasured = "")
    {
        const QDir shipped(QString::fromStdString(resourceDirectory()));
        QDir here(dir_.path());
        for (const char* folder : {"gpus", "models", "datasets"})
            QFile::link(shipped.filePath(folder), here.filePath(folder));
        here.mkdir("weights");
        for (const QString& f : QDir(shipped.filePath("weights")).entryList(QDir::Files))
            if (onlyMeasured.empty() || f != "gemm_tiles.csv.gz")
                QFile::link(shipped.filePath("weights/" + f), here.filePath("weights/" + f));
        if (!onlyMeasured.empty()) {
            TileDatabase tiles = TileDatabase::load(shipped.filePath("weights/gemm_tiles.csv.gz").toStdString());
            for (const std::string& id : tiles.gpuIds())
                if (id != onlyMeasured)
                    tiles = tiles.without(id);
            writeGzipFileAtomically(here.filePath("weights/gemm_tiles.csv.gz").toStdString(), tiles.serialize());
        }
        previous_ = qgetenv(kDataDirEnv);
        qputenv(kDataDirEnv, dir_.path().toUtf8());
    }
    ~DataWithoutHeldOutNetworks() { qputenv(kDataDirEnv, previous_); }
    DataWithoutHeldOutNetworks(const DataWithoutHeldOutNetworks&) = delete;
    DataWithoutHeldOutNetworks& operator=(const DataWithoutHeldOutNetworks&) = delete;

private:
    QTemporaryDir dir_;
    QByteArray previous_;
};

// A hand-written file for a test to open (a scenario, a sheet).
inline bool writeText(const QString& path, const QByteArray& text)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(text) == text.size();
}

// Resizes the window, shows it and waits until it is on screen (offscreen: laid out and painted),
// for QVERIFY(shownAt(window, 1366, 768)).
inline bool shownAt(QWidget& window, int width, int height)
{
    window.resize(width, height);
    window.show();
    return QTest::qWaitForWindowExposed(&window);
}

class UserGpuFolder {
public:
    UserGpuStore store() const { return UserGpuStore(dir_.filePath("gpus")); }
    void clear() const { QDir(dir_.filePath("gpus")).removeRecursively(); } // before each test
    QString filePath(const QString& name) const { return dir_.filePath(name); } // "gpus/x.json"

private:
    QTemporaryDir dir_;
};

// The session forecasts `model`'s prompt pass over `batch` sequences of `seq` tokens.
inline bool showPrompt(ForecastSession& session, const char* model, long long batch, long long seq)
{
    if (session.setModel(model))
        return false;
    GraphOptions o = session.options();
    o.batch = batch;
    o.seq = seq;
    return !session.setOptions(o);
}

// The session forecasts one sequence of `seq` tokens of `model` on `gpu` alone.
inline bool showOneSequence(ForecastSession& session, const char* model, long long seq, const char* gpu)
{
    if (session.setModel(model))
        return false;
    GraphOptions o = session.options();
    o.batch = 1;
    o.seq = seq;
    if (session.setOptions(o))
        return false;
    session.setSelectedGpus({gpu});
    return true;
}

inline std::vector<double> totals(const ForecastSession& session)
{
    std::vector<double> t;
    for (const auto& f : *session.forecasts())
        t.push_back(f.totalSeconds());
    return t;
}

// The names a chart's legend shows, in its order.
inline QStringList legendNames(const QCustomPlot* plot)
{
    QStringList names;
    for (int i = 0; i < plot->legend->itemCount(); ++i)
        if (auto* item = qobject_cast<QCPPlottableLegendItem*>(plot->legend->item(i)))
            names << item->plottable()->name();
    return names;
}

// The texts of a chart's labels (the Compare chart's, one per bar), in the order drawn, after a
// replot; the chart must be shown for its labels to take their final form.
inline QStringList itemTexts(QCustomPlot* plot)
{
    plot->replot();
    QStringList texts;
    for (int i = 0; i < plot->itemCount(); ++i)
        if (auto* t = qobject_cast<QCPItemText*>(plot->item(i)))
            texts << t->text();
    return texts;
}

} // namespace gpuforecast::ui::test
