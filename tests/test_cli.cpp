// The command-line contract scripts rely on: outputs, exit codes, one-line errors, atomic files.
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QtTest>

#include <algorithm>
#include <cmath>

namespace {

struct Run {
    int code = -1;
    QString out, err;
};

Run cli(const QStringList& args, const QString& workingDirectory = {})
{
    QProcess p;
    p.setWorkingDirectory(workingDirectory);
    p.start(GPUFORECAST_CLI, args);
    p.waitForFinished(120000);
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, QString::fromUtf8(p.readAllStandardOutput()),
            QString::fromUtf8(p.readAllStandardError())};
}

// The CLI with `input` on its standard input.
Run cliReading(const QStringList& args, const QByteArray& input)
{
    QProcess p;
    p.start(GPUFORECAST_CLI, args);
    p.write(input);
    p.closeWriteChannel();
    p.waitForFinished(120000);
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, QString::fromUtf8(p.readAllStandardOutput()),
            QString::fromUtf8(p.readAllStandardError())};
}

const QString kData = GPUFORECAST_TEST_DATA;

// Writes <dir>/data/<name>.csv: 40 timed bmm rows of `gpu`, 16 x m x 512 x m at `flopsPerMs`
// after 20 us, for `train --data <dir>/data`. With a cuBLAS kernel name `train` also records
// the GPU and its tiles in its tile table; without one it records none.
bool writeBmmRows(const QTemporaryDir& dir, const QString& name, const QString& gpu, double flopsPerMs,
                  const QString& kernel = {})
{
    QDir(dir.path()).mkdir("data");
    QFile csv(dir.filePath("data/" + name + ".csv"));
    if (!csv.open(QIODevice::WriteOnly))
        return false;
    csv.write(kernel.isEmpty() ? "op,gpu,b,m,n,k,h,latency_ms\n" : "op,gpu,b,m,n,k,h,latency_ms,kernel,grid_x,grid_y,grid_z\n");
    for (int i = 0; i < 40; ++i) {
        const long long m = 64LL << (i % 6);
        const QString row = QString("bmm,%1,16,%2,512,%2,,%3").arg(gpu).arg(m).arg(0.02 + 2.0 * 16 * m * 512 * m / flopsPerMs);
        csv.write((row + (kernel.isEmpty() ? QString() : "," + kernel + ",1,1,16") + "\n").toUtf8());
    }
    return true;
}

// `kernels --details` on the given CSV text: its output lines, header first (none on failure).
QList<QByteArray> detailsOf(const QByteArray& csv)
{
    QTemporaryDir dir;
    const QString in = dir.filePath("in.csv"), out = dir.filePath("out.csv");
    QFile f(in);
    if (!f.open(QIODevice::WriteOnly) || f.write(csv) != csv.size())
        return {};
    f.close();
    if (cli({"kernels", "--in", in, "--details", "--out", out}).code != 0)
        return {};
    QFile o(out);
    return o.open(QIODevice::ReadOnly) ? o.readAll().trimmed().split('\n') : QList<QByteArray>{};
}

// A bundled GPU's sheet file with one piece of its text replaced, written as `path`; false when
// the sheet no longer holds `from` (the test would then check nothing).
bool writeEditedSheet(const QString& gpu, const QByteArray& from, const QByteArray& to, const QString& path)
{
    QFile in(QString(GPUFORECAST_RESOURCES) + "/gpus/" + gpu + ".json");
    if (!in.open(QIODevice::ReadOnly))
        return false;
    QByteArray text = in.readAll();
    if (!text.contains(from))
        return false;
    text.replace(from, to);
    QFile out(path);
    return out.open(QIODevice::WriteOnly) && out.write(text) == text.size();
}

// A bundled GPU's sheet as JSON (empty when it cannot be read), and a sheet written to `path`.
QJsonObject bundledSheet(const QString& gpu)
{
    QFile in(QString(GPUFORECAST_RESOURCES) + "/gpus/" + gpu + ".json");
    return in.open(QIODevice::ReadOnly) ? QJsonDocument::fromJson(in.readAll()).object() : QJsonObject();
}

bool writeSheet(const QString& path, const QJsonObject& sheet)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(QJsonDocument(sheet).toJson()) > 0;
}

} // namespace

class TestCli : public QObject {
    Q_OBJECT
private slots:
    void helpAndUsage()
    {
        const Run help = cli({"--help"});
        QCOMPARE(help.code, 0);
        QVERIFY(help.out.startsWith("usage: gpuforecast-cli"));
        QVERIFY(help.out.contains("  predict --model") && help.out.contains("  train --data"));
        // A command's own --help shows that command's options, not all seven commands
        const Run predictHelp = cli({"predict", "--help"});
        QCOMPARE(predictHelp.code, 0);
        QVERIFY2(predictHelp.out.contains("--parallel dpN|tpN|ppN_M"), qPrintable(predictHelp.out));
        QVERIFY2(!predictHelp.out.contains("train --data"), qPrintable(predictHelp.out));
        const Run helpPredict = cli({"help", "predict"}); // as git and cargo read it; it printed every command
        QCOMPARE(helpPredict.code, 0);
        QCOMPARE(helpPredict.out, predictHelp.out);
        const Run helpTypo = cli({"help", "prdict"}); // not every command's usage and exit 0
        QCOMPARE(helpTypo.code, 2);
        QVERIFY2(helpTypo.err.contains("unknown command 'prdict' (did you mean predict?)") && helpTypo.out.isEmpty(), qPrintable(helpTypo.err));
        const Run modelsHelp = cli({"models", "-h"});
        QCOMPARE(modelsHelp.code, 0);
        QVERIFY2(modelsHelp.out.contains("gpus | models") && !modelsHelp.out.contains("predict --model"),
                 qPrintable(modelsHelp.out));
        const Run none = cli({}); // a usage error: usage on stderr, nothing on stdout
        QCOMPARE(none.code, 2);
        QVERIFY(none.out.isEmpty() && none.err.startsWith("usage: gpuforecast-cli"));
    }

    // A full disk (or a closed pipe) fails at the flush, after the command succeeded.
    void unwritableStandardOutputFails()
    {
        if (!QFileInfo::exists("/dev/full"))
            QSKIP("no /dev/full here");
        for (const QStringList& args : {QStringList{"gpus"}, QStringList{"kernels", "--in", kData + "/small_kernels.csv"}}) {
            QProcess p;
            p.setStandardOutputFile("/dev/full");
            p.start(GPUFORECAST_CLI, args);
            QVERIFY(p.waitForFinished(120000));
            QCOMPARE(p.exitCode(), 1);
            QVERIFY(QString::fromUtf8(p.readAllStandardError()).contains("cannot write the output"));
        }
        // So does a full disk under --out: the input was fine (1), where a path that cannot be
        // written at all is a bad argument (2).
        const Run full = cli({"kernels", "--in", kData + "/small_kernels.csv", "--out", "/dev/full"});
        QCOMPARE(full.code, 1);
        QVERIFY2(full.err.contains("/dev/full: write failed"), qPrintable(full.err));
        const Run nowhere = cli({"kernels", "--in", kData + "/small_kernels.csv", "--out", "/no/such/dir/p.csv"});
        QCOMPARE(nowhere.code, 2);
        QVERIFY2(nowhere.err.contains("/no/such/dir/p.csv: cannot write"), qPrintable(nowhere.err));
    }

    // A data folder without its models says which folder, not "directory iterator cannot open".
    void modelsWithoutTheirFolderNameIt()
    {
        QTemporaryDir dir;
        QVERIFY(QDir(dir.path()).mkpath("gpus"));
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("GPUFORECAST_DATA_DIR", dir.path());
        p.setProcessEnvironment(env);
        p.start(GPUFORECAST_CLI, {"models"});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 2);
        const QString err = QString::fromUtf8(p.readAllStandardError());
        QVERIFY2(err.contains(dir.filePath("models") + ": no such folder"), qPrintable(err));
    }

    // evaluate --csv: the text table's cells, one per line, in fixed columns.
    void evaluateCsvHasTheTablesCells()
    {
        const QStringList base{"evaluate", "--in", QString(GPUFORECAST_RESOURCES) + "/datasets/neusight/val/vector.csv.gz",
                               "--gpu", "T4"};
        const Run text = cli(base), csv = cli(base + QStringList{"--csv"});
        QCOMPARE(text.code, 0);
        QCOMPARE(csv.code, 0);
        const QStringList lines = csv.out.trimmed().split('\n');
        QCOMPARE(lines.front(), QString("gpu,class,mape_percent,rows"));
        QStringList tableRow; // "T4  <all> (<n>) <elementwise> (<n>) ..." in the text
        for (const QString& line : text.out.split('\n'))
            if (line.startsWith("T4 "))
                tableRow = line.split(QRegularExpression(R"([\s()]+)"), Qt::SkipEmptyParts);
        QVERIFY(tableRow.size() > 3);
        int t4Cells = 0;
        for (const QString& line : lines.mid(1)) {
            const QStringList f = line.split(',');
            QCOMPARE(f.size(), 4);
            if (f[0] != "T4")
                continue;
            bool found = false; // the text's cells: value (2 decimals) and rows, after the GPU
            for (int i = 1; i + 1 < tableRow.size(); i += 2)
                found |= std::abs(tableRow[i].toDouble() - f[2].toDouble()) <= 0.0051 && tableRow[i + 1] == f[3];
            QVERIFY2(found, qPrintable(line + " / " + tableRow.join(' ')));
            ++t4Cells;
        }
        QCOMPARE(t4Cells, (tableRow.size() - 1) / 2);
    }

    void gpusListsBundledSpecs()
    {
        const Run r = cli({"gpus"});
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.contains("H100-SXM5-80GB"));
        QVERIFY(r.out.contains("MI300X"));
    }

    // For scripts: the table's names hold spaces and its numbers are rounded. --json gives each
    // sheet as its file does, with the tiles' source the table shows, and whole parameter counts.
    void gpusAndModelsListAsJson()
    {
        const Run table = cli({"gpus"});
        const Run r = cli({"gpus", "--json"});
        QCOMPARE(r.code, 0);
        const QJsonArray gpus = QJsonDocument::fromJson(r.out.toUtf8()).array();
        QCOMPARE(gpus.size(), table.out.trimmed().split('\n').size() - 1);
        QFile file(QString(GPUFORECAST_RESOURCES) + "/gpus/H100-SXM5-80GB.json");
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QJsonObject shipped = QJsonDocument::fromJson(file.readAll()).object();
        bool found = false;
        for (const auto& g : gpus) {
            const QJsonObject o = g.toObject();
            if (o["id"].toString() != "H100-SXM5-80GB")
                continue;
            found = true;
            for (const char* key : {"name", "architecture", "fp32_gflops", "memory_bandwidth_gbps", "sm_count"})
                QVERIFY2(o[key] == shipped[key], key);
            const QString row = table.out.split('\n').filter(QRegularExpression("^H100-SXM5-80GB ")).value(0);
            QVERIFY2(!o["tiles_from"].toString().isEmpty() && row.endsWith(" " + o["tiles_from"].toString()), qPrintable(row));
        }
        QVERIFY(found);

        const Run models = cli({"models", "--json"});
        QCOMPARE(models.code, 0);
        QJsonObject gpt2;
        for (const auto& m : QJsonDocument::fromJson(models.out.toUtf8()).array())
            if (m.toObject()["id"] == "gpt2_large")
                gpt2 = m.toObject();
        QCOMPARE(gpt2["layers"].toInt(), 36);
        const double params = gpt2["parameters"].toDouble();
        QVERIFY2(params > 7.7e8 && params < 7.8e8 && params == std::floor(params), qPrintable(QString::number(params, 'f', 1)));
        QCOMPARE(gpt2["active_parameters_per_token"].toDouble(), params);
        QVERIFY(QFile::exists(gpt2["config"].toString()));
    }

    // A kernel table's gpu cell may name a sheet file, as predict's --gpu does: the bundled sheet's
    // own file forecasts as its id does, an edit with the GPU's basis forecasts its own numbers, and
    // one read as a new GPU is told so on stderr, as predict would tell it.
    void kernelTablesTakeSheetFiles()
    {
        QTemporaryDir dir;
        const QString same = QString(GPUFORECAST_RESOURCES) + "/gpus/T4.json";
        const QString faster = dir.filePath("T4-2x.json"), asNew = dir.filePath("T4-new.json");
        QVERIFY(writeEditedSheet("T4", "\"memory_bandwidth_gbps\": 320", "\"efficiency_basis\": \"T4\", \"memory_bandwidth_gbps\": 640", faster));
        QVERIFY(writeEditedSheet("T4", "\"id\": \"T4\"", "\"id\": \"T4 new\"", asNew));
        const QString table = dir.filePath("k.csv");
        QFile f(table);
        QVERIFY(f.open(QIODevice::WriteOnly));
        for (const QString& gpu : {QString("T4"), same, faster, asNew})
            f.write(QString("%1softmax,%2,8192,,,,4096,1\n").arg(gpu == "T4" ? "op,gpu,b,m,n,k,h,latency_ms\n" : "", gpu).toUtf8());
        f.close();
        const Run r = cli({"kernels", "--in", table});
        QCOMPARE(r.code, 0);
        const QStringList lines = r.out.trimmed().split('\n');
        QCOMPARE(lines.size(), 5);
        const auto ms = [&](int row) { return lines[row].section(',', -1).toDouble(); };
        QCOMPARE(ms(2), ms(1));
        QVERIFY2(ms(3) < 0.7 * ms(1), qPrintable(lines.join(" | "))); // a memory-bound kernel on twice the bandwidth
        QVERIFY2(r.err.contains(asNew + ": T4 new takes its id from the bundled T4 but names no efficiency basis"), qPrintable(r.err));
        // A sheet that keeps a bundled id with other numbers is told so, as predict tells it.
        QVERIFY2(r.err.contains(faster + ": keeps the id of the bundled T4 but differs from it: ") &&
                     r.err.contains("memory_bandwidth_gbps 640 (320)"),
                 qPrintable(r.err));
        const Run e = cli({"evaluate", "--in", table, "--csv"});
        QCOMPARE(e.code, 0);
        QVERIFY2(e.out.contains(faster + ",softmax,") && e.err.contains(asNew + ": T4 new takes its id from"), qPrintable(e.out + e.err));
        // The table's rows go by GPU, then "all" last, though a sheet path relative to the working
        // folder may sort after it ("all" < "t4-2x.json").
        QVERIFY(QFile::copy(faster, dir.filePath("t4-2x.json")));
        QFile relative(dir.filePath("relative.csv"));
        QVERIFY(relative.open(QIODevice::WriteOnly));
        relative.write("op,gpu,b,m,n,k,h,latency_ms\nsoftmax,T4,8192,,,,4096,1\nsoftmax,t4-2x.json,8192,,,,4096,1\n");
        relative.close();
        const Run byName = cli({"evaluate", "--in", "relative.csv"}, dir.path());
        const QStringList rows = byName.out.trimmed().split('\n');
        QVERIFY2(byName.code == 0 && rows.size() == 5 && rows[3].startsWith("t4-2x.json ") && rows.last().startsWith("all "),
                 qPrintable(byName.out + byName.err));
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

    void kernelsWritesGzipWhenTheNameSaysSo()
    {
        // --in reads .csv.gz, so --out x.csv.gz must write gzip that reads back as the same table.
        QTemporaryDir dir;
        const QString plain = dir.filePath("p.csv"), packed = dir.filePath("p.csv.gz"), again = dir.filePath("a.csv");
        QCOMPARE(cli({"kernels", "--in", kData + "/small_kernels.csv", "--out", plain}).code, 0);
        QCOMPARE(cli({"kernels", "--in", kData + "/small_kernels.csv", "--out", packed}).code, 0);
        QFile gz(packed);
        QVERIFY(gz.open(QIODevice::ReadOnly));
        QCOMPARE(gz.read(2), QByteArray("\x1f\x8b")); // the gzip magic number
        QCOMPARE(cli({"kernels", "--in", packed, "--out", again}).code, 0);
        QFile a(plain), b(again);
        QVERIFY(a.open(QIODevice::ReadOnly) && b.open(QIODevice::ReadOnly));
        QCOMPARE(b.readAll(), a.readAll()); // rerun on its own output: the same forecasts, replaced
    }

    // `--in -` reads a table from a pipe (`zcat t.csv.gz | gpuforecast-cli kernels --in -`), plain or gzip.
    void kernelsReadsStandardInput()
    {
        QTemporaryDir dir;
        const QString packed = dir.filePath("in.csv.gz");
        QFile plainFile(kData + "/small_kernels.csv");
        QVERIFY(plainFile.open(QIODevice::ReadOnly));
        const QByteArray plain = plainFile.readAll();
        QCOMPARE(cli({"kernels", "--in", kData + "/small_kernels.csv", "--out", packed}).code, 0);
        QFile packedFile(packed);
        QVERIFY(packedFile.open(QIODevice::ReadOnly));
        const QByteArray gzip = packedFile.readAll();
        const Run fromFile = cli({"kernels", "--in", kData + "/small_kernels.csv"});
        const Run fromPipe = cliReading({"kernels", "--in", "-"}, plain);
        QCOMPARE(fromPipe.code, 0);
        QCOMPARE(fromPipe.out, fromFile.out);
        const Run fromGzipPipe = cliReading({"kernels", "--in", "-"}, gzip);
        QCOMPARE(fromGzipPipe.code, 0);
        QCOMPARE(fromGzipPipe.out, fromFile.out); // its own output read back: the forecast replaced
        // What follows the last gzip member and is not another is ignored, as zlib does for files.
        const Run padded = cliReading({"kernels", "--in", "-"}, gzip + "\n" + QByteArray(8, '\0'));
        QCOMPARE(padded.code, 0);
        QCOMPARE(padded.out, fromFile.out);
        // "--out -" is standard output, not a file named "-".
        QDir work(dir.path());
        QProcess inDir;
        inDir.setWorkingDirectory(dir.path());
        inDir.start(GPUFORECAST_CLI, {"kernels", "--in", kData + "/small_kernels.csv", "--out", "-"});
        QVERIFY(inDir.waitForFinished(120000));
        QCOMPARE(inDir.exitCode(), 0);
        QCOMPARE(QString::fromUtf8(inDir.readAllStandardOutput()), fromFile.out);
        QVERIFY(!work.exists("-"));
        const Run cut = cliReading({"kernels", "--in", "-"}, gzip.left(gzip.size() / 2));
        QCOMPARE(cut.code, 2);
        QVERIFY2(cut.err.contains("standard input: truncated gzip data"), qPrintable(cut.err));
        const Run empty = cliReading({"evaluate", "--in", "-"}, {});
        QCOMPARE(empty.code, 2);
        QVERIFY2(empty.err.contains("standard input: header: empty file"), qPrintable(empty.err));
    }

    void kernelsReplacesTheForecastColumnsOfItsOwnOutput()
    {
        // Rerun on its own output (to try other weights, say), it must not add a second pred_ms.
        QTemporaryDir dir;
        const QString first = dir.filePath("first.csv"), second = dir.filePath("second.csv");
        QCOMPARE(cli({"kernels", "--in", kData + "/small_kernels.csv", "--details", "--out", first}).code, 0);
        QCOMPARE(cli({"kernels", "--in", first, "--details", "--out", second}).code, 0);
        QFile a(first), b(second);
        QVERIFY(a.open(QIODevice::ReadOnly) && b.open(QIODevice::ReadOnly));
        const QByteArray before = a.readAll(), after = b.readAll();
        QCOMPARE(after, before);
        QCOMPARE(before.left(before.indexOf('\n')).count("pred_ms"), 1);
        // Rerun without --details, the old detail columns go too: they described another forecast.
        const QString plain = dir.filePath("plain.csv");
        QCOMPARE(cli({"kernels", "--in", second, "--out", plain}).code, 0);
        QFile c(plain);
        QVERIFY(c.open(QIODevice::ReadOnly));
        const QByteArray header = c.readLine().trimmed();
        QVERIFY2(header.endsWith(",note,pred_ms") && !header.contains("utilization"), header.constData());
    }

    void detailsNameKernelsHeldToTheirReReads()
    {
        // Softmax rows of 16384 overflow every measured GPU's L1: --details says what sets their time.
        const QList<QByteArray> lines =
            detailsOf("op,gpu,b,m,n,k,h\nsoftmax,V100-PCIE-32GB,65536,,,,16384\nsoftmax,V100-PCIE-32GB,65536,,,,1024\n");
        QCOMPARE(lines.size(), 3);
        QVERIFY2(lines[1].contains(",memory (re-reads),"), lines[1].constData());
        QVERIFY2(lines[2].contains(",memory,"), lines[2].constData()); // the warp kernel keeps its row
    }

    // --details gives the wave count each forecast was priced at: an L4 bmm of one wave of 128x128
    // tiles is priced as two (its tiles on half the SMs came out faster); a softmax at its own.
    void detailsGiveTheWavesEachForecastWasPricedAt()
    {
        const QList<QByteArray> lines = detailsOf("op,gpu,b,m,n,k,h\nbmm,L4,1,384,64,384,\n"
                                                  "softmax,V100-PCIE-32GB,65536,,,,1024\n");
        QCOMPARE(lines.size(), 3);
        const QList<QByteArray> header = lines[0].split(',');
        const auto waves = header.indexOf("waves"), pricedAt = header.indexOf("priced_waves");
        QVERIFY(waves >= 0 && pricedAt == waves + 1);
        const QList<QByteArray> bmm = lines[1].split(','), softmax = lines[2].split(',');
        QVERIFY2(bmm[pricedAt].toDouble() > bmm[waves].toDouble(), lines[1].constData());
        QCOMPARE(softmax[pricedAt], softmax[waves]);
    }

    void detailsNameAPaddedReduction()
    {
        // A reduction of 1 runs as a longer one when that is faster: the tile column says so, and
        // a kernel with a long reduction mentions no n.
        const QList<QByteArray> lines = detailsOf("op,gpu,b,m,n,k,h\nlinear,T4,1,14336,1,4096,\nlinear,T4,1,14336,4096,4096,\n");
        QCOMPARE(lines.size(), 3);
        QVERIFY2(lines[1].contains(" as m=14336 k=4096 n="), lines[1].constData());
        QVERIFY2(!lines[2].contains(" as m="), lines[2].constData());
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

    void trainingOnOneFamilyTrainsWhatItHas()
    {
        // Someone with element-wise measurements only gets element-wise networks, and is told
        // which classes were skipped, instead of a failure.
        QTemporaryDir dir;
        QDir(dir.path()).mkdir("data");
        QFile csv(dir.filePath("data/mine.csv"));
        QVERIFY(csv.open(QIODevice::WriteOnly));
        csv.write("op,gpu,b,m,n,k,h,latency_ms\n");
        for (int i = 0; i < 40; ++i) { // 27 us launch + 12 bytes per element at 1.2 TB/s
            const double rows = std::pow(2.0, 8 + i % 12), h = 1024;
            csv.write(QString("add,A100-PCIE-40GB,%1,,,,%2,%3\n").arg(rows).arg(h).arg(0.027 + 12 * rows * h / 1.2e9).toUtf8());
        }
        csv.close();
        const QString out = dir.filePath("weights");
        const Run r = cli({"train", "--data", dir.filePath("data"), "--out", out, "--epochs", "2", "--ensemble", "1"});
        QCOMPARE(r.code, 0);
        QVERIFY2(r.out.contains(QRegularExpression("bmm +skipped: no measurements")), qPrintable(r.out));
        QVERIFY(r.out.contains(QRegularExpression("softmax +skipped")));
        QVERIFY(QFile::exists(out + "/elementwise.json"));
        QVERIFY(!QFile::exists(out + "/bmm.json"));
        QFile weights(out + "/elementwise.json"); // provenance names the GPU, though it has no GEMM rows
        QVERIFY(weights.open(QIODevice::ReadOnly));
        const QJsonObject provenance = QJsonDocument::fromJson(weights.readAll()).object()["provenance"].toObject();
        QCOMPARE(provenance["trained_on"].toArray(), QJsonArray{"A100-PCIE-40GB"});
        // The command reproduces the weights (it had left out --epochs), each network's most
        // epochs is what --epochs said, and a folder of one's own is not called NeuSight's.
        QCOMPARE(provenance["command"].toString(), QString("gpuforecast-cli train --data <dir> --out <dir> --seed 1 --ensemble 1 --epochs 2"));
        QCOMPARE(provenance["epochs"].toInt(), 2);
        QVERIFY(provenance["epochs_run"].toInt() >= 1 && provenance["epochs_run"].toInt() <= 2);
        QCOMPARE(provenance["dataset"].toString(), QString("data"));
        // Trained again into a folder that holds element-wise weights, with no element-wise rows:
        // the network left there is named.
        QVERIFY(QDir(dir.path()).mkpath("again/data") && QDir(dir.path()).mkpath("again/weights"));
        QVERIFY(QFile::copy(out + "/elementwise.json", dir.filePath("again/weights/elementwise.json")));
        QFile other(dir.filePath("again/data/mine.csv"));
        QVERIFY(other.open(QIODevice::WriteOnly));
        other.write("op,gpu,b,m,n,k,h,latency_ms\n");
        for (int i = 0; i < 40; ++i)
            other.write(QString("softmax,A100-PCIE-40GB,%1,,,,1024,%2\n").arg(256 << (i % 12)).arg(0.03 + 8.0 * (256 << (i % 12)) * 1024 / 1.2e9).toUtf8());
        other.close();
        const Run again = cli({"train", "--data", dir.filePath("again/data"), "--out", dir.filePath("again/weights"), "--epochs", "2",
                               "--ensemble", "1"});
        QVERIFY2(again.code == 0, qPrintable(again.err));
        QVERIFY2(again.out.contains(QRegularExpression("elementwise +skipped: no measurements of this class in .*; the elementwise.json "
                                                       "already in .* is from an earlier training and is kept")),
                 qPrintable(again.out));
        // The result forecasts: element-wise learned, GEMMs on the roofline.
        const Run p = cli({"predict", "--model", "gpt2_large", "--gpu", "T4", "--batch", "1", "--seq", "128",
                           "--weights", out, "--json"});
        QCOMPARE(p.code, 0);
        const QJsonArray ops = QJsonDocument::fromJson(p.out.toUtf8()).object()["ops"].toArray();
        QVERIFY(!ops.isEmpty());
        for (const auto& o : ops) {
            const QJsonObject op = o.toObject();
            if (op["class"].toString() == "linear")
                QVERIFY(!op["learned"].toBool());
            if (op["class"].toString() == "elementwise")
                QVERIFY(op["learned"].toBool());
        }
        // ... and is told so beside the forecast, in the JSON and in the text.
        QCOMPARE(QJsonDocument::fromJson(p.out.toUtf8()).object()["unlearned_classes"].toArray(),
                 (QJsonArray{"bmm", "linear", "softmax", "ln"}));
        const Run text = cli({"predict", "--model", "gpt2_large", "--gpu", "T4", "--seq", "128", "--weights", out});
        QCOMPARE(text.code, 0);
        QVERIFY2(text.out.contains("note: no learned weights for bmm, linear, softmax, ln in " + out +
                                   ": those kernels are priced at their roofline"),
                 qPrintable(text.out));
        // kernels and evaluate say it too, on stderr, for the classes their table has.
        const Run k = cli({"kernels", "--in", kData + "/small_kernels.csv", "--weights", out});
        QCOMPARE(k.code, 0);
        QVERIFY2(k.err.contains("note: no learned weights for bmm, linear, softmax, ln in " + out), qPrintable(k.err));
        const Run e = cli({"evaluate", "--in", csv.fileName(), "--weights", out}); // element-wise rows only
        QCOMPARE(e.code, 0);
        QVERIFY2(!e.err.contains("note"), qPrintable(e.err));
        // The shipped weights have every class.
        const Run shipped = cli({"predict", "--model", "gpt2_large", "--gpu", "T4", "--seq", "128", "--json"});
        QCOMPARE(QJsonDocument::fromJson(shipped.out.toUtf8()).object()["unlearned_classes"].toArray(), QJsonArray{});
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
        QTest::newRow("unknown gpu") << QStringList{"kernels", "--in", kData + "/unknown_gpu.csv"} << "unknown_gpu.csv: line 2 gpu: unknown GPU 'H900'";
        // GPUs are read in the order the file names them: the first bad line is the one reported.
        QTest::newRow("unknown gpus, first line first") << QStringList{"kernels", "--in", kData + "/unknown_gpus_unsorted.csv"}
                                                        << "unknown_gpus_unsorted.csv: line 3 gpu: unknown GPU 'ZZ900'";
        QTest::newRow("missing sheet file") << QStringList{"kernels", "--in", kData + "/missing_sheet.csv"}
                                            << "missing_sheet.csv: line 2 gpu: no-such-folder/my-gpu.json: no such file";
        QTest::newRow("unknown gpu, measured") << QStringList{"evaluate", "--in", kData + "/unknown_gpu_measured.csv"}
                                               << "unknown_gpu_measured.csv: line 3 gpu: unknown GPU 'H900'";
        // A mistyped weights folder used to forecast on the roofline alone, exit 0.
        QTest::newRow("no weights folder") << QStringList{"predict", "--model", "gpt2_large", "--gpu", "T4", "--seq", "128",
                                                          "--weights", "/nonexistent-weights"}
                                           << "/nonexistent-weights: weights: no such folder";
        QTest::newRow("weights file for the folder")
            << QStringList{"evaluate", "--in", kData + "/small_kernels.csv", "--weights", QString(GPUFORECAST_RESOURCES) + "/weights/bmm.json"}
            << "bmm.json: weights: a file, not a folder; give the folder of weights it is in (" + QString(GPUFORECAST_RESOURCES) + "/weights)";
        QTest::newRow("model folder without config.json")
            << QStringList{"predict", "--model", kData, "--gpu", "T4", "--seq", "128"}
            << kData + ": a folder with no config.json in it";
        QTest::newRow("weights folder without weights")
            << QStringList{"evaluate", "--in", kData + "/small_kernels.csv", "--weights", kData} << "no weight files here";
        QTest::newRow("no runs folder") << QStringList{"evaluate-models", "--in", "/nonexistent-runs"}
                                        << "/nonexistent-runs: --in: no such folder";
        QTest::newRow("evaluate an absent GPU") << QStringList{"evaluate", "--in", QString(GPUFORECAST_RESOURCES) + "/datasets/neusight/val/gemm.csv.gz", "--gpu", "ZZ"}
                                                << "--gpu: no measured rows for GPU 'ZZ' (the file has ";
        QTest::newRow("runs folder is a file") << QStringList{"evaluate-models", "--in", kData + "/small_kernels.csv"}
                                               << "small_kernels.csv: --in: is a file; expected a folder";
    }

    // bmm's networks were trained on the measured GPUs' own tiles: without the tile table every
    // bmm had been priced as 128x128, exit 0, nothing said.
    void bmmWeightsWithoutTheirTilesAreRefused()
    {
        QTemporaryDir dir;
        QVERIFY(QFile::copy(QString(GPUFORECAST_RESOURCES) + "/weights/bmm.json", dir.filePath("bmm.json")));
        const Run r = cli({"predict", "--model", "gpt2_large", "--gpu", "T4", "--seq", "128", "--weights", dir.path()});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(QRegularExpression("gemm_tiles.csv.gz: tiles: missing, but bmm.json beside it was trained beside "
                                                   "[0-9]+ tile rows")),
                 qPrintable(r.err));
        // bmm trained on data without kernel names has no tile rows to keep: that folder forecasts.
        QVERIFY(writeBmmRows(dir, "mine", "A100-PCIE-40GB", 15e9));
        const Run trained = cli({"train", "--data", dir.filePath("data"), "--out", dir.filePath("w"), "--epochs", "2", "--ensemble", "1"});
        QVERIFY2(trained.code == 0, qPrintable(trained.err));
        const Run own = cli({"predict", "--model", "gpt2_large", "--gpu", "T4", "--seq", "128", "--weights", dir.filePath("w")});
        QVERIFY2(own.code == 0, qPrintable(own.err));
    }

    // A measured run's GPU is its folder and its sizes are its file name: errors in either name
    // that folder or file, not an option the user never gave.
    void evaluateModelsNamesTheRunItCannotRead()
    {
        QTemporaryDir dir;
        auto writeRun = [&](const QString& gpu, const QString& run) {
            QVERIFY(QDir(dir.path()).mkpath(gpu));
            QFile f(dir.filePath(gpu + "/" + run + ".json"));
            QVERIFY(f.open(QIODevice::WriteOnly) && f.write("{\"e2e_latency\": 12.5}") > 0);
        };
        writeRun("H900", "bert_large-inf-512-8");
        Run r = cli({"evaluate-models", "--in", dir.path()});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(dir.filePath("H900") + ": 'H900' is not a known GPU id"), qPrintable(r.err));
        QVERIFY2(!r.err.contains("--gpu"), qPrintable(r.err));
        QVERIFY(QDir(dir.filePath("H900")).removeRecursively());
        writeRun("T4", "bert_large-inf-999999999-1");
        r = cli({"evaluate-models", "--in", dir.path()});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.startsWith("gpuforecast-cli: " + dir.filePath("T4/bert_large-inf-999999999-1.json") + ": "),
                 qPrintable(r.err));
        QVERIFY2(r.err.contains("seq"), qPrintable(r.err));
        QVERIFY(QFile::remove(dir.filePath("T4/bert_large-inf-999999999-1.json")));
        writeRun("T4", "bert_large-inf-512-8"); // read first, and fine
        writeRun("T4", "nosuchmodel-inf-512-8"); // the model comes from the file name too
        r = cli({"evaluate-models", "--in", dir.path()});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.out.isEmpty(), qPrintable(r.out)); // no table without its last rows and summary
        QVERIFY2(r.err.startsWith("gpuforecast-cli: " + dir.filePath("T4/nosuchmodel-inf-512-8.json") + ": "),
                 qPrintable(r.err));
    }

    // Beside a forecast that somebody timed (bundled model and GPU, same settings), predict gives
    // the measurement, whose run it was and the forecast's error; JSON "measured", null otherwise.
    // A sheet file is not the GPU that was timed, even under its id.
    void predictGivesTheMeasuredRunOfTheSameForecast()
    {
        const QStringList args{"predict", "--model", "gpt2_large", "--gpu", "V100-PCIE-32GB", "--seq", "1024", "--batch", "4"};
        const Run text = cli(args);
        QCOMPARE(text.code, 0);
        QVERIFY2(text.out.contains("(NeuSight, run gpt2_large-inf-1024-4: the forecast is "), qPrintable(text.out));
        // The measured time sits right under the forecast's, not below the operator table.
        const QStringList lines = text.out.split('\n');
        QVERIFY2(lines.value(1).trimmed().startsWith("end to end") && lines.value(2).trimmed().startsWith("measured"),
                 qPrintable(text.out));
        const Run json = cli(args + QStringList{"--json"});
        const QJsonObject measured = QJsonDocument::fromJson(json.out.toUtf8()).object()["measured"].toObject();
        QFile run(QString(GPUFORECAST_RESOURCES) + "/datasets/neusight/e2e/V100-PCIE-32GB/gpt2_large-inf-1024-4.json");
        QVERIFY(run.open(QIODevice::ReadOnly));
        QCOMPARE(measured["ms"].toDouble(), QJsonDocument::fromJson(run.readAll()).object()["e2e_latency"].toDouble());
        QCOMPARE(measured["source"].toString(), QString("NeuSight"));
        const Run other = cli({"predict", "--model", "gpt2_large", "--gpu", "V100-PCIE-32GB", "--seq", "1024", "--batch", "3", "--json"});
        QVERIFY(QJsonDocument::fromJson(other.out.toUtf8()).object()["measured"].isNull());
        QVERIFY(!cli({"predict", "--model", "gpt2_large", "--gpu", "V100-PCIE-32GB", "--seq", "1024", "--batch", "3"}).out.contains("\n  measured "));
        const Run sheet = cli({"predict", "--model", "gpt2_large", "--gpu", QString(GPUFORECAST_RESOURCES) + "/gpus/V100-PCIE-32GB.json",
                               "--seq", "1024", "--batch", "4", "--json"});
        QCOMPARE(sheet.code, 0);
        QVERIFY(QJsonDocument::fromJson(sheet.out.toUtf8()).object()["measured"].isNull());
        const Run pipeline = cli({"predict", "--model", "gpt2_large", "--gpu", "A100-SXM4-40GB", "--seq", "1024", "--batch", "4",
                                  "--mode", "training", "--parallel", "pp4_1"});
        const QStringList pipelineLines = pipeline.out.split('\n');
        QVERIFY2(pipelineLines.value(2).contains("run gpt2_large-train-1024-4-pp4_1"), qPrintable(pipeline.out));
    }

    // A run that timed fewer blocks than its config has (a model cut to fit one card) is forecast
    // with the blocks it timed, and the report says so; before, the whole model was forecast
    // against it. An encoder-decoder's one count cannot say which stack was cut: refused.
    void evaluateModelsForecastsTheLayersARunTimed()
    {
        QTemporaryDir dir;
        QVERIFY(QDir(dir.path()).mkpath("T4"));
        auto writeRun = [&](const QString& run, const QByteArray& body) {
            QFile f(dir.filePath("T4/" + run + ".json"));
            QVERIFY(f.open(QIODevice::WriteOnly) && f.write(body) > 0);
        };
        auto forecastMs = [](const QString& out) { return out.split('\n').value(1).simplified().split(' ').value(3).toDouble(); };
        writeRun("gpt2_large-inf-1024-1", "{\"e2e_latency\": 100, \"num_layer\": 36}");
        const Run whole = cli({"evaluate-models", "--in", dir.path()});
        QCOMPARE(whole.code, 0);
        QVERIFY2(!whole.out.contains("layers)"), qPrintable(whole.out));
        writeRun("gpt2_large-inf-1024-1", "{\"e2e_latency\": 100, \"num_layer\": 12}");
        const Run cut = cli({"evaluate-models", "--in", dir.path()});
        QCOMPARE(cut.code, 0);
        QVERIFY2(cut.out.contains("(12 of 36 layers)"), qPrintable(cut.out));
        const double full = forecastMs(whole.out), third = forecastMs(cut.out);
        QVERIFY2(third > 0.25 * full && third < 0.5 * full, qPrintable(whole.out + cut.out)); // the head stays
        QVERIFY(QFile::remove(dir.filePath("T4/gpt2_large-inf-1024-1.json")));
        writeRun("switchxl4-inf-512-1", "{\"e2e_latency\": 100, \"num_layer\": 4}");
        const Run sw = cli({"evaluate-models", "--in", dir.path()});
        QCOMPARE(sw.code, 2);
        QVERIFY2(sw.err.contains("switchxl4-inf-512-1.json: num_layer: 4 differs"), qPrintable(sw.err));
        QVERIFY(QFile::remove(dir.filePath("T4/switchxl4-inf-512-1.json")));
        // A count no run can have is refused, naming the file and field; 0 and null still mean "not given".
        for (const QByteArray& bad : {QByteArray("99"), QByteArray("-3"), QByteArray("2.5"), QByteArray("\"12\"")}) {
            QFile::remove(dir.filePath("T4/gpt2_large-inf-1024-1.json"));
            writeRun("gpt2_large-inf-1024-1", "{\"e2e_latency\": 100, \"num_layer\": " + bad + "}");
            const Run refused = cli({"evaluate-models", "--in", dir.path()});
            QCOMPARE(refused.code, 2);
            QVERIFY2(refused.err.contains("gpt2_large-inf-1024-1.json: num_layer: "), qPrintable(refused.err));
        }
        for (const QByteArray& unsaid : {QByteArray("0"), QByteArray("null")}) {
            QFile::remove(dir.filePath("T4/gpt2_large-inf-1024-1.json"));
            writeRun("gpt2_large-inf-1024-1", "{\"e2e_latency\": 100, \"num_layer\": " + unsaid + "}");
            const Run run = cli({"evaluate-models", "--in", dir.path()});
            QCOMPARE(run.code, 0);
            QCOMPARE(forecastMs(run.out), full);
        }
    }

    // predict --json says when a GEMM was priced as its tiles in more waves (KernelForecast::
    // pricedWaves): GPT-2's one-token attention product on a V100 is one wave, priced as two.
    void predictJsonSaysWhenPricedAsMoreWaves()
    {
        const Run p = cli({"predict", "--model", "gpt2_large", "--gpu", "V100-PCIE-32GB", "--seq", "1", "--json"});
        QCOMPARE(p.code, 0);
        int repriced = 0;
        for (const auto& o : QJsonDocument::fromJson(p.out.toUtf8()).object()["ops"].toArray()) {
            const QJsonObject op = o.toObject();
            if (op.contains("priced_waves")) {
                ++repriced;
                QVERIFY(op["priced_waves"].toDouble() > op["waves"].toDouble());
            }
        }
        QVERIFY(repriced > 0);
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

    // A Hugging Face model is a folder with its config.json in it: the folder forecasts as the file.
    void modelFolderIsReadAsItsConfig()
    {
        QTemporaryDir dir;
        QVERIFY(QDir(dir.path()).mkpath("gpt2-large"));
        QVERIFY(QFile::copy(QString(GPUFORECAST_RESOURCES) + "/models/gpt2_large.json", dir.filePath("gpt2-large/config.json")));
        const QStringList rest{"--gpu", "T4", "--seq", "128", "--json"};
        const Run folder = cli(QStringList{"predict", "--model", dir.filePath("gpt2-large")} + rest);
        const Run file = cli(QStringList{"predict", "--model", dir.filePath("gpt2-large/config.json")} + rest);
        QVERIFY2(folder.code == 0 && file.code == 0, qPrintable(folder.err + file.err));
        QCOMPARE(folder.out, file.out);
        QCOMPARE(QJsonDocument::fromJson(folder.out.toUtf8()).object()["model"].toString(), QString("gpt2-large"));
        // Named as it lies in the working folder, without a slash, where no bundled model has the name.
        const Run here = cli(QStringList{"predict", "--model", "gpt2-large"} + rest, dir.path());
        QVERIFY2(here.code == 0, qPrintable(here.err));
        QCOMPARE(here.out, file.out);
    }

    // Every format read is text: a NUL byte is named where it is, in a table (where "2\0" had read
    // as 2) and in a JSON file (where it had read as "unexpected end of input").
    void nulBytesAreNamedWhereTheyAre()
    {
        QTemporaryDir dir;
        const auto write = [&](const QString& name, const QByteArray& bytes) {
            QFile f(dir.filePath(name));
            QVERIFY(f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size());
        };
        write("k.csv", QByteArray("op,gpu,b,m,n,k,h\nbmm,T4,1,2\0,3,4,\n", 34));
        Run r = cli({"kernels", "--in", dir.filePath("k.csv")});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(dir.filePath("k.csv") + ": a NUL byte at line 2, column 11: not a text file"), qPrintable(r.err));
        QVERIFY(r.out.isEmpty());
        write("m.json", QByteArray("{\"n_layer\": 2\0}", 15));
        r = cli({"predict", "--model", dir.filePath("m.json"), "--gpu", "T4", "--seq", "8"});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(dir.filePath("m.json") + ": a NUL byte at line 1, column 14"), qPrintable(r.err));
        // UTF-16 (PowerShell's ">", Excel's "Unicode text") is text, in an encoding we do not read.
        const QString header = "op,gpu,b,m,n,k,h\n";
        QByteArray utf16("\xFF\xFE", 2);
        for (const QChar c : header) { // little-endian: each ASCII byte, then a zero
            utf16 += char(c.unicode());
            utf16 += '\0';
        }
        write("u.csv", utf16);
        r = cli({"kernels", "--in", dir.filePath("u.csv")});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(dir.filePath("u.csv") + ": UTF-16 text; save it as UTF-8"), qPrintable(r.err));
    }

    void unwritableOutputSaysWhy()
    {
        QTemporaryDir dir; // --out names a folder: refused, and the message says why
        const Run r = cli({"kernels", "--in", kData + "/small_kernels.csv", "--out", dir.path()});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("is a folder, not a file") && !r.err.contains("Success"), qPrintable(r.err));
        QVERIFY(QFileInfo(dir.path()).isDir());
    }

    // --out naming the input, or a link to it, would replace the measurements with the forecast.
    void outputThatIsTheInputIsRefused()
    {
        QTemporaryDir dir;
        const QString in = dir.filePath("k.csv");
        QVERIFY(QFile::copy(kData + "/small_kernels.csv", in));
        QVERIFY(QFile::link(in, dir.filePath("link.csv")));
        auto contents = [&] {
            QFile f(in);
            return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
        };
        const QByteArray before = contents();
        QVERIFY(!before.isEmpty());
        for (const QString& out : {in, dir.filePath("link.csv"), dir.path() + "/./k.csv"}) {
            const Run r = cli({"kernels", "--in", in, "--out", out});
            QCOMPARE(r.code, 2);
            QVERIFY2(r.err.contains("--out: " + out + " is the --in file"), qPrintable(r.err));
            QCOMPARE(contents(), before);
        }
        QCOMPARE(cli({"kernels", "--in", in, "--out", dir.filePath("p.csv")}).code, 0); // another name is fine
    }

    // train checks where the weights go before it reads minutes' worth of data and trains.
    void trainRefusesAnOutItCannotCreateFirst()
    {
        QTemporaryDir dir;
        QFile file(dir.filePath("afile"));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.close();
        // The data folder does not exist either: the --out error comes first.
        const Run r = cli({"train", "--data", dir.filePath("no-data"), "--out", dir.filePath("afile/w")});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("--out: cannot create the folder " + dir.filePath("afile/w")), qPrintable(r.err));
        QCOMPARE(r.err.trimmed().count('\n'), 0);
    }

    // A training's networks and tile table are one set. A failure while writing them (here a
    // folder where ln.json would go) leaves the folder as it was: it had replaced four networks
    // and kept the old ln.json and tile table, which forecasts then read together without a word.
    // Nor may --out be the --data folder, whose .csv.gz files the next training reads.
    void trainWritesItsWeightsAsOneSet()
    {
        QTemporaryDir dir;
        QVERIFY(QDir(dir.path()).mkpath("data") && QDir(dir.path()).mkpath("w/ln.json"));
        QFile csv(dir.filePath("data/mine.csv"));
        QVERIFY(csv.open(QIODevice::WriteOnly));
        csv.write("op,gpu,b,m,n,k,h,latency_ms\n");
        for (int i = 0; i < 40; ++i) {
            const double rows = std::pow(2.0, 8 + i % 12);
            csv.write(QString("add,A100-PCIE-40GB,%1,,,,1024,%2\n").arg(rows).arg(0.027 + 12 * rows * 1024 / 1.2e9).toUtf8());
            csv.write(QString("ln,A100-PCIE-40GB,%1,,,,1024,%2\n").arg(rows).arg(0.03 + 8 * rows * 1024 / 1.2e9).toUtf8());
        }
        csv.close();
        QFile old(dir.filePath("w/elementwise.json"));
        QVERIFY(old.open(QIODevice::WriteOnly));
        old.write("{\"kept\": true}\n");
        old.close();
        const QStringList args{"train", "--data", dir.filePath("data"), "--out", dir.filePath("w"), "--epochs", "2", "--ensemble", "1"};
        const Run r = cli(args);
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("ln.json: is a folder, not a file"), qPrintable(r.err));
        QVERIFY(old.open(QIODevice::ReadOnly));
        QCOMPARE(old.readAll(), QByteArray("{\"kept\": true}\n")); // not replaced by the new network
        old.close();
        QVERIFY(!QFile::exists(dir.filePath("w/gemm_tiles.csv.gz")));
        QCOMPARE(QDir(dir.filePath("w")).entryList(QDir::Files), QStringList{"elementwise.json"}); // no temporaries left
        QVERIFY(QDir(dir.filePath("w")).rmdir("ln.json"));
        const Run fixed = cli(args);
        QVERIFY2(fixed.code == 0, qPrintable(fixed.err));
        for (const char* name : {"elementwise.json", "ln.json", "gemm_tiles.csv.gz"})
            QVERIFY2(QFile::exists(dir.filePath("w/") + name), name);
        QVERIFY(old.open(QIODevice::ReadOnly));
        QVERIFY(old.readAll().contains("\"provenance\""));

        const Run same = cli({"train", "--data", dir.filePath("data"), "--out", dir.filePath("data/."), "--epochs", "2"});
        QCOMPARE(same.code, 2);
        QVERIFY2(same.err.contains("is the --data folder"), qPrintable(same.err));
        QCOMPARE(QDir(dir.filePath("data")).entryList(QDir::Files), QStringList{"mine.csv"});
    }

    // The temporary-and-rename that makes a write atomic must not replace what --out names when it
    // is not a plain file: a link is written through, a device written into.
    void outputThroughLinksAndDevices()
    {
        QTemporaryDir dir;
        const QString target = dir.filePath("target.csv"), link = dir.filePath("link.csv");
        QFile t(target);
        QVERIFY(t.open(QIODevice::WriteOnly));
        t.close();
        QVERIFY(QFile::link(target, link));
        QCOMPARE(cli({"kernels", "--in", kData + "/small_kernels.csv", "--out", link}).code, 0);
        QVERIFY(QFileInfo(link).isSymLink());
        QVERIFY(QFileInfo(target).size() > 100);
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::System).size(), 2); // no temporary left
        QCOMPARE(cli({"kernels", "--in", kData + "/small_kernels.csv", "--out", "/dev/null"}).code, 0);
        QVERIFY(!QFileInfo("/dev/null").isFile()); // still the device
        // A link to a file not yet there creates the file and stays a link.
        const QString dangling = dir.filePath("dangling.csv"), later = dir.filePath("later.csv");
        QVERIFY(QFile::link(later, dangling));
        QCOMPARE(cli({"kernels", "--in", kData + "/small_kernels.csv", "--out", dangling}).code, 0);
        QVERIFY(QFileInfo(dangling).isSymLink() && QFileInfo(later).size() > 100);
        // A private file stays private when replaced.
        QVERIFY(QFile::setPermissions(target, QFileDevice::ReadOwner | QFileDevice::WriteOwner));
        QCOMPARE(cli({"kernels", "--in", kData + "/small_kernels.csv", "--out", target}).code, 0);
        const auto perms = QFile::permissions(target);
        QVERIFY(perms.testFlags(QFileDevice::ReadOwner | QFileDevice::WriteOwner));
        QVERIFY(!(perms & (QFileDevice::ReadGroup | QFileDevice::ReadOther | QFileDevice::WriteGroup | QFileDevice::WriteOther)));
        // --out /dev/stdout into an appended log adds to it; it must not swap the log for a new file.
        const QString log = dir.filePath("log.txt");
        QFile l(log);
        QVERIFY(l.open(QIODevice::WriteOnly) && l.write("previous line\n") > 0);
        l.close();
        QProcess p;
        p.setStandardOutputFile(log, QIODevice::Append);
        p.start(GPUFORECAST_CLI, {"kernels", "--in", kData + "/small_kernels.csv", "--out", "/dev/stdout"});
        QVERIFY(p.waitForFinished(60000) && p.exitCode() == 0);
        QVERIFY(l.open(QIODevice::ReadOnly));
        const QByteArray logged = l.readAll();
        QVERIFY2(logged.startsWith("previous line\nop,gpu,") && logged.contains("pred_ms"), logged.left(200).constData());
    }

    // An edited copy of a sheet may keep the bundled id; the output says the sheet came from a file.
    void specFileIsNamedInTheOutput()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("h100-edited.json");
        QVERIFY(QFile::copy(QString(GPUFORECAST_RESOURCES) + "/gpus/H100-SXM5-80GB.json", path));
        const QStringList args{"predict", "--model", "gpt2_large", "--gpu", path, "--seq", "512"};
        const Run text = cli(args);
        QCOMPARE(text.code, 0);
        QVERIFY2(text.out.contains("note: spec sheet read from " + path), qPrintable(text.out));
        const Run json = cli(args + QStringList{"--json"});
        QCOMPARE(QJsonDocument::fromJson(json.out.toUtf8()).object()["gpu_sheet"].toString(), path);
        const Run bundled = cli({"predict", "--model", "gpt2_large", "--gpu", "H100-SXM5-80GB", "--seq", "512", "--json"});
        QVERIFY(QJsonDocument::fromJson(bundled.out.toUtf8()).object()["gpu_sheet"].isNull());
    }

    // "An A100 with twice the SMs, FLOP/s and bandwidth" written as a file: naming the A100 as its
    // efficiency basis, it is forecast as that, faster than the A100 and not by more than 2x. Read
    // as a new GPU (no basis), its memory per SM fell below every measured GPU's and the same
    // sheet came out slower than the A100 itself (85.0 against 62.7 ms).
    void sheetWithEfficiencyBasisKeepsItsGpusEfficiency()
    {
        QFile in(QString(GPUFORECAST_RESOURCES) + "/gpus/A100-PCIE-40GB.json");
        QVERIFY(in.open(QIODevice::ReadOnly));
        QJsonObject sheet = QJsonDocument::fromJson(in.readAll()).object();
        sheet["id"] = "A100 doubled";
        for (const char* key : {"sm_count", "fp32_gflops", "fp32_matrix_gflops", "memory_bandwidth_gbps"})
            sheet[key] = 2 * sheet[key].toDouble();
        QTemporaryDir dir;
        auto write = [&](const QString& name, const QJsonObject& j) {
            QFile out(dir.filePath(name));
            const QByteArray text = QJsonDocument(j).toJson();
            return out.open(QIODevice::WriteOnly) && out.write(text) == text.size() ? out.fileName() : QString();
        };
        const QString asNew = write("as-new.json", sheet);
        sheet["efficiency_basis"] = "A100-PCIE-40GB";
        const QString withBasis = write("with-basis.json", sheet);
        QVERIFY(!asNew.isEmpty() && !withBasis.isEmpty());
        auto e2e = [](const QString& gpu, QJsonObject* out = nullptr) {
            const Run r = cli({"predict", "--model", "gpt2_large", "--gpu", gpu, "--seq", "512", "--json"});
            const QJsonObject j = QJsonDocument::fromJson(r.out.toUtf8()).object();
            if (out)
                *out = j;
            return r.code == 0 ? j["e2e_ms"].toDouble() : -1;
        };
        QJsonObject basisJson;
        const double a100 = e2e("A100-PCIE-40GB"), doubled = e2e(withBasis, &basisJson), readAsNew = e2e(asNew);
        QVERIFY2(doubled < a100 && doubled > 0.5 * a100, qPrintable(QString("A100 %1 ms, doubled %2 ms").arg(a100).arg(doubled)));
        QVERIFY2(doubled < readAsNew, qPrintable(QString("with basis %1 ms, as a new GPU %2 ms").arg(doubled).arg(readAsNew)));
        // An unedited copy read as the A100 is the A100: its own tiles are never read, as for the A100.
        QFile again(QString(GPUFORECAST_RESOURCES) + "/gpus/A100-PCIE-40GB.json");
        QVERIFY(again.open(QIODevice::ReadOnly));
        QJsonObject same = QJsonDocument::fromJson(again.readAll()).object();
        same["id"] = "A100 copy";
        same["efficiency_basis"] = "A100-PCIE-40GB";
        QCOMPARE(e2e(write("same.json", same)), a100);
        QCOMPARE(basisJson["efficiency_basis"].toString(), QString("A100-PCIE-40GB"));
        QVERIFY(basisJson["extrapolation"].toArray().isEmpty()); // read as the A100, which was measured
        QVERIFY(basisJson["basis_stretch"].toArray().isEmpty()); // twice the SMs, the same per SM
        // ... but "within" is the A100's word, and a sheet far from it is told it extrapolates.
        QJsonObject starved = sheet;
        starved["memory_bandwidth_gbps"] = 1.0;
        QJsonObject starvedJson;
        QVERIFY(e2e(write("starved.json", starved), &starvedJson) > 0);
        QCOMPARE(starvedJson["coverage"].toString(), QString("within"));
        const QJsonArray stretch = starvedJson["basis_stretch"].toArray();
        QCOMPARE(stretch.size(), 2); // bandwidth per SM, FLOP per byte
        QVERIFY2(stretch[0].toString().startsWith("memory bandwidth per SM 0.00463 GB/s is 3110x below that of A100-PCIE-40GB"),
                 qPrintable(stretch[0].toString()));
        const Run text = cli({"predict", "--model", "gpt2_large", "--gpu", withBasis, "--seq", "512"});
        QVERIFY2(text.out.contains("note: learned efficiency of A100-PCIE-40GB (efficiency_basis)"), qPrintable(text.out));
        // A basis beyond the measured GPUs: the notes say the ratios are the basis's, and that the
        // basis in turn borrows, rather than seem to contradict the basis line above them.
        sheet["efficiency_basis"] = "H100-SXM5-80GB";
        const Run h100Basis = cli({"predict", "--model", "gpt2_large", "--gpu", write("h100-basis.json", sheet), "--seq", "512"});
        QVERIFY2(h100Basis.out.contains("note: beyond the measured GPUs (of H100-SXM5-80GB, the basis), FP32 per SM") &&
                     h100Basis.out.contains("note: H100-SXM5-80GB in turn: GEMM efficiency taken from A100-PCIE-40GB"),
                 qPrintable(h100Basis.out));
        sheet["efficiency_basis"] = "A100";
        const Run bad = cli({"predict", "--model", "gpt2_large", "--gpu", write("bad.json", sheet), "--seq", "512"});
        QCOMPARE(bad.code, 2);
        QVERIFY2(bad.err.contains(dir.filePath("bad.json") + ": efficiency_basis: unknown GPU 'A100'"), qPrintable(bad.err));
    }

    // An NVIDIA generation the tile rule does not know loses the tile family and the issue share;
    // the output says so (an H100 sheet renamed "Rubin" came out 7% faster without a word).
    void sheetWithAnUnknownArchitectureIsFlagged()
    {
        QTemporaryDir dir;
        const QString rubin = dir.filePath("rubin.json"), descended = dir.filePath("rubin-blackwell.json"),
                      none = dir.filePath("no-architecture.json");
        QVERIFY(writeEditedSheet("H100-SXM5-80GB", "\"architecture\": \"Hopper\"", "\"architecture\": \"Rubin\"", rubin));
        QVERIFY(writeEditedSheet("H100-SXM5-80GB", "\"architecture\": \"Hopper\"", "\"architecture\": \"Rubin Blackwell\"", descended));
        // Left out, it loses the same, and was not said at all (9% faster).
        QVERIFY(writeEditedSheet("H100-SXM5-80GB", "\"architecture\": \"Hopper\",", "", none));
        const Run missing = cli({"predict", "--model", "gpt2_large", "--gpu", none, "--seq", "512"});
        QCOMPARE(missing.code, 0);
        QVERIFY2(missing.out.contains("note: the sheet gives no architecture"), qPrintable(missing.out));
        const Run text = cli({"predict", "--model", "gpt2_large", "--gpu", rubin, "--seq", "512"});
        QCOMPARE(text.code, 0);
        QVERIFY2(text.out.contains("note: architecture \"Rubin\" names no SM generation the forecast knows"), qPrintable(text.out));
        for (const auto& [gpu, unknown] : {std::pair{rubin, true}, std::pair{descended, false}, std::pair{none, true},
                                           std::pair{QString("H100-SXM5-80GB"), false}}) {
            const Run r = cli({"predict", "--model", "gpt2_large", "--gpu", gpu, "--seq", "512", "--json"});
            const QJsonObject j = QJsonDocument::fromJson(r.out.toUtf8()).object();
            QVERIFY2(j.contains("architecture_unknown") && j["architecture_unknown"].isNull() != unknown, qPrintable(gpu));
        }
    }

    // A peak typed a digit short is priced as given, but the output says the sheet disagrees with itself.
    void sheetWhosePeakDisagreesWithItsCoresIsFlagged()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("h100-typo.json");
        QVERIFY(writeEditedSheet("H100-SXM5-80GB", "\"fp32_gflops\": 66908,", "\"fp32_gflops\": 6690.8,", path));
        const QStringList args{"predict", "--model", "gpt2_large", "--gpu", path, "--seq", "512"};
        const Run r = cli(args);
        QCOMPARE(r.code, 0);
        QVERIFY2(r.out.contains("note: check the spec sheet: FP32 peak 6690.8 GFLOP/s is 0.1x"), qPrintable(r.out));
        const Run json = cli(args + QStringList{"--json"});
        QVERIFY(QJsonDocument::fromJson(json.out.toUtf8()).object()["sheet_check"].toString().contains("0.1x"));
        const Run bundled = cli({"predict", "--model", "gpt2_large", "--gpu", "H100-SXM5-80GB", "--seq", "512", "--json"});
        QVERIFY(QJsonDocument::fromJson(bundled.out.toUtf8()).object()["sheet_check"].isNull());
        QVERIFY(!cli({"predict", "--model", "gpt2_large", "--gpu", "MI210", "--seq", "512"}).out.contains("check the spec sheet"));
        QVERIFY(QJsonDocument::fromJson(bundled.out.toUtf8()).object()["sheet_unread_fields"].toArray().isEmpty());
    }

    // A sheet file under a bundled GPU's id is forecast as itself, and its output, which carries
    // that id, says so (a script grouping by "gpu" mixed the edited sheet with the real card).
    void sheetKeepingABundledIdSaysHowItDiffers()
    {
        QTemporaryDir dir;
        const QString edited = dir.filePath("a100-edited.json"), copy = dir.filePath("a100-copy.json");
        QVERIFY(writeEditedSheet("A100-PCIE-40GB", "\"sm_count\": 108,", "\"sm_count\": 216,", edited));
        QVERIFY(writeEditedSheet("A100-PCIE-40GB", "\"price_usd\": 10000,", "\"price_usd\": 10000,", copy));
        const Run r = cli({"predict", "--model", "gpt2_large", "--gpu", edited, "--seq", "512"});
        QCOMPARE(r.code, 0);
        QVERIFY2(r.out.contains("note: " + edited + " keeps the id of the bundled A100-PCIE-40GB but differs from it: "
                                                    "sm_count 216 (108); the forecast above is this sheet's"),
                 qPrintable(r.out));
        const auto differences = [&](const QString& sheet) {
            const Run j = cli({"predict", "--model", "gpt2_large", "--gpu", sheet, "--seq", "512", "--json"});
            return QJsonDocument::fromJson(j.out.toUtf8()).object().value("differs_from_bundled");
        };
        QCOMPARE(differences(edited).toArray(), QJsonArray{"sm_count 216 (108)"});
        QVERIFY(differences(copy).isNull()); // the bundled numbers under their own id: nothing to say
        QVERIFY(differences("A100-PCIE-40GB").isNull());
    }

    // A misspelt optional field is named in the forecast's notes, with the field it meant.
    void sheetFieldsNoForecastReadsAreNamed()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("a100-typo.json");
        QVERIFY(writeEditedSheet("A100-PCIE-40GB", "\"l1_cache_kb\": 192,", "\"l1_cache_kbb\": 192,", path));
        const QStringList args{"predict", "--model", "gpt2_large", "--gpu", path, "--seq", "512"};
        const Run r = cli(args);
        QCOMPARE(r.code, 0);
        QVERIFY2(r.out.contains("note: " + path + ": l1_cache_kbb (did you mean l1_cache_kb?) is not a spec field"),
                 qPrintable(r.out));
        const Run json = cli(args + QStringList{"--json"});
        QCOMPARE(QJsonDocument::fromJson(json.out.toUtf8()).object()["sheet_unread_fields"].toArray(),
                 QJsonArray{"l1_cache_kbb"});
    }

    // A kernel priced at its roofline inside the model (one token's projections on an H100) has a
    // utilization of 1 that is a floor; the JSON says which, as the GUI's hover does.
    void predictJsonSaysWhichKernelsAreHeldAtTheirRoofline()
    {
        const Run r = cli({"predict", "--model", "gpt2_large", "--gpu", "H100-SXM5-80GB", "--seq", "1", "--json"});
        QCOMPARE(r.code, 0);
        QStringList held;
        int learned = 0;
        for (const auto& op : QJsonDocument::fromJson(r.out.toUtf8()).object()["ops"].toArray()) {
            const QJsonObject o = op.toObject();
            if (o["held_at_roofline"].toBool()) {
                held << o["name"].toString();
                QCOMPARE(o["utilization"].toDouble(), 1.0);
            } else if (o.contains("held_at_roofline")) {
                ++learned;
            }
        }
        QVERIFY2(held.contains("attn.qkv") && learned > 0, qPrintable(held.join(", ")));
    }

    // A pipeline's first line says its schedule (GPipe and 1F1B hold different activations); a
    // layout without one says none.
    void pipelineHeaderNamesItsSchedule()
    {
        const QStringList base{"predict", "--model", "gpt2_large", "--gpu", "A100-SXM4-80GB", "--seq", "512", "--batch", "8",
                               "--mode", "training"};
        const auto firstLine = [](const Run& r) { return r.out.section('\n', 0, 0); };
        const Run gpipe = cli(base + QStringList{"--pp", "2", "--microbatches", "4", "--schedule", "gpipe"});
        QVERIFY2(firstLine(gpipe).contains("(dp 1, tp 1, pp 2, 4 micro-batches, gpipe)"), qPrintable(gpipe.out));
        const Run byDefault = cli(base + QStringList{"--pp", "2", "--microbatches", "4"});
        QVERIFY2(firstLine(byDefault).contains("4 micro-batches, 1f1b)"), qPrintable(byDefault.out));
        const Run tensor = cli(base + QStringList{"--tp", "2"});
        QVERIFY2(firstLine(tensor).contains("1 micro-batch)"), qPrintable(tensor.out));
        // ZeRO is said with the layout, and its JSON carries the stage.
        const Run sharded = cli(base + QStringList{"--dp", "4", "--zero", "3"});
        QVERIFY2(firstLine(sharded).contains("(dp 4, tp 1, pp 1, 1 micro-batch, ZeRO 3)"), qPrintable(sharded.out));
        const Run json = cli(base + QStringList{"--dp", "4", "--zero", "3", "--json"});
        QCOMPARE(QJsonDocument::fromJson(json.out.toUtf8()).object()["layout"].toObject()["zero"].toInt(), 3);
        // So is checkpointing, on one GPU and on several, with its recomputed kernels in the table.
        for (const QStringList& layout : {QStringList{}, QStringList{"--dp", "4"}}) {
            const Run recomputing = cli(base + layout + QStringList{"--checkpointing", "--fusion"});
            QVERIFY2(firstLine(recomputing).contains("training step, fused, checkpointed, FP32"), qPrintable(recomputing.out));
            QVERIFY2(recomputing.out.contains("(recompute)"), qPrintable(recomputing.out));
        }
        const Run recomputingJson = cli(base + QStringList{"--checkpointing", "--json"});
        QVERIFY(QJsonDocument::fromJson(recomputingJson.out.toUtf8()).object()["checkpointing"].toBool());
    }

    // A measured GPU's forecast says its own bmm tiles are passed over, which is why a sheet of the
    // same chip under another id (A100-SXM4-40GB, reading them) comes out different; the JSON
    // names whose tiles every forecast takes.
    void predictSaysAMeasuredGpusOwnTilesAreNotRead()
    {
        const QStringList base{"predict", "--model", "gpt2_med", "--batch", "1", "--seq", "128", "--gpu"};
        const Run measured = cli(base + QStringList{"A100-PCIE-40GB"});
        QVERIFY2(measured.out.contains("note: A100-PCIE-40GB's own measurements are not read, as no forecast reads "
                                       "measurements of the GPU it forecasts: its efficiencies come from networks "
                                       "trained without them (on P100-PCIE-16GB, P4, T4, V100-PCIE-32GB), and its "
                                       "attention GEMMs (bmm) take P100-PCIE-16GB's tiles"),
                 qPrintable(measured.out));
        const QJsonObject own =
            QJsonDocument::fromJson(cli(base + QStringList{"A100-PCIE-40GB", "--json"}).out.toUtf8()).object();
        QCOMPARE(own["trained_without"].toString(), QString("A100-PCIE-40GB"));
        QVERIFY(own["own_tiles_note"].toString().startsWith("attention GEMMs (bmm) take P100-PCIE-16GB's tiles"));
        const Run sibling = cli(base + QStringList{"A100-SXM4-40GB"});
        QVERIFY2(!sibling.out.contains("own measure"), qPrintable(sibling.out));
        const QJsonObject o =
            QJsonDocument::fromJson(cli(base + QStringList{"A100-SXM4-40GB", "--json"}).out.toUtf8()).object();
        QCOMPARE(o["gemm_tiles_from"].toString(), QString("A100-PCIE-40GB"));
        QVERIFY(o["own_tiles_note"].isNull() && o["trained_without"].isNull());
    }

    // A layout's text keeps what one GPU's gives: the forward / backward / accumulate split and
    // the largest operators, counted as launches on the busiest GPU per step (a stage's 18 of
    // GPT-2 large's 36 blocks, four micro-batches: 72), with shares of the whole step.
    void parallelTextKeepsThePhasesAndLargestOperators()
    {
        const Run r = cli({"predict", "--model", "gpt2_large", "--gpu", "A100-SXM4-80GB", "--seq", "512", "--batch", "8",
                           "--mode", "training", "--pp", "2", "--microbatches", "4"});
        QCOMPARE(r.code, 0);
        static const QRegularExpression compute("\\n  compute +[0-9.]+ ms   \\(forward [0-9.]+, backward [0-9.]+, accumulate [0-9.]+;");
        QVERIFY2(compute.match(r.out).hasMatch(), qPrintable(r.out));
        QVERIFY2(r.out.contains("largest operators"), qPrintable(r.out));
        static const QRegularExpression block("\\n  mlp\\.fc +linear +fw +72 ");
        QVERIFY2(block.match(r.out).hasMatch(), qPrintable(r.out));
        const Run json = cli({"predict", "--model", "gpt2_large", "--gpu", "A100-SXM4-80GB", "--seq", "512", "--batch", "8",
                              "--mode", "training", "--pp", "2", "--microbatches", "4", "--json"});
        for (const auto& op : QJsonDocument::fromJson(json.out.toUtf8()).object()["ops"].toArray())
            if (op.toObject()["name"].toString() == "mlp.fc" && op.toObject()["phase"].toString() == "fw") {
                QCOMPARE(op.toObject()["count"].toDouble() * op.toObject()["repeat"].toDouble(), 72.0); // as the README says
                return;
            }
        QFAIL("no forward mlp.fc in the JSON");
    }

    // A training step's kernels under one node say their part ("grad weight", ...; null where a
    // phase has one kernel), in the JSON and beside the name in the text's largest operators.
    void predictNamesEachKernelsPart()
    {
        const QStringList args{"predict", "--model", "gpt2_large", "--gpu", "T4", "--seq", "128", "--mode", "training"};
        const Run r = cli(args + QStringList{"--json"});
        QCOMPARE(r.code, 0);
        QStringList fc;
        for (const auto& op : QJsonDocument::fromJson(r.out.toUtf8()).object()["ops"].toArray())
            if (op.toObject()["name"].toString() == "mlp.fc")
                fc << op.toObject()["phase"].toString() + "|" +
                          (op.toObject()["part"].isNull() ? QString("null") : op.toObject()["part"].toString());
        fc.sort();
        QCOMPARE(fc, (QStringList{"acc|bias", "acc|weight", "bw|grad input", "bw|grad weight", "fw|null"}));
        const Run text = cli(args);
        QVERIFY2(text.out.contains("mlp.fc (grad weight)") || text.out.contains("mlp.proj (grad weight)"), qPrintable(text.out));
    }

    // The whole model's size beside every forecast, the same on any layout, where memory's
    // `parameters` is the busiest GPU's share; a mixture of experts also says its active share.
    void predictGivesTheWholeModelsParameters()
    {
        double oneGpuShare = 0;
        for (const QStringList& layout : {QStringList{}, QStringList{"--tp", "2"}}) {
            const Run r = cli(QStringList{"predict", "--model", "mixtral_8x7b", "--gpu", "H100-SXM5-80GB", "--seq", "64", "--json"} + layout);
            QCOMPARE(r.code, 0);
            const QJsonObject j = QJsonDocument::fromJson(r.out.toUtf8()).object();
            QCOMPARE(j["model_parameters"].toDouble(), 46702792704.0);
            QCOMPARE(j["active_parameters"].toDouble(), 12879925248.0);
            const double share = j["memory"].toObject()["parameters"].toDouble();
            if (layout.isEmpty())
                oneGpuShare = share;
            else
                QVERIFY2(share < oneGpuShare, qPrintable(QString::number(share)));
            const Run text = cli(QStringList{"predict", "--model", "mixtral_8x7b", "--gpu", "H100-SXM5-80GB", "--seq", "64"} + layout);
            QVERIFY2(text.out.contains("parameters    46.70 B (12.88 B active per token)"), qPrintable(text.out));
        }
        const Run dense = cli({"predict", "--model", "gpt2_large", "--gpu", "T4", "--seq", "64"});
        QVERIFY2(dense.out.contains("parameters      774 M\n"), qPrintable(dense.out));
        const Run models = cli({"models"});
        QVERIFY2(models.out.contains(QRegularExpression("mixtral_8x7b .* 46\\.70B +12\\.88B\\n")), qPrintable(models.out));
    }

    // A forecast says whose measured runs check its model's graph: NeuSight's traces, or the
    // whole-model times we took on an H200 (every LLaMA-style family, Mixtral included, since
    // session 31; before, their forecasts said no run checked them).
    void predictSaysWhetherMeasuredRunsCheckTheGraph()
    {
        const Run mixtral = cli({"predict", "--model", "mixtral_8x7b", "--gpu", "A100-PCIE-40GB", "--seq", "64"});
        QCOMPARE(mixtral.code, 0);
        QVERIFY2(!mixtral.out.contains("graph follows"), qPrintable(mixtral.out));
        for (const auto& [model, by] : {std::pair{"mixtral_8x7b", "ours_h200"}, std::pair{"phi3_mini", "ours_h200"},
                                        std::pair{"bert_large", "neusight"}}) {
            for (const QStringList& layout : {QStringList{}, QStringList{"--parallel", "tp2"}}) {
                const Run r = cli(QStringList{"predict", "--model", model, "--gpu", "H100-SXM5-80GB", "--seq", "64", "--json"} + layout);
                QCOMPARE(r.code, 0);
                const QJsonObject o = QJsonDocument::fromJson(r.out.toUtf8()).object();
                QCOMPARE(o["graph_checked_by"].toString(), QString(by));
                QVERIFY(o["graph_checked_by_measured_runs"].toBool());
            }
        }
    }

    // A config without num_key_value_heads is read as transformers reads it, and the forecast
    // says which value it took, in text and in JSON; a bundled config takes nothing.
    void predictSaysWhichDefaultsTheConfigTook()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("config.json");
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"({"model_type": "qwen2", "num_hidden_layers": 2, "hidden_size": 4096, "num_attention_heads": 64,
                    "intermediate_size": 11008, "vocab_size": 32000})");
        f.close();
        const Run text = cli({"predict", "--model", path, "--gpu", "A100-PCIE-40GB", "--seq", "64"});
        QCOMPARE(text.code, 0);
        QVERIFY2(text.out.contains("note: " + path + " does not give num_key_value_heads; taking 32 (transformers' qwen2 default)"),
                 qPrintable(text.out));
        const Run json = cli({"predict", "--model", path, "--gpu", "A100-PCIE-40GB", "--seq", "64", "--json"});
        const QJsonArray assumed = QJsonDocument::fromJson(json.out.toUtf8()).object()["config_assumed"].toArray();
        QCOMPARE(assumed.size(), 1);
        QCOMPARE(assumed[0].toObject()["field"].toString(), QString("num_key_value_heads"));
        QCOMPARE(assumed[0].toObject()["value"].toInt(), 32);
        const Run bundled = cli({"predict", "--model", "qwen2_7b", "--gpu", "A100-PCIE-40GB", "--seq", "64", "--json"});
        const QJsonObject none = QJsonDocument::fromJson(bundled.out.toUtf8()).object();
        QVERIFY(none.contains("config_assumed"));
        QVERIFY(none["config_assumed"].toArray().isEmpty());
    }

    // A GPU beyond the measured range borrows from a measured card of its kernel family and power
    // feed, else the newest of its feed; one that can only borrow a slot-powered card's efficiency
    // says its GEMMs may be faster.
    void predictBorrowsFromACardOfItsPowerFeed()
    {
        const auto donorNote = [&](const char* gpu, QStringList extra = {}) {
            const Run r = cli(QStringList{"predict", "--model", "gpt2_large", "--gpu", gpu, "--seq", "128", "--json"} + extra);
            return QJsonDocument::fromJson(r.out.toUtf8()).object().value("gemm_efficiency_from").toObject();
        };
        const QJsonObject rtx = donorNote("RTX-4090"), l4 = donorNote("L4"), h100 = donorNote("H100-SXM5-80GB"),
                          mi100 = donorNote("MI100");
        QVERIFY(!rtx.isEmpty() && !l4.isEmpty() && !h100.isEmpty() && !mi100.isEmpty()); // all four borrow
        QCOMPARE(rtx.value("gpu").toString(), QString("A100-PCIE-40GB")); // Ada runs Ampere's kernels
        QVERIFY2(rtx.value("text").toString().contains("the measured GPU of its GEMM kernel family (ampere)"),
                 qPrintable(rtx.value("text").toString()));
        QCOMPARE(h100.value("gpu").toString(), QString("A100-PCIE-40GB"));
        QCOMPARE(l4.value("gpu").toString(), QString("T4")); // 72 W: the newest slot-powered card
        QVERIFY2(l4.value("text").toString().contains("like this one, draws 75 W or less"), qPrintable(l4.value("text").toString()));
        QCOMPARE(mi100.value("gpu").toString(), QString("A100-PCIE-40GB")); // no NVIDIA family: the newest of its feed
        for (const QJsonObject& o : {rtx, l4, h100, mi100})
            QVERIFY(o.contains("caution") && o.value("caution").isNull());

        // Weights trained on a slot-powered card alone leave a 450 W card nothing else to borrow.
        QTemporaryDir dir;
        QVERIFY(writeBmmRows(dir, "t4", "T4", 4e9, "volta_sgemm_64x64_nn"));
        const Run trained = cli({"train", "--data", dir.filePath("data"), "--out", dir.filePath("w"), "--epochs", "2", "--ensemble", "1"});
        QVERIFY2(trained.code == 0, qPrintable(trained.err));
        const QJsonObject onT4 = donorNote("RTX-4090", {"--weights", dir.filePath("w")});
        QCOMPARE(onT4.value("gpu").toString(), QString("T4"));
        QVERIFY2(onT4.value("text").toString().contains("none measured draws more than 75 W"), qPrintable(onT4.value("text").toString()));
        QVERIFY2(onT4.value("caution").toString().contains("T4 is a 70 W card"), qPrintable(onT4.value("caution").toString()));
        const Run text = cli({"predict", "--model", "gpt2_large", "--gpu", "L40S", "--seq", "128", "--weights", dir.filePath("w")});
        QVERIFY2(text.out.contains("GEMMs may run faster than forecast"), qPrintable(text.out));
    }

    // A sheet of an A100 with its 80 GB beyond the measured memory per SM borrows an efficiency;
    // walked down in bandwidth it once borrowed the A100's, then P100's, then V100's, nearest in
    // per-SM rates by turns: Llama 3 8B took 2043 ms at 1500 GB/s and 3178 ms at 1350, then 1849 at
    // 1300. Less bandwidth never forecasts faster now, and the donor stays the A100.
    void aBandwidthWalkKeepsItsEfficiencyDonor()
    {
        QTemporaryDir dir;
        QJsonObject sheet = bundledSheet("A100-SXM4-80GB");
        QVERIFY(!sheet.isEmpty());
        sheet["id"] = "My A100";
        sheet["name"] = "An A100 of my own";
        double previous = 0;
        for (double bw : {2039, 1500, 1450, 1350, 1300, 1100}) {
            sheet["memory_bandwidth_gbps"] = bw;
            const QString path = dir.filePath(QString("a100_%1.json").arg(bw));
            QVERIFY(writeSheet(path, sheet));
            const Run r = cli({"predict", "--model", "llama3_8b", "--seq", "512", "--batch", "4", "--gpu", path, "--json"});
            QCOMPARE(r.code, 0);
            const QJsonObject o = QJsonDocument::fromJson(r.out.toUtf8()).object();
            QCOMPARE(o["gemm_efficiency_from"].toObject()["gpu"].toString(), QString("A100-PCIE-40GB"));
            const double ms = o["e2e_ms"].toDouble();
            QVERIFY2(ms >= previous, qPrintable(QString("%1 GB/s: %2 ms, faster than %3 ms with more").arg(bw).arg(ms).arg(previous)));
            previous = ms;
        }
    }

    // A sheet file that is no measured GPU, names no basis and needs no donor is read as new: said.
    void predictSaysWhenASheetIsReadAsANewGpu()
    {
        QTemporaryDir dir;
        QFile bundled(QString(GPUFORECAST_RESOURCES) + "/gpus/A100-PCIE-40GB.json");
        QVERIFY(bundled.open(QIODevice::ReadOnly));
        QJsonObject sheet = QJsonDocument::fromJson(bundled.readAll()).object();
        sheet["id"] = "A100 x2";
        sheet["name"] = "A card of my own"; // nothing says which bundled sheet it came from
        for (const char* field : {"sm_count", "fp32_gflops", "fp32_matrix_gflops", "memory_bandwidth_gbps"})
            sheet[field] = 2 * sheet[field].toDouble();
        QFile f(dir.filePath("twice.json"));
        QVERIFY(f.open(QIODevice::WriteOnly) && f.write(QJsonDocument(sheet).toJson()) > 0);
        f.close();
        const QStringList base{"predict", "--model", "gpt2_large", "--seq", "128", "--gpu"};
        const Run text = cli(base + QStringList{f.fileName()});
        QCOMPARE(text.code, 0);
        QVERIFY2(text.out.contains("note: A100 x2 is read as a new GPU") && text.out.contains("\"efficiency_basis\": \"A100-PCIE-40GB\""),
                 qPrintable(text.out));
        const Run json = cli(base + QStringList{f.fileName(), "--json"});
        QVERIFY(QJsonDocument::fromJson(json.out.toUtf8()).object().value("read_as_new_gpu").toString().startsWith("A100 x2 is read"));
        const Run measured = cli(base + QStringList{"A100-PCIE-40GB", "--json"}); // bundled, trained on: null
        const QJsonObject m = QJsonDocument::fromJson(measured.out.toUtf8()).object();
        QVERIFY(m.contains("read_as_new_gpu") && m.value("read_as_new_gpu").isNull());

        // A sheet that keeps a bundled sheet's name, or extends its id, was edited from it: that
        // sheet is the basis to write, said even beyond the measured range, where an A100 sheet with
        // 0.6x the bandwidth borrowed a V100's efficiency and came out faster than the A100.
        QFile sxm(QString(GPUFORECAST_RESOURCES) + "/gpus/A100-SXM4-80GB.json");
        QVERIFY(sxm.open(QIODevice::ReadOnly));
        QJsonObject slower = QJsonDocument::fromJson(sxm.readAll()).object();
        slower["id"] = "my-a100";
        slower["memory_bandwidth_gbps"] = 0.6 * slower["memory_bandwidth_gbps"].toDouble();
        QJsonObject renamed = slower;
        renamed["id"] = "A100-SXM4-80GB-slow";
        renamed["name"] = "slow";
        for (const auto& [edited, says] : {std::pair{slower, QString("my-a100 has the name of the bundled A100-SXM4-80GB")},
                                           std::pair{renamed, QString("A100-SXM4-80GB-slow takes its id from the bundled A100-SXM4-80GB")}}) {
            QFile e(dir.filePath(edited["id"].toString() + ".json"));
            QVERIFY(e.open(QIODevice::WriteOnly) && e.write(QJsonDocument(edited).toJson()) > 0);
            e.close();
            const Run r = cli(base + QStringList{e.fileName(), "--json"});
            QCOMPARE(r.code, 0);
            const QString note = QJsonDocument::fromJson(r.out.toUtf8()).object().value("read_as_new_gpu").toString();
            QVERIFY2(note.startsWith(says) && note.endsWith("add \"efficiency_basis\": \"A100-SXM4-80GB\" to keep that GPU's learned efficiency"),
                     qPrintable(note));
        }
    }

    // A GPU whose GEMMs are priced below its sheet's FP32 peak (128-lane SMs) says so, in text
    // and JSON; one priced at its peak says nothing and reports share 1.
    void predictSaysWhenGemmsArePricedBelowThePeak()
    {
        const QStringList base{"predict", "--model", "gpt2_large", "--seq", "128", "--gpu"};
        const Run hopper = cli(base + QStringList{"H100-SXM5-80GB"});
        QCOMPARE(hopper.code, 0);
        QVERIFY2(hopper.out.contains("note: FP32 GEMMs are priced at 90% of the sheet's FP32 peak"), qPrintable(hopper.out));
        const Run hopperJson = cli(base + QStringList{"H100-SXM5-80GB", "--json"});
        QCOMPARE(QJsonDocument::fromJson(hopperJson.out.toUtf8()).object().value("fp32_gemm_issue_share").toDouble(), 0.9);
        const Run a100 = cli(base + QStringList{"A100-PCIE-40GB"});
        QVERIFY2(!a100.out.contains("FP32 GEMMs are priced at"), qPrintable(a100.out));
        const Run a100Json = cli(base + QStringList{"A100-PCIE-40GB", "--json"});
        QCOMPARE(QJsonDocument::fromJson(a100Json.out.toUtf8()).object().value("fp32_gemm_issue_share").toDouble(), 1.0);
    }

    // Every layout's JSON has the same keys, and they mean the same: the busiest GPU's step, whose
    // ops add up to fw_ms + bw_ms, and with communication and bubble to e2e_ms. A pipeline's
    // fw_ms was one micro-batch through every layer, a quarter of its step.
    void predictJsonHasOneShapeForEveryLayout()
    {
        const QStringList base{"predict", "--model", "gpt2_large", "--gpu", "H100-SXM5-80GB", "--batch", "8", "--seq", "512",
                               "--mode", "training", "--json"};
        QStringList keys;
        for (const QStringList& layout : {QStringList{}, QStringList{"--parallel", "pp4_8"}, QStringList{"--parallel", "tp4"},
                                          QStringList{"--parallel", "dp4"}, QStringList{"--dp", "2", "--pp", "2", "--microbatches", "4"}}) {
            const Run r = cli(base + layout);
            QCOMPARE(r.code, 0);
            const QJsonObject j = QJsonDocument::fromJson(r.out.toUtf8()).object();
            if (keys.isEmpty())
                keys = j.keys();
            QCOMPARE(j.keys(), keys);
            const double e2e = j["e2e_ms"].toDouble(), compute = j["fw_ms"].toDouble() + j["bw_ms"].toDouble();
            double ops = 0;
            for (const auto& op : j["ops"].toArray()) {
                const QJsonObject o = op.toObject();
                const double ms = o["fw_ms"].toDouble() + o["bw_ms"].toDouble();
                ops += ms; // each op's time is its launches per step at its kernel time
                QVERIFY(std::abs(o["count"].toDouble() * o["repeat"].toDouble() * o["kernel_ms"].toDouble() - ms) <= 1e-9 * (1 + ms));
            }
            QVERIFY2(std::abs(ops - compute) <= 1e-9 * e2e, qPrintable(layout.join(' ')));
            QVERIFY(std::abs(j["compute_ms"].toDouble() - compute) <= 1e-9 * e2e);
            QVERIFY(std::abs(compute + j["comm_ms"].toDouble() + j["bubble_ms"].toDouble() - e2e) <= 1e-9 * e2e);
            const double stages = j["stage_ms"].toArray().size();
            QCOMPARE(stages, layout.contains("pp4_8") ? 4.0 : layout.contains("--pp") ? 2.0 : 1.0);
            const QJsonValue parameters = j["memory"].toObject()["parameters"];
            QCOMPARE(parameters.toDouble(), std::round(parameters.toDouble())); // a count, never 193192404.25
        }
    }

    void predictJsonFollowsTheContract()
    {
        const Run r = cli({"predict", "--model", "gpt2_large", "--gpu", "H100-SXM5-80GB", "--batch", "4", "--seq", "1024",
                           "--json"});
        QCOMPARE(r.code, 0);
        const QJsonObject j = QJsonDocument::fromJson(r.out.toUtf8()).object();
        for (const char* key : {"e2e_ms", "fw_ms", "bw_ms", "comm_ms", "ops", "memory"})
            QVERIFY2(j.contains(key), key);
        QVERIFY(j["e2e_ms"].toDouble() > 0);
        QCOMPARE(j["bw_ms"].toDouble(), 0.0);
        double sum = 0;
        for (const auto& op : j["ops"].toArray()) {
            const QJsonObject o = op.toObject();
            QVERIFY(o.contains("name") && o.contains("class") && o.contains("fw_ms") && o.contains("bw_ms"));
            sum += o["fw_ms"].toDouble() + o["bw_ms"].toDouble();
        }
        QVERIFY(std::abs(sum - j["e2e_ms"].toDouble()) < 1e-6 * j["e2e_ms"].toDouble());
        QVERIFY(j["memory"].toObject()["fits"].toBool());
        // H100 has 2.5x the FP32 per SM of any measured GPU: the forecast says it extrapolates.
        const QJsonArray notes = j["extrapolation"].toArray();
        QVERIFY(std::any_of(notes.begin(), notes.end(), [](const QJsonValue& n) {
            return n.toObject()["quantity"].toString() == "FP32 per SM" && n.toObject()["factor"].toDouble() > 2;
        }));
        QCOMPARE(j["coverage"].toString(), QString("beyond")); // the comparison CSV's word
        const Run text = cli({"predict", "--model", "gpt2_large", "--gpu", "H100-SXM5-80GB", "--seq", "1024"});
        QVERIFY2(text.out.contains("note: beyond the measured GPUs, FP32 per SM"), qPrintable(text.out));
        // With weights that trained on P4 and hold no networks without it (a folder `train` writes),
        // P4 lies outside the others' bandwidth per SM yet keeps its own learned efficiency: near the
        // edge. The shipped weights forecast P4 by networks trained without it, beyond the other four,
        // so it borrows T4's.
        QTemporaryDir dir;
        const QDir shipped(QString(GPUFORECAST_RESOURCES) + "/weights");
        for (const QString& f : shipped.entryList(QDir::Files))
            QVERIFY(QFile::copy(shipped.filePath(f), dir.filePath(f)));
        const Run p4 = cli({"predict", "--model", "gpt2_large", "--gpu", "P4", "--seq", "128", "--weights", dir.path()});
        QVERIFY2(p4.out.contains("note: near the edge of the measured GPUs, memory bandwidth per SM") &&
                     !p4.out.contains("beyond the measured GPUs"),
                 qPrintable(p4.out));
        // Those networks read P4's own rows, and the output says so (it had said, of the tiles, that
        // "no forecast reads measurements of the GPU it forecasts").
        QVERIFY2(p4.out.contains("note: P4's efficiencies come from networks trained on its own measurements") &&
                     !p4.out.contains("no forecast reads measurements"),
                 qPrintable(p4.out));
        const Run heldOutP4 = cli({"predict", "--model", "gpt2_large", "--gpu", "P4", "--seq", "128", "--json"});
        const QJsonObject p4Own = QJsonDocument::fromJson(heldOutP4.out.toUtf8()).object();
        QCOMPARE(p4Own["coverage"].toString(), QString("beyond"));
        QCOMPARE(p4Own["trained_without"].toString(), QString("P4"));
        QCOMPARE(p4Own["gemm_efficiency_from"].toObject()["gpu"].toString(), QString("T4"));
        // A100-PCIE-40GB sits among the other measured GPUs (it is never compared with itself).
        const Run a100 = cli({"predict", "--model", "gpt2_large", "--gpu", "A100-PCIE-40GB", "--seq", "1024", "--json"});
        QVERIFY(QJsonDocument::fromJson(a100.out.toUtf8()).object()["extrapolation"].toArray().isEmpty());
        QCOMPARE(QJsonDocument::fromJson(a100.out.toUtf8()).object()["coverage"].toString(), QString("within"));
        QCOMPARE(QJsonDocument::fromJson(a100.out.toUtf8()).object()["trained_without"].toString(), QString("A100-PCIE-40GB"));
        const Run p4Json = cli({"predict", "--model", "gpt2_large", "--gpu", "P4", "--seq", "128", "--json", "--weights", dir.path()});
        QCOMPARE(QJsonDocument::fromJson(p4Json.out.toUtf8()).object()["coverage"].toString(), QString("near_edge"));
        QVERIFY(QJsonDocument::fromJson(p4Json.out.toUtf8()).object()["trained_without"].isNull());
    }

    void trainingAddsBackward()
    {
        const Run r = cli({"predict", "--model", "bert_large", "--gpu", "V100-PCIE-32GB", "--batch", "2", "--seq", "512",
                           "--mode", "training", "--json"});
        QCOMPARE(r.code, 0);
        const QJsonObject j = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QVERIFY(j["bw_ms"].toDouble() > j["fw_ms"].toDouble()); // backward costs about twice forward
        QVERIFY(j["memory"].toObject()["optimizer_gb"].toDouble() > 0);
    }

    void fusedChainsKeepFirstAndLastMemberInTheTable()
    {
        // GPT-2's scale + causal mask + softmax is one fused kernel, named after all four nodes.
        const Run r = cli({"predict", "--model", "gpt2_large", "--gpu", "A100-PCIE-40GB", "--batch", "1", "--seq",
                           "1024", "--fusion"});
        QCOMPARE(r.code, 0);
        QVERIFY2(r.out.contains(QRegularExpression(R"(\n  attn\.scale\+\.\.\.\+attn\.softmax +softmax +fw)")),
                 qPrintable(r.out));
    }

    void hugeModelDoesNotFit()
    {
        const Run r = cli({"predict", "--model", "gpt3_175b", "--gpu", "A10", "--batch", "1", "--seq", "2048"});
        QCOMPARE(r.code, 0);
        QVERIFY2(r.out.contains("DOES NOT FIT"), qPrintable(r.out));
        // Split over a server, the text says whether the busiest GPU's share fits, as the JSON does.
        const QStringList tp{"predict", "--model", "mixtral_8x7b", "--gpu", "H100-SXM5-80GB", "--seq", "512", "--parallel"};
        const Run two = cli(tp + QStringList{"tp2"}), four = cli(tp + QStringList{"tp4"});
        QVERIFY2(two.out.contains("GiB per GPU (the busiest): DOES NOT FIT"), qPrintable(two.out));
        QVERIFY2(four.out.contains("GiB per GPU (the busiest): fits"), qPrintable(four.out));
    }

    // A sheet's "80 GB" is sold in binary units: 80 GiB, 85.9e9 bytes. GPT-2 XL training at 8 x 512
    // needs 85.1e9 bytes, which fits; judged against 80e9 bytes it was called too large.
    void memoryFitReadsTheSheetInGiB()
    {
        const QStringList args{"predict", "--model", "gpt2_xl", "--gpu", "H100-SXM5-80GB", "--batch", "8", "--seq", "512",
                               "--mode", "training"};
        const Run text = cli(args);
        QCOMPARE(text.code, 0);
        // With under 5% spare, where the CUDA context and the allocator's slack must fit too, it says so.
        QVERIFY2(text.out.contains(QRegularExpression(R"(memory +79\.\d\d GiB of 80 GiB: fits, tightly: 0\.\d% spare)")),
                 qPrintable(text.out));
        const QJsonObject memory = QJsonDocument::fromJson(cli(args + QStringList{"--json"}).out.toUtf8()).object()["memory"].toObject();
        QVERIFY(memory["fits"].toBool() && memory["fits_tightly"].toBool());
        // Half the batch fits with room to spare, and is not called tight.
        const QStringList half{"predict", "--model", "gpt2_xl", "--gpu", "H100-SXM5-80GB", "--batch", "4", "--seq", "512",
                               "--mode", "training"};
        const Run roomy = cli(half);
        QVERIFY2(roomy.out.contains(QRegularExpression(R"(GiB of 80 GiB: fits\n)")), qPrintable(roomy.out));
        QVERIFY(!QJsonDocument::fromJson(cli(half + QStringList{"--json"}).out.toUtf8()).object()["memory"].toObject()["fits_tightly"].toBool());
        QVERIFY2(memory["total_gb"].toDouble() > 80, qPrintable(QString::number(memory["total_gb"].toDouble())));
        QCOMPARE(memory["gpu_gb"].toDouble(), 80 * 1.073741824); // decimal GB, as the key says
        // Twice the batch does not fit, and the text says so.
        QVERIFY(cli({"predict", "--model", "gpt2_xl", "--gpu", "H100-SXM5-80GB", "--batch", "16", "--seq", "512", "--mode",
                     "training"}).out.contains("GiB of 80 GiB: DOES NOT FIT"));
    }

    void badPredictArguments_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("expected");
        const QStringList base{"predict", "--model", "gpt2_large", "--gpu", "H100-SXM5-80GB", "--seq", "1024"};
        QTest::newRow("batch zero") << base + QStringList{"--batch", "0"} << "--batch: expected a value in";
        QTest::newRow("mode abbreviated") << base + QStringList{"--mode", "train"}
                                          << "--mode: expected inference or training, got 'train' (did you mean training?)";
        QTest::newRow("batch not a number") << base + QStringList{"--batch", "four"} << "--batch: expected a whole number";
        QTest::newRow("batch with a trailing blank") << base + QStringList{"--batch", "4 "} << "--batch: expected a whole number";
        QTest::newRow("batch with a leading blank") << base + QStringList{"--batch", " 4"} << "--batch: expected a whole number";
        QTest::newRow("unknown model") << QStringList{"predict", "--model", "gpt9", "--gpu", "T4", "--seq", "8"}
                                       << "unknown model 'gpt9'";
        QTest::newRow("unknown gpu") << QStringList{"predict", "--model", "gpt2_large", "--gpu", "H900", "--seq", "8"}
                                     << "gpuforecast-cli predict: --gpu: unknown GPU 'H900'";
        QTest::newRow("bad mode") << base + QStringList{"--mode", "serving"} << "--mode: expected inference or training";
        QTest::newRow("missing seq") << QStringList{"predict", "--model", "gpt2_large", "--gpu", "T4"} << "predict: --seq: required";
        QTest::newRow("missing everything") << QStringList{"predict"} << "predict: --model, --gpu, --seq: required";
        QTest::newRow("gpu in lower case") << QStringList{"predict", "--model", "gpt2_large", "--gpu", "h100", "--seq", "8"}
                                           << "unknown GPU 'h100' (did you mean H100-PCIE-80GB or H100-SXM5-80GB?)";
        QTest::newRow("gpu one letter off") << QStringList{"predict", "--model", "gpt2_large", "--gpu", "A100-SXM-40GB", "--seq", "8"}
                                            << "unknown GPU 'A100-SXM-40GB' (did you mean A100-SXM4-40GB?)";
        QTest::newRow("model without its size") << QStringList{"predict", "--model", "llama3", "--gpu", "T4", "--seq", "8"}
                                                << "unknown model 'llama3' (did you mean llama3_8b?)";
        QTest::newRow("sequence beyond a config file's positions")
            << QStringList{"predict", "--model", QString(GPUFORECAST_RESOURCES) + "/models/bert_large.json", "--gpu", "T4", "--seq", "2048"}
            << "bert_large.json (bert_large): seq: 2048 tokens exceed the model's 512 learned positions (its max_position_embeddings)";
        QTest::newRow("sequence beyond positions") << QStringList{"predict", "--model", "gpt2_large", "--gpu", "T4", "--seq", "4096"}
                                                   << "gpuforecast-cli: gpt2_large: seq: 4096 tokens exceed the model's 1024 learned positions (its n_positions)";
        QTest::newRow("layout not dividing heads") << base + QStringList{"--mode", "training", "--parallel", "tp7"}
                                                   << "tp 7 does not divide the 20 attention heads";
        QTest::newRow("data parallel inference") << base + QStringList{"--batch", "4", "--parallel", "dp4"}
                                                 << "data parallelism applies to training";
        // Not "dp 2 does not divide the global batch 1", which sends the user to change the batch first.
        QTest::newRow("data parallel inference, batch 1") << base + QStringList{"--parallel", "dp2"}
                                                          << "data parallelism applies to training";
        QTest::newRow("option twice") << base + QStringList{"--batch", "4", "--batch", "8"} << "--batch: given twice";
        // Values are echoed as given, but an error stays one line: control characters are escaped.
        QTest::newRow("gpu with a newline") << QStringList{"predict", "--model", "bert", "--gpu", "T4\nrm", "--seq", "8"}
                                            << "unknown GPU 'T4\\nrm'";
        QTest::newRow("argument with a tab") << base + QStringList{"--x\ty"} << "unknown argument '--x\\ty'";
        QTest::newRow("gpu with a C1 control") << QStringList{"predict", "--model", "bert", "--gpu", QString("T4") + QChar(0x9b), "--seq", "8"}
                                               << "unknown GPU 'T4\\u009b'";
        QTest::newRow("layout too large") << base + QStringList{"--mode", "training", "--parallel", "dp1000000"}
                                          << "--parallel: 'dp1000000': more than 4096 GPUs is not one server";
        // As many micro-batches as --microbatches and scenario files take; one more is refused.
        QTest::newRow("layout too many micro-batches") << base + QStringList{"--mode", "training", "--parallel", "pp2_1048577"}
                                                       << "--parallel: 'pp2_1048577': at most 1048576 micro-batches";
        QTest::newRow("layout not a layout") << base + QStringList{"--mode", "training", "--parallel", "tp"}
                                             << "gpuforecast-cli predict: --parallel: expected dpN, tpN or ppN_M";
        QTest::newRow("empty value") << base + QStringList{"--batch", ""} << "--batch: empty value";
        QTest::newRow("layout said twice") << base + QStringList{"--mode", "training", "--parallel", "tp4", "--tp", "2"}
                                           << "--tp: already set by --parallel tp4";
        QTest::newRow("one micro-batch said, eight asked") << base + QStringList{"--mode", "training", "--batch", "8", "--parallel", "pp4_1", "--microbatches", "8"}
                                                           << "--microbatches: already set by --parallel pp4_1";
        QTest::newRow("config file missing") << QStringList{"predict", "--model", "/nope/config.json", "--gpu", "T4", "--seq", "8"}
                                             << "/nope/config.json: no such file";
        QTest::newRow("micro-batches without a pipeline") << base + QStringList{"--mode", "training", "--microbatches", "4"}
                                                          << "--microbatches: needs a pipeline";
        QTest::newRow("schedule without a pipeline") << base + QStringList{"--mode", "training", "--tp", "2", "--schedule", "gpipe"}
                                                     << "--schedule: needs a pipeline";
        QTest::newRow("ZeRO without replicas") << base + QStringList{"--mode", "training", "--tp", "2", "--zero", "3"}
                                               << "ZeRO shards state among data-parallel replicas (dp > 1)";
        QTest::newRow("ZeRO stage 4") << base + QStringList{"--mode", "training", "--dp", "2", "--zero", "4"}
                                      << "--zero";
        QTest::newRow("checkpointing inference") << base + QStringList{"--checkpointing"}
                                                 << "--checkpointing: applies to training (--mode training)";
        // A one-GPU layout skipped the layout checks: its micro-batches were quietly ignored.
        QTest::newRow("pipeline of one, micro-batches") << base + QStringList{"--mode", "training", "--batch", "4", "--parallel", "pp1_3"}
                                                        << "micro-batches need pipeline stages (pp > 1)";
    }
    // A multi-GPU forecast on a sheet without a link names the file, not just the sheet's id.
    void multiGpuOnASheetWithoutALinkNamesTheFile()
    {
        QFile in(QString(GPUFORECAST_RESOURCES) + "/gpus/A10.json");
        QVERIFY(in.open(QIODevice::ReadOnly));
        QJsonObject sheet = QJsonDocument::fromJson(in.readAll()).object();
        sheet.remove("interconnect");
        QTemporaryDir dir;
        QFile out(dir.filePath("nolink.json"));
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(QJsonDocument(sheet).toJson());
        out.close();
        const Run r = cli({"predict", "--model", "gpt2_large", "--gpu", out.fileName(), "--seq", "128", "--mode", "training",
                           "--parallel", "tp2"});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(out.fileName() + ": interconnect.bandwidth_gbps: needed for a multi-GPU forecast"), qPrintable(r.err));
    }

    void badPredictArguments()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, expected);
        const Run r = cli(args);
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(expected), qPrintable(r.err));
        QCOMPARE(r.err.trimmed().count('\n'), 0);
    }

    // Every forecast says it is FP32; a config whose torch_dtype is half precision (most LLMs on
    // the Hub) is told that its own precision is not what was forecast.
    void forecastsSayTheyAreFp32()
    {
        const Run llama = cli({"predict", "--model", "llama3_8b", "--gpu", "H100-SXM5-80GB", "--seq", "128"});
        QCOMPARE(llama.code, 0);
        QVERIFY2(llama.out.section('\n', 0, 0).endsWith(", FP32"), qPrintable(llama.out));
        QVERIFY2(llama.out.contains("note: forecast in FP32, as NeuSight measured; the config's torch_dtype bfloat16"),
                 qPrintable(llama.out));
        const Run json = cli({"predict", "--model", "llama3_8b", "--gpu", "H100-SXM5-80GB", "--seq", "128", "--json"});
        const QJsonObject j = QJsonDocument::fromJson(json.out.toUtf8()).object();
        QCOMPARE(j["precision"].toString(), QString("fp32"));
        QCOMPARE(j["config_dtype"].toString(), QString("bfloat16"));
        const Run gpt2 = cli({"predict", "--model", "gpt2_large", "--gpu", "T4", "--seq", "128", "--json"}); // says no dtype
        const QJsonObject g = QJsonDocument::fromJson(gpt2.out.toUtf8()).object();
        QCOMPARE(g["precision"].toString(), QString("fp32"));
        QVERIFY(g["config_dtype"].isNull());
        QVERIFY(g["config_quantization"].isNull());
        // A quantized checkpoint (AWQ, 4-bit) is told its quantization is not modelled either.
        QTemporaryDir dir;
        QFile llama2(QString(GPUFORECAST_RESOURCES) + "/models/llama2_7b.json");
        QVERIFY(llama2.open(QIODevice::ReadOnly));
        QJsonObject awq = QJsonDocument::fromJson(llama2.readAll()).object();
        const QString awqPath = dir.filePath("awq.json");
        const auto writeConfig = [&](const QJsonValue& quantization) {
            awq["quantization_config"] = quantization;
            QFile out(awqPath);
            return out.open(QIODevice::WriteOnly | QIODevice::Truncate) && out.write(QJsonDocument(awq).toJson()) > 0;
        };
        QVERIFY(writeConfig(QJsonObject{{"quant_method", "awq"}, {"bits", 4}, {"group_size", 128}}));
        const Run quantized = cli({"predict", "--model", awqPath, "--gpu", "A100-SXM4-80GB", "--seq", "128"});
        QVERIFY2(quantized.out.contains("note: the config's quantization_config (awq, 4-bit) is not modelled"), qPrintable(quantized.out));
        QVERIFY(writeConfig(QJsonObject{{"quant_method", "bitsandbytes"}, {"load_in_8bit", true}}));
        const Run asJson = cli({"predict", "--model", awqPath, "--gpu", "A100-SXM4-80GB", "--seq", "128", "--json"});
        QCOMPARE(QJsonDocument::fromJson(asJson.out.toUtf8()).object()["config_quantization"].toString(), QString("bitsandbytes, 8-bit"));
        for (const QJsonValue& none : {QJsonValue(false), QJsonValue(QJsonObject{}), QJsonValue("none")}) { // says there is none
            QVERIFY(writeConfig(none));
            const Run plain = cli({"predict", "--model", awqPath, "--gpu", "A100-SXM4-80GB", "--seq", "128", "--json"});
            QVERIFY2(QJsonDocument::fromJson(plain.out.toUtf8()).object()["config_quantization"].isNull(), qPrintable(plain.out.left(300)));
        }
        const Run tp = cli({"predict", "--model", "gpt2_large", "--gpu", "A100-SXM4-40GB", "--seq", "128", "--parallel", "tp2"});
        QVERIFY2(tp.out.section('\n', 0, 0).endsWith(", FP32") && !tp.out.contains("torch_dtype"), qPrintable(tp.out));
    }

    // A config.json goes by its _name_or_path, which the user never typed: a layout or step it
    // refuses names the file too (it had said "Mixtral-8x7B-v0.1: parallel layout: ...").
    void refusalsOfAConfigFileNameTheFile()
    {
        QTemporaryDir dir;
        QVERIFY(QDir(dir.path()).mkpath("hub/snap"));
        QFile bundled(QString(GPUFORECAST_RESOURCES) + "/models/mistral_7b.json");
        QVERIFY(bundled.open(QIODevice::ReadOnly));
        QJsonObject config = QJsonDocument::fromJson(bundled.readAll()).object();
        config["_name_or_path"] = "mistralai/Mistral-7B-v0.1";
        const QString path = dir.filePath("hub/snap/config.json");
        QFile out(path);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(QJsonDocument(config).toJson());
        out.close();
        const Run tp = cli({"predict", "--model", path, "--gpu", "T4", "--seq", "64", "--tp", "3"});
        QCOMPARE(tp.code, 2);
        QVERIFY2(tp.err.contains(path + " (Mistral-7B-v0.1): parallel layout: tp 3 does not divide the 32 attention heads"),
                 qPrintable(tp.err));
        const Run big = cli({"predict", "--model", path, "--gpu", "T4", "--seq", "16777216", "--batch", "1048576"});
        QCOMPARE(big.code, 2);
        QVERIFY2(big.err.contains(path + " (Mistral-7B-v0.1): batch x seq: batch 1048576 x seq 16777216 is too large"),
                 qPrintable(big.err));
        // A bundled model is named as it was asked for.
        const Run named = cli({"predict", "--model", "mistral_7b", "--gpu", "T4", "--seq", "64", "--tp", "3"});
        QVERIFY2(named.err.contains("gpuforecast-cli: mistral_7b: parallel layout: tp 3"), qPrintable(named.err));
    }

    // A rotary model runs past its advertised context, as GPT-2 and BERT (which refuse) do not:
    // forecast, with a note; at the context itself, none.
    void predictSaysWhenASequenceOutrunsTheContext()
    {
        const Run past = cli({"predict", "--model", "llama3_8b", "--gpu", "H100-SXM5-80GB", "--seq", "8193"});
        QCOMPARE(past.code, 0);
        QVERIFY2(past.out.contains("note: sequence 8193 is longer than the 8192 positions the config advertises"),
                 qPrintable(past.out));
        const auto beyond = [](const Run& r) { return QJsonDocument::fromJson(r.out.toUtf8()).object()["beyond_context"]; };
        QVERIFY(beyond(cli({"predict", "--model", "llama3_8b", "--gpu", "H100-SXM5-80GB", "--seq", "8193", "--json"})).isString());
        QVERIFY(beyond(cli({"predict", "--model", "llama3_8b", "--gpu", "H100-SXM5-80GB", "--seq", "8192", "--json"})).isNull());
        QCOMPARE(cli({"predict", "--model", "gpt2_large", "--gpu", "T4", "--seq", "1025"}).code, 2); // a position table ends
    }

    // A layout of more GPUs than one server holds is priced on one link, and says so.
    void layoutsBeyondOneServerSaySo()
    {
        const QStringList base{"predict", "--model", "gpt2_large", "--gpu", "A100-SXM4-40GB", "--seq", "1024", "--batch", "64",
                               "--mode", "training", "--tp", "4", "--dp", "4"};
        const Run sixteen = cli(base);
        QCOMPARE(sixteen.code, 0);
        QVERIFY2(sixteen.out.contains("note: 16 GPUs priced as one server") && sixteen.out.contains("not priced"),
                 qPrintable(sixteen.out));
        const QJsonObject j = QJsonDocument::fromJson(cli(base + QStringList{"--json"}).out.toUtf8()).object();
        QVERIFY(j["layout_note"].toString().startsWith("16 GPUs priced as one server"));
        const Run eight = cli({"predict", "--model", "gpt2_large", "--gpu", "A100-SXM4-40GB", "--seq", "1024", "--batch", "64",
                               "--mode", "training", "--tp", "4", "--dp", "2"});
        QVERIFY2(!eight.out.contains("priced as one server"), qPrintable(eight.out));
        // Nor between the groups a GPU's link joins: MI210's bridges make 4-GPU hives.
        const QStringList mi{"predict", "--model", "llama2_7b", "--gpu", "MI210", "--seq", "1024", "--batch", "8",
                             "--mode", "training", "--tp"};
        const Run hives = cli(mi + QStringList{"8"});
        QVERIFY2(hives.out.contains("note: 8 GPUs priced all on the sheet's link") && hives.out.contains("which joins 4"),
                 qPrintable(hives.out));
        const QJsonObject h = QJsonDocument::fromJson(cli(mi + QStringList{"8", "--json"}).out.toUtf8()).object();
        QVERIFY(h["layout_note"].toString().contains("which joins 4"));
        const Run hive = cli(mi + QStringList{"4"});
        QVERIFY2(!hive.out.contains("joins"), qPrintable(hive.out));
        // Past a server, the hives are still named (at 16 the note had dropped them).
        const Run pastAServer = cli({"predict", "--model", "llama2_7b", "--gpu", "MI210", "--seq", "1024", "--batch", "16",
                                     "--mode", "training", "--dp", "16"});
        QVERIFY2(pastAServer.out.contains("servers hold 8 GPUs at most (the link joins 4 at that speed)"), qPrintable(pastAServer.out));
        // A link that joins 16 makes a server of 16: that many GPUs are one server, 32 are not.
        QTemporaryDir dir;
        QFile sheet(QString(GPUFORECAST_RESOURCES) + "/gpus/MI210.json");
        QVERIFY(sheet.open(QIODevice::ReadOnly));
        QJsonObject o = QJsonDocument::fromJson(sheet.readAll()).object();
        o["id"] = "MI210-16";
        QJsonObject link = o["interconnect"].toObject();
        link["max_gpus"] = 16;
        o["interconnect"] = link;
        QFile wide(dir.filePath("wide.json"));
        QVERIFY(wide.open(QIODevice::WriteOnly));
        wide.write(QJsonDocument(o).toJson());
        wide.close();
        const QStringList big{"predict", "--model", "llama2_7b", "--gpu", wide.fileName(), "--seq", "1024", "--batch", "64",
                              "--mode", "training", "--tp", "8", "--dp"};
        const Run sixteenOnOne = cli(big + QStringList{"2"});
        QCOMPARE(sixteenOnOne.code, 0);
        QVERIFY2(!sixteenOnOne.out.contains("one server") && !sixteenOnOne.out.contains("joins"), qPrintable(sixteenOnOne.out));
        const Run thirtyTwo = cli(big + QStringList{"4"});
        QVERIFY2(thirtyTwo.out.contains("servers hold 16 GPUs at most"), qPrintable(thirtyTwo.out));
    }

    // A binary file given as a config: the parser quotes the byte it stopped at, and the line that
    // says so stays valid UTF-8 (the byte as its escape), so a terminal or script can read it.
    void aBinaryConfigIsQuotedAsText()
    {
        QTemporaryDir dir;
        QFile png(dir.filePath("logo.json"));
        QVERIFY(png.open(QIODevice::WriteOnly));
        png.write(QByteArray("\x89PNG\r\n\x1a\n", 8)); // no NUL byte yet: that is refused before parsing
        png.close();
        QProcess p;
        p.start(GPUFORECAST_CLI, {"predict", "--model", png.fileName(), "--gpu", "T4", "--seq", "8"});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 2);
        const QByteArray err = p.readAllStandardError();
        QVERIFY2(QString::fromUtf8(err).toUtf8() == err, err.constData()); // no byte that is not UTF-8
        QVERIFY2(err.contains("logo.json: not valid JSON") && err.contains("\\x89"), err.constData());
        QCOMPARE(err.trimmed().count('\n'), 0);
        // The whole header, NUL bytes and all, is called what it is.
        QVERIFY(png.open(QIODevice::Append));
        png.write(QByteArray("\0\0\0\rIHDR", 8));
        png.close();
        const Run whole = cli({"predict", "--model", png.fileName(), "--gpu", "T4", "--seq", "8"});
        QCOMPARE(whole.code, 2);
        QVERIFY2(whole.err.contains("logo.json: a NUL byte at line 3, column 1: not a text file"), qPrintable(whole.err));
    }

    void versionPrints()
    {
        const Run r = cli({"--version"});
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.startsWith("gpuforecast-cli "));
        const Run extra = cli({"--version", "--json"}); // a typo is heard of, not ignored
        QCOMPARE(extra.code, 2);
        QVERIFY(extra.out.isEmpty());
        QVERIFY2(extra.err.contains("--version: takes no arguments, got '--json'"), qPrintable(extra.err));
    }
};

QTEST_GUILESS_MAIN(TestCli)
#include "test_cli.moc"
