// Tiles, waves and the roofline: exact arithmetic, checked against hand computation.
#include "gpuforecast/catalog.h"
#include "gpuforecast/error.h"
#include "gpuforecast/extrapolation.h"
#include "gpuforecast/features.h"
#include "gpuforecast/forecaster.h"
#include "gpuforecast/geometry.h"
#include "gpuforecast/tiling.h"
#include "gpuforecast/wave_sweep.h"

#include <QtTest>

#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>

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

    // A sheet whose FP32 matrix figure is below its FP32 peak (typed so, or an odd datasheet)
    // prices GEMMs at the FP32 cores' peak: cuBLAS would run them there. Before, such a sheet
    // made every compute-bound GEMM slower than the cores allow.
    void gemmsNeverRunBelowTheFp32Peak()
    {
        GpuSpec gpu = toyGpu();
        gpu.fp32MatrixGflops = 250;
        const auto g = gemmGeometry(Kernel::gemm("bmm", 1, 128, 64, 1280), GemmTile{128, 128, 1}, gpu);
        QCOMPARE(g.peakFlops, 1e12);
        QCOMPARE(g.rooflineFlops, 1e12);
        gpu.fp32MatrixGflops = 4000; // matrix units faster than the cores: theirs
        QCOMPARE(gemmGeometry(Kernel::gemm("bmm", 1, 128, 64, 1280), GemmTile{128, 128, 1}, gpu).peakFlops, 4e12);
    }

    // SMs with 32 FP32 lanes per single-dispatch scheduler issue GEMMs at fp32GemmIssueShare of
    // their peak (an H200 ran SGEMM at 0.91 of the A100's share of peak); 64-lane SMs, Pascal's
    // dual-dispatch ones, AMD's and unknown architectures keep the whole peak, as does a measured
    // GPU's sheet as the networks read it. Vector kernels and memory-bound tiles are not touched.
    void gemmsOn128LaneSmsIssueLessThanTheirPeak()
    {
        GpuSpec hopper = toyGpu();
        hopper.vendor = "NVIDIA";
        hopper.architecture = "Hopper";
        hopper.coresPerSm = 128;
        const double share = fp32GemmIssueShare(hopper);
        QVERIFY(share > 0.8 && share < 1.0);
        const Kernel gemm = Kernel::gemm("bmm", 1, 128, 64, 1280);
        const auto g = gemmGeometry(gemm, GemmTile{128, 128, 1}, hopper);
        QCOMPARE(g.peakFlops, 1e12 * share);
        QCOMPARE(g.rooflineFlops, 1e12 * share); // compute-bound: intensity 16 > balance 10
        QCOMPARE(vectorGeometry(Kernel::vector("add", 1000, 1000), hopper).peakFlops, 1e12);
        // Memory-bound tile (n = 8: intensity 2*128*128*8 / 4(256*8 + 128*128) = 3.6 < 10): bytes rule.
        const auto thin = gemmGeometry(Kernel::gemm("bmm", 1, 128, 8, 1280), GemmTile{128, 128, 1}, hopper);
        QVERIFY(thin.memoryBound);
        QCOMPARE(thin.rooflineFlops, gemmGeometry(Kernel::gemm("bmm", 1, 128, 8, 1280), GemmTile{128, 128, 1}, toyGpu()).rooflineFlops);

        for (const char* arch : {"Ada Lovelace", "Ampere", "Blackwell"}) {
            GpuSpec other = hopper;
            other.architecture = arch;
            QCOMPARE(fp32GemmIssueShare(other), share);
        }
        GpuSpec a100 = hopper;
        a100.architecture = "Ampere";
        a100.coresPerSm = 64;
        QCOMPARE(fp32GemmIssueShare(a100), 1.0);
        GpuSpec pascal = hopper; // GP104: 128 lanes, but two dispatch units per scheduler
        pascal.architecture = "Pascal";
        QCOMPARE(fp32GemmIssueShare(pascal), 1.0);
        GpuSpec amd = hopper;
        amd.vendor = "AMD";
        QCOMPARE(fp32GemmIssueShare(amd), 1.0);
        GpuSpec unknown = hopper;
        unknown.architecture = "";
        QCOMPARE(fp32GemmIssueShare(unknown), 1.0);
        GpuSpec seen = hopper;
        seen.readAsMeasuredGpu = true;
        QCOMPARE(fp32GemmIssueShare(seen), 1.0);
        QCOMPARE(fp32GemmIssueShare(asSeenByNetworks(hopper, ReferenceGpu{"A100", 108, 19500, 1555, 40, 2020, 40, "Ampere"})), 1.0);
    }

    void memoryBoundTile()
    {
        // n = 1: intensity far below balance, so the roof is intensity x bandwidth. Ten tiles fill
        // the ten SMs: each tile moves its bytes at a tenth of the bandwidth.
        const auto g = gemmGeometry(Kernel::gemm("bmm", 10, 128, 1, 128), GemmTile{128, 128, 1}, toyGpu());
        QVERIFY(g.memoryBound);
        QCOMPARE(g.rooflineFlops, g.arithmeticIntensity() * 100e9);
        QCOMPARE(g.secondsAt(1.0), g.tileBytes / 10e9);
    }

    void partialWaveSharesTheBandwidth()
    {
        // Fewer tiles than SMs: the idle SMs draw no bandwidth, so the busy ones share all of it and
        // the kernel takes its total bytes over the bandwidth, not a full wave's worth.
        const GpuSpec gpu = toyGpu();
        const auto full = gemmGeometry(Kernel::gemm("bmm", 10, 128, 1, 128), GemmTile{128, 128, 1}, gpu);
        for (int tiles : {1, 4, 9}) {
            const auto g = gemmGeometry(Kernel::gemm("bmm", tiles, 128, 1, 128), GemmTile{128, 128, 1}, gpu);
            QCOMPARE(g.waves, 1.0);
            QVERIFY(g.memoryBound);
            QCOMPARE(g.secondsAt(1.0), tiles * g.tileBytes / 100e9);
            QVERIFY(g.secondsAt(1.0) < full.secondsAt(1.0));
        }
        // A compute-bound tile still needs one SM's share of the peak, however few tiles run.
        const auto one = gemmGeometry(Kernel::gemm("bmm", 1, 128, 64, 128), GemmTile{128, 128, 1}, gpu);
        QVERIFY(!one.memoryBound);
        QCOMPARE(one.secondsAt(1.0), one.tileFlops / 100e9);
        // Vector kernels run many small blocks per SM, so their waves keep the per-SM share.
        const auto add = vectorGeometry(Kernel::vector("add", 1, 512), gpu);
        QCOMPARE(add.numTiles, 1.0);
        QCOMPARE(add.secondsAt(1.0), add.tileBytes / 10e9);
    }

    void vectorTiles_data()
    {
        QTest::addColumn<QString>("op");
        QTest::addColumn<int>("rows");
        QTest::addColumn<int>("h");
        QTest::addColumn<double>("tiles");
        QTest::addColumn<double>("rowsPerTile");
        // Values are PyTorch 2.1's launch grids as measured in the training data.
        QTest::newRow("add 127x168 -> 42 blocks of 512") << "add" << 127 << 168 << 42.0 << 1.0;
        QTest::newRow("gelu 223x114 -> 50 blocks") << "gelu" << 223 << 114 << 50.0 << 1.0;
        QTest::newRow("ln one row per block") << "ln" << 60 << 272 << 60.0 << 1.0;
        QTest::newRow("softmax warp, 4 rows/block") << "softmax" << 127 << 168 << 32.0 << 4.0;
        QTest::newRow("softmax warp, 8 rows/block") << "softmax" << 223 << 114 << 28.0 << 8.0;
        QTest::newRow("softmax tiny rows, 64 rows/block") << "softmax" << 77 << 3 << 2.0 << 64.0;
        QTest::newRow("softmax fewer rows than a block") << "softmax" << 3 << 3 << 1.0 << 3.0;
        QTest::newRow("softmax long rows, 1 row/block") << "softmax" << 40 << 1421 << 40.0 << 1.0;
    }
    void vectorTiles()
    {
        QFETCH(QString, op);
        QFETCH(int, rows);
        QFETCH(int, h);
        QFETCH(double, tiles);
        QFETCH(double, rowsPerTile);
        const KernelGeometry g = vectorGeometry(Kernel::vector(op.toStdString(), rows, h), toyGpu());
        QCOMPARE(g.numTiles, tiles);
        QCOMPARE(g.tileRows, rowsPerTile);
    }

    // A warp-softmax tile of 4 rows of 1024 moves the bytes of a one-row tile of 4096, but the two
    // are different PyTorch kernels with different efficiencies: the features must tell them apart.
    void softmaxFeaturesSeparateItsTwoKernels()
    {
        const GpuSpec gpu = toyGpu();
        const KernelGeometry warp = vectorGeometry(Kernel::vector("softmax", 4096, 1024), gpu);
        const KernelGeometry block = vectorGeometry(Kernel::vector("softmax", 1024, 4096), gpu);
        QCOMPARE(warp.tileBytes, block.tileBytes);
        QCOMPARE(warp.numTiles, block.numTiles);
        const FeatureVector fw = kernelFeatures(OpClass::Softmax, warp, gpu);
        const FeatureVector fb = kernelFeatures(OpClass::Softmax, block, gpu);
        QCOMPARE(featureNames(OpClass::Softmax)[1], std::string_view("log_rows_per_tile"));
        QCOMPARE(fw[1] - fb[1], std::log(4.0));
        for (int i : {0, 2, 3})
            QCOMPARE(fw[std::size_t(i)], fb[std::size_t(i)]);
        // Element-wise and layer norm keep FLOPs per byte there: it tells add from gelu.
        QCOMPARE(featureNames(OpClass::Elementwise)[1], std::string_view("log_flops_per_byte"));
        const KernelGeometry add = vectorGeometry(Kernel::vector("add", 64, 512), gpu);
        const KernelGeometry gelu = vectorGeometry(Kernel::vector("gelu", 64, 512), gpu);
        QVERIFY(kernelFeatures(OpClass::Elementwise, add, gpu)[1] != kernelFeatures(OpClass::Elementwise, gelu, gpu)[1]);
    }

    // Element-wise networks read the kernel's roofline time, not its wave count: the same `add` on
    // a GPU with twice the SMs and the same bandwidth reads the same, and on one with twice the
    // bandwidth it reads half the time. (With the wave count, the SM count alone set the reading, and
    // L4 was read near P100.)
    void elementwiseFeaturesReadRooflineTimeNotSmCount()
    {
        QCOMPARE(featureNames(OpClass::Elementwise)[kWavesFeature], std::string_view("log_roofline_us"));
        QCOMPARE(featureNames(OpClass::LayerNorm)[kWavesFeature], std::string_view("log_waves"));
        const Kernel add = Kernel::vector("add", 640, 1024); // 1280 tiles: whole waves on 10 SMs and on 20
        const GpuSpec base = toyGpu();
        GpuSpec moreSms = base, moreBandwidth = base;
        moreSms.smCount *= 2;
        moreBandwidth.memoryBandwidthGBps *= 2;
        const KernelGeometry g = vectorGeometry(add, base), gSms = vectorGeometry(add, moreSms);
        QVERIFY(gSms.waves < g.waves);
        const FeatureVector f = kernelFeatures(OpClass::Elementwise, g, base);
        const FeatureVector fSms = kernelFeatures(OpClass::Elementwise, gSms, moreSms);
        const FeatureVector fBw = kernelFeatures(OpClass::Elementwise, vectorGeometry(add, moreBandwidth), moreBandwidth);
        QVERIFY(std::abs(fSms[kWavesFeature] - f[kWavesFeature]) < 1e-12);
        QVERIFY(std::abs(f[kWavesFeature] - fBw[kWavesFeature] - std::log(2.0)) < 1e-12);
        // 640 x 1024 floats, two read and one written, at 100 GB/s.
        QVERIFY(std::abs(f[kWavesFeature] - std::log(1e6 * 640.0 * 1024 * 12 / 100e9)) < 1e-9);
        for (int i : {0, 1, 2})
            QCOMPARE(fSms[std::size_t(i)], f[std::size_t(i)]);
    }

    // Softmax networks read the tile count, not the wave count: the same softmax on a GPU with twice
    // the SMs reads the same. (With the wave count L4, 60 SMs, was read near P100, 56.)
    void softmaxFeaturesDoNotReadTheSmCount()
    {
        QCOMPARE(featureNames(OpClass::Softmax)[kWavesFeature], std::string_view("log_tiles"));
        const Kernel softmax = Kernel::vector("softmax", 2560, 128); // GPT-2's scores at 128 tokens
        const GpuSpec base = toyGpu();
        GpuSpec moreSms = base;
        moreSms.smCount *= 2;
        const KernelGeometry g = vectorGeometry(softmax, base), gSms = vectorGeometry(softmax, moreSms);
        QVERIFY(gSms.waves < g.waves);
        const FeatureVector f = kernelFeatures(OpClass::Softmax, g, base);
        QCOMPARE(kernelFeatures(OpClass::Softmax, gSms, moreSms), f);
        QVERIFY(std::abs(f[kWavesFeature] - std::log(g.numTiles)) < 1e-12);
    }

    void kernelNamesGiveTiles()
    {
        QCOMPARE(parseGemmKernelName("ampere_sgemm_128x64_tn").value(), (GemmTile{128, 64, 1}));
        QCOMPARE(parseGemmKernelName("volta_sgemm_32x32_sliced1x4_nn").value(), (GemmTile{32, 32, 1}));
        QVERIFY(!parseGemmKernelName("vectorized_elementwise_kernel").has_value());
    }

    void gemmKernelFamiliesFollowTheArchitecture()
    {
        QCOMPARE(gemmKernelFamily("Pascal"), std::string("maxwell"));
        QCOMPARE(gemmKernelFamily("Turing"), std::string("volta"));
        QCOMPARE(gemmKernelFamily("volta"), std::string("volta"));
        QCOMPARE(gemmKernelFamily("Ada Lovelace"), std::string("ampere"));
        QCOMPARE(gemmKernelFamily("Hopper"), std::string("ampere"));
        QCOMPARE(gemmKernelFamily("Grace  Hopper\r"), std::string("ampere"));
        QCOMPARE(gemmKernelFamily("CDNA 2"), std::string());
        QCOMPARE(gemmKernelFamily(""), std::string());
    }

    void referenceGpuIsTheFamilysNeverTheTarget()
    {
        // Per SM: P 200 GFLOP/s and 10 GB/s, V 175 and 11, T 200 and 8; toy 100 and 10, so in
        // rates V is the toy's nearest, then P, then T.
        TileDatabase db;
        // Inserted farthest first, so that no answer is simply the first GPU (of a family).
        db.addGpu({"T", 40, 8000, 320, 4, 2018, 16, "Turing"});
        db.addGpu({"P", 50, 10000, 500, 4, 2016, 16, "Pascal"});
        db.addGpu({"V", 80, 14000, 880, 6, 2018, 32, "Volta"});
        db.add("T", OpClass::Bmm, 1, 64, 64, 64, GemmTile{64, 64, 1});
        db.add("P", OpClass::Bmm, 1, 64, 64, 64, GemmTile{128, 64, 1});
        db.add("V", OpClass::Bmm, 1, 64, 64, 64, GemmTile{32, 128, 1});
        GpuSpec target = toyGpu();
        target.architecture = "Pascal"; // the family's P over the nearer V
        QCOMPARE(db.referenceFor(target), std::string("P"));
        target.architecture = "Turing"; // two of the Volta family measured: the nearer
        QCOMPARE(db.referenceFor(target), std::string("V"));
        target.id = "V"; // forecasting V itself: never read V; the family's T over the nearer P
        QCOMPARE(db.referenceFor(target), std::string("T"));
        QCOMPARE(db.tileFor(target, Kernel::gemm("bmm", 1, 60, 60, 60)), (GemmTile{64, 64, 1}));
        target.architecture = "Ampere"; // no Ampere measured: the nearest in FP32 and bandwidth per SM
        QCOMPARE(db.referenceFor(target), std::string("P"));
        target.architecture.clear();
        QCOMPARE(db.referenceFor(target), std::string("P"));
        db.addGpu({"A", 108, 19500, 1555, 40, 2020, 40, "Ampere"});
        db.add("A", OpClass::Bmm, 1, 64, 64, 64, GemmTile{128, 128, 1});
        target.architecture = "Hopper"; // far from A in rates, but A's library is the one it runs
        target.fp32Gflops = target.fp32MatrixGflops = 50000;
        QCOMPARE(db.referenceFor(target), std::string("A"));
        target.id = "A";
        QCOMPARE(db.referenceFor(target), std::string("P"));
    }

    void tileLookupFindsTheNearestShapesOfAFullScan()
    {
        // The lookup searches outwards from the query's m and stops early; it must agree with a
        // scan of every shape: the 7 nearest by the weighted log distance (equal distances: the
        // shape added first), their majority tile (ties: the nearer), the query clamped to the
        // measured range. Power-of-two shapes make many distances exactly equal.
        const std::vector<GemmTile> kTiles{{128, 128, 1}, {128, 64, 1}, {64, 64, 2}, {32, 128, 4}};
        std::uint64_t state = 12345;
        auto next = [&](int range) {
            state = state * 6364136223846793005ULL + 1442695040888963407ULL;
            return int((state >> 33) % std::uint64_t(range));
        };
        struct Shape {
            std::array<float, 4> logs;
            GemmTile tile;
        };
        std::vector<Shape> shapes;
        TileDatabase db;
        for (int i = 0; i < 3000; ++i) {
            const std::array<long long, 4> d{1LL << next(6), 1LL << (4 + next(10)), 1LL << (4 + next(10)),
                                             (1LL << (4 + next(10))) + next(3)};
            const GemmTile t = kTiles[std::size_t(next(4))];
            db.add("G", OpClass::Bmm, d[0], d[1], d[2], d[3], t);
            shapes.push_back({{float(std::log2(double(d[0]))), float(std::log2(double(d[1]))),
                               float(std::log2(double(d[2]))), float(std::log2(double(d[3])))},
                              t});
        }
        std::array<float, 4> lo, hi;
        for (std::size_t j = 0; j < 4; ++j) {
            lo[j] = hi[j] = shapes[0].logs[j];
            for (const auto& x : shapes) {
                lo[j] = std::min(lo[j], x.logs[j]);
                hi[j] = std::max(hi[j], x.logs[j]);
            }
        }
        const std::array<float, 4> weight{1, 4, 0.25f, 4};
        for (int query = 0; query < 400; ++query) {
            // Inside the range and beyond it on both sides.
            const std::array<long long, 4> d{1LL + next(64), 1LL + next(1 << 15), 1LL + next(1 << 15),
                                             1LL + next(1 << 16)};
            std::array<float, 4> q;
            for (std::size_t j = 0; j < 4; ++j)
                q[j] = std::clamp(float(std::log2(double(d[j]))), lo[j], hi[j]);
            std::vector<std::pair<float, std::size_t>> all;
            for (std::size_t i = 0; i < shapes.size(); ++i) {
                float dist = 0;
                for (std::size_t j = 0; j < 4; ++j)
                    dist += weight[j] * (shapes[i].logs[j] - q[j]) * (shapes[i].logs[j] - q[j]);
                all.emplace_back(dist, i);
            }
            std::sort(all.begin(), all.end());
            all.resize(7);
            GemmTile expected = shapes[all[0].second].tile;
            int bestVotes = 0;
            for (const auto& [dist, i] : all) {
                const int votes = int(std::count_if(all.begin(), all.end(),
                                                    [&](const auto& o) { return shapes[o.second].tile == shapes[i].tile; }));
                if (votes > bestVotes) {
                    bestVotes = votes;
                    expected = shapes[i].tile;
                }
            }
            expected.reductionSplit = int(std::clamp<long long>(expected.reductionSplit, 1, std::max(1LL, d[2] / 32)));
            QCOMPARE(db.lookup("G", OpClass::Bmm, d[0], d[1], d[2], d[3]), expected);
        }
    }

    void extrapolationNamesRatiosOutsideTheMeasuredGpus()
    {
        // Measured: 100 and 200 GFLOP/s per SM, 10 and 20 GB/s per SM, 10 FLOP/B each.
        const std::vector<ReferenceGpu> measured{{"A", 10, 1000, 100, 4, 2018}, {"B", 10, 2000, 200, 4, 2020}};
        GpuSpec inside = toyGpu(); // 100 GFLOP/s and 10 GB/s per SM, 10 FLOP/B
        QVERIFY(specExtrapolation(inside, measured).empty());
        GpuSpec fast = toyGpu();
        fast.fp32Gflops = fast.fp32MatrixGflops = 5000; // 500 per SM: 2.5x the highest; 50 FLOP/B: 5x the highest
        const auto notes = specExtrapolation(fast, measured);
        QCOMPARE(notes.size(), std::size_t(2));
        QCOMPARE(notes[0].quantity, std::string("FP32 per SM"));
        QCOMPARE(notes[0].factor, 2.5);
        QCOMPARE(notes[0].measuredMax, 200.0);
        QVERIFY(notes[0].text.find("2.5x the highest") != std::string::npos);
        QCOMPARE(notes[1].factor, 5.0);
        GpuSpec starved = toyGpu();
        starved.memoryBandwidthGBps = 20; // 2 GB/s per SM, 5x below; 50 FLOP/B
        const auto low = specExtrapolation(starved, measured);
        QCOMPARE(low.front().quantity, std::string("memory bandwidth per SM"));
        QVERIFY(low.front().text.find("5.0x below the lowest") != std::string::npos);
        GpuSpec nearly = toyGpu();
        nearly.fp32Gflops = nearly.fp32MatrixGflops = 2400; // 240 per SM: within the 25% tolerance of 200
        nearly.memoryBandwidthGBps = 240;
        QVERIFY(specExtrapolation(nearly, measured).empty());
        GpuSpec b = toyGpu(); // B as measured is never compared with its own measurements: A's alone
        b.id = "B";
        b.fp32Gflops = b.fp32MatrixGflops = 2500; // 250 per SM, 2.5x A's: B's sheet in the list below
        const std::vector<ReferenceGpu> withB{{"A", 10, 1000, 100, 4, 2018}, {"B", 10, 2500, 100, 4, 2020}};
        QCOMPARE(specExtrapolation(b, withB).front().measuredMax, 100.0);
        fast.id = "B"; // a sheet that only keeps B's id is another GPU: B's measurements count
        QCOMPARE(specExtrapolation(fast, measured).front().measuredMax, 200.0);
    }

    // Within, near the edge, beyond: one reading of a sheet for every view.
    void coverageIsWithinNearTheEdgeOrBeyond()
    {
        // Per SM: A 100 GFLOP/s, 10 GB/s, 1.6 GB; B 200 GFLOP/s, 20 GB/s, 3.2 GB.
        const std::vector<ReferenceGpu> measured{{"A", 10, 1000, 100, 4, 2018, 16}, {"B", 10, 2000, 200, 4, 2020, 32}};
        const SpecCoverage inside = specCoverage(toyGpu(), measured);
        QCOMPARE(inside.level, Coverage::Within);
        QVERIFY(inside.outside.empty() && !inside.donor);
        QCOMPARE(std::string(coverageName(inside.level)), std::string("within"));

        // B as trained on: twice A's rates per SM, outside the range of the others (A alone), yet
        // the networks learned B itself, so it borrows nothing (P4 among the bundled GPUs).
        GpuSpec edge = toyGpu();
        edge.id = "B";
        edge.fp32Gflops = edge.fp32MatrixGflops = 2000;
        edge.memoryBandwidthGBps = 200;
        edge.memoryGb = 32;
        const SpecCoverage near = specCoverage(edge, measured);
        QCOMPARE(near.level, Coverage::NearEdge);
        QCOMPARE(near.outside.front().quantity, std::string("FP32 per SM"));
        QVERIFY(!near.donor);
        QCOMPARE(std::string(coverageName(near.level)), std::string("near_edge"));

        GpuSpec far = toyGpu(); // 2.5x: takes B's GEMM efficiency
        far.fp32Gflops = far.fp32MatrixGflops = 5000;
        far.memoryBandwidthGBps = 500;
        const SpecCoverage beyond = specCoverage(far, measured);
        QCOMPARE(beyond.level, Coverage::Beyond);
        QVERIFY(beyond.donor && beyond.donor->gpu.id == "B");
        QVERIFY(!beyond.outside.empty());
        QCOMPARE(std::string(coverageName(beyond.level)), std::string("beyond"));
    }

    void gemmEfficiencyIsBorrowedBeyondTheMeasuredRange()
    {
        // Per SM: A 100 GFLOP/s, 10 GB/s, 1.6 GB; B 200 GFLOP/s, 20 GB/s, 3.2 GB.
        const std::vector<ReferenceGpu> measured{{"A", 10, 1000, 100, 4, 2018, 16}, {"B", 10, 2000, 200, 4, 2020, 32}};
        QVERIFY(!gemmEfficiencyDonor(toyGpu(), measured)); // A's own ratios: inside
        GpuSpec near = toyGpu();
        near.fp32Gflops = near.fp32MatrixGflops = 2400; // 1.2x the highest FP32 per SM: still the networks'
        near.memoryBandwidthGBps = 200;
        QVERIFY(!gemmEfficiencyDonor(near, measured));

        GpuSpec far = toyGpu();
        far.fp32Gflops = far.fp32MatrixGflops = 5000; // 2.5x: borrows fully, from the newer B
        far.memoryBandwidthGBps = 500;
        auto donor = gemmEfficiencyDonor(far, measured);
        QVERIFY(donor);
        QCOMPARE(donor->gpu.id, std::string("B"));
        QCOMPARE(donor->weight, 1.0);
        QVERIFY2(describeDonor(*donor) == "GEMM efficiency taken from B, the newest measured GPU that, like this one, draws "
                                          "more than 75 W (the sheet gives no board power: read as more than 75 W) (weight 100%)",
                 describeDonor(*donor).c_str());

        GpuSpec bigMemory = toyGpu(); // only the memory per SM (16 GB, 5x B's) is beyond: A's twin
        bigMemory.memoryGb = 160;
        bigMemory.architecture = "Volta"; // A's kernel family: an A with more memory is still an A
        std::vector<ReferenceGpu> named = measured;
        named[0].architecture = "Turing";
        named[1].architecture = "Ampere";
        donor = gemmEfficiencyDonor(bigMemory, named);
        QVERIFY(donor);
        QCOMPARE(donor->gpu.id, std::string("A"));
        QCOMPARE(donor->reason, std::string("the measured GPU of its GEMM kernel family (volta)"));
        const GpuSpec seen = asSeenByNetworks(bigMemory, donor->gpu);
        QCOMPARE(seen.memoryGb, 16.0);
        QCOMPARE(seen.id, bigMemory.id);

        // Between the tolerance (1.25x) and its square the weight rises continuously: 1.25^1.5 -> 0.5.
        GpuSpec halfway = toyGpu();
        halfway.fp32Gflops = halfway.fp32MatrixGflops = 2000 * std::pow(1.25, 1.5);
        halfway.memoryBandwidthGBps = 200;
        halfway.memoryGb = 32;
        donor = gemmEfficiencyDonor(halfway, measured);
        QVERIFY(donor);
        QVERIFY(std::abs(donor->weight - 0.5) < 1e-9);

        GpuSpec b = toyGpu(); // B as trained on borrows nothing; a what-if of B far outside borrows from B
        b.id = "B";
        b.fp32Gflops = b.fp32MatrixGflops = 2000;
        b.memoryBandwidthGBps = 200;
        b.memoryGb = 32;
        QVERIFY(!gemmEfficiencyDonor(b, measured));
        b.fp32Gflops = b.fp32MatrixGflops = 6000;
        b.memoryBandwidthGBps = 600;
        donor = gemmEfficiencyDonor(b, measured);
        QVERIFY(donor);
        QCOMPARE(donor->gpu.id, std::string("B"));
    }

    // Beyond the range a GPU borrows from one of its kernel family and power feed, else from the
    // newest of its power feed, else from the newest: never by nearness in per-SM rates, which
    // flipped an A100 sheet's donor between V100, P100 and the A100 as its bandwidth walked from
    // 1300 to 1500 GB/s (1849, 3178, 2043 ms for Llama 3 8B). Held out, the newest donor of the same
    // feed carried whole models within 3 points of a GPU's own networks (docs/accuracy.md).
    void efficiencyDonorsShareKernelFamilyOrPowerFeed()
    {
        // Per SM: old 100 GFLOP/s, 10 GB/s; near (the nearest to `far`) 200, 20; slot 150, 5.
        ReferenceGpu old{"old", 10, 1000, 100, 4, 2016, 16, "Pascal", 250};
        ReferenceGpu near{"near", 10, 2000, 200, 4, 2018, 32, "Volta", 250};
        ReferenceGpu slot{"slot", 10, 1500, 50, 4, 2020, 16, "Turing", 70};
        ReferenceGpu newest{"newest", 10, 1200, 150, 4, 2020, 40, "Ampere", 250};
        const std::vector<ReferenceGpu> measured{old, near, slot, newest};
        GpuSpec far = toyGpu();
        far.fp32Gflops = far.fp32MatrixGflops = 6000; // 3x the highest FP32 per SM
        far.memoryBandwidthGBps = 500;
        far.tdpW = 300;
        auto donor = gemmEfficiencyDonor(far, measured); // no family named: the newest of its feed
        QVERIFY(donor);
        QCOMPARE(donor->gpu.id, std::string("newest"));
        QCOMPARE(donor->reason, std::string("the newest measured GPU that, like this one, draws more than 75 W"));
        far.architecture = "Pascal"; // a Pascal part reads the measured Pascal's efficiency
        QCOMPARE(gemmEfficiencyDonor(far, measured)->gpu.id, std::string("old"));
        far.architecture = "Hopper"; // runs Ampere's kernels
        QCOMPARE(gemmEfficiencyDonor(far, measured)->gpu.id, std::string("newest"));
        far.tdpW = 72; // slot-powered: the slot-powered one, though "newest" shares its family
        donor = gemmEfficiencyDonor(far, measured);
        QCOMPARE(donor->gpu.id, std::string("slot"));
        QCOMPARE(donor->reason, std::string("the newest measured GPU that, like this one, draws 75 W or less"));
        // Whatever the sheet's rates, the donor stays: a bandwidth slider moves the forecast smoothly.
        for (double bw : {300.0, 450.0, 600.0, 900.0, 2000.0}) {
            far.memoryBandwidthGBps = bw;
            QCOMPARE(gemmEfficiencyDonor(far, measured)->gpu.id, std::string("slot"));
        }
        // With no measured GPU of its feed, the newest of all, and the reason says why.
        donor = gemmEfficiencyDonor(far, {old, near, newest});
        QCOMPARE(donor->gpu.id, std::string("newest"));
        QCOMPARE(donor->reason, std::string("the newest measured GPU (none measured draws 75 W or less, as this one does)"));
        // Of one launch year, the nearer in per-SM rates (FP32 600 and bandwidth 200 per SM here).
        far.tdpW = 300;
        far.architecture.clear();
        near.launchYear = 2020;
        QCOMPARE(gemmEfficiencyDonor(far, {old, near, newest})->gpu.id, std::string("near"));
    }

    // The networks learned a GPU's efficiency on the tiles it ran, so a GPU that borrows that
    // efficiency borrows its bmm tiles too, whatever its own kernel family's tiles: an Ada part at
    // 72 W reads the slot-powered Turing card's efficiency and tiles, not the Ampere card's tiles
    // (held out, P4 on its donor T4's tiles: bmm 52.5% -> 37.3%). Within the measured range, or
    // below half the donor's weight, the family rule stands.
    void bmmTilesGoWithTheBorrowedEfficiency()
    {
        TileDatabase db;
        db.addGpu({"newest", 10, 1200, 150, 4, 2020, 40, "Ampere", 250});
        db.addGpu({"slot", 10, 1500, 50, 4, 2020, 16, "Turing", 70});
        db.add("newest", OpClass::Bmm, 1, 64, 64, 64, GemmTile{128, 128, 1});
        db.add("slot", OpClass::Bmm, 1, 64, 64, 64, GemmTile{64, 64, 1});
        GpuSpec far = toyGpu();
        far.architecture = "Ada";
        far.fp32Gflops = far.fp32MatrixGflops = 6000; // 4x the highest FP32 per SM: borrows at full weight
        far.memoryBandwidthGBps = 100;
        far.tdpW = 72;
        QCOMPARE(gemmEfficiencyDonor(far, db.gpus())->gpu.id, std::string("slot"));
        QCOMPARE(db.efficiencyDonorForTiles(far), std::optional<std::string>("slot"));
        QCOMPARE(db.referenceFor(far), std::string("slot"));
        QCOMPARE(db.tileFor(far, Kernel::gemm("bmm", 1, 60, 60, 60)), (GemmTile{64, 64, 1}));
        far.tdpW = 300; // its own feed: the Ampere card lends efficiency and tiles alike
        QCOMPARE(db.referenceFor(far), std::string("newest"));
        // Within the measured rates no efficiency is borrowed, and an Ada part takes its family's tiles.
        GpuSpec within = toyGpu();
        within.architecture = "Ada";
        within.fp32Gflops = within.fp32MatrixGflops = 1300;
        within.memoryBandwidthGBps = 100;
        within.tdpW = 72;
        QVERIFY(!gemmEfficiencyDonor(within, db.gpus()));
        QVERIFY(!db.efficiencyDonorForTiles(within));
        QCOMPARE(db.referenceFor(within), std::string("newest"));
        // A donor whose bmm tiles the table lacks lends no tiles.
        TileDatabase noSlotTiles;
        noSlotTiles.addGpu({"newest", 10, 1200, 150, 4, 2020, 40, "Ampere", 250});
        noSlotTiles.addGpu({"slot", 10, 1500, 50, 4, 2020, 16, "Turing", 70});
        noSlotTiles.add("newest", OpClass::Bmm, 1, 64, 64, 64, GemmTile{128, 128, 1});
        far.tdpW = 72;
        QVERIFY(!noSlotTiles.efficiencyDonorForTiles(far));
        QCOMPARE(noSlotTiles.referenceFor(far), std::string("newest"));
    }

    // Borrowing a slot-powered card's efficiency (T4, 70 W) for a card with its own power feed is
    // said to be likely slow; a slot-powered borrower (L4) or an unknown board power says nothing.
    void slotPoweredDonorsAreFlagged()
    {
        const auto bundled = loadGpuDirectory(std::string(GPUFORECAST_RESOURCES) + "/gpus");
        const GpuSpec& t4 = *findGpu(bundled, "T4");
        const auto caution = slotPoweredDonorCaution(*findGpu(bundled, "L40S"), t4, 1.0);
        QVERIFY(caution);
        QVERIFY2(caution->find("T4 is a 70 W card") != std::string::npos && caution->find("at 350 W") != std::string::npos,
                 caution->c_str());
        QVERIFY(!slotPoweredDonorCaution(*findGpu(bundled, "L4"), t4, 1.0));
        QVERIFY(!slotPoweredDonorCaution(*findGpu(bundled, "H100-SXM5-80GB"), *findGpu(bundled, "A100-PCIE-40GB"), 1.0));
        const GpuSpec& a10 = *findGpu(bundled, "A10"); // 150 W
        QVERIFY(slotPoweredDonorCaution(a10, *findGpu(bundled, "P4"), 1.0)); // 75 W: still slot-powered
        GpuSpec donor = t4;
        donor.tdpW = 76; // one watt over the slot's limit
        QVERIFY(!slotPoweredDonorCaution(a10, donor, 1.0));
        donor.tdpW = 0; // the field is optional: unknown says nothing
        QVERIFY(!slotPoweredDonorCaution(a10, donor, 1.0));
        GpuSpec sketch = a10; // a sheet without its board power takes its basis's
        sketch.tdpW = 0;
        QVERIFY(!slotPoweredDonorCaution(sketch, t4, 1.0));
        sketch.efficiencyBasis = std::make_shared<const GpuSpec>(*findGpu(bundled, "L40S"));
        QVERIFY(slotPoweredDonorCaution(sketch, t4, 1.0));
        // Just past the range the GPU's own networks carry most of the forecast: nothing to say.
        QVERIFY(slotPoweredDonorCaution(*findGpu(bundled, "L40S"), t4, 0.5));
        QVERIFY(!slotPoweredDonorCaution(*findGpu(bundled, "L40S"), t4, 0.2));
    }

    // A sheet read as a new GPU is said to be, with the measured GPU to name as its basis.
    void sheetsReadAsNewGpusAreSaidToBe()
    {
        const auto bundled = loadGpuDirectory(std::string(GPUFORECAST_RESOURCES) + "/gpus");
        const Forecaster f = Forecaster::loadFromDirectory(std::string(GPUFORECAST_RESOURCES) + "/weights");
        const auto& measured = f.tiles().gpus();
        const GpuSpec& a100 = *findGpu(bundled, "A100-PCIE-40GB");
        QVERIFY(!readAsNewGpuNote(a100, measured)); // trained on
        // Its SXM4 twin has every ratio the networks read: read as the measured A100, not as new
        // (the Compare bar of an untouched bundled sheet had said "read as a new GPU").
        QVERIFY(!readAsNewGpuNote(*findGpu(bundled, "A100-SXM4-40GB"), measured));
        GpuSpec twin = a100;
        twin.id = "A100 copy, more memory";
        twin.memoryGb = 32; // memory per SM is one of them (inside the measured range: no donor)
        QVERIFY(readAsNewGpuNote(twin, measured));
        GpuSpec twice = a100;                        // more of everything, inside the measured range
        twice.id = "A100 x2";
        twice.smCount *= 2;
        twice.fp32Gflops *= 2;
        twice.fp32MatrixGflops *= 2;
        twice.memoryBandwidthGBps *= 2;
        QVERIFY(!f.gemmEfficiencyDonor(twice));
        const auto note = readAsNewGpuNote(twice, measured);
        QVERIFY(note);
        QVERIFY2(note->find("A100 x2 is read as a new GPU") == 0 &&
                     note->find("so even its memory size moves its speed and more of a resource can forecast slower") != std::string::npos &&
                     note->find("\"efficiency_basis\": \"A100-PCIE-40GB\"") != std::string::npos,
                 note->c_str());
        GpuSpec based = twice; // naming a basis keeps that GPU's efficiency: nothing to say
        based.efficiencyBasisId = "A100-PCIE-40GB";
        QVERIFY(!readAsNewGpuNote(based, measured));
        QVERIFY(!readAsNewGpuNote(*findGpu(bundled, "H100-SXM5-80GB"), measured)); // borrows: said otherwise
        QVERIFY(!readAsNewGpuNote(twice, {}));                                       // nothing measured to name
        GpuSpec sameId = twice; // edited but keeping the A100's id: still a new GPU to the networks
        sameId.id = "A100-PCIE-40GB";
        const auto sameIdNote = readAsNewGpuNote(sameId, measured);
        QVERIFY(sameIdNote && sameIdNote->find("A100-PCIE-40GB is read as a new GPU") == 0);
    }

    void queuedKernelsShedTheLaunchOverhead()
    {
        KernelForecast f;
        f.geometry = gemmGeometry(Kernel::gemm("bmm", 1, 1024, 1024, 1024), GemmTile{128, 128, 1}, toyGpu());
        const double roofline = f.geometry.secondsAt(1.0);
        f.learned = true;
        f.seconds = 4 * roofline;
        f.secondsLow = 3 * roofline;
        f.secondsHigh = 5 * roofline;
        f.utilization = 0.25;
        const KernelForecast q = queuedInModel(f, roofline, FloorComposition::SmoothMaximum); // overhead: one roofline time
        QCOMPARE(q.seconds, 3 * roofline);
        QCOMPARE(q.utilization, 1.0 / 3);
        QCOMPARE(q.secondsHigh, 5 * roofline * 3 / 4);
        QVERIFY(q.queued);
        QCOMPARE(queuedInModel(q, roofline, FloorComposition::SmoothMaximum).seconds, q.seconds); // never twice
        // An added floor (layer norm) is in every ensemble member's time alike: the band sheds it
        // and keeps its width, down to the roofline.
        const KernelForecast added = queuedInModel(f, roofline, FloorComposition::Added);
        QCOMPARE(added.seconds, 3 * roofline);
        QCOMPARE(added.secondsLow, 2 * roofline);
        QCOMPARE(added.secondsHigh, 4 * roofline);
        const KernelForecast deep = queuedInModel(f, 2.5 * roofline, FloorComposition::Added);
        QCOMPARE(deep.seconds, 1.5 * roofline);
        QCOMPARE(deep.secondsLow, roofline);
        QCOMPARE(deep.secondsHigh, 2.5 * roofline);
        // Never faster than the roofline, nor than the launch interval.
        QCOMPARE(queuedInModel(f, 10 * roofline, FloorComposition::SmoothMaximum).seconds, roofline);
        QCOMPARE(queuedInModel(f, 10 * roofline, FloorComposition::SmoothMaximum).utilization, 1.0);
        KernelForecast tiny = f;
        tiny.geometry.perWaveFlops = 0; // no arithmetic: nothing bounds it but the launch
        tiny.seconds = 30e-6;
        QCOMPARE(queuedInModel(tiny, 29e-6, FloorComposition::SmoothMaximum).seconds, kQueuedLaunchSeconds);
        KernelForecast fallback = f; // not learned: a memory-bound estimate without any overhead in it
        fallback.learned = false;
        QCOMPARE(queuedInModel(fallback, roofline, FloorComposition::SmoothMaximum).seconds, f.seconds);

        // In a model, a copy costs at least a launch; a large one its memory-bound time.
        const Forecaster rooflineOnly({}, nullptr);
        const Kernel copies[] = {Kernel::memory("contiguous", 4096), Kernel::memory("contiguous", 1e9)};
        const auto queued = rooflineOnly.predictQueued(copies, toyGpu());
        QCOMPARE(queued[0].seconds, kQueuedLaunchSeconds);
        QCOMPARE(queued[1].seconds, fallbackSeconds(copies[1], toyGpu()));
    }

    void linearTilesByCost_data()
    {
        QTest::addColumn<int>("sms");
        QTest::addColumn<int>("m");
        QTest::addColumn<int>("n");
        QTest::addColumn<int>("k");
        QTest::addColumn<int>("alongK");
        QTest::addColumn<int>("alongM");
        QTest::addColumn<int>("split");
        // Costs (waves x tile work / sqrt(reuse / 64), plus 32 per summed output element and slice)
        // worked by hand; m rows, n the reduction, k columns.
        QTest::newRow("large output: 128x128, 1024 tiles, no split") << 10 << 4096 << 512 << 4096 << 128 << 128 << 1;
        // 32x32 (reuse 16, speed 0.5) split 10: one wave of 32x32x410 / 0.5 + 32x10x1024/10 = 872448;
        // 128x128 split 10 would be one wave of 128x128x410 = 6.7M.
        QTest::newRow("tiny output, long reduction: split 10") << 10 << 32 << 4096 << 32 << 32 << 32 << 10;
        QTest::newRow("tiny output, short reduction: no split") << 10 << 32 << 200 << 32 << 32 << 32 << 1;
        // A100 runs this shape as 128x64 tiles split along the reduction (grid 12x3x18).
        QTest::newRow("skinny output, long reduction: 128x64 split 3") << 108 << 188 << 28971 << 1533 << 128 << 64 << 3;
        QTest::newRow("64 tokens, 16384 deep: 128x64 split 27") << 108 << 64 << 16384 << 1024 << 128 << 64 << 27;
    }
    void linearTilesByCost()
    {
        QFETCH(int, sms);
        QFETCH(int, m);
        QFETCH(int, n);
        QFETCH(int, k);
        QFETCH(int, alongK);
        QFETCH(int, alongM);
        QFETCH(int, split);
        GpuSpec gpu; // bandwidth to spare: the memory roof never binds, so the cost is compute only
        gpu.smCount = sms;
        gpu.fp32Gflops = gpu.fp32MatrixGflops = 1000;
        gpu.memoryBandwidthGBps = 1e7;
        const auto t = heuristicGemmTile(Kernel::gemm("linear", 1, m, n, k), gpu);
        QCOMPARE(t, (GemmTile{alongK, alongM, split}));
    }

    void tileDatabaseRoundTrip()
    {
        TileDatabase db;
        db.addGpu({"A", 10, 1000, 100, 4, 2018, 16, "Ada, Lovelace", 72});
        db.add("A", OpClass::Linear, 1, 500, 600, 700, GemmTile{128, 32, 3});
        const auto back = TileDatabase::parse(db.serialize(), "mem");
        QCOMPARE(back.size(), std::size_t(1));
        QCOMPARE(back.lookup("A", OpClass::Linear, 1, 500, 600, 700), (GemmTile{128, 32, 3}));
        QCOMPARE(back.gpus().front().architecture, std::string("Ada  Lovelace")); // a comma cannot split the line
        QCOMPARE(back.gpus().front().memoryGb, 16.0);
        QCOMPARE(back.gpus().front().tdpW, 72.0); // the efficiency donor rule reads its power feed
        // Files written before the board power, the architecture or the memory was recorded still load.
        const auto old = TileDatabase::parse("#gpu,A,10,1000,100,4,2018,16\n#gpu,B,10,1000,100,4,2018\n#gpu,C,10,1000,100,4,2018,16,Volta\n", "old");
        QCOMPARE(old.gpus().size(), std::size_t(3));
        QVERIFY(old.gpus()[0].architecture.empty());
        QCOMPARE(old.gpus()[1].memoryGb, 0.0);
        QCOMPARE(old.gpus()[2].architecture, std::string("Volta"));
        QCOMPARE(old.gpus()[2].tdpW, 0.0);
        QVERIFY_THROWS_EXCEPTION(ForecastError, TileDatabase::parse("#gpu,A,10,1000,100,4,2018,16,Ampere,x\n", "bad"));
        QVERIFY_THROWS_EXCEPTION(ForecastError, TileDatabase::parse("#gpu,A,10,1000,100,4,2018,16,Ampere,250,1\n", "bad"));
        // Rows of one GPU and class need not be together, and Windows line ends read the same.
        const auto mixed = TileDatabase::parse("#gpu,A,10,1000,100,4,2018,16,Ampere\r\n#gpu,B,10,1000,100,4,2018,16,Volta\r\n"
                                               "gpu,op,b,m,n,k,along_k,along_m,split\r\nA,linear,1,500,600,700,128,32,3\r\n"
                                               "B,linear,1,500,600,700,64,64,1\r\nA,bmm,8,64,64,64,32,32,1\r\n"
                                               "A,linear,1,5000,6000,7000,128,128,1\r\n",
                                               "mixed");
        QCOMPARE(mixed.size(), std::size_t(4));
        QCOMPARE(mixed.gpus().back().architecture, std::string("Volta"));
        QCOMPARE(mixed.lookup("A", OpClass::Linear, 1, 500, 600, 700), (GemmTile{128, 32, 3}));
        QCOMPARE(mixed.lookup("A", OpClass::Linear, 1, 5000, 6000, 7000), (GemmTile{128, 128, 1}));
        QCOMPARE(mixed.lookup("B", OpClass::Linear, 1, 500, 600, 700), (GemmTile{64, 64, 1}));
        QCOMPARE(mixed.lookup("A", OpClass::Bmm, 8, 64, 64, 64), (GemmTile{32, 32, 1}));
        // A cell that is not wholly a number names its line.
        for (const char* bad : {"A,linear,1,500x,600,700,128,32,3\n", "A,linear,1,500,600,700,128,32,\n",
                                "A,linear,1,500,600,99999999999999999999,128,32,3\n"}) {
            try {
                TileDatabase::parse(std::string("#gpu,A,10,1000,100,4,2018,16,Ampere\n") + bad, "t.csv");
                QFAIL(bad);
            } catch (const ForecastError& e) {
                QVERIFY2(std::string(e.what()).find("t.csv") != std::string::npos &&
                             std::string(e.what()).find("line 2") != std::string::npos,
                         e.what());
            }
        }
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

    void transposedOperandWastesSectorsBeyondL2()
    {
        const GpuSpec gpu = toyGpu(); // 4 MB L2, 100 GB/s
        Kernel add = Kernel::vector("add", 1000, 1000); // 1e6 elements
        QCOMPARE(transposedOperandSeconds(add, gpu), 0.0); // contiguous operands
        add.transposedReuseBytes = 1e6; // window within half the L2: the sectors are reused
        QCOMPARE(transposedOperandSeconds(add, gpu), 0.0);
        add.transposedReuseBytes = 8e6; // beyond the L2: 28 wasted bytes per element at 70 GB/s
        QCOMPARE(transposedOperandSeconds(add, gpu), 1e6 * 28 / 70e9);
        add.transposedReuseBytes = 3e6; // half way between L2 / 2 and L2
        QCOMPARE(transposedOperandSeconds(add, gpu), 0.5 * 1e6 * 28 / 70e9);
        GpuSpec bigCache = gpu;
        bigCache.l2CacheMb = 16;
        add.transposedReuseBytes = 8e6;
        QCOMPARE(transposedOperandSeconds(add, bigCache), 0.0); // what-if on L2 moves it
        // The forecast carries it on top of the learned time.
        const Forecaster f = Forecaster::loadFromDirectory(std::string(GPUFORECAST_RESOURCES) + "/weights");
        Kernel plain = Kernel::vector("add", 1000, 1000);
        const KernelForecast a = f.predict(plain, gpu), b = f.predict(add, gpu);
        QVERIFY(std::abs(b.seconds - a.seconds - 1e6 * 28 / 70e9) < 1e-12);
        QVERIFY(b.utilization < a.utilization);
    }

    void rowsReReadFromDramOnceTheyOverflowL1()
    {
        // Toy GPU, 100 GB/s: DRAM time at 0.85 of it, all of a kernel's bytes plus its re-reads.
        GpuSpec gpu = toyGpu();
        gpu.architecture = "Ampere";
        gpu.l1CacheKb = 192; // one array with shared memory: 128 KB left to cache in
        gpu.maxThreadsPerSm = 2048;
        const double rate = 0.85 * 100e9;
        auto floorOf = [&](const char* op, long long rows, long long h) {
            return vectorGeometry(Kernel::vector(op, rows, h), gpu).trafficFloorSeconds;
        };
        // Softmax rows of 8192 floats: blocks of 512 threads, 4 resident rows of 32 KB fill 128 KB exactly.
        QCOMPARE(floorOf("softmax", 1000, 8192), 0.0);
        // Rows of 16384: 256 KB resident, twice the L1: both later passes read from DRAM.
        QCOMPARE(floorOf("softmax", 1000, 16384), 1000 * 16384 * 4.0 * (2 + 2) / rate);
        // Rows of 12288: 192 KB resident, half way: one re-read's worth.
        QCOMPARE(floorOf("softmax", 1000, 12288), 1000 * 12288 * 4.0 * (2 + 1) / rate);
        // Short rows go to the warp kernel, which keeps them in registers, however small the L1.
        gpu.l1CacheKb = 16;
        QCOMPARE(floorOf("softmax", 1000, 1024), 0.0);
        // Layer norm, 128 threads per row: 16 resident rows; one re-read.
        gpu.architecture = "Pascal";
        gpu.l1CacheKb = 24; // a separate L1: all of it caches
        QCOMPARE(floorOf("ln", 1000, 384), 0.0);        // 16 x 1.5 KB = 24 KB
        QCOMPARE(floorOf("ln", 1000, 768), 1000 * 768 * 4.0 * (2 + 1) / rate);
        // Fewer resident threads, fewer resident rows: a T4-like SM keeps longer rows in L1.
        gpu.architecture = "Turing";
        gpu.l1CacheKb = 96;
        gpu.maxThreadsPerSm = 1024; // 8 rows
        QCOMPARE(floorOf("ln", 1000, 1024), 0.0); // 8 x 4 KB = 32 KB = 96 - 64
        QVERIFY(floorOf("ln", 1000, 2048) > 0);
        // Element-wise kernels read their operands once.
        QCOMPARE(floorOf("add", 1000, 1 << 16), 0.0);
        // A larger L1 never adds traffic.
        gpu.architecture = "Hopper";
        gpu.maxThreadsPerSm = 2048;
        double previous = std::numeric_limits<double>::infinity();
        for (double kb : {16.0, 64.0, 96.0, 128.0, 192.0, 256.0, 512.0}) {
            gpu.l1CacheKb = kb;
            const double t = floorOf("softmax", 1000, 8192);
            QVERIFY(t <= previous);
            previous = t;
        }
        // A sheet without the fields reads as 128 KB and 2048 threads.
        GpuSpec plain = toyGpu(), volta = toyGpu();
        volta.l1CacheKb = 128;
        volta.maxThreadsPerSm = 2048;
        for (long long h : {2048LL, 4096LL, 6144LL, 16384LL})
            QCOMPARE(vectorGeometry(Kernel::vector("softmax", 100, h), plain).trafficFloorSeconds,
                     vectorGeometry(Kernel::vector("softmax", 100, h), volta).trafficFloorSeconds);
    }

    void trafficFloorBoundsTheForecast()
    {
        const Forecaster f = Forecaster::loadFromDirectory(std::string(GPUFORECAST_RESOURCES) + "/weights");
        GpuSpec gpu = toyGpu();
        gpu.l1CacheKb = 16; // long softmax rows re-read from DRAM twice
        const Kernel k = Kernel::vector("softmax", 1 << 14, 16384);
        const KernelForecast spilled = f.predict(k, gpu);
        QVERIFY(spilled.geometry.trafficFloorSeconds > 0);
        QVERIFY(spilled.seconds >= spilled.geometry.trafficFloorSeconds);
        gpu.l1CacheKb = 4096; // rows stay in L1: no floor, and never slower
        const KernelForecast cached = f.predict(k, gpu);
        QCOMPARE(cached.geometry.trafficFloorSeconds, 0.0);
        QVERIFY(cached.seconds <= spilled.seconds);
        // Inside a model a kernel sheds its launch overhead, but not below the bytes it moves:
        // small layer-norm kernels on a fast part were 25% under their floor.
        const auto bundled = loadGpuDirectory(std::string(GPUFORECAST_RESOURCES) + "/gpus");
        const GpuSpec fast = *findGpu(bundled, "H100-SXM5-80GB");
        for (const Kernel& small : {Kernel::vector("ln", 512, 4096), Kernel::vector("softmax", 256, 16384)}) {
            const Kernel one[] = {small};
            const KernelForecast queued = f.predictQueued(one, fast).front();
            const double floor = queued.geometry.trafficFloorSeconds;
            QVERIFY2(floor > 0, small.op.c_str());
            QVERIFY2(queued.seconds >= floor && queued.secondsLow >= floor * (1 - 1e-12),
                     qPrintable(QString("%1: %2 us, floor %3 us").arg(small.op.c_str()).arg(queued.seconds * 1e6).arg(floor * 1e6)));
            QVERIFY2(queued.seconds < f.predict(small, fast).seconds, small.op.c_str()); // it still sheds
        }
        // The Waves chart's curve carries the same cap, so the kernel's own point sits on it.
        const double w = spilled.geometry.waves;
        const double waves[] = {w};
        gpu.l1CacheKb = 16;
        QVERIFY(std::abs(f.utilizationCurve(k, gpu, waves)[0] / spilled.utilization - 1) < 1e-3);
    }

    void lastWaveFill_data()
    {
        QTest::addColumn<int>("mTiles");
        QTest::addColumn<int>("kTiles");
        QTest::addColumn<long long>("fullWaves");
        QTest::addColumn<double>("partialFill");
        // 10 SMs; 64x64 tiles.
        QTest::newRow("one tile") << 1 << 1 << 0LL << 0.1;
        QTest::newRow("12 tiles: 1 wave + 2 of 10 SMs") << 3 << 4 << 1LL << 0.2;
        QTest::newRow("20 tiles: exactly 2 waves") << 4 << 5 << 2LL << 0.0;
        QTest::newRow("77 tiles") << 7 << 11 << 7LL << 0.7;
    }
    void lastWaveFill()
    {
        QFETCH(int, mTiles);
        QFETCH(int, kTiles);
        QFETCH(long long, fullWaves);
        QFETCH(double, partialFill);
        const auto g = gemmGeometry(Kernel::gemm("bmm", 1, 64 * mTiles, 64, 64 * kTiles), GemmTile{64, 64, 1}, toyGpu());
        const WaveFill fill = waveFill(g, toyGpu());
        QCOMPARE(fill.fullWaves, fullWaves);
        QVERIFY(std::abs(fill.partialFill - partialFill) < 1e-12);
    }

    void sweepStepsExactlyAtWaveBoundaries()
    {
        const Forecaster f = Forecaster::loadFromDirectory(std::string(GPUFORECAST_RESOURCES) + "/weights");
        const GpuSpec gpu = toyGpu();
        // Rows of 512 elements: one tile per row, 10 SMs, so waves = ceil(rows / 10) and a new wave
        // starts at rows 11, 21, ..., 91. A grid of 7 points is far coarser than the waves.
        const Kernel add = Kernel::vector("add", 50, 512);
        const SizeSweep s = sweepSizes(f, add, gpu, 100, 7);
        std::vector<long long> expected;
        for (long long r = 11; r <= 91; r += 10)
            expected.push_back(r);
        QCOMPARE(s.boundaries, expected);
        // Between any two consecutive sizes the wave count changes exactly at a boundary.
        const auto wavesAt = [&](long long rows) { return f.geometry(withSweptSize(add, rows), gpu).waves; };
        for (std::size_t i = 1; i < s.sizes.size(); ++i) {
            const bool isBoundary = std::count(s.boundaries.begin(), s.boundaries.end(), s.sizes[i]) == 1;
            QCOMPARE(wavesAt(s.sizes[i]) != wavesAt(s.sizes[i - 1]), isBoundary);
        }
        QCOMPARE(s.sizes.front(), 1LL);
        QCOMPARE(s.sizes.back(), 100LL);
        // A wave every 10 rows up to 2000: 199 boundaries, too many to draw; only the grid is priced.
        const SizeSweep dense = sweepSizes(f, add, gpu, 2000, 7);
        QCOMPARE(dense.boundaries.size(), std::size_t(199));
        QCOMPARE(dense.sizes.size(), std::size_t(8)); // 1 and 7 evenly spaced sizes
        QCOMPARE(sweptSize(withSweptSize(Kernel::gemm("linear", 1, 100, 64, 64), 300)), 300LL); // GEMMs sweep m
    }

    void utilizationCurveIsTheForecastsOwn()
    {
        const Forecaster f = Forecaster::loadFromDirectory(std::string(GPUFORECAST_RESOURCES) + "/weights");
        const GpuSpec gpu = toyGpu();
        // Large kernels, so the launch floor is negligible and the forecast is the wave law alone;
        // the softmax fills its last wave, so it is not priced on padded rows (another law's point).
        for (const Kernel& k : {Kernel::gemm("linear", 1, 8192, 4096, 8192), Kernel::vector("softmax", 64000, 2048)}) {
            const KernelForecast own = f.predict(k, gpu);
            const double w = own.geometry.waves;
            const double waves[] = {1, 1.5, w, 4 * w, 8 * w};
            const auto u = f.utilizationCurve(k, gpu, waves);
            QCOMPARE(u.size(), std::size_t(5));
            for (std::size_t i = 0; i < u.size(); ++i) { // saturating, and never above the roofline
                QVERIFY(u[i] > 0 && u[i] < 1);
                if (i > 0)
                    QVERIFY2(u[i] >= u[i - 1], k.op.c_str());
            }
            QCOMPARE(own.pricedWaves, 0.0); // priced at its own waves (else it sits on another law)
            QVERIFY2(std::abs(u[2] / own.utilization - 1) < 1e-9, k.op.c_str()); // the forecast sits on it
        }
        // Kernels larger than any measured one are priced from the largest measured kernel (its
        // share of their waves). Along the curve the kernel at w waves is one of w / its own waves
        // its size: a review saw GPT-2's softmax curve at 0 below 2.3 waves, and layer norm's and
        // add's sat at their floor up to a hundred waves, since every point took the own kernel's
        // share of a few waves, a hundredth of one.
        for (const Kernel& k : {Kernel::vector("softmax", 1310720, 1024), Kernel::vector("ln", 4000000, 1024),
                                Kernel::vector("add", 40000000, 1024)}) {
            const KernelForecast own = f.predict(k, gpu);
            const double w = own.geometry.waves;
            QVERIFY2(w > 1000, k.op.c_str());
            const double waves[] = {1, 4, 16, w};
            const auto u = f.utilizationCurve(k, gpu, waves);
            // The forecast still sits on it (layer norm's added launch floor, 30 us of seconds, aside).
            QVERIFY2(std::abs(u[3] / own.utilization - 1) < 1e-3, k.op.c_str());
            for (std::size_t i = 1; i < u.size(); ++i)
                QVERIFY2(u[i] >= u[i - 1], k.op.c_str());
            QVERIFY2(u[1] > 0.6 * u[3], qPrintable(QString("%1: %2 at 4 waves, %3 at its own %4")
                                                       .arg(k.op.c_str()).arg(u[1]).arg(u[3]).arg(w)));
        }
        const double one[] = {3};
        QVERIFY(f.utilizationCurve(Kernel::memory("embedding", 1e6), gpu, one).empty()); // no waves
        const Forecaster rooflineOnly({}, nullptr);
        QCOMPARE(rooflineOnly.utilizationCurve(Kernel::vector("add", 64, 512), gpu, one), std::vector<double>{1.0});
    }
};

QTEST_APPLESS_MAIN(TestGeometry)
#include "test_geometry.moc"
