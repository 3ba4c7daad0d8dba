// A GPU's words: its id, name, vendor and architecture, set in the explorer. An architect's sketch
// had stayed "My GPU", with the architecture of the sheet it was started from, on every chart.
#include "forecast_session.h"
#include "gpu_identity_dialog.h"
#include "gpu_list_model.h"
#include "main_window.h"
#include "spec_table_model.h"
#include "ui_test_support.h"

#include "gpuforecast/gpu_spec.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QPushButton>
#include <QTimer>
#include <QToolButton>
#include <QUndoStack>
#include <QtTest>

using namespace gpuforecast;
using namespace gpuforecast::ui;

namespace {

QPushButton* buttonNamed(const QWidget& window, const QString& text)
{
    for (auto* b : window.findChildren<QPushButton*>())
        if (b->text() == text)
            return b;
    return nullptr;
}

QStringList filesIn(const QString& folder) { return QDir(folder).entryList({"*.json"}, QDir::Files, QDir::Name); }

} // namespace

class TestUiIdentity : public QObject {
    Q_OBJECT
    test::UserGpuFolder folder_;
    QString gpuFolder() const { return folder_.store().folder(); }

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void init() { folder_.clear(); }

    // The file moves with the id, the comparison keeps its place and the what-if stays; the next
    // start reads the sheet under its new id. Bundled, taken and unreadable ids are refused.
    void renamedGpuKeepsItsPlaceFileAndWhatIf()
    {
        {
            ForecastSession session(nullptr, folder_.store());
            GpuSpec mine = *session.gpu("H100-SXM5-80GB");
            mine.id = "My GPU";
            QVERIFY(!session.addGpu(mine));
            session.setSelectedGpus({"T4", "My GPU", "L4"});
            session.setWhatIf("My GPU", {2, 1, 1, 1});
            const std::vector<double> before = test::totals(session);
            QCOMPARE(filesIn(gpuFolder()), QStringList{"My_GPU.json"});

            QSignalSpy renamed(&session, &ForecastSession::gpuRenamed);
            QVERIFY(!session.renameGpu("My GPU", "Rubin sketch"));
            QCOMPARE(renamed.size(), 1);
            QVERIFY(!session.gpu("My GPU") && session.isUserGpu("Rubin sketch") && !session.isUserGpu("My GPU"));
            QCOMPARE(session.selectedGpus(), (QStringList{"T4", "Rubin sketch", "L4"}));
            QCOMPARE(session.whatIf("Rubin sketch").bandwidth, 2.0);
            QVERIFY(session.whatIf("My GPU").isIdentity());
            QCOMPARE(test::totals(session), before);
            QCOMPARE(filesIn(gpuFolder()), QStringList{"Rubin_sketch.json"});

            const auto refused = [&](const QString& from, const QString& to, const QString& words) {
                const auto why = session.renameGpu(from, to);
                return why && why->contains(words) ? QString() : QString("%1 -> %2: %3").arg(from, to, why.value_or("accepted"));
            };
            for (const QString& problem : {refused("Rubin sketch", "T4", "taken"), refused("Rubin sketch", "", "empty"),
                                           refused("Rubin sketch", "a/b", "slash"), refused("Rubin sketch", " pad", "space"), refused("Rubin sketch", "rubin.json", ".json"),
                                           refused("T4", "My T4", "bundled")})
                QVERIFY2(problem.isEmpty(), qPrintable(problem));
            GpuSpec edited = *session.gpu("T4");
            edited.tdpW = 60;
            QVERIFY(!session.updateGpu(edited));
            QVERIFY2(refused("T4", "My T4", "bundled").isEmpty(), "an edited bundled sheet keeps the bundled id");
            QCOMPARE(renamed.size(), 1);
        }
        ForecastSession again(nullptr, folder_.store());
        QVERIFY(again.gpu("Rubin sketch") && !again.gpu("My GPU"));
        QVERIFY(again.loadProblems().isEmpty());
    }

    // Ids that make the same file name ("A B", "A_B") each keep their own file: the second had
    // overwritten the first, and deleting either deleted both.
    void idsWithTheSameFileNameKeepTheirOwnFiles()
    {
        {
            ForecastSession session(nullptr, folder_.store());
            for (const char* id : {"A B", "A_B"}) {
                GpuSpec g = *session.gpu("T4");
                g.id = id;
                g.tdpW = id[1] == ' ' ? 50 : 60;
                QVERIFY(!session.addGpu(g));
            }
            QCOMPARE(filesIn(gpuFolder()).size(), 2);
        }
        {
            ForecastSession session(nullptr, folder_.store());
            QCOMPARE(session.gpu("A B")->tdpW, 50.0);
            QCOMPARE(session.gpu("A_B")->tdpW, 60.0);
            session.removeGpu("A B");
            QCOMPARE(filesIn(gpuFolder()).size(), 1);
        }
        ForecastSession again(nullptr, folder_.store());
        QVERIFY(!again.gpu("A B") && again.gpu("A_B") && again.gpu("A_B")->tdpW == 60.0);
    }

    // The architecture is what changes a forecast: a Hopper sketch renamed "Rubin" loses the tile
    // family and the FP32 issue share of 128-lane SMs, and the dialog says so before OK.
    void dialogSaysWhatTheArchitectureGivesAndRefusesTakenIds()
    {
        ForecastSession session(nullptr, folder_.store());
        GpuSpec mine = *session.gpu("H100-SXM5-80GB");
        mine.id = "My GPU";
        mine.efficiencyBasisId.clear();
        QVERIFY(!session.addGpu(mine));
        GpuIdentityDialog dialog(&session, "My GPU");
        auto* id = dialog.findChild<QLineEdit*>("gpuId");
        auto* architecture = dialog.findChild<QComboBox*>("gpuArchitecture");
        auto* effect = dialog.findChild<QLabel*>("architectureEffect");
        auto* problem = dialog.findChild<QLabel*>("idProblem");
        auto* ok = dialog.findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok);
        QVERIFY(id && architecture && effect && problem && ok);
        QVERIFY2(effect->text().contains("A100-PCIE-40GB runs with cuBLAS's ampere_sgemm") && effect->text().contains("90%"), qPrintable(effect->text()));
        architecture->setCurrentText("Rubin");
        QVERIFY2(effect->text().contains("names no SM generation"), qPrintable(effect->text()));
        architecture->setCurrentText("Rubin Blackwell");
        QVERIFY2(effect->text().contains("90%"), qPrintable(effect->text()));
        id->setText("H100-SXM5-80GB");
        QVERIFY(!ok->isEnabled());
        QVERIFY2(problem->text().contains("taken"), qPrintable(problem->text()));
        id->setText("Rubin sketch");
        QVERIFY(ok->isEnabled());
        QCOMPARE(dialog.identity(), (GpuIdentity{"Rubin sketch", "NVIDIA H100 SXM5 80GB", "NVIDIA", "Rubin Blackwell"}));

        // L4 borrows the slot-powered T4's efficiency, and its tiles with it, not its family's A100's.
        GpuIdentityDialog l4(&session, "L4");
        const QString onL4 = l4.findChild<QLabel*>("architectureEffect")->text();
        QVERIFY2(onL4.startsWith("Attention GEMMs take the tiles T4 runs: this GPU borrows T4's GEMM efficiency"), qPrintable(onL4));

        GpuIdentityDialog bundled(&session, "T4"); // a bundled id stays; its words may change
        QVERIFY(bundled.findChild<QLineEdit*>("gpuId")->isReadOnly());
    }

    // Through the window: the sheet, its label and the list's current row follow the new id, the
    // forecast follows the architecture, and undo takes both back, in order.
    void windowRenamesAndUndoes()
    {
        ForecastSession session(nullptr, folder_.store());
        MainWindow window(&session);
        window.specModel()->setGpu("H100-SXM5-80GB");
        QPushButton* fresh = buttonNamed(window, "New");
        QVERIFY(fresh);
        fresh->click();
        QVERIFY(session.gpu("My GPU"));
        session.setSelectedGpus({"My GPU"});
        const double hopper = session.forecasts()->front().totalSeconds();
        auto* label = window.findChild<QLabel*>("specSheetLabel");
        QVERIFY(label);
        QCOMPARE(label->text(), QString("Spec sheet: My GPU (NVIDIA Hopper)"));
        auto* list = window.findChild<QListView*>();
        QVERIFY(list);
        QCOMPARE(list->currentIndex().data(GpuListModel::IdRole).toString(), QString("My GPU")); // the added one

        // The dialog is modal: fill it in once it is up, as a user would.
        QTimer::singleShot(0, [] {
            auto* dialog = qobject_cast<GpuIdentityDialog*>(QApplication::activeModalWidget());
            QVERIFY(dialog);
            auto* id = dialog->findChild<QLineEdit*>("gpuId");
            id->selectAll();
            QTest::keyClicks(id, "Rubin sketch");
            dialog->findChild<QComboBox*>("gpuArchitecture")->setCurrentText("Rubin");
            dialog->accept();
        });
        auto* button = window.findChild<QToolButton*>("editIdentity");
        QVERIFY(button);
        button->click();
        QVERIFY(session.gpu("Rubin sketch") && !session.gpu("My GPU"));
        QCOMPARE(session.gpu("Rubin sketch")->architecture, std::string("Rubin"));
        QCOMPARE(session.gpu("Rubin sketch")->name, std::string("Rubin sketch")); // "My GPU" was the id, not a name
        QCOMPARE(window.specModel()->gpuId(), QString("Rubin sketch"));
        QCOMPARE(label->text(), QString("Spec sheet: Rubin sketch (NVIDIA Rubin)"));
        QCOMPARE(list->currentIndex().data(GpuListModel::IdRole).toString(), QString("Rubin sketch"));
        QCOMPARE(session.selectedGpus(), QStringList{"Rubin sketch"});
        const double rubin = session.forecasts()->front().totalSeconds();
        QVERIFY2(rubin < hopper, qPrintable(QString("Rubin %1 s, Hopper %2 s").arg(rubin).arg(hopper)));

        window.undoStack()->undo();
        QVERIFY(session.gpu("My GPU") && !session.gpu("Rubin sketch"));
        QCOMPARE(session.gpu("My GPU")->architecture, std::string("Hopper"));
        QCOMPARE(window.specModel()->gpuId(), QString("My GPU"));
        QCOMPARE(session.forecasts()->front().totalSeconds(), hopper);
        QCOMPARE(filesIn(gpuFolder()), QStringList{"My_GPU.json"});
        window.undoStack()->redo();
        QCOMPARE(session.forecasts()->front().totalSeconds(), rubin);
        QCOMPARE(filesIn(gpuFolder()), QStringList{"Rubin_sketch.json"});
    }
};

QTEST_MAIN(TestUiIdentity)
#include "test_ui_identity.moc"
