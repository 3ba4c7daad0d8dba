#include "gpuforecast/tiling.h"

#include "gpuforecast/error.h"
#include "gpuforecast/extrapolation.h"
#include "gpuforecast/file_io.h"
#include "gpuforecast/geometry.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <limits>
#include <sstream>
#include <string_view>
#include <tuple>

namespace gpuforecast {
namespace {

// A free-text field (a GPU's architecture) inside the comma-separated tile file.
std::string csvSafe(std::string text)
{
    std::replace(text.begin(), text.end(), ',', ' ');
    std::replace(text.begin(), text.end(), '\n', ' ');
    std::replace(text.begin(), text.end(), '\r', ' ');
    return text;
}

} // namespace

std::optional<GemmTile> parseGemmKernelName(const std::string& kernelName)
{
    // The first "<digits>x<digits>" in the name (what regex_search of (\d+)x(\d+) finds), scanned by
    // hand: std::regex recursed once per character and overflowed the stack on a long run of digits
    // in a measured kernel name, and std::stoi threw std::out_of_range on "99999999999x1".
    const auto isDigit = [](char c) { return c >= '0' && c <= '9'; };
    const auto digitsFrom = [&](std::size_t i) {
        std::size_t j = i;
        while (j < kernelName.size() && isDigit(kernelName[j]))
            ++j;
        return j;
    };
    // A dimension over 1024 (or too long for an int) is not a tile; from_chars reports overflow.
    const auto dimension = [&](std::size_t begin, std::size_t end) -> std::optional<int> {
        int v = 0;
        const auto [ptr, ec] = std::from_chars(kernelName.data() + begin, kernelName.data() + end, v);
        if (ec != std::errc() || ptr != kernelName.data() + end || v <= 0 || v > 1024)
            return std::nullopt;
        return v;
    };
    for (std::size_t i = 0; i < kernelName.size();) {
        if (!isDigit(kernelName[i])) {
            ++i;
            continue;
        }
        const std::size_t firstEnd = digitsFrom(i);
        if (firstEnd + 1 < kernelName.size() && kernelName[firstEnd] == 'x' && isDigit(kernelName[firstEnd + 1])) {
            const auto alongK = dimension(i, firstEnd);
            const auto alongM = dimension(firstEnd + 1, digitsFrom(firstEnd + 1));
            if (!alongK || !alongM)
                return std::nullopt;
            GemmTile t;
            t.alongK = *alongK;
            t.alongM = *alongM;
            return t;
        }
        i = firstEnd;
    }
    return std::nullopt;
}

double vectorTileElements(const Kernel& k)
{
    switch (k.opClass) {
    case OpClass::Elementwise:
        return 512; // vectorized_elementwise_kernel: 128 threads x 4 elements
    case OpClass::LayerNorm:
        return double(k.h); // one row per block
    case OpClass::Softmax: {
        if (k.h > 1024)
            return double(k.h); // cunn_SoftMaxForward: one row per block
        // softmax_warp_forward: a warp (up to 32 lanes) per row, 128 threads per block,
        // two rows per warp while a row fits in 128 elements.
        long long pow2 = 1;
        while (pow2 < k.h)
            pow2 <<= 1;
        const long long warpSize = std::min<long long>(pow2, 32);
        const long long rowsPerWarp = pow2 <= 128 ? 2 : 1;
        const long long rowsPerBlock = (128 / warpSize) * rowsPerWarp;
        return double(rowsPerBlock * k.h);
    }
    default:
        return std::max(1.0, double(k.h));
    }
}

void TileDatabase::addGpu(const ReferenceGpu& gpu)
{
    for (std::size_t i = 0; i < gpus_.size(); ++i)
        if (gpus_[i].id == gpu.id) {
            gpus_[i] = gpu;
            families_[i] = gemmKernelFamily(gpu.architecture);
            return;
        }
    gpus_.push_back(gpu);
    families_.push_back(gemmKernelFamily(gpu.architecture));
}

void TileDatabase::add(const std::string& gpuId, OpClass opClass, long long b, long long m, long long n, long long k,
                       const GemmTile& tile)
{
    cache_ = std::make_shared<LookupCache>();
    addShape(entries_[{gpuId, opClass}], b, m, n, k, tile);
}

void TileDatabase::addShape(Shapes& shapes, long long b, long long m, long long n, long long k, const GemmTile& tile)
{
    auto lg = [](long long v) { return float(std::log2(double(std::max(1LL, v)))); };
    const std::array<float, 4> x{lg(b), lg(m), lg(n), lg(k)};
    const bool first = shapes.entries.empty();
    for (std::size_t d = 0; d < x.size(); ++d) {
        shapes.lo[d] = first ? x[d] : std::min(shapes.lo[d], x[d]);
        shapes.hi[d] = first ? x[d] : std::max(shapes.hi[d], x[d]);
    }
    shapes.entries.push_back(Entry{x, tile, b, m, n, k});
}

TileDatabase TileDatabase::without(const std::string& gpuId) const
{
    TileDatabase out;
    for (const ReferenceGpu& g : gpus_)
        if (g.id != gpuId)
            out.addGpu(g);
    for (const auto& [key, shapes] : entries_)
        if (key.first != gpuId)
            out.entries_.emplace(key, shapes);
    return out;
}

std::string gemmKernelFamily(const std::string& architecture)
{
    // cuBLAS ships FP32 GEMM kernels per SM generation and runs the newest one a GPU supports:
    // Pascal runs maxwell_sgemm_*, Turing volta_sgemm_*, Ada and Hopper ampere_sgemm_*. Each family
    // has its own tile habits (of the measured bmm shapes the A100 runs 99.6% as 128x128, P100 and
    // P4 99.6% as 128x64, V100 and T4 a mix of five sizes). Blackwell is assumed to keep Ampere's.
    // Any word of the name counts ("Ada Lovelace", "Grace Hopper"), whatever its case or spacing.
    std::istringstream words(architecture);
    for (std::string w; words >> w;) {
        std::transform(w.begin(), w.end(), w.begin(), [](unsigned char c) { return char(std::tolower(c)); });
        if (w == "maxwell" || w == "pascal")
            return "maxwell";
        if (w == "volta" || w == "turing")
            return "volta";
        if (w == "ampere" || w == "ada" || w == "hopper" || w == "blackwell")
            return "ampere";
    }
    return "";
}

std::optional<std::string> TileDatabase::efficiencyDonorForTiles(const GpuSpec& target) const
{
    // The networks learned each measured GPU's efficiency on the tiles that GPU ran. A GPU that
    // borrows that efficiency and prices it on another GPU's tiles, in other waves, reads the
    // networks where they never saw that GPU: held out, P4 borrows T4's efficiency (beyond the
    // other four's bandwidth per SM) and took P100's tiles, its kernel family's; its `bmm` rows
    // were forecast to 52.5% (training) and its whole models to 13.1%, and on T4's tiles to 37.3%
    // and 11.0% (docs/accuracy.md, findings, "bmm tiles with the efficiency they were learned on").
    // From half the donor's weight on, the tiles follow the efficiency.
    const auto donor = gemmEfficiencyDonor(target.efficiencySheet(), gpus_);
    if (!donor || !(donor->weight >= 0.5) || donor->gpu.id == target.id || donor->gpu.id == target.efficiencySheet().id ||
        !entries_.count({donor->gpu.id, OpClass::Bmm}))
        return std::nullopt;
    return donor->gpu.id;
}

std::string TileDatabase::referenceFor(const GpuSpec& target) const
{
    if (auto donor = efficiencyDonorForTiles(target))
        return *donor;
    // Leave-one-GPU-out bmm error (training rows / validation rows) with tiles borrowed from the
    // newest GPU, the rule before this one: A100 29/17%, V100 35/21%, T4 41/33%, P100 24/13%. With
    // the same family's (V100 <-> T4, P100 <-> P4) and, for the A100, whose family nothing else
    // measured shares, the GPU nearest in per-SM rates (P100): A100 22/13%, V100 21/21%, T4 24/23%,
    // P100 20/8%. Nearest in rates also beat newest as the fallback when a GPU's family partner was
    // left out too (T4 27/28% against 41/33%). docs/accuracy.md has the whole comparison.
    const std::string family = gemmKernelFamily(target.architecture);
    // Ranked by (not in the family, distance in rates, id): unusable spec sheets last, ties stable.
    const ReferenceGpu* best = nullptr;
    bool bestOutside = true;
    double bestD = INFINITY;
    for (std::size_t i = 0; i < gpus_.size(); ++i) {
        const ReferenceGpu& g = gpus_[i];
        // Nor those of the sheet it is read as: a copy of a measured GPU must forecast as that GPU
        // does, which never reads its own tiles (an A100 doubled in place and the same sheet
        // duplicated first differed by 4%).
        if (g.id == target.id || g.id == target.efficiencySheet().id || !entries_.count({g.id, OpClass::Bmm}))
            continue;
        const bool outside = family.empty() || families_[i] != family;
        const double d = perSmRateDistance(target, g);
        if (!best || std::tie(outside, d, g.id) < std::tie(bestOutside, bestD, best->id)) {
            best = &g;
            bestOutside = outside;
            bestD = d;
        }
    }
    return best ? best->id : std::string();
}

std::optional<std::string> TileDatabase::ownTilesNote(const GpuSpec& target) const
{
    const std::string& own = target.efficiencySheet().id;
    if (!entries_.count({own, OpClass::Bmm}))
        return std::nullopt;
    const std::string ref = referenceFor(target);
    return "attention GEMMs (bmm) take " + (ref.empty() ? std::string("default") : ref + "'s") +
           " tiles: " + own + "'s own measured tiles are not read, as no forecast reads measurements of the GPU it "
           "forecasts (a sheet of the same chip under another id, not read as this one, reads them, so the two can differ)";
}

GemmTile TileDatabase::lookup(const std::string& referenceId, OpClass opClass, long long b, long long m, long long n,
                              long long k) const
{
    const LookupKey key{referenceId, opClass, b, m, n, k};
    {
        std::lock_guard lock(cache_->mutex);
        if (auto it = cache_->tiles.find(key); it != cache_->tiles.end())
            return it->second;
    }
    const GemmTile tile = lookupUncached(referenceId, opClass, b, m, n, k);
    std::lock_guard lock(cache_->mutex);
    cache_->tiles.emplace(key, tile);
    return tile;
}

const std::vector<std::uint32_t>& TileDatabase::orderByM(LookupCache& cache, const ShapesKey& key, const Shapes& shapes)
{
    std::lock_guard lock(cache.mutex);
    auto [it, added] = cache.byM.try_emplace(key);
    if (added) {
        std::vector<std::uint32_t>& order = it->second;
        order.resize(shapes.entries.size());
        for (std::uint32_t i = 0; i < order.size(); ++i)
            order[i] = i;
        std::stable_sort(order.begin(), order.end(), [&](std::uint32_t x, std::uint32_t y) {
            return shapes.entries[x].logShape[1] < shapes.entries[y].logShape[1];
        });
    }
    return it->second; // map nodes stay put; the cache lives as long as the entries it indexes
}

GemmTile TileDatabase::lookupUncached(const std::string& referenceId, OpClass opClass, long long b, long long m,
                                      long long n, long long k) const
{
    auto it = entries_.find({referenceId, opClass});
    if (it == entries_.end())
        it = entries_.find({referenceId, opClass == OpClass::Linear ? OpClass::Bmm : OpClass::Linear});
    if (it == entries_.end() || it->second.entries.empty())
        return GemmTile{};
    const Shapes& shapes = it->second;
    // Shapes beyond the measured range (a 50k-vocabulary head, a 64k-token batch) are looked up as
    // the largest measured shape in that direction: cuBLAS keeps the tile it uses for large
    // problems, while the nearest neighbour of an out-of-range point is arbitrary.
    std::array<float, 4> q{float(std::log2(double(b))), float(std::log2(double(m))), float(std::log2(double(n))),
                           float(std::log2(double(k)))};
    for (std::size_t d = 0; d < 4; ++d)
        q[d] = std::clamp(q[d], shapes.lo[d], shapes.hi[d]);
    // Majority vote of the nearest few measured shapes: single neighbours flip between tiles at
    // heuristic boundaries; a vote returns the library's usual choice for that region.
    // The output shape (m x k per batch) decides the tile; the reduction n mostly decides split-K,
    // so it counts for less. Otherwise a model-sized GEMM (all three large, rare in the sampled
    // training shapes) borrows the small tile of a skinny one that happens to share its n.
    constexpr std::array<float, 4> kWeight{1, 4, 0.25f, 4};
    constexpr std::size_t kNeighbours = 7;
    using Candidate = std::pair<float, std::uint32_t>; // distance, entry; equal distances: first measured
    std::vector<Candidate> nearest;
    nearest.reserve(kNeighbours + 1);
    auto consider = [&](std::uint32_t i) {
        const auto& x = shapes.entries[i].logShape;
        float d = 0;
        for (std::size_t j = 0; j < 4; ++j)
            d += kWeight[j] * (x[j] - q[j]) * (x[j] - q[j]);
        const Candidate c{d, i};
        if (nearest.size() == kNeighbours && !(c < nearest.back()))
            return;
        nearest.insert(std::upper_bound(nearest.begin(), nearest.end(), c), c);
        if (nearest.size() > kNeighbours)
            nearest.pop_back();
    };
    // Outwards from the query's m, nearer m first, until m's term alone exceeds the seventh
    // nearest distance: every other term is non-negative, so no shape further out can enter.
    const std::vector<std::uint32_t>& order = orderByM(*cache_, it->first, shapes);
    auto logM = [&](std::size_t pos) { return shapes.entries[order[pos]].logShape[1]; };
    std::size_t right = std::size_t(std::partition_point(order.begin(), order.end(), [&](std::uint32_t i) {
                                        return shapes.entries[i].logShape[1] < q[1];
                                    }) - order.begin());
    std::size_t left = right;
    constexpr float kNone = std::numeric_limits<float>::infinity();
    while (left > 0 || right < order.size()) {
        const float below = left > 0 ? q[1] - logM(left - 1) : kNone;
        const float above = right < order.size() ? logM(right) - q[1] : kNone;
        const float gap = std::min(below, above);
        if (nearest.size() == kNeighbours && kWeight[1] * gap * gap > nearest.back().first)
            break;
        consider(below < above ? order[--left] : order[right++]);
    }
    const Entry* best = &shapes.entries[nearest.front().second];
    int bestVotes = 0;
    for (const auto& [d, i] : nearest) {
        int votes = 0;
        for (const auto& [d2, i2] : nearest)
            votes += shapes.entries[i2].tile == shapes.entries[i].tile;
        if (votes > bestVotes) { // ties keep the nearer candidate (nearest is sorted)
            bestVotes = votes;
            best = &shapes.entries[i];
        }
    }
    GemmTile tile = best->tile;
    // A split of the reduction only makes sense when the reduction is long enough to share.
    tile.reductionSplit = int(std::clamp<long long>(tile.reductionSplit, 1, std::max(1LL, n / 32)));
    return tile;
}

double fp32GemmIssueShare(const GpuSpec& gpu)
{
    constexpr double kSingleDispatchShare = 0.90;
    if (gpu.readAsMeasuredGpu || gpu.coresPerSm < 128 || gemmKernelFamily(gpu.architecture) != "ampere")
        return 1.0;
    return gpu.vendor.empty() || gpu.vendorIsNvidia() ? kSingleDispatchShare : 1.0;
}

GemmTile heuristicGemmTile(const Kernel& k, const GpuSpec& gpu)
{
    // A small cost model of the choice cuBLAS makes: for every tile shape and split-K factor, the
    // waves it needs times the work of one tile, where a larger tile does its work faster (more
    // reuse per loaded element; the square root of its panel-reuse ratio), plus the cost of summing
    // the split partial outputs. Picking the cheapest reproduces what the measured kernels show:
    // a skinny output with a long reduction runs as a few large tiles split along the reduction
    // (e.g. m=188, n=28971, k=1533 on A100: 128x64 tiles, split 18), not as many 32x32 tiles.
    // Leave-one-GPU-out, against the previous fill-the-SMs rule: whole-model error on A100 9.3% ->
    // 8.1% (worst run 46% -> 17%), P4 158% -> 13%; see docs/accuracy.md.
    // A tile is never cheaper than its own roofline's memory time (with the wave's panel reuse, as
    // the forecast prices it): on a part with few bytes per FLOP (L4: 100 FLOP/B) the compute-only
    // cost split layers into slices whose tiles the roofline calls memory-bound, and a layer of 2048
    // rows was forecast 16% slower than one of 2304 that kept whole tiles.
    static const GemmTile kCandidates[] = {{128, 128, 1}, {128, 64, 1}, {64, 64, 1}, {128, 32, 1},
                                           {64, 32, 1},   {32, 32, 1}};
    constexpr int kMaxSplit = 32;
    constexpr double kMinSliceLength = 128;  // a split slice shorter than this is never worth it
    constexpr double kSplitSumCost = 32;     // per output element and slice, in MAC units
    constexpr double kReferenceReuse = 64;   // the panel-reuse ratio of a 128x128 tile
    const double smCount = gpu.smCount;
    // Roofline seconds -> MAC units of one SM, the unit of the compute cost below.
    const double macsPerSecondPerSm = gpu.peakFlops(true) * fp32GemmIssueShare(gpu) / 2 / smCount;
    GemmTile best{32, 32, 1};
    double bestCost = std::numeric_limits<double>::infinity();
    for (const auto& t : kCandidates) {
        const double outputTiles = double(k.b) * std::ceil(double(k.k) / t.alongK) * std::ceil(double(k.m) / t.alongM);
        const double reuse = double(t.alongK) * t.alongM / (t.alongK + t.alongM);
        const double speed = std::sqrt(reuse / kReferenceReuse);
        for (int split = 1; split <= kMaxSplit; ++split) {
            if (split > 1 && double(k.n) / split < kMinSliceLength)
                break;
            const double waves = std::ceil(outputTiles * split / smCount);
            const double tileWork = double(t.alongK) * t.alongM * std::ceil(double(k.n) / split);
            const double sumWork = split > 1 ? kSplitSumCost * split * double(k.b) * k.m * k.k / smCount : 0.0;
            const double computeCost = waves * tileWork / speed + sumWork;
            if (computeCost >= bestCost * (1 - 1e-3))
                continue; // the roofline can only add to it: skip the geometry (every forecast runs this)
            GemmTile candidate = t;
            candidate.reductionSplit = split;
            const double roofline = gemmGeometry(k, candidate, gpu).secondsAt(1.0) * macsPerSecondPerSm;
            const double cost = std::max(waves * tileWork / speed, roofline) + sumWork;
            if (cost < bestCost * (1 - 1e-3)) { // ties go to the larger tile, the smaller split
                bestCost = cost;
                best = t;
                best.reductionSplit = split;
            }
        }
    }
    return best;
}

GemmTile TileDatabase::tileFor(const GpuSpec& target, const Kernel& k) const
{
    // Linear layers: the measured shapes are random samples in which model-sized GEMMs (m, n and k
    // all large) are rare, so a borrowed tile for them comes from a skinny neighbour and is wrong;
    // leave-one-GPU-out error on linear kernels fell from 82% to 27% (P4 aside) with the rule.
    if (k.opClass == OpClass::Linear)
        return heuristicGemmTile(k, target);
    const std::string ref = referenceFor(target);
    if (ref.empty())
        return GemmTile{};
    return lookup(ref, k.opClass, k.b, k.m, k.n, k.k);
}

std::vector<std::string> TileDatabase::gpuIds() const
{
    std::vector<std::string> ids;
    for (const auto& g : gpus_)
        ids.push_back(g.id);
    return ids;
}

std::size_t TileDatabase::size() const
{
    std::size_t n = 0;
    for (const auto& [key, v] : entries_)
        n += v.entries.size();
    return n;
}

std::string TileDatabase::serialize() const
{
    std::ostringstream os;
    os.precision(10);
    for (const auto& g : gpus_)
        os << "#gpu," << g.id << ',' << g.smCount << ',' << g.fp32Gflops << ',' << g.bandwidthGBps << ','
           << g.l2CacheMb << ',' << g.launchYear << ',' << g.memoryGb << ',' << csvSafe(g.architecture) << ',' << g.tdpW << '\n';
    os << "gpu,op,b,m,n,k,along_k,along_m,split\n";
    for (const auto& [key, v] : entries_)
        for (const auto& e : v.entries)
            os << key.first << ',' << opClassName(key.second) << ',' << e.b << ',' << e.m << ',' << e.n << ','
               << e.k << ',' << e.tile.alongK << ',' << e.tile.alongM << ',' << e.tile.reductionSplit << '\n';
    return os.str();
}

namespace {

// The cells of one line, split at commas without copying. Tables written before <architecture> was
// recorded end "#gpu" lines at <memory>; a trailing comma (an empty architecture) gives an empty
// last cell.
std::vector<std::string_view>& splitCells(std::string_view line, std::vector<std::string_view>& cells)
{
    cells.clear();
    for (std::size_t from = 0;;) {
        const std::size_t comma = line.find(',', from);
        cells.push_back(line.substr(from, comma == std::string_view::npos ? std::string_view::npos : comma - from));
        if (comma == std::string_view::npos)
            return cells;
        from = comma + 1;
    }
}

// The whole cell as a number, or std::invalid_argument (caught below as "not a number").
template <typename T>
T cellNumber(std::string_view cell)
{
    T v{};
    const auto [end, ec] = std::from_chars(cell.data(), cell.data() + cell.size(), v);
    if (ec == std::errc::result_out_of_range)
        throw std::out_of_range("out of range");
    if (ec != std::errc() || end != cell.data() + cell.size()) // an empty cell is invalid_argument too
        throw std::invalid_argument("not a number");
    return v;
}

} // namespace

// The shipped table has some 120,000 rows and is read at every start of the CLI and the app, so a
// row is parsed without allocating: views into the text, and the rows of one GPU and class (which
// serialize() writes together) added to the same Shapes.
TileDatabase TileDatabase::parse(const std::string& text, const std::string& source)
{
    refuseNulBytes(text, source);
    TileDatabase db;
    std::vector<std::string_view> f;
    Shapes* shapes = nullptr; // those of the last row's GPU and class
    ShapesKey shapesKey;
    std::size_t lineNo = 0;
    for (std::size_t from = 0; from < text.size();) {
        const std::size_t newline = std::min(text.find('\n', from), text.size());
        std::string_view line(text.data() + from, newline - from);
        from = newline + 1;
        if (!line.empty() && line.back() == '\r') // a table saved with Windows line ends
            line.remove_suffix(1);
        ++lineNo;
        if (line.empty() || line.rfind("gpu,op,", 0) == 0)
            continue;
        splitCells(line, f);
        const auto where = [&] { return "line " + std::to_string(lineNo); };
        try {
            if (line[0] == '#') {
                // 7 to 9 fields: files written before <memory>, <architecture> and <tdp> were recorded
                if (f.size() < 7 || f.size() > 10 || f[0] != "#gpu")
                    throwInputError(source, where(),
                                    "expected #gpu,<id>,<sm>,<fp32>,<bw>,<l2>,<year>,<memory>,<architecture>,<tdp>");
                db.addGpu({std::string(f[1]), cellNumber<double>(f[2]), cellNumber<double>(f[3]),
                           cellNumber<double>(f[4]), cellNumber<double>(f[5]), cellNumber<double>(f[6]),
                           f.size() >= 8 ? cellNumber<double>(f[7]) : 0.0, f.size() >= 9 ? std::string(f[8]) : std::string(),
                           f.size() == 10 ? cellNumber<double>(f[9]) : 0.0});
                continue;
            }
            if (f.size() != 9)
                throwInputError(source, where(), "expected 9 columns, got " + std::to_string(f.size()));
            const auto cls = opClassFromName(f[1]);
            if (!cls || (*cls != OpClass::Bmm && *cls != OpClass::Linear))
                throwInputError(source, where() + " op", "expected bmm or linear, got '" + std::string(f[1]) + "'");
            const GemmTile t{cellNumber<int>(f[6]), cellNumber<int>(f[7]), cellNumber<int>(f[8])};
            const long long b = cellNumber<long long>(f[2]), m = cellNumber<long long>(f[3]),
                            n = cellNumber<long long>(f[4]), k = cellNumber<long long>(f[5]);
            if (b < 1 || m < 1 || n < 1 || k < 1 || t.alongK < 1 || t.alongM < 1 || t.reductionSplit < 1)
                throwInputError(source, where(), "dimensions and tiles must be positive");
            if (!shapes || shapesKey.second != *cls || shapesKey.first != f[0]) {
                shapesKey = {std::string(f[0]), *cls};
                shapes = &db.entries_[shapesKey];
            }
            addShape(*shapes, b, m, n, k, t);
        } catch (const std::logic_error&) { // cellNumber: invalid_argument, out_of_range
            throwInputError(source, where(), "not a number where one was expected");
        }
    }
    return db;
}

TileDatabase TileDatabase::load(const std::string& path)
{
    return parse(readFile(path, kMaxTableBytes), path);
}

} // namespace gpuforecast
