// gpuforecast: the desktop explorer. `gpuforecast [scenario.json] [--chart sensitivity]` opens the
// scenario (else the last one) with that chart tab in front; `--screenshot out.png` renders the
// window instead and exits (PNG, JPEG, ... by the file's suffix); it works headless.
#include "autosave.h"
#include "forecast_session.h"
#include "main_window.h"

#include "gpuforecast/error.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QFileInfo>
#include <QSaveFile>
#include <QIcon>
#include <QImageWriter>
#include <QMessageBox>
#include <QTimer>

#include <cstdio>

#ifndef GPUFORECAST_VERSION
#define GPUFORECAST_VERSION "unknown"
#endif

int main(int argc, char** argv)
{
    // --version, --help and --screenshot need no screen: run them offscreen so they also work over
    // ssh and in CI instead of aborting for want of a display.
    for (int i = 1; i < argc; ++i) {
        const QByteArray a(argv[i]);
        if ((a == "--version" || a == "-v" || a == "--help" || a == "-h" || a == "--help-all" || a.startsWith("--screenshot")) &&
            qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
            qputenv("QT_QPA_PLATFORM", "offscreen");
    }
    QApplication app(argc, argv);
    QApplication::setApplicationName("gpuforecast");
    QApplication::setApplicationDisplayName("GPU Forecast");
    QApplication::setApplicationVersion(GPUFORECAST_VERSION);
    // No organisation name: user data then lives in ~/.local/share/gpuforecast, not .../gpuforecast/gpuforecast.
    QApplication::setDesktopFileName("org.gpuforecast.GpuForecast"); // links windows to the menu entry and icon
    QApplication::setWindowIcon(QIcon::fromTheme("org.gpuforecast.GpuForecast"));

    QCommandLineParser parser;
    parser.setApplicationDescription("Forecast deep-learning performance on GPUs you do not have.");
    const QCommandLineOption help = parser.addHelpOption();
    const QCommandLineOption version = parser.addVersionOption();
    QCommandLineOption screenshot("screenshot", "Render the main window to <file> (PNG, JPEG, ... by suffix) and exit.",
                                  "file");
    parser.addOption(screenshot);
    QCommandLineOption chart("chart", "The chart tab in front (breakdown, compare, waves, ...).", "title");
    parser.addOption(chart);
    parser.addPositionalArgument("scenario", "A scenario file to open (default: the last one).", "[scenario.json]");
    // Mistakes on the command line are refused before anything opens, with status 2 as
    // gpuforecast-cli does (QCommandLineParser::process would exit 1).
    auto usageError = [](const QString& message) {
        std::fprintf(stderr, "gpuforecast: %s\n", qPrintable(message));
        return 2;
    };
    if (!parser.parse(QCoreApplication::arguments()))
        return usageError(parser.errorText());
    if (parser.isSet(help))
        parser.showHelp(0);
    // --help-all (which --help lists: the Qt options too) has no showHelp of its own; process()
    // prints it and exits 0. Left alone it opened the window.
    if (parser.optionNames().contains("help-all"))
        parser.process(QCoreApplication::arguments());
    if (parser.isSet(version))
        parser.showVersion();
    if (parser.positionalArguments().size() > 1)
        return usageError(QString("one scenario file at most, got %1 arguments: %2")
                              .arg(parser.positionalArguments().size())
                              .arg(parser.positionalArguments().join(' ')));
    if (parser.values(chart).size() > 1)
        return usageError("--chart: given twice");
    if (parser.values(screenshot).size() > 1)
        return usageError("--screenshot: given twice");
    if (parser.isSet(screenshot)) {
        const QString suffix = QFileInfo(parser.value(screenshot)).suffix().toLower();
        if (!QImageWriter::supportedImageFormats().contains(suffix.toLatin1()))
            return usageError(QString("--screenshot: %1: name it .png, .jpg or another image format").arg(parser.value(screenshot)));
    }

    std::unique_ptr<gpuforecast::ui::ForecastSession> session;
    try {
        // A screenshot leaves nothing behind: a scenario's custom sheets stay in memory.
        session = std::make_unique<gpuforecast::ui::ForecastSession>(
            nullptr, parser.isSet(screenshot) ? gpuforecast::ui::UserGpuStore::readOnly() : gpuforecast::ui::UserGpuStore());
    } catch (const gpuforecast::ForecastError& e) {
        if (parser.isSet(screenshot)) {
            std::fprintf(stderr, "gpuforecast: %s\n", e.what());
            return 2;
        }
        QMessageBox::critical(nullptr, "GPU Forecast", QString("Cannot start: %1").arg(e.what()));
        return 2;
    }
    gpuforecast::ui::MainWindow window(session.get());
    window.resize(1600, 1000);
    if (parser.isSet(chart) && !window.showChart(parser.value(chart)))
        return usageError(QString("--chart: no chart '%1' (one of: %2)")
                              .arg(parser.value(chart), window.chartTitles().join(", ").toLower()));
    const QString scenario = parser.positionalArguments().value(0);
    if (parser.isSet(screenshot)) {
        window.setRemembersScenarios(false); // a picture taken is not a scenario the user opened
        QString error, notes;
        if (!scenario.isEmpty() && !window.openScenario(scenario, &error, &notes))
            return usageError(error.startsWith(scenario) ? error : scenario + ": " + error);
        if (!notes.isEmpty()) // what the window would have said in a message box, which nobody sees here
            std::fprintf(stderr, "gpuforecast: note: %s\n", qPrintable(notes));
        window.show();
        QApplication::processEvents();
        window.repaint();
        QApplication::processEvents();
        const QString path = parser.value(screenshot);
        // Replaced whole or not at all, as every file the app writes; the format follows the suffix.
        // A path that cannot be opened is the input's fault (2); a failed write or rename the disk's (1).
        QSaveFile file(path);
        const QByteArray format = QFileInfo(path).suffix().toLower().toLatin1();
        if (!file.open(QIODevice::WriteOnly))
            return usageError(path + ": cannot write the image: " + file.errorString());
        if (!window.grab().save(&file, format.constData()) || !file.commit()) {
            std::fprintf(stderr, "gpuforecast: %s: could not write the image%s\n", qPrintable(path),
                         file.error() == QFileDevice::NoError ? "" : qPrintable(": " + file.errorString()));
            return 1;
        }
        return 0;
    }
    // Not for --screenshot either: it neither offers nor keeps anyone's work. The window owns it.
    window.setAutosave(new gpuforecast::ui::Autosave(session.get(), {}, &window));
    window.restoreSettings(); // layout, unsaved work after a crash, last scenario; not for --screenshot
    window.show();
    // After the last scenario and any recovered work: the one named wins, but recovered unsaved
    // work is offered for saving first, as File > Open does.
    if (!scenario.isEmpty())
        window.openScenarioAskingFirst(scenario);
    return QApplication::exec();
}
