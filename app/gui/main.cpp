// gpuforecast: the desktop explorer. `--screenshot out.png [--chart sensitivity]` renders the default
// window (with that chart tab in front) and exits; it works headless.
#include "autosave.h"
#include "forecast_session.h"
#include "main_window.h"

#include "gpuforecast/error.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QIcon>
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
        if ((a == "--version" || a == "-v" || a == "--help" || a == "-h" || a.startsWith("--screenshot")) &&
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
    parser.addHelpOption();
    parser.addVersionOption();
    QCommandLineOption screenshot("screenshot", "Render the main window to <file> (PNG) and exit.", "file");
    parser.addOption(screenshot);
    QCommandLineOption chart("chart", "With --screenshot: the chart tab in front (breakdown, compare, waves, ...).",
                             "title");
    parser.addOption(chart);
    parser.process(app);

    std::unique_ptr<gpuforecast::ui::ForecastSession> session;
    try {
        session = std::make_unique<gpuforecast::ui::ForecastSession>();
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
    if (parser.isSet(screenshot)) {
        if (parser.isSet(chart) && !window.showChart(parser.value(chart))) {
            std::fprintf(stderr, "gpuforecast: --chart: no chart '%s' (one of: %s)\n", qPrintable(parser.value(chart)),
                         qPrintable(window.chartTitles().join(", ").toLower()));
            return 2;
        }
        window.show();
        QApplication::processEvents();
        window.repaint();
        QApplication::processEvents();
        const QString path = parser.value(screenshot);
        if (!window.grab().save(path, "PNG")) {
            std::fprintf(stderr, "gpuforecast: cannot write %s\n", qPrintable(path));
            return 1;
        }
        return 0;
    }
    // Not for --screenshot either: it neither offers nor keeps anyone's work. The window owns it.
    window.setAutosave(new gpuforecast::ui::Autosave(session.get(), {}, &window));
    window.restoreSettings(); // layout, unsaved work after a crash, last scenario; not for --screenshot
    window.show();
    return QApplication::exec();
}
