#pragma once
// Reads NeuSight's operator-graph CSVs (shared/data/neusight/opgraphs/<run>.csv) into the same
// GraphKernel form buildModelGraph produces, so the two can be compared kernel for kernel.
// Columns used: Name, OpName, FwOps, BwOps, AccOps, OutputShape. The op lists are Python literals:
//   [['Linear', (m, n, k)], ['BMM', (b, m, n, k)], ['VECadd', (rows, h)], ['MEM', ((4, 1024), (4, 1024, 1280))]]
// A MEM entry moves 4 bytes per element of every listed shape.
#include "gpuforecast/model_graph.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpuforecast {

// Most reference runs trace one transformer block plus the rest; the block runs `layers` times.
struct ReferenceLayerSpan {
    std::string first; // name of the block's first node
    std::string last;  // name of its last node (inclusive)
    long long layers = 1;
};

// The block markers NeuSight itself uses when it replicates a traced block (aggregator.py), by
// model family: gpt2, bert and opt. Other families (switch) and fused runs are traced whole.
std::optional<ReferenceLayerSpan> neuSightLayerSpan(const std::string& family, long long layers);

struct ReferenceOptions {
    std::optional<ReferenceLayerSpan> layerSpan; // set for single-block traces
    // NeuSight's parser labels every node named matmul_4, matmul_40 .. matmul_49 as a Linear (a
    // hard-coded name test), though they multiply two activations like every other matmul. When
    // set, such nodes are read back as the BMM they are: forward (b, m, n, k) from the output
    // shape, the two BMM gradients, and no parameter gradients to accumulate.
    bool repairMatmulLabels = true;
};

std::vector<GraphKernel> parseReferenceGraph(std::string_view csvText, const std::string& source,
                                             const ReferenceOptions& options);
std::vector<GraphKernel> loadReferenceGraph(const std::string& path, const ReferenceOptions& options);

} // namespace gpuforecast
