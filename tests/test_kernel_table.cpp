// Kernel CSV parsing: quoted names, measured columns kept apart, bad rows named by line and column.
#include "gpuforecast/csv.h"
#include "gpuforecast/error.h"
#include "gpuforecast/kernel_table.h"

#include <QtTest>

using namespace gpuforecast;

class TestKernelTable : public QObject {
    Q_OBJECT
private slots:
    void quotedFields()
    {
        const auto rows = csv::parse("a,\"b,c\",\"d \"\"e\"\"\"\r\n1,2,3\n", "t");
        QCOMPARE(rows.size(), std::size_t(2));
        QCOMPARE(rows[0][1], std::string("b,c"));
        QCOMPARE(rows[0][2], std::string("d \"e\""));
        QCOMPARE(csv::joinRow(rows[0]), std::string("a,\"b,c\",\"d \"\"e\"\"\""));
    }

    void byteOrderMarkIsNotPartOfTheHeader()
    {
        // Spreadsheets save "CSV UTF-8" with a BOM; the first column must still be found.
        const auto t = parseKernelTable("\xEF\xBB\xBFop,gpu,b,m,n,k,h\nsoftmax,T4,8,,,,64\n", "t.csv",
                                        TableContent::InputsOnly);
        QCOMPARE(t.header.front(), std::string("op"));
        QCOMPARE(t.rows.size(), std::size_t(1));
        // The file reader drops it; csv::parse keeps every cell as written, so that csv::joinRow
        // writes back what it read (the fuzzer found a second BOM that did not survive the trip).
        const auto rows = csv::parse("\xEF\xBB\xBF\xEF\xBB\xBFop,gpu\n", "t");
        QCOMPARE(rows[0][0], std::string("\xEF\xBB\xBF\xEF\xBB\xBFop"));
        QCOMPARE(csv::parse(csv::joinRow(rows[0]) + "\n", "t"), rows);
    }

    // A spreadsheet's "op, gpu, b" layout: blanks around a cell are not part of it, in the header,
    // the ids or the numbers alike (" T4" was an unknown GPU while " 8" was 8).
    void blanksAroundCellsAreLayout()
    {
        const auto t = parseKernelTable("op, gpu, b, m, n, k, h\nsoftmax, T4 ,8 , , , ,\t64\n   \n", "t.csv",
                                        TableContent::InputsOnly);
        QCOMPARE(t.rows.size(), std::size_t(1));
        QCOMPARE(t.rows[0].gpu, std::string("T4"));
        QCOMPARE(t.rows[0].kernel.b, 8LL);
        QCOMPARE(t.rows[0].kernel.h, 64LL);
    }

    // What is read is trimmed; what is passed through to `kernels --out` is the row as written, so
    // a free-text column keeps its spacing (it had come out as "two  spaces").
    void rowsPassThroughAsWritten()
    {
        const auto t = parseKernelTable("op,gpu,b,m,n,k,h,note\nbmm, T4 ,4,128,64,128,,  two  spaces \n", "t.csv",
                                        TableContent::InputsOnly);
        QCOMPARE(t.header.back(), std::string("note"));
        QCOMPARE(t.rows[0].gpu, std::string("T4"));
        QCOMPARE(t.rows[0].cells[1], std::string(" T4 "));
        QCOMPARE(t.rows[0].cells[7], std::string("  two  spaces "));
    }

    void inputsOnlyIgnoresMeasurements()
    {
        const auto t = parseKernelTable("op,gpu,b,m,n,k,h,latency_ms\nbmm,T4,2,3,4,5,,0.1\nsoftmax,T4,8,,,,64,\n", "t.csv",
                                        TableContent::InputsOnly);
        QCOMPARE(t.rows.size(), std::size_t(2));
        QVERIFY(t.measurements.empty());
        QCOMPARE(t.rows[0].kernel.opClass, OpClass::Bmm);
        QCOMPARE(t.rows[0].kernel.n, 4LL);
        QCOMPARE(t.rows[1].kernel.opClass, OpClass::Softmax);
        QCOMPARE(t.rows[1].kernel.h, 64LL);
    }

    void badRowsAreNamed_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("expected");
        const QString h = "op,gpu,b,m,n,k,h\n";
        QTest::newRow("missing column") << "op,gpu,b,m,n,k\n" << "missing column 'h'";
        QTest::newRow("unknown op") << h + "conv,T4,1,1,1,1,\n" << "line 2 op: unknown operator 'conv'";
        QTest::newRow("zero dim") << h + "bmm,T4,1,0,1,1,\n" << "line 2 m";
        QTest::newRow("negative dim") << h + "bmm,T4,1,5,-1,1,\n" << "line 2 n";
        QTest::newRow("not a number") << h + "bmm,T4,1,5,x,1,\n" << "line 2 n: expected a whole number";
        QTest::newRow("huge dim") << h + "bmm,T4,1,5,99999999999999,1,\n" << "line 2 n";
        QTest::newRow("overflowing product") << h + "bmm,T4,2000000000,2000000000,2000000000,2,\n" << "too large";
        QTest::newRow("missing h") << h + "ln,T4,4,,,,\n" << "line 2 h: missing";
        QTest::newRow("rows typed as m") << h + "softmax,T4,1,4096,,,1024\n"
                                         << "line 2 m: 'softmax' does not read this column (vector operators give b rows";
        QTest::newRow("row length on a GEMM") << h + "linear,T4,1,8,8,8,64\n" << "line 2 h: 'linear' does not read this column";
        QTest::newRow("read column twice") << "op,gpu,b,m,n,k,h,m\nbmm,T4,1,5,1,1,,7\n" << "header: column 'm' appears more than once";
        QTest::newRow("short row") << h + "bmm,T4,1\n" << "line 2: expected 7 columns";
        QTest::newRow("missing gpu") << h + "bmm,,1,1,1,1,\n" << "line 2 gpu";
        QTest::newRow("truncated quote") << h + "bmm,\"T4,1,1,1,1,\n" << "unterminated quoted field";
        QTest::newRow("empty") << "" << "empty file";
    }
    void badRowsAreNamed()
    {
        QFETCH(QString, text);
        QFETCH(QString, expected);
        try {
            parseKernelTable(text.toStdString(), "k.csv", TableContent::InputsOnly);
            QFAIL("accepted");
        } catch (const ForecastError& e) {
            QVERIFY2(QString(e.what()).startsWith("k.csv"), e.what());
            QVERIFY2(QString(e.what()).contains(expected), e.what());
        }
    }

    void measurementsMustBePlausible()
    {
        // Negative, zero, a unit slip to nothing (1e-300 ms printed a 300-digit MAPE) or to
        // centuries: each names the file, the line and the field.
        for (const char* latency : {"-2", "0", "1e-300", "1e-7", "1e12", "inf", "nan"}) {
            try {
                parseKernelTable(std::string("op,gpu,b,m,n,k,h,latency_ms\nbmm,T4,1,1,1,1,,") + latency + "\n", "k.csv",
                                 TableContent::WithMeasurements);
                QFAIL(qPrintable(QString("accepted latency %1").arg(latency)));
            } catch (const ForecastError& e) {
                QVERIFY2(QString(e.what()).startsWith("k.csv") && QString(e.what()).contains("latency_ms"), e.what());
            }
        }
        for (const char* latency : {"1e-6", "0.025", "86400000"}) // a nanosecond .. a day
            QCOMPARE(parseKernelTable(std::string("op,gpu,b,m,n,k,h,latency_ms\nbmm,T4,1,1,1,1,,") + latency + "\n", "k.csv",
                                      TableContent::WithMeasurements)
                         .measurements.at(0)
                         .latencyMs,
                     std::stod(latency));
    }
};

QTEST_APPLESS_MAIN(TestKernelTable)
#include "test_kernel_table.moc"
