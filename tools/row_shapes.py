#!/usr/bin/env python3
"""Why softmax and layer norm miss on the validation set even for the GPUs they were trained on.

1. Measured fraction of peak memory bandwidth (one read and one write of b x h floats) of large
   softmax and layer-norm kernels (>= 64 MB moved, rows of at least 512), per GPU and row length h.
   Training rows have random h up to 4094; validation rows have round h (768, 1024, ... 16384).
2. Where the large rows' drop begins: the same fractions, relative to each GPU's best for that
   operator, against the working set of the rows in flight over the L2 that serves them (see
   `working_set` below). The drop falls in the same band of that ratio on every GPU.
3. With --forecast P.csv (the output of `gpuforecast-cli kernels --in val/vector.csv.gz --out P.csv`):
   the forecast's signed error per GPU and row length.

Usage: tools/row_shapes.py [--data DIR] [--forecast P.csv]   (DIR default: resources/datasets/neusight)
"""
import argparse
import collections
import csv
import gzip
import json
import os

here = os.path.dirname(os.path.abspath(__file__))
ap = argparse.ArgumentParser()
ap.add_argument("--data", default=os.path.join(here, "..", "resources", "datasets", "neusight"))
ap.add_argument("--forecast")
args = ap.parse_args()

GPUS = ["A100-PCIE-40GB", "V100-PCIE-32GB", "P100-PCIE-16GB", "T4", "P4"]
bandwidth = {}
for g in GPUS:
    with open(os.path.join(here, "..", "resources", "gpus", g + ".json")) as f:
        bandwidth[g] = json.load(f)["memory_bandwidth_gbps"]


def band(h):
    """Training rows are grouped in octaves; validation rows keep their exact length."""
    lo = 1
    while lo * 2 <= h:
        lo *= 2
    return f"{lo}-{2 * lo - 1}"


def median(v):
    v = sorted(v)
    return v[len(v) // 2]


def table(title, cells, keys):
    print(title)
    print("| op | rows | h | " + " | ".join(GPUS) + " |")
    print("|---|---|---|" + "---|" * len(GPUS))
    for key in keys:
        vals = [cells.get(key + (g,)) for g in GPUS]
        print(f"| {key[0]} | {key[1]} | {key[2]} | " +
              " | ".join(f"{v:.2f}" if v is not None else "-" for v in vals) + " |")
    print()


eff = collections.defaultdict(list)
for split in ("train", "val"):
    with gzip.open(os.path.join(args.data, split, "vector.csv.gz"), "rt") as f:
        for r in csv.DictReader(f):
            if r["op"] not in ("softmax", "ln") or r["gpu"] not in bandwidth:
                continue
            b, h = int(r["b"]), int(r["h"])
            moved = 8.0 * b * h
            if moved < 64e6 or h < 512:
                continue
            achieved = moved / (float(r["latency_ms"]) * 1e-3) / 1e9
            key = (r["op"], split, band(h) if split == "train" else str(h))
            eff[key + (r["gpu"],)].append(achieved / bandwidth[r["gpu"]])
cells = {k: median(v) for k, v in eff.items()}
keys = sorted({k[:3] for k in cells}, key=lambda k: (k[0], int(k[2].split("-")[0]), k[1]))
table("1. measured fraction of peak bandwidth (median over kernels >= 64 MB, h >= 512)", cells, keys)


def working_set(op, h, b, spec):
    """Bytes of the rows in flight over the L2 that serves them, or None for kernels that keep the
    row in registers (softmax up to 1024 floats). A layer-norm block holds one row and re-reads it
    once; PyTorch's cunn_SoftMaxForward reads its row three times. Rows in flight per SM (16 for
    layer norm, 4 for softmax) are the counts that line the GPUs up, read off these data, not a
    hardware rule. The A100's L2 is two partitions that each cache what their own SMs read, so an
    SM is served by half of it (NVIDIA A100 whitepaper)."""
    if op == "softmax" and h <= 1024:
        return None
    per_sm = 16 if op == "ln" else 4
    l2 = spec["l2_cache_mb"] * 1e6 * (0.5 if spec["id"].startswith("A100") else 1.0)
    return 4.0 * h * min(b, per_sm * spec["sm_count"]) / l2


def ratio_band(x):
    for hi in (0.5, 0.7, 1.0, 1.3, 2.0):
        if x < hi:
            return f"< {hi}"
    return ">= 2.0"


specs = {}
for g in GPUS:
    with open(os.path.join(here, "..", "resources", "gpus", g + ".json")) as f:
        specs[g] = json.load(f)
best = collections.defaultdict(float)
for (op, split, _, g), v in cells.items():
    best[(op, g)] = max(best[(op, g)], v) if split == "val" else best[(op, g)]
drop = collections.defaultdict(list)
for (op, split, h, g), v in cells.items():
    x = working_set(op, int(h), 1 << 40, specs[g]) if split == "val" else None
    if x is not None:
        drop[(op, "val", ratio_band(x), g)].append(v / best[(op, g)])
bands = ["< 0.5", "< 0.7", "< 1.0", "< 1.3", "< 2.0", ">= 2.0"]
table("2. fraction relative to the GPU's best, by rows in flight x row bytes / L2 (h column)",
      {k: median(v) for k, v in drop.items()},
      [(op, "val", band_) for op in ("ln", "softmax") for band_ in bands])

if args.forecast:
    err = collections.defaultdict(list)
    with open(args.forecast) as f:
        for r in csv.DictReader(f):
            if r["op"] in ("softmax", "ln") and r["gpu"] in bandwidth:
                err[(r["op"], "val", r["h"], r["gpu"])].append(float(r["pred_ms"]) / float(r["latency_ms"]) - 1)
    cells = {k: 100 * sum(v) / len(v) for k, v in err.items()}
    keys = sorted({k[:3] for k in cells}, key=lambda k: (k[0], int(k[2])))
    table("3. forecast signed error (%), mean over the validation kernels", cells, keys)
