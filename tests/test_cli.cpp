// The command-line contract scripts rely on: outputs, exit codes, one-line errors, atomic files.
#include <QtTest>

namespace {

struct Run {
    int code = -1;
    QString out, err;
};

Run cli(const QStringList& args)
{
    QProcess p;
    p.start(GPUFORECAST_CLI, args);
    p.waitForFinished(120000);
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, QString::fromUtf8(p.readAllStandardOutput()),
            QString::fromUtf8(p.readAllStandardError())};
}

const QString kData = GPUFORECAST_TEST_DATA;

} // namespace

class TestCli : public QObject {
    Q_OBJECT
private slots:
    void gpusListsBundledSpecs()
    {
        const Run r = cli({"gpus"});
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.contains("H100-SXM5-80GB"));
        QVERIFY(r.out.contains("MI300X"));
    }

    void kernelsAddsAPredictionPerRow()
    {
        const Run r = cli({"kernels", "--in", kData + "/small_kernels.csv"});
        QCOMPARE(r.code, 0);
        const QStringList lines = r.out.trimmed().split('\n');
        QCOMPARE(lines.size(), 8);
        QVERIFY(lines[0].endsWith(",note,pred_ms"));
        QVERIFY(lines[1].contains("\"attention, scores\"")); // passed-through cells stay quoted
        for (int i = 1; i < lines.size(); ++i) {
            bool ok = false;
            const double ms = lines[i].section(',', -1).toDouble(&ok);
            QVERIFY2(ok && ms > 0 && ms < 1e4, qPrintable(lines[i]));
        }
    }

    void kernelsNeverReadsMeasuredColumns()
    {
        // Changing the measured latency must not change any forecast.
        QTemporaryDir dir;
        QFile in(kData + "/small_kernels.csv");
        QVERIFY(in.open(QIODevice::ReadOnly));
        QString text = QString::fromUtf8(in.readAll());
        text.replace(",0.111,", ",999,").replace(",3.96,", ",0.0001,");
        const QString path = dir.filePath("k.csv");
        QFile out(path);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(text.toUtf8());
        out.close();
        const QStringList a = cli({"kernels", "--in", kData + "/small_kernels.csv"}).out.split('\n');
        const QStringList b = cli({"kernels", "--in", path}).out.split('\n');
        QCOMPARE(a.size(), b.size());
        for (int i = 1; i < a.size(); ++i)
            QCOMPARE(a[i].section(',', -1), b[i].section(',', -1));
    }

    void outFileIsWrittenWhole()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath("p.csv");
        QCOMPARE(cli({"kernels", "--in", kData + "/small_kernels.csv", "--out", out}).code, 0);
        QFile f(out);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(QString::fromUtf8(f.readAll()).trimmed().split('\n').size(), 8);
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files).size(), 1);
    }

    void badInputExitsTwoWithOneLine_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("expected");
        QTest::newRow("unknown command") << QStringList{"frobnicate"} << "unknown command";
        QTest::newRow("missing --in") << QStringList{"kernels"} << "--in: required";
        QTest::newRow("no such file") << QStringList{"kernels", "--in", "/nonexistent.csv"} << "/nonexistent.csv: no such file";
        QTest::newRow("unknown option") << QStringList{"gpus", "--colour"} << "unknown argument '--colour'";
        QTest::newRow("bad csv") << QStringList{"kernels", "--in", kData + "/bad_kernels.csv"} << "bad_kernels.csv: line 3 k";
        QTest::newRow("unknown gpu") << QStringList{"kernels", "--in", kData + "/unknown_gpu.csv"} << "unknown GPU 'H900'";
    }
    void badInputExitsTwoWithOneLine()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        const QString out = dir.filePath("never.csv");
        const Run r = cli(args + (args.value(0) == "kernels" ? QStringList{"--out", out} : QStringList{}));
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(expected), qPrintable(r.err));
        QCOMPARE(r.err.trimmed().count('\n'), 0);
        QVERIFY(!QFile::exists(out)); // no partial output on failure
    }

    void versionPrints()
    {
        const Run r = cli({"--version"});
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.startsWith("gpuforecast-cli "));
    }
};

QTEST_GUILESS_MAIN(TestCli)
#include "test_cli.moc"
