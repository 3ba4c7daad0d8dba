// Scenario files and the app's own command line, the way a user meets them: a scenario saved and
// opened again, a bad or hand-edited one, sheets it brings, and the app started with --help,
// --screenshot or a scenario to open. Runs offscreen.
#include "forecast_session.h"
#include "main_window.h"
#include "ui_test_support.h"

#include "gpuforecast/file_io.h"
#include "gpuforecast/gpu_spec.h"

#include <nlohmann/json.hpp>

#include <QDirIterator>
#include <QImage>
#include <QProcess>
#include <QSettings>
#include <QStandardPaths>
#include <QUndoStack>
#include <QtTest>

using namespace gpuforecast;
using namespace gpuforecast::ui;
using gpuforecast::ui::test::writeText;

namespace {

// A child process (the app under test) that ended by itself with exit code 0. A crash or a
// sanitizer's abort reads as exit code 6 with nothing said; endOf() gives what it printed.
bool cleanExit(const QProcess& p) { return p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0; }

QString endOf(QProcess& p)
{
    return QString("%1 with exit code %2; its standard error:\n%3")
        .arg(p.exitStatus() == QProcess::NormalExit ? "ended" : "crashed")
        .arg(p.exitCode())
        .arg(QString::fromUtf8(p.readAllStandardError()).right(4000));
}

// The app run to take a picture, with its user sheets in `dataHome`. Under the sanitizers its exit
// is not leak-checked: Qt's pool threads, which render the picture, are detached and may still be
// exiting when LeakSanitizer stops the world at exit, and its tracer then crashes ("Tracer caught
// signal 11 ... LeakSanitizer has encountered a fatal error", in two runs of the whole suite in a row;
// alone it passes).
// The window's code is leak-checked in this process, where no thread is exiting.
QProcessEnvironment screenshotEnvironment(const QString& dataHome)
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("XDG_DATA_HOME", dataHome);
    if (env.contains("ASAN_OPTIONS")) // the later of two settings of a flag wins
        env.insert("ASAN_OPTIONS", env.value("ASAN_OPTIONS") + ":detect_leaks=0");
    return env;
}

} // namespace

class TestUiScenario : public QObject {
    Q_OBJECT
    test::UserGpuFolder userData_; // every session's user GPUs live here, never in the real user folder
    UserGpuStore store() const { return userData_.store(); }

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void init() { userData_.clear(); }

    void scenarioSavedAndReopenedGivesIdenticalForecasts()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("what-if.json");
        std::vector<double> before;
        {
            ForecastSession session(nullptr, store());
            MainWindow window(&session);
            QVERIFY(!session.setOptions(GraphOptions{2, 512, true, false}).has_value());
            GpuSpec mine = *session.gpu("H100-SXM5-80GB");
            mine.id = "H100 with HBM4";
            mine.memoryBandwidthGBps = 8000;
            QVERIFY(!session.addGpu(mine).has_value());
            session.setSelectedGpus({"A100-PCIE-40GB", "H100 with HBM4"});
            QVERIFY(window.isModified());
            QVERIFY(window.saveScenario(path));
            QVERIFY(!window.isModified());
            for (const auto& f : *session.forecasts())
                before.push_back(f.totalSeconds());
        }
        userData_.clear(); // a colleague without my GPUs
        ForecastSession session(nullptr, store());
        MainWindow window(&session);
        QVERIFY(window.openScenario(path));
        QCOMPARE(session.selectedGpus(), (QStringList{"A100-PCIE-40GB", "H100 with HBM4"}));
        QVERIFY(session.options().training);
        QCOMPARE(session.forecasts()->size(), before.size());
        for (std::size_t i = 0; i < before.size(); ++i)
            QCOMPARE((*session.forecasts())[i].totalSeconds(), before[i]);
        QVERIFY(!window.isModified());
    }

    // File > Recent and the scenario reopened at start keep absolute paths (one opened as
    // "what-if.json" from a terminal reopens from anywhere); a render-only run records nothing.
    void recentScenariosAreAbsoluteAndScreenshotsLeaveThemAlone()
    {
        QTemporaryDir dir;
        ForecastSession session(nullptr, store());
        MainWindow window(&session);
        QVERIFY(window.saveScenario(dir.filePath("first.json")));
        QVERIFY(window.saveScenario(dir.filePath("second.json")));
        const QString before = QDir::currentPath();
        QDir::setCurrent(dir.path());
        const bool opened = window.openScenario("first.json");
        QDir::setCurrent(before);
        QVERIFY(opened);
        auto setting = [](const char* key) {
            return QSettings(QCoreApplication::applicationName(), QCoreApplication::applicationName()).value(key);
        };
        QCOMPARE(setting("lastScenario").toString(), QFileInfo(dir.filePath("first.json")).absoluteFilePath());
        QVERIFY(setting("recentScenarios").toStringList().contains(QFileInfo(dir.filePath("first.json")).absoluteFilePath()));
        window.setRemembersScenarios(false);
        QVERIFY(window.openScenario(dir.filePath("second.json")));
        QCOMPARE(setting("lastScenario").toString(), QFileInfo(dir.filePath("first.json")).absoluteFilePath());
    }

    void badScenarioKeepsThePreviousState()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("bad.json");
        QVERIFY(writeText(path, R"({"format": "gpuforecast-scenario-1", "model": "gpt2_large", "batch": 4, "seq": 1024,
                                   "mode": "inference", "gpus": ["T4", "H900"]})"));
        ForecastSession session(nullptr, store());
        MainWindow window(&session);
        const QStringList gpusBefore = session.selectedGpus();
        QVERIFY(!window.openScenario(path));
        QCOMPARE(session.selectedGpus(), gpusBefore);
    }

    // A scenario's model given as a path (the CLI's habit) or misspelt says what a scenario takes:
    // a bundled name, or the config itself under "model_config".
    void scenarioModelThatIsNoBundledNameSaysWhatIsTaken()
    {
        QTemporaryDir dir;
        ForecastSession session(nullptr, store());
        MainWindow window(&session);
        for (const auto& [model, expected] : {std::pair{QString("/models/llama3_8b.json"), QString("under \"model_config\"")},
                                              std::pair{QString("gpt2_larg"), QString("(did you mean gpt2_large?)")}}) {
            const QString path = dir.filePath("model.json");
            QVERIFY(writeText(path, QString(R"({"format": "gpuforecast-scenario-1", "model": "%1", "batch": 1, "seq": 128,
                                               "mode": "inference", "gpus": ["T4"]})").arg(model).toUtf8()));
            QVERIFY(!window.openScenario(path)); // refused
            const QString said = window.statusBar()->currentMessage();
            QVERIFY2(said.contains("model: '" + model + "' is no bundled model") && said.contains(expected), qPrintable(said));
            QCOMPARE(session.modelName(), QString("gpt2_large")); // kept
        }
    }

    // A misspelt "parallel" opened as one GPU without a word; it still opens, and the status bar
    // names the key and what it likely meant.
    void scenarioWithAMisspeltKeySaysSo()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("typo.json");
        QVERIFY(writeText(path, R"({"format": "gpuforecast-scenario-1", "model": "gpt2_large", "batch": 4, "seq": 128,
                                   "mode": "inference", "gpus": ["T4"], "paralel": {"tp": 4}})"));
        ForecastSession session(nullptr, store());
        MainWindow window(&session);
        QVERIFY(window.openScenario(path));
        const QString said = window.statusBar()->currentMessage();
        QVERIFY2(said.contains(path) && said.contains("paralel (did you mean parallel?) is not a scenario field"), qPrintable(said));
        // Saving keeps the key and its value, so the user can still fix the file by hand.
        const QString saved = dir.filePath("saved.json");
        QVERIFY(window.saveScenario(saved));
        const auto j = nlohmann::json::parse(readFile(saved.toStdString()));
        QCOMPARE(j["paralel"], nlohmann::json::parse(R"({"tp": 4})"));
        QCOMPARE(j["gpus"], nlohmann::json::parse(R"(["T4"])"));
    }

    // A hand-edited scenario listing a GPU twice compares it once, as ticking it would: it drew two
    // identical bars under one name.
    void scenarioListingAGpuTwiceComparesItOnce()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("twice.json");
        QVERIFY(writeText(path, R"({"format": "gpuforecast-scenario-1", "model": "gpt2_large", "batch": 4, "seq": 128,
                                   "mode": "inference", "gpus": ["T4", "H100-SXM5-80GB", "T4"]})"));
        ForecastSession session(nullptr, store());
        MainWindow window(&session);
        QVERIFY(window.openScenario(path));
        QCOMPARE(session.selectedGpus(), (QStringList{"T4", "H100-SXM5-80GB"}));
        QCOMPARE(session.forecasts()->size(), std::size_t(2));
    }

    // A scenario whose custom sheet names an unknown basis is refused before anything is added or
    // saved, though that sheet is not among the compared GPUs and the ones before it are valid.
    void scenarioWithABadBasisAddsNothing()
    {
        ForecastSession probe(nullptr, store());
        nlohmann::json good = gpuSpecToJson(*probe.gpu("A10")), bad = good;
        good["id"] = "good copy";
        good["efficiency_basis"] = "A10";
        bad["id"] = "hidden";
        bad["efficiency_basis"] = "NOPE";
        const nlohmann::json scenario = {{"format", "gpuforecast-scenario-1"}, {"model", "gpt2_large"}, {"batch", 1},
                                         {"seq", 128}, {"mode", "inference"}, {"gpus", {"A100-PCIE-40GB"}},
                                         {"custom_gpus", {good, bad}}};
        QTemporaryDir dir;
        const QString path = dir.filePath("s.json");
        writeFileAtomically(path.toStdString(), scenario.dump());
        ForecastSession session(nullptr, store());
        MainWindow window(&session);
        const QStringList gpusBefore = session.selectedGpus();
        QString error;
        QVERIFY(!window.openScenario(path, &error));
        QVERIFY2(error.contains("custom_gpus[1] (hidden): efficiency_basis: unknown GPU 'NOPE'"), qPrintable(error));
        QCOMPARE(session.selectedGpus(), gpusBefore);
        QVERIFY(!session.gpu("good copy"));
        QCOMPARE(QDir(userData_.filePath("gpus")).entryList(QDir::Files).size(), 0);
    }

    // Opening a scenario never replaces a sheet already here: a bundled reference or the user's
    // own. A different sheet under a taken id joins under a new one and is compared as such; the
    // same sheet is not added twice.
    void scenarioSheetsNeverReplaceSheetsHere()
    {
        ForecastSession session(nullptr, store());
        GpuSpec mine = *session.gpu("A10");
        mine.id = "mine";
        QVERIFY(!session.addGpu(mine));
        nlohmann::json theirs = gpuSpecToJson(mine), a100 = gpuSpecToJson(*session.gpu("A100-PCIE-40GB")),
                       same = gpuSpecToJson(mine);
        theirs["sm_count"] = 300;
        a100["sm_count"] = 216;
        const nlohmann::json scenario = {{"format", "gpuforecast-scenario-1"}, {"model", "gpt2_large"}, {"batch", 1},
                                         {"seq", 128}, {"mode", "inference"}, {"gpus", {"mine", "A100-PCIE-40GB"}},
                                         {"custom_gpus", {theirs, a100}}};
        QTemporaryDir dir;
        const QString path = dir.filePath("s.json");
        writeFileAtomically(path.toStdString(), scenario.dump());
        MainWindow window(&session);
        QString notes;
        QVERIFY(window.openScenario(path, nullptr, &notes));
        // ... and says so: the list's new ids had come without a word.
        QVERIFY2(notes.contains("its sheet 'mine' differs from yours of that id here: added as 'mine (scenario)'") &&
                     notes.contains("its sheet 'A100-PCIE-40GB' differs from the bundled one of that id here: added as "
                                    "'A100-PCIE-40GB (scenario)'"),
                 qPrintable(notes));
        QCOMPARE(session.gpu("mine")->smCount, mine.smCount);
        QVERIFY(!session.isUserGpu("A100-PCIE-40GB"));
        QCOMPARE(session.selectedGpus(), (QStringList{"mine (scenario)", "A100-PCIE-40GB (scenario)"}));
        QCOMPARE(session.gpu("mine (scenario)")->smCount, 300.0);
        QCOMPARE(session.gpu("A100-PCIE-40GB (scenario)")->smCount, 216.0);
        // Twice the SMs at the same FP32 peak is another GPU to the networks: read as new, as
        // predict --gpu reads the same file; a user's own id is no promise of anything either.
        QVERIFY(session.gpu("A100-PCIE-40GB (scenario)")->efficiencyBasisId.empty());
        QVERIFY(session.gpu("mine (scenario)")->efficiencyBasisId.empty());
        { // a sheet that differs from T4's in board power alone forecasts as T4 does
            nlohmann::json t4 = gpuSpecToJson(*session.gpu("T4"));
            t4["tdp_w"] = t4["tdp_w"].get<double>() + 1;
            const nlohmann::json power = {{"format", "gpuforecast-scenario-1"}, {"model", "gpt2_large"}, {"batch", 1},
                                          {"seq", 128}, {"mode", "inference"}, {"gpus", {"T4", "T4x"}}, {"custom_gpus", {t4}}};
            writeFileAtomically(path.toStdString(), power.dump());
            QVERIFY(!window.openScenario(path)); // T4x is not known
            nlohmann::json ok = power;
            ok["gpus"] = {"T4"};
            writeFileAtomically(path.toStdString(), ok.dump());
            QVERIFY(window.openScenario(path));
            QCOMPARE(session.selectedGpus(), QStringList{"T4 (scenario)"});
            const double renamed = session.forecasts()->front().totalSeconds();
            session.setSelectedGpus({"T4"});
            const double bundled = session.forecasts()->front().totalSeconds();
            QVERIFY2(std::abs(renamed / bundled - 1) < 1e-9, qPrintable(QString("%1 %2").arg(renamed).arg(bundled)));
        }
        // The same sheet again: nothing new.
        const nlohmann::json again = {{"format", "gpuforecast-scenario-1"}, {"model", "gpt2_large"}, {"batch", 1},
                                      {"seq", 128}, {"mode", "inference"}, {"gpus", {"mine"}}, {"custom_gpus", {same}}};
        writeFileAtomically(path.toStdString(), again.dump());
        QVERIFY(window.openScenario(path));
        QCOMPARE(session.selectedGpus(), QStringList{"mine"});
        QVERIFY(!session.gpu("mine (scenario) 2"));
    }

    // Both help options print and exit, with no window and no display: --help-all, which --help
    // lists, opened the window and sat in its event loop.
    void helpOptionsPrintAndExit()
    {
        for (const char* option : {"--help", "--help-all"}) {
            QProcess p;
            QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
            env.remove("QT_QPA_PLATFORM"); // the program must choose offscreen itself
            p.setProcessEnvironment(env);
            p.start(GPUFORECAST_GUI, {option});
            QVERIFY2(p.waitForFinished(20000), option);
            QCOMPARE(p.exitCode(), 0);
            const QString out = QString::fromUtf8(p.readAllStandardOutput());
            QVERIFY2(out.contains("--screenshot") && out.contains("--help-all"), qPrintable(out));
            if (QString(option) == "--help-all") // the Qt options as well
                QVERIFY2(out.contains("-platform"), qPrintable(out));
        }
    }

    void screenshotOptionRendersTheWindow()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath("shot.png");
        QProcess p;
        p.setProcessEnvironment(screenshotEnvironment(dir.path())); // no user GPUs from the machine running the tests
        p.start(GPUFORECAST_GUI, {"--screenshot", out});
        QVERIFY(p.waitForFinished(60000));
        QVERIFY2(cleanExit(p), qPrintable(endOf(p)));
        const QImage image(out);
        QVERIFY(image.width() >= 1400 && image.height() >= 900);
        // --chart brings another tab to the front (a different picture); an unknown one is refused.
        const QString sensitivity = dir.filePath("sensitivity.png");
        p.start(GPUFORECAST_GUI, {"--screenshot", sensitivity, "--chart", "Sensitivity"});
        QVERIFY(p.waitForFinished(60000));
        QVERIFY2(cleanExit(p), qPrintable(endOf(p)));
        QVERIFY(QImage(sensitivity).size() == image.size() && QImage(sensitivity) != image);
        p.start(GPUFORECAST_GUI, {"--screenshot", dir.filePath("none.png"), "--chart", "histogram"});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 2);
        QVERIFY(QString::fromUtf8(p.readAllStandardError()).contains("no chart 'histogram'"));
        QVERIFY(!QFile::exists(dir.filePath("none.png")));
        // The format follows the suffix; mistakes are refused (exit 2, one line) before anything renders.
        const QString jpeg = dir.filePath("shot.jpg");
        p.start(GPUFORECAST_GUI, {"--screenshot", jpeg});
        QVERIFY(p.waitForFinished(60000));
        QVERIFY2(cleanExit(p), qPrintable(endOf(p)));
        QFile f(jpeg);
        QVERIFY(f.open(QIODevice::ReadOnly) && f.read(3) == QByteArray("\xFF\xD8\xFF", 3));
        // A scenario's own sheet is drawn, but not saved among the user's sheets: a picture taken
        // leaves nothing behind.
        {
            ForecastSession session(nullptr, store());
            MainWindow window(&session);
            GpuSpec custom = *session.gpu("A10");
            custom.id = "A10 doubled";
            custom.smCount *= 2;
            QVERIFY(!session.addGpu(custom));
            session.setSelectedGpus({"A10 doubled", "A10"});
            QVERIFY(window.saveScenario(dir.filePath("custom.json")));
        }
        p.start(GPUFORECAST_GUI, {"--screenshot", dir.filePath("custom.png"), dir.filePath("custom.json")});
        QVERIFY(p.waitForFinished(60000));
        const QString customErr = QString::fromUtf8(p.readAllStandardError());
        QVERIFY2(cleanExit(p), qPrintable(customErr));
        QVERIFY(QFile::exists(dir.filePath("custom.png")));
        QVERIFY2(!customErr.contains("note"), qPrintable(customErr)); // a clean scenario has nothing to say
        QDirIterator saved(dir.path(), {"*.json"}, QDir::Files, QDirIterator::Subdirectories);
        QCOMPARE(saved.next(), dir.filePath("custom.json"));
        QVERIFY2(!saved.hasNext(), qPrintable(saved.next()));
        { // what the window says of a file in a message box, a screenshot says on stderr
            QFile scenarioFile(dir.filePath("custom.json"));
            QVERIFY(scenarioFile.open(QIODevice::ReadOnly));
            nlohmann::json noted = nlohmann::json::parse(scenarioFile.readAll().toStdString());
            noted["paralel"] = {{"tensor", 2}};
            writeFileAtomically(dir.filePath("noted.json").toStdString(), noted.dump());
        }
        p.start(GPUFORECAST_GUI, {"--screenshot", dir.filePath("noted.png"), dir.filePath("noted.json")});
        QVERIFY(p.waitForFinished(60000));
        const QString noteErr = QString::fromUtf8(p.readAllStandardError());
        QVERIFY2(cleanExit(p), qPrintable(noteErr));
        QVERIFY2(noteErr.contains("gpuforecast: note: " + dir.filePath("noted.json") + ": ") && noteErr.contains("paralel"),
                 qPrintable(noteErr));
        QVERIFY(QFile::remove(dir.filePath("noted.json")));
        const QList<QPair<QStringList, QString>> mistakes{
            {{"--screenshot", dir.filePath("shot.xyz")}, "name it .png, .jpg"},
            {{"--screenshot", dir.filePath("no/such/dir/shot.png")}, "cannot write the image"},
            {{"--screenshot", out, "a.json", "b.json"}, "one scenario file at most"},
            {{"--screenshot", out, "--chart", "waves", "--chart", "roofline"}, "--chart: given twice"},
            {{"--screenshot", out, dir.filePath("missing.json")}, "missing.json: no such file"},
            {{"--screenshot", out, "--bogus"}, "Unknown option 'bogus'"},
        };
        for (const auto& [args, expected] : mistakes) {
            p.start(GPUFORECAST_GUI, args);
            QVERIFY(p.waitForFinished(60000));
            const QString err = QString::fromUtf8(p.readAllStandardError());
            QVERIFY2(p.exitCode() == 2 && err.contains(expected), qPrintable(args.join(' ') + ": " + err));
        }
    }

    // A scenario named on the command line is what the window shows.
    void scenarioArgumentIsOpened()
    {
        QTemporaryDir dir;
        {
            ForecastSession session(nullptr, store());
            MainWindow window(&session);
            QVERIFY(session.setOptions(GraphOptions{2, 256, false, false}) == std::nullopt);
            QVERIFY(window.saveScenario(dir.filePath("small.json")));
        }
        QProcess p;
        p.setProcessEnvironment(screenshotEnvironment(dir.path()));
        const QString plain = dir.filePath("plain.png"), small = dir.filePath("small.png");
        p.start(GPUFORECAST_GUI, {"--screenshot", plain});
        QVERIFY(p.waitForFinished(60000));
        QVERIFY2(cleanExit(p), qPrintable(endOf(p)));
        p.start(GPUFORECAST_GUI, {"--screenshot", small, dir.filePath("small.json")});
        QVERIFY(p.waitForFinished(60000));
        QVERIFY2(cleanExit(p), qPrintable(endOf(p)));
        QVERIFY(QImage(small).size() == QImage(plain).size() && QImage(small) != QImage(plain));
    }
};

QTEST_MAIN(TestUiScenario)
#include "test_ui_scenario.moc"
