// Unsaved work across a crash: an edit reaches the recovery file, a new start finds it and restores
// the same forecasts, a clean close removes it, and a damaged file is reported and set aside.
#include "autosave.h"
#include "forecast_session.h"
#include "main_window.h"
#include "ui_test_support.h"

#include "gpuforecast/file_io.h"

#include <QAbstractButton>
#include <QApplication>
#include <QMessageBox>
#include <QStandardPaths>
#include <QtTest>

using namespace gpuforecast;
using namespace gpuforecast::ui;
using gpuforecast::ui::test::totals;

namespace {

// One run of the explorer as main() wires it, with its recovery folder somewhere harmless.
struct Explorer {
    Explorer(const UserGpuStore& store, const QString& recoveryFolder)
        : session(nullptr, store), window(&session), autosave(&session, recoveryFolder)
    {
        autosave.setDelay(20); // the tests need not wait the real delay
        window.setAutosave(&autosave);
    }
    ForecastSession session;
    MainWindow window;
    Autosave autosave;
};

// Presses `button` on the next message box, whenever it opens (the close prompt is modal).
void answerNextMessageBox(QMessageBox::StandardButton button)
{
    QTimer::singleShot(10, [button] {
        if (auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget()))
            box->button(button)->click();
        else
            answerNextMessageBox(button);
    });
}

// A recovery file as Autosave writes it: one GPU, no what-if.
QByteArray recoveryFile()
{
    return R"({"format": "gpuforecast-recovery-1", "scenario_path": "",
               "scenario": {"format": "gpuforecast-scenario-1", "model": "gpt2_large", "batch": 4, "seq": 1024,
                            "mode": "inference", "gpus": ["T4"]},
               "what_if": [{"gpu": "T4", "bandwidth": 2, "fp32": 1, "sms": 1, "l2": 1}]})";
}

} // namespace

class TestAutosave : public QObject {
    Q_OBJECT
    test::UserGpuFolder userData_;

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void init() { userData_.clear(); }

    void unsavedWorkSurvivesACrash()
    {
        QTemporaryDir recovery, scenarios;
        const QString scenarioPath = scenarios.filePath("mine.json");
        std::vector<double> before;
        QStringList selected;
        QString recoveryPath;
        {
            Explorer first(userData_.store(), recovery.path());
            recoveryPath = first.autosave.path();
            QVERIFY(!first.autosave.pendingRecovery());
            QVERIFY(first.window.saveScenario(scenarioPath)); // the work belongs to a file...
            QVERIFY(!first.session.setOptions(GraphOptions{8, 512, true, false}).has_value()); // ...then changes
            ParallelLayout tp2;
            tp2.tp = 2;
            QVERIFY(!first.session.setLayout(tp2).has_value());
            first.session.setSelectedGpus({"T4", "H100-SXM5-80GB"});
            first.session.setWhatIf("T4", {2, 1, 1, 1});
            QTRY_VERIFY(QFileInfo::exists(recoveryPath)); // after the delay, without a save
            before = totals(first.session);
            selected = first.session.selectedGpus();
        } // no clean close: the process "crashed"
        QVERIFY(QFileInfo::exists(recoveryPath));
        const QByteArray written = QByteArray::fromStdString(readFile(recoveryPath.toStdString()));

        Explorer next(userData_.store(), recovery.path());
        ForecastSession& session = next.session;
        QVERIFY(next.autosave.pendingRecovery().has_value());
        session.setWhatIf("L4", {4, 1, 1, 1}); // not answered yet: the old work must not be overwritten
        next.autosave.flush();
        QTest::qWait(50);
        QCOMPARE(QByteArray::fromStdString(readFile(recoveryPath.toStdString())), written);

        QVERIFY(next.window.restoreRecovery());
        QVERIFY(next.window.isModified());
        QCOMPARE(next.window.windowTitle(), QString("mine.json* — GPU Forecast"));
        QCOMPARE(session.selectedGpus(), selected);
        QCOMPARE(session.options().batch, 8LL);
        QVERIFY(session.options().training);
        QCOMPARE(session.layout().tp, 2LL);
        QCOMPARE(session.whatIf("T4").bandwidth, 2.0);
        QVERIFY(session.whatIf("L4").isIdentity()); // the recovered work had none there
        QCOMPARE(totals(session), before);
        QVERIFY(!next.autosave.pendingRecovery()); // settled: from now on it is this run's file

        // Saving settles the work; a later edit is kept again; closing (discarding it) removes it.
        QVERIFY(next.window.saveScenario(scenarioPath));
        QVERIFY(!QFileInfo::exists(recoveryPath));
        session.setWhatIf("T4", {});
        QTRY_VERIFY(QFileInfo::exists(recoveryPath));
        answerNextMessageBox(QMessageBox::Discard);
        QVERIFY(next.window.close());
        QVERIFY(!QFileInfo::exists(recoveryPath));
    }

    void noChangeNoFile()
    {
        QTemporaryDir recovery;
        Explorer run(userData_.store(), recovery.path());
        QTest::qWait(100);
        QVERIFY(!QFileInfo::exists(run.autosave.path()));
        QVERIFY(run.window.close()); // nothing modified: no prompt
        QVERIFY(!QFileInfo::exists(run.autosave.path()));
    }

    void damagedRecoveryIsReportedAndSetAside_data()
    {
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<QString>("expected");
        QByteArray valid = recoveryFile();
        QTest::newRow("not JSON") << QByteArray("{\"format\": \"gpuforecast-recov") << "autosave.json";
        QTest::newRow("other format") << QByteArray(valid).replace("recovery-1", "recovery-9") << "format";
        QTest::newRow("bad batch") << QByteArray(valid).replace("\"batch\": 4", "\"batch\": 0") << "scenario: batch";
        QTest::newRow("bad what-if") << QByteArray(valid).replace("\"bandwidth\": 2", "\"bandwidth\": 90")
                                     << "what_if[0].bandwidth";
        QTest::newRow("unknown GPU") << QByteArray(valid).replace("[\"T4\"]", "[\"H900\"]") << "H900";
    }
    void damagedRecoveryIsReportedAndSetAside()
    {
        QFETCH(QByteArray, content);
        QFETCH(QString, expected);
        QTemporaryDir recovery;
        const QString path = recovery.filePath("autosave.json");
        writeFileAtomically(path.toStdString(), content.toStdString());
        Explorer run(userData_.store(), recovery.path());
        QCOMPARE(run.autosave.path(), path);
        QVERIFY(run.autosave.pendingRecovery().has_value());
        const QStringList gpus = run.session.selectedGpus();
        const std::vector<double> before = totals(run.session);
        QString error;
        QVERIFY(!run.window.restoreRecovery(&error));
        QVERIFY2(error.contains(expected) && error.contains("autosave.json"), qPrintable(error));
        QCOMPARE(run.session.selectedGpus(), gpus); // nothing changed
        QCOMPARE(totals(run.session), before);
        QVERIFY(run.session.whatIf("T4").isIdentity());
        QVERIFY(!run.window.isModified());
        QVERIFY(!QFileInfo::exists(path)); // set aside, not offered again
        QVERIFY(QFileInfo::exists(path + ".bad"));
        QVERIFY(!run.autosave.pendingRecovery());
        QVERIFY(!Autosave(&run.session, recovery.path()).pendingRecovery());
    }

    void aRecoveryFileWithoutAScenarioFileIsUntitled()
    {
        QTemporaryDir recovery;
        writeFileAtomically(recovery.filePath("autosave.json").toStdString(), recoveryFile().toStdString());
        Explorer run(userData_.store(), recovery.path());
        QVERIFY(run.window.restoreRecovery());
        QCOMPARE(run.session.selectedGpus(), QStringList{"T4"});
        QCOMPARE(run.window.windowTitle(), QString("Untitled* — GPU Forecast"));
        QCOMPARE(run.session.whatIf("T4").bandwidth, 2.0);
    }

    // main() opens a scenario named on the command line after offering recovered work: restored
    // work is unsaved, so the named file must ask first, and Cancel must keep the recovered work.
    void aScenarioNamedAtStartAsksBeforeReplacingRecoveredWork()
    {
        QTemporaryDir recovery, scenarios;
        writeFileAtomically(recovery.filePath("autosave.json").toStdString(), recoveryFile().toStdString());
        const QString named = scenarios.filePath("named.json");
        writeFileAtomically(named.toStdString(), R"({"format": "gpuforecast-scenario-1", "model": "gpt2_large",
            "batch": 2, "seq": 512, "mode": "inference", "gpus": ["L4"]})");
        Explorer run(userData_.store(), recovery.path());
        QVERIFY(run.window.restoreRecovery());
        QVERIFY(run.window.isModified());
        const QString recoveryPath = run.autosave.path();
        QVERIFY(QFileInfo::exists(recoveryPath));

        answerNextMessageBox(QMessageBox::Cancel);
        QVERIFY(!run.window.openScenarioAskingFirst(named));
        QCOMPARE(run.session.selectedGpus(), QStringList{"T4"});
        QCOMPARE(run.session.whatIf("T4").bandwidth, 2.0);
        QVERIFY(run.window.isModified());
        QVERIFY(QFileInfo::exists(recoveryPath)); // still recoverable after a crash

        answerNextMessageBox(QMessageBox::Discard);
        QVERIFY(run.window.openScenarioAskingFirst(named));
        QCOMPARE(run.session.selectedGpus(), QStringList{"L4"});
        QCOMPARE(run.session.options().batch, 2LL);
        QVERIFY(!run.window.isModified());
        QCOMPARE(run.window.windowTitle(), QString("named.json — GPU Forecast"));
        QVERIFY(!QFileInfo::exists(recoveryPath)); // discarded on purpose: nothing left to offer
    }
};

QTEST_MAIN(TestAutosave)
#include "test_autosave.moc"
