// Tiles, waves and the roofline: exact arithmetic, checked against hand computation.
#include "gpuforecast/forecaster.h"
#include "gpuforecast/geometry.h"
#include "gpuforecast/tiling.h"

#include <QtTest>

using namespace gpuforecast;

namespace {

GpuSpec toyGpu()
{
    GpuSpec g;
    g.id = "toy";
    g.smCount = 10;
    g.coresPerSm = 64;
    g.boostClockMhz = 1000;
    g.fp32Gflops = 1000;       // 1 TFLOP/s
    g.fp32MatrixGflops = 1000;
    g.memoryGb = 16;
    g.memoryBandwidthGBps = 100; // 100 GB/s: machine balance 10 FLOP/byte
    g.l2CacheMb = 4;
    return g;
}

} // namespace

class TestGeometry : public QObject {
    Q_OBJECT
private slots:
    void gemmTilesAndWaves_data()
    {
        QTest::addColumn<int>("b");
        QTest::addColumn<int>("m");
        QTest::addColumn<int>("n");
        QTest::addColumn<int>("k");
        QTest::addColumn<int>("alongK");
        QTest::addColumn<int>("alongM");
        QTest::addColumn<int>("split");
        QTest::addColumn<double>("tiles");
        QTest::addColumn<double>("waves");
        // 10 SMs. tiles = b * ceil(k/alongK) * ceil(m/alongM) * split.
        QTest::newRow("exact fit, one wave") << 1 << 128 << 64 << 1280 << 128 << 128 << 1 << 10.0 << 1.0;
        QTest::newRow("partial last wave") << 1 << 128 << 64 << 1408 << 128 << 128 << 1 << 11.0 << 2.0;
        QTest::newRow("ragged edges round up") << 3 << 129 << 7 << 65 << 64 << 128 << 1 << 12.0 << 2.0;
        QTest::newRow("split-K multiplies tiles") << 1 << 32 << 4096 << 128 << 128 << 32 << 4 << 4.0 << 1.0;
        QTest::newRow("many waves") << 8 << 1024 << 1024 << 1024 << 128 << 64 << 1 << 1024.0 << 103.0;
    }
    void gemmTilesAndWaves()
    {
        QFETCH(int, b);
        QFETCH(int, m);
        QFETCH(int, n);
        QFETCH(int, k);
        QFETCH(int, alongK);
        QFETCH(int, alongM);
        QFETCH(int, split);
        QFETCH(double, tiles);
        QFETCH(double, waves);
        const auto g = gemmGeometry(Kernel::gemm("bmm", b, m, n, k), GemmTile{alongK, alongM, split}, toyGpu());
        QCOMPARE(g.numTiles, tiles);
        QCOMPARE(g.waves, waves);
    }

    void gemmTileWorkAndRoofline()
    {
        // 128x128 tile, n = 64: FLOPs 2*128*128*64; bytes 4*((128+128)*64 + 128*128).
        const auto g = gemmGeometry(Kernel::gemm("bmm", 1, 128, 64, 1280), GemmTile{128, 128, 1}, toyGpu());
        QCOMPARE(g.tileFlops, 2.0 * 128 * 128 * 64);
        QCOMPARE(g.tileBytes, 4.0 * (256 * 64 + 128 * 128));
        QCOMPARE(g.perWaveFlops, 10 * g.tileFlops);
        // Intensity 2097152 / 131072 = 16 FLOP/B > balance 10: compute-bound at 1 TFLOP/s.
        QCOMPARE(g.arithmeticIntensity(), 16.0);
        QVERIFY(!g.memoryBound);
        QCOMPARE(g.rooflineFlops, 1e12);
        QCOMPARE(g.secondsAt(1.0), 10 * g.tileFlops / 1e12);
        QCOMPARE(g.secondsAt(0.5), 2 * g.secondsAt(1.0));
    }

    void memoryBoundTile()
    {
        // n = 1: intensity far below balance, so the roof is intensity x bandwidth.
        const auto g = gemmGeometry(Kernel::gemm("bmm", 1, 128, 1, 128), GemmTile{128, 128, 1}, toyGpu());
        QVERIFY(g.memoryBound);
        QCOMPARE(g.rooflineFlops, g.arithmeticIntensity() * 100e9);
    }

    void vectorTiles_data()
    {
        QTest::addColumn<QString>("op");
        QTest::addColumn<int>("rows");
        QTest::addColumn<int>("h");
        QTest::addColumn<double>("tiles");
        // Values are PyTorch 2.1's launch grids as measured in the training data.
        QTest::newRow("add 127x168 -> 42 blocks of 512") << "add" << 127 << 168 << 42.0;
        QTest::newRow("gelu 223x114 -> 50 blocks") << "gelu" << 223 << 114 << 50.0;
        QTest::newRow("ln one row per block") << "ln" << 60 << 272 << 60.0;
        QTest::newRow("softmax warp, 4 rows/block") << "softmax" << 127 << 168 << 32.0;
        QTest::newRow("softmax warp, 8 rows/block") << "softmax" << 223 << 114 << 28.0;
        QTest::newRow("softmax tiny rows, 64 rows/block") << "softmax" << 77 << 3 << 2.0;
        QTest::newRow("softmax long rows, 1 row/block") << "softmax" << 40 << 1421 << 40.0;
    }
    void vectorTiles()
    {
        QFETCH(QString, op);
        QFETCH(int, rows);
        QFETCH(int, h);
        QFETCH(double, tiles);
        QCOMPARE(vectorGeometry(Kernel::vector(op.toStdString(), rows, h), toyGpu()).numTiles, tiles);
    }

    void kernelNamesGiveTiles()
    {
        QCOMPARE(parseGemmKernelName("ampere_sgemm_128x64_tn").value(), (GemmTile{128, 64, 1}));
        QCOMPARE(parseGemmKernelName("volta_sgemm_32x32_sliced1x4_nn").value(), (GemmTile{32, 32, 1}));
        QVERIFY(!parseGemmKernelName("vectorized_elementwise_kernel").has_value());
    }

    void referenceGpuNeverTheTarget()
    {
        TileDatabase db;
        db.addGpu({"A", 10, 1000, 100, 4, 2018});
        db.addGpu({"B", 80, 14000, 900, 6, 2018});
        db.addGpu({"C", 40, 3000, 200, 2, 2016});
        db.add("A", OpClass::Bmm, 1, 64, 64, 64, GemmTile{64, 64, 1});
        db.add("B", OpClass::Bmm, 1, 64, 64, 64, GemmTile{32, 128, 1});
        GpuSpec target = toyGpu();
        db.add("C", OpClass::Bmm, 1, 64, 64, 64, GemmTile{128, 64, 1});
        QCOMPARE(db.referenceFor(target), std::string("A")); // newest year, then nearest spec sheet
        target.id = "A";                                       // forecasting A itself: must not read A
        QCOMPARE(db.referenceFor(target), std::string("B"));
        QCOMPARE(db.tileFor(target, Kernel::gemm("bmm", 1, 60, 60, 60)), (GemmTile{32, 128, 1}));
        db.addGpu({"D", 10, 1000, 100, 4, 2020});
        db.add("D", OpClass::Bmm, 1, 64, 64, 64, GemmTile{256, 128, 1});
        QCOMPARE(db.referenceFor(target), std::string("D")); // a newer generation wins over similarity
    }

    void linearTilesFillTheSms_data()
    {
        QTest::addColumn<int>("m");
        QTest::addColumn<int>("n");
        QTest::addColumn<int>("k");
        QTest::addColumn<int>("alongK");
        QTest::addColumn<int>("alongM");
        QTest::addColumn<int>("split");
        // 10 SMs. The largest tile that still gives each SM a tile; else 32x32 and split-K.
        QTest::newRow("large: 128x128") << 4096 << 1024 << 4096 << 128 << 128 << 1;
        QTest::newRow("128x128 gives 8 tiles, 128x64 gives 16") << 512 << 1024 << 256 << 128 << 64 << 1;
        QTest::newRow("narrow output: 64x64") << 192 << 1024 << 256 << 64 << 64 << 1;
        QTest::newRow("tiny output: split the reduction") << 32 << 4096 << 32 << 32 << 32 << 10;
        QTest::newRow("tiny output, short reduction: no split") << 32 << 300 << 32 << 32 << 32 << 1;
    }
    void linearTilesFillTheSms()
    {
        QFETCH(int, m);
        QFETCH(int, n);
        QFETCH(int, k);
        QFETCH(int, alongK);
        QFETCH(int, alongM);
        QFETCH(int, split);
        const auto t = heuristicGemmTile(Kernel::gemm("linear", 1, m, n, k), 10);
        QCOMPARE(t, (GemmTile{alongK, alongM, split}));
    }

    void tileDatabaseRoundTrip()
    {
        TileDatabase db;
        db.addGpu({"A", 10, 1000, 100, 4, 2018});
        db.add("A", OpClass::Linear, 1, 500, 600, 700, GemmTile{128, 32, 3});
        const auto back = TileDatabase::parse(db.serialize(), "mem");
        QCOMPARE(back.size(), std::size_t(1));
        QCOMPARE(back.lookup("A", OpClass::Linear, 1, 500, 600, 700), (GemmTile{128, 32, 3}));
    }

    void forecastNeverBeatsRoofline()
    {
        // Whatever the weights, utilization is in (0, 1): the forecast is never faster than the roof.
        const Forecaster f = Forecaster::loadFromDirectory(std::string(GPUFORECAST_RESOURCES) + "/weights");
        const GpuSpec gpu = toyGpu();
        const std::vector<Kernel> kernels{Kernel::gemm("bmm", 4, 512, 512, 512), Kernel::gemm("linear", 1, 4096, 1024, 4096),
                                          Kernel::vector("add", 4096, 1024), Kernel::vector("softmax", 4096, 512),
                                          Kernel::vector("ln", 4096, 1024)};
        const auto out = f.predict(kernels, gpu);
        for (std::size_t i = 0; i < kernels.size(); ++i) {
            QVERIFY2(out[i].seconds >= out[i].geometry.secondsAt(1.0) * (1 - 1e-12), kernels[i].op.c_str());
            QVERIFY(out[i].utilization > 0 && out[i].utilization <= 1.0);
            QVERIFY(out[i].secondsLow <= out[i].seconds && out[i].seconds <= out[i].secondsHigh);
        }
    }

    void fallbackIsMemoryBound()
    {
        const GpuSpec gpu = toyGpu();
        // 70 GB at 70% of 100 GB/s = 1 s.
        QCOMPARE(fallbackSeconds(Kernel::memory("embedding", 70e9), gpu), 1.0);
    }
};

QTEST_APPLESS_MAIN(TestGeometry)
#include "test_geometry.moc"
